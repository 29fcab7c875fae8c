"""The Blackwell MMA in `convert-tileas-to-nvvm`: `nv_tileas.dot` with an sm100 atom
(`!cute_nvgpu.sm100.mma`) to `nvvm.tcgen05.mma`, the counterpart of `dot.py`'s WGMMA region
(PTX ISA, "tcgen05.mma":
https://docs.nvidia.com/cuda/parallel-thread-execution/#tcgen05-mma-instructions-mma).

A dot `D = A * B + C` with A (rows x K) and B (K x N / cta_group) in shared memory and C a
`#nv_tileas.tmem` tile (`tmem.py`) becomes, issued by one thread (the leader of the agent
running the dot; tcgen05.mma is not a warp instruction):

1. `tcgen05.fence::after_thread_sync`: the MMAs are ordered after the thread's last
   barrier or mbarrier wait (a slot acquired, the accumulator acquired);
2. the sm_100 shared-memory descriptor of A and of B (`hw.tcgen05_descriptor`: the WGMMA
   canonical layouts of `hw.wgmma_layout`, the fixed bits 46-48 = 0b001, the sm_100
   swizzle codes), `((address & 0x3FFF0) >> 4) | fields`, advanced by each instruction
   tile's byte offset >> 4, and the instruction descriptor (`hw.tcgen05_idesc`);
3. one `nvvm.tcgen05.mma` per (n-tile, k-tile), k innermost, into D's columns
   `n * N`; `enable-input-d` is C's flag on the first K step (false when C was cleared
   with a zero constant) and true after.

D is C's buffer, now holding data. The MMAs are asynchronous: nothing waits for them here.
What reads their operands or result later learns of their completion through
`tcgen05.commit` to an mbarrier: a `consumer_release` of an operand's slot in the agent is
the issuer's commit to the slot's empty barrier (`LowerCommitRelease`), the accumulator's
`producer_commit` the issuer's commit to its full barrier (`tmem.py`).

With `cta_group = 2` the program is the 2-CTA cluster and the dot is the pair's: CTA
layouts split A and C by rows across the pair and B by columns (`check_cta_groups`, run
before `cta.split_into_pieces` gives each CTA its pieces). The even CTA of each pair
issues `.cta_group::2` MMAs over both CTAs' pieces (`tcgen05_sync.py`), with the pair's
M (256) and N in the instruction descriptor.

`prepare` runs after the tiles became pieces: it marks the releases and pairs
`tcgen05_sync.py` describes and plans tensor memory (`tmem.plan_tensor_memory`).

Before:

    %d = nv_tileas.dot %a, %b, %c atom = !cute_nvgpu.sm100.mma<128x128x16, ab_major = (k, k), elem_type = (f16, f16, f32), cta_group = 1> wait_group = 0
        : tensor<128x64xf16, #sa>, tensor<64x128xf16, #sb> -> tensor<128x128xf32, #nv_tileas.tmem>

After (abridged):

    scf.if %leader {
      nvvm.tcgen05.fence #nvvm.tcgen05_fence<after>
      %da = llvm.or %a_start, %fields : i64                 // A's descriptor
      %db = llvm.or %b_start, %fields : i64
      %idesc = llvm.mlir.constant(136316048 : i32) : i32
      nvvm.tcgen05.mma %d, %da, %db, %idesc, %holds {kind = #nvvm.tcgen05_mma_kind<f16>, ctaGroup = #nvvm.cta_group<cta_1>} : (!llvm.ptr<6>, i64, i64, i32, i1)
      %da1 = llvm.add %da, %c2 : i64                        // K + 16: 32 bytes further
      ...                                                   // three more K steps
    }
"""

from __future__ import annotations

from xdsl.dialects import llvm, scf
from xdsl.dialects.builtin import (
    DenseArrayBase,
    IntegerAttr,
    IntegerType,
    TensorType,
    UnitAttr,
    i1,
    i32,
    i64,
)
from xdsl.ir import Attribute, Block, BlockArgument, Operation, Region, SSAValue
from xdsl.pattern_rewriter import (
    PatternRewriter,
    RewritePattern,
    op_type_rewrite_pattern,
)
from xdsl.rewriter import InsertPoint

from tileas_py.diagnostics import emit_error
from tileas_py.dialects import cute_nvgpu, nv_tileaa
from tileas_py.dialects.nv_tileas import AgentSwitchOp, async_ops
from tileas_py.dialects.nv_tileas import ops as tile_ops
from tileas_py.dialects.nv_tileas.attrs import is_tmem
from tileas_py.dialects.nvvm import tcgen05 as nvvm_tcgen05
from tileas_py.dialects.nvvm.attrs import (
    CTAGroupKind,
    CTAGroupKindAttr,
    Tcgen05FenceKind,
    Tcgen05FenceKindAttr,
    Tcgen05MMAKind,
    Tcgen05MMAKindAttr,
)
from tileas_py.hw import smem_descriptor as sm90
from tileas_py.hw import tcgen05 as hw_tcgen05
from tileas_py.hw import tmem as hw_tmem
from tileas_py.hw import wgmma_layout
from tileas_py.hw.tcgen05_descriptor import Swizzle, Tcgen05SmemDescriptor
from tileas_py.passes.lowering.tileas_to_nvvm import cta, pipeline
from tileas_py.passes.lowering.tileas_to_nvvm.conventions import (
    SHARED_PTR,
    from_llvm,
    to_llvm,
)
from tileas_py.passes.lowering.tileas_to_nvvm.dot import shared_operand_tiling
from tileas_py.passes.lowering.tileas_to_nvvm.ocg_knobs import take_pragmas
from tileas_py.passes.lowering.tileas_to_nvvm.tcgen05_sync import (
    CTA_PAIR,
    PAIR_AGENTS,
    RELEASED_BY_COMMIT,
    is_pair,
    released_by_commit,
)
from tileas_py.passes.lowering.tileas_to_nvvm.threads import agent_key, agent_leader
from tileas_py.passes.lowering.tileas_to_nvvm.tmem import (
    commit_to,
    is_tmem_pipeline,
    plan_tensor_memory,
    tile_parts,
    tile_value,
    tmem_address,
)

_ADDRESS_MASK = 0x3FFFF & ~0xF
"""Bits 4-17 of a shared address: the 14-bit start-address field, in 16-byte units."""

_SWIZZLES = {
    sm90.Swizzle.NONE: Swizzle.NONE,
    sm90.Swizzle.B128: Swizzle.B128,
    sm90.Swizzle.B64: Swizzle.B64,
    sm90.Swizzle.B32: Swizzle.B32,
}
"""The same swizzle in the sm_90 and the sm_100 descriptor encodings."""


def _i64(value: int) -> int:
    """A 64-bit pattern as the signed value `llvm.mlir.constant` holds."""
    return value - (1 << 64) if value >= 1 << 63 else value


def sm100_atom(op: Operation) -> cute_nvgpu.SM100MmaAtomType | None:
    if isinstance(op, tile_ops.DotOp) and isinstance(
        op.atom, cute_nvgpu.SM100MmaAtomType
    ):
        return op.atom
    return None


# -- before the patterns ----------------------------------------------------------------


def check_cta_groups(function: Operation) -> None:
    """Before the tiles become pieces (`cta.split_into_pieces`): the sm100 dots of
    `function` use one cta_group, and a `cta_group = 2` dot is the CTA pair's (see
    `_check_pair_layouts`) in a cluster of pairs."""
    dots = [op for op in function.walk() if sm100_atom(op) is not None]
    groups = sorted({atom.cta_group.data for op in dots if (atom := sm100_atom(op))})
    if len(groups) > 1:
        emit_error(
            dots[0],
            "the sm100 MMAs of a kernel all use one cta_group, got "
            + " and ".join(map(str, groups)),
        )
    if groups != [2]:
        return
    _check_cluster(function, dots[0])
    for dot in dots:
        assert isinstance(dot, tile_ops.DotOp)
        _check_pair_layouts(dot)


def prepare(function: Operation) -> None:
    """Mark what the sm100 dots of `function` change in its synchronisation, and plan
    its tensor memory (the module docstring)."""
    dots = [op for op in function.walk() if sm100_atom(op) is not None]
    groups = {atom.cta_group.data for op in dots if (atom := sm100_atom(op))}
    cta_group = max(groups, default=1)
    for dot in dots:
        assert isinstance(dot, tile_ops.DotOp)
        _mark(dot, cta_group)
    if cta_group == 2:
        for op in function.walk():
            if isinstance(op, async_ops.CreatePipelineOp) and is_tmem_pipeline(
                op.result.type
            ):
                op.attributes[CTA_PAIR] = _UNIT
    for op in function.walk():
        if not isinstance(op, tile_ops.CopyOp) or is_tmem(op.dest.type):
            continue
        if is_tmem(op.source.type):
            _check_completed(op)
    plan_tensor_memory(function, cta_group)


def _check_completed(copy: tile_ops.CopyOp) -> None:
    """A tensor-memory tile is read only once its MMAs are known to be complete: taken
    from a pipeline of tensor-memory slots, whose full barrier their commit completes."""
    if not isinstance(copy.source.owner, async_ops.ConsumerAcquireOp):
        emit_error(
            copy,
            "a tensor-memory tile is read once its MMAs are complete: take it with "
            "consumer_acquire from a pipeline of tensor-memory slots (the MMAs' "
            "producer_commit completes its full barrier)",
        )


_UNIT = UnitAttr()


def _check_cluster(function: Operation, dot: Operation) -> None:
    spec = nv_tileaa.kernel_spec_of(function)
    ctas = spec.num_ctas.data if spec is not None else 1
    if ctas % 2:
        emit_error(
            dot,
            "a cta_group = 2 MMA runs on CTA pairs: the kernel's cluster "
            f"(nv_tileaa.kernel_spec num_ctas) must be a multiple of 2, got {ctas}",
        )


def _check_pair_layouts(dot: tile_ops.DotOp) -> None:
    """A `cta_group = 2` dot computes the CTA pair's tile: the pair's MMA reads A's rows
    and B's columns from both CTAs and writes each CTA's rows of the accumulator. So the
    CTA layouts split A and the accumulator by rows across each pair (the CTAs of a
    pair, ranks 2j and 2j + 1, hold different rows, A's the accumulator's), split B by
    columns (the even CTA holds the first half of the pair's columns, the odd CTA the
    second), and do not split K."""
    a, b, c = (cta.pieces(v.type) for v in (dot.a, dot.b, dot.c))
    if a is not None and b is not None and c is not None and _pair_pieces(a, b, c):
        return
    emit_error(
        dot,
        "a cta_group = 2 dot computes a CTA pair's tile: its CTA layouts must split A "
        "and the accumulator by rows across each pair and B by columns, the even CTA "
        "holding the first half of the pair's columns, and not split K",
    )


def _pair_pieces(a: cta.Pieces, b: cta.Pieces, c: cta.Pieces) -> bool:
    (a_split, a_pieces), (b_split, b_pieces), (c_split, c_pieces) = a, b, c
    if a_split[1] != 1 or b_split[0] != 1 or b_split[1] != 2 * c_split[1]:
        return False
    if (
        a_split[0] != c_split[0]
        or len({len(a_pieces), len(b_pieces), len(c_pieces)}) != 1
    ):
        return False
    for rank, (pa, pb, pc) in enumerate(zip(a_pieces, b_pieces, c_pieces, strict=True)):
        mate = c_pieces[rank ^ 1]
        if pa[0] != pc[0] or pc[0] == mate[0] or pc[1] != mate[1]:
            return False
        if pb[1] != 2 * pc[1] + rank % 2:
            return False
    return True


def _mark(dot: tile_ops.DotOp, cta_group: int) -> None:
    key = agent_key(dot)
    if cta_group == 2:
        if key is None or not isinstance(key[0], AgentSwitchOp):
            emit_error(
                dot,
                "a cta_group = 2 dot must run in an agent of an agent_switch (the "
                "agent runs on the even CTA of each pair)",
            )
        switch, index = key
        marked = switch.attributes.get(PAIR_AGENTS)
        indices = (
            set(int(v) for v in marked.get_values())
            if isinstance(marked, DenseArrayBase)
            else set[int]()
        )
        switch.attributes[PAIR_AGENTS] = DenseArrayBase.from_list(
            i32, sorted(indices | {index})
        )
    for operand in (dot.a, dot.b):
        acquire = operand.owner
        if isinstance(operand, BlockArgument) and isinstance(
            operand.owner.parent_op(), async_ops.ConsumeOneOp
        ):
            emit_error(
                dot,
                "an sm100 dot reads its operands after it is issued: take them with "
                "consumer_acquire and give them back with consumer_release (consume_one "
                "would release the slot before the MMA has read it)",
            )
        if not isinstance(acquire, async_ops.ConsumerAcquireOp):
            continue
        create = acquire.pipeline.owner
        if cta_group == 2 and isinstance(create, async_ops.CreatePipelineOp):
            create.attributes[CTA_PAIR] = _UNIT
        for use in acquire.pipeline.uses:
            user = use.operation
            if isinstance(user, async_ops.ConsumerReleaseOp) and agent_key(user) == key:
                user.attributes[RELEASED_BY_COMMIT] = _UNIT


# -- the MMA ---------------------------------------------------------------------------


def check_target(op: Operation) -> None:
    """tcgen05 needs the arch- or family-conditional target of sm_100, sm_103 or sm_110."""
    from tileas_py.passes.lowering.convert_tileas_to_nvvm import target_arch

    arch = target_arch(op)
    if arch is not None and hw_tcgen05.supports_tcgen05(arch):
        return
    emit_error(
        op,
        "an sm100 atom (tcgen05.mma) needs an sm_100a, sm_103a or sm_110a target (or "
        f"their family targets), got {arch if arch is not None else 'none'}",
    )


def _tiling(dot: tile_ops.DotOp, operand: str, mn: int) -> wgmma_layout.OperandTiling:
    atom = sm100_atom(dot)
    assert atom is not None
    major = atom.a_major.data if operand == "A" else atom.b_major.data
    return shared_operand_tiling(
        dot,
        dot.a if operand == "A" else dot.b,
        operand,
        k_major=major == cute_nvgpu.Major.K,
        mn=mn,
        k=atom.k.data,
        instruction="tcgen05",
    )


def descriptor_fields(tiling: wgmma_layout.OperandTiling) -> int:
    """The sm_100 descriptor of a tile at shared address 0: the WGMMA canonical layout's
    offsets, in the sm_100 encoding."""
    hopper = tiling.descriptor()
    return Tcgen05SmemDescriptor(
        start_address=0,
        leading_byte_offset=hopper.leading_byte_offset,
        stride_byte_offset=hopper.stride_byte_offset,
        swizzle=_SWIZZLES[hopper.swizzle],
    ).encode()


class _Issue:
    """Builds the MMAs of one dot into a block (the issuing thread's)."""

    def __init__(self, rewriter: PatternRewriter) -> None:
        self.rewriter = rewriter

    def add(self, op: Operation) -> SSAValue:
        self.rewriter.insert(op)
        return op.results[0]

    def constant(self, value: int, t: IntegerType = i64) -> SSAValue:
        return self.add(llvm.ConstantOp(IntegerAttr(value, t), t))

    def descriptors(
        self,
        pointer: SSAValue,
        tiling: wgmma_layout.OperandTiling,
        tiles: list[tuple[int, int]],
    ) -> dict[tuple[int, int], SSAValue]:
        address = self.add(llvm.PtrToIntOp(pointer, i64))
        masked = self.add(llvm.AndOp(address, self.constant(_ADDRESS_MASK)))
        start = self.add(llvm.LShrOp(masked, self.constant(4)))
        base = self.add(
            llvm.OrOp(start, self.constant(_i64(descriptor_fields(tiling))))
        )
        by_increment: dict[int, SSAValue] = {0: base}
        out: dict[tuple[int, int], SSAValue] = {}
        for mn, k in tiles:
            increment = tiling.byte_offset(mn, k) >> 4
            if increment not in by_increment:
                by_increment[increment] = self.add(
                    llvm.AddOp(base, self.constant(increment))
                )
            out[mn, k] = by_increment[increment]
        return out


_KINDS = {
    "f16": Tcgen05MMAKind.F16,
    "tf32": Tcgen05MMAKind.TF32,
    "f8f6f4": Tcgen05MMAKind.F8F6F4,
    "i8": Tcgen05MMAKind.I8,
}


class LowerTcgen05Dot(RewritePattern):
    """`nv_tileas.dot` with an sm100 atom to `tcgen05.mma`s by one thread."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: tile_ops.DotOp, rewriter: PatternRewriter) -> None:
        atom = sm100_atom(op)
        if atom is None:
            return
        check_target(op)
        group = atom.cta_group.data
        # D's rows are C's, and tensor-memory tiles have 128 (`tmem.tile_problem`).
        assert atom.m.data // group == hw_tmem.LANES
        n_instr, k_instr = atom.n.data, atom.k.data
        _, cols = tile_shape(op.c.type)
        k_total = tile_shape(op.a.type)[1]
        n_tiles, k_tiles = cols // n_instr, k_total // k_instr
        a_tiling = _tiling(op, "A", atom.m.data // group)
        b_tiling = _tiling(op, "B", n_instr // group)
        address, holds = tile_parts(rewriter, op.c, op)
        a_pointer = to_llvm(rewriter, op.a, op, SHARED_PTR)
        b_pointer = to_llvm(rewriter, op.b, op, SHARED_PTR)
        leader = agent_leader(rewriter, op)

        body = Block()
        rewriter.insert(scf.IfOp(leader, [], Region(body), Region()))
        after = rewriter.insertion_point
        rewriter.insertion_point = InsertPoint.at_end(body)
        issue = _Issue(rewriter)
        rewriter.insert(
            nvvm_tcgen05.Tcgen05FenceOp(Tcgen05FenceKindAttr(Tcgen05FenceKind.AFTER))
        )
        a_desc = issue.descriptors(
            a_pointer, a_tiling, [(0, k) for k in range(k_tiles)]
        )
        b_desc = issue.descriptors(
            b_pointer,
            b_tiling,
            [(n, k) for n in range(n_tiles) for k in range(k_tiles)],
        )
        idesc = issue.constant(_i32(atom.instruction_descriptor().encode()), i32)
        accumulate = issue.add(llvm.ConstantOp(IntegerAttr(1, i1), i1))
        kind = Tcgen05MMAKindAttr(_KINDS[str(atom.kind)])
        cta_group = CTAGroupKindAttr(
            CTAGroupKind.CTA_2 if group == 2 else CTAGroupKind.CTA_1
        )
        for n in range(n_tiles):
            d = tmem_address(rewriter, address, n * n_instr)
            for k in range(k_tiles):
                rewriter.insert(
                    nvvm_tcgen05.Tcgen05MMAOp(
                        d,
                        a_desc[0, k],
                        b_desc[n, k],
                        idesc,
                        holds if k == 0 else accumulate,
                        kind=kind,
                        cta_group=cta_group,
                    )
                )
        rewriter.insert(scf.YieldOp())
        rewriter.insertion_point = after
        result = tile_value(rewriter, address, True)
        rewriter.replace(op, [], [from_llvm(rewriter, result, op, op.result.type)])


def tile_shape(t: Attribute) -> tuple[int, ...]:
    assert isinstance(t, TensorType)
    return tuple(t.get_shape())


def _i32(value: int) -> int:
    return value - (1 << 32) if value >= 1 << 31 else value


class LowerCommitRelease(RewritePattern):
    """`consumer_release` of an operand slot in an agent that issues tcgen05 MMAs: the
    issuer commits its MMAs to the slot's empty barrier (multicast to both CTAs of a
    pair), which completes once they have read the slot."""

    @op_type_rewrite_pattern
    def match_and_rewrite(
        self, op: async_ops.ConsumerReleaseOp, rewriter: PatternRewriter
    ) -> None:
        if not released_by_commit(op) or pipeline.parts(op.pipeline) is None:
            return
        knobs = take_pragmas(rewriter, op)
        state = pipeline.State(rewriter, op.pipeline, pipeline.RELEASE)
        empty = state.barrier(rewriter, pipeline.EMPTY)
        leader = agent_leader(rewriter, op)
        body = Block()
        rewriter.insert(scf.IfOp(leader, [], Region(body), Region()))
        after = rewriter.insertion_point
        rewriter.insertion_point = InsertPoint.at_end(body)
        owner = op.pipeline.owner
        commit_to(
            rewriter,
            empty,
            pair=is_pair(owner if isinstance(owner, Operation) else None),
            knobs=knobs,
        )
        rewriter.insert(scf.YieldOp())
        rewriter.insertion_point = after
        state.advance(rewriter)
        rewriter.erase(op)


PATTERNS: tuple[RewritePattern, ...] = (LowerTcgen05Dot(), LowerCommitRelease())
