"""NVVM intrinsics: special registers, barriers, fences, cluster ops, mbarriers and TMA.

The PTX of each op is the one upstream MLIR produces (through LLVM's NVPTX backend or
NVVMToLLVM's inline PTX): `mov.u32 %r1, %tid.x`, `bar.sync 0`,
`fence.proxy.async.shared::cta`, `elect.sync _|%p1, -1`,
`mbarrier.arrive.expect_tx.shared::cta.b64 _, [%rd1], %r1`, and
`nvvm.mbarrier.try_wait.parity` as its retry loop:

    $L__ori_0:
        mbarrier.try_wait.parity.shared::cta.b64 %p1, [%rd1], %r2, %r3;
        @!%p1 bra $L__ori_0;

`cp.async.bulk.tensor` copies name the tensor map, the box coordinates and the mbarrier:
`cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes [%rd2], [%rd3, {%r1, %r2}], [%rd1]`.
MLIR reference: https://mlir.llvm.org/docs/Dialects/NVVMDialect/
"""

from __future__ import annotations

from xdsl.dialects.builtin import i32
from xdsl.ir import Operation, SSAValue

from tileas_py.dialects.nvvm import cluster, mbarrier, sreg, sync, tma
from tileas_py.dialects.nvvm.attrs import (
    BarrierReduction,
    MemScopeKind,
    ProxyKind,
    SetMaxRegisterAction,
    TMALoadMode,
    TMAStoreMode,
)
from tileas_py.dialects.nvvm.pointers import (
    GENERIC,
    SHARED,
    SHARED_CLUSTER,
    address_space,
)
from tileas_py.dialects.ori.attributes import SINK, ImmAttr, SpecialRegAttr
from tileas_py.dialects.ori.function import FallthroughOp, RegOp
from tileas_py.dialects.ori.instructions import BraOp
from tileas_py.passes.lowering.nvvm_to_ori.function import (
    FunctionLowering,
    fail,
)
from tileas_py.passes.lowering.nvvm_to_ori.operands import (
    Address,
    Constant,
    Def,
    Operand,
    Pair,
    Vector,
)
from tileas_py.passes.lowering.nvvm_to_ori.registry import lowers
from tileas_py.passes.lowering.nvvm_to_ori.types import B32, PRED

# ---------------------------------------------------------------------------------------
# Special registers

_SREG_PREFIX = "nvvm.read.ptx.sreg."


def special_register(op_name: str) -> str:
    """`nvvm.read.ptx.sreg.cluster.ctaid.x` -> `%cluster_ctaid.x`."""
    name = op_name.removeprefix(_SREG_PREFIX)
    if name[-2:] in (".x", ".y", ".z"):
        return "%" + name[:-2].replace(".", "_") + name[-2:]
    return "%" + name.replace(".", "_")


@lowers(*sreg.SREG_OPS)
def lower_special_register(fl: FunctionLowering, op: Operation) -> None:
    result = op.results[0]
    scalar = fl.scalar(result.type)
    if op.name == "nvvm.read.ptx.sreg.warpsize":
        fl.define(result, (ImmAttr(32),))
        return
    dst = fl.result(result)
    fl.emit(
        f"mov.{scalar.unsigned}", Def(dst), SpecialRegAttr(special_register(op.name))
    )


# ---------------------------------------------------------------------------------------
# Barriers and fences


def _optional_source(
    fl: FunctionLowering, value: SSAValue | None, default: int
) -> RegOp | Constant:
    return ImmAttr(default) if value is None else fl.source(value)


@lowers(sync.Barrier0Op)
def lower_barrier0(fl: FunctionLowering, op: sync.Barrier0Op) -> None:
    fl.emit("bar.sync", ImmAttr(0))


@lowers(sync.BarrierOp)
def lower_barrier(fl: FunctionLowering, op: sync.BarrierOp) -> None:
    barrier = _optional_source(fl, op.barrierId, 0)
    if op.reductionOp is None or op.reductionPredicate is None:
        threads = () if op.numberOfThreads is None else (fl.source(op.numberOfThreads),)
        fl.emit("bar.sync", barrier, *threads)
        return
    contribution = fl.fresh(PRED)
    fl.emit(
        "setp.ne.s32", Def(contribution), fl.register(op.reductionPredicate), ImmAttr(0)
    )
    result = fl.fresh(B32) if op.res is None else fl.result(op.res)
    reduction = op.reductionOp.data
    if reduction is BarrierReduction.POPC:
        fl.emit("bar.red.popc.u32", Def(result), barrier, contribution)
        return
    reduced = fl.fresh(PRED)
    fl.emit(f"bar.red.{reduction.value}.pred", Def(reduced), barrier, contribution)
    fl.emit("selp.u32", Def(result), ImmAttr(1), ImmAttr(0), reduced)


@lowers(sync.BarrierArriveOp)
def lower_barrier_arrive(fl: FunctionLowering, op: sync.BarrierArriveOp) -> None:
    barrier = _optional_source(fl, op.barrierId, 0)
    fl.emit("bar.arrive", barrier, fl.source(op.numberOfThreads))


@lowers(sync.FenceScClusterOp)
def lower_fence_sc_cluster(fl: FunctionLowering, op: Operation) -> None:
    fl.emit("fence.sc.cluster")


@lowers(sync.FenceMbarrierInitOp)
def lower_fence_mbarrier_init(fl: FunctionLowering, op: Operation) -> None:
    fl.emit("fence.mbarrier_init.release.cluster")


@lowers(sync.FenceProxyOp)
def lower_fence_proxy(fl: FunctionLowering, op: sync.FenceProxyOp) -> None:
    kind = op.kind.data
    if kind is ProxyKind.ASYNC_SHARED:
        assert op.space is not None
        fl.emit(f"fence.proxy.async.shared::{op.space.data.value}")
        return
    assert kind not in (ProxyKind.TENSORMAP, ProxyKind.GENERIC), "rejected by verifier"
    fl.emit(f"fence.proxy.{kind.value}")


@lowers(sync.ElectSyncOp)
def lower_elect_sync(fl: FunctionLowering, op: sync.ElectSyncOp) -> None:
    mask = _optional_source(fl, op.membermask, -1)
    dst = fl.result(op.pred)
    fl.emit("elect.sync", Pair(SINK, Def(dst)), mask)


@lowers(sync.SetMaxRegisterOp)
def lower_setmaxregister(fl: FunctionLowering, op: sync.SetMaxRegisterOp) -> None:
    action = "inc" if op.action.data is SetMaxRegisterAction.INCREASE else "dec"
    fl.emit(f"setmaxnreg.{action}.sync.aligned.u32", ImmAttr(op.regCount.value.data))


# ---------------------------------------------------------------------------------------
# Clusters


@lowers(cluster.ClusterArriveOp, cluster.ClusterArriveRelaxedOp, cluster.ClusterWaitOp)
def lower_cluster_barrier(fl: FunctionLowering, op: Operation) -> None:
    assert isinstance(op, cluster.ClusterBarrierOp)
    phase = op.name.removeprefix("nvvm.cluster.")
    aligned = ".aligned" if op.aligned is not None else ""
    fl.emit(f"barrier.cluster.{phase}{aligned}")


@lowers(cluster.MapaOp)
def lower_mapa(fl: FunctionLowering, op: cluster.MapaOp) -> None:
    space = ".shared::cluster" if address_space(op.a.type) == SHARED else ""
    dst = fl.result(op.res)
    fl.emit(f"mapa{space}.u64", Def(dst), fl.register(op.a), fl.source(op.b))


# ---------------------------------------------------------------------------------------
# mbarriers

_MBARRIER_SPACES = {
    GENERIC: "",
    SHARED: ".shared::cta",
    SHARED_CLUSTER: ".shared::cluster",
}


def _mbarrier_space(fl: FunctionLowering, pointer: SSAValue) -> str:
    # The mbarrier verifiers allow only these address spaces.
    return _MBARRIER_SPACES[address_space(pointer.type) or GENERIC]


def _guard(fl: FunctionLowering, predicate: SSAValue | None) -> RegOp | None:
    return None if predicate is None else fl.register(predicate)


@lowers(mbarrier.MBarrierInitOp)
def lower_mbarrier_init(fl: FunctionLowering, op: mbarrier.MBarrierInitOp) -> None:
    fl.emit(
        f"mbarrier.init{_mbarrier_space(fl, op.addr)}.b64",
        fl.address(op.addr),
        fl.source(op.count),
        guard=_guard(fl, op.predicate),
    )


@lowers(mbarrier.MBarrierInvalOp)
def lower_mbarrier_inval(fl: FunctionLowering, op: mbarrier.MBarrierInvalOp) -> None:
    fl.emit(f"mbarrier.inval{_mbarrier_space(fl, op.addr)}.b64", fl.address(op.addr))


def _semantics(
    op: mbarrier.MBarrierArriveOp
    | mbarrier.MBarrierArriveExpectTxOp
    | mbarrier.MBarrierTestWaitOp,
    pointer: SSAValue,
    order: str,
) -> str:
    """`.release.cluster`-style qualifiers, spelled out only when not the default.

    `order` is the ordering of the op (`release` for arrives, `acquire` for waits).
    """
    relaxed = bool(op.relaxed.value.data)
    scope = op.scope.data
    if address_space(pointer.type) == SHARED_CLUSTER:
        scope = MemScopeKind.CLUSTER
    if not relaxed and scope is MemScopeKind.CTA:
        return ""
    return f".{'relaxed' if relaxed else order}.{scope.value}"


def _state(fl: FunctionLowering, result: SSAValue | None) -> Operand:
    return SINK if result is None else Def(fl.result(result))


@lowers(mbarrier.MBarrierArriveOp)
def lower_mbarrier_arrive(fl: FunctionLowering, op: mbarrier.MBarrierArriveOp) -> None:
    space = _mbarrier_space(fl, op.addr)
    fl.emit(
        f"mbarrier.arrive{_semantics(op, op.addr, 'release')}{space}.b64",
        _state(fl, op.res),
        fl.address(op.addr),
    )


@lowers(mbarrier.MBarrierArriveExpectTxOp)
def lower_mbarrier_arrive_expect_tx(
    fl: FunctionLowering, op: mbarrier.MBarrierArriveExpectTxOp
) -> None:
    space = _mbarrier_space(fl, op.addr)
    guard = _guard(fl, op.predicate)
    fl.emit(
        f"mbarrier.arrive.expect_tx{_semantics(op, op.addr, 'release')}{space}.b64",
        _state(fl, op.res),
        fl.address(op.addr),
        fl.source(op.txcount),
        guard=guard,
    )


@lowers(mbarrier.MBarrierTryWaitParityOp)
def lower_mbarrier_try_wait_parity(
    fl: FunctionLowering, op: mbarrier.MBarrierTryWaitParityOp
) -> None:
    space = _mbarrier_space(fl, op.addr)
    address = fl.address(op.addr)
    phase = fl.source(op.phase)
    ticks = fl.source(op.ticks)
    retry = fl.new_block()
    done = fl.new_block()
    fl.terminate(FallthroughOp(retry))
    fl.block = retry
    ready = fl.fresh(PRED)
    fl.emit(f"mbarrier.try_wait.parity{space}.b64", Def(ready), address, phase, ticks)
    fl.terminate(
        BraOp("bra", guard=ready.result, guard_negated=True, successors=[retry, done])
    )
    fl.block = done


@lowers(mbarrier.MBarrierTestWaitOp)
def lower_mbarrier_test_wait(
    fl: FunctionLowering, op: mbarrier.MBarrierTestWaitOp
) -> None:
    space = _mbarrier_space(fl, op.addr)
    address = fl.address(op.addr)
    state = fl.register(op.stateOrPhase)
    dst = fl.result(op.res)
    # An i32 operand is a phase parity (`.parity`), an i64 one the state of an arrive.
    parity = ".parity" if op.stateOrPhase.type == i32 else ""
    fl.emit(
        f"mbarrier.test_wait{parity}{_semantics(op, op.addr, 'acquire')}{space}.b64",
        Def(dst),
        address,
        state,
    )


# ---------------------------------------------------------------------------------------
# TMA


def _coordinates(fl: FunctionLowering, coordinates: tuple[SSAValue, ...]) -> Vector:
    return Vector(tuple(fl.register(c) for c in coordinates))


@lowers(tma.CpAsyncBulkTensorGlobalToSharedClusterOp)
def lower_tma_load(
    fl: FunctionLowering, op: tma.CpAsyncBulkTensorGlobalToSharedClusterOp
) -> None:
    mode = op.mode.data
    if mode not in (TMALoadMode.TILE, TMALoadMode.IM2COL):
        fail(op, f"TMA loads in '{mode.value}' mode are not supported")
    destination = ".shared::cta" if op.isCTAOnly.value.data else ".shared::cluster"
    opcode = (
        f"cp.async.bulk.tensor.{len(op.coordinates)}d{destination}.global."
        f"{mode.value}.mbarrier::complete_tx::bytes"
    )
    extra: list[Operand] = []
    if op.im2colOffsets:
        extra.append(Vector(tuple(fl.register(o) for o in op.im2colOffsets)))
    if op.multicastMask is not None:
        opcode += ".multicast::cluster"
        extra.append(fl.register(op.multicastMask))
    if op.group is not None:
        opcode += f".cta_group::{op.group.data.value.removeprefix('cta_')}"
    if op.l2CacheHint is not None:
        opcode += ".L2::cache_hint"
        extra.append(fl.register(op.l2CacheHint))
    tensor_map = fl.address(op.tmaDescriptor)
    fl.emit(
        opcode,
        fl.address(op.dstMem),
        Address(
            tensor_map.base,
            tensor_map.offset,
            (_coordinates(fl, tuple(op.coordinates)),),
        ),
        fl.address(op.mbar),
        *extra,
        guard=_guard(fl, op.predicate),
    )


_STORE_MODES = {TMAStoreMode.TILE: "tile", TMAStoreMode.IM2COL: "im2col_no_offs"}


@lowers(tma.CpAsyncBulkTensorSharedCTAToGlobalOp)
def lower_tma_store(
    fl: FunctionLowering, op: tma.CpAsyncBulkTensorSharedCTAToGlobalOp
) -> None:
    mode = _STORE_MODES.get(op.mode.data)
    if mode is None:
        fail(op, f"TMA stores in '{op.mode.data.value}' mode are not supported")
    opcode = f"cp.async.bulk.tensor.{len(op.coordinates)}d.global.shared::cta.{mode}.bulk_group"
    extra: list[Operand] = []
    if op.l2CacheHint is not None:
        opcode += ".L2::cache_hint"
        extra.append(fl.register(op.l2CacheHint))
    tensor_map = fl.address(op.tmaDescriptor)
    fl.emit(
        opcode,
        Address(
            tensor_map.base,
            tensor_map.offset,
            (_coordinates(fl, tuple(op.coordinates)),),
        ),
        fl.address(op.srcMem),
        *extra,
        guard=_guard(fl, op.predicate),
    )
