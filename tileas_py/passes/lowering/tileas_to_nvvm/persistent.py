"""The program-id queries of dynamic persistent kernels (`tileas-dynamic-persistent`) in
`convert-tileas-to-nvvm`.

The tile grid is the launch grid (`%nctaid`): a program id is valid inside it, and the
next program id of a CTA is the one a launch-grid stride further along x. sm_90 has no
hardware tile scheduler to ask for the id of a CTA that has not started (sm_100's
`clusterlaunchcontrol.try_cancel`), and the kernel does not know a tile count larger
than its grid, so with a launch of the whole tile grid each CTA runs one iteration of
its persistent loop; the loop, its loop-carried program id and the pipelines that
outlive iterations are real.

Before:

    %v = nv_tileaa.is_valid_program_id %x, %y, %z
    %nx, %ny, %nz = nv_tileas.cancel_next_program_id

After:

    %gx = nvvm.read.ptx.sreg.nctaid.x : i32
    %vx = arith.cmpi ult, %x, %gx : i32
    ... (y, z)
    %v = arith.andi %vxy, %vz : i1
    %nx = arith.addi %x, %gx : i32    (x: the loop's current program id)
    %ny = nvvm.read.ptx.sreg.ctaid.y : i32 ...
"""

from __future__ import annotations

from xdsl.dialects import arith, scf
from xdsl.dialects.builtin import i32
from xdsl.ir import Operation, SSAValue
from xdsl.pattern_rewriter import (
    PatternRewriter,
    RewritePattern,
    op_type_rewrite_pattern,
)

from tileas_py.dialects.nv_tileaa import IsValidProgramIdOp
from tileas_py.dialects.nv_tileas.ops import CancelNextProgramIdOp
from tileas_py.dialects.nvvm import sreg

_GRID = (sreg.GridDimXOp, sreg.GridDimYOp, sreg.GridDimZOp)


class LowerIsValidProgramId(RewritePattern):
    """`is_valid_program_id`: every coordinate inside the launch grid."""

    @op_type_rewrite_pattern
    def match_and_rewrite(
        self, op: IsValidProgramIdOp, rewriter: PatternRewriter
    ) -> None:
        valid: SSAValue | None = None
        for value, grid in zip((op.x, op.y, op.z), _GRID, strict=True):
            size = rewriter.insert(grid(i32)).res
            inside = rewriter.insert(arith.CmpiOp(value, size, "ult")).result
            valid = (
                inside
                if valid is None
                else rewriter.insert(arith.AndIOp(valid, inside)).result
            )
        assert valid is not None
        rewriter.replace(op, [], [valid])


def _loop_program_id(op: Operation) -> tuple[SSAValue, ...] | None:
    """The (x, y, z) the enclosing persistent `scf.while` carries into its body."""
    parent = op.parent_op()
    while parent is not None and not isinstance(parent, scf.WhileOp):
        parent = parent.parent_op()
    if parent is None or len(parent.after_region.block.args) != 3:
        return None
    return tuple(parent.after_region.block.args)


class LowerCancelNextProgramId(RewritePattern):
    """`cancel_next_program_id`: the current program id one launch grid further on x."""

    @op_type_rewrite_pattern
    def match_and_rewrite(
        self, op: CancelNextProgramIdOp, rewriter: PatternRewriter
    ) -> None:
        current = _loop_program_id(op)
        if current is None:
            # Outside tileas-dynamic-persistent's loop: left to the pass's report.
            return
        x, y, z = current
        grid = rewriter.insert(sreg.GridDimXOp(i32)).res
        next_x = rewriter.insert(arith.AddiOp(x, grid)).result
        rewriter.replace(op, [], [next_x, y, z])


PATTERNS: tuple[RewritePattern, ...] = (
    LowerIsValidProgramId(),
    LowerCancelNextProgramId(),
)
