"""Per-thread values kept in local memory become registers, in `convert-tileas-to-nvvm`.

The patterns keep per-thread state that several ops read and update (a pipeline's stage
and phase, `pipeline.py`) in an `llvm.alloca`, so that each op can be lowered on its own
wherever it sits in the control flow. ptxas does not promote such memory: it stays a local
stack frame, read and written with `ld.local` / `st.local` on every K step. Once every op
is lowered, `promote_locals` turns each element of such an alloca into SSA values, as
MLIR's `mem2reg` does for a CFG (https://mlir.llvm.org/docs/Passes/#-mem2reg), but on the
structured control flow the pass produces: a load becomes the value last stored, and an
`scf.for`, `scf.if` or `scf.while` that stores an element carries it (an iteration
argument, a result, a `before` / `after` argument).

An alloca is promoted when every use is a load or a store of one element (directly, or
through an `llvm.getelementptr` with one constant index) in the function's structured
control flow; any other use (a pointer passed on, an access inside another region op)
leaves it in memory.

Before:

    %n = llvm.alloca %c1 x i32 : (i32) -> !llvm.ptr
    llvm.store %c0, %n : i32, !llvm.ptr
    scf.for %k = %lb to %ub step %s {
      %v = llvm.load %n : !llvm.ptr -> i32
      %w = arith.addi %v, %c1 : i32
      llvm.store %w, %n : i32, !llvm.ptr
    }

After:

    %r = scf.for %k = %lb to %ub step %s iter_args(%v = %c0) -> (i32) {
      %w = arith.addi %v, %c1 : i32
      scf.yield %w : i32
    }
"""

from __future__ import annotations

from xdsl.dialects import llvm, scf
from xdsl.ir import Attribute, Block, Operation, Region, SSAValue

Key = tuple[llvm.AllocaOp, int]
"""One element of an alloca."""

_STRUCTURED = (scf.ForOp, scf.IfOp, scf.WhileOp)


def _element(pointer: SSAValue) -> Key | None:
    """The alloca element a pointer addresses (None if it is not one)."""
    owner = pointer.owner
    if isinstance(owner, llvm.AllocaOp):
        return owner, 0
    if (
        isinstance(owner, llvm.GEPOp)
        and not owner.ssa_indices
        and isinstance(owner.ptr.owner, llvm.AllocaOp)
    ):
        indices = tuple(owner.rawConstantIndices.iter_values())
        if len(indices) == 1:
            return owner.ptr.owner, indices[0]
    return None


def _accesses(alloca: llvm.AllocaOp) -> list[Operation] | None:
    """The loads and stores of `alloca`'s elements, or None if it cannot be promoted."""
    found: list[Operation] = []
    pointers = [alloca.res]
    for use in alloca.res.uses:
        user = use.operation
        if isinstance(user, llvm.GEPOp) and _element(user.result) is not None:
            pointers.append(user.result)
    for pointer in pointers:
        for use in pointer.uses:
            user = use.operation
            if pointer is alloca.res and isinstance(user, llvm.GEPOp):
                if _element(user.result) is None:
                    return None
                continue
            stored_to = isinstance(user, llvm.StoreOp) and use.index == 1
            if not (isinstance(user, llvm.LoadOp) or stored_to):
                return None
            found.append(user)
    return found


def _structured(op: Operation, function: Operation) -> bool:
    """Whether every op between `op` and `function` is structured control flow whose
    regions are single blocks."""
    parent = op.parent_op()
    while parent is not None and parent is not function:
        if not isinstance(parent, _STRUCTURED):
            return False
        if any(len(region.blocks) > 1 for region in parent.regions):
            return False
        parent = parent.parent_op()
    return parent is function


class _Promotion:
    def __init__(self, keys: dict[Operation, Key]) -> None:
        self.keys = keys
        """Each promoted load and store, and the element it accesses."""
        self.types: dict[Key, Attribute] = {}
        for access, key in keys.items():
            if isinstance(access, llvm.StoreOp):
                self.types[key] = access.value.type
            else:
                assert isinstance(access, llvm.LoadOp)
                self.types[key] = access.dereferenced_value.type
        self.stored: dict[Operation, list[Key]] = {}
        """The elements each structured op stores to, in a fixed order."""
        for access, key in keys.items():
            if not isinstance(access, llvm.StoreOp):
                continue
            parent = access.parent_op()
            while parent is not None and isinstance(parent, _STRUCTURED):
                written = self.stored.setdefault(parent, [])
                if key not in written:
                    written.append(key)
                parent = parent.parent_op()
        self.touched: set[Operation] = set()
        for access in keys:
            parent = access.parent_op()
            while parent is not None and isinstance(parent, _STRUCTURED):
                self.touched.add(parent)
                parent = parent.parent_op()

    def value(self, env: dict[Key, SSAValue], key: Key, before: Operation) -> SSAValue:
        """The current value of `key`; undefined if nothing was stored yet."""
        if key not in env:
            undef = llvm.UndefOp(self.types[key])
            before_block = before.parent_block()
            assert before_block is not None
            before_block.insert_op_before(undef, before)
            env[key] = undef.res
        return env[key]

    def block(self, block: Block, env: dict[Key, SSAValue]) -> None:
        for op in list(block.ops):
            key = self.keys.get(op)
            if isinstance(op, llvm.LoadOp) and key is not None:
                op.dereferenced_value.replace_all_uses_with(self.value(env, key, op))
                op.detach()
                op.erase()
            elif isinstance(op, llvm.StoreOp) and key is not None:
                env[key] = op.value
                op.detach()
                op.erase()
            elif op in self.touched:
                if isinstance(op, scf.IfOp):
                    self.if_op(op, env)
                elif isinstance(op, scf.ForOp):
                    self.for_op(op, env)
                else:
                    assert isinstance(op, scf.WhileOp)
                    self.while_op(op, env)

    def _carry(
        self,
        block: Block,
        written: list[Key],
        env: dict[Key, SSAValue],
    ) -> dict[Key, SSAValue]:
        """`env` inside `block`, whose new trailing arguments carry `written`."""
        inner = dict(env)
        for key in written:
            inner[key] = block.insert_arg(self.types[key], len(block.args))
        return inner

    def _yield(
        self, block: Block, written: list[Key], env: dict[Key, SSAValue]
    ) -> None:
        """Append the final values of `written` to `block`'s terminator."""
        terminator = block.last_op
        assert terminator is not None
        extra = [self.value(env, key, terminator) for key in written]
        if isinstance(terminator, scf.ConditionOp):
            new: Operation = scf.ConditionOp(
                terminator.condition, *terminator.args, *extra
            )
        else:
            assert isinstance(terminator, scf.YieldOp)
            new = scf.YieldOp(*terminator.arguments, *extra)
        block.insert_op_before(new, terminator)
        terminator.detach()
        terminator.erase()

    def _replace(
        self,
        old: Operation,
        new: Operation,
        written: list[Key],
        env: dict[Key, SSAValue],
    ) -> None:
        new.attributes.update(old.attributes)
        new.location = old.location
        block = old.parent_block()
        assert block is not None
        block.insert_op_before(new, old)
        count = len(old.results)
        for result, replacement in zip(old.results, new.results[:count], strict=True):
            result.replace_all_uses_with(replacement)
        for key, result in zip(written, new.results[count:], strict=True):
            env[key] = result
        old.detach()
        old.erase()

    def if_op(self, op: scf.IfOp, env: dict[Key, SSAValue]) -> None:
        written = self.stored.get(op, [])
        regions: list[Region] = []
        for region in (op.true_region, op.false_region):
            moved = Region()
            region.move_blocks(moved)
            if not moved.blocks:
                moved.add_block(Block([scf.YieldOp()]))
            block = moved.block
            inner = dict(env)
            self.block(block, inner)
            self._yield(block, written, inner)
            regions.append(moved)
        types = [*op.result_types, *(self.types[key] for key in written)]
        new = scf.IfOp(op.cond, types, regions[0], regions[1])
        self._replace(op, new, written, env)

    def for_op(self, op: scf.ForOp, env: dict[Key, SSAValue]) -> None:
        written = self.stored.get(op, [])
        inits = [self.value(env, key, op) for key in written]
        body = Region()
        op.body.move_blocks(body)
        block = body.block
        inner = self._carry(block, written, env)
        self.block(block, inner)
        self._yield(block, written, inner)
        new = scf.ForOp(op.lb, op.ub, op.step, [*op.iter_args, *inits], body)
        self._replace(op, new, written, env)

    def while_op(self, op: scf.WhileOp, env: dict[Key, SSAValue]) -> None:
        written = self.stored.get(op, [])
        inits = [self.value(env, key, op) for key in written]
        regions: list[Region] = []
        for region in (op.before_region, op.after_region):
            moved = Region()
            region.move_blocks(moved)
            block = moved.block
            inner = self._carry(block, written, env)
            self.block(block, inner)
            self._yield(block, written, inner)
            regions.append(moved)
        types = [*op.result_types, *(self.types[key] for key in written)]
        new = scf.WhileOp([*op.arguments, *inits], types, regions[0], regions[1])
        self._replace(op, new, written, env)


def promote_locals(function: llvm.FuncOp) -> None:
    """Promote every alloca of `function` whose elements are only loaded and stored in
    structured control flow (see the module docstring)."""
    if not function.body.blocks:
        return
    entry = function.body.blocks.first
    assert entry is not None
    keys: dict[Operation, Key] = {}
    promoted: list[llvm.AllocaOp] = []
    for alloca in [op for op in entry.ops if isinstance(op, llvm.AllocaOp)]:
        accesses = _accesses(alloca)
        if accesses is None or not all(_structured(a, function) for a in accesses):
            continue
        for access in accesses:
            assert isinstance(access, llvm.LoadOp | llvm.StoreOp)
            key = _element(access.ptr)
            assert key is not None
            keys[access] = key
        promoted.append(alloca)
    if not promoted:
        return
    in_order = {op: keys[op] for op in function.walk() if op in keys}
    _Promotion(in_order).block(entry, {})
    for alloca in promoted:
        for user in {use.operation for use in alloca.res.uses}:  # GEPs, now unused
            user.detach()
            user.erase()
        alloca.detach()
        alloca.erase()
