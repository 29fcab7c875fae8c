"""Synchronisation on the simulator: CTA and cluster barriers, mbarriers, cp.async and bulk
copies with their groups, and the hazard checker's view of each.

Every kernel is assembled by the real ptxas first (`ptx_kit.run`). The checker pairs at the
end run each kernel twice over: with its synchronisation (no hazard) and without it (a
race), in both scheduling orders: the roles swap warps (or CTAs) and their code swaps
places, so the scheduler, which runs the lowest PC first, meets them in either order.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np
import pytest
from ptx_kit import kernel, line_of, run

from tileas_py.sim import HazardError, HazardKind, SimulationError

PRELUDE = """\
  ld.param.u64 %rd1, [out];
  mov.u32 %r0, %tid.x;
  shr.u32 %r30, %r0, 5;
  and.b32 %r31, %r0, 31;
  mul.wide.u32 %rd2, %r0, 4;
  add.s64 %rd3, %rd1, %rd2;
"""
"""%rd1 = out, %r0 = %tid.x, %r30 = warp, %r31 = lane, %rd3 = &out[tid] (4-byte)."""


# -- CTA barriers ---------------------------------------------------------------------------------


def test_bar_sync_in_a_loop_exchanges_data_every_round() -> None:
    source = kernel(
        PRELUDE
        + """\
  .shared .align 4 .b32 cells[128];
  mov.u32 %r1, cells;
  shl.b32 %r2, %r0, 2;
  add.u32 %r3, %r1, %r2;
  add.u32 %r4, %r0, 1;
  and.b32 %r4, %r4, 127;
  shl.b32 %r4, %r4, 2;
  add.u32 %r4, %r1, %r4;
  mov.u32 %r5, 0;
  mov.u32 %r6, 0;
ROUND:
  mad.lo.u32 %r7, %r5, 1000, %r0;
  st.shared.u32 [%r3], %r7;
  barrier.sync 0;
  ld.shared.u32 %r8, [%r4];
  add.u32 %r6, %r6, %r8;
  bar.sync 0, 128;
  add.u32 %r5, %r5, 1;
  setp.lt.u32 %p1, %r5, 4;
  @%p1 bra ROUND;
  st.global.u32 [%rd3], %r6;
""",
    )
    out = np.zeros(128, dtype=np.uint32)
    report = run(source, [out], block=128)
    neighbour = (np.arange(128) + 1) % 128
    assert list(out) == [sum(r * 1000 + int(n) for r in range(4)) for n in neighbour]
    assert report.barrier_waits == 8 * 128


def test_named_barriers_with_ids_in_registers_and_counts() -> None:
    # Warps 0 and 1 meet at barrier 1, warps 2 and 3 at barrier 2: each pair swaps data
    # and neither waits for the other pair.
    source = kernel(
        PRELUDE
        + """\
  .shared .align 4 .b32 cells[128];
  shr.u32 %r1, %r30, 1;
  add.u32 %r1, %r1, 1;
  mov.u32 %r2, cells;
  shl.b32 %r3, %r0, 2;
  add.u32 %r4, %r2, %r3;
  mul.lo.u32 %r5, %r0, 3;
  st.shared.u32 [%r4], %r5;
  barrier.sync.aligned %r1, 64;
  xor.b32 %r6, %r0, 32;
  shl.b32 %r6, %r6, 2;
  add.u32 %r6, %r2, %r6;
  ld.shared.u32 %r7, [%r6];
  st.global.u32 [%rd3], %r7;
""",
    )
    out = np.zeros(128, dtype=np.uint32)
    run(source, [out], block=128)
    assert list(out) == [3 * (t ^ 32) for t in range(128)]


def test_producer_and_consumer_warps_on_named_barriers() -> None:
    # A two-slot pipeline: warp 1 fills a slot and arrives on its "full" barrier; warp 0
    # waits on it, reads, and arrives on the slot's "empty" barrier, which warp 1 waits on
    # before it fills the slot again.
    source = kernel(
        PRELUDE
        + """\
  .shared .align 4 .b32 slots[64];
  mov.u32 %r1, 0;
  mov.u32 %r2, 0;
  shl.b32 %r3, %r31, 2;
  mov.u32 %r4, slots;
  add.u32 %r4, %r4, %r3;
  setp.eq.u32 %p1, %r30, 1;
  @%p1 bra PRODUCER;
CONSUMER:
  and.b32 %r5, %r1, 1;
  add.u32 %r6, %r5, 1;
  bar.sync %r6, 64;
  shl.b32 %r7, %r5, 7;
  add.u32 %r7, %r4, %r7;
  ld.shared.u32 %r8, [%r7];
  add.u32 %r2, %r2, %r8;
  add.u32 %r6, %r5, 3;
  bar.arrive %r6, 64;
  add.u32 %r1, %r1, 1;
  setp.lt.u32 %p2, %r1, 6;
  @%p2 bra CONSUMER;
  st.global.u32 [%rd3], %r2;
  bra.uni DONE;
PRODUCER:
  and.b32 %r5, %r1, 1;
  setp.lt.u32 %p3, %r1, 2;
  add.u32 %r6, %r5, 3;
  @!%p3 bar.sync %r6, 64;
  shl.b32 %r7, %r5, 7;
  add.u32 %r7, %r4, %r7;
  mad.lo.u32 %r8, %r1, 100, %r31;
  st.shared.u32 [%r7], %r8;
  add.u32 %r6, %r5, 1;
  bar.arrive %r6, 64;
  add.u32 %r1, %r1, 1;
  setp.lt.u32 %p2, %r1, 6;
  @%p2 bra PRODUCER;
DONE:
""",
    )
    out = np.zeros(64, dtype=np.uint32)
    run(source, [out], block=64)
    assert list(out[:32]) == [
        sum(i * 100 + lane for i in range(6)) for lane in range(32)
    ]


def test_bar_red_combines_predicates() -> None:
    source = kernel(
        PRELUDE
        + """\
  rem.u32 %r1, %r0, 3;
  setp.eq.u32 %p1, %r1, 0;
  bar.red.popc.u32 %r2, 0, %p1;
  setp.lt.u32 %p2, %r0, 96;
  bar.red.and.pred %p3, 0, %p2;
  setp.eq.u32 %p4, %r0, 95;
  bar.red.or.pred %p5, 0, %p4;
  and.b32 %r3, %r0, 1;
  setp.eq.u32 %p6, %r3, 0;
  barrier.red.and.aligned.pred %p7, 1, !%p4;
  barrier.red.or.pred %p8, 2, 96, %p6;
  setp.ge.u32 %p9, %r30, 2;
  @%p9 bra SKIP;
  barrier.red.popc.u32 %r4, 3, 64, %p6;
SKIP:
  selp.u32 %r5, 1, 0, %p3;
  selp.u32 %r6, 2, 0, %p5;
  or.b32 %r5, %r5, %r6;
  selp.u32 %r6, 4, 0, %p7;
  or.b32 %r5, %r5, %r6;
  selp.u32 %r6, 8, 0, %p8;
  or.b32 %r5, %r5, %r6;
  shl.b32 %r2, %r2, 8;
  or.b32 %r5, %r5, %r2;
  shl.b32 %r4, %r4, 20;
  @!%p9 or.b32 %r5, %r5, %r4;
  st.global.u32 [%rd3], %r5;
""",
    )
    out = np.zeros(96, dtype=np.uint32)
    run(source, [out], block=96)
    popc = sum(1 for t in range(96) if t % 3 == 0)
    flags = 1 | 2 | 0 | 8
    assert list(out[64:]) == [flags | popc << 8] * 32
    assert list(out[:64]) == [flags | popc << 8 | 32 << 20] * 64


def test_divergent_halves_of_a_warp_meet_at_one_barrier() -> None:
    # `barrier.sync` (not .aligned) may be reached by the threads of a warp at different
    # instructions.
    source = kernel(
        PRELUDE
        + """\
  .shared .align 4 .b32 cells[64];
  mov.u32 %r1, cells;
  shl.b32 %r2, %r0, 2;
  add.u32 %r2, %r1, %r2;
  st.shared.u32 [%r2], %r0;
  setp.lt.u32 %p1, %r31, 16;
  @%p1 bra LOW;
  barrier.sync 0;
  bra.uni JOIN;
LOW:
  barrier.sync 0;
JOIN:
  xor.b32 %r3, %r0, 63;
  shl.b32 %r3, %r3, 2;
  add.u32 %r3, %r1, %r3;
  ld.shared.u32 %r4, [%r3];
  st.global.u32 [%rd3], %r4;
""",
    )
    out = np.zeros(64, dtype=np.uint32)
    run(source, [out], block=64)
    assert list(out) == [t ^ 63 for t in range(64)]


def test_counted_barrier_counts_warps_whose_threads_partly_exited() -> None:
    # Half of warp 0 exits; the barrier for 64 threads still completes with warps 0 and 1
    # (a warp arrives for all its threads that have not exited).
    source = kernel(
        PRELUDE
        + """\
  setp.ge.u32 %p1, %r0, 16;
  setp.lt.u32 %p2, %r0, 32;
  and.pred %p3, %p1, %p2;
  @%p3 exit;
  setp.lt.u32 %p4, %r0, 64;
  @%p4 bar.sync 1, 64;
  st.global.u32 [%rd3], 1;
""",
    )
    out = np.zeros(96, dtype=np.uint32)
    run(source, [out], block=96)
    assert list(out) == [1] * 16 + [0] * 16 + [1] * 64


def test_barrier_that_never_completes_is_a_deadlock() -> None:
    source = kernel(
        PRELUDE
        + """\
  setp.eq.u32 %p1, %r30, 0;
  @%p1 bar.sync 1, 96;
  @!%p1 bar.sync 2, 32;
""",
    )
    with pytest.raises(SimulationError) as raised:
        run(source, [None], block=64)
    message = raised.value.message
    assert message.startswith("deadlock: threads 0-31 of CTA (0, 0, 0)")
    assert "barrier 1 (32 of 96 threads arrived)" in message
    assert raised.value.line == line_of(source, "bar.sync 1, 96")


# -- cluster barriers -------------------------------------------------------------------------------


CLUSTER_ROUNDS = kernel(
    """\
  .shared .align 4 .b32 slots[4];
  ld.param.u64 %rd1, [out];
  mov.u32 %r0, %tid.x;
  mov.u32 %r1, %cluster_ctarank;
  mov.u32 %r2, %cluster_nctarank;
  mov.u32 %r3, %ctaid.x;
  add.u32 %r4, %r1, 1;
  rem.u32 %r4, %r4, %r2;
  mov.u32 %r5, slots;
  mapa.shared::cluster.u32 %r6, %r5, %r4;
  setp.eq.u32 %p1, %r0, 0;
  fence.mbarrier_init.release.cluster;
  barrier.cluster.arrive.relaxed.aligned;
  barrier.cluster.wait.aligned;
  mov.u32 %r7, 0;
  mov.u32 %r8, 0;
ROUND:
  shl.b32 %r9, %r7, 2;
  add.u32 %r10, %r6, %r9;
  mad.lo.u32 %r11, %r7, 10, %r1;
  @%p1 st.shared::cluster.u32 [%r10], %r11;
  barrier.cluster.arrive;
  barrier.cluster.wait;
  add.u32 %r12, %r5, %r9;
  ld.shared.u32 %r13, [%r12];
  add.u32 %r8, %r8, %r13;
  add.u32 %r7, %r7, 1;
  setp.lt.u32 %p2, %r7, 3;
  @%p2 bra ROUND;
  mul.wide.u32 %rd2, %r3, 4;
  add.s64 %rd2, %rd1, %rd2;
  @%p1 st.global.u32 [%rd2], %r8;
  barrier.cluster.arrive;
  barrier.cluster.wait;
""",
)


@pytest.mark.parametrize("size", [2, 4])
def test_cluster_barrier_rounds_carry_dsmem_writes(size: int) -> None:
    grid = 2 * size
    out = np.zeros(grid, dtype=np.uint32)
    report = run(CLUSTER_ROUNDS, [out], grid=grid, block=64, cluster=size)
    for cta in range(grid):
        previous = (cta % size - 1) % size
        assert out[cta] == sum(r * 10 + previous for r in range(3))
    assert report.barrier_waits == 5 * grid * 64


def test_cluster_barrier_wait_without_arrive_is_an_error() -> None:
    source = kernel("  barrier.cluster.wait;\n")
    with pytest.raises(SimulationError) as raised:
        run(source, [None], grid=2, block=32, cluster=2)
    assert "without arriving" in raised.value.message
    assert raised.value.line == line_of(source, "barrier.cluster.wait")


def test_exited_threads_release_the_cluster_barrier() -> None:
    source = kernel(
        PRELUDE
        + """\
  mov.u32 %r1, %cluster_ctarank;
  setp.eq.u32 %p1, %r1, 1;
  @%p1 exit;
  barrier.cluster.arrive;
  barrier.cluster.wait;
  st.global.u32 [%rd3], 5;
""",
    )
    out = np.zeros(32, dtype=np.uint32)
    run(source, [out], grid=2, block=32, cluster=2)
    assert (out == 5).all()


def test_threads_that_arrive_and_exit_do_not_complete_the_phase_early() -> None:
    # Warp 0 of rank 0 arrives and waits; rank 1 arrives and exits; warp 1 of rank 0,
    # whose code comes last, writes and arrives only then. The phase must wait for it.
    source = kernel(
        PRELUDE
        + """\
  .shared .align 4 .b32 cell;
  mov.u32 %r1, %cluster_ctarank;
  setp.eq.u32 %p1, %r1, 1;
  @%p1 bra EXITER;
  setp.eq.u32 %p2, %r30, 0;
  @%p2 bra FIRST;
  bra.uni LAST;
FIRST:
  barrier.cluster.arrive;
  barrier.cluster.wait;
  ld.shared.u32 %r2, [cell];
  st.global.u32 [%rd3], %r2;
  bra.uni DONE;
EXITER:
  barrier.cluster.arrive;
  exit;
LAST:
  st.shared.u32 [cell], 11;
  barrier.cluster.arrive;
  barrier.cluster.wait;
DONE:
""",
    )
    out = np.zeros(32, dtype=np.uint32)
    report = run(source, [out], grid=2, block=64, cluster=2, check=False)
    assert report.hazards == []
    assert (out == 11).all()


# -- mbarriers -------------------------------------------------------------------------------------


MBARRIER_STATES = kernel(
    """\
  .shared .align 8 .b64 bar;
  ld.param.u64 %rd1, [out];
  // Phase 0 expects 3 arrivals: one, then a count of 2.
  mbarrier.init.shared::cta.b64 [bar], 3;
  mbarrier.arrive.shared::cta.b64 %rd2, [bar];
  mbarrier.pending_count.b64 %r1, %rd2;
  mbarrier.test_wait.shared::cta.b64 %p1, [bar], %rd2;
  mbarrier.arrive.noComplete.shared::cta.b64 %rd3, [bar], 1;
  mbarrier.pending_count.b64 %r2, %rd3;
  mbarrier.test_wait.parity.shared::cta.b64 %p2, [bar], 0;
  mbarrier.arrive.release.cta.shared::cta.b64 %rd4, [bar], 1;
  mbarrier.test_wait.shared::cta.b64 %p3, [bar], %rd2;
  mbarrier.test_wait.parity.shared::cta.b64 %p4, [bar], 0;
  mbarrier.test_wait.parity.shared::cta.b64 %p5, [bar], 1;
  // Phase 1: an arrive_drop leaves 2 expected arrivals for phase 2 on.
  mbarrier.arrive_drop.shared::cta.b64 %rd5, [bar];
  mbarrier.try_wait.parity.shared::cta.b64 %p6, [bar], 1;
  mbarrier.arrive.shared::cta.b64 %rd6, [bar], 2;
  mbarrier.try_wait.shared::cta.b64 %p7, [bar], %rd5;
  mbarrier.arrive.shared::cta.b64 %rd7, [bar], 2;
  mbarrier.try_wait.parity.shared::cta.b64 %p8, [bar], 0;
  mbarrier.inval.shared::cta.b64 [bar];
  mbarrier.init.shared::cta.b64 [bar], 1;
  mbarrier.test_wait.parity.shared::cta.b64 %p9, [bar], 0;
  st.global.v2.u32 [%rd1], {%r1, %r2};
  selp.u32 %r3, 1, 0, %p1;
  selp.u32 %r4, 2, 0, %p2;
  or.b32 %r3, %r3, %r4;
  selp.u32 %r4, 4, 0, %p3;
  or.b32 %r3, %r3, %r4;
  selp.u32 %r4, 8, 0, %p4;
  or.b32 %r3, %r3, %r4;
  selp.u32 %r4, 16, 0, %p5;
  or.b32 %r3, %r3, %r4;
  selp.u32 %r4, 32, 0, %p6;
  or.b32 %r3, %r3, %r4;
  selp.u32 %r4, 64, 0, %p7;
  or.b32 %r3, %r3, %r4;
  selp.u32 %r4, 128, 0, %p8;
  or.b32 %r3, %r3, %r4;
  selp.u32 %r4, 256, 0, %p9;
  or.b32 %r3, %r3, %r4;
  st.global.u32 [%rd1+8], %r3;
  // Phases, as the tokens carry them.
  mbarrier.pending_count.b64 %r5, %rd6;
  st.global.u32 [%rd1+12], %r5;
""",
)


def test_mbarrier_phases_counts_drops_and_waits() -> None:
    out = np.zeros(4, dtype=np.uint32)
    run(MBARRIER_STATES, [out], block=1)
    # pending_count reads the count a state captured, before its own arrival.
    assert out[0] == 3
    assert out[1] == 2
    flags = int(out[2])
    assert not flags & 1  # phase 0 is still open after one arrival
    assert not flags & 2
    assert flags & 4  # ... and complete after three
    assert flags & 8  # parity 0: phase 0 is done
    assert not flags & 16  # parity 1: phase 1 is not
    assert not flags & 32  # the drop alone does not complete phase 1 (it needs 3)
    assert flags & 64  # arrivals of 1 + 2 do
    assert flags & 128  # phase 2 needs only 2 after the drop
    assert not flags & 256  # a new init starts at phase 0 again
    assert out[3] == 2  # phase 2's state, captured before its count-2 arrival


def test_mbarrier_tx_count_may_go_negative_and_back() -> None:
    # complete_tx before expect_tx: the tx-count is -64, the phase must not complete while
    # it is not zero, even with every arrival in.
    source = kernel(
        """\
  .shared .align 8 .b64 bar;
  ld.param.u64 %rd1, [out];
  mbarrier.init.shared::cta.b64 [bar], 2;
  mbarrier.complete_tx.relaxed.cta.shared::cta.b64 [bar], 64;
  mbarrier.arrive.shared::cta.b64 %rd2, [bar];
  mbarrier.arrive.shared::cta.b64 %rd3, [bar];
  mbarrier.test_wait.shared::cta.b64 %p1, [bar], %rd2;
  mbarrier.expect_tx.relaxed.cta.shared::cta.b64 [bar], 32;
  mbarrier.test_wait.shared::cta.b64 %p2, [bar], %rd2;
  mbarrier.expect_tx.relaxed.cta.shared::cta.b64 [bar], 32;
  mbarrier.test_wait.shared::cta.b64 %p3, [bar], %rd2;
  selp.u32 %r1, 1, 0, %p1;
  selp.u32 %r2, 2, 0, %p2;
  selp.u32 %r3, 4, 0, %p3;
  or.b32 %r1, %r1, %r2;
  or.b32 %r1, %r1, %r3;
  st.global.u32 [%rd1], %r1;
""",
    )
    out = np.zeros(1, dtype=np.uint32)
    run(source, [out], block=1)
    assert out[0] == 4


def test_mbarrier_tx_count_out_of_range_is_flagged() -> None:
    source = kernel(
        """\
  .shared .align 8 .b64 bar;
  mbarrier.init.shared::cta.b64 [bar], 1;
  mbarrier.expect_tx.relaxed.cta.shared::cta.b64 [bar], 1048575;
  mbarrier.expect_tx.relaxed.cta.shared::cta.b64 [bar], 1;
""",
    )
    with pytest.raises(HazardError) as raised:
        run(source, [None], block=1)
    hazards = raised.value.hazards
    assert [h.kind for h in hazards] == [HazardKind.MBARRIER_TX_RANGE]
    assert hazards[0].line == line_of(source, "shared::cta.b64 [bar], 1;", 2)


def test_using_an_invalidated_mbarrier_is_flagged() -> None:
    source = kernel(
        """\
  .shared .align 8 .b64 bar;
  mbarrier.init.shared::cta.b64 [bar], 1;
  mbarrier.inval.shared::cta.b64 [bar];
  mbarrier.arrive.shared::cta.b64 %rd1, [bar];
""",
    )
    with pytest.raises(HazardError) as raised:
        run(source, [None], block=1)
    assert [h.kind for h in raised.value.hazards] == [HazardKind.MBARRIER_UNINITIALIZED]
    assert raised.value.hazards[0].line == line_of(source, "mbarrier.arrive")


WAIT_SETUP = (
    PRELUDE
    + """\
  .shared .align 8 .b64 bar;
  .shared .align 4 .b32 cells[32];
  setp.eq.u32 %p1, %r0, 0;
  @%p1 mbarrier.init.shared::cta.b64 [bar], 32;
  bar.sync 0;
  shl.b32 %r1, %r31, 2;
  mov.u32 %r2, cells;
  add.u32 %r2, %r2, %r1;
"""
)
# The consumer polls phase 0 with test_wait, lets the producer go on with a named
# barrier, then waits for phase 1 in a try_wait retry loop.
WAIT_CONSUMER = """\
CONSUMER:
POLL:
  mbarrier.test_wait.parity.shared::cta.b64 %p3, [bar], 0;
  @!%p3 bra POLL;
  ld.shared.u32 %r3, [%r2];
  bar.arrive 1, 64;
RETRY:
  mbarrier.try_wait.parity.shared::cta.b64 %p4, [bar], 1, 1000;
  @!%p4 bra RETRY;
  ld.shared.u32 %r4, [%r2];
  add.u32 %r3, %r3, %r4;
  st.global.u32 [%rd3], %r3;
  bra.uni DONE;
"""
WAIT_PRODUCER = """\
PRODUCER:
  add.u32 %r5, %r31, 7;
  st.shared.u32 [%r2], %r5;
  mbarrier.arrive.shared::cta.b64 %rd4, [bar];
  bar.sync 1, 64;
  mul.lo.u32 %r6, %r31, 100;
  st.shared.u32 [%r2], %r6;
  mbarrier.arrive.shared::cta.b64 %rd5, [bar];
  bra.uni DONE;
"""


@pytest.mark.parametrize("producer", [0, 1])
@pytest.mark.parametrize("producer_first", [True, False])
def test_polling_and_retry_loops_end(producer: int, producer_first: bool) -> None:
    roles = [WAIT_PRODUCER, WAIT_CONSUMER]
    if not producer_first:
        roles.reverse()
    source = kernel(
        WAIT_SETUP
        + f"  setp.eq.u32 %p2, %r30, {producer};\n  @%p2 bra PRODUCER;\n  bra.uni CONSUMER;\n"
        + "".join(roles)
        + "DONE:\n"
    )
    out = np.zeros(64, dtype=np.uint32)
    run(source, [out], block=64)
    consumer = 1 - producer
    lanes = np.arange(32)
    assert list(out[32 * consumer : 32 * consumer + 32]) == list(
        lanes + 7 + lanes * 100
    )


def test_try_wait_for_a_phase_that_never_comes_is_a_deadlock() -> None:
    source = kernel(
        """\
  .shared .align 8 .b64 bar;
  mbarrier.init.shared::cta.b64 [bar], 2;
  mbarrier.arrive.shared::cta.b64 %rd1, [bar];
WAIT:
  mbarrier.try_wait.shared::cta.b64 %p1, [bar], %rd1;
  @!%p1 bra WAIT;
""",
    )
    with pytest.raises(SimulationError) as raised:
        run(source, [None], block=1)
    assert raised.value.message.startswith("deadlock: threads 0 of CTA (0, 0, 0)")
    assert "a phase of the mbarrier at shared[0x0]" in raised.value.message


def test_remote_arrive_on_a_peer_ctas_mbarrier() -> None:
    # CTA rank 1 writes into rank 0's shared memory and arrives on rank 0's mbarrier with
    # release at cluster scope; rank 0 waits with acquire at cluster scope and reads.
    source = kernel(
        PRELUDE
        + """\
  .shared .align 8 .b64 bar;
  .shared .align 4 .b32 cell;
  mov.u32 %r1, %cluster_ctarank;
  mbarrier.init.shared::cta.b64 [bar], 1;
  fence.mbarrier_init.release.cluster;
  barrier.cluster.arrive.relaxed;
  barrier.cluster.wait;
  setp.eq.u32 %p1, %r1, 0;
  @%p1 bra WAIT;
  mov.u32 %r2, cell;
  mapa.shared::cluster.u32 %r3, %r2, 0;
  st.shared::cluster.u32 [%r3], 42;
  mov.u32 %r4, bar;
  mapa.shared::cluster.u32 %r5, %r4, 0;
  mbarrier.arrive.release.cluster.shared::cluster.b64 _, [%r5];
  bra.uni DONE;
WAIT:
  mbarrier.try_wait.parity.acquire.cluster.shared::cta.b64 %p2, [bar], 0;
  @!%p2 bra WAIT;
  ld.shared.u32 %r6, [cell];
  st.global.u32 [%rd1], %r6;
DONE:
  barrier.cluster.arrive;
  barrier.cluster.wait;
""",
    )
    out = np.zeros(1, dtype=np.uint32)
    run(source, [out], grid=2, block=1, cluster=2)
    assert out[0] == 42


# -- cp.async -----------------------------------------------------------------------------------


CP_ASYNC = kernel(
    PRELUDE
    + """\
  .shared .align 16 .b8 tile[2048];
  ld.param.u64 %rd4, [src];
  mul.wide.u32 %rd5, %r0, 16;
  add.s64 %rd6, %rd4, %rd5;
  mov.u32 %r1, tile;
  shl.b32 %r2, %r0, 4;
  add.u32 %r3, %r1, %r2;
  setp.eq.u32 %p1, %r31, 3;
  // Group 1: 16 bytes each (the last eight zero-filled for lane 3's src-size of 8).
  selp.u32 %r4, 8, 16, %p1;
  cp.async.cg.shared.global [%r3], [%rd6], 16, %r4;
  cp.async.commit_group;
  // Group 2: 4 + 8 bytes, and a copy whose source is ignored (zero-filled).
  cp.async.ca.shared.global [%r3+512], [%rd6+512], 4;
  cp.async.ca.shared.global [%r3+520], [%rd6+520], 8;
  setp.eq.u32 %p2, %r31, 5;
  cp.async.ca.shared.global [%r3+1024], [%rd6+1024], 16, %p2;
  cp.async.commit_group;
  cp.async.wait_group 1;
  ld.shared.v4.u32 {%r5, %r6, %r7, %r8}, [%r3];
  cp.async.wait_all;
  ld.shared.u32 %r9, [%r3+512];
  ld.shared.u64 %rd7, [%r3+520];
  ld.shared.v4.u32 {%r10, %r11, %r12, %r13}, [%r3+1024];
  mul.wide.u32 %rd8, %r0, 64;
  add.s64 %rd8, %rd1, %rd8;
  st.global.v4.u32 [%rd8], {%r5, %r6, %r7, %r8};
  st.global.u32 [%rd8+16], %r9;
  st.global.u64 [%rd8+24], %rd7;
  st.global.v4.u32 [%rd8+32], {%r10, %r11, %r12, %r13};
""",
    params=".param .u64 out, .param .u64 src",
)


def test_cp_async_groups_sizes_and_zero_fill() -> None:
    threads = 32
    src = np.arange(2048, dtype=np.uint8)
    src = (src * 7 + 3).astype(np.uint8)
    out = np.zeros(threads * 64, dtype=np.uint8)
    run(CP_ASYNC, [out, src], block=threads)
    for t in range(threads):
        got = out[64 * t : 64 * t + 64]
        first = src[16 * t : 16 * t + 16].copy()
        if t == 3:
            first[8:] = 0
        assert (got[0:16] == first).all(), t
        assert (got[16:20] == src[512 + 16 * t : 516 + 16 * t]).all()
        assert (got[24:32] == src[520 + 16 * t : 528 + 16 * t]).all()
        third = src[1024 + 16 * t : 1040 + 16 * t]
        assert (got[32:48] == (0 if t == 5 else third)).all()


CP_ASYNC_MBARRIER = kernel(
    PRELUDE
    + """\
  .shared .align 8 .b64 bar;
  .shared .align 16 .b8 tile[512];
  ld.param.u64 %rd4, [src];
  setp.eq.u32 %p1, %r0, 0;
  @%p1 mbarrier.init.shared::cta.b64 [bar], {count};
  bar.sync 0;
  mul.wide.u32 %rd5, %r0, 16;
  add.s64 %rd6, %rd4, %rd5;
  mov.u32 %r1, tile;
  shl.b32 %r2, %r0, 4;
  add.u32 %r3, %r1, %r2;
  cp.async.ca.shared.global [%r3], [%rd6], 16;
  {arrive}
WAIT:
  mbarrier.try_wait.parity.shared::cta.b64 %p2, [bar], 0;
  @!%p2 bra WAIT;
  // Read another thread's copy.
  xor.b32 %r4, %r0, 31;
  shl.b32 %r4, %r4, 4;
  add.u32 %r4, %r1, %r4;
  ld.shared.u32 %r5, [%r4];
  st.global.u32 [%rd3], %r5;
""",
    params=".param .u64 out, .param .u64 src",
)


@pytest.mark.parametrize(
    ("count", "arrive"),
    [
        ("32", "cp.async.mbarrier.arrive.noinc.shared::cta.b64 [bar];"),
        (
            "32",
            "cp.async.mbarrier.arrive.shared::cta.b64 [bar];\n"
            "  mbarrier.arrive.shared::cta.b64 %rd7, [bar];",
        ),
    ],
    ids=["noinc", "inc"],
)
def test_cp_async_mbarrier_arrive_orders_the_copies(count: str, arrive: str) -> None:
    source = CP_ASYNC_MBARRIER.replace("{count}", count).replace("{arrive}", arrive)
    src = np.arange(128, dtype=np.uint32) * 3 + 1
    out = np.zeros(32, dtype=np.uint32)
    report = run(source, [out, src], block=32)
    assert list(out) == [int(src[4 * (t ^ 31)]) for t in range(32)]
    assert report.hazards == []


# -- bulk copies ------------------------------------------------------------------------------------


BULK = kernel(
    """\
  .shared .align 128 .b8 tile[256];
  .shared .align 8 .b64 bar;
  ld.param.u64 %rd1, [out];
  ld.param.u64 %rd2, [src];
  mov.u32 %r0, %tid.x;
  mov.u32 %r1, %cluster_ctarank;
  mov.u32 %r2, %ctaid.x;
  setp.eq.u32 %p1, %r0, 0;
  @%p1 mbarrier.init.shared::cta.b64 [bar], 1;
  fence.mbarrier_init.release.cluster;
  barrier.cluster.arrive.relaxed;
  barrier.cluster.wait;
  setp.eq.u32 %p2, %r1, 0;
  and.pred %p3, %p1, %p2;
  // Every CTA expects 256 bytes: 128 of its own and 128 multicast by rank 0.
  @%p1 mbarrier.arrive.expect_tx.shared::cta.b64 %rd3, [bar], 256;
  mul.wide.u32 %rd4, %r2, 128;
  add.s64 %rd5, %rd2, %rd4;
  @%p1 cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [tile], [%rd5], 128, [bar];
  mov.u16 %h1, {mask};
  @%p3 cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes.multicast::cluster [tile+128], [%rd2+1024], 128, [bar], %h1;
WAIT:
  mbarrier.try_wait.parity.shared::cta.b64 %p4, [bar], 0;
  @!%p4 bra WAIT;
  // Write both halves back out through the async proxy: shared -> global, bulk group.
  mul.wide.u32 %rd6, %r2, 256;
  add.s64 %rd7, %rd1, %rd6;
  @%p1 cp.async.bulk.global.shared::cta.bulk_group [%rd7], [tile], 256;
  @%p1 cp.async.bulk.commit_group;
  @%p1 cp.async.bulk.wait_group 0;
  barrier.cluster.arrive;
  barrier.cluster.wait;
""",
    params=".param .u64 out, .param .u64 src",
)


def test_bulk_copies_with_multicast_and_bulk_groups() -> None:
    grid = 4
    src = (np.arange(1152, dtype=np.uint32) * 5 % 251).astype(np.uint8)
    out = np.zeros(256 * grid, dtype=np.uint8)
    run(BULK.replace("{mask}", "3"), [out, src], grid=grid, block=32, cluster=2)
    for cta in range(grid):
        got = out[256 * cta : 256 * cta + 256]
        assert (got[:128] == src[128 * cta : 128 * cta + 128]).all()
        assert (got[128:] == src[1024:1152]).all()


def test_bulk_copy_size_must_be_a_multiple_of_16() -> None:
    source = kernel(
        """\
  .shared .align 128 .b8 tile[256];
  .shared .align 8 .b64 bar;
  ld.param.u64 %rd1, [out];
  mbarrier.init.shared::cta.b64 [bar], 1;
  mov.u32 %r1, 24;
  cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [tile], [%rd1], %r1, [bar];
""",
    )
    with pytest.raises(SimulationError) as raised:
        run(source, [np.zeros(64, dtype=np.uint8)], block=1)
    assert "not a multiple of 16" in raised.value.message
    assert raised.value.line == line_of(source, "cp.async.bulk")


def test_bulk_copy_between_the_shared_memories_of_a_cluster() -> None:
    source = kernel(
        """\
  .shared .align 128 .b8 tile[128];
  .shared .align 8 .b64 bar;
  ld.param.u64 %rd1, [out];
  mov.u32 %r1, %cluster_ctarank;
  mov.u32 %r2, %tid.x;
  shl.b32 %r3, %r2, 2;
  mov.u32 %r4, tile;
  add.u32 %r4, %r4, %r3;
  mad.lo.u32 %r5, %r1, 1000, %r2;
  st.shared.u32 [%r4], %r5;
  setp.eq.u32 %p1, %r2, 0;
  @%p1 mbarrier.init.shared::cta.b64 [bar], 1;
  fence.proxy.async.shared::cta;
  fence.mbarrier_init.release.cluster;
  barrier.cluster.arrive;
  barrier.cluster.wait;
  // Rank 0 expects 128 bytes, which rank 1 pushes from its tile into rank 0's.
  setp.eq.u32 %p2, %r1, 0;
  and.pred %p3, %p1, %p2;
  @%p3 mbarrier.arrive.expect_tx.shared::cta.b64 %rd2, [bar], 128;
  not.pred %p4, %p2;
  and.pred %p4, %p4, %p1;
  mov.u32 %r6, tile;
  mapa.shared::cluster.u32 %r7, %r6, 0;
  mov.u32 %r8, bar;
  mapa.shared::cluster.u32 %r9, %r8, 0;
  @%p4 cp.async.bulk.shared::cluster.shared::cta.mbarrier::complete_tx::bytes [%r7], [tile], 128, [%r9];
  @!%p2 bra DONE;
WAIT:
  mbarrier.try_wait.parity.shared::cta.b64 %p5, [bar], 0;
  @!%p5 bra WAIT;
  ld.shared.u32 %r10, [%r4];
  mul.wide.u32 %rd3, %r2, 4;
  add.s64 %rd3, %rd1, %rd3;
  st.global.u32 [%rd3], %r10;
DONE:
  barrier.cluster.arrive;
  barrier.cluster.wait;
""",
    )
    out = np.zeros(32, dtype=np.uint32)
    run(source, [out], grid=2, block=32, cluster=2)
    assert list(out) == [1000 + t for t in range(32)]


def test_spinning_on_a_flag_nobody_sets_is_a_livelock() -> None:
    # Warp 1 spins on a flag that warp 0 never sets (it waits at a barrier that warp 1
    # would reach only after the flag): the spin would never end.
    source = kernel(
        PRELUDE
        + """\
  setp.eq.u32 %p1, %r30, 0;
  @%p1 bra WAITER;
SPIN:
  ld.volatile.global.u32 %r1, [%rd1];
  setp.eq.u32 %p2, %r1, 0;
  @%p2 bra SPIN;
  bar.sync 1, 64;
  bra.uni DONE;
WAITER:
  bar.sync 1, 64;
  st.volatile.global.u32 [%rd1], 1;
DONE:
""",
    )
    with pytest.raises(SimulationError) as raised:
        run(source, [np.zeros(1, dtype=np.uint32)], block=64)
    message = raised.value.message
    assert message.startswith("livelock: threads 32-63 of CTA (0, 0, 0)")
    assert raised.value.line == line_of(source, "ld.volatile.global.u32")


def test_a_loop_of_loads_that_changes_nothing_still_ends() -> None:
    # Reading the same word over and over looks like spinning, but the loop counts down:
    # the thread steps aside, and runs on when it is all that is left.
    source = kernel(
        PRELUDE
        + """\
  mov.u32 %r1, 50;
  mov.u32 %r2, 0;
LOOP:
  ld.volatile.global.u32 %r3, [%rd1+4];
  add.u32 %r2, %r2, %r3;
  sub.u32 %r1, %r1, 1;
  setp.ne.u32 %p1, %r1, 0;
  @%p1 bra LOOP;
  st.global.u32 [%rd1], %r2;
""",
    )
    out = np.array([0, 3], dtype=np.uint32)
    run(source, [out], block=1)
    assert out[0] == 150


LAST_BLOCK = kernel(
    PRELUDE
    + """\
  .shared .align 4 .b32 last;
  ld.param.u64 %rd4, [partial];
  ld.param.u64 %rd5, [count];
  mov.u32 %r1, %ctaid.x;
  mov.u32 %r2, %nctaid.x;
  mad.lo.u32 %r3, %r1, 32, %r0;
  mul.wide.u32 %rd6, %r3, 4;
  add.s64 %rd6, %rd4, %rd6;
  mad.lo.u32 %r4, %r1, 1000, %r0;
  st.global.u32 [%rd6], %r4;
  bar.sync 0;
  setp.eq.u32 %p1, %r0, 0;
  @!%p1 bra WAIT;
  {fence}
  sub.u32 %r5, %r2, 1;
  atom.global.inc.u32 %r6, [%rd5], %r5;
  setp.eq.u32 %p2, %r6, %r5;
  selp.u32 %r7, 1, 0, %p2;
  st.shared.u32 [last], %r7;
WAIT:
  bar.sync 0;
  ld.shared.u32 %r8, [last];
  setp.eq.u32 %p3, %r8, 0;
  @%p3 bra DONE;
  // The last CTA sums column %tid.x of every CTA's partials.
  mov.u32 %r9, 0;
  mov.u32 %r10, 0;
SUM:
  mad.lo.u32 %r11, %r9, 32, %r0;
  mul.wide.u32 %rd7, %r11, 4;
  add.s64 %rd7, %rd4, %rd7;
  ld.global.u32 %r12, [%rd7];
  add.u32 %r10, %r10, %r12;
  add.u32 %r9, %r9, 1;
  setp.lt.u32 %p4, %r9, %r2;
  @%p4 bra SUM;
  st.global.u32 [%rd3], %r10;
DONE:
""",
    params=".param .u64 out, .param .u64 partial, .param .u64 count",
)


@pytest.mark.parametrize("fenced", [True, False])
def test_the_last_cta_reduction_needs_its_fence(fenced: bool) -> None:
    # CUDA's threadFenceReduction: each CTA writes its partials, its thread 0 fences and
    # counts it in with a relaxed atomic; the CTA that counts last reads them all.
    source = LAST_BLOCK.replace("{fence}", "membar.gl;" if fenced else "")
    ctas = 4
    out = np.zeros(32, dtype=np.uint32)
    partial = np.zeros(32 * ctas, dtype=np.uint32)
    count = np.zeros(1, dtype=np.uint32)
    report = run(source, [out, partial, count], grid=ctas, block=32, check=False)
    assert list(out) == [sum(c * 1000 + t for c in range(ctas)) for t in range(32)]
    if fenced:
        assert report.hazards == []
    else:
        assert {h.kind for h in report.hazards} == {HazardKind.RACE}
        lines = {(h.line, h.other.line if h.other else None) for h in report.hazards}
        assert (
            line_of(source, "ld.global.u32 %r12"),
            line_of(source, "st.global.u32 [%rd6]"),
        ) in lines


@pytest.mark.parametrize("fenced", [True, False])
def test_bulk_copy_out_of_shared_memory_needs_a_proxy_fence(fenced: bool) -> None:
    source = kernel(
        PRELUDE
        + f"""\
  .shared .align 128 .b32 tile[32];
  mov.u32 %r1, tile;
  shl.b32 %r2, %r31, 2;
  add.u32 %r1, %r1, %r2;
  st.shared.u32 [%r1], %r0;
  {"fence.proxy.async.shared::cta;" if fenced else ""}
  bar.sync 0;
  setp.eq.u32 %p1, %r0, 0;
  @%p1 cp.async.bulk.global.shared::cta.bulk_group [%rd1], [tile], 128;
  @%p1 cp.async.bulk.commit_group;
  @%p1 cp.async.bulk.wait_group 0;
""",
    )
    out = np.zeros(32, dtype=np.uint32)
    report = run(source, [out], block=32, check=False)
    assert list(out) == list(range(32))
    if fenced:
        assert report.hazards == []
    else:
        assert {h.kind for h in report.hazards} == {HazardKind.PROXY_FENCE}
        hazard = report.hazards[0]
        assert hazard.line == line_of(source, "cp.async.bulk.global")
        assert hazard.other is not None
        assert hazard.other.line == line_of(source, "st.shared.u32")


# -- the checker: each synchronisation, with it (clean) and without it (a race) ---------------------


@dataclass(frozen=True)
class Pair:
    """A producer and a consumer role (warps 0 and 1, or CTAs of rank 0 and 1).

    `setup` runs in every thread first. In the role code, lines marked `!` are the
    synchronisation (dropped from the racy twin) and lines marked `~` replace them in the
    racy twin. The code sees %r20 = &cells[lane] in shared memory, %r21 = lane * 7 + 1
    (what the producer writes), %r31 = lane, %rd1 = out and %rd3 = &out[lane]; when
    synchronised, the consumer leaves what it read in out[0:32].
    """

    name: str
    setup: str
    producer: str
    consumer: str
    racy: tuple[str, str]
    """The lines of the two racing accesses (consumer's, producer's) as text."""
    block: int = 64
    grid: int = 1
    cluster: int | None = None
    by_cta: bool = False
    """The roles are CTAs (rank 0 / 1 of the grid, or of the cluster), not warps."""
    finish: str = ""
    params: str = ".param .u64 out"
    arrays: Callable[[], list[np.ndarray]] | None = None
    written: bool = False
    """The producer's values land in the first extra array instead (a bulk copy out)."""


COMMON = """\
  ld.param.u64 %rd1, [out];
  mov.u32 %r0, %tid.x;
  shr.u32 %r30, %r0, 5;
  and.b32 %r31, %r0, 31;
  mov.u32 %r29, %ctaid.x;
  mov.u32 %r20, cells;
  shl.b32 %r22, %r31, 2;
  add.u32 %r20, %r20, %r22;
  mad.lo.u32 %r21, %r31, 7, 1;
  mul.wide.u32 %rd2, %r31, 4;
  add.s64 %rd3, %rd1, %rd2;
"""


def _pair_source(
    pair: Pair, *, synced: bool, producer_role: int, producer_first: bool
) -> str:
    # The role register: the cluster rank, the CTA or the warp.
    role = "%r28" if pair.cluster is not None else "%r29" if pair.by_cta else "%r30"
    blocks = [("PRODUCER", pair.producer), ("CONSUMER", pair.consumer)]
    if not producer_first:
        blocks.reverse()
    body = SHARED_CELLS + COMMON + "  mov.u32 %r28, %cluster_ctarank;\n" + pair.setup
    body += f"  setp.gt.u32 %p14, {role}, 1;\n  @%p14 bra DONE;\n"
    body += f"  setp.eq.u32 %p15, {role}, {producer_role};\n"
    body += "  @%p15 bra PRODUCER;\n  bra.uni CONSUMER;\n"
    for label, code in blocks:
        body += f"{label}:\n{_strip_marks(code, synced)}\n  bra.uni DONE;\n"
    body += "DONE:\n" + pair.finish
    return kernel(body, params=pair.params)


def _strip_marks(code: str, synced: bool) -> str:
    """Lines starting `!` are the synchronisation: kept when synced, dropped otherwise;
    lines starting `~` are their unsynchronised replacement."""
    lines: list[str] = []
    for line in code.splitlines():
        stripped = line.strip()
        if stripped.startswith("!"):
            if synced:
                lines.append("  " + stripped[1:].strip())
        elif stripped.startswith("~"):
            if not synced:
                lines.append("  " + stripped[1:].strip())
        else:
            lines.append(line)
    return "\n".join(lines)


SHARED_CELLS = "  .shared .align 128 .b32 cells[64];\n  .shared .align 8 .b64 bar;\n"
CONSUME = """\
  ld.shared.u32 %r23, [%r20];
  st.global.u32 [%rd3], %r23;
"""

PAIRS = [
    Pair(
        "bar.sync",
        "",
        producer="  st.shared.u32 [%r20], %r21;\n  !bar.sync 0;",
        consumer="  !bar.sync 0;\n" + CONSUME,
        racy=("ld.shared.u32", "st.shared.u32"),
    ),
    Pair(
        "named barrier with a count",
        "",
        # The synchronised producer arrives after its store, the racy one before it.
        producer="  ~bar.arrive 1, 64;\n  st.shared.u32 [%r20], %r21;\n  !bar.arrive 1, 64;",
        consumer="  bar.sync 1, 64;\n" + CONSUME,
        racy=("ld.shared.u32", "st.shared.u32"),
        block=96,
        finish="  setp.eq.u32 %p14, %r30, 2;\n  @%p14 bar.sync 2, 32;\n",
    ),
    Pair(
        "mbarrier arrive and wait",
        ""
        + "  setp.eq.u32 %p13, %r0, 0;\n"
        + "  @%p13 mbarrier.init.shared::cta.b64 [bar], 32;\n  bar.sync 0;\n",
        producer=(
            "  ~mbarrier.arrive.shared::cta.b64 %rd4, [bar];\n"
            "  st.shared.u32 [%r20], %r21;\n"
            "  !mbarrier.arrive.shared::cta.b64 %rd4, [bar];"
        ),
        consumer=(
            "WAIT:\n  mbarrier.try_wait.parity.shared::cta.b64 %p12, [bar], 0;\n"
            "  @!%p12 bra WAIT;\n" + CONSUME
        ),
        racy=("ld.shared.u32", "st.shared.u32"),
    ),
    Pair(
        "mbarrier expect_tx and complete_tx without TMA",
        # complete_tx is relaxed: a release fence before it makes the stores visible to
        # whoever sees the phase complete; without the fence they race.
        ""
        + "  setp.eq.u32 %p13, %r0, 0;\n"
        + "  @%p13 mbarrier.init.shared::cta.b64 [bar], 1;\n  bar.sync 0;\n",
        producer=(
            "  st.shared.u32 [%r20], %r21;\n"
            "  !fence.acq_rel.cta;\n"
            "  mbarrier.complete_tx.relaxed.cta.shared::cta.b64 [bar], 4;\n"
            "  setp.eq.u32 %p11, %r31, 0;\n"
            "  @%p11 mbarrier.expect_tx.relaxed.cta.shared::cta.b64 [bar], 128;\n"
            "  @%p11 mbarrier.arrive.relaxed.cta.shared::cta.b64 %rd4, [bar];"
        ),
        consumer=(
            "WAIT:\n  mbarrier.try_wait.parity.shared::cta.b64 %p12, [bar], 0;\n"
            "  @!%p12 bra WAIT;\n" + CONSUME
        ),
        racy=("ld.shared.u32", "st.shared.u32"),
    ),
    Pair(
        "cluster barrier with DSMEM",
        ""
        + "  mov.u32 %r24, cells;\n  add.u32 %r24, %r24, %r22;\n"
        + "  mapa.shared::cluster.u32 %r25, %r24, 0;\n  mapa.shared::cluster.u32 %r26, %r24, 1;\n",
        # The producer writes into the consumer CTA's cells; a relaxed arrive does not
        # order that write before the consumer's wait.
        producer=(
            "  setp.eq.u32 %p11, %r28, 0;\n  selp.u32 %r27, %r26, %r25, %p11;\n"
            "  st.shared::cluster.u32 [%r27], %r21;\n"
            "  !barrier.cluster.arrive;\n  ~barrier.cluster.arrive.relaxed;\n"
            "  barrier.cluster.wait;"
        ),
        consumer="  barrier.cluster.arrive;\n  barrier.cluster.wait;\n" + CONSUME,
        racy=("ld.shared.u32", "st.shared::cluster.u32"),
        block=32,
        grid=2,
        cluster=2,
        finish="  barrier.cluster.arrive;\n  barrier.cluster.wait;\n",
    ),
    Pair(
        "cp.async wait_group",
        # The producer warp copies two groups; with `wait_group 1` the first is complete,
        # with `wait_group 2` it may not be.
        "  ld.param.u64 %rd5, [src];\n  add.s64 %rd6, %rd5, %rd2;\n",
        producer=(
            "  cp.async.ca.shared.global [%r20], [%rd6], 4;\n"
            "  cp.async.commit_group;\n"
            "  cp.async.ca.shared.global [%r20+128], [%rd6+128], 4;\n"
            "  cp.async.commit_group;\n"
            "  !cp.async.wait_group 1;\n  ~cp.async.wait_group 2;\n"
            "  bar.sync 1, 64;\n  cp.async.wait_all;"
        ),
        consumer="  bar.sync 1, 64;\n" + CONSUME,
        racy=("ld.shared.u32", "cp.async.ca.shared.global [%r20], [%rd6], 4;"),
        params=".param .u64 out, .param .u64 src",
        arrays=lambda: [np.arange(64, dtype=np.uint32) * 7 + 1],
    ),
    Pair(
        "bulk-group read wait before the source is overwritten",
        "  ld.param.u64 %rd5, [dst];\n",
        producer=(
            "  st.shared.u32 [%r20], %r21;\n"
            "  fence.proxy.async.shared::cta;\n"
            "  bar.warp.sync -1;\n"
            "  setp.eq.u32 %p11, %r31, 0;\n"
            "  @%p11 cp.async.bulk.global.shared::cta.bulk_group [%rd5], [cells], 128;\n"
            "  @%p11 cp.async.bulk.commit_group;\n"
            "  !@%p11 cp.async.bulk.wait_group.read 0;\n"
            "  bar.sync 1, 64;\n"
            "  @%p11 cp.async.bulk.wait_group 0;"
        ),
        # The consumer overwrites the source once the producer says it may.
        consumer="  bar.sync 1, 64;\n  st.shared.u32 [%r20], 0;\n",
        racy=("st.shared.u32 [%r20], 0;", "cp.async.bulk.global.shared::cta"),
        params=".param .u64 out, .param .u64 dst",
        arrays=lambda: [np.zeros(32, dtype=np.uint32)],
        written=True,
    ),
    Pair(
        "bulk-group wait before the destination is read",
        "  ld.param.u64 %rd5, [dst];\n",
        producer=(
            "  st.shared.u32 [%r20], %r21;\n"
            "  fence.proxy.async.shared::cta;\n"
            "  bar.warp.sync -1;\n"
            "  setp.eq.u32 %p11, %r31, 0;\n"
            "  @%p11 cp.async.bulk.global.shared::cta.bulk_group [%rd5], [cells], 128;\n"
            "  @%p11 cp.async.bulk.commit_group;\n"
            "  !@%p11 cp.async.bulk.wait_group 0;\n"
            "  ~@%p11 cp.async.bulk.wait_group.read 0;\n"
            "  bar.sync 1, 64;\n"
            "  @%p11 cp.async.bulk.wait_group 0;"
        ),
        consumer=(
            "  bar.sync 1, 64;\n"
            "  mul.wide.u32 %rd6, %r31, 4;\n  add.s64 %rd6, %rd5, %rd6;\n"
            "  ld.global.u32 %r23, [%rd6];\n  st.global.u32 [%rd3], %r23;\n"
        ),
        racy=("ld.global.u32 %r23, [%rd6];", "cp.async.bulk.global.shared::cta"),
        params=".param .u64 out, .param .u64 dst",
        arrays=lambda: [np.zeros(32, dtype=np.uint32)],
    ),
    Pair(
        "release and acquire through a global flag",
        "  ld.param.u64 %rd5, [flag];\n",
        producer=(
            "  st.global.u32 [%rd3+128], %r21;\n"
            "  bar.warp.sync -1;\n"
            "  setp.eq.u32 %p11, %r31, 0;\n"
            "  !@%p11 st.release.gpu.global.u32 [%rd5], 1;\n"
            "  ~@%p11 st.relaxed.gpu.global.u32 [%rd5], 1;"
        ),
        consumer=(
            "SPIN:\n"
            "  !ld.acquire.gpu.global.u32 %r23, [%rd5];\n"
            "  ~ld.relaxed.gpu.global.u32 %r23, [%rd5];\n"
            "  setp.eq.u32 %p12, %r23, 0;\n  @%p12 bra SPIN;\n"
            "  ld.global.u32 %r23, [%rd3+128];\n  st.global.u32 [%rd3], %r23;\n"
        ),
        racy=("ld.global.u32 %r23, [%rd3+128];", "st.global.u32 [%rd3+128], %r21;"),
        params=".param .u64 out, .param .u64 flag",
        arrays=lambda: [np.zeros(1, dtype=np.uint32)],
    ),
    Pair(
        "fences around relaxed atomics on a global flag",
        "  ld.param.u64 %rd5, [flag];\n",
        producer=(
            "  st.global.u32 [%rd3+128], %r21;\n"
            "  !fence.acq_rel.gpu;\n"
            "  atom.global.add.u32 %r24, [%rd5], 1;"
        ),
        consumer=(
            "SPIN:\n"
            "  atom.global.or.b32 %r23, [%rd5], 0;\n"
            "  setp.lt.u32 %p12, %r23, 32;\n  @%p12 bra SPIN;\n"
            "  !fence.acq_rel.gpu;\n"
            "  ld.global.u32 %r23, [%rd3+128];\n  st.global.u32 [%rd3], %r23;\n"
        ),
        racy=("ld.global.u32 %r23, [%rd3+128];", "st.global.u32 [%rd3+128], %r21;"),
        params=".param .u64 out, .param .u64 flag",
        arrays=lambda: [np.zeros(1, dtype=np.uint32)],
    ),
    Pair(
        "two CTAs through global memory with an acq_rel atomic",
        "  ld.param.u64 %rd5, [flag];\n",
        producer=(
            "  st.global.u32 [%rd3+128], %r21;\n"
            "  bar.sync 0;\n"
            "  setp.eq.u32 %p11, %r31, 0;\n"
            "  !@%p11 atom.acq_rel.gpu.global.exch.b32 %r24, [%rd5], 1;\n"
            "  ~@%p11 atom.relaxed.gpu.global.exch.b32 %r24, [%rd5], 1;"
        ),
        consumer=(
            "SPIN:\n"
            "  !atom.acq_rel.gpu.global.or.b32 %r23, [%rd5], 0;\n"
            "  ~atom.relaxed.gpu.global.or.b32 %r23, [%rd5], 0;\n"
            "  setp.eq.u32 %p12, %r23, 0;\n  @%p12 bra SPIN;\n"
            "  ld.global.u32 %r23, [%rd3+128];\n  st.global.u32 [%rd3], %r23;\n"
        ),
        racy=("ld.global.u32 %r23, [%rd3+128];", "st.global.u32 [%rd3+128], %r21;"),
        block=32,
        grid=2,
        by_cta=True,
        params=".param .u64 out, .param .u64 flag",
        arrays=lambda: [np.zeros(1, dtype=np.uint32)],
    ),
]

ORDERS = [(role, first) for role in (0, 1) for first in (True, False)]


def _launch_pair(pair: Pair, synced: bool, role: int, first: bool):
    source = _pair_source(pair, synced=synced, producer_role=role, producer_first=first)
    words = 64
    out = np.zeros(words * max(pair.grid, 1), dtype=np.uint32)
    arrays = pair.arrays() if pair.arrays is not None else []
    report = run(
        source,
        [out, *arrays],
        grid=pair.grid,
        block=pair.block,
        cluster=pair.cluster,
        check=False,
    )
    return source, report, arrays[0] if pair.written else out


@pytest.mark.parametrize("pair", PAIRS, ids=[p.name for p in PAIRS])
@pytest.mark.parametrize(
    ("role", "first"), ORDERS, ids=[f"role{r}-{'pf' if f else 'cf'}" for r, f in ORDERS]
)
def test_synchronised_pair_is_clean(pair: Pair, role: int, first: bool) -> None:
    _, report, out = _launch_pair(pair, True, role, first)
    assert report.hazards == [], [str(h) for h in report.hazards]
    assert list(out[:32]) == [lane * 7 + 1 for lane in range(32)]


@pytest.mark.parametrize("pair", PAIRS, ids=[p.name for p in PAIRS])
@pytest.mark.parametrize(
    ("role", "first"), ORDERS, ids=[f"role{r}-{'pf' if f else 'cf'}" for r, f in ORDERS]
)
def test_unsynchronised_pair_races(pair: Pair, role: int, first: bool) -> None:
    source, report, _ = _launch_pair(pair, False, role, first)
    kinds = {h.kind for h in report.hazards}
    assert kinds == {HazardKind.RACE}, [str(h) for h in report.hazards]
    lines = {line_of(source, pair.racy[0]), line_of(source, pair.racy[1])}
    assert any(
        {h.line, h.other.line if h.other else None} == lines for h in report.hazards
    ), [str(h) for h in report.hazards]
