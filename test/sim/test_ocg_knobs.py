"""OCG knobs on the simulator: `.pragma` directives are hints to ptxas's scheduler, not
instructions, so a kernel carrying them computes exactly what it computes without them
(issue 20). ptxas 13.5 itself ignores them, with an "unsupported" warning."""

from __future__ import annotations

from itertools import pairwise
from pathlib import Path

import numpy as np
from ptx_kit import kernel, run

from tileas_py import api
from tileas_py.hw.ocg_knobs import (
    BUSY_XU64,
    FENCE_CODE,
    is_fence_code_anchor,
    pragma_asm,
)
from tileas_py.sim import launch

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"
FENCE_CODE_LINE = pragma_asm(FENCE_CODE).strip()

EXCHANGE = """\
  ld.param.u64 %rd1, [out];
  mov.u32 %r0, %tid.x;
  mul.wide.u32 %rd2, %r0, 4;
  add.s64 %rd3, %rd1, %rd2;
  .pragma "{busy}";
  .shared .align 4 .b32 cells[128];
  .shared .align 8 .b64 bar;
  mov.u32 %r1, cells;
  shl.b32 %r2, %r0, 2;
  add.u32 %r3, %r1, %r2;
  add.u32 %r4, %r0, 1;
  and.b32 %r4, %r4, 127;
  shl.b32 %r4, %r4, 2;
  add.u32 %r4, %r1, %r4;
  setp.eq.u32 %p2, %r0, 0;
  {fence}
  @%p2 mbarrier.init.shared::cta.b64 [bar], 128;
  {fence}
  bar.sync 0;
  mov.u32 %r5, 0;
  mov.u32 %r6, 0;
  {fence}
ROUND:
  mad.lo.u32 %r7, %r5, 1000, %r0;
  st.shared.u32 [%r3], %r7;
  {fence}
  barrier.sync 0;
  ld.shared.u32 %r8, [%r4];
  add.u32 %r6, %r6, %r8;
  {fence}
  bar.sync 0, 128;
  add.u32 %r5, %r5, 1;
  setp.lt.u32 %p1, %r5, 4;
  {fence}
  @%p1 bra ROUND;
  {fence}
  mbarrier.arrive.shared::cta.b64 _, [bar];
  st.global.u32 [%rd3], %r6;
"""
"""Four rounds of exchanges between neighbours over bar.sync, then an arrive; the
pragmas (when given) stand before the barriers, a label, a branch and the arrive."""


def _exchange(pragmas: bool) -> str:
    fence = FENCE_CODE_LINE if pragmas else ""
    busy = BUSY_XU64 if pragmas else "nounroll"
    return kernel(EXCHANGE.format(fence=fence, busy=busy))


def test_a_kernel_with_knobs_runs_as_without_them() -> None:
    with_knobs = _exchange(pragmas=True)
    assert with_knobs.count(FENCE_CODE_LINE) == 7
    out = np.zeros(128, dtype=np.uint32)
    plain_out = np.zeros(128, dtype=np.uint32)
    report = run(with_knobs, [out], block=128)
    plain = run(_exchange(pragmas=False), [plain_out], block=128)
    neighbour = (np.arange(128) + 1) % 128
    assert list(out) == [sum(r * 1000 + int(n) for r in range(4)) for n in neighbour]
    assert np.array_equal(out, plain_out)
    assert report.barrier_waits == plain.barrier_waits == 9 * 128
    assert report.hazards == plain.hazards == []


def test_the_sm100_example_runs_exactly_with_its_knobs() -> None:
    """The knobs' example at 256^3 (2x4 CTAs of 128x64 tiles of C, two K steps of 128):
    its PTX carries the global knob and a FenceCode right before the arrive or
    `tcgen05.commit` of each of its six producer commits and consumer releases, and C is
    exact."""
    text = (EXAMPLES / "ocg_knobs_sm100a.mlir").read_text()
    module = api.parse_mlir(text.replace("4096", "256"), "ocg_knobs_sm100a.mlir")
    rng = np.random.default_rng(0)
    a = rng.integers(-128, 128, size=(256, 256)).astype(np.int8)
    b = rng.integers(-128, 128, size=(256, 256)).astype(np.int8)
    c = np.zeros((256, 256), dtype=np.int32)
    report = launch(module, "gemm", (2, 4), 256, [a, b, c])
    assert report.hazards == []
    assert np.array_equal(c, a.astype(np.int64) @ b.astype(np.int64))
    assert report.ptx.count(BUSY_XU64) == 1
    lines = [line.strip() for line in report.ptx.splitlines()]
    after = [b for a, b in pairwise(lines) if a == FENCE_CODE_LINE]
    assert len(after) == 6
    assert all(is_fence_code_anchor(_mnemonic(i)) for i in after), after


def _mnemonic(instruction: str) -> str:
    words = instruction.split()
    return words[1] if words[0].startswith("@") else words[0]
