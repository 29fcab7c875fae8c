"""Loads, stores and atomics in every state space, run on the simulator.

Each kernel is assembled by the real ptxas first (`ptx_kit.run`); what it should compute is
worked out here in numpy or plain Python, never copied from a run.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any

import numpy as np
import pytest
from ptx_kit import kernel, line_of, run

from tileas_py.sim import SimulationError

rng = np.random.default_rng(13)

# %rd1 = out, %r0 = %tid.x, %rd3 = &out[tid] for 4-byte elements.
PRELUDE = """\
  ld.param.u64 %rd1, [out];
  cvta.to.global.u64 %rd1, %rd1;
  mov.u32 %r0, %tid.x;
  mul.wide.u32 %rd2, %r0, 4;
  add.s64 %rd3, %rd1, %rd2;
"""


# -- widths and sign extension ---------------------------------------------------------------


WIDTHS = kernel(
    """\
  ld.param.u64 %rd1, [out];
  ld.param.u64 %rd2, [src];
  ld.global.u8 %rd3, [%rd2+1];
  st.global.u64 [%rd1], %rd3;
  ld.global.s8 %rd3, [%rd2+1];
  st.global.u64 [%rd1+8], %rd3;
  ld.global.u16 %rd3, [%rd2+2];
  st.global.u64 [%rd1+16], %rd3;
  ld.global.s16 %rd3, [%rd2+2];
  st.global.u64 [%rd1+24], %rd3;
  ld.global.u32 %rd3, [%rd2+4];
  st.global.u64 [%rd1+32], %rd3;
  ld.global.s32 %rd3, [%rd2+4];
  st.global.u64 [%rd1+40], %rd3;
  ld.global.u64 %rd3, [%rd2+8];
  st.global.u64 [%rd1+48], %rd3;
  ld.global.b8 %rd3, [%rd2+1];
  st.global.u64 [%rd1+56], %rd3;
  ld.global.s8 %r1, [%rd2+1];
  cvt.u64.u32 %rd3, %r1;
  st.global.u64 [%rd1+64], %rd3;
  ld.global.s8 %h1, [%rd2+1];
  cvt.u64.u16 %rd3, %h1;
  st.global.u64 [%rd1+72], %rd3;
  ld.global.s16 %r1, [%rd2+2];
  cvt.u64.u32 %rd3, %r1;
  st.global.u64 [%rd1+80], %rd3;
  ld.global.f64 %fd1, [%rd2+8];
  st.global.f64 [%rd1+88], %fd1;
  ld.global.f32 %f1, [%rd2+4];
  st.global.f32 [%rd1+96], %f1;
  ld.global.u64 %rd3, [%rd2+8];
  st.global.u8 [%rd1+104], %rd3;
  st.global.u16 [%rd1+112], %rd3;
  st.global.u32 [%rd1+120], %rd3;
  ld.global.s8 %rd3, [%rd2+3];
  st.global.u64 [%rd1+128], %rd3;
""",
    params=".param .u64 out, .param .u64 src",
)


def test_every_width_and_sign_extension() -> None:
    src = np.array(
        [0x11, 0x85, 0x34, 0xF2, 0x78, 0x56, 0x34, 0xC2, *range(0xF1, 0xF9)],
        dtype=np.uint8,
    )
    out = np.zeros(17, dtype=np.uint64)
    run(WIDTHS, [out, src], block=1)

    def view(start: int, dtype: Any) -> int:
        return int(src[start:].view(dtype)[0])

    mask = (1 << 64) - 1
    assert out[0] == 0x85
    assert out[1] == (view(1, np.int8) & mask)
    assert out[1] == 0xFFFF_FFFF_FFFF_FF85
    assert out[2] == view(2, np.uint16)
    assert out[3] == (view(2, np.int16) & mask)
    assert out[4] == view(4, np.uint32)
    assert out[5] == (view(4, np.int32) & mask)
    assert out[6] == view(8, np.uint64)
    assert out[7] == 0x85
    assert out[8] == 0xFFFF_FF85
    assert out[9] == 0xFF85
    assert out[10] == (view(2, np.int16) & 0xFFFF_FFFF)
    assert out[11].view(np.float64) == src[8:16].view(np.float64)[0]
    assert np.uint64(out[12]).tobytes()[:4] == src[4:8].tobytes()
    assert out[13] == src[8]
    assert out[14] == view(8, np.uint16)
    assert out[15] == view(8, np.uint32)
    assert out[16] == (view(3, np.int8) & mask)


# -- vectors --------------------------------------------------------------------------------


VECTORS = kernel(
    PRELUDE
    + """\
  ld.param.u64 %rd4, [src];
  mul.wide.u32 %rd5, %r0, 64;
  add.s64 %rd6, %rd4, %rd5;
  add.s64 %rd7, %rd1, %rd5;
  ld.global.v4.u32 {%r1, %r2, %r3, %r4}, [%rd6];
  st.global.v4.u32 [%rd7], {%r4, %r3, %r2, %r1};
  ld.global.v2.u64 {%rd8, %rd9}, [%rd6+16];
  st.global.v2.u64 [%rd7+16], {%rd9, %rd8};
  ld.global.v4.u16 {%h1, %h2, %h3, %h4}, [%rd6+32];
  st.global.v4.u16 [%rd7+32], {%h4, %h3, %h2, %h1};
  ld.global.v4.u8 {%r5, %r6, %r7, %r8}, [%rd6+40];
  st.global.v4.u8 [%rd7+40], {%r8, %r7, %r6, %r5};
  ld.global.v2.u16 {%h5, %h6}, [%rd6+44];
  st.global.v2.u16 [%rd7+44], {%h6, %h5};
  ld.global.v2.f32 {%f1, %f2}, [%rd6+48];
  st.global.v2.f32 [%rd7+48], {%f2, %f1};
  ld.global.v2.u8 {%h7, %h8}, [%rd6+56];
  st.global.v2.u8 [%rd7+56], {%h8, %h7};
  ld.global.v2.s8 {%r9, %r10}, [%rd6+58];
  st.global.v2.u16 [%rd7+60], {%r10, %r9};
  st.global.u16 [%rd7+58], %r0;
""",
    params=".param .u64 out, .param .u64 src",
)


def test_vector_loads_and_stores() -> None:
    threads = 8
    src = rng.integers(0, 256, size=64 * threads, dtype=np.uint8)
    out = np.zeros_like(src)
    run(VECTORS, [out, src], block=threads)
    for t in range(threads):
        row = src[64 * t : 64 * (t + 1)]
        got = out[64 * t : 64 * (t + 1)]

        def reversed_elements(start: int, count: int, dtype: Any, r: Any = row) -> Any:
            elements = r[start : start + count * np.dtype(dtype).itemsize].view(dtype)
            return np.ascontiguousarray(elements[::-1]).view(np.uint8)

        assert (got[0:16] == reversed_elements(0, 4, np.uint32)).all()
        assert (got[16:32] == reversed_elements(16, 2, np.uint64)).all()
        assert (got[32:40] == reversed_elements(32, 4, np.uint16)).all()
        assert (got[40:44] == row[40:44][::-1]).all()
        assert (got[44:48] == reversed_elements(44, 2, np.uint16)).all()
        assert (got[48:56] == reversed_elements(48, 2, np.uint32)).all()
        assert (got[56:58] == row[56:58][::-1]).all()
        # Two sign-extended bytes, stored back as 16-bit halves, swapped.
        signed = np.ascontiguousarray(row[58:60].view(np.int8).astype(np.int16)[::-1])
        assert (got[60:64] == signed.view(np.uint8)).all()
        assert got[58:60].view(np.uint16)[0] == t


def test_misaligned_vector_is_located() -> None:
    source = kernel(
        PRELUDE
        + """\
  ld.global.v2.u32 {%r1, %r2}, [%rd1+4];
""",
    )
    with pytest.raises(SimulationError) as raised:
        run(source, [np.zeros(4, dtype=np.uint32)], block=1)
    assert raised.value.line == line_of(source, "ld.global.v2.u32")
    assert "misaligned 8-byte access" in raised.value.message


# -- state spaces ---------------------------------------------------------------------------------


SHARED = kernel(
    PRELUDE
    + """\
  .shared .align 16 .b8 buffer[512];
  mov.u32 %r1, buffer;
  shl.b32 %r2, %r0, 2;
  add.u32 %r3, %r1, %r2;
  mad.lo.u32 %r4, %r0, 3, 1;
  st.shared.u32 [%r3], %r4;
  bar.sync 0;
  sub.u32 %r5, 127, %r0;
  shl.b32 %r5, %r5, 2;
  add.u32 %r5, %r1, %r5;
  ld.shared::cta.u32 %r6, [%r5];
  bar.sync 0;
  cvta.shared.u64 %rd4, buffer;
  cvt.u64.u32 %rd5, %r2;
  add.s64 %rd4, %rd4, %rd5;
  add.u32 %r6, %r6, 1000;
  st.u32 [%rd4], %r6;
  bar.sync 0;
  ld.shared.v4.u32 {%r7, %r8, %r9, %r10}, [buffer+16];
  ld.u32 %r11, [%rd4];
  add.u32 %r11, %r11, %r7;
  add.u32 %r11, %r11, %r10;
  st.global.u32 [%rd3], %r11;
""",
)


def test_shared_memory_by_shared_and_generic_addresses() -> None:
    out = np.zeros(128, dtype=np.uint32)
    run(SHARED, [out], block=128)
    first = np.array([3 * t + 1 for t in range(128)], dtype=np.uint32)
    second = first[::-1] + 1000
    expected = second + second[4] + second[7]
    assert (out == expected).all()


LOCAL = kernel(
    PRELUDE
    + """\
  .local .align 16 .b8 frame[64];
  mov.u32 %r1, 0;
FILL:
  shl.b32 %r2, %r1, 2;
  cvt.u64.u32 %rd4, %r2;
  mov.u64 %rd5, frame;
  add.s64 %rd5, %rd5, %rd4;
  mad.lo.u32 %r3, %r0, 100, %r1;
  st.local.u32 [%rd5], %r3;
  add.u32 %r1, %r1, 1;
  setp.lt.u32 %p1, %r1, 16;
  @%p1 bra FILL;
  and.b32 %r4, %r0, 15;
  shl.b32 %r4, %r4, 2;
  cvt.u64.u32 %rd6, %r4;
  mov.u64 %rd7, frame;
  cvta.local.u64 %rd7, %rd7;
  add.s64 %rd7, %rd7, %rd6;
  ld.u32 %r5, [%rd7];
  ld.local.v4.u32 {%r6, %r7, %r8, %r9}, [frame+48];
  add.u32 %r5, %r5, %r9;
  isspacep.local %p2, %rd7;
  selp.u32 %r10, 1, 0, %p2;
  shl.b32 %r10, %r10, 30;
  or.b32 %r5, %r5, %r10;
  st.global.u32 [%rd3], %r5;
""",
)


def test_local_memory_is_per_thread() -> None:
    out = np.zeros(64, dtype=np.uint32)
    run(LOCAL, [out], block=64)
    tids = np.arange(64, dtype=np.uint32)
    expected = (tids * 100 + tids % 16) + (tids * 100 + 15) + (1 << 30)
    assert (out == expected).all()


ODD_SIZES = kernel(
    """\
  .shared .align 8 .b64 wide;
  .shared .align 4 .b32 narrow;
  .local .align 8 .b8 frame[12];
  ld.param.u64 %rd1, [out];
  mov.u32 %r0, %tid.x;
  mov.u32 %r1, %ctaid.x;
  mad.lo.u32 %r2, %r1, 32, %r0;
  cvt.u64.u32 %rd2, %r2;
  shl.b64 %rd3, %rd2, 40;
  or.b64 %rd3, %rd3, %rd2;
  setp.eq.u32 %p1, %r0, 0;
  @%p1 st.shared.u64 [wide], %rd3;
  @%p1 st.shared.u32 [narrow], %r2;
  st.local.u64 [frame], %rd3;
  st.local.u32 [frame+8], %r2;
  bar.sync 0;
  ld.shared.u64 %rd4, [wide];
  ld.shared.u32 %r3, [narrow];
  ld.local.u64 %rd5, [frame];
  ld.local.u32 %r4, [frame+8];
  mov.u32 %r5, %ntid.x;
  mad.lo.u32 %r5, %r1, %r5, %r0;
  mul.wide.u32 %rd6, %r5, 24;
  add.s64 %rd6, %rd1, %rd6;
  st.global.u64 [%rd6], %rd4;
  st.global.u64 [%rd6+8], %rd5;
  st.global.v2.u32 [%rd6+16], {%r3, %r4};
""",
)


def test_spaces_of_a_size_that_is_not_a_multiple_of_the_access() -> None:
    # 12 bytes of shared memory per CTA and of local memory per thread: the second CTA's
    # and thread's 8-byte words sit at 12, 24, ... in the simulator's flat arrays.
    ctas, threads = 3, 4
    out = np.zeros((ctas * threads, 3), dtype=np.uint64)
    run(ODD_SIZES, [out], grid=ctas, block=threads)
    for cta in range(ctas):
        for t in range(threads):
            linear = cta * 32 + t
            first = cta * 32
            row = out[cta * threads + t]
            assert row[0] == (first << 40) | first
            assert row[1] == (linear << 40) | linear
            assert list(row[2:3].view(np.uint32)) == [first, linear]


PARAMS = kernel(
    """\
  ld.param.u64 %rd1, [out];
  ld.param.s8 %r1, [a];
  st.global.u32 [%rd1], %r1;
  ld.param.u8 %r1, [a];
  st.global.u32 [%rd1+4], %r1;
  ld.param.u16 %r2, [b];
  st.global.u32 [%rd1+8], %r2;
  ld.param.s16 %r2, [b];
  st.global.u32 [%rd1+12], %r2;
  ld.param.u32 %r3, [c];
  st.global.u32 [%rd1+16], %r3;
  ld.param.f64 %fd1, [d];
  st.global.f64 [%rd1+24], %fd1;
  ld.param.u64 %rd2, [e];
  st.global.u64 [%rd1+32], %rd2;
  mov.u64 %rd3, c;
  cvta.param.u64 %rd4, %rd3;
  ld.u32 %r4, [%rd4];
  st.global.u32 [%rd1+40], %r4;
  isspacep.param %p1, %rd4;
  isspacep.global %p2, %rd4;
  selp.u32 %r5, 1, 0, %p1;
  selp.u32 %r6, 2, 0, %p2;
  or.b32 %r5, %r5, %r6;
  st.global.u32 [%rd1+44], %r5;
""",
    params=(
        ".param .u64 out, .param .s8 a, .param .u16 b, .param .u32 c, "
        ".param .f64 d, .param .u64 e"
    ),
)


def test_kernel_parameters_of_every_width() -> None:
    out = np.zeros(6, dtype=np.uint64)
    run(PARAMS, [out, -3, 0xFFF0, 0xDEADBEEF, -2.5, 0x1234_5678_9ABC_DEF0], block=1)
    words = out.view(np.uint32)
    assert words[0] == 0xFFFF_FFFD
    assert words[1] == 0xFD
    assert words[2] == 0xFFF0
    assert words[3] == 0xFFFF_FFF0
    assert words[4] == 0xDEADBEEF
    assert out[3].view(np.float64) == -2.5
    assert out[4] == 0x1234_5678_9ABC_DEF0
    assert words[10] == 0xDEADBEEF
    assert words[11] == 1


CONST = kernel(
    PRELUDE
    + """\
  and.b32 %r1, %r0, 3;
  shl.b32 %r1, %r1, 2;
  mov.u32 %r2, table;
  add.u32 %r2, %r2, %r1;
  ld.const.u32 %r3, [%r2];
  mov.u64 %rd4, table;
  cvta.const.u64 %rd4, %rd4;
  ld.u16 %r4, [%rd4+16];
  add.u32 %r3, %r3, %r4;
  isspacep.const %p1, %rd4;
  selp.u32 %r5, 100000, 0, %p1;
  add.u32 %r3, %r3, %r5;
  st.global.u32 [%rd3], %r3;
""",
    decls=".const .align 4 .u32 table[5] = {10, 20, 30, 40, 65539};",
)


def test_constant_memory_with_an_initializer() -> None:
    out = np.zeros(8, dtype=np.uint32)
    run(CONST, [out], block=8)
    table = [10, 20, 30, 40]
    assert list(out) == [table[t % 4] + (65539 & 0xFFFF) + 100000 for t in range(8)]


def test_stores_to_constant_memory_are_located_errors() -> None:
    # ptxas rejects `st.const`, so write through a generic address.
    source = kernel(
        PRELUDE
        + """\
  mov.u64 %rd4, table;
  cvta.const.u64 %rd4, %rd4;
  st.u32 [%rd4], %r0;
""",
        decls=".const .align 4 .u32 table[1];",
    )
    with pytest.raises(SimulationError) as raised:
        run(source, [np.zeros(1, dtype=np.uint32)], block=1)
    assert raised.value.line == line_of(source, "st.u32")
    assert "read-only" in raised.value.message


GENERIC = kernel(
    PRELUDE
    + """\
  .shared .align 4 .b8 cell[4];
  cvta.to.global.u64 %rd4, %rd3;
  cvta.global.u64 %rd5, %rd4;
  isspacep.global %p1, %rd5;
  isspacep.shared %p2, %rd5;
  mov.u64 %rd6, cell;
  cvta.shared.u64 %rd6, %rd6;
  isspacep.shared %p3, %rd6;
  isspacep.global %p4, %rd6;
  isspacep.shared::cta %p5, %rd6;
  isspacep.local %p6, %rd6;
  cvta.to.shared.u64 %rd7, %rd6;
  cvt.u32.u64 %r1, %rd7;
  mov.u32 %r2, cell;
  setp.eq.u32 %p7, %r1, %r2;
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
  st.u32 [%rd5], %r3;
""",
)


def test_generic_addresses_and_isspacep() -> None:
    out = np.zeros(1, dtype=np.uint32)
    run(GENERIC, [out], block=1)
    assert out[0] == 1 | 4 | 16 | 64


# -- clusters: mapa, getctarank, DSMEM --------------------------------------------------------------


DSMEM = kernel(
    """\
  .shared .align 8 .b8 mine[16];
  ld.param.u64 %rd1, [out];
  mov.u32 %r0, %tid.x;
  mov.u32 %r1, %cluster_ctarank;
  mov.u32 %r2, %cluster_nctarank;
  mov.u32 %r3, %ctaid.x;
  setp.ne.u32 %p1, %r0, 0;
  @%p1 bra WAIT;
  mad.lo.u32 %r4, %r1, 10, 1;
  st.shared.u32 [mine], %r4;
  // Write my rank into slot 1 of the next CTA's buffer.
  add.u32 %r5, %r1, 1;
  rem.u32 %r5, %r5, %r2;
  mov.u32 %r6, mine;
  mapa.shared::cluster.u32 %r7, %r6, %r5;
  st.shared::cluster.u32 [%r7+4], %r1;
WAIT:
  barrier.cluster.arrive;
  barrier.cluster.wait;
  @%p1 bra DONE;
  // Read the previous CTA's slot 0, through a shared::cluster and a generic address.
  add.u32 %r8, %r1, %r2;
  sub.u32 %r8, %r8, 1;
  rem.u32 %r8, %r8, %r2;
  mapa.shared::cluster.u32 %r9, %r6, %r8;
  ld.shared::cluster.u32 %r10, [%r9];
  getctarank.shared::cluster.u32 %r11, %r9;
  cvta.shared.u64 %rd2, mine;
  mapa.u64 %rd3, %rd2, %r8;
  ld.u32 %r12, [%rd3];
  getctarank.u64 %r13, %rd3;
  ld.shared.u32 %r14, [mine+4];
  isspacep.shared::cluster %p2, %rd3;
  isspacep.shared::cta %p3, %rd3;
  isspacep.shared::cta %p4, %rd2;
  isspacep.shared %p5, %rd3;
  selp.u32 %r15, 1, 0, %p2;
  selp.u32 %r16, 2, 0, %p3;
  or.b32 %r15, %r15, %r16;
  selp.u32 %r16, 4, 0, %p4;
  or.b32 %r15, %r15, %r16;
  selp.u32 %r16, 8, 0, %p5;
  or.b32 %r15, %r15, %r16;
  mul.wide.u32 %rd4, %r3, 32;
  add.s64 %rd4, %rd1, %rd4;
  st.global.v4.u32 [%rd4], {%r1, %r10, %r11, %r12};
  st.global.v4.u32 [%rd4+16], {%r13, %r14, %r15, %r2};
DONE:
  barrier.cluster.arrive;
  barrier.cluster.wait;
""",
)


@pytest.mark.parametrize("size", [2, 4])
def test_dsmem_through_mapa_in_a_cluster(size: int) -> None:
    grid = 2 * size
    out = np.zeros((grid, 8), dtype=np.uint32)
    run(DSMEM, [out], grid=grid, block=64, cluster=size)
    for cta in range(grid):
        rank = cta % size
        previous = (rank - 1) % size
        assert list(out[cta]) == [
            rank,
            previous * 10 + 1,
            previous,
            previous * 10 + 1,
            previous,
            previous,
            # A peer's address is shared::cluster, not shared::cta (= .shared); only the
            # own CTA's is.
            1 | 4,
            size,
        ], cta


def test_mapa_to_a_rank_outside_the_cluster_is_an_error() -> None:
    source = kernel(
        """\
  .shared .align 4 .b8 cell[4];
  mov.u32 %r1, cell;
  mapa.shared::cluster.u32 %r2, %r1, 2;
""",
    )
    with pytest.raises(SimulationError) as raised:
        run(source, [None], grid=2, block=32, cluster=2)
    assert raised.value.line == line_of(source, "mapa")


def test_dsmem_of_a_cta_that_has_exited_is_an_error() -> None:
    # Rank 1 leaves without a final cluster barrier; rank 0 then writes into its shared
    # memory, which no longer exists.
    source = kernel(
        """\
  .shared .align 4 .b8 cell[4];
  mov.u32 %r1, %cluster_ctarank;
  setp.eq.u32 %p1, %r1, 1;
  @%p1 exit;
  mov.u32 %r2, cell;
  mapa.shared::cluster.u32 %r3, %r2, 1;
  st.shared::cluster.u32 [%r3], 5;
""",
    )
    with pytest.raises(SimulationError) as raised:
        run(source, [None], grid=2, block=32, cluster=2)
    assert raised.value.line == line_of(source, "st.shared::cluster")
    assert raised.value.message.startswith(
        "access to the shared memory of CTA (1, 0, 0), whose threads have all exited"
    )


# -- out-of-bounds and misaligned accesses -----------------------------------------------------


@pytest.mark.parametrize(
    ("access", "words"),
    [
        ("ld.global.u32 %r1, [%rd1+16];", "out-of-bounds 4-byte access"),
        ("st.global.u32 [%rd1+2], %r0;", "misaligned 4-byte access"),
        ("ld.global.u64 %rd5, [%rd1+4];", "misaligned 8-byte access"),
        ("ld.shared.u32 %r1, [cell+4];", "out-of-bounds 4-byte access"),
        ("ld.local.u32 %r1, [frame+8];", "out-of-bounds 4-byte access"),
        ("ld.u32 %r1, [%rd6];", "out-of-bounds 4-byte access"),
        ("ld.shared.u16 %r1, [cell+1];", "misaligned 2-byte access"),
    ],
)
def test_bad_accesses_stop_with_a_located_error(access: str, words: str) -> None:
    source = kernel(
        PRELUDE
        + f"""\
  .shared .align 4 .b8 cell[4];
  .local .align 4 .b8 frame[8];
  st.local.u32 [frame], %r0;
  mov.u64 %rd6, 64;
  {access}
  st.global.u32 [%rd3], %r1;
""",
    )
    with pytest.raises(SimulationError) as raised:
        run(source, [np.zeros(4, dtype=np.uint32)], block=4)
    error = raised.value
    assert error.line == line_of(source, access)
    assert words in error.message
    assert "CTA (0, 0, 0)" in error.message


# -- atomics ---------------------------------------------------------------------------------------


def serial_order_exists(
    initial: Any,
    operands: list[Any],
    olds: list[Any],
    final: Any,
    apply: Callable[[Any, Any], Any],
) -> bool:
    """Whether some order of the threads' atomics, applied one at a time from `initial`,
    gives each thread its `old` value and leaves `final`."""

    @functools.cache
    def search(current: Any, remaining: frozenset[int]) -> bool:
        if not remaining:
            return current == final
        return any(
            search(apply(current, operands[i]), remaining - {i})
            for i in remaining
            if olds[i] == current
        )

    return search(initial, frozenset(range(len(operands))))


def _atom_kernel(opcode: str, ctype: str, extra: str = "") -> str:
    # Every thread applies `opcode` to out[0] with its operand src[tid]; its old value goes
    # to olds[tid].
    width = {"b32": 4, "u32": 4, "s32": 4, "f32": 4, "f16x2": 4}.get(ctype, 8)
    reg = "%r" if width == 4 else "%rd"
    return kernel(
        f"""\
  ld.param.u64 %rd1, [out];
  ld.param.u64 %rd2, [src];
  ld.param.u64 %rd3, [olds];
  mov.u32 %r0, %tid.x;
  mul.wide.u32 %rd4, %r0, {width};
  add.s64 %rd5, %rd2, %rd4;
  add.s64 %rd6, %rd3, %rd4;
  ld.global.b{width * 8} {reg}20, [%rd5];
  {opcode} {reg}21, [%rd1], {reg}20{extra};
  st.global.b{width * 8} [%rd6], {reg}21;
""",
        params=".param .u64 out, .param .u64 src, .param .u64 olds",
    )


def _wrap(
    dtype: Any,
) -> Callable[[Callable[[Any, Any], Any]], Callable[[Any, Any], Any]]:
    def wrap(op: Callable[[Any, Any], Any]) -> Callable[[Any, Any], Any]:
        return lambda a, b: dtype.type(op(a, b))

    return wrap


def _inc(bound: int) -> Callable[[Any, Any], Any]:
    return lambda old, b: np.uint32(0 if old >= b else old + 1)


def _dec(old: Any, b: Any) -> Any:
    return np.uint32(b if old == 0 or old > b else old - 1)


U32, S32, U64, S64 = (np.dtype(t) for t in (np.uint32, np.int32, np.uint64, np.int64))

ATOMS: list[tuple[str, str, Any, Any, Any, Callable[[Any, Any], Any]]] = [
    # (opcode, register type, dtype, initial value, operands, serial semantics)
    ("atom.global.add.u32", "u32", U32, 5, 1 << np.arange(32), lambda a, b: a + b),
    (
        "atom.global.add.s32",
        "s32",
        S32,
        -7,
        np.arange(32) - 20,
        lambda a, b: a + b,
    ),
    (
        "atom.global.add.u64",
        "u64",
        U64,
        (1 << 40) - 3,
        (1 << np.arange(32)) << 3,
        lambda a, b: a + b,
    ),
    ("atom.global.and.b32", "b32", U32, 0xFFFFFFFF, None, lambda a, b: a & b),
    ("atom.global.or.b32", "b32", U32, 0, None, lambda a, b: a | b),
    ("atom.global.xor.b32", "b32", U32, 0x0F0F0F0F, None, lambda a, b: a ^ b),
    ("atom.global.and.b64", "b64", U64, (1 << 64) - 1, None, lambda a, b: a & b),
    ("atom.global.or.b64", "b64", U64, 1 << 63, None, lambda a, b: a | b),
    ("atom.global.exch.b32", "b32", U32, 99, np.arange(32) + 1, lambda a, b: b),
    ("atom.global.exch.b64", "b64", U64, 99, np.arange(32) << 40, lambda a, b: b),
    ("atom.global.inc.u32", "u32", U32, 0, np.full(32, 9), _inc(9)),
    ("atom.global.inc.u32", "u32", U32, 12, np.full(32, 9), _inc(9)),
    ("atom.global.dec.u32", "u32", U32, 5, np.full(32, 7), _dec),
    ("atom.global.dec.u32", "u32", U32, 20, np.full(32, 7), _dec),
    ("atom.global.min.s32", "s32", S32, 3, np.arange(32) - 16, min),
    ("atom.global.max.s32", "s32", S32, -100, np.arange(32) - 16, max),
    ("atom.global.min.u32", "u32", U32, 3, np.arange(32) - 16, min),
    ("atom.global.max.u32", "u32", U32, 3, np.arange(32) - 16, max),
    ("atom.global.min.s64", "s64", S64, 0, (np.arange(32) - 16) << 33, min),
    (
        "atom.global.max.u64",
        "u64",
        U64,
        0,
        [(i - 16) << 33 for i in range(32)],
        max,
    ),
    ("atom.shared.add.u32", "u32", U32, 0, np.arange(32) * 3, lambda a, b: a + b),
]


def _as(dtype: np.dtype[Any], values: Any) -> np.ndarray[Any, Any]:
    """Python ints as `dtype`, wrapped to its width (two's complement)."""
    bits = dtype.itemsize * 8
    unsigned = np.uint32 if bits == 32 else np.uint64
    wrapped = [int(v) & ((1 << bits) - 1) for v in values]
    return np.array(wrapped, dtype=unsigned).view(dtype)


def _operands(dtype: np.dtype[Any], given: Any) -> np.ndarray[Any, Any]:
    if given is None:
        return _as(dtype, rng.integers(0, 1 << 62, size=32, dtype=np.int64))
    return _as(dtype, given)


@pytest.mark.parametrize("case", ATOMS, ids=[f"{a[0]}-{a[3]}" for a in ATOMS])
def test_contended_atomics_follow_a_serial_order(
    case: tuple[str, str, Any, Any, Any, Callable[[Any, Any], Any]],
) -> None:
    opcode, ctype, dtype, initial, given, apply = case
    operands = _operands(dtype, given)
    out = _as(dtype, [initial])
    start = out[0]
    olds = np.zeros(32, dtype=dtype)
    if opcode.startswith("atom.shared"):
        source = _shared_atom_kernel(opcode)
    else:
        source = _atom_kernel(opcode, ctype)
    with np.errstate(over="ignore"):
        run(source, [out, operands, olds], block=32)
        assert serial_order_exists(
            start,
            [dtype.type(v) for v in operands],
            [dtype.type(v) for v in olds],
            dtype.type(out[0]),
            _wrap(dtype)(apply),
        )


def _shared_atom_kernel(opcode: str) -> str:
    # The counter starts in global memory, is copied to shared, updated there and copied
    # back.
    return kernel(
        f"""\
  .shared .align 4 .b32 counter;
  ld.param.u64 %rd1, [out];
  ld.param.u64 %rd2, [src];
  ld.param.u64 %rd3, [olds];
  mov.u32 %r0, %tid.x;
  setp.eq.u32 %p1, %r0, 0;
  @%p1 ld.global.u32 %r1, [%rd1];
  @%p1 st.shared.u32 [counter], %r1;
  bar.sync 0;
  mul.wide.u32 %rd4, %r0, 4;
  add.s64 %rd5, %rd2, %rd4;
  add.s64 %rd6, %rd3, %rd4;
  ld.global.u32 %r20, [%rd5];
  {opcode} %r21, [counter], %r20;
  st.global.u32 [%rd6], %r21;
  bar.sync 0;
  @%p1 ld.shared.u32 %r1, [counter];
  @%p1 st.global.u32 [%rd1], %r1;
""",
        params=".param .u64 out, .param .u64 src, .param .u64 olds",
    )


@pytest.mark.parametrize("width", [32, 64])
def test_contended_cas_has_one_winner(width: int) -> None:
    reg = "%r" if width == 32 else "%rd"
    source = kernel(
        f"""\
  ld.param.u64 %rd1, [out];
  ld.param.u64 %rd3, [olds];
  mov.u32 %r0, %tid.x;
  mul.wide.u32 %rd4, %r0, {width // 8};
  add.s64 %rd6, %rd3, %rd4;
  cvt.u64.u32 %rd7, %r0;
  add.u64 %rd7, %rd7, 1;
  cvt.u32.u64 %r7, %rd7;
  atom.global.cas.b{width} {reg}21, [%rd1], 0, {reg}7;
  st.global.b{width} [%rd6], {reg}21;
""",
        params=".param .u64 out, .param .u64 olds",
    )
    dtype = np.uint32 if width == 32 else np.uint64
    out = np.zeros(1, dtype=dtype)
    olds = np.full(32, 12345, dtype=dtype)
    run(source, [out, olds], block=32)
    winners = np.flatnonzero(olds == 0)
    assert winners.size == 1
    winner = int(winners[0])
    assert out[0] == winner + 1
    assert (np.delete(olds, winner) == winner + 1).all()


def test_cas_compares_then_swaps() -> None:
    # Thread t swaps t+1 in where it finds t: in lane order every swap succeeds, in any
    # other order the chain breaks; either way the olds must fit one serial order.
    source = kernel(
        """\
  ld.param.u64 %rd1, [out];
  ld.param.u64 %rd3, [olds];
  mov.u32 %r0, %tid.x;
  mul.wide.u32 %rd4, %r0, 4;
  add.s64 %rd6, %rd3, %rd4;
  add.u32 %r1, %r0, 1;
  atom.global.cas.b32 %r2, [%rd1], %r0, %r1;
  st.global.u32 [%rd6], %r2;
""",
        params=".param .u64 out, .param .u64 olds",
    )
    out = np.zeros(1, dtype=np.uint32)
    olds = np.zeros(8, dtype=np.uint32)
    run(source, [out, olds], block=8)
    assert serial_order_exists(
        0,
        [(t, t + 1) for t in range(8)],
        [int(v) for v in olds],
        int(out[0]),
        lambda old, pair: pair[1] if old == pair[0] else old,
    ), (olds, out)


def test_float_atomics() -> None:
    source = kernel(
        """\
  ld.param.u64 %rd1, [out];
  mov.u32 %r0, %tid.x;
  cvt.rn.f32.u32 %f1, %r0;
  atom.global.add.f32 %f2, [%rd1], %f1;
  cvt.rn.f64.u32 %fd1, %r0;
  atom.global.add.f64 %fd2, [%rd1+8], %fd1;
  // Two halves: +1.0 and +0.5 per thread, as f16.
  mov.b32 %r2, 0x38003c00;
  atom.global.add.noftz.f16x2 %r3, [%rd1+16], %r2;
  mov.b16 %h1, 0x4000;
  atom.global.add.noftz.f16 %h2, [%rd1+20], %h1;
  red.global.add.f32 [%rd1+24], %f1;
  mov.b32 %r4, 0x3f803f80;
  atom.global.add.noftz.bf16x2 %r5, [%rd1+28], %r4;
  atom.global.exch.b32 %r6, [%rd1+32], %r0;
""",
    )
    out = np.zeros(9, dtype=np.uint32)
    run(source, [out], block=32)
    total = sum(range(32))
    assert out[0:1].view(np.float32)[0] == total
    assert out[2:4].view(np.float64)[0] == total
    halves = out[4:5].view(np.float16)
    assert list(halves) == [32.0, 16.0]
    assert out[5:6].view(np.float16)[0] == 64.0
    assert out[6:7].view(np.float32)[0] == total
    bf16 = out[7:8].view(np.uint16).astype(np.uint32) << 16
    assert list(bf16.view(np.float32)) == [32.0, 32.0]
    assert 0 <= out[8] < 32


def test_float_atomic_add_flushes_f32_subnormals() -> None:
    """atom.add.f32 and red.add.f32 flush subnormal inputs and results to zero (PTX ISA);
    atom.add.f64 keeps them."""
    source = kernel(
        """\
  ld.param.u64 %rd1, [out];
  mov.b32 %f1, 0x00000010;
  atom.global.add.f32 %f2, [%rd1], %f1;
  red.global.add.f32 [%rd1+4], %f1;
  mov.b64 %fd1, 0x0000000000000010;
  atom.global.add.f64 %fd2, [%rd1+8], %fd1;
""",
    )
    out = np.zeros(4, dtype=np.uint32)
    out[0] = out[1] = 0x00000020  # a subnormal already in memory
    run(source, [out], block=1)
    assert list(out[0:2]) == [0, 0]
    assert out[2:4].view(np.uint64)[0] == 0x10


REDUCTIONS = kernel(
    PRELUDE
    + """\
  .shared .align 8 .b8 cells[16];
  setp.eq.u32 %p1, %r0, 0;
  @%p1 st.shared.v2.u32 [cells], {%r0, %r0};
  @%p1 st.shared.u64 [cells+8], 0;
  bar.sync 0;
  sub.u32 %r1, %r0, 5;
  red.global.add.u32 [%rd1], %r0;
  red.global.min.s32 [%rd1+4], %r1;
  red.global.max.u32 [%rd1+8], %r1;
  red.shared.add.u32 [cells], %r0;
  red.shared.xor.b32 [cells+4], %r0;
  cvt.u64.u32 %rd5, %r0;
  shl.b64 %rd5, %rd5, 32;
  red.shared.add.u64 [cells+8], %rd5;
  red.global.inc.u32 [%rd1+12], 4;
  bar.sync 0;
  @%p1 ld.shared.v4.u32 {%r2, %r3, %r4, %r5}, [cells];
  @%p1 st.global.v4.u32 [%rd1+16], {%r2, %r3, %r4, %r5};
""",
)


def test_reductions() -> None:
    out = np.zeros(8, dtype=np.uint32)
    out[1] = 1000
    threads = 40
    run(REDUCTIONS, [out], block=threads)
    tids = np.arange(threads)
    assert out[0] == tids.sum()
    assert out[1].view(np.int32) == -5
    assert out[2] == 0xFFFFFFFF  # 0 - 5 as unsigned
    assert out[3] == threads % 5
    assert out[4] == tids.sum()
    assert out[5] == np.bitwise_xor.reduce(tids)
    assert out[6:8].view(np.uint64)[0] == int(tids.sum()) << 32


# -- asynchronous stores into the cluster -----------------------------------------------------------


ASYNC_STORES = kernel(
    """\
  .shared .align 8 .b64 bar;
  .shared .align 8 .b32 cells[34];
  ld.param.u64 %rd1, [out];
  mov.u32 %r0, %cluster_ctarank;
  mov.u32 %r1, %cluster_nctarank;
  mbarrier.init.shared::cta.b64 [bar], 1;
  fence.mbarrier_init.release.cluster;
  barrier.cluster.arrive.relaxed;
  barrier.cluster.wait;
  setp.eq.u32 %p1, %r0, 0;
  @%p1 bra WAIT;
  // Every other rank r stores {r, 10 r} into cells[2r] of rank 0 and adds r to cells[0].
  mov.u32 %r2, cells;
  mapa.shared::cluster.u32 %r3, %r2, 0;
  mov.u32 %r4, bar;
  mapa.shared::cluster.u32 %r5, %r4, 0;
  shl.b32 %r6, %r0, 3;
  add.u32 %r7, %r3, %r6;
  mul.lo.u32 %r8, %r0, 10;
  st.async.shared::cluster.mbarrier::complete_tx::bytes.v2.u32 [%r7], {%r0, %r8}, [%r5];
  red.async.relaxed.cluster.shared::cluster.mbarrier::complete_tx::bytes.add.u32 [%r3], %r0, [%r5];
  bra.uni DONE;
WAIT:
  sub.u32 %r9, %r1, 1;
  mul.lo.u32 %r9, %r9, 12;
  mbarrier.arrive.expect_tx.shared::cta.b64 _, [bar], %r9;
POLL:
  mbarrier.try_wait.parity.shared::cta.b64 %p2, [bar], 0;
  @!%p2 bra POLL;
  mov.u32 %r10, 0;
COPY:
  shl.b32 %r11, %r10, 2;
  mov.u32 %r12, cells;
  add.u32 %r12, %r12, %r11;
  ld.shared.u32 %r13, [%r12];
  cvt.u64.u32 %rd2, %r11;
  add.s64 %rd2, %rd1, %rd2;
  st.global.u32 [%rd2], %r13;
  add.u32 %r10, %r10, 1;
  shl.b32 %r14, %r1, 1;
  setp.lt.u32 %p3, %r10, %r14;
  @%p3 bra COPY;
DONE:
  barrier.cluster.arrive;
  barrier.cluster.wait;
""",
)


@pytest.mark.parametrize("size", [2, 4])
def test_async_stores_and_reductions_into_a_peer_cta(size: int) -> None:
    out = np.zeros(2 * size, dtype=np.uint32)
    report = run(ASYNC_STORES, [out], grid=size, block=1, cluster=size)
    expected = [sum(range(size)), 0]
    for rank in range(1, size):
        expected += [rank, 10 * rank]
    assert list(out) == expected
    assert report.hazards == []


def test_bulk_reductions_from_several_ctas_do_not_race() -> None:
    source = kernel(
        """\
  .shared .align 128 .b32 tile[32];
  ld.param.u64 %rd1, [out];
  mov.u32 %r0, %tid.x;
  mov.u32 %r1, %ctaid.x;
  shl.b32 %r2, %r0, 2;
  mov.u32 %r3, tile;
  add.u32 %r3, %r3, %r2;
  mad.lo.u32 %r4, %r1, 100, %r0;
  st.shared.u32 [%r3], %r4;
  fence.proxy.async.shared::cta;
  bar.sync 0;
  setp.eq.u32 %p1, %r0, 0;
  @%p1 cp.reduce.async.bulk.global.shared::cta.bulk_group.add.u32 [%rd1], [tile], 128;
  @%p1 cp.reduce.async.bulk.global.shared::cta.bulk_group.max.s32 [%rd1+128], [tile], 128;
  @%p1 cp.async.bulk.commit_group;
  @%p1 cp.async.bulk.wait_group 0;
""",
    )
    ctas = 4
    out = np.zeros(64, dtype=np.uint32)
    out[32:] = 150
    report = run(source, [out], grid=ctas, block=32)
    lanes = np.arange(32)
    assert list(out[:32]) == [sum(c * 100 + t for c in range(ctas)) for t in lanes]
    assert list(out[32:]) == [max(150, (ctas - 1) * 100 + t) for t in lanes]
    assert report.hazards == []
