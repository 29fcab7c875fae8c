"""Control flow on the simulator: divergence and reconvergence, loops with per-thread trip
counts, calls with `.param` arguments and results, exits, special registers and
`setmaxnreg`.

Every kernel is assembled by the real ptxas first (`ptx_kit.run`); the expected values
are computed here.
"""

from __future__ import annotations

import numpy as np
import pytest
from ptx_kit import assemble, kernel, line_of, run

from tileas_py.sim import SimulationError, launch

PRELUDE = """\
  ld.param.u64 %rd1, [out];
  mov.u32 %r0, %tid.x;
  and.b32 %r31, %r0, 31;
  mul.wide.u32 %rd2, %r0, 4;
  add.s64 %rd3, %rd1, %rd2;
"""


def test_divergent_branches_reconverge_for_a_warp_collective() -> None:
    # Three ways out of a switch on lane % 3, then a full-warp shuffle: every lane must
    # be back together for it.
    source = kernel(
        PRELUDE
        + """\
  rem.u32 %r1, %r31, 3;
  setp.eq.u32 %p1, %r1, 0;
  setp.eq.u32 %p2, %r1, 1;
  @%p1 bra ZERO;
  @%p2 bra ONE;
  mul.lo.u32 %r2, %r31, 100;
  bra.uni JOIN;
ONE:
  add.u32 %r2, %r31, 1000;
  bra.uni JOIN;
ZERO:
  neg.s32 %r2, %r31;
JOIN:
  shfl.sync.idx.b32 %r3, %r2, 31, 31, 0xffffffff;
  add.u32 %r3, %r3, %r2;
  st.global.u32 [%rd3], %r3;
""",
    )
    out = np.zeros(64, dtype=np.uint32)
    run(source, [out], block=64)

    def value(lane: int) -> int:
        return [-lane, lane + 1000, lane * 100][lane % 3] & 0xFFFFFFFF

    assert list(out) == [(value(t % 32) + value(31)) & 0xFFFFFFFF for t in range(64)]


def test_loops_with_different_trip_counts_per_thread() -> None:
    # Thread t sums 1..(t % 7 + 1) in a loop; then the warp sums its totals with
    # butterfly shuffles, which need every lane back from its loop.
    source = kernel(
        PRELUDE
        + """\
  rem.u32 %r1, %r0, 7;
  add.u32 %r1, %r1, 1;
  mov.u32 %r2, 0;
  mov.u32 %r3, 1;
LOOP:
  add.u32 %r2, %r2, %r3;
  add.u32 %r3, %r3, 1;
  setp.le.u32 %p1, %r3, %r1;
  @%p1 bra LOOP;
  mov.u32 %r4, %r2;
  shfl.sync.bfly.b32 %r5, %r4, 16, 31, -1;
  add.u32 %r4, %r4, %r5;
  shfl.sync.bfly.b32 %r5, %r4, 8, 31, -1;
  add.u32 %r4, %r4, %r5;
  shfl.sync.bfly.b32 %r5, %r4, 4, 31, -1;
  add.u32 %r4, %r4, %r5;
  shfl.sync.bfly.b32 %r5, %r4, 2, 31, -1;
  add.u32 %r4, %r4, %r5;
  shfl.sync.bfly.b32 %r5, %r4, 1, 31, -1;
  add.u32 %r4, %r4, %r5;
  mul.wide.u32 %rd4, %r0, 8;
  add.s64 %rd4, %rd1, %rd4;
  st.global.v2.u32 [%rd4], {%r2, %r4};
""",
    )
    out = np.zeros((96, 2), dtype=np.uint32)
    run(source, [out], block=96)
    totals = [sum(range(1, t % 7 + 2)) for t in range(96)]
    for t in range(96):
        warp = t // 32
        assert list(out[t]) == [totals[t], sum(totals[32 * warp : 32 * warp + 32])]


FUNCTIONS = """\
.func (.param .b32 result) scale(.param .b32 x, .param .b32 factor)
{
  .reg .b32 %a<4>;
  ld.param.b32 %a1, [x];
  ld.param.b32 %a2, [factor];
  mul.lo.u32 %a3, %a1, %a2;
  st.param.b32 [result], %a3;
  ret;
}

.func (.param .b64 result) scale_and_add(.param .b32 x, .param .b64 y)
{
  .reg .b32 %b<4>;
  .reg .b64 %c<4>;
  ld.param.b32 %b1, [x];
  ld.param.b64 %c1, [y];
  {
    .param .b32 arg0;
    .param .b32 arg1;
    .param .b32 ret0;
    st.param.b32 [arg0], %b1;
    st.param.b32 [arg1], 3;
    call.uni (ret0), scale, (arg0, arg1);
    ld.param.b32 %b2, [ret0];
  }
  cvt.u64.u32 %c2, %b2;
  add.s64 %c3, %c1, %c2;
  st.param.b64 [result], %c3;
  ret;
}

.func record(.param .b64 where, .param .b32 value)
{
  .reg .b32 %d<2>;
  .reg .b64 %e<2>;
  ld.param.b64 %e1, [where];
  ld.param.b32 %d1, [value];
  st.global.u32 [%e1], %d1;
  ret;
}
"""


def test_calls_with_param_arguments_results_and_nesting() -> None:
    source = kernel(
        PRELUDE
        + """\
  cvt.u64.u32 %rd4, %r0;
  shl.b64 %rd4, %rd4, 32;
  {
    .param .b32 arg0;
    .param .b64 arg1;
    .param .b64 ret0;
    st.param.b32 [arg0], %r0;
    st.param.b64 [arg1], %rd4;
    call.uni (ret0), scale_and_add, (arg0, arg1);
    ld.param.b64 %rd5, [ret0];
  }
  // A divergent call: odd threads only, with no result.
  and.b32 %r1, %r0, 1;
  setp.eq.u32 %p1, %r1, 1;
  @!%p1 bra SKIP;
  {
    .param .b64 arg0;
    .param .b32 arg1;
    add.s64 %rd6, %rd3, 256;
    st.param.b64 [arg0], %rd6;
    st.param.b32 [arg1], 77;
    call record, (arg0, arg1);
  }
SKIP:
  mul.wide.u32 %rd7, %r0, 8;
  add.s64 %rd7, %rd1, %rd7;
  st.global.u64 [%rd7+512], %rd5;
""",
        functions=FUNCTIONS,
    )
    out = np.zeros(256, dtype=np.uint32)
    run(source, [out], block=64)
    results = out[128:].view(np.uint64)
    for t in range(64):
        assert results[t] == (t << 32) + 3 * t
        assert out[64 + t] == (77 if t % 2 else 0)


def test_recursion_is_refused_with_a_located_error() -> None:
    source = kernel(
        PRELUDE
        + """\
  {
    .param .b32 arg0;
    .param .b32 ret0;
    st.param.b32 [arg0], 4;
    call.uni (ret0), factorial, (arg0);
    ld.param.b32 %r1, [ret0];
  }
  st.global.u32 [%rd3], %r1;
""",
        functions="""\
.func (.param .b32 result) factorial(.param .b32 n)
{
  .reg .pred %q<2>;
  .reg .b32 %f<4>;
  ld.param.b32 %f1, [n];
  setp.le.u32 %q1, %f1, 1;
  mov.u32 %f3, 1;
  @%q1 bra DONE;
  {
    .param .b32 arg0;
    .param .b32 ret0;
    sub.u32 %f2, %f1, 1;
    st.param.b32 [arg0], %f2;
    call.uni (ret0), factorial, (arg0);
    ld.param.b32 %f3, [ret0];
  }
  mul.lo.u32 %f3, %f3, %f1;
DONE:
  st.param.b32 [result], %f3;
  ret;
}
""",
    )
    with pytest.raises(SimulationError) as raised:
        run(source, [np.zeros(1, dtype=np.uint32)], block=1)
    assert "recursive call to 'factorial'" in raised.value.message
    # The functions come first in the module: the first such line is the inner call.
    assert raised.value.line == line_of(source, "call.uni (ret0), factorial")


def test_exits_release_the_barrier_others_wait_at() -> None:
    # Half of warp 0 and all of warp 2 exit; the rest meet at bar.sync, which then counts
    # only the threads that are left.
    source = kernel(
        PRELUDE
        + """\
  .shared .align 4 .b32 cells[96];
  shr.u32 %r1, %r0, 5;
  setp.eq.u32 %p1, %r1, 2;
  setp.ge.u32 %p2, %r0, 16;
  setp.lt.u32 %p3, %r0, 32;
  and.pred %p4, %p2, %p3;
  or.pred %p5, %p1, %p4;
  @%p5 exit;
  mov.u32 %r2, cells;
  shl.b32 %r3, %r0, 2;
  add.u32 %r4, %r2, %r3;
  add.u32 %r5, %r0, 500;
  st.shared.u32 [%r4], %r5;
  bar.sync 0;
  xor.b32 %r6, %r0, 32;
  shl.b32 %r6, %r6, 2;
  add.u32 %r6, %r2, %r6;
  ld.shared.u32 %r7, [%r6];
  st.global.u32 [%rd3], %r7;
""",
    )
    out = np.zeros(96, dtype=np.uint32)
    run(source, [out], block=96)
    expected = [0] * 96
    for t in [*range(16), *range(32, 64)]:
        partner = t ^ 32
        expected[t] = partner + 500 if partner < 16 or partner >= 32 else 0
    assert list(out) == expected


def test_exit_from_a_called_function_ends_the_thread() -> None:
    source = kernel(
        PRELUDE
        + """\
  and.b32 %r1, %r0, 1;
  setp.eq.u32 %p1, %r1, 1;
  @%p1 call stop, ();
  st.global.u32 [%rd3], 9;
""",
        functions=".func stop()\n{\n  exit;\n}\n",
    )
    out = np.zeros(8, dtype=np.uint32)
    run(source, [out], block=8)
    assert list(out) == [9, 0] * 4


def test_trap_stops_the_run_where_it_is() -> None:
    source = kernel(
        PRELUDE
        + """\
  setp.eq.u32 %p1, %r0, 5;
  @%p1 trap;
  st.global.u32 [%rd3], 1;
""",
    )
    with pytest.raises(SimulationError) as raised:
        run(source, [np.zeros(8, dtype=np.uint32)], block=8)
    assert raised.value.message == "trap executed by threads 5 of CTA (0, 0, 0)"
    assert raised.value.line == line_of(source, "trap")


# -- indirect branches and .reg parameters ----------------------------------------------------


def test_brx_idx_goes_to_the_label_each_index_picks() -> None:
    # A four-way switch on lane % 4 through a .branchtargets list, whose last label is a
    # loop head reached again by a guarded brx.idx; then a full-warp shuffle, which needs
    # every lane back together.
    source = kernel(
        PRELUDE
        + """\
  rem.u32 %r1, %r31, 4;
  mov.u32 %r2, 0;
  targets: .branchtargets A, B, C, AGAIN;
  brx.idx %r1, targets;
A:
  add.u32 %r2, %r31, 1000;
  bra.uni JOIN;
B:
  mul.lo.u32 %r2, %r31, 3;
  bra.uni JOIN;
C:
  neg.s32 %r2, %r31;
  bra.uni JOIN;
AGAIN:
  add.u32 %r2, %r2, 10;
  setp.lt.u32 %p1, %r2, 30;
  @%p1 brx.idx %r1, targets;
JOIN:
  shfl.sync.idx.b32 %r3, %r2, 0, 31, 0xffffffff;
  add.u32 %r3, %r3, %r2;
  st.global.u32 [%rd3], %r3;
""",
    )
    out = np.zeros(64, dtype=np.uint32)
    run(source, [out], block=64)

    def value(lane: int) -> int:
        return [lane + 1000, 3 * lane, -lane & 0xFFFFFFFF, 30][lane % 4]

    assert list(out) == [(value(t % 32) + value(0)) & 0xFFFFFFFF for t in range(64)]


def test_brx_idx_past_its_list_stops_the_run() -> None:
    source = kernel(
        PRELUDE
        + """\
  targets: .branchtargets A, B;
  brx.idx %r0, targets;
A:
  st.global.u32 [%rd3], 1;
  bra.uni DONE;
B:
  st.global.u32 [%rd3], 2;
DONE:
""",
    )
    with pytest.raises(SimulationError) as raised:
        run(source, [np.zeros(4, dtype=np.uint32)], block=4)
    assert raised.value.message == (
        "brx.idx index 2 is past the 2 labels of its .branchtargets list "
        "(threads 2-3 of CTA (0, 0, 0))"
    )
    assert raised.value.line == line_of(source, "brx.idx")


REGISTER_FUNCTIONS = """\
.func (.reg .b32 sum) mix(.reg .b32 a, .reg .b32 b, .param .b32 c)
{
  .reg .b32 %g<3>;
  ld.param.b32 %g1, [c];
  mul.lo.u32 %g2, a, b;
  add.u32 sum, %g2, %g1;
  ret;
}

.func (.reg .b64 wide) widen(.reg .b32 a)
{
  mul.wide.u32 wide, a, 5;
  shl.b64 wide, wide, 8;
  ret;
}

.func (.reg .b32 odd) twice_if_odd(.reg .b32 x, .reg .b64 where)
{
  .reg .b32 %h<3>;
  .reg .pred %q;
  and.b32 odd, x, 1;
  setp.eq.u32 %q, odd, 1;
  @!%q bra DONE;
  {
    .param .b32 c;
    st.param.b32 [c], 0;
    call (%h2), mix, (x, 2, c);
  }
  st.global.u32 [where], %h2;
DONE:
  ret;
}
"""


def test_calls_with_reg_parameters_and_results() -> None:
    # `.reg` parameters take registers and immediates and results come back in registers
    # (a .b64 too), beside a `.param` argument; a callee passes its own
    # parameter on to another.
    source = kernel(
        PRELUDE
        + """\
  {
    .param .b32 c;
    st.param.b32 [c], 7;
    call (%r1), mix, (%r0, 5, c);
  }
  call (%rd4), widen, (%r0);
  add.s64 %rd6, %rd3, 256;
  call (%r3), twice_if_odd, (%r0, %rd6);
  st.global.u32 [%rd3], %r1;
  st.global.u32 [%rd3+512], %r3;
  mul.wide.u32 %rd5, %r0, 8;
  add.s64 %rd5, %rd1, %rd5;
  st.global.u64 [%rd5+768], %rd4;
""",
        functions=REGISTER_FUNCTIONS,
    )
    out = np.zeros(5 * 64, dtype=np.uint32)
    run(source, [out], block=64)
    assert list(out[:64]) == [5 * t + 7 for t in range(64)]
    assert list(out[64:128]) == [2 * t if t % 2 else 0 for t in range(64)]
    assert list(out[128:192]) == [t % 2 for t in range(64)]
    assert list(out[192:].view(np.uint64)) == [(5 * t) << 8 for t in range(64)]


# -- special registers ------------------------------------------------------------------------


SPECIALS = kernel(
    """\
  ld.param.u64 %rd1, [out];
  mov.u32 %r1, %tid.x;
  mov.u32 %r2, %tid.y;
  mov.u32 %r3, %tid.z;
  mov.u32 %r4, %ntid.x;
  mov.u32 %r5, %ntid.y;
  mov.u32 %r6, %ntid.z;
  mov.u32 %r7, %ctaid.x;
  mov.u32 %r8, %ctaid.y;
  mov.u32 %r9, %ctaid.z;
  mov.u32 %r10, %nctaid.x;
  mov.u32 %r11, %nctaid.y;
  mov.u32 %r12, %nctaid.z;
  mov.u32 %r13, %laneid;
  mov.u32 %r14, %warpid;
  mov.u32 %r15, %nwarpid;
  mov.u32 %r16, %cluster_ctarank;
  mov.u32 %r17, %cluster_nctarank;
  mov.u32 %r18, %cluster_ctaid.x;
  mov.u32 %r19, %cluster_ctaid.y;
  mov.u32 %r20, %cluster_ctaid.z;
  mov.u32 %r21, %cluster_nctaid.x;
  mov.u32 %r22, %cluster_nctaid.y;
  mov.u32 %r23, %cluster_nctaid.z;
  mov.u32 %r24, %clusterid.x;
  mov.u32 %r25, %clusterid.y;
  mov.u32 %r26, %clusterid.z;
  mov.u32 %r27, %nclusterid.x;
  mov.u32 %r28, %nclusterid.y;
  mov.u32 %r29, %nclusterid.z;
  mov.u32 %r30, %lanemask_eq;
  mov.u32 %r32, %lanemask_lt;
  mov.u32 %r33, %lanemask_le;
  mov.u32 %r34, %lanemask_gt;
  mov.u32 %r35, %lanemask_ge;
  mov.pred %p1, %is_explicit_cluster;
  selp.u32 %r36, 1, 0, %p1;
  mov.u32 %r37, %dynamic_smem_size;
  mov.u32 %r38, %total_smem_size;
  mov.u32 %r39, %smid;
  mov.u32 %r40, %nsmid;
  // The thread's linear number in the grid, to place its record.
  mad.lo.u32 %r41, %r3, %r5, %r2;
  mad.lo.u32 %r41, %r41, %r4, %r1;
  mad.lo.u32 %r42, %r9, %r11, %r8;
  mad.lo.u32 %r42, %r42, %r10, %r7;
  mul.lo.u32 %r43, %r4, %r5;
  mul.lo.u32 %r43, %r43, %r6;
  mad.lo.u32 %r44, %r42, %r43, %r41;
  mul.wide.u32 %rd2, %r44, 160;
  add.s64 %rd2, %rd1, %rd2;
  st.global.v4.u32 [%rd2], {%r1, %r2, %r3, %r4};
  st.global.v4.u32 [%rd2+16], {%r5, %r6, %r7, %r8};
  st.global.v4.u32 [%rd2+32], {%r9, %r10, %r11, %r12};
  st.global.v4.u32 [%rd2+48], {%r13, %r14, %r15, %r16};
  st.global.v4.u32 [%rd2+64], {%r17, %r18, %r19, %r20};
  st.global.v4.u32 [%rd2+80], {%r21, %r22, %r23, %r24};
  st.global.v4.u32 [%rd2+96], {%r25, %r26, %r27, %r28};
  st.global.v4.u32 [%rd2+112], {%r29, %r30, %r32, %r33};
  st.global.v4.u32 [%rd2+128], {%r34, %r35, %r36, %r37};
  st.global.v4.u32 [%rd2+144], {%r38, %r39, %r40, %r41};
""",
    decls="",
)


def test_special_registers_in_three_dimensions() -> None:
    grid, block, cluster = (4, 3, 2), (5, 3, 4), (2, 1, 2)
    threads = block[0] * block[1] * block[2]
    ctas = grid[0] * grid[1] * grid[2]
    out = np.zeros((ctas * threads, 40), dtype=np.uint32)
    run(SPECIALS, [out], grid=grid, block=block, cluster=cluster)
    n_cluster = cluster[0] * cluster[1] * cluster[2]
    smids: set[int] = set()
    for cz in range(grid[2]):
        for cy in range(grid[1]):
            for cx in range(grid[0]):
                cta = (cz * grid[1] + cy) * grid[0] + cx
                ctaid = (cx, cy, cz)
                in_cluster = tuple(c % k for c, k in zip(ctaid, cluster, strict=True))
                clusterid = tuple(c // k for c, k in zip(ctaid, cluster, strict=True))
                rank = in_cluster[0] + cluster[0] * (
                    in_cluster[1] + cluster[1] * in_cluster[2]
                )
                for tz in range(block[2]):
                    for ty in range(block[1]):
                        for tx in range(block[0]):
                            linear = (tz * block[1] + ty) * block[0] + tx
                            lane = linear % 32
                            row = out[cta * threads + linear]
                            eq = 1 << lane
                            assert list(row[:13]) == [
                                tx,
                                ty,
                                tz,
                                *block,
                                *ctaid,
                                *grid,
                                lane,
                            ]
                            assert row[13] < row[14]  # %warpid < %nwarpid
                            assert list(row[15:29]) == [
                                rank,
                                n_cluster,
                                *in_cluster,
                                *cluster,
                                *clusterid,
                                *(g // k for g, k in zip(grid, cluster, strict=True)),
                            ]
                            assert list(row[29:34]) == [
                                eq,
                                eq - 1,
                                2 * eq - 1,
                                (~(2 * eq - 1)) & 0xFFFFFFFF,
                                (~(eq - 1)) & 0xFFFFFFFF,
                            ]
                            assert list(row[34:36]) == [1, 0]
                            assert row[37] < row[38]  # %smid < %nsmid
                            assert row[39] == linear
                            smids.add(int(row[37]))
    assert len(smids) > 1


def test_without_a_cluster_the_cluster_registers_describe_one_cta() -> None:
    source = kernel(
        PRELUDE
        + """\
  mov.u32 %r1, %cluster_nctarank;
  mov.pred %p1, %is_explicit_cluster;
  selp.u32 %r2, 1, 0, %p1;
  mov.u32 %r3, %clusterid.x;
  mov.u32 %r4, %cluster_ctarank;
  mov.u32 %r5, %ctaid.x;
  mul.wide.u32 %rd4, %r5, 16;
  add.s64 %rd4, %rd1, %rd4;
  st.global.v4.u32 [%rd4], {%r1, %r2, %r3, %r4};
""",
    )
    out = np.zeros((3, 4), dtype=np.uint32)
    run(source, [out], grid=3, block=1)
    assert out.tolist() == [[1, 0, c, 0] for c in range(3)]


def test_dynamic_shared_memory_size_registers() -> None:
    source = kernel(
        PRELUDE
        + """\
  .shared .align 16 .b8 fixed[48];
  mov.u32 %r1, %dynamic_smem_size;
  mov.u32 %r2, %total_smem_size;
  mov.u32 %r3, dynamic;
  st.shared.u32 [%r3+1020], %r1;
  ld.shared.u32 %r4, [%r3+1020];
  st.global.v4.u32 [%rd1], {%r1, %r2, %r3, %r4};
""",
        decls=".extern .shared .align 16 .b8 dynamic[];",
    )
    out = np.zeros(4, dtype=np.uint32)
    assemble(source)
    launch(source, "k", 1, 1, [out], dynamic_shared=1024)
    assert out[0] == 1024
    assert out[2] % 16 == 0
    assert out[2] >= 48
    assert out[1] >= out[2] + 1024
    assert out[3] == 1024


# -- setmaxnreg ---------------------------------------------------------------------------------


def _setmaxnreg(increase: int, decrease_first: bool) -> str:
    # Warpgroup 0 gives registers back; warpgroups 1 and 2 take them. At entry each of the
    # 384 threads has 65536 / 384 rounded down to a multiple of 8 = 168.
    dec = "DEC:\n  setmaxnreg.dec.sync.aligned.u32 40;\n  bra.uni DONE;\n"
    inc = f"INC:\n  setmaxnreg.inc.sync.aligned.u32 {increase};\n  bra.uni DONE;\n"
    return kernel(
        PRELUDE
        + "  shr.u32 %r1, %r0, 7;\n  setp.eq.u32 %p1, %r1, 0;\n"
        + "  @%p1 bra DEC;\n  bra.uni INC;\n"
        + (dec + inc if decrease_first else inc + dec)
        + "DONE:\n  st.global.u32 [%rd3], 1;\n",
        directives=".maxntid 384, 1, 1\n.minnctapersm 1",
    )


@pytest.mark.parametrize("decrease_first", [True, False])
def test_setmaxnreg_budgets_that_fit(decrease_first: bool) -> None:
    # 128 * (168 - 40) registers freed pay for 2 * 128 * (232 - 168): an increase that
    # runs first waits for the decrease.
    out = np.zeros(384, dtype=np.uint32)
    run(_setmaxnreg(232, decrease_first), [out], block=384)
    assert (out == 1).all()


def test_setmaxnreg_budget_that_never_fits_is_a_deadlock() -> None:
    source = _setmaxnreg(256, True)
    with pytest.raises(SimulationError) as raised:
        run(source, [np.zeros(384, dtype=np.uint32)], block=384)
    message = raised.value.message
    assert message.startswith("deadlock:")
    assert "(setmaxnreg.inc 256)" in message
    assert raised.value.line == line_of(source, "setmaxnreg.inc")
