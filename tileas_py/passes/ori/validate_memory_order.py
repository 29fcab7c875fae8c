"""`ori-validate-memory-order`: ptxas's memory-order checks of sync instructions.

Seed 003's "Memory Order Intrinsic Lowering": before the sync phases, ptxas validates the
scope / memory-order / mmio rules and the mbarrier (bulk copy) subop rules of what it
lowers, with codes C7300-C7308. ptxas 13.5 does it in two places, and so does this pass:

- the PTX front end, on unknown `.pragma`s (a warning: ptxas takes no knob from PTX, not
  `DisableErrbarAfterMembar=1` either), on `ld` / `st` (memory order, scope, `.mmio`, `.volatile`, state
  space), `fence` / `membar` (scope, level) and `bar` / `barrier` (id, thread count): all
  errors of the module, each as `ptxas k.ptx, line N; error   : ...`, then the abort;
- the OCG intrinsic lowering, on calls of `__nv_ptx_builtin_ocg_*` (`tileas_py.hw.sync.
  intrinsics`): in program order, a warning (the C7308 deprecation, without a location)
  goes on, the first fatal message, `ptxas application ptx input, line N; fatal   :
  (C73xx) ...`, stops. The intrinsic checks only run on a module the front end accepted.

Each message is ptxas's exact line (from `tileas_py.hw.sync.diagnostics`), reported at the
instruction; errors end the pass with ptxas's final `Ptx assembly aborted due to errors`.
`-w` and `--warning-as-error` are the options `suppress-warnings` and `warning-as-error`.

Example: `ld.mmio.relaxed.gpu.global.u32 %r2, [%rd1];` on line 15 of k.ptx reports

    k.ptx:15:3: error: ptxas k.ptx, line 15; error   : Modifier '.mmio' cannot be combined with modifier '.gpu'
    k.ptx:15:3: error: ptxas fatal   : Ptx assembly aborted due to errors
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.passes import ModulePass

from tileas_py.diagnostics import emit, emit_error, location_of
from tileas_py.dialects.ori.analysis import instructions
from tileas_py.dialects.ori.attributes import ImmAttr, SinkAttr, SlotAttr
from tileas_py.dialects.ori.function import FuncOp, RegOp
from tileas_py.dialects.ori.instructions import (
    BarrierOp,
    CallOp,
    FenceOp,
    GenericInstructionOp,
    InstructionOp,
    MbarrierOp,
    MembarOp,
)
from tileas_py.dialects.ori.module_ops import PragmaOp, VersionOp
from tileas_py.hw.sync.diagnostics import (
    SYNC_MESSAGE_BY_NAME,
    MemoryOrder,
    Scope,
    Severity,
    StateSpace,
    SyncDiagnostic,
    check_ptx_barrier,
    check_ptx_fence,
    check_ptx_memory_access,
)
from tileas_py.hw.sync.intrinsics import IntrinsicCall, check_ocg_intrinsic
from tileas_py.passes.ori.support.common import (
    callee_name,
    defined_functions,
    ocg_intrinsic,
    opcode_parts,
    target_sm,
)

ABORTED = "ptxas fatal   : Ptx assembly aborted due to errors"
_ORDERS = {o.value for o in MemoryOrder}
_SCOPES = {s.value for s in Scope}
_FENCE_SCOPES = {
    "cta": Scope.CTA,
    "cluster": Scope.CLUSTER,
    "gpu": Scope.GPU,
    "sys": Scope.SYS,
    "gl": Scope.GPU,
}
HOPPER = 90
KNOWN_PRAGMAS = frozenset({"nounroll", "enable_smem_spilling", "used_bytes_mask"})
"""The `.pragma` strings of the PTX ISA; ptxas 13.5 warns about any other."""
ACQUIRE_RELEASE_FENCES = (8, 6)
"""`fence.acquire` / `fence.release` need PTX ISA 8.6."""
_BARRIERS = ("bar.sync", "bar.arrive", "barrier.sync", "barrier.arrive")


@dataclass(frozen=True)
class ValidateMemoryOrderPass(ModulePass):
    """Reports ptxas's memory-order, barrier and OCG intrinsic errors, in its words.

    See the module docstring for what is checked.
    """

    name = "ori-validate-memory-order"

    suppress_warnings: bool = False
    """ptxas's `-w`: no warnings."""
    warning_as_error: bool = False
    """ptxas's `--warning-as-error`: a warning is an error."""

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        self._check_pragmas(op)
        functions = defined_functions(op)
        target = _Target(target_sm(op), ptx_version(op))
        errors: list[tuple[InstructionOp, SyncDiagnostic]] = []
        for func in functions:
            for inst in instructions(func):
                errors.extend((inst, d) for d in ptx_front_end_messages(inst, target))
        for inst, diagnostic in errors:
            emit(inst, "error", _located(inst, diagnostic).format())
        if errors:
            emit_error(errors[0][0], ABORTED)
        declarations = {
            f.func_name.data: f
            for f in op.ops
            if isinstance(f, FuncOp) and f.is_declaration
        }
        for func in functions:
            for inst in instructions(func):
                if isinstance(inst, CallOp):
                    self._check_call(inst, declarations)

    def _check_pragmas(self, module: ModuleOp) -> None:
        """ptxas warns about every pragma it does not know inside a function and refuses
        one at module scope; knobs such as `DisableErrbarAfterMembar=1` cannot be set
        that way."""
        for pragma in module.walk():
            if not isinstance(pragma, PragmaOp):
                continue
            for text in pragma.strings:
                if text.data.split(" ", 1)[0] in KNOWN_PRAGMAS:
                    continue
                if pragma.parent_op() is module:
                    error = _message("pragma-not-supported", text.data)
                    emit_error(pragma, error.format())
                if not self.suppress_warnings:
                    warning = _message("pragma-unsupported", text.data)
                    emit(pragma, "warning", warning.format())

    def _check_call(self, call: CallOp, declarations: dict[str, FuncOp]) -> None:
        name = ocg_intrinsic(call)
        declaration = declarations.get(callee_name(call) or "")
        if name is None or declaration is None:
            return
        described = IntrinsicCall(
            name,
            tuple(str(p.declarator.ptx_type) for p in declaration.params),
            tuple(str(p.declarator.ptx_type) for p in declaration.returns),
        )
        for diagnostic in check_ocg_intrinsic(described):
            if diagnostic.message.severity is Severity.WARNING:
                if self.warning_as_error:
                    emit_error(
                        call, replace(diagnostic, severity=Severity.ERROR).format()
                    )
                if not self.suppress_warnings:
                    emit(call, "warning", diagnostic.format())
                continue
            emit(call, "error", _located(call, diagnostic).format())
            emit_error(call, ABORTED)


def _located(inst: InstructionOp, diagnostic: SyncDiagnostic) -> SyncDiagnostic:
    location = location_of(inst)
    if location is None:
        return diagnostic.at(0, "<unknown>")
    return diagnostic.at(location.line.data, location.filename.data)


@dataclass(frozen=True)
class _Target:
    sm: int
    version: tuple[int, int]


def ptx_version(module: ModuleOp) -> tuple[int, int]:
    """The module's `.version` as (major, minor); (9, 0) when it declares none."""
    for op in module.ops:
        if isinstance(op, VersionOp):
            major, _, minor = op.version.data.partition(".")
            if major.isdigit() and minor.isdigit():
                return int(major), int(minor)
    return 9, 0


def _message(name: str, *args: str) -> SyncDiagnostic:
    return SyncDiagnostic(SYNC_MESSAGE_BY_NAME[name], args)


def ptx_front_end_messages(
    inst: InstructionOp, target: _Target
) -> list[SyncDiagnostic]:
    """ptxas's PTX errors for the memory-model, barrier and mbarrier operands of one
    instruction, and for sync features its target or PTX version lacks."""
    parts = opcode_parts(inst)
    if (feature := _missing_feature(inst, parts, target)) is not None:
        return feature
    if isinstance(inst, GenericInstructionOp) and parts[0] in ("ld", "st"):
        return _memory_access(parts)
    if isinstance(inst, MembarOp | FenceOp):
        return _fence(parts)
    if isinstance(inst, MbarrierOp):
        return _mbarrier(inst, parts)
    if isinstance(inst, BarrierOp) and ".".join(parts) in _BARRIERS:
        operands = [_operand_text(inst, i) for i in range(len(inst.layout.data))]
        return check_ptx_barrier(
            ".".join(parts),
            barrier=operands[0] if operands else 0,
            threads=operands[1] if len(operands) > 1 else None,
        )
    return []


def _memory_access(parts: list[str]) -> list[SyncDiagnostic]:
    modifiers = parts[1:]
    if modifiers[:1] == ["param"]:
        return []  # kernel and call parameters
    space = None
    for modifier in modifiers:
        base = modifier.split("::", 1)[0]
        if base in {s.value for s in StateSpace}:
            space = StateSpace(base)
            break
    return check_ptx_memory_access(
        parts[0],
        space=space,
        order=next((MemoryOrder(m) for m in modifiers if m in _ORDERS), None),
        scope=next((Scope(m) for m in modifiers if m in _SCOPES), None),
        mmio="mmio" in modifiers,
        volatile="volatile" in modifiers,
    )


def _fence(parts: list[str]) -> list[SyncDiagnostic]:
    rest = parts[1:]
    order = None
    if rest and rest[0] in ("sc", "acq_rel", "acquire", "release"):
        order = MemoryOrder(rest.pop(0))
    scope = None
    if rest and rest[0] in _FENCE_SCOPES:
        scope = _FENCE_SCOPES[rest.pop(0)]
    if rest or (parts[0] == "membar" and order is not None):
        return []  # proxy fences, fence.mbarrier_init: no scope rule
    return check_ptx_fence(parts[0], order=order, scope=scope)


def _operand_text(inst: InstructionOp, index: int) -> int | str:
    operand = inst.layout.data[index]
    if isinstance(operand, ImmAttr):
        return operand.value.data
    if isinstance(operand, SlotAttr):
        slots = 0
        for earlier in inst.layout.data[:index]:
            slots += isinstance(earlier, SlotAttr)
        owner = inst.registers[slots].owner
        return owner.ptx_name if isinstance(owner, RegOp) else "%reg"
    return str(operand)


def _missing_feature(
    inst: InstructionOp, parts: list[str], target: _Target
) -> list[SyncDiagnostic] | None:
    """The message for a sync feature the target or PTX version lacks, if any."""
    hopper = f"sm_{HOPPER}"
    if target.sm < HOPPER:
        if parts[:2] == ["barrier", "cluster"] or (
            parts[0] == "mbarrier"
            and (parts[1] == "try_wait" or parts[1:3] == ["arrive", "expect_tx"])
        ):
            feature = ".".join(p for p in parts if not p.startswith(("shared", "b64")))
            return [_message("feature-needs-target", feature, hopper)]
        if isinstance(inst, FenceOp) and parts[1:3] == ["proxy", "async"]:
            return [_message("modifier-needs-target", "async", hopper)]
        if isinstance(inst, FenceOp | MembarOp) and "cluster" in parts:
            return [_message("feature-needs-target", ".cluster scope", hopper)]
    if (
        isinstance(inst, FenceOp)
        and parts[1] in ("acquire", "release")
        and target.version < ACQUIRE_RELEASE_FENCES
    ):
        version = ".".join(map(str, ACQUIRE_RELEASE_FENCES))
        return [_message("modifier-needs-ptx", parts[1], "fence", version)]
    return None


def _mbarrier(inst: InstructionOp, parts: list[str]) -> list[SyncDiagnostic]:
    """`mbarrier.arrive` takes no acquire and no gpu / sys scope, and a sink result on a
    `.shared::cluster` barrier; mbarriers are `.b64`."""
    found: list[SyncDiagnostic] = []
    mnemonic = ".".join(parts[:2])
    if parts[1] == "arrive":
        for modifier in parts[2:]:
            if modifier in ("gpu", "sys"):
                found.append(_message("illegal-modifier", modifier, mnemonic))
            if modifier == "acquire":
                # ptxas 13.5 reports this one twice.
                found += [_message("illegal-modifier", modifier, mnemonic)] * 2
        if (
            "shared::cluster" in parts
            and inst.layout.data
            and not isinstance(inst.layout.data[0], SinkAttr)
        ):
            found.append(_message("sink-expected", mnemonic))
    types = [p for p in parts[2:] if p[:1] in ("b", "u", "s") and p[1:].isdigit()]
    if types and types != ["b64"]:
        found.append(_message("instruction-types", mnemonic))
    return found
