"""`ori-expand-mbarrier`: ptxas's ExpandMbarrier (phase 42, seed 003).

Seed 003: the phase expands MBARRIER pseudo-instructions into native sequences on sm_90+,
and inserts the proxy fences the mbarrier objects need; before sm_90 it does nothing. In
ori (the SASS opcodes themselves come from `ori-late-expand-sync`):

- `_mbarrier.try_wait.parity` (`ori.mbarrier.wait`, MBARRIER_TRY_WAIT_PARITY) becomes the
  native retry loop `W: mbarrier.try_wait.parity %p, [addr], parity; @!%p bra W` in blocks
  of its own, with a fresh predicate; a guarded one is skipped by a branch when its guard
  is false.
- an `mbarrier.init` gets a `FENCE.VIEW.ASYNC.S` before it (ptxas 13.5's rule: the
  generic-proxy initialisation must be visible to the async proxy) unless it is in the
  function's entry block with no shared-memory store before it; at -O0 always.
- an `mbarrier.init` whose count differs between threads is issued in a uniform loop over
  the distinct counts (`BRA.U.ANY`, then the fenced init in a second one).
- from -O1 on, an `if` whose body is only `mbarrier.init`s (and instructions without SASS
  such as `fence.mbarrier_init`) is if-converted (its branch gets `ori.sass_opcode = ""`):
  the init works on uniform registers, so ptxas makes a divergent condition uniform with
  `VOTEU.ALL` and the init then is in the entry block (no fence).

Not modelled: Blackwell's tcgen05 mbarrier forms and the reserved
`__nv_reservedSMEM_tmem_allocation_pipeline_mbarrier` objects.

Example (sm_90a):

    ori.inst "st.shared.u32" ([@buf], %r1)
    ori.mbarrier "mbarrier.init.shared::cta.b64" ([@bar], 32)

becomes

    ori.inst "st.shared.u32" ([@buf], %r1)
    ori.sass "FENCE.VIEW.ASYNC.S"
    ori.mbarrier "mbarrier.init.shared::cta.b64" ([@bar], 32)
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.ir import Block, SSAValue
from xdsl.passes import ModulePass

from tileas_py.analysis.divergence import WarpUniformity
from tileas_py.dialects.ori.attributes import DEF_SLOT, PtxType
from tileas_py.dialects.ori.function import FallthroughOp, FuncOp
from tileas_py.dialects.ori.instructions import (
    BraOp,
    InstructionOp,
    MbarrierOp,
    MbarrierWaitOp,
)
from tileas_py.dialects.ori.module_ops import pragmas_of
from tileas_py.dialects.ori.sass import is_if_converted, set_sass_opcode
from tileas_py.passes.ori.support.common import (
    block_instructions,
    defined_functions,
    insert_after,
    insert_before,
    new_sass,
    opcode_parts,
    target_sm,
)

HOPPER = 90
WAIT_PREDICATE = "%p_mbarrier_wait"


@dataclass(frozen=True)
class ExpandMbarrierPass(ModulePass):
    """Expands mbarrier pseudo-instructions and adds their proxy fences (phase 42).

    See the module docstring; a before / after example of the pseudo-instruction:

        ori.mbarrier.wait "_mbarrier.try_wait.parity.shared::cta.b64" ([@bar], 0)

    becomes

        ori.fallthrough ^wait
      ^wait:
        ori.mbarrier "mbarrier.try_wait.parity.shared::cta.b64" (def %p_mbarrier_wait0, [@bar], 0)
        ori.bra if not %p_mbarrier_wait0 "bra" ^wait, ^next
    """

    name = "ori-expand-mbarrier"

    opt_level: int = 3
    """ptxas's -O level: at 0 every `mbarrier.init` gets its proxy fence and no branch is
    predicated."""

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        if target_sm(op) < HOPPER:
            return
        for func in defined_functions(op):
            for wait in [
                i
                for b in func.body.blocks
                for i in b.ops
                if isinstance(i, MbarrierWaitOp)
            ]:
                _expand_wait(func, wait)
            uniformity = WarpUniformity(func)
            if self.opt_level > 0:
                _if_convert_init_only_branches(func, uniformity)
            self._fence_inits(func, uniformity)

    def _fence_inits(self, func: FuncOp, uniformity: WarpUniformity) -> None:
        entry = _entry_chain(func)
        stored_shared = False
        for block in list(func.body.blocks)[1:]:
            if block not in entry:
                stored_shared = True
            for inst in list(block_instructions(block)):
                if _is_init(inst):
                    per_thread = any(
                        uniformity.is_varying(reg) for reg in inst.registers
                    )
                    if per_thread:
                        insert_before(inst, [new_sass("BRA.U.ANY", inst)])
                        insert_after(inst, [new_sass("BRA.U.ANY", inst)])
                    if stored_shared or per_thread or self.opt_level == 0:
                        insert_before(inst, [new_sass("FENCE.VIEW.ASYNC.S", inst)])
                stored_shared = stored_shared or _may_store_shared(inst)


def _entry_chain(func: FuncOp) -> set[Block]:
    """The function's entry block as ptxas sees it: the first code block and the blocks it
    runs into unconditionally that nothing else branches to (PTX labels that no branch
    names do not end a block there)."""
    blocks = list(func.body.blocks)[1:]
    chain: set[Block] = set()
    block = blocks[0] if blocks else None
    while block is not None and block not in chain:
        chain.add(block)
        terminator = block.last_op
        following = None
        if isinstance(terminator, FallthroughOp):
            following = terminator.dest
        elif isinstance(terminator, BraOp) and terminator.guard is None:
            following = terminator.target
        elif isinstance(terminator, BraOp) and is_if_converted(terminator):
            # Predicated, the skipped block is part of this one.
            body = _skipped_body(terminator)
            if body is not None:
                chain.add(body)
                following = terminator.target
        if following is None or any(p not in chain for p in following.predecessors()):
            break
        block = following
    return chain


def _is_init(inst: InstructionOp) -> bool:
    return isinstance(inst, MbarrierOp) and opcode_parts(inst)[1] == "init"


def _may_store_shared(inst: InstructionOp) -> bool:
    """A store that may write shared memory: `st.shared`, a generic `st`, shared atomics
    and reductions, and the asynchronous copies into shared memory."""
    parts = opcode_parts(inst)
    if parts[:2] == ["cp", "async"]:
        if parts[2] in ("ca", "cg"):
            return True
        destination = next(
            (p for p in parts[3:] if p != "tensor" and not p[:1].isdigit()), ""
        )
        return parts[2] == "bulk" and destination.startswith("shared")
    if parts[0] not in ("st", "atom", "red"):
        return False
    spaces = {"global", "local", "param", "const"}
    return not spaces & set(parts) or "shared" in parts


def _fresh_predicate(func: FuncOp) -> SSAValue:
    taken = {reg.ptx_name for reg in func.registers()}
    index = 0
    while f"{WAIT_PREDICATE}{index}" in taken:
        index += 1
    return func.add_register(PtxType.PRED, WAIT_PREDICATE, index).result


def _expand_wait(func: FuncOp, wait: MbarrierWaitOp) -> None:
    """`_mbarrier.try_wait` -> `W: mbarrier.try_wait %p, ...; @!%p bra W`."""
    block = wait.parent_block()
    assert block is not None
    pragmas = pragmas_of(wait)
    rest = block.split_before(wait)
    predicate = _fresh_predicate(func)
    loop = Block()
    parent = block.parent
    assert parent is not None
    parent.insert_block_after(loop, block)
    native = MbarrierOp(
        wait.native_opcode,
        [DEF_SLOT, *wait.layout.data],
        [predicate, *wait.registers],
    )
    native.location = wait.location
    branch = BraOp("bra", guard=predicate, guard_negated=True, successors=[loop, rest])
    branch.location = wait.location
    wait.detach()
    for pragma in pragmas:
        pragma.detach()
    loop.add_ops([*pragmas, native, branch])
    if wait.guard is None:
        block.add_op(FallthroughOp(loop))
    else:
        skip = BraOp(
            "bra",
            guard=wait.guard,
            guard_negated=wait.guard_negated is None,
            successors=[rest, loop],
        )
        skip.location = wait.location
        block.add_op(skip)
    wait.erase()


def _lowers_to_nothing(inst: InstructionOp) -> bool:
    return opcode_parts(inst)[:2] == ["fence", "mbarrier_init"]


def _if_convert_init_only_branches(func: FuncOp, uniformity: WarpUniformity) -> None:
    """Mark each branch around only `mbarrier.init`s as if-converted (ptxas predicates the
    inits; a divergent condition is made uniform by a `VOTEU.ALL` pair first)."""
    for block in list(func.body.blocks)[1:]:
        branch = block.last_op
        if not isinstance(branch, BraOp) or branch.guard is None:
            continue
        body = _skipped_body(branch)
        if body is None:
            continue
        insts = list(block_instructions(body))
        if (
            not any(_is_init(i) for i in insts)
            or not all(_is_init(i) or _lowers_to_nothing(i) for i in insts)
            or any(i.guard is not None for i in insts)
        ):
            continue
        # The condition itself (an if-converted branch no longer counts as divergent).
        if uniformity.is_varying(branch.guard) and ".uni" not in branch.opcode.data:
            init = next(i for i in insts if _is_init(i))
            for op in (new_sass("VOTEU.ALL", init), new_sass("VOTEU.ALL", init)):
                block.insert_op_before(op, branch)
        set_sass_opcode(branch, "")


def _skipped_body(branch: BraOp) -> Block | None:
    """The block a conditional branch jumps over (`@p bra join; body; join:`), if it is
    reached only from the branch and runs into the join."""
    join, body = branch.successors
    terminator = body.last_op
    if (
        body is join
        or len(list(body.uses)) != 1
        or not isinstance(terminator, FallthroughOp)
        or terminator.dest is not join
    ):
        return None
    return body
