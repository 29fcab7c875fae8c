"""`tileas-run`: the simulator from the shell. Results, hazards as diagnostics, and one
located error (never a traceback) for every mistake."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from tileas_py.tools.tileas_run import main

REPO = Path(__file__).resolve().parents[2]
HAZARDS = REPO / "test" / "sim" / "kernels" / "hazards"

SCALE = """.version 8.0
.target sm_90a
.address_size 64

.visible .entry scale(.param .u64 x, .param .f32 factor)
.reqntid 64
{
	.reg .b32 	%r<2>;
	.reg .f32 	%f<4>;
	.reg .b64 	%rd<4>;

	ld.param.u64 	%rd1, [x];
	ld.param.f32 	%f1, [factor];
	mov.u32 	%r1, %tid.x;
	mul.wide.u32 	%rd2, %r1, 4;
	add.s64 	%rd3, %rd1, %rd2;
	ld.global.f32 	%f2, [%rd3];
	mul.f32 	%f3, %f2, %f1;
	st.global.f32 	[%rd3], %f3;
	ret;
}
"""


@pytest.fixture
def kernel(tmp_path: Path) -> Path:
    path = tmp_path / "scale.ptx"
    path.write_text(SCALE)
    return path


def test_runs_and_saves_an_output(
    kernel: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    np.save(tmp_path / "x.npy", np.arange(64, dtype=np.float32))
    out = tmp_path / "out.npy"
    code = main(
        [
            str(kernel),
            "--arg",
            str(tmp_path / "x.npy"),
            "--arg",
            "2.5",
            "--out",
            f"0={out}",
        ]
    )
    assert code == 0
    assert np.array_equal(np.load(out), 2.5 * np.arange(64, dtype=np.float32))
    # The block comes from .reqntid and the kernel is the file's only one.
    assert capsys.readouterr().out.startswith("kernel scale: ")


def test_zeros_and_tensor_map_arguments(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code = main(
        [
            str(HAZARDS / "proxy_fence_fixed.ptx"),
            "--arg",
            "tmap:zeros:8x8:float32:8x8:0",
            "--out",
            f"0={tmp_path / 'tile.npy'}",
        ]
    )
    assert code == 0, capsys.readouterr().err
    assert np.array_equal(
        np.load(tmp_path / "tile.npy").reshape(-1), np.arange(64, dtype=np.float32)
    )


def test_hazards_are_diagnostics(capsys: pytest.CaptureFixture[str]) -> None:
    path = HAZARDS / "race_shared.ptx"
    assert main([str(path), "--arg", "zeros:1:uint32"]) == 1
    err = capsys.readouterr().err.splitlines()
    assert err == [
        f"{path}:21: error: race: read races with an earlier write: 'ld.shared.u32' at line "
        "21 (CTA (0, 0, 0), warp 1, thread 32) on shared[0x0] of CTA (0, 0, 0), not ordered "
        "with 'st.shared.u32' at line 20 (CTA (0, 0, 0), warp 0, thread 0)"
    ]


def test_no_check_reports_hazards_as_warnings(
    capsys: pytest.CaptureFixture[str],
) -> None:
    path = HAZARDS / "race_shared.ptx"
    assert main([str(path), "--arg", "zeros:1:uint32", "--no-check"]) == 0
    assert capsys.readouterr().err.startswith(f"{path}:21: warning: race: ")


def test_deadlock_is_one_located_error(capsys: pytest.CaptureFixture[str]) -> None:
    path = HAZARDS / "deadlock.ptx"
    assert main([str(path)]) == 1
    assert capsys.readouterr().err == (
        f"{path}:16: error: deadlock: threads 32-63 of CTA (0, 0, 0) at line 16 wait for "
        "barrier 1 (32 of 64 threads arrived)\n"
    )


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (
            ["--grid", "0"],
            "tileas-run: error: --grid must be 1 to 3 positive extents, got '0'",
        ),
        (
            ["--arg", "nothing.npy"],
            "tileas-run: error: cannot read array 'nothing.npy'",
        ),
        (
            ["--arg", "tmap:zeros:8x8:float32"],
            "tileas-run: error: a tensor map is tmap:ARRAY:BOX[:SWIZZLE]",
        ),
        (
            ["--arg", "tmap:zeros:16x16:float16:8x4"],
            "tileas-run: error: 'tmap:zeros:16x16:float16:8x4': the inner box is 8 bytes",
        ),
        (
            ["--arg", "1", "--out", "0=x.npy"],
            "tileas-run: error: --out 0=x.npy: argument 0 is not an array",
        ),
        (["--arg", "what"], "tileas-run: error: cannot read argument 'what'"),
        (["--arg", "none"], "kernel 'scale' takes 2 parameters, the launch gave 1"),
        (["--kernel", "other"], "error: no kernel 'other'"),
    ],
)
def test_mistakes_are_one_diagnostic(
    kernel: Path, args: list[str], message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main([str(kernel), *args]) == 1
    err = capsys.readouterr().err
    assert message in err
    assert len(err.strip().splitlines()) == 1
    assert "Traceback" not in err


def test_syntax_error_names_file_and_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    bad = tmp_path / "bad.ptx"
    bad.write_text(SCALE.replace("mul.f32", "mul.f99"))
    assert main([str(bad)]) == 1
    err = capsys.readouterr().err
    assert err.startswith(f"{bad}:")
    assert ": error: " in err


def test_the_console_script_runs(kernel: Path, tmp_path: Path) -> None:
    np.save(tmp_path / "x.npy", np.ones(64, dtype=np.float32))
    script = Path(sys.executable).parent / "tileas-run"
    result = subprocess.run(
        [str(script), str(kernel), "--arg", str(tmp_path / "x.npy"), "--arg", "3"],
        capture_output=True,
        text=True,
        check=False,
    )
    assert result.returncode == 0, result.stderr
    assert "kernel scale:" in result.stdout


def test_the_readme_examples_print_what_the_readme_shows(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """The README's `tileas-run` session, command by command."""
    readme = (REPO / "README.md").read_text()
    section = (
        readme.split("## Run kernels on the CPU", 1)[1]
        .split("```sh", 1)[1]
        .split("```", 1)[0]
    )
    lines = section.strip().splitlines()
    gemm_out, race_out = lines[3], lines[5]
    monkeypatch.chdir(tmp_path)
    (tmp_path / "gemm256.mlir").write_text(
        (REPO / "examples" / "gemm_sm90a.mlir").read_text().replace("4096", "256")
    )
    for name in "ab":
        np.save(tmp_path / f"{name}.npy", np.ones((256, 256), np.float16))
    assert lines[2].startswith("$ tileas-run gemm256.mlir ")
    assert main(lines[2].split()[2:]) == 0
    assert capsys.readouterr().out.strip() == gemm_out
    assert np.array_equal(
        np.load(tmp_path / "c.npy"), np.full((256, 256), 256, np.float32)
    )
    monkeypatch.chdir(REPO)
    assert lines[4].startswith("$ tileas-run test/sim/kernels/hazards/race_shared.ptx")
    assert main(lines[4].split()[2:]) == 1
    assert capsys.readouterr().err.strip() == race_out


def test_a_blackwell_example_runs_exactly(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The 2-CTA tcgen05 GEMM at 256^3 from the shell: a tile-level .mlir, the tiled_view
    arguments as arrays, a cluster of 2. A program is a cluster computing a 256x128 tile
    (its program ids are the cluster's), so the grid is 2x2 CTAs: one cluster along M,
    two along N. The summary counts the pairs' MMAs (2 pairs x 4 K steps x 4 = 32, issued
    by the even CTAs)."""
    source = tmp_path / "gemm_2cta.mlir"
    example = (REPO / "examples" / "gemm_2cta_sm100a.mlir").read_text()
    source.write_text(example.replace("4096", "256"))
    rng = np.random.default_rng(0)
    a = rng.integers(-3, 4, size=(256, 256)).astype(np.float16)
    b = rng.integers(-3, 4, size=(256, 256)).astype(np.float16)
    np.save(tmp_path / "a.npy", a)
    np.save(tmp_path / "b.npy", b)
    out = tmp_path / "c.npy"
    args = [str(source), "--grid", "2,2", "--block", "256", "--cluster", "2"]
    args += ["--arg", str(tmp_path / "a.npy"), "--arg", str(tmp_path / "b.npy")]
    args += ["--arg", "zeros:256x256:float32", "--out", f"2={out}"]
    assert main(args) == 0, capsys.readouterr().err
    exact = (a.astype(np.float64) @ b.astype(np.float64)).astype(np.float32)
    assert np.array_equal(np.load(out), exact)
    summary = capsys.readouterr().out
    assert " 0 wgmma, 32 tcgen05.mma, " in summary
    assert summary.rstrip().endswith(" 0 hazard(s)")
