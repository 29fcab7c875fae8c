"""Warp uniformity and warpgroup divergence side by side, on small PTX kernels."""

from xdsl.ir import SSAValue

from tileas_py.analysis.divergence import (
    SPECIAL_REGISTERS,
    Sharing,
    WarpgroupDivergence,
    WarpUniformity,
)
from tileas_py.dialects.ori import BraOp, FuncOp
from tileas_py.dialects.ori.analysis import (
    ControlFlowGraph,
    RegisterNumbering,
    instructions,
)
from tileas_py.ptx.isa import is_special_register
from tileas_py.ptx.reader import read_ptx

HEADER = ".version 8.7\n.target sm_90a\n.address_size 64\n"


def function(body: str) -> FuncOp:
    module = read_ptx(
        f"{HEADER}.visible .entry k(.param .u32 n)\n{{\n{body}\n}}\n", "t.ptx"
    )
    module.verify()
    (func,) = [op for op in module.ops if isinstance(op, FuncOp)]
    return func


def register(func: FuncOp, name: str) -> SSAValue:
    (reg,) = [r.result for r in func.registers() if r.ptx_name == name]
    return reg


def test_the_table_names_only_ptx_special_registers() -> None:
    assert all(is_special_register(name) for name in SPECIAL_REGISTERS)
    for name in ("%tid.y", "%clock64", "%pm7_64", "%envreg31", "%cluster_ctaid.z"):
        assert name in SPECIAL_REGISTERS


def test_the_table_says_the_level() -> None:
    assert SPECIAL_REGISTERS["%tid.x"] == Sharing(per_warp=False, per_warpgroup=False)
    assert SPECIAL_REGISTERS["%laneid"] == Sharing(per_warp=False, per_warpgroup=False)
    assert SPECIAL_REGISTERS["%ctaid.x"] == Sharing(per_warp=True, per_warpgroup=True)
    assert SPECIAL_REGISTERS["%nctaid"] == Sharing(per_warp=True, per_warpgroup=True)


BRANCH_ON = """
.reg .pred %p;
.reg .b32 %r<3>;
{source}
setp.eq.s32 %p, %r1, 0;
@%p bra DONE;
mov.u32 %r2, 1;
DONE:
ret;
"""


def branch_of(func: FuncOp) -> BraOp:
    (branch,) = [i for i in instructions(func) if isinstance(i, BraOp)]
    return branch


def warpgroup_divergence(func: FuncOp) -> tuple[WarpgroupDivergence, RegisterNumbering]:
    numbering = RegisterNumbering(func)
    return WarpgroupDivergence(func, ControlFlowGraph(func), numbering), numbering


def test_thread_index_diverges_at_both_levels() -> None:
    func = function(BRANCH_ON.format(source="mov.u32 %r1, %tid.x;"))
    warp = WarpUniformity(func)
    assert warp.is_varying(register(func, "%r1"))
    assert warp.is_divergent(branch_of(func))
    warpgroup, numbering = warpgroup_divergence(func)
    assert warpgroup.is_divergent(register(func, "%p"), numbering)
    assert warpgroup.branches == 1 << 0


def test_block_index_is_uniform_at_both_levels() -> None:
    func = function(BRANCH_ON.format(source="mov.u32 %r1, %ctaid.x;"))
    warp = WarpUniformity(func)
    assert not warp.is_varying(register(func, "%r1"))
    assert not warp.is_divergent(branch_of(func))
    warpgroup, numbering = warpgroup_divergence(func)
    assert not warpgroup.is_divergent(register(func, "%p"), numbering)
    assert warpgroup.branches == 0


def test_a_vote_agrees_within_a_warp_but_not_across_a_warpgroup() -> None:
    func = function(
        BRANCH_ON.format(
            source=".reg .pred %q;\nsetp.eq.s32 %q, %r0, 0;\n"
            "vote.sync.ballot.b32 %r1, %q, -1;"
        )
    )
    assert not WarpUniformity(func).is_varying(register(func, "%r1"))
    warpgroup, numbering = warpgroup_divergence(func)
    assert warpgroup.is_divergent(register(func, "%r1"), numbering)


def test_own_parameter_loads_are_uniform_other_loads_vary() -> None:
    func = function(
        ".reg .b32 %r<3>;\n.reg .b64 %rd1;\n"
        "ld.param.u32 %r1, [n];\nld.global.u32 %r2, [%rd1];\nret;"
    )
    warp = WarpUniformity(func)
    assert not warp.is_varying(register(func, "%r1"))
    assert warp.is_varying(register(func, "%r2"))


def test_values_defined_under_a_divergent_branch_diverge_after_the_join() -> None:
    # %r2 is written from uniform operands, but only by the threads that skip the branch.
    func = function(
        """
        .reg .pred %p;
        .reg .b32 %r<4>;
        mov.u32 %r1, %tid.x;
        mov.u32 %r2, 0;
        setp.eq.s32 %p, %r1, 0;
        @%p bra DONE;
        mov.u32 %r2, 1;
        DONE:
        add.s32 %r3, %r2, 1;
        ret;
        """
    )
    warpgroup, numbering = warpgroup_divergence(func)
    assert warpgroup.is_divergent(register(func, "%r3"), numbering)
    assert warpgroup.is_divergent(register(func, "%r2"), numbering)
