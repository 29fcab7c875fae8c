"""ptxas's checks of OCG intrinsic calls: names, subops, parameter counts and types.

PTX code may call ptxas's OCG intrinsics as `.extern .func __nv_ptx_builtin_ocg_<name>`
(seed 003, "Memory Order Intrinsic Lowering"); ptxas lowers the call in its intrinsic
dispatcher and reports C7300-C7308 for what it cannot lower. `check_ocg_intrinsic` returns
those messages, in ptxas 13.5's order, for a call described by its name and the PTX types
of its parameters and results (from the `.extern .func` declaration):

- a name of no known family (seed 003's 43-case dispatcher): C7300 with the whole name;
- `red_async` / `write_async` (subops in any order; every `_` starts one): an unknown subop,
  C7305; then the C7308 rules: a domain (`_shared` / `_global`); as many data parameters
  as the vector subop says (`_v2`, `_v4`; one without), after the address and, in shared
  memory, the mbarrier: "Vector type does not match number of subops"; for `red_async` a
  type (`_u32` / `_s32` / `_u64`), no vector of `_s32`, an operation, only `_add` in global
  memory, then `check_intrinsic_memory_order` (scope / memory order, mmio), then `_v2_u32`
  as the only vector, `_add` as the only operation of a vector or of `_u64`, and data
  operands of the type subop's PTX type ("Operand type does not match specified type": a
  signed `_s32` wants `.s32`, an unsigned one `.b32` / `.u32`); for `write_async` a type
  (`_b32` / `_b64`: "Valid type not specified") and the memory-order rules; last, C7302
  for an address (or `write_async` data) that is not `.b32` / `.u32` / `.b64` / `.u64`;
- `cp_async_bulk`: positional subops (destination `_shared` / `_global` first, then the
  source: C7307 for the wrong kind at a position, `(mbarrier)` for a missing source; a
  `_counted` after them, C7306; an unknown one, C7305), the bytemask rules (C7300), the
  parameter count (C7301), the parameter types (C7302 / C7303), then the sequencing rules
  (C7300), as `check_bulk_copy_subops` describes;
- `s2r`: a result that is not 32 bits wide, C7301 "Unexpected intrinsic type (???)".

Every case was observed with ptxas 13.5.37 (`test/ptxas/sync/corpus/ocg_*`); the
`red_async` / `write_async` order is also checked on generated calls
(`test/ptxas/test_ocg_intrinsics.py`).
"""

from __future__ import annotations

from dataclasses import dataclass

from tileas_py.hw.sync.diagnostics import (
    SYNC_MESSAGE_BY_NAME,
    MemoryOrder,
    MemoryOrderRule,
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
VECTOR_SUBOPS_RULE = "Vector type does not match number of subops"
RED_TYPE_RULE = "Type {u32, s32, u64} not specified"
RED_VECTOR_TYPE_RULE = "Vector supported only for {u32, u64}"
RED_OP_RULE = "Op {add, min, max, inc, dec, and, or, xor} not specified"
RED_GLOBAL_ADD_RULE = "Unsupported non _add global memory reduction"
RED_VECTOR_COMBINATION_RULE = "Invalid vector / data type combination"
RED_OP_COMBINATION_RULE = "Invalid data type / op combination"
WRITE_TYPE_RULE = "Valid type not specified"

_REDUCTIONS = ("add", "min", "max", "inc", "dec", "and", "or", "xor")
_RED_TYPES = ("u32", "s32", "u64")
_WRITE_TYPES = ("b32", "b64")
_VECTORS = {"v2": 2, "v4": 4}
_ORDERING_SUBOPS = frozenset({"shared", "global", "gpu", "sys", "release", "mmio"})
_MEMORY_SUBOPS = {
    "red_async": frozenset({*_ORDERING_SUBOPS, *_REDUCTIONS, *_RED_TYPES, *_VECTORS}),
    "write_async": frozenset({*_ORDERING_SUBOPS, *_WRITE_TYPES, *_VECTORS}),
}
_OPERAND_TYPES = {
    "u32": frozenset({"b32", "u32"}),
    "s32": frozenset({"s32"}),
    "u64": frozenset({"b64", "u64"}),
}
"""The PTX types a `red_async` data operand of each type subop may have: a signed one
must be declared signed."""
_ADDRESS_TYPES = frozenset({"b32", "b64", "u32", "u64"})
"""The PTX types ptxas accepts for the addresses of `red_async` / `write_async` and for the
data of `write_async` (whatever its width)."""
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
    rest = call.name.removeprefix(family)
    if family in ("red_async", "write_async"):
        # Every `_` starts a subop, an empty one too (`red_async__shared`).
        return _check_memory_intrinsic(
            call, family, rest[1:].split("_") if rest else []
        )
    subops = [t for t in rest.split("_") if t]
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
    """`red_async` / `write_async`, in ptxas 13.5's order (see the module docstring)."""
    for i, subop in enumerate(subops):
        if subop not in _MEMORY_SUBOPS[family]:
            return [_message("intrinsic-subop", "_".join(subops[i:]))]
    domains = [StateSpace(s) for s in subops if s in _DOMAINS]
    if not domains:
        return [_rule(MemoryOrderRule.DOMAIN_REQUIRED)]
    domain = domains[0]
    vector = next((_VECTORS[s] for s in subops if s in _VECTORS), None)
    # Shared memory takes the address and the mbarrier before the data, global memory
    # the address only.
    data = call.params[2 if domain is StateSpace.SHARED else 1 :]
    if len(data) != (vector or 1):
        return [_rule(VECTOR_SUBOPS_RULE)]
    if family == "write_async":
        found = _check_write(call, subops, domain)
        # The address and the data; the mbarrier may be of any type.
        checked = len(call.params) - int(domain is StateSpace.SHARED)
    else:
        found = _check_reduction(subops, domain, vector, data)
        # The address and the mbarrier; the data has the operand type rule.
        checked = len(call.params) - len(data)
    if _fatal(found):
        return found
    return [*found, *_check_param_types(call, checked)]


def _rule(reason: str) -> SyncDiagnostic:
    return _message("intrinsic-rule", reason)


def _memory_order(subops: list[str], domain: StateSpace) -> list[SyncDiagnostic]:
    scopes = [Scope(s) for s in subops if s in ("gpu", "sys")]
    return check_intrinsic_memory_order(
        domain=domain,
        scope=scopes[0] if scopes else None,
        order=MemoryOrder.RELEASE if "release" in subops else None,
        mmio="mmio" in subops,
    )


def _fatal(found: list[SyncDiagnostic]) -> bool:
    return any(d.message.name == "intrinsic-rule" for d in found)


def _check_reduction(
    subops: list[str], domain: StateSpace, vector: int | None, data: tuple[str, ...]
) -> list[SyncDiagnostic]:
    data_type = next((s for s in subops if s in _RED_TYPES), None)
    if data_type is None:
        return [_rule(RED_TYPE_RULE)]
    if vector is not None and data_type == "s32":
        return [_rule(RED_VECTOR_TYPE_RULE)]
    operation = next((s for s in subops if s in _REDUCTIONS), None)
    if operation is None:
        return [_rule(RED_OP_RULE)]
    if domain is StateSpace.GLOBAL and operation != "add":
        return [_rule(RED_GLOBAL_ADD_RULE)]
    found = _memory_order(subops, domain)
    if _fatal(found):
        return found
    if vector is not None and (data_type, vector) != ("u32", 2):
        return [*found, _rule(RED_VECTOR_COMBINATION_RULE)]
    if (vector is not None or data_type == "u64") and operation != "add":
        return [*found, _rule(RED_OP_COMBINATION_RULE)]
    if any(t not in _OPERAND_TYPES[data_type] for t in data):
        return [*found, _rule(OPERAND_TYPE_RULE)]
    return found


def _check_write(
    call: IntrinsicCall, subops: list[str], domain: StateSpace
) -> list[SyncDiagnostic]:
    if not any(s in _WRITE_TYPES for s in subops):
        return [_rule(WRITE_TYPE_RULE)]
    return _memory_order(subops, domain)


def _check_param_types(call: IntrinsicCall, checked: int) -> list[SyncDiagnostic]:
    """C7302 for the first of the `checked` leading parameters that is not an untyped or
    unsigned 32- or 64-bit value."""
    for index, ptx_type in enumerate(call.params[:checked]):
        if ptx_type not in _ADDRESS_TYPES:
            return [_message("intrinsic-param-type", UNKNOWN_TYPE, str(index))]
    return []


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
