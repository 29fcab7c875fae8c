"""ptxas's checks of OCG intrinsic calls: names, subops, parameter counts and types.

PTX code may call ptxas's OCG intrinsics as `.extern .func __nv_ptx_builtin_ocg_<name>`
(seed 003, "Memory Order Intrinsic Lowering"); ptxas lowers the call in its intrinsic
dispatcher and reports C7300-C7308 for what it cannot lower. `check_ocg_intrinsic` returns
those messages, in ptxas 13.5's order, for a call described by its name and the PTX types
of its parameters and results (from the `.extern .func` declaration):

- a name of no known family (seed 003's 43-case dispatcher): C7300 with the whole name;
- `red_async` / `write_async`: an unknown subop, C7305; a parameter count other than 3,
  C7301; then `check_intrinsic_memory_order` (domain, scope / memory order, mmio: C7308);
  then a data operand (`red_async`'s third parameter, `write_async`'s second) whose width
  differs from the type subop, C7308 "Operand type does not match specified type";
- `cp_async_bulk`: positional subops (destination `_shared` / `_global` first, then the
  source: C7307 for the wrong kind at a position, `(mbarrier)` for a missing source; a
  `_counted` after them, C7306; an unknown one, C7305), the bytemask rules (C7300), the
  parameter count (C7301), the parameter types (C7302 / C7303), then the sequencing rules
  (C7300), as `check_bulk_copy_subops` describes;
- `s2r`: a result that is not 32 bits wide, C7301 "Unexpected intrinsic type (???)".

Every case was observed with ptxas 13.5.37 (`test/ptxas/sync/corpus/ocg_*`).
"""

from __future__ import annotations

from dataclasses import dataclass

from tileas_py.hw.sync.diagnostics import (
    SYNC_MESSAGE_BY_NAME,
    MemoryOrder,
    Scope,
    StateSpace,
    SyncDiagnostic,
    check_bulk_copy_subops,
    check_intrinsic_memory_order,
)

OCG_PREFIX = "__nv_ptx_builtin_ocg_"
OCG_FAMILIES = (
    "add",
    "cp_async_commit",
    "cp_async_wait",
    "cache",
    "ld_mc",
    "ldc",
    "s2r",
    "acqblk",
    "preexit",
    "red_async",
    "cp_async_bulk",
    "cp_red_async_bulk",
    "cp_async_tensor",
    "cp_async_prefetch_tensor",
    "fence_view_async",
    "viadd",
    "viaddmax",
    "viaddmin",
    "vimax",
    "vimin",
    "vimax3",
    "vimin3",
    "write_async",
    "cctl_c",
    "getnextworkid",
    "fadd2",
    "ffma2",
    "fmul2",
    "mnmx",
    "fmax3",
    "fmin3",
    "tcbar",
    "mmareadshma",
    "tccp",
    "tcmma",
    "tcshift",
    "virtcount",
    "tcatomsws",
    "tcldsws",
    "tcstsws",
    "memclear",
    "acqshminit",
    "ldtm",
    "sttm",
)
"""The OCG operations of seed 003's intrinsic dispatcher (its slots 0..43)."""

UNKNOWN_TYPE = "???"
"""How ptxas 13.5 prints a type in C7301-C7303."""
OPERAND_TYPE_RULE = "Operand type does not match specified type"

_REDUCTIONS = frozenset({"add", "min", "max", "inc", "dec", "and", "or", "xor"})
_DATA_TYPES = {"u32": 32, "s32": 32, "b32": 32, "u64": 64, "s64": 64, "b64": 64}
_MEMORY_SUBOPS = frozenset(
    {"shared", "global", "gpu", "sys", "release", "mmio", *_REDUCTIONS, *_DATA_TYPES}
)
_DOMAINS = frozenset({"shared", "global"})
_BULK_SCOPES = frozenset({"gpu", "sys", "cta", "cluster"})
_BULK_SUBOPS = frozenset({"counted", "bytemask", "sequenced", *_DOMAINS, *_BULK_SCOPES})


@dataclass(frozen=True)
class IntrinsicCall:
    """A call of an OCG intrinsic: its name after the prefix, and the PTX types (`b32`)
    of its parameters and results."""

    name: str
    params: tuple[str, ...] = ()
    results: tuple[str, ...] = ()


def _message(name: str, *args: str) -> SyncDiagnostic:
    return SyncDiagnostic(SYNC_MESSAGE_BY_NAME[name], args)


def _bits(ptx_type: str) -> int:
    digits = "".join(c for c in ptx_type if c.isdigit())
    return int(digits) if digits else 0


def intrinsic_family(name: str) -> str | None:
    """The dispatcher slot a name belongs to: the longest family it starts with."""
    families = [f for f in OCG_FAMILIES if name == f or name.startswith(f + "_")]
    return max(families, key=len, default=None)


def check_ocg_intrinsic(call: IntrinsicCall) -> list[SyncDiagnostic]:
    """ptxas's messages for an OCG intrinsic call; a fatal one ends the list."""
    family = intrinsic_family(call.name)
    if family is None:
        return [_message("intrinsic-name", OCG_PREFIX + call.name)]
    subops = [t for t in call.name.removeprefix(family).split("_") if t]
    if family in ("red_async", "write_async"):
        return _check_memory_intrinsic(call, family, subops)
    if family == "cp_async_bulk":
        return _check_bulk_copy(call, subops)
    if family == "s2r" and any(_bits(t) != 32 for t in call.results):
        return [_message("intrinsic-result-type", UNKNOWN_TYPE)]
    return []


def _param_count(call: IntrinsicCall, expected: int) -> list[SyncDiagnostic]:
    if len(call.params) == expected:
        return []
    return [_message("intrinsic-param-number", str(len(call.params) - 1))]


def _check_memory_intrinsic(
    call: IntrinsicCall, family: str, subops: list[str]
) -> list[SyncDiagnostic]:
    for i, subop in enumerate(subops):
        if subop not in _MEMORY_SUBOPS:
            return [_message("intrinsic-subop", "_".join(subops[i:]))]
    if count := _param_count(call, 3):
        return count
    domains = [StateSpace(s) for s in subops if s in _DOMAINS]
    scopes = [Scope(s) for s in subops if s in ("gpu", "sys")]
    found = check_intrinsic_memory_order(
        domain=domains[0] if domains else None,
        scope=scopes[0] if scopes else None,
        order=MemoryOrder.RELEASE if "release" in subops else None,
        mmio="mmio" in subops,
    )
    if any(d.message.name == "intrinsic-rule" for d in found):
        return found
    data_type = next((s for s in subops if s in _DATA_TYPES), None)
    data = call.params[1 if family == "write_async" else 2]
    if data_type is not None and _bits(data) != _DATA_TYPES[data_type]:
        found.append(_message("intrinsic-rule", OPERAND_TYPE_RULE))
    return found


def _check_bulk_copy(call: IntrinsicCall, subops: list[str]) -> list[SyncDiagnostic]:
    counted = subops[:1] == ["counted"]
    positional = subops[1:] if counted else subops
    for i, subop in enumerate(positional):
        if subop not in _BULK_SUBOPS:
            return [_message("intrinsic-subop", "_".join(positional[i:]))]
    if not positional or positional[0] not in _DOMAINS:
        wrong = positional[0] if positional else "mbarrier"
        return [_message("intrinsic-subop-at-position", wrong, "0")]
    dst = StateSpace(positional[0])
    source = positional[1] if len(positional) > 1 else "mbarrier"
    sources = {"shared"} if dst is StateSpace.GLOBAL else {"shared", "global"}
    if source not in sources:
        return [_message("intrinsic-subop-at-position", source, "1")]
    src = StateSpace(source)
    for i, subop in enumerate(positional[2:], start=2):
        if subop in ("counted", *_DOMAINS):
            return [_message("intrinsic-subop-position", str(i))]
    rest = positional[2:]
    bytemask = "bytemask" in rest
    masks = check_bulk_copy_subops(dst=dst, src=src, counted=counted, bytemask=bytemask)
    if masks:
        return masks
    if count := _param_count(call, 5 if counted else 4):
        return count
    expected = ["b64", "b64", "b32", "b16" if bytemask else "b64", "b32"]
    for i, ptx_type in enumerate(call.params):
        wanted = expected[i]
        if _bits(ptx_type) == _bits(wanted):
            continue
        if i == 2 and _bits(ptx_type) == 64:
            return [
                _message(
                    "intrinsic-param-type-instead", UNKNOWN_TYPE, UNKNOWN_TYPE, str(i)
                )
            ]
        return [_message("intrinsic-param-type", UNKNOWN_TYPE, str(i))]
    scopes = [Scope(s) for s in rest if s in _BULK_SCOPES]
    return check_bulk_copy_subops(
        dst=dst,
        src=src,
        counted=counted,
        bytemask=bytemask,
        sequenced="sequenced" in rest,
        scope=scopes[0] if scopes else None,
    )
