"""Small hand-written PTX kernels for the simulator's layout tests (test_layout_kernels.py).

Each generator returns one `.entry` (without the module header); `module(*entries)` makes
a module of them. The kernels only move bytes and issue the instruction under test, so
what they write out is the layout the simulator gave that instruction:

- `tma_load`: one `cp.async.bulk.tensor` into a 1024-aligned shared buffer pre-filled with
  0xA5 bytes, waited for on an mbarrier, then the whole buffer copied out with
  `ld.shared` / `st.global` (optionally multicast to every CTA of a cluster);
- `tma_store`: the buffer filled from global with `st.shared`, then stored by one
  `cp.async.bulk.tensor` to the tensor map's array;
- `wgmma`: a shared-memory image copied in, the accumulators (and A fragments) loaded from
  global, one `wgmma.mma_async`, the accumulators dumped per thread;
- `ldmatrix` / `stmatrix`: one warp moving 8x8 matrices between shared memory (row
  addresses chosen per thread) and registers dumped or loaded per thread.
"""

from __future__ import annotations

from collections.abc import Sequence

HEADER = ".version 8.5\n.target sm_90a\n.address_size 64\n"

SENTINEL = 0xA5A5A5A5
"""The word a TMA test's shared buffer holds before the copy."""


def module(*entries: str) -> str:
    return HEADER + "\n".join(entries)


def _copy_loop(
    label: str, words: int, threads: int, *, to_global: bool, base: str
) -> str:
    """Each thread moves words tid, tid + threads, ... between `buf` (+ the byte offset in
    register `base`) and the global pointer %rd3 (same offset)."""
    move = (
        "ld.shared.b32 %r12, [%r11];\n    st.global.b32 [%rd5], %r12;"
        if to_global
        else "ld.global.b32 %r12, [%rd5];\n    st.shared.b32 [%r11], %r12;"
    )
    return f"""
    mov.u32 %r9, %r1;
{label}:
    setp.ge.u32 %p3, %r9, {words};
    @%p3 bra {label}_done;
    shl.b32 %r10, %r9, 2;
    add.u32 %r11, {base}, %r10;
    cvt.u64.u32 %rd4, %r10;
    add.u64 %rd5, %rd3, %rd4;
    {move}
    add.u32 %r9, %r9, {threads};
    bra {label};
{label}_done:"""


def _coords(rank: int) -> str:
    return ", ".join(f"%r{20 + i}" for i in range(rank))


def _coord_loads(name: str, rank: int) -> str:
    return "\n    ".join(
        f"ld.param.s32 %r{20 + i}, [{name}_c{i}];" for i in range(rank)
    )


def _coord_params(name: str, rank: int) -> str:
    return ",\n    ".join(f".param .s32 {name}_c{i}" for i in range(rank))


def tma_load(
    name: str, rank: int, *, buffer_bytes: int, box_offset: int, multicast: bool = False
) -> str:
    """`out[rank * buffer_bytes ...]` = the shared buffer of CTA `rank` of the cluster after
    a TMA load of the box at the coordinates (PTX order) to `buf + box_offset`, for which
    the mbarrier expects `tx` bytes. With `multicast`, CTA 0 of the cluster multicasts the
    box to the CTAs of `mask` and every CTA waits on its own mbarrier."""
    words = buffer_bytes // 4
    coords = f"[%rd2, {{{_coords(rank)}}}], [%r2]"
    if multicast:
        copy = f"@%p4 cp.async.bulk.tensor.{rank}d.shared::cluster.global.mbarrier::complete_tx::bytes.multicast::cluster [%r3], {coords}, %rs1;"
    else:
        copy = f"@%p1 cp.async.bulk.tensor.{rank}d.shared::cluster.global.mbarrier::complete_tx::bytes [%r3], {coords};"
    return f"""
.visible .entry {name}(
    .param .align 64 .b8 {name}_map[128],
    .param .u64 {name}_out,
    .param .u32 {name}_tx,
    .param .u16 {name}_mask,
    {_coord_params(name, rank)}
)
.reqntid 128
{{
    .reg .pred %p<8>;
    .reg .b16 %rs<4>;
    .reg .b32 %r<40>;
    .reg .b64 %rd<8>;
    .shared .align 1024 .b8 buf[{buffer_bytes}];
    .shared .align 8 .b64 bar;

    mov.u32 %r1, %tid.x;
    mov.u32 %r2, bar;
    mov.u32 %r4, buf;
    add.u32 %r3, %r4, {box_offset};
    mov.u32 %r5, %cluster_ctarank;
    setp.eq.u32 %p1, %r1, 0;
    setp.eq.u32 %p2, %r5, 0;
    and.pred %p4, %p1, %p2;
    ld.param.u16 %rs1, [{name}_mask];
    ld.param.u32 %r8, [{name}_tx];
    mov.b32 %r6, {name}_map;
    cvt.u64.u32 %rd1, %r6;
    cvta.param.u64 %rd2, %rd1;
    {_coord_loads(name, rank)}
    mov.u32 %r7, {SENTINEL};
    mov.u32 %r9, %r1;
fill:
    setp.ge.u32 %p3, %r9, {words};
    @%p3 bra fill_done;
    shl.b32 %r10, %r9, 2;
    add.u32 %r11, %r4, %r10;
    st.shared.b32 [%r11], %r7;
    add.u32 %r9, %r9, 128;
    bra fill;
fill_done:
    fence.proxy.async.shared::cta;
    @%p1 mbarrier.init.shared::cta.b64 [%r2], 1;
    @%p1 fence.mbarrier_init.release.cluster;
    @%p1 mbarrier.arrive.expect_tx.shared::cta.b64 _, [%r2], %r8;
    barrier.cluster.arrive.release.aligned;
    barrier.cluster.wait.acquire.aligned;
    {copy}
wait:
    mbarrier.try_wait.parity.shared::cta.b64 %p5, [%r2], 0;
    @!%p5 bra wait;
    ld.param.u64 %rd6, [{name}_out];
    cvta.to.global.u64 %rd7, %rd6;
    mul.wide.u32 %rd1, %r5, {buffer_bytes};
    add.u64 %rd3, %rd7, %rd1;{_copy_loop("dump", words, 128, to_global=True, base="%r4")}
    barrier.cluster.arrive.release.aligned;
    barrier.cluster.wait.acquire.aligned;
    ret;
}}
"""


def tma_store(name: str, rank: int, *, buffer_bytes: int, box_offset: int) -> str:
    """The shared buffer is filled from `src` (buffer_bytes bytes); then one TMA store of
    the box at `buf + box_offset` to the coordinates (PTX order)."""
    words = buffer_bytes // 4
    return f"""
.visible .entry {name}(
    .param .align 64 .b8 {name}_map[128],
    .param .u64 {name}_src,
    {_coord_params(name, rank)}
)
.reqntid 128
{{
    .reg .pred %p<8>;
    .reg .b32 %r<40>;
    .reg .b64 %rd<8>;
    .shared .align 1024 .b8 buf[{buffer_bytes}];

    mov.u32 %r1, %tid.x;
    mov.u32 %r4, buf;
    add.u32 %r3, %r4, {box_offset};
    setp.eq.u32 %p1, %r1, 0;
    mov.b32 %r6, {name}_map;
    cvt.u64.u32 %rd1, %r6;
    cvta.param.u64 %rd2, %rd1;
    {_coord_loads(name, rank)}
    ld.param.u64 %rd6, [{name}_src];
    cvta.to.global.u64 %rd3, %rd6;{_copy_loop("fill", words, 128, to_global=False, base="%r4")}
    fence.proxy.async.shared::cta;
    bar.sync 0;
    @%p1 cp.async.bulk.tensor.{rank}d.global.shared::cta.tile.bulk_group [%rd2, {{{_coords(rank)}}}], [%r3];
    @%p1 cp.async.bulk.commit_group;
    @%p1 cp.async.bulk.wait_group 0;
    ret;
}}
"""


def wgmma(
    name: str,
    shape: str,
    types: str,
    accumulators: int,
    *,
    image_bytes: int,
    a_from_registers: bool,
    immediates: Sequence[int],
) -> str:
    """One `wgmma.mma_async.sync.aligned.{shape}.{types}` of a warpgroup.

    Parameters: `image` (image_bytes bytes copied into the 1024-aligned shared buffer),
    `desc_a` / `desc_b` (descriptors whose start addresses are offsets into the buffer; the
    kernel adds the buffer's address), `a_regs` (4 words per thread, when A comes from
    registers), `d_in` (the initial accumulator words per thread), `scale_d` (0 or 1) and
    `out`, where thread t writes its accumulator register i at word `t * accumulators + i`.
    """
    words = image_bytes // 4
    d = ", ".join(f"%f{i}" for i in range(accumulators))
    loads = "\n    ".join(
        f"ld.global.b32 %f{i}, [%rd10+{4 * i}];" for i in range(accumulators)
    )
    stores = "\n    ".join(
        f"st.global.b32 [%rd11+{4 * i}], %f{i};" for i in range(accumulators)
    )
    if a_from_registers:
        a_operand = "{%a0, %a1, %a2, %a3}"
        a_loads = "\n    ".join(
            f"ld.global.b32 %a{i}, [%rd12+{4 * i}];" for i in range(4)
        )
    else:
        a_operand = "%rd20"
        a_loads = ""
    tail = "".join(f", {value}" for value in immediates)
    return f"""
.visible .entry {name}(
    .param .u64 {name}_image,
    .param .u64 {name}_desc_a,
    .param .u64 {name}_desc_b,
    .param .u64 {name}_a_regs,
    .param .u64 {name}_d_in,
    .param .u32 {name}_scale_d,
    .param .u64 {name}_out
)
.reqntid 128
{{
    .reg .pred %p<8>;
    .reg .b32 %r<40>;
    .reg .b32 %f<{max(accumulators, 1)}>;
    .reg .b32 %a<4>;
    .reg .b64 %rd<32>;
    .shared .align 1024 .b8 buf[{image_bytes}];

    mov.u32 %r1, %tid.x;
    mov.u32 %r4, buf;
    ld.param.u64 %rd6, [{name}_image];
    cvta.to.global.u64 %rd3, %rd6;{_copy_loop("fill", words, 128, to_global=False, base="%r4")}
    fence.proxy.async.shared::cta;
    bar.sync 0;
    shr.u32 %r13, %r4, 4;
    cvt.u64.u32 %rd13, %r13;
    ld.param.u64 %rd14, [{name}_desc_a];
    add.u64 %rd20, %rd14, %rd13;
    ld.param.u64 %rd15, [{name}_desc_b];
    add.u64 %rd21, %rd15, %rd13;
    mul.wide.u32 %rd16, %r1, {4 * accumulators};
    ld.param.u64 %rd7, [{name}_d_in];
    cvta.to.global.u64 %rd8, %rd7;
    add.u64 %rd10, %rd8, %rd16;
    ld.param.u64 %rd7, [{name}_out];
    cvta.to.global.u64 %rd9, %rd7;
    add.u64 %rd11, %rd9, %rd16;
    mul.wide.u32 %rd17, %r1, 16;
    ld.param.u64 %rd7, [{name}_a_regs];
    cvta.to.global.u64 %rd8, %rd7;
    add.u64 %rd12, %rd8, %rd17;
    ld.param.u32 %r14, [{name}_scale_d];
    setp.ne.u32 %p1, %r14, 0;
    {loads}
    {a_loads}
    wgmma.fence.sync.aligned;
    wgmma.mma_async.sync.aligned.{shape}.{types} {{{d}}}, {a_operand}, %rd21, %p1{tail};
    wgmma.commit_group.sync.aligned;
    wgmma.wait_group.sync.aligned 0;
    {stores}
    ret;
}}
"""


def ldmatrix(name: str, count: int, *, trans: bool, buffer_bytes: int) -> str:
    """One warp: the buffer is filled from `src`; lane l passes the row address
    `buf + rows[l]` (`rows`: 32 words); `ldmatrix.x{count}` writes register i of lane l to
    word `l * count + i` of `out`."""
    return _matrix(name, "ld", count, trans=trans, buffer_bytes=buffer_bytes)


def stmatrix(name: str, count: int, *, trans: bool, buffer_bytes: int) -> str:
    """One warp: the buffer is filled from `src`; lane l loads register i from word
    `l * count + i` of `regs` and passes the row address `buf + rows[l]`; after
    `stmatrix.x{count}` the buffer is copied to `out`."""
    return _matrix(name, "st", count, trans=trans, buffer_bytes=buffer_bytes)


def _matrix(name: str, kind: str, count: int, *, trans: bool, buffer_bytes: int) -> str:
    words = buffer_bytes // 4
    registers = ", ".join(f"%m{i}" for i in range(count))
    qualifiers = f".sync.aligned.m8n8.x{count}{'.trans' if trans else ''}.shared.b16"
    if kind == "ld":
        body = f"""ldmatrix{qualifiers} {{{registers}}}, [%r20];
    mul.wide.u32 %rd16, %r1, {4 * count};
    add.u64 %rd17, %rd9, %rd16;
    """ + "\n    ".join(f"st.global.b32 [%rd17+{4 * i}], %m{i};" for i in range(count))
    else:
        body = (
            f"mul.wide.u32 %rd16, %r1, {4 * count};\n    add.u64 %rd17, %rd12, %rd16;\n    "
            + "\n    ".join(
                f"ld.global.b32 %m{i}, [%rd17+{4 * i}];" for i in range(count)
            )
            + f"\n    stmatrix{qualifiers} [%r20], {{{registers}}};\n    bar.warp.sync -1;\n    mov.u64 %rd3, %rd9;"
            + _copy_loop("dump", words, 32, to_global=True, base="%r4")
        )
    return f"""
.visible .entry {name}(
    .param .u64 {name}_src,
    .param .u64 {name}_rows,
    .param .u64 {name}_regs,
    .param .u64 {name}_out
)
.reqntid 32
{{
    .reg .pred %p<8>;
    .reg .b32 %r<40>;
    .reg .b32 %m<4>;
    .reg .b64 %rd<32>;
    .shared .align 128 .b8 buf[{buffer_bytes}];

    mov.u32 %r1, %tid.x;
    mov.u32 %r4, buf;
    ld.param.u64 %rd6, [{name}_src];
    cvta.to.global.u64 %rd3, %rd6;{_copy_loop("fill", words, 32, to_global=False, base="%r4")}
    bar.warp.sync -1;
    ld.param.u64 %rd6, [{name}_rows];
    cvta.to.global.u64 %rd7, %rd6;
    mul.wide.u32 %rd8, %r1, 4;
    add.u64 %rd10, %rd7, %rd8;
    ld.global.u32 %r19, [%rd10];
    add.u32 %r20, %r4, %r19;
    ld.param.u64 %rd6, [{name}_regs];
    cvta.to.global.u64 %rd12, %rd6;
    ld.param.u64 %rd6, [{name}_out];
    cvta.to.global.u64 %rd9, %rd6;
    {body}
    ret;
}}
"""
