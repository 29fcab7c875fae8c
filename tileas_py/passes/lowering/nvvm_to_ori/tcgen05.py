"""tcgen05 (sm_100): tensor-memory allocation, fences and waits, commits, tensor-memory
loads and stores, and the MMA, as the PTX LLVM's NVPTX backend writes for the NVVM ops.

A tensor-memory address (`!llvm.ptr<6>`) is a 32-bit register; a shared-memory address
names the `.shared::cta` allocation slot (`alloc`) or the `.shared::cluster` mbarrier
(`commit`), a generic one drops the state space:

    tcgen05.alloc.cta_group::1.sync.aligned.shared::cta.b32 [%rd1], 128;
    tcgen05.relinquish_alloc_permit.cta_group::1.sync.aligned;
    tcgen05.fence::after_thread_sync;
    tcgen05.mma.cta_group::1.kind::f16 [%r1], %rd2, %rd3, %r2, %p1;
    tcgen05.cp.cta_group::2.64x128b.warpx2::01_23 [%r1], %rd5;
    tcgen05.shift.cta_group::1.down [%r1];
    tcgen05.commit.cta_group::1.mbarrier::arrive::one.shared::cluster.b64 [%rd4];
    tcgen05.ld.sync.aligned.32x32b.x32.b32 {%r3, ..., %r34}, [%r5];
    tcgen05.wait::ld.sync.aligned;
    tcgen05.dealloc.cta_group::1.sync.aligned.b32 %r1, 128;

ptxas 13.5 (`-arch=sm_100a`) assembles `tcgen05.mma` into `UTCHMMA` (kinds f16 and tf32),
`UTCQMMA` (f8f6f4) and `UTCIMMA` (i8); `test_tcgen05_sass.py` checks each.
PTX ISA: https://docs.nvidia.com/cuda/parallel-thread-execution/#tensorcore-5th-generation-instructions
"""

from __future__ import annotations

from tileas_py.dialects.nvvm import tcgen05
from tileas_py.dialects.nvvm.attrs import (
    CTAGroupKind,
    CTAGroupKindAttr,
    Tcgen05CpMulticast,
    Tcgen05CpShape,
    Tcgen05FenceKind,
    Tcgen05LdStShape,
    Tcgen05MMACollectorOp,
    Tcgen05WaitKind,
)
from tileas_py.dialects.nvvm.pointers import SHARED, TENSOR, address_space
from tileas_py.dialects.ori.attributes import ImmAttr
from tileas_py.passes.lowering.nvvm_to_ori.function import FunctionLowering, fail
from tileas_py.passes.lowering.nvvm_to_ori.operands import (
    Address,
    Def,
    Operand,
    Vector,
)
from tileas_py.passes.lowering.nvvm_to_ori.registry import lowers


def _group(attr: CTAGroupKindAttr) -> str:
    return ".cta_group::2" if attr.data is CTAGroupKind.CTA_2 else ".cta_group::1"


@lowers(tcgen05.Tcgen05AllocOp)
def lower_alloc(fl: FunctionLowering, op: tcgen05.Tcgen05AllocOp) -> None:
    space = ".shared::cta" if address_space(op.addr.type) == SHARED else ""
    fl.emit(
        f"tcgen05.alloc{_group(op.group)}.sync.aligned{space}.b32",
        fl.address(op.addr),
        fl.source(op.nCols),
    )


@lowers(tcgen05.Tcgen05DeallocOp)
def lower_dealloc(fl: FunctionLowering, op: tcgen05.Tcgen05DeallocOp) -> None:
    fl.emit(
        f"tcgen05.dealloc{_group(op.group)}.sync.aligned.b32",
        fl.register(op.taddr),
        fl.source(op.nCols),
    )


@lowers(tcgen05.Tcgen05RelinquishAllocPermitOp)
def lower_relinquish(
    fl: FunctionLowering, op: tcgen05.Tcgen05RelinquishAllocPermitOp
) -> None:
    fl.emit(f"tcgen05.relinquish_alloc_permit{_group(op.group)}.sync.aligned")


@lowers(tcgen05.Tcgen05FenceOp)
def lower_fence(fl: FunctionLowering, op: tcgen05.Tcgen05FenceOp) -> None:
    when = "before" if op.kind.data is Tcgen05FenceKind.BEFORE else "after"
    fl.emit(f"tcgen05.fence::{when}_thread_sync")


@lowers(tcgen05.Tcgen05WaitOp)
def lower_wait(fl: FunctionLowering, op: tcgen05.Tcgen05WaitOp) -> None:
    what = "ld" if op.kind.data is Tcgen05WaitKind.LOAD else "st"
    fl.emit(f"tcgen05.wait::{what}.sync.aligned")


@lowers(tcgen05.Tcgen05CommitOp)
def lower_commit(fl: FunctionLowering, op: tcgen05.Tcgen05CommitOp) -> None:
    space = ".shared::cluster" if address_space(op.addr.type) == SHARED else ""
    opcode = f"tcgen05.commit{_group(op.group)}.mbarrier::arrive::one{space}"
    operands: list[Operand] = [fl.address(op.addr)]
    if op.multicastMask is not None:
        if not space:
            fail(op, "a multicast tcgen05.commit needs a shared-memory mbarrier")
        opcode += ".multicast::cluster"
        operands.append(fl.source(op.multicastMask))
    fl.emit(f"{opcode}.b64", *operands)


_CP_SHAPES = {
    Tcgen05CpShape.SHAPE_128x256b: ".128x256b",
    Tcgen05CpShape.SHAPE_4x256b: ".4x256b",
    Tcgen05CpShape.SHAPE_128x128b: ".128x128b",
    Tcgen05CpShape.SHAPE_64x128b: ".64x128b",
    Tcgen05CpShape.SHAPE_32x128b: ".32x128b",
}
_CP_MULTICASTS = {
    Tcgen05CpMulticast.NONE: "",
    Tcgen05CpMulticast.WARPX2_02_13: ".warpx2::02_13",
    Tcgen05CpMulticast.WARPX2_01_23: ".warpx2::01_23",
    Tcgen05CpMulticast.WARPX4: ".warpx4",
}


@lowers(tcgen05.Tcgen05CpOp)
def lower_cp(fl: FunctionLowering, op: tcgen05.Tcgen05CpOp) -> None:
    if op.srcFormat is not None:
        fail(op, "tcgen05.cp with a source format (decompression) is not supported")
    opcode = (
        f"tcgen05.cp{_group(op.group)}{_CP_SHAPES[op.shape.data]}"
        f"{_CP_MULTICASTS[op.multicast.data]}"
    )
    fl.emit(opcode, Address(fl.register(op.taddr)), fl.register(op.smem_desc))


@lowers(tcgen05.Tcgen05ShiftOp)
def lower_shift(fl: FunctionLowering, op: tcgen05.Tcgen05ShiftOp) -> None:
    fl.emit(f"tcgen05.shift{_group(op.group)}.down", Address(fl.register(op.taddr)))


_SHAPES = {
    Tcgen05LdStShape.SHAPE_32X32B: "32x32b",
    Tcgen05LdStShape.SHAPE_16X64B: "16x64b",
    Tcgen05LdStShape.SHAPE_16X128B: "16x128b",
    Tcgen05LdStShape.SHAPE_16X256B: "16x256b",
    Tcgen05LdStShape.SHAPE_16X32BX2: "16x32bx2",
}
_REGISTERS_PER_REPETITION = {
    Tcgen05LdStShape.SHAPE_32X32B: 1,
    Tcgen05LdStShape.SHAPE_16X64B: 1,
    Tcgen05LdStShape.SHAPE_16X128B: 2,
    Tcgen05LdStShape.SHAPE_16X256B: 4,
    Tcgen05LdStShape.SHAPE_16X32BX2: 1,
}
"""Registers a thread moves per `.num` repetition of each shape (PTX ISA, tcgen05.ld)."""


def _ld_st_opcode(op: tcgen05.Tcgen05LdOp | tcgen05.Tcgen05StOp, count: int) -> str:
    shape = op.shape.data
    repetitions, rest = divmod(count, _REGISTERS_PER_REPETITION[shape])
    # The op verifiers allow only vectors of 2^n registers, at least one repetition.
    assert not rest
    assert repetitions >= 1
    assert repetitions & (repetitions - 1) == 0
    return f".sync.aligned.{_SHAPES[shape]}.x{repetitions}"


def _offset(
    fl: FunctionLowering, op: tcgen05.Tcgen05LdOp | tcgen05.Tcgen05StOp
) -> list[Operand]:
    """The immediate column offset of the `.16x32bx2` shape."""
    if op.offset is None:
        return []
    value = fl.constant(op.offset)
    if value is None:
        fail(op, "the offset of a .16x32bx2 tensor-memory access must be a constant")
    return [ImmAttr(value)]


@lowers(tcgen05.Tcgen05LdOp)
def lower_ld(fl: FunctionLowering, op: tcgen05.Tcgen05LdOp) -> None:
    registers = fl.fresh_value(op.res)
    shape = _ld_st_opcode(op, len(registers))
    pack = ".pack::16b" if op.pack is not None else ""
    fl.emit(
        f"tcgen05.ld{shape}{pack}.b32",
        Vector(tuple(Def(r) for r in registers)),
        Address(fl.register(op.tmemAddr)),
        *_offset(fl, op),
    )


@lowers(tcgen05.Tcgen05StOp)
def lower_st(fl: FunctionLowering, op: tcgen05.Tcgen05StOp) -> None:
    layout = fl.layout(op.val.type)
    values = tuple(
        fl.in_register(element, leaf.scalar)
        for element, leaf in zip(fl.elements(op.val), layout.leaves, strict=True)
    )
    shape = _ld_st_opcode(op, len(values))
    unpack = ".unpack::16b" if op.unpack is not None else ""
    fl.emit(
        f"tcgen05.st{shape}{unpack}.b32",
        Address(fl.register(op.tmemAddr)),
        *_offset(fl, op),
        Vector(values),
    )


@lowers(tcgen05.Tcgen05MMAOp)
def lower_mma(fl: FunctionLowering, op: tcgen05.Tcgen05MMAOp) -> None:
    opcode = f"tcgen05.mma{_group(op.ctaGroup)}.kind::{op.kind.data.value}"
    if op.aShift is not None:
        opcode += ".ashift"
    collector = op.collectorOp.data
    if collector is not Tcgen05MMACollectorOp.DISCARD:
        opcode += f".collector::a::{collector.value}"
    a_in_tensor_memory = address_space(op.matrixA.type) == TENSOR
    operands: list[Operand] = [
        Address(fl.register(op.matrixD)),
        Address(fl.register(op.matrixA))
        if a_in_tensor_memory
        else fl.register(op.matrixA),
        fl.register(op.matrixB),
        fl.register(op.idesc),
    ]
    if op.disableOutputLane is not None:
        layout = fl.layout(op.disableOutputLane.type)
        operands.append(
            Vector(
                tuple(
                    fl.in_register(element, leaf.scalar)
                    for element, leaf in zip(
                        fl.elements(op.disableOutputLane), layout.leaves, strict=True
                    )
                )
            )
        )
    operands.append(fl.register(op.enableInputD))
    if op.scaleInputD is not None:
        scale = fl.constant(op.scaleInputD)
        if scale is None:
            fail(op, "the scale input of tcgen05.mma must be a constant (an immediate)")
        operands.append(ImmAttr(scale))
    fl.emit(opcode, *operands)
