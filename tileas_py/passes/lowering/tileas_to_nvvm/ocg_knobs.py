"""OCG knobs in `convert-tileas-to-nvvm` (seed 002, "InsertOCGKnobs (D17)").

A `.pragma "next knob FenceCode";` belongs to the one instruction after it, but a tile op
lowers to several: `producer_commit` loads its cursor and computes the barrier address
before its `mbarrier.arrive.expect_tx`. So, as tileiras's `emitFenceCodePragmaBefore`
does from inside its conversion patterns, the patterns of the fence, arrive and barrier
ops (`mbarrier.py`, `pipeline.py`) take the tile op's pragmas (`take_pragmas`: the
FenceCode knob `tileas-insert-OCG-knobs` put right before it, its enter directives) and
put them right before the fence, arrive or barrier instruction they emit
(`emit_pragmas_before`).

The ocgEnterDirectives / ocgLeaveDirectives path reaches the same PTX through attributes:
any op may carry `nv_tileas.ocgEnterDirectives` / `nv_tileas.ocgLeaveDirectives`, arrays
of pragma strings. Before the patterns run, `materialize_directives` turns them into
pragmas right before and right after the op, so the enter directives of a fence, arrive
or barrier op reach its instruction as its knob does, those of any other op precede its
whole lowering, and the leave directives follow it.
PTX ISA ".pragma": https://docs.nvidia.com/cuda/parallel-thread-execution/#miscellaneous-directives-pragma
"""

from __future__ import annotations

from collections.abc import Sequence

from xdsl.dialects import llvm
from xdsl.dialects.builtin import ArrayAttr, StringAttr
from xdsl.ir import Block, Operation
from xdsl.pattern_rewriter import PatternRewriter
from xdsl.rewriter import InsertPoint, Rewriter
from xdsl.traits import IsTerminator

from tileas_py.diagnostics import emit_error
from tileas_py.dialects.nv_tileas import AsyncFenceOrArrive, BarrierOp
from tileas_py.hw.ocg_knobs import FENCE_CODE, directive_problem, pragma_asm

ENTER_DIRECTIVES = "nv_tileas.ocgEnterDirectives"
"""Pragmas (strings) written right before the op's instruction."""
LEAVE_DIRECTIVES = "nv_tileas.ocgLeaveDirectives"
"""Pragmas (strings) written right after the op's lowering."""

FENCE_CODE_KNOB = pragma_asm(FENCE_CODE)


def pragma(text: str) -> llvm.InlineAsmOp:
    """A side-effecting `llvm.inline_asm` holding one `.pragma` directive."""
    return llvm.InlineAsmOp(text, "", [], has_side_effects=True)


def is_anchor(op: Operation) -> bool:
    """A fence, arrive or barrier tile op, whose pattern places its pragmas."""
    return op.has_trait(AsyncFenceOrArrive) or op.has_trait(BarrierOp)


def fence_code_knob(op: Operation) -> llvm.InlineAsmOp | None:
    """The FenceCode knob `tileas-insert-OCG-knobs` put right before `op`, if any."""
    knob = op.prev_op
    if isinstance(knob, llvm.InlineAsmOp) and knob.asm_string.data == FENCE_CODE_KNOB:
        return knob
    return None


def take_pragmas(rewriter: PatternRewriter, op: Operation) -> tuple[str, ...]:
    """The pragmas of a fence, arrive or barrier op, in order: its FenceCode knob (erased
    from before it) and its enter directives (removed from it)."""
    texts: list[str] = []
    knob = fence_code_knob(op)
    if knob is not None:
        texts.append(FENCE_CODE_KNOB)
        rewriter.erase(knob)
    texts.extend(pragma_asm(d) for d in _directives(op, ENTER_DIRECTIVES))
    return tuple(texts)


def emit_pragmas_before(rewriter: PatternRewriter, texts: Sequence[str]) -> None:
    """Seed 002's `emitFenceCodePragmaBefore`: the pragmas at the rewriter's insertion
    point, which the pattern puts right before the instruction they belong to."""
    for text in texts:
        rewriter.insert(pragma(text))


def emit_pragmas_in(block: Block, anchor: Operation, texts: Sequence[str]) -> None:
    """The pragmas right before `anchor`, inside a block the pattern builds itself."""
    for text in texts:
        block.insert_op_before(pragma(text), anchor)


def _check(op: Operation, directives: tuple[str, ...]) -> None:
    for directive in directives:
        problem = directive_problem(directive)
        if problem is not None:
            emit_error(op, f"OCG directive '{directive}' {problem}")


def _directives(op: Operation, name: str, *, keep: bool = False) -> tuple[str, ...]:
    """The directives of attribute `name` (removed from `op` unless `keep`)."""
    attr = op.attributes.get(name) if keep else op.attributes.pop(name, None)
    if attr is None:
        return ()
    if not isinstance(attr, ArrayAttr) or not all(
        isinstance(d, StringAttr)
        for d in attr.data  # pyright: ignore[reportUnknownVariableType, reportUnknownMemberType]
    ):
        emit_error(op, f"'{name}' must be an array of strings")
    directives = tuple(
        d.data
        for d in attr.data  # pyright: ignore[reportUnknownVariableType, reportUnknownMemberType]
        if isinstance(d, StringAttr)
    )
    _check(op, directives)
    return directives


def materialize_directives(function: Operation) -> None:
    """Each op's leave directives as pragmas right after it, and the enter directives of
    the ops other than fences, arrives and barriers as pragmas right before it (the
    patterns of those take theirs with `take_pragmas`)."""
    for op in list(function.walk()):
        enter: tuple[str, ...] = ()
        if is_anchor(op):
            _directives(op, ENTER_DIRECTIVES, keep=True)
        else:
            enter = _directives(op, ENTER_DIRECTIVES)
        leave = _directives(op, LEAVE_DIRECTIVES)
        if (enter or leave) and op is function:
            emit_error(op, "OCG directives belong on the ops of a kernel, not on it")
        if leave and op.has_trait(IsTerminator):
            emit_error(
                op, f"OCG leave directives cannot follow the terminator '{op.name}'"
            )
        for directive in enter:
            Rewriter.insert_op(pragma(pragma_asm(directive)), InsertPoint.before(op))
        for directive in reversed(leave):
            Rewriter.insert_op(pragma(pragma_asm(directive)), InsertPoint.after(op))
