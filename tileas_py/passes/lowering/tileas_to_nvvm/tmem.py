"""Tensor memory (sm_100) in `convert-tileas-to-nvvm`: its allocation, `#nv_tileas.tmem`
tiles, pipelines of tensor-memory slots, and the epilogue's `tcgen05.ld` (PTX ISA,
"Tensor Memory" and "tcgen05.alloc / ld":
https://docs.nvidia.com/cuda/parallel-thread-execution/#tensor-memory).

**Allocation.** A kernel's tensor-memory tiles (`alloc_tensor` of a `#nv_tileas.tmem`
tile, the slots of a pipeline of them) are ranges of one allocation: each tile of 128 rows
(one per lane) takes as many columns as it has 32-bit elements per row, at a column offset
planned in program order (`plan_tensor_memory`, recorded as `nv_tileas.tmem_column`). The
allocation is the total rounded up to a power of 2 from 32 to 512 columns. At the kernel's
entry warp 0 allocates it (`tcgen05.alloc` into the shared word `@<kernel>_tmem_slot`) and
gives up the CTA's right to allocate more (`relinquish_alloc_permit`); a barrier between
`tcgen05.fence::before_thread_sync` and `::after_thread_sync` publishes the address, which
every thread loads. Before each return the CTA meets again and warp 0 frees the columns.
With `cta_group = 2` MMAs both CTAs of each pair allocate together (`.cta_group::2`) and
meet at cluster barriers.

**Tiles.** A `#nv_tileas.tmem` tile is `!llvm.struct<(ptr<6>, i1)>`: the tensor-memory
address of its buffer (lane 0, its first column) and whether the buffer holds data an MMA
must accumulate into. A buffer or slot holds data; `copy` of a zero `arith.constant` into one
clears the flag (no instruction: the first MMA into it overwrites, `enable-input-d` false).

**Pipelines of tensor-memory slots** (an accumulator handed from the MMA agent to the
epilogue, CUTLASS's `PipelineUmmaAsync`): `depth` slots of columns, a full and an empty
mbarrier each in shared memory, and per-thread counters as in `pipeline.py`.

| tile op | nvvm |
| --- | --- |
| `create_pipeline` | the CTA's leader: `mbarrier.init` full (1 arrival: the MMA issuer's commit) and empty (every consumer thread, of both CTAs of a pair); `fence.mbarrier.init`, `barrier0` |
| `producer_acquire` | `mbarrier.try_wait.parity` empty[s], phase ^ 1; `tcgen05.fence::after_thread_sync`; the slot |
| `producer_commit` | the agent's leader: `tcgen05.commit` full[s] (pair: multicast to both CTAs) |
| `consumer_acquire` | `mbarrier.try_wait.parity` full[s], phase; `tcgen05.fence::after_thread_sync`; the slot |
| `consumer_release` | `tcgen05.fence::before_thread_sync`; every thread arrives on empty[s] (pair: the even CTA's, through `mapa`) |

**Epilogue.** `copy` of a tensor-memory tile (f32 or i32) into an unswizzled row-major
shared buffer of its shape, by one warpgroup: thread t of warp w (of the warpgroup) owns
row 32 w + t, the lanes its warp may read; per 32 columns, `tcgen05.ld.32x32b.x32`,
`tcgen05.wait::ld`, and the 32 values stored to its row.

Before:

    %acc = nv_tileas.async.pipeline.consumer_acquire %p : !pipe -> tensor<128x128xf32, #nv_tileas.tmem>
    %w = nv_tileas.copy %acc, %buf : tensor<128x128xf32, #nv_tileas.tmem> -> tensor<128x128xf32, #sc>

After (per 32 columns):

    %t = llvm.inttoptr %column : i32 to !llvm.ptr<6>       // address + (32 w << 16) + c
    %v = nvvm.tcgen05.ld %t {shape = #nvvm.tcgen05_ldst_shape<shape_32x32b>} : vector<32xi32>
    nvvm.tcgen05.wait #nvvm.tcgen05_wait<load>
    llvm.store %v, %row_c : vector<32xi32>, !llvm.ptr<3>
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import cast

from xdsl.builder import Builder
from xdsl.dialects import arith, func, llvm, scf
from xdsl.dialects.builtin import (
    DenseIntOrFPElementsAttr,
    IntegerAttr,
    StringAttr,
    TensorType,
    UnitAttr,
    UnrealizedConversionCastOp,
    VectorType,
    i1,
    i32,
    i64,
)
from xdsl.ir import Attribute, Block, Operation, Region, SSAValue
from xdsl.pattern_rewriter import (
    PatternRewriter,
    RewritePattern,
    op_type_rewrite_pattern,
)
from xdsl.rewriter import InsertPoint

from tileas_py.diagnostics import emit_error
from tileas_py.dialects import nv_tileaa
from tileas_py.dialects.nv_tileas import async_ops
from tileas_py.dialects.nv_tileas import ops as tile_ops
from tileas_py.dialects.nv_tileas.attrs import (
    PipelineType,
    SharedEncodingAttr,
    ints,
    is_tmem,
)
from tileas_py.dialects.nvvm import cluster as nvvm_cluster
from tileas_py.dialects.nvvm import mbarrier as nvvm_mbarrier
from tileas_py.dialects.nvvm import sreg
from tileas_py.dialects.nvvm import sync as nvvm_sync
from tileas_py.dialects.nvvm import tcgen05 as nvvm_tcgen05
from tileas_py.dialects.nvvm.attrs import (
    CTAGroupKind,
    CTAGroupKindAttr,
    Tcgen05FenceKind,
    Tcgen05FenceKindAttr,
    Tcgen05LdStShape,
    Tcgen05WaitKind,
    Tcgen05WaitKindAttr,
)
from tileas_py.hw import tmem as hw_tmem
from tileas_py.passes.lowering.tileas_to_nvvm.cluster import pair_mask
from tileas_py.passes.lowering.tileas_to_nvvm.conventions import (
    SHARED_PTR,
    TMEM_PTR,
    TMEM_TILE,
    element_bits,
    extract_member,
    from_llvm,
    pack_members,
    to_llvm,
)
from tileas_py.passes.lowering.tileas_to_nvvm.kernel import (
    SMEM_OFFSET,
    SharedRequest,
    shared_buffer_name,
)
from tileas_py.passes.lowering.tileas_to_nvvm.ocg_knobs import (
    emit_pragmas_before,
    take_pragmas,
)
from tileas_py.passes.lowering.tileas_to_nvvm.tcgen05_sync import (
    CTA_PAIR,
    in_pair_leader,
    is_pair,
    remote_arrive,
)
from tileas_py.passes.lowering.tileas_to_nvvm.threads import (
    WARP_SIZE,
    agent_key,
    agent_leader,
    constant,
    executing_warps,
    shared_address,
    thread_id,
)

TMEM_COLUMN = "nv_tileas.tmem_column"
"""The first column of a tensor-memory buffer (planned before the patterns run)."""

TMEM_BASE = "nv_tileas.tmem_base"
"""Marks the load of the kernel's tensor-memory address."""

TMEM_PIPELINE = "nv_tileas.tmem_pipeline"
"""Marks the cast a lowered pipeline of tensor-memory slots is."""

MIN_COLUMNS, MAX_COLUMNS = 32, hw_tmem.COLUMNS
MBARRIER_BYTES = 8
WAIT_TICKS = 10_000_000
PRODUCER, CONSUMER = 0, 1
WARPGROUP_WARPS = 4
CHUNK_COLUMNS = 32
"""Columns one `tcgen05.ld.32x32b.x32` reads: 32 registers a thread."""


def tile_problem(t: Attribute) -> str | None:
    """Why a `#nv_tileas.tmem` tile has no tensor-memory form here, or None."""
    tile = cast(TensorType[Attribute], t)
    rows, _ = tile.get_shape()
    if rows != hw_tmem.LANES:
        return (
            f"a tensor-memory tile has {hw_tmem.LANES} rows (one per lane), got {rows}"
        )
    if element_bits(tile.get_element_type()) != 32:
        return (
            "a tensor-memory tile holds 32-bit elements (one cell each), got "
            f"{tile.get_element_type()}"
        )
    return None


def tile_columns(t: Attribute) -> int:
    return cast(TensorType[Attribute], t).get_shape()[1]


def _buffer_columns(op: Operation) -> tuple[TensorType[Attribute], int] | None:
    """The tile and columns of a tensor-memory buffer `op` makes, None for other ops."""
    if isinstance(op, tile_ops.AllocTensorOp) and is_tmem(op.result.type):
        tile = op.result.type
        return tile, tile_columns(tile)
    if isinstance(op, async_ops.CreatePipelineOp) and is_tmem_pipeline(op.result.type):
        t = op.result.type
        if len(t.slot_types.data) != 1:
            emit_error(op, "a pipeline of tensor-memory slots has one slot a stage")
        tile = t.slot_types.data[0]
        return tile, t.depth.data * tile_columns(tile)
    return None


def allocation_columns(used: int) -> int:
    """`tcgen05.alloc`'s column count for `used` columns: a power of 2, at least 32."""
    columns = MIN_COLUMNS
    while columns < used:
        columns *= 2
    return columns


def tmem_slot_name(function: Operation) -> str:
    name = function.properties.get("sym_name")
    assert isinstance(name, StringAttr)
    return f"{name.data}_tmem_slot"


def plan_tensor_memory(function: Operation, cta_group: int) -> None:
    """Give each tensor-memory buffer of `function` its columns, and allocate them at
    the kernel's entry and free them before each return (see the module docstring)."""
    used = 0
    for op in function.walk():
        found = _buffer_columns(op)
        if found is None:
            continue
        tile, columns = found
        if (problem := tile_problem(tile)) is not None:
            emit_error(op, problem)
        op.attributes[TMEM_COLUMN] = IntegerAttr(used, i64)
        used += columns
    if not used:
        return
    if used > MAX_COLUMNS:
        emit_error(
            function,
            f"the kernel's tensor-memory tiles need {used} columns; a CTA has "
            f"{MAX_COLUMNS}",
        )
    columns = allocation_columns(used)
    slot = llvm.GlobalOp(
        i32, tmem_slot_name(function), "internal", addr_space=3, alignment=4
    )
    block = function.parent_block()
    assert block is not None
    block.insert_op_before(slot, function)
    entry = function.regions[0].blocks.first
    assert entry is not None
    group = CTAGroupKindAttr(
        CTAGroupKind.CTA_2 if cta_group == 2 else CTAGroupKind.CTA_1
    )
    _allocate(function, entry, columns, group)
    for op in list(function.walk()):
        if isinstance(op, tile_ops.ReturnOp | nv_tileaa.ReturnOp | func.ReturnOp):
            _free(op, columns, group)


def _warp_zero(builder: Builder) -> SSAValue:
    tid = builder.insert(sreg.ThreadIdXOp(i32)).res
    five = builder.insert(arith.ConstantOp(IntegerAttr(5, i32))).result
    warp = builder.insert(arith.ShRUIOp(tid, five)).result
    zero = builder.insert(arith.ConstantOp(IntegerAttr(0, i32))).result
    return builder.insert(arith.CmpiOp(warp, zero, "eq")).result


def _sync(builder: Builder, group: CTAGroupKindAttr) -> None:
    """fence::before, the CTA (pair: cluster) barrier, fence::after."""
    builder.insert(nvvm_tcgen05.Tcgen05FenceOp(_fence(Tcgen05FenceKind.BEFORE)))
    if group.data is CTAGroupKind.CTA_2:
        builder.insert(nvvm_cluster.ClusterArriveOp(aligned=True))
        builder.insert(nvvm_cluster.ClusterWaitOp(aligned=True))
    else:
        builder.insert(nvvm_sync.Barrier0Op())
    builder.insert(nvvm_tcgen05.Tcgen05FenceOp(_fence(Tcgen05FenceKind.AFTER)))


def _fence(kind: Tcgen05FenceKind) -> Tcgen05FenceKindAttr:
    return Tcgen05FenceKindAttr(kind)


def _allocate(
    function: Operation, entry: Block, columns: int, group: CTAGroupKindAttr
) -> None:
    start = entry.first_op
    assert start is not None
    builder = Builder(InsertPoint.before(start))
    in_warp_zero = _warp_zero(builder)
    body = Block()
    inside = Builder(InsertPoint.at_end(body))
    slot = inside.insert(llvm.AddressOfOp(tmem_slot_name(function), SHARED_PTR)).result
    count = inside.insert(arith.ConstantOp(IntegerAttr(columns, i32))).result
    alloc = nvvm_tcgen05.Tcgen05AllocOp(slot, count)
    alloc.properties["group"] = group
    inside.insert(alloc)
    relinquish = nvvm_tcgen05.Tcgen05RelinquishAllocPermitOp()
    relinquish.properties["group"] = group
    inside.insert(relinquish)
    inside.insert(scf.YieldOp())
    builder.insert(scf.IfOp(in_warp_zero, [], Region(body), Region()))
    _sync(builder, group)
    address = builder.insert(
        llvm.AddressOfOp(tmem_slot_name(function), SHARED_PTR)
    ).result
    base = llvm.LoadOp(address, TMEM_PTR)
    base.attributes[TMEM_BASE] = UnitAttr()
    builder.insert(base)


def _free(op: Operation, columns: int, group: CTAGroupKindAttr) -> None:
    builder = Builder(InsertPoint.before(op))
    builder.insert(nvvm_tcgen05.Tcgen05FenceOp(_fence(Tcgen05FenceKind.BEFORE)))
    if group.data is CTAGroupKind.CTA_2:
        builder.insert(nvvm_cluster.ClusterArriveOp(aligned=True))
        builder.insert(nvvm_cluster.ClusterWaitOp(aligned=True))
    else:
        builder.insert(nvvm_sync.Barrier0Op())
    in_warp_zero = _warp_zero(builder)
    body = Block()
    inside = Builder(InsertPoint.at_end(body))
    inside.insert(nvvm_tcgen05.Tcgen05FenceOp(_fence(Tcgen05FenceKind.AFTER)))
    count = inside.insert(arith.ConstantOp(IntegerAttr(columns, i32))).result
    dealloc = nvvm_tcgen05.Tcgen05DeallocOp(_base_of(op), count)
    dealloc.properties["group"] = group
    inside.insert(dealloc)
    inside.insert(scf.YieldOp())
    builder.insert(scf.IfOp(in_warp_zero, [], Region(body), Region()))


def _function_of(op: Operation) -> Operation:
    parent = op.parent_op()
    while parent is not None and "sym_name" not in parent.properties:
        parent = parent.parent_op()
    assert parent is not None
    return parent


def _base_of(op: Operation) -> SSAValue:
    """The kernel's tensor-memory address (loaded at its entry)."""
    entry = _function_of(op).regions[0].blocks.first
    assert entry is not None
    for candidate in entry.ops:
        if TMEM_BASE in candidate.attributes:
            return candidate.results[0]
    raise AssertionError("tensor memory is planned before the patterns run")


def tmem_address(
    rewriter: PatternRewriter, base: SSAValue, offset: int | SSAValue
) -> SSAValue:
    """`base + offset` (columns, or `lanes << 16`), a tensor-memory address."""
    if isinstance(offset, int):
        if offset == 0:
            return base
        offset = constant(rewriter, offset)
    raw = rewriter.insert(llvm.PtrToIntOp(base, i32)).output
    moved = rewriter.insert(llvm.AddOp(raw, offset)).res
    to_pointer = llvm.IntToPtrOp.build(operands=[moved], result_types=[TMEM_PTR])
    return rewriter.insert(to_pointer).output


def tile_value(
    rewriter: PatternRewriter, address: SSAValue, holds_data: bool | SSAValue
) -> SSAValue:
    """The LLVM value of a tensor-memory tile."""
    flag = (
        rewriter.insert(llvm.ConstantOp(IntegerAttr(int(holds_data), i1), i1)).result
        if isinstance(holds_data, bool)
        else holds_data
    )
    return pack_members(rewriter, [address, flag], TMEM_TILE)


def tile_parts(
    rewriter: PatternRewriter, value: SSAValue, before: Operation
) -> tuple[SSAValue, SSAValue]:
    """(address, holds data) of a tensor-memory tile value."""
    whole = to_llvm(rewriter, value, before, TMEM_TILE)
    return (
        extract_member(rewriter, whole, 0, TMEM_PTR),
        extract_member(rewriter, whole, 1, i1),
    )


def _column_of(op: Operation) -> int:
    column = op.attributes.get(TMEM_COLUMN)
    assert isinstance(column, IntegerAttr)
    return column.value.data


class LowerTmemAllocTensor(RewritePattern):
    """`alloc_tensor` of a tensor-memory tile: its columns of the allocation."""

    @op_type_rewrite_pattern
    def match_and_rewrite(
        self, op: tile_ops.AllocTensorOp, rewriter: PatternRewriter
    ) -> None:
        if not is_tmem(op.result.type):
            return
        address = tmem_address(rewriter, _base_of(op), _column_of(op))
        value = tile_value(rewriter, address, True)
        rewriter.replace(op, [], [from_llvm(rewriter, value, op, op.result.type)])


def _is_zero(value: SSAValue) -> bool:
    owner = value.owner
    if not isinstance(owner, arith.ConstantOp):
        return False
    dense = owner.value
    if not isinstance(dense, DenseIntOrFPElementsAttr):
        return False
    values = cast(Sequence[int | float], dense.get_values())
    return all(v == 0 for v in values)


class LowerCopyIntoTmem(RewritePattern):
    """`copy` of a zero constant into a tensor-memory buffer: the buffer, marked empty
    (the first MMA into it does not read it)."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: tile_ops.CopyOp, rewriter: PatternRewriter) -> None:
        if not is_tmem(op.dest.type):
            return
        if not _is_zero(op.source):
            emit_error(
                op,
                "only a zero constant is copied into tensor memory (it starts an "
                "accumulator at zero); MMAs write the rest",
            )
        address, _ = tile_parts(rewriter, op.dest, op)
        value = tile_value(rewriter, address, False)
        rewriter.replace(op, [], [from_llvm(rewriter, value, op, op.dest.type)])


def _row_major_unswizzled(t: Attribute) -> bool:
    encoding = cast(TensorType[Attribute], t).encoding
    return (
        isinstance(encoding, SharedEncodingAttr)
        and encoding.swizzle.data == 0
        and ints(encoding.order) == (1, 0)
    )


def _chunks(columns: int) -> list[tuple[int, int]]:
    """(first column, count) of each `tcgen05.ld.32x32b` a row of `columns` takes: 32 at a
    time, then powers of 2."""
    chunks: list[tuple[int, int]] = []
    start = 0
    while start < columns:
        count = CHUNK_COLUMNS
        while count > columns - start:
            count //= 2
        chunks.append((start, count))
        start += count
    return chunks


class LowerTmemToShared(RewritePattern):
    """`copy` of a tensor-memory tile into a row-major shared buffer: `tcgen05.ld` by
    one warpgroup, each thread storing its row (the module docstring)."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: tile_ops.CopyOp, rewriter: PatternRewriter) -> None:
        if not is_tmem(op.source.type):
            return
        source = cast(TensorType[Attribute], op.source.type)
        if not _row_major_unswizzled(op.dest.type):
            emit_error(
                op,
                "a tensor-memory tile is copied only into an unswizzled row-major "
                "shared buffer (#nv_tileas.shared<swizzle = 0, order = [1, 0]>)",
            )
        if (problem := tile_problem(source)) is not None:
            emit_error(op, problem)
        if executing_warps(op) != WARPGROUP_WARPS:
            emit_error(
                op,
                "a tensor-memory tile is read by one warpgroup (4 warps: warp w reads "
                f"lanes 32 w .. 32 w + 31), not {executing_warps(op)} warps",
            )
        address, _ = tile_parts(rewriter, op.source, op)
        buffer = to_llvm(rewriter, op.dest, op, SHARED_PTR)
        tid = thread_id(rewriter)
        warp = rewriter.insert(
            arith.AndIOp(
                rewriter.insert(arith.ShRUIOp(tid, constant(rewriter, 5))).result,
                constant(rewriter, WARPGROUP_WARPS - 1),
            )
        ).result
        lanes = rewriter.insert(
            arith.ShLIOp(warp, constant(rewriter, 5 + hw_tmem.LANE_SHIFT))
        ).result
        mine = tmem_address(rewriter, address, lanes)
        row = rewriter.insert(
            arith.AndIOp(tid, constant(rewriter, WARPGROUP_WARPS * WARP_SIZE - 1))
        ).result
        columns = tile_columns(source)
        row_bytes = rewriter.insert(
            arith.MuliOp(row, constant(rewriter, 4 * columns))
        ).result
        here = shared_address(rewriter, buffer, row_bytes)
        for start, count in _chunks(columns):
            vector = VectorType(i32, [count])
            load = nvvm_tcgen05.Tcgen05LdOp(
                tmem_address(rewriter, mine, start),
                Tcgen05LdStShape.SHAPE_32X32B,
                vector,
            )
            values = rewriter.insert(load).res
            rewriter.insert(
                nvvm_tcgen05.Tcgen05WaitOp(Tcgen05WaitKindAttr(Tcgen05WaitKind.LOAD))
            )
            target = shared_address(rewriter, here, 4 * start)
            rewriter.insert(llvm.StoreOp(values, target, alignment=4))
        rewriter.replace(op, [], [op.dest])


# -- pipelines of tensor-memory slots ---------------------------------------------------


def is_tmem_pipeline(t: Attribute) -> bool:
    return isinstance(t, PipelineType) and any(is_tmem(s) for s in t.slot_types.data)


def _pipeline_request(op: Operation) -> tuple[int, int] | None:
    assert isinstance(op, async_ops.CreatePipelineOp)
    t = op.result.type
    if not is_tmem_pipeline(t):
        return None
    return 2 * t.depth.data * MBARRIER_BYTES, MBARRIER_BYTES


SHARED: dict[type[Operation], SharedRequest] = {
    async_ops.CreatePipelineOp: _pipeline_request,
}


def _consumer_threads(op: async_ops.CreatePipelineOp) -> int:
    """Arrivals that complete a phase of an empty barrier: every thread of every agent
    that releases slots (of both CTAs of a pair)."""
    agents: dict[tuple[Operation, int] | None, int] = {}
    for use in op.result.uses:
        user = use.operation
        if isinstance(user, async_ops.ConsumerReleaseOp):
            agents[agent_key(user)] = executing_warps(user)
    pairs = 2 if is_pair(op) else 1
    return pairs * WARP_SIZE * sum(agents.values()) if agents else 1


def _parts(value: SSAValue) -> tuple[SSAValue, SSAValue, SSAValue] | None:
    """(slots, barriers, counters) of a lowered tensor-memory pipeline."""
    owner = value.owner
    if (
        isinstance(owner, UnrealizedConversionCastOp)
        and TMEM_PIPELINE in owner.attributes
    ):
        slots, barriers, counters = owner.inputs
        return slots, barriers, counters
    return None


class LowerCreateTmemPipeline(RewritePattern):
    """`create_pipeline` of tensor-memory slots: its barriers, its counters."""

    @op_type_rewrite_pattern
    def match_and_rewrite(
        self, op: async_ops.CreatePipelineOp, rewriter: PatternRewriter
    ) -> None:
        t = op.result.type
        offset = op.attributes.get(SMEM_OFFSET)
        if not is_tmem_pipeline(t) or not isinstance(offset, IntegerAttr):
            return
        depth = t.depth.data
        base = rewriter.insert(
            llvm.AddressOfOp(shared_buffer_name(_function_of(op)), SHARED_PTR)
        ).result
        barriers = shared_address(rewriter, base, offset.value.data)
        leader = agent_leader(rewriter, op)
        for which, count in enumerate((1, _consumer_threads(op))):
            arrivals = constant(rewriter, count)
            for stage in range(depth):
                bar = shared_address(
                    rewriter, barriers, (which * depth + stage) * MBARRIER_BYTES
                )
                rewriter.insert(nvvm_mbarrier.MBarrierInitOp(bar, arrivals, leader))
        rewriter.insert(nvvm_sync.FenceMbarrierInitOp())
        rewriter.insert(nvvm_sync.Barrier0Op())
        slots = tmem_address(rewriter, _base_of(op), _column_of(op))
        two = rewriter.insert(llvm.ConstantOp(IntegerAttr(2, i32), i32)).result
        counters = rewriter.insert(llvm.AllocaOp(two, i32, alignment=4)).res
        zero = constant(rewriter, 0)
        for which in (PRODUCER, CONSUMER):
            rewriter.insert(llvm.StoreOp(zero, _counter(rewriter, counters, which)))
        lowered = UnrealizedConversionCastOp.get([slots, barriers, counters], [t])
        lowered.attributes[TMEM_PIPELINE] = UnitAttr()
        if is_pair(op):
            lowered.attributes[CTA_PAIR] = UnitAttr()
        rewriter.replace(op, lowered)


def _counter(rewriter: PatternRewriter, counters: SSAValue, which: int) -> SSAValue:
    gep = llvm.GEPOp.from_mixed_indices(counters, [which], pointee_type=i32)
    return rewriter.insert(gep).result


class _Ring:
    """A counter of a tensor-memory pipeline at one op: slot `n % depth`, phase
    `(n / depth) & 1` (as `pipeline.State`)."""

    def __init__(
        self, rewriter: PatternRewriter, pipeline: SSAValue, which: int
    ) -> None:
        found = _parts(pipeline)
        assert found is not None
        self.slots, self.barriers, counters = found
        t = pipeline.type
        assert isinstance(t, PipelineType)
        self.depth = t.depth.data
        self.columns = tile_columns(t.slot_types.data[0])
        self.pair = is_pair(
            pipeline.owner if isinstance(pipeline.owner, Operation) else None
        )
        self.counter = _counter(rewriter, counters, which)
        self.n = rewriter.insert(llvm.LoadOp(self.counter, i32)).dereferenced_value
        depth = constant(rewriter, self.depth)
        self.stage = rewriter.insert(arith.RemUIOp(self.n, depth)).result
        round_ = rewriter.insert(arith.DivUIOp(self.n, depth)).result
        self.phase = rewriter.insert(arith.AndIOp(round_, constant(rewriter, 1))).result

    def barrier(self, rewriter: PatternRewriter, which: int) -> SSAValue:
        index = self.stage
        if which == CONSUMER:
            index = rewriter.insert(
                arith.AddiOp(index, constant(rewriter, self.depth))
            ).result
        offset = rewriter.insert(
            arith.MuliOp(index, constant(rewriter, MBARRIER_BYTES))
        ).result
        return shared_address(rewriter, self.barriers, offset)

    def slot(self, rewriter: PatternRewriter) -> SSAValue:
        columns = rewriter.insert(
            arith.MuliOp(self.stage, constant(rewriter, self.columns))
        ).result
        return tmem_address(rewriter, self.slots, columns)

    def wait(self, rewriter: PatternRewriter, bar: SSAValue, parity: SSAValue) -> None:
        ticks = constant(rewriter, WAIT_TICKS)
        rewriter.insert(nvvm_mbarrier.MBarrierTryWaitParityOp(bar, parity, ticks))
        rewriter.insert(nvvm_tcgen05.Tcgen05FenceOp(_fence(Tcgen05FenceKind.AFTER)))

    def advance(self, rewriter: PatternRewriter) -> None:
        next_ = rewriter.insert(arith.AddiOp(self.n, constant(rewriter, 1))).result
        rewriter.insert(llvm.StoreOp(next_, self.counter))


def _slot_tile(
    rewriter: PatternRewriter, op: Operation, ring: _Ring, t: Attribute
) -> SSAValue:
    value = tile_value(rewriter, ring.slot(rewriter), True)
    return from_llvm(rewriter, value, op, t)


class LowerTmemAcquire(RewritePattern):
    """`producer_acquire` of a tensor-memory slot: wait for it to be empty;
    `consumer_acquire`: wait for its MMAs to complete."""

    @op_type_rewrite_pattern
    def match_and_rewrite(
        self,
        op: async_ops.ProducerAcquireOp | async_ops.ConsumerAcquireOp,
        rewriter: PatternRewriter,
    ) -> None:
        if _parts(op.pipeline) is None:
            return
        if isinstance(op, async_ops.ProducerAcquireOp):
            ring = _Ring(rewriter, op.pipeline, PRODUCER)
            one = constant(rewriter, 1)
            parity = rewriter.insert(arith.XOrIOp(ring.phase, one)).result
            ring.wait(rewriter, ring.barrier(rewriter, CONSUMER), parity)
        else:
            ring = _Ring(rewriter, op.pipeline, CONSUMER)
            ring.wait(rewriter, ring.barrier(rewriter, PRODUCER), ring.phase)
        rewriter.replace(op, [], [_slot_tile(rewriter, op, ring, op.slots.types[0])])


class LowerTmemProducerCommit(RewritePattern):
    """`producer_commit` of a tensor-memory slot: the MMA issuer's `tcgen05.commit` to
    full[s] arrives once its MMAs have written the slot."""

    @op_type_rewrite_pattern
    def match_and_rewrite(
        self, op: async_ops.ProducerCommitOp, rewriter: PatternRewriter
    ) -> None:
        if _parts(op.pipeline) is None:
            return
        knobs = take_pragmas(rewriter, op)
        ring = _Ring(rewriter, op.pipeline, PRODUCER)
        full = ring.barrier(rewriter, PRODUCER)
        leader = agent_leader(rewriter, op)
        body = Block()
        rewriter.insert(scf.IfOp(leader, [], Region(body), Region()))
        saved = rewriter.insertion_point
        rewriter.insertion_point = InsertPoint.at_end(body)
        commit_to(rewriter, full, pair=ring.pair, knobs=knobs)
        rewriter.insert(scf.YieldOp())
        rewriter.insertion_point = saved
        ring.advance(rewriter)
        rewriter.erase(op)


def commit_to(
    rewriter: PatternRewriter,
    barrier: SSAValue,
    *,
    pair: bool,
    knobs: Sequence[str] = (),
) -> None:
    """`tcgen05.commit` of the thread's MMAs to `barrier`: with `pair`, by the CTA pair
    (`.cta_group::2`) to the barrier at the same offset in both CTAs (`knobs`: the
    pragmas of the commit, `ocg_knobs.take_pragmas`)."""
    if not pair:
        emit_pragmas_before(rewriter, knobs)
        rewriter.insert(nvvm_tcgen05.Tcgen05CommitOp(barrier))
        return
    here = rewriter.insertion_point.block.parent_op()
    assert here is not None
    mask = pair_mask(rewriter, here)
    emit_pragmas_before(rewriter, knobs)
    commit = nvvm_tcgen05.Tcgen05CommitOp(barrier, mask)
    commit.properties["group"] = CTAGroupKindAttr(CTAGroupKind.CTA_2)
    rewriter.insert(commit)


class LowerTmemConsumerRelease(RewritePattern):
    """`consumer_release` of a tensor-memory slot: every thread, its loads done, arrives
    on empty[s] (of a pair: on the even CTA's)."""

    @op_type_rewrite_pattern
    def match_and_rewrite(
        self, op: async_ops.ConsumerReleaseOp, rewriter: PatternRewriter
    ) -> None:
        if _parts(op.pipeline) is None:
            return
        knobs = take_pragmas(rewriter, op)
        ring = _Ring(rewriter, op.pipeline, CONSUMER)
        rewriter.insert(nvvm_tcgen05.Tcgen05FenceOp(_fence(Tcgen05FenceKind.BEFORE)))
        empty = ring.barrier(rewriter, CONSUMER)
        if ring.pair:
            remote = in_pair_leader(rewriter, empty)
            emit_pragmas_before(rewriter, knobs)
            remote_arrive(rewriter, remote)
        else:
            emit_pragmas_before(rewriter, knobs)
            rewriter.insert(nvvm_mbarrier.MBarrierArriveOp(empty, with_state=False))
        ring.advance(rewriter)
        rewriter.erase(op)


class ReportTmemConsumeOne(RewritePattern):
    """`consume_one` of a tensor-memory pipeline is not lowered."""

    @op_type_rewrite_pattern
    def match_and_rewrite(
        self, op: async_ops.ConsumeOneOp, rewriter: PatternRewriter
    ) -> None:
        if is_tmem_pipeline(op.pipeline.type):
            emit_error(
                op,
                "consume_one of tensor-memory slots is not supported: use "
                "consumer_acquire and consumer_release",
            )


PATTERNS: tuple[RewritePattern, ...] = (
    LowerTmemAllocTensor(),
    LowerCopyIntoTmem(),
    LowerTmemToShared(),
    LowerCreateTmemPipeline(),
    LowerTmemAcquire(),
    LowerTmemProducerCommit(),
    LowerTmemConsumerRelease(),
    ReportTmemConsumeOne(),
)
