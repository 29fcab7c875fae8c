"""`tileas_py.sim.launch` as docs/api.md specifies it: sources, launch shapes, arguments,
tensor maps, errors and the report."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np
import pytest

from tileas_py import api
from tileas_py.sim import HazardError, Report, SimulationError, TensorMap, launch

HAZARDS = Path(__file__).parent / "kernels" / "hazards"

HEADER = ".version 8.0\n.target sm_90a\n.address_size 64\n"

VADD = (
    HEADER
    + """
.visible .entry vadd(.param .u64 a, .param .u64 b, .param .u64 c, .param .u32 n)
{
	.reg .pred 	%p<2>;
	.reg .b32 	%r<6>;
	.reg .f32 	%f<4>;
	.reg .b64 	%rd<8>;

	ld.param.u64 	%rd1, [a];
	ld.param.u64 	%rd2, [b];
	ld.param.u64 	%rd3, [c];
	ld.param.u32 	%r2, [n];
	mov.u32 	%r3, %ctaid.x;
	mov.u32 	%r4, %ntid.x;
	mov.u32 	%r5, %tid.x;
	mad.lo.s32 	%r1, %r3, %r4, %r5;
	setp.ge.s32 	%p1, %r1, %r2;
	@%p1 bra 	DONE;
	mul.wide.s32 	%rd4, %r1, 4;
	add.s64 	%rd5, %rd1, %rd4;
	add.s64 	%rd6, %rd2, %rd4;
	add.s64 	%rd7, %rd3, %rd4;
	ld.global.f32 	%f1, [%rd5];
	ld.global.f32 	%f2, [%rd6];
	add.f32 	%f3, %f1, %f2;
	st.global.f32 	[%rd7], %f3;
DONE:
	ret;
}
"""
)


def _vectors(n: int = 1000) -> tuple[Any, Any, Any]:
    a = np.arange(n, dtype=np.float32)
    return a, np.full(n, 2, dtype=np.float32), np.zeros(n, dtype=np.float32)


# -- sources ----------------------------------------------------------------------------------


def test_ptx_text(tmp_path: Path) -> None:
    a, b, c = _vectors()
    report = launch(VADD, "vadd", 4, 256, [a, b, c, 1000])
    assert np.array_equal(c, a + b)
    assert isinstance(report, Report)
    assert report.kernel == "vadd"


@pytest.mark.parametrize("as_path", [True, False])
def test_ptx_file(tmp_path: Path, as_path: bool) -> None:
    path = tmp_path / "vadd.ptx"
    path.write_text(VADD)
    a, b, c = _vectors()
    launch(path if as_path else str(path), "vadd", 4, 256, [a, b, c, 1000])
    assert np.array_equal(c, a + b)


def test_ori_module() -> None:
    module = api.read_ptx(VADD, "vadd.ptx")
    a, b, c = _vectors()
    launch(module, "vadd", 4, 256, [a, b, c, 1000])
    assert np.array_equal(c, a + b)


def test_nvvm_mlir_is_lowered_like_tileas_to_ptx() -> None:
    text = """
builtin.module attributes {nvvm.target = #nvvm.target<chip = "sm_90a", features = "+ptx80">} {
  llvm.func @twice(%x: !llvm.ptr<1>) attributes {nvvm.kernel, nvvm.reqntid = array<i32: 32, 1, 1>} {
    %tid = nvvm.read.ptx.sreg.tid.x : i32
    %p = llvm.getelementptr %x[%tid] : (!llvm.ptr<1>, i32) -> !llvm.ptr<1>, i32
    %v = llvm.load %p : !llvm.ptr<1> -> i32
    %w = llvm.add %v, %v : i32
    llvm.store %w, %p : i32, !llvm.ptr<1>
    llvm.return
  }
}
"""
    x = np.arange(32, dtype=np.int32)
    report = launch(api.parse_mlir(text), "twice", 1, 32, [x])
    assert np.array_equal(x, 2 * np.arange(32))
    assert ".entry twice" in report.ptx


# -- launch shapes ------------------------------------------------------------------------------

REQNTID = (
    HEADER
    + """
.visible .entry k()
.reqntid 64, 2
.reqnctapercluster 2
{
	ret;
}
"""
)


def test_block_must_match_reqntid() -> None:
    launch(REQNTID, "k", 2, (64, 2), [])
    with pytest.raises(SimulationError) as raised:
        launch(REQNTID, "k", 2, 128, [])
    assert (
        raised.value.message
        == "kernel 'k': block (128, 1, 1) contradicts .reqntid 64, 2"
    )


def test_cluster_must_match_reqnctapercluster() -> None:
    with pytest.raises(SimulationError) as raised:
        launch(REQNTID, "k", 4, (64, 2), [], cluster=4)
    assert raised.value.message == (
        "kernel 'k': cluster (4, 1, 1) contradicts .reqnctapercluster 2"
    )


def test_grid_must_be_whole_clusters() -> None:
    with pytest.raises(SimulationError) as raised:
        launch(REQNTID, "k", 3, (64, 2), [])
    assert raised.value.message == (
        "kernel 'k': grid (3, 1, 1) is not a whole number of clusters (2, 1, 1)"
    )


def test_cluster_defaults_to_reqnctapercluster() -> None:
    text = REQNTID.replace(
        "\tret;", "\tmov.u32 \t%r1, %cluster_nctarank;\n\tret;"
    ).replace("{\n", "{\n\t.reg .b32 \t%r<2>;\n", 1)
    launch(text, "k", 2, (64, 2), [])


def test_maxntid() -> None:
    text = REQNTID.replace(".reqntid 64, 2", ".maxntid 128").replace(
        ".reqnctapercluster 2\n", ""
    )
    launch(text, "k", 1, 128, [])
    with pytest.raises(SimulationError, match=r"more threads than \.maxntid 128"):
        launch(text, "k", 1, 129, [])


def test_unknown_kernel() -> None:
    with pytest.raises(SimulationError) as raised:
        launch(VADD, "vsub", 1, 32, [])
    assert raised.value.message == "no kernel 'vsub' in <ptx> (kernels: vadd)"


# -- arguments ----------------------------------------------------------------------------------


def test_argument_count() -> None:
    with pytest.raises(SimulationError) as raised:
        launch(VADD, "vadd", 1, 32, [None])
    assert raised.value.message == "kernel 'vadd' takes 4 parameters, the launch gave 1"


def test_same_array_twice_is_one_allocation() -> None:
    a = np.arange(64, dtype=np.float32)
    launch(VADD, "vadd", 1, 64, [a, a, a, 64])
    assert np.array_equal(a, 2 * np.arange(64, dtype=np.float32))


def test_out_of_bounds_is_a_located_error_and_arrays_still_come_back() -> None:
    a, b, c = _vectors(100)
    with pytest.raises(SimulationError) as raised:
        launch(VADD, "vadd", 1, 128, [a, b, c, 128])
    error = raised.value
    assert error.line == VADD.splitlines().index("\tld.global.f32 \t%f1, [%rd5];") + 1
    assert "out-of-bounds 4-byte access" in error.message
    assert "argument 0 (a) of 400 bytes (offset 400)" in error.message
    assert "threads 100" in error.message
    # No thread got past the faulting load, so c is untouched, but it was copied back.
    assert np.array_equal(c, np.zeros(100, dtype=np.float32))


def test_arrays_are_copied_back_when_the_run_raises() -> None:
    out = np.zeros(1, dtype=np.uint32)
    with pytest.raises(HazardError):
        launch(HAZARDS / "race_shared.ptx", "k", 1, 64, [out])
    assert out[0] == 7


def test_none_is_a_null_pointer() -> None:
    a, b, _ = _vectors(32)
    with pytest.raises(SimulationError, match="outside no allocation"):
        launch(VADD, "vadd", 1, 32, [a, b, None, 32])


def test_scalars_fill_their_parameter() -> None:
    text = (
        HEADER
        + """
.visible .entry k(.param .u64 out, .param .u64 big, .param .f32 x, .param .s8 small)
{
	.reg .b64 	%rd<4>;
	.reg .f32 	%f<2>;
	.reg .b16 	%rs<2>;
	.reg .b32 	%r<2>;
	ld.param.u64 	%rd1, [out];
	ld.param.u64 	%rd2, [big];
	ld.param.f32 	%f1, [x];
	ld.param.s8 	%rs1, [small];
	cvt.s32.s16 	%r1, %rs1;
	st.global.u64 	[%rd1], %rd2;
	st.global.f32 	[%rd1+8], %f1;
	st.global.s32 	[%rd1+12], %r1;
	ret;
}
"""
    )
    out = np.zeros(16, dtype=np.uint8)
    launch(text, "k", 1, 1, [out, 2**40 + 3, 1.5, -2])
    assert out[:8].view(np.uint64)[0] == 2**40 + 3
    assert out[8:12].view(np.float32)[0] == 1.5
    assert out[12:16].view(np.int32)[0] == -2


def test_an_unusable_argument_is_an_error() -> None:
    with pytest.raises(SimulationError, match="is a str; pass a numpy array"):
        launch(VADD, "vadd", 1, 32, ["a", None, None, 1])  # pyright: ignore[reportArgumentType]


# -- tensor maps ----------------------------------------------------------------------------------


def test_tensor_map_rules_are_the_drivers() -> None:
    a = np.zeros((64, 64), dtype=np.float16)
    TensorMap(a, (64, 64), swizzle=128)
    with pytest.raises(ValueError, match="box extents must be 1 to 256"):
        TensorMap(np.zeros((512, 512), dtype=np.float16), (512, 8))
    with pytest.raises(ValueError, match="wider than the 64-byte swizzle span"):
        TensorMap(a, (64, 64), swizzle=64)
    with pytest.raises(ValueError, match="the inner box is 8 bytes"):
        TensorMap(a, (64, 4))
    with pytest.raises(ValueError, match="global stride of dimension 0 is 1028 bytes"):
        TensorMap(np.zeros((8, 514), dtype=np.float16), (8, 8))
    with pytest.raises(ValueError, match="swizzle must be 0, 32, 64 or 128 bytes"):
        TensorMap(a, (64, 64), swizzle=16)


def test_reading_a_tensor_map_is_not_supported() -> None:
    text = (
        HEADER
        + """
.visible .entry k(.param .align 64 .b8 map[128], .param .u64 out)
{
	.reg .b64 	%rd<3>;
	ld.param.u64 	%rd1, [map];
	ld.param.u64 	%rd2, [out];
	st.global.u64 	[%rd2], %rd1;
	ret;
}
"""
    )
    tmap = TensorMap(np.zeros((8, 8), dtype=np.float32), (8, 8))
    with pytest.raises(SimulationError) as raised:
        launch(text, "k", 1, 1, [tmap, np.zeros(1, dtype=np.uint64)])
    assert (
        raised.value.line
        == text.splitlines().index("\tld.param.u64 \t%rd1, [map];") + 1
    )
    assert "reading the bytes of a CUtensorMap is not supported" in raised.value.message


def test_tensor_map_needs_its_parameter_shape() -> None:
    tmap = TensorMap(np.zeros((8, 8), dtype=np.float32), (8, 8))
    with pytest.raises(SimulationError, match="neither a 128-byte"):
        launch(
            VADD.replace(".param .u32 n", ".param .u32 n"),
            "vadd",
            1,
            1,
            [None, None, None, tmap],
        )


# -- the report -----------------------------------------------------------------------------------


def test_report_counts() -> None:
    a, b, c = _vectors(64)
    report = launch(VADD, "vadd", 2, 32, [a, b, c, 64])
    assert report.instructions["memory"] == 64 * 7
    assert report.thread_instructions == sum(report.instructions.values())
    assert report.shared_bytes == 0
    assert report.hazards == []
    assert report.summary().startswith("kernel vadd: ")


def test_fixup_false_runs_the_ptx_as_written() -> None:
    report = launch(
        HAZARDS / "accumulator_fixed.ptx",
        "k",
        1,
        128,
        [np.zeros(128, dtype=np.float32)],
        fixup=False,
    )
    assert report.gmma_messages == []
    assert report.wgmma == 1


def test_tensormap_replace_is_a_located_error() -> None:
    text = (
        HEADER
        + """
.visible .entry k(.param .u64 map)
{
	.reg .b64 	%rd<2>;
	.reg .b32 	%r<2>;
	ld.param.u64 	%rd1, [map];
	mov.u32 	%r1, 64;
	tensormap.replace.tile.box_dim.global.b1024.b32 	[%rd1], 1, %r1;
	ret;
}
"""
    )
    with pytest.raises(SimulationError) as raised:
        launch(text, "k", 1, 1, [np.zeros(16, dtype=np.uint64)])
    assert (
        raised.value.line
        == text.splitlines().index(
            "\ttensormap.replace.tile.box_dim.global.b1024.b32 \t[%rd1], 1, %r1;"
        )
        + 1
    )
    assert (
        "it rewrites a CUtensorMap, whose encoding is not public"
        in raised.value.message
    )
