"""Warp specialisation and the async pipeline of `nv_tileas`.

Agents (`agent_switch`, `warp_specialize`) partition a CTA's warps; pipelines move tiles
from producer agents to consumer agents through a ring of shared-memory slots guarded by
mbarriers (PTX ISA, "mbarrier": https://docs.nvidia.com/cuda/parallel-thread-execution/#parallel-synchronization-and-communication-instructions-mbarrier).
"""

from __future__ import annotations

from collections.abc import Sequence

from xdsl.dialects.builtin import (
    I64,
    DenseArrayBase,
    IntegerAttr,
    TensorType,
    UnitAttr,
    i1,
    i32,
    i64,
)
from xdsl.ir import Attribute, Block, Operation, Region, SSAValue
from xdsl.irdl import (
    IRDLOperation,
    irdl_op_definition,
    lazy_traits_def,
    operand_def,
    opt_prop_def,
    prop_def,
    region_def,
    result_def,
    traits_def,
    var_operand_def,
    var_region_def,
    var_result_def,
)
from xdsl.traits import HasParent, IsTerminator, NoTerminator, Pure
from xdsl.utils.exceptions import VerifyException

from tileas_py.dialects.nv_tileas.attrs import MBarrierType, PipelineType
from tileas_py.dialects.nv_tileas.interfaces import (
    AgentLikeOpInterface,
    AsyncFenceOrArrive,
    BarrierOp,
)

MAX_TX_COUNT = (1 << 20) - 1
"""mbarrier transaction counts are 20-bit."""


def i32_array(values: Sequence[int]) -> DenseArrayBase:
    return DenseArrayBase.from_list(i32, values)


@irdl_op_definition
class AgentSwitchOp(AgentLikeOpInterface, IRDLOperation):
    """
    Runs each region (agent) on its own warps of the CTA.

    Entry i gives agent i's warp count `num_warps[i]`, its first warp `warp_id[i]` and
    its warp stride `agent_strides[i]`. A region with no block is a hole: warps
    `warp_id[i]` .. `warp_id[i] + agent_strides[i] - 1` that no agent uses (the layout
    `optimize-execution-unit-mapping` produces). Entries are in warp order and do not
    overlap; an agent of n warps starts at a multiple of n.

    Example:
    ```
    nv_tileas.async.pipeline.agent_switch num_warps = [1, 1, 4] warp_id = [0, 1, 4] agent_strides = [1, 3, 1] attributes {nv_tileas.num_warps = 8 : i32} {
      ...
    } {
    } {
      ...
    }
    ```
    """

    name = "nv_tileas.async.pipeline.agent_switch"

    num_warps = prop_def(DenseArrayBase.constr(i32))
    warp_id = prop_def(DenseArrayBase.constr(i32))
    agent_strides = prop_def(DenseArrayBase.constr(i32))
    agents = var_region_def()

    traits = traits_def(NoTerminator())

    assembly_format = (
        "`num_warps` `=` $num_warps `warp_id` `=` $warp_id `agent_strides` `=`"
        " $agent_strides attr-dict-with-keyword $agents"
    )

    def __init__(
        self,
        num_warps: Sequence[int],
        warp_id: Sequence[int],
        agent_strides: Sequence[int],
        agents: Sequence[Region],
    ) -> None:
        super().__init__(
            properties={
                "num_warps": i32_array(num_warps),
                "warp_id": i32_array(warp_id),
                "agent_strides": i32_array(agent_strides),
            },
            regions=[agents],
        )

    def get_agent_regions(self) -> Sequence[Region]:
        return self.agents

    def get_declared_num_warps(self, index: int) -> int | None:
        return self.num_warps.get_values()[index]

    def get_agent_stride(self, index: int) -> int:
        return self.agent_strides.get_values()[index]

    def verify_(self) -> None:
        num_warps = self.num_warps.get_values()
        warp_id = self.warp_id.get_values()
        strides = self.agent_strides.get_values()
        if not len(num_warps) == len(warp_id) == len(strides) == len(self.agents):
            raise VerifyException(
                f"num_warps, warp_id and agent_strides need one entry per region "
                f"({len(self.agents)}), got {len(num_warps)}, {len(warp_id)} and "
                f"{len(strides)}"
            )
        end = 0
        for i, (region, n, first, stride) in enumerate(
            zip(self.agents, num_warps, warp_id, strides, strict=True)
        ):
            if n < 1 or stride < 1:
                raise VerifyException(
                    f"agent #{i}: num_warps and agent_strides must be positive"
                )
            if first < end:
                raise VerifyException(
                    f"agent #{i} starts at warp {first}, inside the warps before it "
                    f"(which end at {end})"
                )
            is_hole = not region.blocks
            if not is_hole and first % n:
                raise VerifyException(
                    f"agent #{i} of {n} warps starts at warp {first}, not a multiple of {n}"
                )
            end = first + (stride if is_hole else n)


@irdl_op_definition
class WarpSpecializeOp(AgentLikeOpInterface, IRDLOperation):
    """
    A warp-specialised section before warp assignment: one region per agent, each agent's
    warp count given by the `nv_tileas.num_warps` of the ops in it.

    `optimize-execution-unit-mapping` turns it into an `agent_switch`. `agent_strides`
    (default 1 for every agent) is carried over.

    Example:
    ```
    nv_tileas.async.pipeline.warp_specialize {
      nv_tileas.async.pipeline.producer_commit %p {nv_tileas.num_warps = 1 : i32} : !pipe
    } {
      ...
    }
    ```
    """

    name = "nv_tileas.async.pipeline.warp_specialize"

    agent_strides = opt_prop_def(DenseArrayBase.constr(i32))
    agents = var_region_def("single_block")

    traits = traits_def(NoTerminator())

    assembly_format = (
        "(`agent_strides` `=` $agent_strides^)? attr-dict-with-keyword $agents"
    )

    def __init__(
        self, agents: Sequence[Region], agent_strides: Sequence[int] | None = None
    ) -> None:
        super().__init__(
            properties={
                "agent_strides": i32_array(agent_strides)
                if agent_strides is not None
                else None
            },
            regions=[agents],
        )

    def get_agent_regions(self) -> Sequence[Region]:
        return self.agents

    def get_declared_num_warps(self, index: int) -> int | None:
        return None

    def get_agent_stride(self, index: int) -> int:
        if self.agent_strides is None:
            return 1
        return self.agent_strides.get_values()[index]

    def verify_(self) -> None:
        if self.agent_strides is None:
            return
        strides = self.agent_strides.get_values()
        if len(strides) != len(self.agents):
            raise VerifyException(
                f"agent_strides needs one entry per region ({len(self.agents)}), got "
                f"{len(strides)}"
            )
        if any(s < 1 for s in strides):
            raise VerifyException("agent_strides must be positive")


@irdl_op_definition
class CreatePipelineOp(IRDLOperation):
    """
    Creates a pipeline: allocates its slots and initialises its full / empty mbarriers.

    Example: `%p = nv_tileas.async.pipeline.create_pipeline : !nv_tileas.pipeline<3, tensor<128x64xf16, #shared>>`
    """

    name = "nv_tileas.async.pipeline.create_pipeline"

    result = result_def(PipelineType)

    assembly_format = "attr-dict `:` type($result)"

    def __init__(self, pipeline_type: PipelineType) -> None:
        super().__init__(result_types=[pipeline_type])


def verify_slots(pipeline: Attribute, slots: Sequence[Attribute]) -> None:
    assert isinstance(pipeline, PipelineType)
    expected = pipeline.slot_types.data
    if tuple(slots) != expected:
        raise VerifyException(
            f"the slot types ({', '.join(map(str, slots))}) are not the pipeline's "
            f"({', '.join(map(str, expected))})"
        )


class _StageAcquire(IRDLOperation):
    """The acquires of a pipeline stage: wait until it is ready, return its slots."""

    pipeline = operand_def(PipelineType)
    slots = var_result_def(TensorType)

    assembly_format = "$pipeline attr-dict `:` type($pipeline) `->` type($slots)"

    def __init__(self, pipeline: SSAValue | Operation) -> None:
        pipeline_type = SSAValue.get(pipeline).type
        assert isinstance(pipeline_type, PipelineType)
        super().__init__(
            operands=[pipeline], result_types=[pipeline_type.slot_types.data]
        )

    def verify_(self) -> None:
        verify_slots(self.pipeline.type, self.slots.types)


class _StageArrive(IRDLOperation):
    """The arrives that hand a pipeline stage to the other side: an arrive on one of
    its mbarriers."""

    pipeline = operand_def(PipelineType)

    traits = traits_def(AsyncFenceOrArrive())

    assembly_format = "$pipeline attr-dict `:` type($pipeline)"

    def __init__(self, pipeline: SSAValue | Operation) -> None:
        super().__init__(operands=[pipeline])


@irdl_op_definition
class ProducerAcquireOp(_StageAcquire):
    """
    Waits until the producer's next stage is empty and returns its slots.

    Example: `%slot = nv_tileas.async.pipeline.producer_acquire %p : !pipe -> tensor<128x64xf16, #shared>`
    """

    name = "nv_tileas.async.pipeline.producer_acquire"


@irdl_op_definition
class ProducerCommitOp(_StageArrive):
    """
    Marks the producer's current stage full (an arrive on its full mbarrier).

    Example: `nv_tileas.async.pipeline.producer_commit %p : !pipe`
    """

    name = "nv_tileas.async.pipeline.producer_commit"


@irdl_op_definition
class ConsumerAcquireOp(_StageAcquire):
    """
    Waits until the consumer's next stage is full and returns its slots.

    Example: `%a, %b = nv_tileas.async.pipeline.consumer_acquire %p : !pipe -> tensor<128x64xf16, #sa>, tensor<64x128xf16, #sb>`
    """

    name = "nv_tileas.async.pipeline.consumer_acquire"


@irdl_op_definition
class ConsumerReleaseOp(_StageArrive):
    """
    Hands the consumer's oldest acquired stage back to the producer (an arrive on its
    empty mbarrier).

    Example: `nv_tileas.async.pipeline.consumer_release %p : !pipe`
    """

    name = "nv_tileas.async.pipeline.consumer_release"


@irdl_op_definition
class ConsumeOneOp(IRDLOperation):
    """
    Acquires the consumer's next full stage, runs the body on its slots, then releases it;
    returns what the body yields.

    Example:
    ```
    %r = nv_tileas.async.pipeline.consume_one %p : !pipe -> (tensor<128x64xf16, #blocked>) {
    ^bb0(%slot: tensor<128x64xf16, #shared>):
      %t = nv_tileas.convert_layout %slot : tensor<128x64xf16, #shared> -> tensor<128x64xf16, #blocked>
      nv_tileas.async.pipeline.yield %t : tensor<128x64xf16, #blocked>
    }
    ```
    """

    name = "nv_tileas.async.pipeline.consume_one"

    pipeline = operand_def(PipelineType)
    body = region_def("single_block")
    outputs = var_result_def()

    assembly_format = (
        "$pipeline attr-dict `:` type($pipeline) `->` `(` type($outputs) `)` $body"
    )

    def __init__(
        self,
        pipeline: SSAValue | Operation,
        result_types: Sequence[Attribute],
        body: Region | None = None,
    ) -> None:
        if body is None:
            pipeline_type = SSAValue.get(pipeline).type
            assert isinstance(pipeline_type, PipelineType)
            body = Region(Block(arg_types=pipeline_type.slot_types.data))
        super().__init__(
            operands=[pipeline], result_types=[result_types], regions=[body]
        )

    def verify_(self) -> None:
        pipeline = self.pipeline.type
        assert isinstance(pipeline, PipelineType)
        block = self.body.block
        if tuple(block.arg_types) != pipeline.slot_types.data:
            raise VerifyException(
                "the body takes one argument per slot, of types "
                f"({', '.join(map(str, pipeline.slot_types.data))})"
            )
        terminator = block.last_op
        if not isinstance(terminator, PipelineYieldOp):
            raise VerifyException(
                "the body must end with nv_tileas.async.pipeline.yield"
            )
        if tuple(terminator.values.types) != tuple(self.outputs.types):
            raise VerifyException("the yielded types must match the result types")


@irdl_op_definition
class PipelineYieldOp(IRDLOperation):
    """
    Returns values from a `consume_one` body.

    Example: `nv_tileas.async.pipeline.yield %t : tensor<128x64xf16, #blocked>`
    """

    name = "nv_tileas.async.pipeline.yield"

    values = var_operand_def()

    traits = lazy_traits_def(lambda: (HasParent(ConsumeOneOp), IsTerminator(), Pure()))

    assembly_format = "attr-dict ($values^ `:` type($values))?"

    def __init__(self, *values: SSAValue | Operation) -> None:
        super().__init__(operands=[values])


@irdl_op_definition
class AsyncFenceOp(IRDLOperation):
    """
    Orders this thread's generic-proxy shared-memory writes before later async-proxy
    accesses (TMA, wgmma): `fence.proxy.async.shared::cta`.

    Example: `nv_tileas.async.fence`
    """

    name = "nv_tileas.async.fence"

    traits = traits_def(AsyncFenceOrArrive())

    assembly_format = "attr-dict"

    def __init__(self) -> None:
        super().__init__()


@irdl_op_definition
class AsyncArriveOp(IRDLOperation):
    """
    Arrives on an mbarrier once this thread's prior async copies have completed
    (`cp.async.mbarrier.arrive.noinc`).

    Example: `nv_tileas.async.arrive %bar`
    """

    name = "nv_tileas.async.arrive"

    barrier = operand_def(MBarrierType)

    traits = traits_def(AsyncFenceOrArrive())

    assembly_format = "$barrier attr-dict"

    def __init__(self, barrier: SSAValue | Operation) -> None:
        super().__init__(operands=[barrier])


@irdl_op_definition
class MBarrierCreateOp(IRDLOperation):
    """
    Allocates and initialises an mbarrier with its expected arrival count.

    Example: `%bar = nv_tileas.mbarrier.create arrive_count = 1`
    """

    name = "nv_tileas.mbarrier.create"

    arrive_count = prop_def(IntegerAttr[I64])
    result = result_def(MBarrierType)

    traits = traits_def(BarrierOp())

    assembly_format = "`arrive_count` `=` $arrive_count attr-dict"

    def __init__(self, arrive_count: int) -> None:
        super().__init__(
            properties={"arrive_count": IntegerAttr(arrive_count, i64)},
            result_types=[MBarrierType()],
        )

    def verify_(self) -> None:
        if self.arrive_count.value.data < 1:
            raise VerifyException("arrive_count must be positive")


@irdl_op_definition
class MBarrierArriveOp(IRDLOperation):
    """
    Arrives on an mbarrier.

    Example: `nv_tileas.mbarrier.arrive %bar`
    """

    name = "nv_tileas.mbarrier.arrive"

    barrier = operand_def(MBarrierType)

    traits = traits_def(BarrierOp())

    assembly_format = "$barrier attr-dict"

    def __init__(self, barrier: SSAValue | Operation) -> None:
        super().__init__(operands=[barrier])


@irdl_op_definition
class MBarrierExpectTxOp(IRDLOperation):
    """
    Adds `bytes` to the transaction count an mbarrier's current phase waits for (the bytes
    a TMA load will deliver).

    Example: `nv_tileas.mbarrier.expect_tx %bar bytes = 16384`
    """

    name = "nv_tileas.mbarrier.expect_tx"

    barrier = operand_def(MBarrierType)
    bytes = prop_def(IntegerAttr[I64])

    traits = traits_def(BarrierOp())

    assembly_format = "$barrier `bytes` `=` $bytes attr-dict"

    def __init__(self, barrier: SSAValue | Operation, num_bytes: int) -> None:
        super().__init__(
            operands=[barrier], properties={"bytes": IntegerAttr(num_bytes, i64)}
        )

    def verify_(self) -> None:
        if not 0 <= self.bytes.value.data <= MAX_TX_COUNT:
            raise VerifyException(
                f"bytes must be between 0 and {MAX_TX_COUNT}, got {self.bytes.value.data}"
            )


@irdl_op_definition
class MBarrierWaitOp(IRDLOperation):
    """
    Waits until the mbarrier phase with the given parity has completed.

    Example: `nv_tileas.mbarrier.wait %bar, %phase`
    """

    name = "nv_tileas.mbarrier.wait"

    barrier = operand_def(MBarrierType)
    phase = operand_def(i1)

    traits = traits_def(BarrierOp())

    assembly_format = "$barrier `,` $phase attr-dict"

    def __init__(
        self, barrier: SSAValue | Operation, phase: SSAValue | Operation
    ) -> None:
        super().__init__(operands=[barrier, phase])


@irdl_op_definition
class ClusterBarrierArriveOp(IRDLOperation):
    """
    Arrives on the cluster barrier (`barrier.cluster.arrive`, `.relaxed` when marked).

    Example: `nv_tileas.cluster_barrier.arrive relaxed`
    """

    name = "nv_tileas.cluster_barrier.arrive"

    relaxed = opt_prop_def(UnitAttr)

    traits = traits_def(BarrierOp())

    assembly_format = "(`relaxed` $relaxed^)? attr-dict"

    def __init__(self, relaxed: bool = False) -> None:
        super().__init__(properties={"relaxed": UnitAttr() if relaxed else None})


@irdl_op_definition
class ClusterBarrierWaitOp(IRDLOperation):
    """
    Waits for every thread of the cluster to arrive (`barrier.cluster.wait`).

    Example: `nv_tileas.cluster_barrier.wait`
    """

    name = "nv_tileas.cluster_barrier.wait"

    traits = traits_def(BarrierOp())

    assembly_format = "attr-dict"

    def __init__(self) -> None:
        super().__init__()
