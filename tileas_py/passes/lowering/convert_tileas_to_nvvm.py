"""`convert-tileas-to-nvvm`: tile kernels to `llvm.func` + `nvvm` ops.

The input is a module of tile kernels (`nv_tileas.kernel`, or `func.func` holding tile
values) of the `nv_tileaa` / `nv_tileas` / `cute_nvgpu` dialects; the output is the
NVVM-level form that `convert-nvvm-to-ori` takes (see `examples/nvvm_wgmma_sm90a.mlir`).
The pass collects the rewrite patterns of the modules listed in
`tileas_py/passes/lowering/tileas_to_nvvm/__init__.py` (kernels and shared memory, the
WGMMA emission of `nv_tileas.dot` / `cute_nvgpu.atom.gemm`, the tcgen05 emission and
tensor memory of Blackwell dots, `#nv_tileas.blocked` register tiles and the
universal-FMA dot, stores, `scf.for` carrying tiles, ...), which follow the value
conventions of `tileas_to_nvvm/conventions.py` and hand values to each other through
`builtin.unrealized_conversion_cast` (MLIR's dialect-conversion practice,
https://mlir.llvm.org/docs/DialectConversion/). In order:

1. the target: the module's `#nvvm.target` if it has one, else the chip of its
   `nv_tileaa.target_spec` (sm 90 and later: the arch-conditional `sm_90a`, `sm_100a`,
   ...), else the `chip` option; the module gets `nvvm.target` with that chip;
2. per kernel, each tile split across the CTAs of the cluster becomes the piece its CTA
   holds, tiled accesses offset by the cluster rank (`cta.split_into_pieces`; what
   would move data between CTAs is reported), Blackwell MMAs mark the synchronisation
   they change and tensor memory is planned and allocated (`tcgen05.prepare`), the OCG
   enter / leave directives of its ops become pragmas around them
   (`tileas_to_nvvm/ocg_knobs.py`: the fence, arrive and barrier patterns put an op's
   knob and enter directives right before the instruction they emit), then shared
   memory is planned (`kernel.plan_shared_memory`);
3. the patterns run to a fixed point;
4. an op still holding tile values is reported, once, at its location:
   `'nv_tileas.xxx' is not supported by convert-tileas-to-nvvm`;
5. the casts between patterns are folded away (a cast back to the type a value had
   cancels it); a cast that remains is reported at the op that uses it;
6. LLVM constants and aggregates that nothing reads any more (a constant accumulator a
   WGMMA ignores) are erased, so that no instruction is emitted for them.

Before:

    module attributes {nv_tileaa.target_spec = #nv_tileaa.target_spec<sm = 90>} {
      nv_tileas.kernel @k() attributes {nv_tileaa.kernel_spec = #nv_tileaa.kernel_spec<num_ctas = 1>, nv_tileas.num_warps = 4 : i32} {
        %buf = nv_tileas.alloc_tensor : tensor<64x64xf16, #nv_tileas.shared<swizzle = 128, order = [1, 0]>>
        %x = nv_tileaa.get_program_id x
        nv_tileas.return
      }
    }

After:

    module attributes {nv_tileaa.target_spec = #nv_tileaa.target_spec<sm = 90>, nvvm.target = #nvvm.target<chip = "sm_90a">} {
      llvm.mlir.global internal @k_smem() {addr_space = 3 : i32, alignment = 1024 : i64} : !llvm.array<8192 x i8>
      llvm.func @k() attributes {nvvm.kernel, nvvm.reqntid = array<i32: 128, 1, 1>} {
        %0 = llvm.mlir.addressof @k_smem : !llvm.ptr<3>
        %1 = llvm.getelementptr %0[0] : (!llvm.ptr<3>) -> !llvm.ptr<3>, i8
        %x = nvvm.read.ptx.sreg.ctaid.x : i32
        llvm.return
      }
    }
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects import func, llvm
from xdsl.dialects.builtin import ModuleOp, UnrealizedConversionCastOp
from xdsl.ir import Operation
from xdsl.passes import ModulePass
from xdsl.pattern_rewriter import (
    GreedyRewritePatternApplier,
    PatternRewriter,
    PatternRewriteWalker,
    RewritePattern,
    op_type_rewrite_pattern,
)
from xdsl.transforms.dead_code_elimination import is_trivially_dead
from xdsl.transforms.reconcile_unrealized_casts import (
    ReconcileUnrealizedCastsPattern,
)

from tileas_py.analysis.enclosing import module_attribute
from tileas_py.diagnostics import emit_error
from tileas_py.dialects import nv_tileaa
from tileas_py.dialects.nv_tileaa import TARGET_SPEC, TargetSpecAttr
from tileas_py.dialects.nv_tileas import ops as tile_ops
from tileas_py.dialects.nvvm.target import TARGET_ATTR_NAME, NVVMTargetAttr
from tileas_py.hw.arch import Arch
from tileas_py.passes.lowering import tileas_to_nvvm
from tileas_py.passes.lowering.tileas_to_nvvm.conventions import is_tile_type
from tileas_py.passes.lowering.tileas_to_nvvm.cta import split_into_pieces
from tileas_py.passes.lowering.tileas_to_nvvm.kernel import (
    declare_shared_buffer,
    holds_tiles,
    plan_shared_memory,
)
from tileas_py.passes.lowering.tileas_to_nvvm.multicast import (
    ensure_exit_barrier,
    record_cluster_slots,
)
from tileas_py.passes.lowering.tileas_to_nvvm.ocg_knobs import (
    materialize_directives,
)
from tileas_py.passes.lowering.tileas_to_nvvm.persistent import (
    declare_persistent_grid,
)
from tileas_py.passes.lowering.tileas_to_nvvm.promote_locals import promote_locals
from tileas_py.passes.lowering.tileas_to_nvvm.registers import (
    check_budgets,
    plan_registers,
)
from tileas_py.passes.lowering.tileas_to_nvvm.tcgen05 import check_cta_groups
from tileas_py.passes.lowering.tileas_to_nvvm.tcgen05 import prepare as prepare_tcgen05
from tileas_py.passes.lowering.tileas_to_nvvm.wgmma_pipelining import pipeline_wgmma

PASS_NAME = "convert-tileas-to-nvvm"

_TILE_DIALECTS = ("nv_tileas.", "nv_tileaa.", "cute_nvgpu.")


def chip_for_sm(sm: int) -> str:
    """The PTX target of a tile-level SM number: arch-conditional from Hopper on."""
    return f"sm_{sm}a" if sm >= 90 else f"sm_{sm}"


def target_arch(op: Operation) -> Arch | None:
    """The arch of the `nvvm.target` of the module enclosing `op` (set by the pass)."""
    target = module_attribute(op, TARGET_ATTR_NAME, NVVMTargetAttr)
    return None if target is None else target.arch


def _is_unlowered(op: Operation) -> bool:
    if isinstance(op, UnrealizedConversionCastOp):
        return False
    if op.name.startswith(_TILE_DIALECTS):
        return True
    return any(is_tile_type(t) for t in (*op.operand_types, *op.result_types))


class ReconcileBalancedCasts(ReconcileUnrealizedCastsPattern):
    """xDSL's `reconcile-unrealized-casts` on the casts of as many values as they make
    (xDSL's pattern asserts on the others: a pipeline's or a TMEM tile's bundle of LLVM
    values)."""

    @op_type_rewrite_pattern
    def match_and_rewrite(
        self, op: UnrealizedConversionCastOp, rewriter: PatternRewriter
    ) -> None:
        if len(op.inputs) == len(op.outputs):
            super().match_and_rewrite(op, rewriter)


class EraseDeadBundle(RewritePattern):
    """A cast of several LLVM values into one tile value that nothing reads any more."""

    @op_type_rewrite_pattern
    def match_and_rewrite(
        self, op: UnrealizedConversionCastOp, rewriter: PatternRewriter
    ) -> None:
        if len(op.inputs) != len(op.outputs) and not any(r.uses for r in op.results):
            rewriter.erase(op)


def fold_casts(module: ModuleOp) -> None:
    """Fold the casts that patterns left between each other; report any that remain."""
    # xDSL's rewriter names a value after the cast result it replaces; the lowered
    # values keep their own names (the tile-level names stay on the tile ops).
    names = {
        value: value.name_hint
        for cast in module.walk()
        if isinstance(cast, UnrealizedConversionCastOp)
        for value in cast.inputs
    }
    PatternRewriteWalker(
        GreedyRewritePatternApplier(
            [ReconcileBalancedCasts(), EraseDeadBundle()], dce_enabled=False
        )
    ).rewrite_module(module)
    for value, name in names.items():
        value.name_hint = name
    for cast in module.walk():
        if not isinstance(cast, UnrealizedConversionCastOp):
            continue
        users = [use.operation for use in cast.results[0].uses]
        user = next(
            (u for u in users if not isinstance(u, UnrealizedConversionCastOp)), None
        )
        if user is not None:
            emit_error(
                user,
                f"a value of type '{cast.inputs[0].type}' is used as "
                f"'{cast.outputs[0].type}', which {PASS_NAME} does not know how to "
                "convert",
            )


@dataclass(frozen=True)
class ConvertTileasToNvvmPass(ModulePass):
    """Lower tile kernels to `llvm.func` + `nvvm` (see the module docstring)."""

    name = "convert-tileas-to-nvvm"

    chip: str = "sm_90a"
    """The target when the module has neither `nvvm.target` nor `nv_tileaa.target_spec`."""

    producer_registers: int = 40
    """Registers per thread of a warp-specialised kernel's warpgroups that issue no WGMMA
    (`setmaxnreg.dec`; `tileas_to_nvvm/registers.py`)."""

    consumer_registers: int = 0
    """Registers per thread of its WGMMA warpgroups (`setmaxnreg.inc`); 0: what the
    register file leaves them."""

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        check_budgets(self.producer_registers, self.consumer_registers)
        if not isinstance(op.attributes.get(TARGET_ATTR_NAME), NVVMTargetAttr):
            spec = op.attributes.get(TARGET_SPEC)
            chip = (
                chip_for_sm(spec.sm.data)
                if isinstance(spec, TargetSpecAttr)
                else self.chip
            )
            op.attributes[TARGET_ATTR_NAME] = NVVMTargetAttr(chip)
        patterns, shared = tileas_to_nvvm.collect()
        for function in list(op.body.block.ops):
            if isinstance(function, tile_ops.KernelOp | nv_tileaa.FuncOp) or (
                isinstance(function, func.FuncOp) and holds_tiles(function)
            ):
                if record_cluster_slots(function):
                    ensure_exit_barrier(function)
                check_cta_groups(function)
                split_into_pieces(function)
                pipeline_wgmma(function)
                prepare_tcgen05(function)
                materialize_directives(function)
                plan_registers(
                    function, self.producer_registers, self.consumer_registers
                )
                size = plan_shared_memory(function, shared)
                if size:
                    declare_shared_buffer(function, size)
                declare_persistent_grid(function)
        PatternRewriteWalker(
            GreedyRewritePatternApplier(list(patterns), dce_enabled=False),
            apply_recursively=True,
        ).rewrite_module(op)
        for inner in op.walk():
            if _is_unlowered(inner):
                emit_error(inner, f"'{inner.name}' is not supported by {PASS_NAME}")
        fold_casts(op)
        for function in op.body.block.ops:
            if isinstance(function, llvm.FuncOp):
                promote_locals(function)
        erase_dead_llvm_values(op)


_VALUE_BUILDERS = (
    llvm.ConstantOp,
    llvm.ZeroOp,
    llvm.UndefOp,
    llvm.InsertValueOp,
    llvm.ExtractValueOp,
)


def erase_dead_llvm_values(module: ModuleOp) -> None:
    """Erase the constants and aggregates that nothing reads (a constant accumulator that
    a WGMMA ignores: convert-nvvm-to-ori would move it into registers)."""
    for function in module.body.block.ops:
        if not isinstance(function, llvm.FuncOp):
            continue
        for op in reversed(list(function.walk())):
            if isinstance(op, _VALUE_BUILDERS) and is_trivially_dead(op):
                op.detach()
                op.erase()
