"""Branches, switches, returns and calls; and `scf.while` to `cf`.

`cf.br` / `llvm.br` copy their block arguments and fall through (the PTX writer prints a
`bra` where the target is not the next block); `cf.cond_br` / `llvm.cond_br` become
`@%p bra` with an edge block for each side that passes arguments; `cf.switch` becomes a
chain of `setp.eq` and `@%p bra`. A call stores its arguments into `.param` variables,
`call (retval0), f, (param0, param1);` and loads the result back, as nvcc does.
PTX ISA: https://docs.nvidia.com/cuda/parallel-thread-execution/#control-flow-instructions
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from xdsl.dialects import cf, func, llvm, scf
from xdsl.dialects.builtin import SymbolRefAttr
from xdsl.ir import Block, Operation, SSAValue
from xdsl.pattern_rewriter import (
    PatternRewriter,
    RewritePattern,
    op_type_rewrite_pattern,
)
from xdsl.rewriter import BlockInsertPoint, InsertPoint

from tileas_py.diagnostics import emit_warning
from tileas_py.dialects.ori.attributes import ImmAttr, StateSpace
from tileas_py.dialects.ori.function import FallthroughOp
from tileas_py.dialects.ori.instructions import BraOp, ExitOp, RetOp
from tileas_py.dialects.ori.module_ops import VarOp
from tileas_py.passes.lowering.nvvm_to_ori.function import (
    PASS_NAME,
    FunctionLowering,
    fail,
)
from tileas_py.passes.lowering.nvvm_to_ori.memory import (
    load_leaf,
    store_leaf,
    store_value,
)
from tileas_py.passes.lowering.nvvm_to_ori.operands import (
    Address,
    Def,
    Lowered,
    Parens,
)
from tileas_py.passes.lowering.nvvm_to_ori.registry import lowers
from tileas_py.passes.lowering.nvvm_to_ori.signature import RETURN_PARAM
from tileas_py.passes.lowering.nvvm_to_ori.types import PRED

# ---------------------------------------------------------------------------------------
# Branches


def jump(fl: FunctionLowering, target: Block, arguments: Sequence[SSAValue]) -> None:
    fl.parallel_copy(fl.edge_copies(target, arguments))
    fl.terminate(FallthroughOp(fl.ori_block(target)))


def edge(fl: FunctionLowering, target: Block, arguments: Sequence[SSAValue]) -> Block:
    """Where a conditional branch goes to reach `target`: the block itself, or an edge
    block holding the copies of the arguments when there are any."""
    copies = fl.edge_copies(target, arguments)
    if not copies:
        return fl.ori_block(target)
    block = fl.new_block()
    with fl.emitting_into(block):
        fl.parallel_copy(copies)
        fl.terminate(FallthroughOp(fl.ori_block(target)))
    return block


@lowers(cf.BranchOp, llvm.BrOp)
def lower_branch(fl: FunctionLowering, op: Operation) -> None:
    (target,) = op.successors
    jump(fl, target, op.operands)


@lowers(cf.ConditionalBranchOp, llvm.CondBrOp)
def lower_conditional_branch(fl: FunctionLowering, op: Operation) -> None:
    assert isinstance(op, cf.ConditionalBranchOp | llvm.CondBrOp)
    then_block, else_block = op.successors
    condition = op.cond
    taken = fl.constant(condition)
    if taken is not None:
        if taken:
            jump(fl, then_block, op.then_arguments)
        else:
            jump(fl, else_block, op.else_arguments)
        return
    predicate = fl.register(condition)
    then_dest = edge(fl, then_block, op.then_arguments)
    else_dest = edge(fl, else_block, op.else_arguments)
    if then_dest is else_dest:
        fl.terminate(FallthroughOp(then_dest))
        return
    fl.terminate(
        BraOp("bra", guard=predicate.result, successors=[then_dest, else_dest])
    )


@lowers(cf.SwitchOp)
def lower_switch(fl: FunctionLowering, op: cf.SwitchOp) -> None:
    scalar = fl.scalar(op.flag.type)
    values = () if op.case_values is None else op.case_values.get_values()
    segments = op.case_operand_segments.get_values()
    operands = list(op.case_operands)
    flag = fl.register(op.flag)
    start = 0
    for value, target, count in zip(values, op.case_blocks, segments, strict=True):
        arguments = operands[start : start + count]
        start += count
        matches = fl.fresh(PRED)
        fl.emit(f"setp.eq.{scalar.signed}", Def(matches), flag, ImmAttr(int(value)))
        dest = edge(fl, target, arguments)
        following = fl.new_block()
        fl.terminate(BraOp("bra", guard=matches.result, successors=[dest, following]))
        fl.block = following
    jump(fl, op.default_block, op.default_operands)


@lowers(llvm.UnreachableOp)
def lower_unreachable(fl: FunctionLowering, op: llvm.UnreachableOp) -> None:
    fl.emit("trap")
    fl.terminate(ExitOp("exit"))


# ---------------------------------------------------------------------------------------
# Returns and calls


@lowers(llvm.ReturnOp, func.ReturnOp)
def lower_return(fl: FunctionLowering, op: Operation) -> None:
    signature = fl.signature
    if signature.is_kernel:
        if op.operands:
            emit_warning(
                op,
                f"{PASS_NAME}: a kernel (.entry) cannot return values; "
                "the returned value is dropped",
            )
        fl.terminate(RetOp("ret"))
        return
    if signature.returns is not None:
        elements: Lowered = tuple(
            e for value in op.operands for e in fl.elements(value)
        )
        layout = fl.layout(signature.results_type)
        where = Address(SymbolRefAttr(RETURN_PARAM))
        for leaf, element in zip(layout.leaves, elements, strict=True):
            store_leaf(fl, "st.param", where, leaf, element)
    fl.terminate(RetOp("ret"))


def _callee_name(op: Operation) -> str:
    if isinstance(op, func.CallOp):
        return op.callee.root_reference.data
    assert isinstance(op, llvm.CallOp)
    if op.callee is None:
        fail(op, "indirect calls are not supported")
    return op.callee.root_reference.data


@lowers(func.CallOp, llvm.CallOp)
def lower_call(fl: FunctionLowering, op: Operation) -> None:
    name = _callee_name(op)
    # The call verifier has checked that the callee exists.
    signature = fl.module.signatures[name]
    if signature.is_kernel:
        fail(op, f"cannot call the kernel '@{name}'")
    arguments = op.args if isinstance(op, llvm.CallOp) else op.operands
    params: list[SymbolRefAttr] = []
    for argument, value in zip(signature.arguments, arguments, strict=True):
        param = fl.unique_name("param")
        fl.variables.append(
            VarOp(StateSpace.PARAM, replace(argument.param, name=param))
        )
        store_value(fl, "st.param", Address(SymbolRefAttr(param)), value)
        params.append(SymbolRefAttr(param))
    layout_operands: list[Parens | SymbolRefAttr] = []
    retval: SymbolRefAttr | None = None
    if signature.returns is not None:
        name_of_retval = fl.unique_name("retval")
        fl.variables.append(
            VarOp(StateSpace.PARAM, replace(signature.returns, name=name_of_retval))
        )
        retval = SymbolRefAttr(name_of_retval)
        layout_operands.append(Parens((retval,)))
    layout_operands.append(SymbolRefAttr(name))
    if params:
        layout_operands.append(Parens(tuple(params)))
    fl.emit("call", *layout_operands)
    if retval is None:
        return
    leaves = iter(fl.layout(signature.results_type).leaves)
    for result in op.results:
        for dst in fl.fresh_value(result):
            load_leaf(fl, "ld.param", Address(retval), next(leaves), dst)


# ---------------------------------------------------------------------------------------
# scf.while, which xDSL's convert-scf-to-cf leaves alone


class WhileLowering(RewritePattern):
    """`scf.while` to a `cf` loop, as MLIR's SCFToControlFlow does.

    The "before" region becomes the loop header, its `scf.condition` a `cf.cond_br` into
    the "after" region or out of the loop, and the "after" region's `scf.yield` a branch
    back to the header. The loop's results are the arguments of `scf.condition`.
    """

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: scf.WhileOp, rewriter: PatternRewriter) -> None:
        current = op.parent_block()
        if current is None:
            return
        continuation = current.split_before(op)
        before = op.before_region.first_block
        before_last = op.before_region.last_block
        after = op.after_region.first_block
        after_last = op.after_region.last_block
        assert before is not None
        assert before_last is not None
        assert after is not None
        assert after_last is not None
        condition = before_last.last_op
        yielded = after_last.last_op
        assert isinstance(condition, scf.ConditionOp)
        assert yielded is not None
        rewriter.inline_region(op.before_region, BlockInsertPoint.before(continuation))
        rewriter.inline_region(op.after_region, BlockInsertPoint.before(continuation))
        rewriter.insert(cf.BranchOp(before, *op.arguments), InsertPoint.at_end(current))
        results = tuple(condition.args)
        rewriter.replace(
            condition,
            cf.ConditionalBranchOp(
                condition.condition, after, condition.args, continuation, ()
            ),
        )
        rewriter.replace(yielded, cf.BranchOp(before, *yielded.operands))
        rewriter.replace(op, [], results)
