"""Warp-level collectives on the simulator: shfl, vote, activemask, elect, redux, match,
with every lane and under divergence, and the collective hazard.

Every kernel is assembled by the real ptxas first (`ptx_kit.run`); the expected values
come from the PTX ISA's pseudo-code, written out here in Python.
"""

from __future__ import annotations

import numpy as np
import pytest
from ptx_kit import kernel, line_of, run

from tileas_py.sim import HazardError, HazardKind, SimulationError

PRELUDE = """\
  ld.param.u64 %rd1, [out];
  mov.u32 %r0, %tid.x;
  and.b32 %r31, %r0, 31;
  mul.wide.u32 %rd2, %r0, 4;
  add.s64 %rd3, %rd1, %rd2;
"""
"""%rd1 = out, %r0 = %tid.x, %r31 = %laneid (computed), %rd3 = &out[tid]."""


def shfl_reference(
    mode: str, values: list[int], b: int, c: int, active: set[int]
) -> list[tuple[int, bool] | None]:
    """The PTX ISA's shfl.sync pseudo-code, per lane (None for lanes not taking part)."""
    out: list[tuple[int, bool] | None] = []
    for lane in range(32):
        if lane not in active:
            out.append(None)
            continue
        bval, cval, segmask = b & 31, c & 31, (c >> 8) & 31
        max_lane = (lane & segmask) | (cval & ~segmask)
        min_lane = lane & segmask
        if mode == "up":
            j, ok = lane - bval, lane - bval >= max_lane
        elif mode == "down":
            j, ok = lane + bval, lane + bval <= max_lane
        elif mode == "bfly":
            j, ok = lane ^ bval, (lane ^ bval) <= max_lane
        else:
            j = min_lane | (bval & ~segmask)
            ok = j <= max_lane
        if not ok:
            j = lane
        out.append((values[j], ok))
    return out


SHFL_CASES = [
    # (mode, b, c): whole warp, sub-segments of 8 and 16, clamps
    ("up", 1, 0),
    ("up", 3, 0x1800),
    ("down", 1, 31),
    ("down", 5, 0x1807),
    ("down", 2, 0x100F),
    ("bfly", 1, 31),
    ("bfly", 16, 31),
    ("bfly", 4, 0x1C1F),
    ("bfly", 8, 0x1807),
    ("idx", 5, 31),
    ("idx", 3, 0x181F),
    ("idx", 30, 0x1007),
    ("idx", 17, 0x001F),
]


@pytest.mark.parametrize(("mode", "b", "c"), SHFL_CASES)
def test_shfl_matches_the_isa_pseudo_code(mode: str, b: int, c: int) -> None:
    source = kernel(
        PRELUDE
        + f"""\
  mad.lo.u32 %r1, %r31, 3, 100;
  mov.u32 %r2, {b};
  mov.u32 %r5, {c};
  shfl.sync.{mode}.b32 %r3|%p1, %r1, %r2, {c}, 0xffffffff;
  shfl.sync.{mode}.b32 %r4, %r1, {b}, %r5, -1;
  selp.u32 %r6, 1, 0, %p1;
  shl.b32 %r6, %r6, 16;
  or.b32 %r3, %r3, %r6;
  st.global.u32 [%rd3], %r3;
  st.global.u32 [%rd3+128], %r4;
""",
    )
    out = np.zeros(64, dtype=np.uint32)
    run(source, [out], block=32)
    values = [lane * 3 + 100 for lane in range(32)]
    expected = shfl_reference(mode, values, b, c, set(range(32)))
    for lane, item in enumerate(expected):
        assert item is not None
        value, ok = item
        assert out[lane] == value | (ok << 16), (lane, out[lane], item)
        assert out[32 + lane] == value


def test_shfl_under_divergence_with_a_matching_member_mask() -> None:
    # Lanes 8-15 take one branch and shuffle among themselves with mask 0xff00; the other
    # lanes shuffle the other way with the complementary mask.
    source = kernel(
        PRELUDE
        + """\
  mad.lo.u32 %r1, %r31, 5, 7;
  setp.ge.u32 %p1, %r31, 8;
  setp.lt.u32 %p2, %r31, 16;
  and.pred %p3, %p1, %p2;
  @%p3 bra MIDDLE;
  shfl.sync.bfly.b32 %r2|%p4, %r1, 4, 31, 0xffff00ff;
  bra.uni JOIN;
MIDDLE:
  shfl.sync.down.b32 %r2|%p4, %r1, 2, 0x180f, 0x0000ff00;
JOIN:
  selp.u32 %r3, 1, 0, %p4;
  shl.b32 %r3, %r3, 16;
  or.b32 %r2, %r2, %r3;
  st.global.u32 [%rd3], %r2;
""",
    )
    out = np.zeros(32, dtype=np.uint32)
    run(source, [out], block=32)
    values = [lane * 5 + 7 for lane in range(32)]
    middle = set(range(8, 16))
    outer = set(range(32)) - middle
    down = shfl_reference("down", values, 2, 0x180F, middle)
    bfly = shfl_reference("bfly", values, 4, 31, outer)
    for lane in range(32):
        item = down[lane] if lane in middle else bfly[lane]
        assert item is not None
        value, ok = item
        assert out[lane] == value | (ok << 16), lane


VOTES = kernel(
    PRELUDE
    + """\
  and.b32 %r1, %r31, 3;
  setp.eq.u32 %p1, %r1, 0;
  setp.lt.u32 %p2, %r31, 32;
  setp.eq.u32 %p3, %r31, 7;
  vote.sync.ballot.b32 %r2, %p1, 0xffffffff;
  vote.sync.ballot.b32 %r3, !%p1, 0xffffffff;
  vote.sync.all.pred %p4, %p2, 0xffffffff;
  vote.sync.all.pred %p5, %p1, 0xffffffff;
  vote.sync.any.pred %p6, %p3, 0xffffffff;
  vote.sync.any.pred %p7, !%p2, 0xffffffff;
  vote.sync.uni.pred %p8, %p2, 0xffffffff;
  vote.sync.uni.pred %p9, %p1, 0xffffffff;
  activemask.b32 %r4;
  selp.u32 %r5, 1, 0, %p4;
  selp.u32 %r6, 2, 0, %p5;
  or.b32 %r5, %r5, %r6;
  selp.u32 %r6, 4, 0, %p6;
  or.b32 %r5, %r5, %r6;
  selp.u32 %r6, 8, 0, %p7;
  or.b32 %r5, %r5, %r6;
  selp.u32 %r6, 16, 0, %p8;
  or.b32 %r5, %r5, %r6;
  selp.u32 %r6, 32, 0, %p9;
  or.b32 %r5, %r5, %r6;
  mul.wide.u32 %rd4, %r0, 16;
  add.s64 %rd4, %rd1, %rd4;
  st.global.v4.u32 [%rd4], {%r2, %r3, %r5, %r4};
""",
)


def test_votes_over_a_whole_warp() -> None:
    out = np.zeros((64, 4), dtype=np.uint32)
    run(VOTES, [out], block=64)
    ballot = sum(1 << lane for lane in range(32) if lane % 4 == 0)
    flags = 1 | 0 | 4 | 0 | 16 | 0
    assert (out == [ballot, ~ballot & 0xFFFFFFFF, flags, 0xFFFFFFFF]).all()


def test_votes_and_activemask_under_divergence() -> None:
    # Lanes 0-11 vote among themselves with mask 0xfff, lanes 12-31 with the rest.
    source = kernel(
        PRELUDE
        + """\
  setp.lt.u32 %p1, %r31, 12;
  and.b32 %r1, %r31, 1;
  setp.eq.u32 %p2, %r1, 1;
  mov.u32 %r9, 0x00000fff;
  not.b32 %r10, %r9;
  selp.u32 %r11, %r9, %r10, %p1;
  @!%p1 bra HIGH;
  vote.sync.ballot.b32 %r2, %p2, %r11;
  vote.sync.all.pred %p3, %p1, %r11;
  activemask.b32 %r3;
  bra.uni JOIN;
HIGH:
  vote.sync.ballot.b32 %r2, %p2, %r11;
  vote.sync.all.pred %p3, %p2, %r11;
  activemask.b32 %r3;
JOIN:
  selp.u32 %r4, 1, 0, %p3;
  mul.wide.u32 %rd4, %r0, 16;
  add.s64 %rd4, %rd1, %rd4;
  st.global.v4.u32 [%rd4], {%r2, %r3, %r4, %r11};
""",
    )
    out = np.zeros((32, 4), dtype=np.uint32)
    run(source, [out], block=32)
    low = 0x00000FFF
    high = 0xFFFFF000
    odd = sum(1 << lane for lane in range(32) if lane % 2)
    for lane in range(32):
        mask = low if lane < 12 else high
        assert list(out[lane]) == [odd & mask, mask, 1 if lane < 12 else 0, mask], lane


def test_elect_picks_the_lowest_active_lane_of_the_mask() -> None:
    # The whole warp elects lane 0; lanes 4-31 elect among themselves with a mask that
    # leaves out lanes 0-4, so lane 5 wins.
    source = kernel(
        PRELUDE
        + """\
  elect.sync %r1|%p1, 0xffffffff;
  setp.ge.u32 %p3, %r31, 4;
  mov.u32 %r2, 99;
  @!%p3 bra SKIP;
  elect.sync _|%p2, 0xfffffff0;
  setp.ge.u32 %p5, %r31, 5;
  @!%p5 bra SKIP;
  elect.sync %r2|%p4, 0xffffffe0;
SKIP:
  selp.u32 %r3, 1, 0, %p1;
  selp.u32 %r4, 2, 0, %p2;
  @%p3 or.b32 %r3, %r3, %r4;
  selp.u32 %r4, 4, 0, %p4;
  @%p5 or.b32 %r3, %r3, %r4;
  mul.wide.u32 %rd4, %r0, 12;
  add.s64 %rd4, %rd1, %rd4;
  st.global.u32 [%rd4], %r1;
  st.global.u32 [%rd4+4], %r2;
  st.global.u32 [%rd4+8], %r3;
""",
    )
    out = np.zeros((64, 3), dtype=np.uint32)
    run(source, [out], block=64)
    for tid in range(64):
        lane = tid % 32
        flags = int(lane == 0) | int(lane == 4) << 1 | int(lane == 5) << 2
        assert list(out[tid]) == [0, 5 if lane >= 5 else 99, flags], tid


def test_disjoint_member_masks_at_one_instruction_are_separate_collectives() -> None:
    # Each half of the warp takes its own mask inside a branch, and both halves meet at
    # one ballot after the branches join: two collectives, one per mask.
    source = kernel(
        PRELUDE
        + """\
  setp.lt.u32 %p1, %r31, 16;
  @%p1 bra LOW;
  mov.u32 %r1, 0xffff0000;
  bra.uni JOIN;
LOW:
  mov.u32 %r1, 0x0000ffff;
JOIN:
  and.b32 %r2, %r31, 3;
  setp.eq.u32 %p2, %r2, 0;
  vote.sync.ballot.b32 %r3, %p2, %r1;
  redux.sync.add.u32 %r4, %r31, %r1;
  mul.wide.u32 %rd4, %r0, 8;
  add.s64 %rd4, %rd1, %rd4;
  st.global.v2.u32 [%rd4], {%r3, %r4};
""",
    )
    out = np.zeros((32, 2), dtype=np.uint32)
    report = run(source, [out], block=32)
    assert report.hazards == []
    ballot = sum(1 << lane for lane in range(32) if lane % 4 == 0)
    for lane in range(32):
        mask = 0x0000FFFF if lane < 16 else 0xFFFF0000
        total = sum(range(16)) if lane < 16 else sum(range(16, 32))
        assert list(out[lane]) == [ballot & mask, total], lane


REDUX = kernel(
    PRELUDE
    + """\
  sub.u32 %r1, %r31, 9;
  mul.lo.u32 %r1, %r1, 3;
  redux.sync.add.s32 %r2, %r1, 0xffffffff;
  redux.sync.min.s32 %r3, %r1, 0xffffffff;
  redux.sync.max.s32 %r4, %r1, 0xffffffff;
  redux.sync.min.u32 %r5, %r1, 0xffffffff;
  redux.sync.max.u32 %r6, %r1, 0xffffffff;
  redux.sync.and.b32 %r7, %r1, 0xffffffff;
  redux.sync.or.b32 %r8, %r1, 0xffffffff;
  redux.sync.xor.b32 %r9, %r1, 0xffffffff;
  redux.sync.add.u32 %r10, %r31, 0xffffffff;
  // Lanes 16-31 alone.
  setp.ge.u32 %p1, %r31, 16;
  mov.u32 %r11, 0;
  @%p1 redux.sync.add.u32 %r11, %r31, 0xffff0000;
  mul.wide.u32 %rd4, %r0, 40;
  add.s64 %rd4, %rd1, %rd4;
  st.global.v2.u32 [%rd4], {%r2, %r3};
  st.global.v2.u32 [%rd4+8], {%r4, %r5};
  st.global.v2.u32 [%rd4+16], {%r6, %r7};
  st.global.v2.u32 [%rd4+24], {%r8, %r9};
  st.global.v2.u32 [%rd4+32], {%r10, %r11};
""",
)


def test_redux_signed_and_unsigned() -> None:
    out = np.zeros((32, 10), dtype=np.uint32)
    run(REDUX, [out], block=32)
    signed = [(lane - 9) * 3 for lane in range(32)]
    unsigned = [v & 0xFFFFFFFF for v in signed]
    from functools import reduce

    expected_common = [
        sum(signed) & 0xFFFFFFFF,
        min(signed) & 0xFFFFFFFF,
        max(signed) & 0xFFFFFFFF,
        min(unsigned),
        max(unsigned),
        reduce(lambda a, b: a & b, unsigned),
        reduce(lambda a, b: a | b, unsigned),
        reduce(lambda a, b: a ^ b, unsigned),
        sum(range(32)),
    ]
    for lane in range(32):
        assert list(out[lane, :9]) == expected_common, lane
        assert out[lane, 9] == (sum(range(16, 32)) if lane >= 16 else 0)


def test_match_any_and_all() -> None:
    source = kernel(
        PRELUDE
        + """\
  and.b32 %r1, %r31, 3;
  match.sync.any.b32 %r2, %r1, 0xffffffff;
  cvt.u64.u32 %rd5, %r1;
  shl.b64 %rd5, %rd5, 40;
  match.sync.any.b64 %r3, %rd5, 0xffffffff;
  shr.u32 %r4, %r31, 5;
  match.sync.all.b32 %r5|%p1, %r4, 0xffffffff;
  match.sync.all.b32 %r6|%p2, %r1, 0xffffffff;
  // Lanes 4-7 alone, where the values differ by lane.
  setp.ge.u32 %p3, %r31, 4;
  setp.lt.u32 %p4, %r31, 8;
  and.pred %p5, %p3, %p4;
  mov.u32 %r7, 0;
  @%p5 match.sync.any.b32 %r7, %r1, 0x000000f0;
  selp.u32 %r8, 1, 0, %p1;
  selp.u32 %r9, 2, 0, %p2;
  or.b32 %r8, %r8, %r9;
  mul.wide.u32 %rd4, %r0, 24;
  add.s64 %rd4, %rd1, %rd4;
  st.global.v2.u32 [%rd4], {%r2, %r3};
  st.global.v2.u32 [%rd4+8], {%r5, %r6};
  st.global.v2.u32 [%rd4+16], {%r7, %r8};
""",
    )
    out = np.zeros((32, 6), dtype=np.uint32)
    run(source, [out], block=32)
    for lane in range(32):
        same = sum(1 << other for other in range(32) if other % 4 == lane % 4)
        middle = (1 << lane) if 4 <= lane < 8 else 0
        assert list(out[lane]) == [same, same, 0xFFFFFFFF, 0, middle, 1], lane


# -- the collective hazard --------------------------------------------------------------------


def test_a_member_that_exited_is_a_collective_hazard() -> None:
    source = kernel(
        PRELUDE
        + """\
  setp.ge.u32 %p1, %r31, 16;
  @%p1 exit;
  shfl.sync.idx.b32 %r1, %r0, 3, 31, 0xffffffff;
  st.global.u32 [%rd3], %r1;
""",
    )
    with pytest.raises(HazardError) as raised:
        run(source, [np.zeros(32, dtype=np.uint32)], block=32)
    hazards = raised.value.hazards
    assert [h.kind for h in hazards] == [HazardKind.COLLECTIVE]
    assert hazards[0].line == line_of(source, "shfl.sync")
    # With the mask of the threads that remain it is fine.
    fixed = source.replace("31, 0xffffffff", "31, 0x0000ffff")
    out = np.zeros(32, dtype=np.uint32)
    run(fixed, [out], block=32)
    assert list(out[:16]) == [3] * 16


def test_member_masks_that_disagree_are_a_collective_hazard() -> None:
    source = kernel(
        PRELUDE
        + """\
  setp.lt.u32 %p1, %r31, 16;
  selp.u32 %r1, 0xffffffff, 0x0000ffff, %p1;
  vote.sync.any.pred %p2, %p1, %r1;
""",
    )
    with pytest.raises(HazardError) as raised:
        run(source, [None], block=32)
    assert [h.kind for h in raised.value.hazards] == [HazardKind.COLLECTIVE]


def test_a_member_that_never_arrives_is_a_deadlock() -> None:
    source = kernel(
        PRELUDE
        + """\
  setp.lt.u32 %p1, %r31, 16;
  @%p1 bra LOW;
  bar.sync 1, 32;
  bra.uni DONE;
LOW:
  shfl.sync.bfly.b32 %r1, %r0, 1, 31, 0xffffffff;
DONE:
""",
    )
    with pytest.raises(SimulationError) as raised:
        run(source, [None], block=32)
    message = raised.value.message
    assert message.startswith("deadlock:")
    assert "threads 16-31 of their warp to reach 'shfl.sync.bfly.b32'" in message
