"""The accessor and analysis API the ptxas-phase passes use, on real and small PTX."""

from pathlib import Path

from tileas_py.dialects.ori import (
    BarrierOp,
    FuncOp,
    GenericInstructionOp,
    MbarrierOp,
    WgmmaMmaAsyncOp,
)
from tileas_py.dialects.ori.analysis import (
    ControlFlowGraph,
    RegisterNumbering,
    declaration,
    defs,
    instructions,
    instructions_touching,
    liveness,
    uses,
)
from tileas_py.ptx.reader import read_ptx

CORPUS = Path(__file__).parents[2] / "ptx" / "corpus"

HEADER = ".version 8.7\n.target sm_90a\n.address_size 64\n"


def function(body: str, name: str = "k") -> FuncOp:
    module = read_ptx(f"{HEADER}.visible .entry {name}()\n{{\n{body}\n}}\n", "t.ptx")
    module.verify()
    funcs = [op for op in module.ops if isinstance(op, FuncOp)]
    return funcs[0]


def names(values: object) -> list[str]:
    assert isinstance(values, list)
    return [declaration(v).ptx_name for v in values]  # pyright: ignore[reportUnknownArgumentType, reportUnknownVariableType]


def test_defs_and_uses_follow_the_operand_roles() -> None:
    func = function(
        """
        .reg .pred %p<3>;
        .reg .b32 %r<4>;
        .reg .f32 %f<5>;
        .reg .b64 %rd<3>;
        setp.lt.and.s32 %p1|%p2, %r1, %r2, %p0;
        @!%p1 st.shared.v2.b32 [%r3+8], {%r1, %r2};
        wgmma.mma_async.sync.aligned.m64n8k16.f32.f16.f16 {%f1, %f2, %f3, %f4}, %rd1, %rd2, %p2, 1, 1, 0, 0;
        bar.sync 0;
        mbarrier.try_wait.parity.shared::cta.b64 %p0, [%r3], %r1;
        """
    )
    setp, st, mma, bar, wait = instructions(func)
    assert names(defs(setp)) == ["%p1", "%p2"]
    assert names(uses(setp)) == ["%r1", "%r2", "%p0"]
    assert names(defs(st)) == []
    assert names(uses(st)) == ["%p1", "%r3", "%r1", "%r2"]
    assert isinstance(mma, WgmmaMmaAsyncOp)
    accumulators = ["%f1", "%f2", "%f3", "%f4"]
    assert names(defs(mma)) == accumulators
    assert names(uses(mma)) == [*accumulators, "%rd1", "%rd2", "%p2"]
    assert names(list(mma.accumulators)) == accumulators
    assert isinstance(bar, BarrierOp)
    assert defs(bar) == []
    assert uses(bar) == []
    assert isinstance(wait, MbarrierOp)
    assert names(defs(wait)) == ["%p0"]


def test_instructions_touching_a_register_are_its_handle_uses() -> None:
    func = function(
        """
        .reg .b32 %r<3>;
        mov.u32 %r1, %tid.x;
        add.s32 %r1, %r1, %r1;
        mov.u32 %r2, 5;
        st.shared.u32 [%r2], %r1;
        """
    )
    mov, add, _, st = instructions(func)
    r1 = func.registers()[1].result
    touching = instructions_touching(r1)
    assert len(touching) == 3
    assert set(touching) == {mov, add, st}
    assert isinstance(add, GenericInstructionOp)


def test_register_class_is_assigned_in_one_place() -> None:
    func = function(".reg .f32 %f<2>;\n.reg .pred %p;\nmov.f32 %f1, 0f3F800000;")
    f1 = func.registers()[1]
    assert f1.register_class.value == "general"
    assert func.registers()[2].register_class.value == "predicate"
    from tileas_py.dialects.ori.attributes import RegisterClass

    f1.register_class = RegisterClass.ACCUMULATOR
    (mov,) = instructions(func)
    assert declaration(defs(mov)[0]).register_class is RegisterClass.ACCUMULATOR


DIAMOND = """
    .reg .pred %p<2>;
    .reg .b32 %r<4>;
    mov.u32 %r1, %tid.x;
    setp.eq.s32 %p1, %r1, 0;
    @%p1 bra THEN;
    mov.u32 %r2, 1;
    bra JOIN;
THEN:
    mov.u32 %r2, 2;
JOIN:
    add.s32 %r3, %r2, %r1;
LOOP:
    add.s32 %r3, %r3, 1;
    setp.lt.s32 %p1, %r3, 10;
    @%p1 bra LOOP;
    ret;
"""


def test_cfg_dominators_and_post_dominators() -> None:
    func = function(DIAMOND)
    cfg = ControlFlowGraph(func)
    entry, else_, then, join, loop, exit_ = cfg.blocks
    assert cfg.successors_of(entry) == [then, else_]
    assert cfg.predecessors_of(join) == [else_, then]
    assert cfg.successors_of(loop) == [loop, exit_]
    assert cfg.immediate_dominator(join) is entry
    assert cfg.immediate_dominator(loop) is join
    assert cfg.dominates(entry, exit_)
    assert not cfg.dominates(then, join)
    assert cfg.immediate_post_dominator(entry) is join
    assert cfg.post_dominates(loop, then)
    assert not cfg.post_dominates(then, entry)
    assert cfg.reverse_postorder[0] == 0


def test_liveness_over_the_cfg() -> None:
    func = function(DIAMOND)
    cfg = ControlFlowGraph(func)
    numbering = RegisterNumbering(func)
    live_in, live_out = liveness(cfg, numbering)
    entry, _, then, join, loop, exit_ = cfg.blocks
    reg = {declaration(r).ptx_name: r for r in numbering.registers}
    assert numbering.members(live_in[cfg.index[join]]) == [reg["%r1"], reg["%r2"]]
    assert numbering.members(live_out[cfg.index[then]]) == [reg["%r1"], reg["%r2"]]
    assert numbering.members(live_in[cfg.index[loop]]) == [reg["%r3"]]
    assert live_in[cfg.index[entry]] == 0
    assert live_out[cfg.index[exit_]] == 0


def test_guarded_writes_do_not_kill() -> None:
    func = function(
        """
        .reg .pred %p;
        .reg .b32 %r<2>;
        setp.eq.s32 %p, %r1, 0;
        @%p mov.u32 %r1, 1;
        st.shared.u32 [0], %r1;
        """
    )
    cfg = ControlFlowGraph(func)
    numbering = RegisterNumbering(func)
    live_in, _ = liveness(cfg, numbering)
    assert [declaration(r).ptx_name for r in numbering.members(live_in[0])] == ["%r1"]


def test_analyses_on_the_triton_tma_gemm() -> None:
    module = read_ptx((CORPUS / "triton_gemm_tma.ptx").read_text(), "gemm.ptx")
    (func,) = [op for op in module.ops if isinstance(op, FuncOp)]
    cfg = ControlFlowGraph(func)
    assert all(cfg.is_reachable(b) for b in cfg.blocks[:2])
    mmas = [i for i in instructions(func) if isinstance(i, WgmmaMmaAsyncOp)]
    assert len(mmas) == 4
    accumulators = set(mmas[0].accumulators)
    assert len(accumulators) == 64
    numbering = RegisterNumbering(func)
    live_in, _ = liveness(cfg, numbering)
    loop_blocks = [
        cfg.blocks[i] for i, b in enumerate(live_in) if b & numbering.mask(accumulators)
    ]
    # The accumulators are live around the K loop, which the first block dominates.
    assert loop_blocks
    assert all(cfg.dominates(cfg.blocks[0], b) for b in loop_blocks)
    assert mmas[0].location is not None


def test_reducing_barriers_define_their_result() -> None:
    func = function(
        ".reg .pred %p<2>;\n.reg .b32 %r1;\n"
        "bar.red.popc.u32 %r1, 0, %p0;\nbarrier.cta.red.and.pred %p1, 1, %p0;"
    )
    red, red_pred = instructions(func)
    assert names(defs(red)) == ["%r1"]
    assert names(uses(red)) == ["%p0"]
    assert names(defs(red_pred)) == ["%p1"]
