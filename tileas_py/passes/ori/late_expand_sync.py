"""`ori-late-expand-sync`: ptxas's LateExpandSyncInstructions (phase 72, seed 003).

The phase that turns synchronization instructions into their SASS sequences. Seed 003's
pseudo-instructions and what they are in ori:

- *SYNC.WARP* (a warp must be converged for a warp-level op): `WARPSYNC.ALL` before an
  instruction that needs the whole warp (a CTA barrier, `setmaxnreg`, a full-mask warp-level
  `.sync` op, a `.sync.aligned` wgmma op) where the warp may be diverged (`Convergence`);
  `WARPSYNC <mask>` before a partial-mask one there; `bar.warp.sync` itself becomes
  `WARPSYNC.ALL` / `WARPSYNC <mask>` there and nothing in converged code. At -O0 every
  warp-level op with a member mask takes the collective path instead
  (`WARPSYNC.COLLECTIVE` before, `ENDCOLLECTIVE` after), and a divergent region holding
  one is wrapped in BSSY / BSYNC.
- *SYNC.BLOCK*: CTA barriers become `BAR.SYNC.DEFER_BLOCKING`, `BAR.ARV`, `BAR.RED` (+
  `B2R.RESULT`); a cluster wait falls back to `BAR.SYNC 0` outside cluster launches.
- *SYNC.CONVERGE*: a divergent branch whose region (up to its immediate post-dominator)
  holds something that needs the warp reconverged (an `mbarrier.init` from -O1 on, a bulk
  copy issued by an elected lane, a full-mask warp-level op) is wrapped in `BSSY B0` before
  the branch and a new block with `BSYNC B0` before the join (`.RECONVERGENT` on sm_100+).
- *MBARRIER.WAIT*: a `try_wait` spin loop (`W: mbarrier.try_wait %p, ...; @!%p bra W`) is
  rotated at -O2/-O3: the wait stays in line and branches to a retry copy placed after
  the function's last block, which branches back (marked `ori.spin_retry`: as PTX it
  prints as the loop it came from, which ptxas rotates itself); at -O1 it stays in place,
  at -O0 each iteration starts with `YIELD` (on the line of the instruction before the
  loop).
- *ERRBAR*: after a memory barrier or release of gpu, cluster or sys scope, `ERRBAR` (and
  `CGAERRBAR` from sm_90 on), as ptxas 13.5 does; `disable-errbar-after-membar` drops them
  and `errbar-form=bar-sync-15` gives seed 003's form, `BAR.SYNC 15` after sys-scope ones only.

Every other SASS comes from `tileas_py.hw.sync.sass` (ptxas 13.5's lowering of each PTX sync
instruction): an instruction records its own opcode in `ori.sass_opcode`, and what ptxas
adds around it becomes `ori.sass` ops (fences of a memory order, `CCTL.IVALL`, the runtime
cluster-launch test of cluster barriers, the uniform-flag test of `fence.proxy.alias`, the
`ELECT` / `BRA.U.ANY` issue loop of TMA loads and reductions, `setmaxnreg`'s retry branch).
`setmaxnreg` is dropped with ptxas's remark when the kernel's register count at entry is
unknown (no `.maxnreg` or `.minnctapersm`: C7508), under `-g` (C7505), and under `-c` in a
kernel that calls an extern function (C7504). Instructions a pass already lowered
(`ori-expand-mbarrier` does the mbarriers) are left alone.

Under `-c` or `-g`, and from sm_90 on in any function that works on mbarriers, a gpu / sys
memory barrier keeps a `MEMBAR.ALL.CTA` before it (ptxas 13.5's conservative form).

Above -O0 (sm_90+), a warp-level op where the warp may be diverged takes the `BRA.DIV`
path when another op of its opcode exists that no CTA barrier separates from it and that
is not a converged op dominating it: `BRA.DIV` before it (one for a run of them in a
block), and after the function's code an out-of-line copy, `WARPSYNC.COLLECTIVE; op;
ENDCOLLECTIVE` and a fall-through back marked `ori.collective_copy` (SASS only: the PTX
writer leaves it out), in its own BSSY / BSYNC unless a divergent `if` holds the op; a
divergent region holding such an op gets BSSY / BSYNC as one with a partial-mask op does.

Not modelled: if-conversion and unrolling (general optimizations, not sync phases), sm_80's
`BRA.DIV` path to `__cuda_sm70_*` helpers, and sm_75's warp-sync helper calls. On targets before sm_70 (no WARPSYNC or BSSY) the pass fails with
seed 003's message.

Example (sm_90a, default options):

    ori.membar "membar.sys"

becomes

    ori.membar "membar.sys" attributes {ori.sass_opcode = "MEMBAR.SC.SYS"}
    ori.sass "ERRBAR"
    ori.sass "CGAERRBAR"
    ori.sass "CCTL.IVALL"
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import cached_property
from typing import Literal

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.ir import Attribute, Block, Operation, SSAValue
from xdsl.passes import ModulePass

from tileas_py.analysis.divergence import WarpUniformity
from tileas_py.diagnostics import emit_error, emit_remark
from tileas_py.dialects.ori.analysis import ControlFlowGraph, code_blocks, instructions
from tileas_py.dialects.ori.attributes import USE_SLOT, ImmAttr
from tileas_py.dialects.ori.function import FallthroughOp, FuncOp
from tileas_py.dialects.ori.instructions import (
    BarrierOp,
    BraOp,
    CallOp,
    ExitOp,
    InstructionOp,
    MbarrierOp,
    RetOp,
    TerminatorInstructionOp,
)
from tileas_py.dialects.ori.module_ops import pragmas_of, start_of
from tileas_py.dialects.ori.sass import (
    SassOp,
    is_spin_retry,
    mark_collective_copy,
    mark_spin_retry,
    sass_opcode,
    set_sass_opcode,
)
from tileas_py.hw.arch import sm_version
from tileas_py.hw.sync.diagnostics import SYNC_MESSAGE_BY_NAME, SyncDiagnostic
from tileas_py.hw.sync.eiattr import mbarrier_kind
from tileas_py.hw.sync.sass import (
    CONSERVATIVE_MEMBAR_PREFIX,
    ERRBARS,
    LoweringParts,
    errbar_opcodes,
    lowering_parts,
    may_have_lowering,
)
from tileas_py.passes.ori.support.common import (
    block_instructions,
    callee_name,
    defined_functions,
    insert_after,
    insert_before,
    new_sass,
    ocg_intrinsic,
    opcode_parts,
    target_arch,
)
from tileas_py.passes.ori.support.convergence import (
    Convergence,
    has_full_mask,
    member_mask,
    needs_whole_warp,
)
from tileas_py.ptx.writer import ptx_instruction_text

VOLTA = 70
HOPPER = 90
"""The first SM with WARPSYNC and BSSY / BSYNC, which the expansion emits."""
NOT_SUPPORTED = "ExpandSyncInstLate option is not supported on this architecture."
ELECT_LOOP_OPCODES = ("UTMALDG", "UBLKCP.S.G", "UTMAREDG")
"""Bulk copies into shared memory and TMA reductions: issued by one `ELECT`ed lane in a
uniform `BRA.U.ANY` loop."""
REGISTER_COUNT_DIRECTIVES = frozenset({"maxnreg", "minnctapersm"})

SassSpec = tuple[str, tuple[Attribute, ...]]
"""A SASS instruction to add: its opcode and ori operand layout (immediates only)."""


def _spec(opcode: str, *operands: int) -> SassSpec:
    return opcode, tuple(ImmAttr(o) for o in operands)


@dataclass(frozen=True)
class LateExpandSyncPass(ModulePass):
    """Expands synchronization instructions into their SASS sequences (phase 72).

    See the module docstring for what it models; a before / after example:

        ori.bar "bar.sync" (0)        // in a branch on %tid.x

    becomes

        ori.sass "WARPSYNC.ALL"
        ori.bar "bar.sync" (0) attributes {ori.sass_opcode = "BAR.SYNC.DEFER_BLOCKING"}
    """

    name = "ori-late-expand-sync"

    opt_level: int = 3
    """ptxas's -O level: 2 and 3 rotate spin loops; 0 puts `WARPSYNC.ALL` before every CTA
    barrier and `YIELD` in spin loops."""
    disable_errbar_after_membar: bool = False
    """ptxas's DisableErrbarAfterMembar knob (unreachable in ptxas 13.5): no error barriers."""
    errbar_form: Literal["errbar", "bar-sync-15"] = "errbar"
    """`errbar`: ptxas 13.5's ERRBAR (+ CGAERRBAR); `bar-sync-15`: seed 003's BAR.SYNC 15
    after sys-scope memory barriers."""
    compile_only: bool = False
    """ptxas's `-c`: a kernel that calls an extern function drops `setmaxnreg` (C7504)."""
    debug: bool = False
    """ptxas's `-g`: `setmaxnreg` is dropped to allow debugging (C7505)."""

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        arch = target_arch(op)
        functions = defined_functions(op)
        if sm_version(arch) < VOLTA:
            for func in functions:
                for inst in instructions(func):
                    if _needs_expansion(inst):
                        emit_error(inst, NOT_SUPPORTED)
            return
        callees = _CalleeDivergence(functions)
        for func in functions:
            _Expansion(self, func, arch, callees).run()


def _needs_expansion(inst: InstructionOp) -> bool:
    """Whether expanding the instruction may take WARPSYNC or BSSY, which need sm_70."""
    return needs_whole_warp(inst) or member_mask(inst) is not None


class _CalleeDivergence:
    """Whether a called function may return with its warp diverged (extern: yes)."""

    def __init__(self, functions: Sequence[FuncOp]) -> None:
        self.by_name = {f.func_name.data: f for f in functions}
        self.known: dict[str, bool] = {}

    def __call__(self, name: str) -> bool:
        if name in self.known:
            return self.known[name]
        func = self.by_name.get(name)
        if func is None:
            return True
        self.known[name] = True  # a recursive call may return diverged
        diverges = Convergence(func, WarpUniformity(func), self).returns_diverged()
        self.known[name] = diverges
        return diverges


@dataclass
class _Expansion:
    """The expansion of one function."""

    options: LateExpandSyncPass
    func: FuncOp
    arch: str
    callees: _CalleeDivergence
    bsync_of: dict[SassOp, SassOp] = field(default_factory=dict[SassOp, SassOp])
    inline_waits: set[InstructionOp] = field(default_factory=set[InstructionOp])
    collective: set[InstructionOp] = field(default_factory=set[InstructionOp])
    """Warp-level ops that take the `BRA.DIV` path (`collective_ops`)."""
    divergent_regions: list[tuple[frozenset[Block], bool]] = field(
        default_factory=list[tuple[frozenset[Block], bool]]
    )
    """Every divergent branch's region (up to its join) and whether it is a loop."""
    reconverged: list[tuple[set[Block], bool, int]] = field(
        default_factory=list[tuple[set[Block], bool, int]]
    )
    """The BSSY regions: their blocks, whether a loop, their depth."""

    @property
    def sm(self) -> int:
        return sm_version(self.arch)

    @cached_property
    def conservative_membars(self) -> bool:
        """Whether gpu / sys memory barriers keep a `MEMBAR.ALL.CTA` before them: under
        `-c` or `-g`, and from sm_90 on (hardware mbarriers) in a function that works on
        mbarriers."""
        return (
            self.options.compile_only
            or self.options.debug
            or (
                self.sm >= HOPPER
                and any(
                    mbarrier_kind(i.opcode.data) is not None
                    for i in instructions(self.func)
                )
            )
        )

    def run(self) -> None:
        uniformity = WarpUniformity(self.func)
        self.drop_setmaxnreg()
        self.shape_spin_loops()
        if self.options.opt_level > 0 and self.sm >= HOPPER:
            # Measured on sm_90a; sm_80 branches to a `__cuda_sm70_*` helper call instead.
            self.collective = collective_ops(self.func, uniformity, self.callees)
        runs = _collective_runs(self.func, self.collective)
        self.insert_reconvergence(uniformity)
        convergence = Convergence(self.func, uniformity, self.callees, self.bsync_of)
        for inst in list(instructions(self.func)):
            self.expand(inst, convergence.diverged_before(inst))
        position = self.out_of_line_position()
        for run in runs:
            if position is not None:
                position = self.branch_on_divergence(run, position)

    # -- setmaxnreg needs a known register count at entry --------------------------------

    def drop_setmaxnreg(self) -> None:
        """ptxas ignores `setmaxnreg` (with a remark) under `-g`, in a `-c` kernel that calls
        an extern function, and when the register count at entry is unknown."""
        reason = self.setmaxnreg_ignored()
        if reason is None:
            return
        dropped = [
            i for i in instructions(self.func) if opcode_parts(i)[0] == "setmaxnreg"
        ]
        for inst in dropped:
            set_sass_opcode(inst, "")
        if dropped:
            remark = SyncDiagnostic(SYNC_MESSAGE_BY_NAME[reason])
            emit_remark(dropped[0], remark.format())

    def setmaxnreg_ignored(self) -> str | None:
        """The name of ptxas's message for ignoring this function's `setmaxnreg`, if any."""
        if self.options.debug:
            return "setmaxnreg-ignored-debug"
        if self.options.compile_only and any(
            isinstance(i, CallOp)
            and ocg_intrinsic(i) is None
            and callee_name(i) not in self.callees.by_name
            for i in instructions(self.func)
        ):
            return "setmaxnreg-ignored-units"
        known = any(
            d.directive.data in REGISTER_COUNT_DIRECTIVES for d in self.func.directives
        )
        return None if known else "setmaxnreg-ignored-entry-count"

    # -- MBARRIER.WAIT: spin loops ----------------------------------------------------------

    def shape_spin_loops(self) -> None:
        blocks = list(self.func.body.blocks)
        for block in blocks[1:]:
            loop = _spin_loop(block)
            if loop is None:
                continue
            wait, branch = loop
            if self.options.opt_level == 0:
                insert_before(
                    wait, [new_sass("YIELD", _instruction_before(block, wait))]
                )
            elif self.options.opt_level >= 2 and "try_wait" in opcode_parts(wait):
                self.rotate(wait, branch)

    def out_of_line_position(self) -> Block | None:
        """The block after which out-of-line code goes: the last one that holds code (the
        blocks after it hold only labels, where ptxas sees nothing), None when code runs
        on from it."""
        block = self.func.body.blocks.last
        while (
            block is not None
            and not list(block_instructions(block))
            and isinstance(block.last_op, FallthroughOp)
        ):
            block = block.prev_block
        if block is None or isinstance(block.last_op, FallthroughOp):
            return None
        return block

    def rotate(self, wait: InstructionOp, branch: BraOp) -> None:
        """Keep the wait in line and move its retry after the function's code."""
        position = self.out_of_line_position()
        if position is None:
            return
        after_loop = branch.successors[1]
        retry = Block()
        retry_wait = wait.clone()
        retry_wait.location = wait.location
        assert branch.guard is not None
        retry_branch = BraOp(
            branch.opcode.data,
            guard=branch.guard,
            guard_negated=True,
            successors=[retry, after_loop],
        )
        retry_branch.location = branch.location
        mark_spin_retry(retry_branch)
        retry.add_ops(
            [*(p.clone() for p in pragmas_of(wait)), retry_wait, retry_branch]
        )
        parent = position.parent
        assert parent is not None
        parent.insert_block_after(retry, position)
        branch.successors[0] = retry
        self.inline_waits.add(wait)

    # -- SYNC.CONVERGE: BSSY / BSYNC around divergent regions ------------------------------

    def insert_reconvergence(self, uniformity: WarpUniformity) -> None:
        """Wrap every divergent region that needs it; the regions are found on the CFG as
        read, and a region's BSYNC block joins every region around it (linear: no CFG is
        rebuilt per region)."""
        cfg = ControlFlowGraph(self.func)
        wrapped: list[tuple[Block, InstructionOp, Block, set[Block]]] = []
        for block in cfg.blocks:
            terminator = block.last_op
            if not isinstance(terminator, InstructionOp) or not uniformity.is_divergent(
                terminator
            ):
                continue
            join = cfg.immediate_post_dominator(block)
            if join is None or _only_returns(join):
                continue
            region = _region(cfg, block, join)
            self.divergent_regions.append((frozenset(region), block in region))
            if self.reconverges(region, join):
                wrapped.append((block, terminator, join, region))
        regions = [region | {block} for block, _, _, region in wrapped]
        for index, (block, terminator, join, region) in enumerate(wrapped):
            depth = sum(block in r for r in regions[:index])
            sync_block = self.wrap(block, terminator, join, region, depth)
            if sync_block is None:
                continue
            self.reconverged.append((region, block in region, depth))
            for other in regions:
                if block in other:
                    other.add(sync_block)
            for _, _, _, other_region in wrapped[index + 1 :]:
                if block in other_region:
                    other_region.add(sync_block)

    def reconverges(self, region: set[Block], join: Block) -> bool:
        """Whether ptxas wraps a divergent region in BSSY / BSYNC: always, unless the
        program synchronizes the warp inside it (a CTA barrier, a full-mask warp-level op:
        the warp must then arrive whole, and a `WARPSYNC` suffices), or its warp-level
        ops of partial masks meet a full `bar.warp.sync` at the join; an
        `mbarrier.init` or an elected bulk copy in it always needs the BSSY."""
        insts = [i for b in region for i in block_instructions(b)]
        if any(_is_init(i) for i in insts):
            # ptxas keeps its init-only ifs without reconvergence at -O0.
            return self.options.opt_level > 0
        if any(self.needs_reconvergence(i) for i in insts):
            return True
        if any(i in self.collective for i in insts):
            # As a partial-mask op: a full `bar.warp.sync` at the join stands for BSYNC.
            return not _starts_with_full_warp_sync(join)
        if any(_spin_loop(b) is not None or _is_retry(b) for b in region):
            return False  # every thread leaves an mbarrier wait loop
        if any(self.synchronizes_warp(i) for i in insts):
            return False
        partial = any(member_mask(i) is not None for i in insts)
        return not (partial and _starts_with_full_warp_sync(join))

    def synchronizes_warp(self, inst: InstructionOp) -> bool:
        """An instruction the program runs with the whole warp, which ptxas meets with a
        `WARPSYNC` (at -O0 warp-level ops take the collective path instead)."""
        if self.options.opt_level == 0 and member_mask(inst) is not None:
            return False
        return needs_whole_warp(inst)

    def needs_reconvergence(self, inst: InstructionOp) -> bool:
        """An elected bulk copy (its issue loop needs the warp back together)."""
        own = self.own_opcode(inst) if opcode_parts(inst)[0] == "cp" else None
        return own is not None and own.startswith(ELECT_LOOP_OPCODES)

    def wrap(
        self,
        branch_block: Block,
        branch: InstructionOp,
        join: Block,
        region: set[Block],
        depth: int,
    ) -> Block | None:
        """Put the BSSY before the region and its BSYNC in a new block before the join;
        return that block (None: not wrapped)."""
        suffix = ".RECONVERGENT" if self.sm >= 100 else ""
        entry = _loop_entry(branch_block, region) if branch_block in region else branch
        if entry is None:
            return None  # a loop entered from several places: not wrapped
        before_entry = entry.prev_op
        anchor = before_entry if isinstance(before_entry, InstructionOp) else entry
        bssy = new_sass(f"BSSY{suffix}", anchor, [ImmAttr(depth)])
        entry_block = entry.parent_block()
        assert entry_block is not None
        entry_block.insert_op_before(bssy, entry)
        sync_block = Block()
        region_end = join.prev_block
        body = (
            [
                i
                for i in block_instructions(region_end)
                if not isinstance(i, TerminatorInstructionOp)
            ]
            if region_end is not None and region_end in region
            else []
        )
        # A loop reconverges where its branch leaves it, an if after its last instruction.
        at: Operation = branch if branch_block in region or not body else body[-1]
        bsync = new_sass(f"BSYNC{suffix}", at, [ImmAttr(depth)])
        sync_block.add_ops([bsync, FallthroughOp(join)])
        parent = join.parent
        assert parent is not None
        parent.insert_block_before(sync_block, join)
        for block in (*region, branch_block):
            terminator = block.last_op
            assert terminator is not None
            for i, successor in enumerate(terminator.successors):
                if successor is join:
                    terminator.successors[i] = sync_block
        self.bsync_of[bsync] = bssy
        return sync_block

    # -- the instructions ---------------------------------------------------------------

    def lowered(self, inst: InstructionOp) -> LoweringParts | None:
        if not may_have_lowering(inst.opcode.data):
            return None
        return lowering_parts(ptx_instruction_text(inst), self.arch)

    def own_opcode(self, inst: InstructionOp) -> str | None:
        parts = self.lowered(inst)
        return None if parts is None else parts.own

    def expand(self, inst: InstructionOp, diverged: bool) -> None:
        if sass_opcode(inst) is not None:
            return
        parts = opcode_parts(inst)
        at_o0 = self.options.opt_level == 0
        if at_o0 and member_mask(inst) is not None:
            # -O0 takes the collective path for every warp-level op, whatever the mask.
            insert_before(inst, [new_sass("WARPSYNC.COLLECTIVE", inst)])
            insert_after(inst, [new_sass("ENDCOLLECTIVE", inst)])
            if parts[:2] == ["bar", "warp"]:
                set_sass_opcode(inst, "")
                return
        elif inst in self.collective:
            pass  # the BRA.DIV path, laid out by `branch_on_divergence`
        elif parts[:2] == ["bar", "warp"]:
            self.expand_warp_sync(inst, diverged)
            return
        elif needs_whole_warp(inst) and (
            diverged or (at_o0 and isinstance(inst, BarrierOp))
        ):
            insert_before(inst, [new_sass("WARPSYNC.ALL", inst)])
        elif diverged and (mask := member_mask(inst)) is not None:
            insert_before(inst, [self.warpsync_with_mask(inst, mask)])
        if isinstance(inst, CallOp):
            self.expand_call(inst)
            return
        lowered = self.lowered(inst)
        if lowered is None:
            return
        before = [self.spec_list(lowered.before, inst)]
        after = [self.spec_list(lowered.after, inst)]
        own = lowered.own
        if parts[:2] == ["barrier", "cluster"]:
            test = "BRA.U" if self.sm >= 100 else "BRA"
            before.insert(0, [_spec(test)])
            after.append([_spec("BRA")])
            if parts[2] == "wait":
                after.append([_spec("BAR.SYNC.DEFER_BLOCKING", 0)])
        elif parts[1:3] == ["proxy", "alias"] and len(lowered.before) == 2:
            gpu, sys = lowered.before
            before = [[_spec("BRA.U"), _spec(gpu), _spec("BRA.U"), _spec(sys)]]
        elif own is not None and own.startswith(ELECT_LOOP_OPCODES):
            before.append([_spec("ELECT")])
            after.insert(0, [_spec("BRA.U.ANY")])
        elif parts[0] == "setmaxnreg" and parts[1] == "inc":
            after.append([_spec("BRA")])
        elif inst in self.inline_waits:
            after = [
                [s for s in self.spec_list(lowered.after, inst) if s[0] == "CCTL.IVALL"]
            ]
        set_sass_opcode(inst, own or "")
        flat_before = [s for group in before for s in group]
        flat_after = [s for group in after for s in group]
        if self.conservative_membars:
            flat_before, flat_after = _with_conservative_membars(
                flat_before, own, flat_after
            )
        self.insert_specs(inst, flat_before, before=True)
        self.insert_specs(inst, flat_after, before=False)
        if parts[:2] == ["barrier", "cluster"] and self.sm >= 100:
            test = start_of(inst).prev_op
            while isinstance(test, SassOp) and test.opcode.data != "BRA.U":
                test = test.prev_op
            previous = test.prev_op if test is not None else None
            if isinstance(test, SassOp) and isinstance(previous, InstructionOp):
                # sm_100 tests the cluster launch once the previous instruction issued.
                test.location = previous.location

    # -- the BRA.DIV path of warp-level ops ------------------------------------------------

    def branch_on_divergence(self, run: list[InstructionOp], position: Block) -> Block:
        """`BRA.DIV` before a run of warp-level ops (on the line of the instruction before
        it), and their out-of-line copy after the function's code: `WARPSYNC.COLLECTIVE;
        op; ENDCOLLECTIVE` each, then a branch back; wrapped in its own BSSY / BSYNC unless
        the run lies in a divergent `if`. The copy goes after `position`; returns it."""
        first, last = run[0], run[-1]
        block = first.parent_block()
        opcodes = [self.own_opcode(inst) for inst in run]
        if block is None or block is code_blocks(self.func)[0] or None in opcodes:
            return position
        insert_before(start_of(first), [new_sass("BRA.DIV", _layout_previous(first))])
        copy: list[Operation] = []
        for inst, opcode in zip(run, opcodes, strict=True):
            assert opcode is not None
            copy.append(new_sass("WARPSYNC.COLLECTIVE", inst))
            copy.append(new_sass(opcode, inst))
            copy.append(new_sass("ENDCOLLECTIVE", inst))
        depth = self.copy_reconvergence_depth(block)
        if depth is not None:
            suffix = ".RECONVERGENT" if self.sm >= 100 else ""
            copy.insert(0, new_sass(f"BSSY{suffix}", last, [ImmAttr(depth)]))
            copy.append(new_sass(f"BSYNC{suffix}", last, [ImmAttr(depth)]))
        # A fall-through back to the run's block: the listing's `BRA` on the last op's line.
        back = FallthroughOp(block)
        mark_collective_copy(back)
        copy.append(back)
        parent = position.parent
        assert parent is not None
        copy_block = Block(copy)
        parent.insert_block_after(copy_block, position)
        return copy_block

    def copy_reconvergence_depth(self, block: Block) -> int | None:
        """The depth of an out-of-line copy's own BSSY (the BSSY regions around it); None
        when the innermost divergent region around it is an `if`, whose join reconverges
        the copy (ptxas 13.5, with or without a BSSY around that `if`)."""
        around = [r for r, _ in self.divergent_regions if block in r]
        if around:
            innermost = min(around, key=len)
            if not dict(self.divergent_regions)[frozenset(innermost)]:
                return None
        return sum(block in r for r, _, _ in self.reconverged)

    def spec_list(self, opcodes: Sequence[str], inst: InstructionOp) -> list[SassSpec]:
        specs: list[SassSpec] = []
        for opcode in opcodes:
            if opcode == ERRBARS:
                specs.extend(self.error_barriers(inst))
            else:
                specs.append(_spec(opcode))
        return specs

    def error_barriers(self, inst: InstructionOp) -> list[SassSpec]:
        if self.options.disable_errbar_after_membar:
            return []
        if self.options.errbar_form == "bar-sync-15":
            sys_scope = "sys" in opcode_parts(inst)
            return [_spec("BAR.SYNC.DEFER_BLOCKING", 15)] if sys_scope else []
        return [_spec(opcode) for opcode in errbar_opcodes(self.arch)]

    def insert_specs(
        self, inst: InstructionOp, specs: Sequence[SassSpec], *, before: bool
    ) -> None:
        ops = [new_sass(opcode, inst, layout) for opcode, layout in specs]
        if before:
            insert_before(inst, ops)
        else:
            insert_after(inst, ops)

    def warpsync_with_mask(self, inst: InstructionOp, mask: ImmAttr | bool) -> SassOp:
        if isinstance(mask, ImmAttr):
            return new_sass("WARPSYNC", inst, [mask])
        register: SSAValue = inst.registers[-1]
        return new_sass("WARPSYNC", inst, [USE_SLOT], [register])

    def expand_warp_sync(self, inst: InstructionOp, diverged: bool) -> None:
        if not diverged:
            set_sass_opcode(inst, "")
        else:
            set_sass_opcode(inst, "WARPSYNC.ALL" if has_full_mask(inst) else "WARPSYNC")

    def expand_call(self, call: CallOp) -> None:
        intrinsic = ocg_intrinsic(call)
        if intrinsic is None:
            return
        lowered = _intrinsic_sass(intrinsic)
        if lowered is None:
            return
        own, after = lowered
        set_sass_opcode(call, own)
        self.insert_specs(call, [_spec(o) for o in after], before=False)


def collective_ops(
    func: FuncOp, uniformity: WarpUniformity, callees: _CalleeDivergence
) -> set[InstructionOp]:
    """The warp-level ops ptxas gives the `BRA.DIV` + `WARPSYNC.COLLECTIVE` path above
    -O0: one where the warp may be diverged (a BSYNC does not count as convergence here)
    when another op of the same opcode exists that no CTA barrier separates from it and
    that is not a converged op dominating it (docs/fidelity.md, issue 17)."""
    convergence = Convergence(func, uniformity, callees)
    cfg = convergence.cfg
    by_opcode: dict[str, list[InstructionOp]] = {}
    for inst in instructions(func):
        if member_mask(inst) is not None and opcode_parts(inst)[:2] != ["bar", "warp"]:
            by_opcode.setdefault(inst.opcode.data, []).append(inst)
    barriers = [i for i in instructions(func) if _is_cta_barrier_sync(i)]

    def dominates(a: InstructionOp, b: InstructionOp) -> bool:
        block_a, block_b = a.parent_block(), b.parent_block()
        assert block_a is not None
        assert block_b is not None
        if block_a is block_b:
            return _index(a) < _index(b)
        return cfg.dominates(block_a, block_b)

    def post_dominates(a: InstructionOp, b: InstructionOp) -> bool:
        block_a, block_b = a.parent_block(), b.parent_block()
        assert block_a is not None
        assert block_b is not None
        if block_a is block_b:
            return _index(a) > _index(b)
        return cfg.post_dominates(block_a, block_b)

    def separated(a: InstructionOp, b: InstructionOp) -> bool:
        return any(
            (post_dominates(bar, a) and dominates(bar, b))
            or (post_dominates(bar, b) and dominates(bar, a))
            for bar in barriers
        )

    collective: set[InstructionOp] = set()
    for group in by_opcode.values():
        for inst in group:
            if not convergence.diverged_before(inst):
                continue
            if any(
                other is not inst
                and not separated(inst, other)
                and (convergence.diverged_before(other) or not dominates(other, inst))
                for other in group
            ):
                collective.add(inst)
    return collective


def _collective_runs(
    func: FuncOp, collective: set[InstructionOp]
) -> list[list[InstructionOp]]:
    """The ops of `collective` grouped as ptxas branches on divergence once for them: a
    run of warp-level ops in one block with no other synchronization between them."""
    runs: list[list[InstructionOp]] = []
    for block in code_blocks(func):
        run: list[InstructionOp] = []
        for inst in block_instructions(block):
            if inst in collective or (run and member_mask(inst) is not None):
                if opcode_parts(inst)[:2] == ["bar", "warp"]:
                    run = []
                    continue
                collective.add(inst)
                run.append(inst)
                if len(run) == 1:
                    runs.append(run)
            elif (
                _needs_expansion(inst)
                or may_have_lowering(inst.opcode.data)
                or isinstance(inst, TerminatorInstructionOp)
            ):
                run = []
    return runs


def _is_cta_barrier_sync(inst: InstructionOp) -> bool:
    """A CTA barrier every thread waits at (`bar.sync`, `barrier.sync`,
    `barrier.cta.sync`)."""
    parts = opcode_parts(inst)
    scope = parts[1:2] == ["cta"]
    return isinstance(inst, BarrierOp) and parts[1 + scope : 2 + scope] == ["sync"]


def _index(op: Operation) -> int:
    block = op.parent_block()
    assert block is not None
    return block.get_operation_index(op)


def _layout_previous(inst: InstructionOp) -> Operation:
    """The instruction before `inst` in layout order, across block starts (ptxas gives
    the BRA.DIV its line); `inst` itself when none."""
    op: Operation | None = start_of(inst).prev_op
    block = inst.parent_block()
    while block is not None:
        while op is not None and not isinstance(op, InstructionOp):
            op = op.prev_op
        if op is not None:
            return op
        block = block.prev_block
        op = None if block is None else block.last_op
    return inst


_GPU_OR_SYS_MEMBAR = re.compile(r"MEMBAR\.(SC|ALL)\.(GPU|SYS)")


def _with_conservative_membars(
    before: list[SassSpec], own: str | None, after: list[SassSpec]
) -> tuple[list[SassSpec], list[SassSpec]]:
    """`before` and `after` with `MEMBAR.ALL.CTA` before every gpu / sys memory barrier of
    the expansion (the instruction's own opcode included) that lacks one."""
    sequence: list[SassSpec | None] = [*before, None, *after]
    result: list[SassSpec | None] = []
    for spec in sequence:
        opcode = own if spec is None else spec[0]
        previous = result[-1] if result else None
        if (
            opcode is not None
            and _GPU_OR_SYS_MEMBAR.fullmatch(opcode)
            and (previous is None or previous[0] != CONSERVATIVE_MEMBAR_PREFIX)
        ):
            result.append(_spec(CONSERVATIVE_MEMBAR_PREFIX))
        result.append(spec)
    split = result.index(None)
    return (
        [s for s in result[:split] if s is not None],
        [s for s in result[split + 1 :] if s is not None],
    )


def _is_init(inst: InstructionOp) -> bool:
    return isinstance(inst, MbarrierOp) and opcode_parts(inst)[1] == "init"


def _spin_loop(block: Block) -> tuple[InstructionOp, BraOp] | None:
    """The wait and branch of `W: mbarrier.{try,test}_wait %p, ...; @!%p bra W` (the
    SASS added to it, a `YIELD`, left aside)."""
    body = [i for i in block_instructions(block) if not isinstance(i, SassOp)]
    if len(body) != 2:
        return None
    wait, branch = body
    if (
        not isinstance(wait, MbarrierOp)
        or not {"try_wait", "test_wait"} & set(opcode_parts(wait))
        or not isinstance(branch, BraOp)
        or branch.guard is None
        or branch.guard_negated is None
        or branch.target is not block
        or wait.defs() != [branch.guard]
    ):
        return None
    return wait, branch


def _instruction_before(block: Block, inst: InstructionOp) -> InstructionOp:
    """The instruction that runs into `block` in layout order (ptxas gives a spin loop's
    YIELD its line), else `inst` itself."""
    previous = block.prev_block
    body = [] if previous is None else list(block_instructions(previous))
    return body[-1] if body else inst


def _only_returns(block: Block) -> bool:
    """A block that only returns: ptxas branches to it as a predicated EXIT."""
    body = list(block_instructions(block))
    return (
        len(body) == 1 and isinstance(body[0], RetOp | ExitOp) and body[0].guard is None
    )


def _loop_entry(latch: Block, body: set[Block]) -> Operation | None:
    """Where a divergent loop whose branch is in `latch` is entered: the terminator of
    the one block outside the loop that runs into its header (None if there are several)."""
    outside = {p for b in body for p in b.predecessors() if p not in body}
    if len(outside) != 1:
        return None
    (preheader,) = outside
    return preheader.last_op


def _is_retry(block: Block) -> bool:
    """The out-of-line retry of a rotated spin loop."""
    branch = block.last_op
    return (
        isinstance(branch, BraOp) and branch.target is block and is_spin_retry(branch)
    )


def _starts_with_full_warp_sync(block: Block) -> bool:
    """Whether the block's first instruction is a full-mask `bar.warp.sync`."""
    first = next(iter(block_instructions(block)), None)
    return (
        first is not None
        and opcode_parts(first)[:2] == ["bar", "warp"]
        and has_full_mask(first)
    )


def _region(cfg: ControlFlowGraph, branch_block: Block, join: Block) -> set[Block]:
    """The blocks a divergent branch reaches before its immediate post-dominator."""
    region: set[Block] = set()
    stack = [s for s in cfg.successors_of(branch_block) if s is not join]
    while stack:
        block = stack.pop()
        if block in region:
            continue
        region.add(block)
        if block is not branch_block:  # a loop's branch closes its body
            stack.extend(s for s in cfg.successors_of(block) if s is not join)
    return region


_REDUCTIONS = frozenset({"add", "min", "max", "inc", "dec", "and", "or", "xor"})


def _intrinsic_sass(name: str) -> tuple[str, tuple[str, ...]] | None:
    """The SASS of an OCG intrinsic call that ptxas accepts: (own opcode, what follows)."""
    tokens = name.split("_")
    if name.startswith("red_async_") and "shared" in tokens:
        operation = next((t for t in tokens[2:] if t in _REDUCTIONS), None)
        return None if operation is None else (f"REDAS.{operation.upper()}", ())
    if name.startswith("write_async_") and "shared" in tokens:
        return "STAS", ()
    if name.startswith("cp_async_bulk_global_shared"):
        rest = tokens[len(["cp", "async", "bulk", "global", "shared"]) :]
        if not rest:
            return "UBLKCP.G.S", ("BRA.U.ANY",)
        if rest[0] == "sequenced" and len(rest) == 2:
            return f"UBLKCP.G.S.SEQUENCED.STRONG.{rest[1].upper()}", ("BRA.U.ANY",)
    return None
