"""The WGMMA four ops, and the struct ops that build and take apart their accumulators.

An accumulator struct is one register per element. `nvvm.wgmma.mma_async` reads and
writes its accumulator in place (`inout`), so the registers of its accumulator operand
become the registers of its result whenever that operand dies at the MMA and owns its
registers: a chain of `mma_async` ops, and a K loop that carries the accumulator through
a block argument, then name the same registers throughout, as ptxas needs to keep the
WGMMA pipeline. Otherwise the accumulator is first copied into fresh registers.

`llvm.extractvalue` / `llvm.insertvalue` only rename registers: an extracted element is
the register of the struct's element, an inserted one takes the place of the old element.
PTX ISA: https://docs.nvidia.com/cuda/parallel-thread-execution/#asynchronous-warpgroup-level-matrix-instructions-wgmma-mma-async
"""

from __future__ import annotations

from xdsl.dialects import llvm
from xdsl.ir import SSAValue

from tileas_py.dialects.nvvm import wgmma as nvvm_wgmma
from tileas_py.dialects.nvvm.attrs import (
    MMAIntOverflow,
    MMALayout,
    WGMMAScaleIn,
    WGMMAScaleOut,
)
from tileas_py.dialects.ori.attributes import ImmAttr
from tileas_py.dialects.ori.function import RegOp
from tileas_py.hw import wgmma as hw_wgmma
from tileas_py.passes.lowering.nvvm_to_ori.function import (
    FunctionLowering,
    fail,
    mov_for,
)
from tileas_py.passes.lowering.nvvm_to_ori.operands import (
    Address,
    Def,
    Element,
    InOut,
    Operand,
    Vector,
)
from tileas_py.passes.lowering.nvvm_to_ori.registry import lowers
from tileas_py.passes.lowering.nvvm_to_ori.types import B32, F32, member_leaves

# ---------------------------------------------------------------------------------------
# Structs


def _member_leaves(op: llvm.ExtractValueOp | llvm.InsertValueOp) -> tuple[int, int]:
    """The leaves [start, end) of the aggregate member that `op` reads or writes."""
    position = tuple(op.position.get_values())
    member = member_leaves(op.container.type, position)
    if member is None:
        fail(op, f"position {list(position)} is out of range for '{op.container.type}'")
    start, end, _ = member
    return start, end


@lowers(llvm.ExtractValueOp)
def lower_extractvalue(fl: FunctionLowering, op: llvm.ExtractValueOp) -> None:
    start, end = _member_leaves(op)
    fl.define(op.res, fl.elements(op.container)[start:end])


@lowers(llvm.InsertValueOp)
def lower_insertvalue(fl: FunctionLowering, op: llvm.InsertValueOp) -> None:
    start, end = _member_leaves(op)
    elements = fl.elements(op.container)
    # A constant put into an aggregate is moved into a register of its own here, where
    # the aggregate is built (before a WGMMA fence, say), not where the aggregate is
    # used, and not shared with the other members holding the same constant (a WGMMA
    # writes each accumulator register in place).
    inserted: list[Element] = []
    for element, leaf in zip(
        fl.elements(op.value), fl.layout(op.value.type).leaves, strict=True
    ):
        if isinstance(element, RegOp | Address):
            inserted.append(element)
            continue
        reg = fl.fresh(leaf.scalar.registers)
        fl.emit(mov_for(leaf.scalar.registers), Def(reg), element)
        inserted.append(reg)
    fl.define(op.res, (*elements[:start], *inserted, *elements[end:]))


# ---------------------------------------------------------------------------------------
# WGMMA


@lowers(nvvm_wgmma.WgmmaFenceAlignedOp)
def lower_wgmma_fence(fl: FunctionLowering, op: nvvm_wgmma.WgmmaFenceAlignedOp) -> None:
    fl.emit("wgmma.fence.sync.aligned")


@lowers(nvvm_wgmma.WgmmaGroupSyncAlignedOp)
def lower_wgmma_commit(
    fl: FunctionLowering, op: nvvm_wgmma.WgmmaGroupSyncAlignedOp
) -> None:
    fl.emit("wgmma.commit_group.sync.aligned")


@lowers(nvvm_wgmma.WgmmaWaitGroupSyncOp)
def lower_wgmma_wait(fl: FunctionLowering, op: nvvm_wgmma.WgmmaWaitGroupSyncOp) -> None:
    fl.emit("wgmma.wait_group.sync.aligned", ImmAttr(op.group.value.data))


def accumulator_registers(
    fl: FunctionLowering, accumulator: SSAValue, op: nvvm_wgmma.WgmmaMmaAsyncOp
) -> tuple[tuple[RegOp, ...], set[RegOp]]:
    """The registers the MMA accumulates into, which become the registers of its result,
    and those of them it writes in place (the others are fresh copies)."""
    layout = fl.layout(accumulator.type)
    free = fl.overwritable(accumulator, op)
    registers: list[RegOp] = []
    in_place: set[RegOp] = set()
    for leaf, element in zip(layout.leaves, fl.elements(accumulator), strict=True):
        if isinstance(element, RegOp) and element in free and element not in in_place:
            registers.append(element)
            in_place.add(element)
            continue
        reg = fl.fresh(leaf.scalar.registers)
        source = (
            fl.in_register(element, leaf.scalar)
            if isinstance(element, Address)
            else element
        )
        fl.emit(mov_for(leaf.scalar.registers), Def(reg), source)
        registers.append(reg)
    return tuple(registers), in_place


# The register each accumulator element needs: f32, or 32 bits holding an s32 or a pair
# of f16 (`.f16x2`).
_ACCUMULATOR_REGISTERS = {
    hw_wgmma.WgmmaType.F32: F32,
    hw_wgmma.WgmmaType.S32: B32,
    hw_wgmma.WgmmaType.F16: B32,
}


def _check_accumulator(
    fl: FunctionLowering, op: nvvm_wgmma.WgmmaMmaAsyncOp, type_d: hw_wgmma.WgmmaType
) -> None:
    needed = _ACCUMULATOR_REGISTERS[type_d]
    element = fl.layout(op.inouts.type).leaves[0].scalar
    if element.registers != needed:
        fail(
            op,
            f"a {type_d} accumulator needs {needed.ptx_type}-register elements "
            "(an f16 accumulator packs two values per register: use vector<2xf16> or "
            f"i32 elements), not '{op.inouts.type}'",
        )


@lowers(nvvm_wgmma.WgmmaMmaAsyncOp)
def lower_wgmma_mma_async(fl: FunctionLowering, op: nvvm_wgmma.WgmmaMmaAsyncOp) -> None:
    type_d = hw_wgmma.WgmmaType(op.typeD.data.value)
    type_a = hw_wgmma.WgmmaType(op.typeA.data.value)
    type_b = hw_wgmma.WgmmaType(op.typeB.data.value)
    m, n, k = op.shape.mnk
    satfinite = (
        op.satfinite is not None and op.satfinite.data is MMAIntOverflow.SATFINITE
    )
    opcode = hw_wgmma.ptx_mnemonic(
        hw_wgmma.WgmmaShape(m, n, k), type_d, type_a, type_b, satfinite
    )
    if type_a is hw_wgmma.WgmmaType.B1:
        opcode += ".and.popc"
    _check_accumulator(fl, op, type_d)
    desc_a = fl.register(op.descriptorA)
    desc_b = fl.register(op.descriptorB)
    registers, in_place = accumulator_registers(fl, op.inouts, op)
    operands: list[Operand] = [
        Vector(tuple(InOut(reg) for reg in registers)),
        desc_a,
        desc_b,
        ImmAttr(0 if op.scaleD.data is WGMMAScaleOut.ZERO else 1),
    ]
    if type_a not in (
        hw_wgmma.WgmmaType.S8,
        hw_wgmma.WgmmaType.U8,
        hw_wgmma.WgmmaType.B1,
    ):
        for scale in (op.scaleA, op.scaleB):
            operands.append(ImmAttr(-1 if scale.data is WGMMAScaleIn.NEG else 1))
    if hw_wgmma.supports_transpose(type_a):
        operands.append(ImmAttr(int(op.layoutA.data is MMALayout.COL)))
        operands.append(ImmAttr(int(op.layoutB.data is MMALayout.ROW)))
    fl.emit(opcode, *operands)
    fl.define_overwritten(op.res, registers, in_place)
