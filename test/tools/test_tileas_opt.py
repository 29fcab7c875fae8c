"""The tileas-opt driver: registration, the xdsl-opt plugin route, and error handling."""

import subprocess
import sys
from pathlib import Path

import pytest
from xdsl.universe import Universe

from tileas_py.dialects import get_all_dialects
from tileas_py.passes import get_all_passes
from tileas_py.tools.tileas_opt import TileasOptMain, run_tool

BIN = Path(sys.executable).parent


def test_driver_registers_every_project_dialect_and_pass() -> None:
    tool = TileasOptMain(args=[])
    registered = set(tool.ctx.registered_dialect_names)
    assert set(get_all_dialects()) <= registered
    assert set(get_all_passes()) <= set(tool.available_passes)
    # and xDSL's own
    assert {"builtin", "func", "arith", "llvm", "scf"} <= registered
    assert "canonicalize" in tool.available_passes


def test_every_project_dialect_loads() -> None:
    for name, factory in get_all_dialects().items():
        assert factory().name == name


def test_universe_entry_point_is_installed() -> None:
    multiverse = Universe.get_multiverse()
    assert set(get_all_dialects()) <= set(multiverse.all_dialects)


def test_plain_xdsl_opt_sees_project_dialects(tmp_path: Path) -> None:
    source = tmp_path / "k.mlir"
    source.write_text(
        "func.func @k() {\n  nvvm.wgmma.fence.aligned\n  func.return\n}\n"
    )
    result = subprocess.run(
        [str(BIN / "xdsl-opt"), str(source)],
        capture_output=True,
        text=True,
        check=False,
    )
    assert result.returncode == 0, result.stderr
    assert "nvvm.wgmma.fence.aligned" in result.stdout


def test_run_tool_reports_missing_file(capsys: pytest.CaptureFixture[str]) -> None:
    assert run_tool(["/no/such/file.mlir"]) == 1
    err = capsys.readouterr().err
    assert err.startswith("tileas-opt: error: cannot open input file")
    assert "Traceback" not in err


def test_run_tool_succeeds_on_valid_input(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    source = tmp_path / "ok.mlir"
    source.write_text("func.func @f() {\n  func.return\n}\n")
    assert run_tool([str(source)]) == 0
    assert "func.func @f()" in capsys.readouterr().out


def test_internal_errors_are_one_line_not_tracebacks(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    def boom(self: TileasOptMain, module: object) -> None:
        raise RuntimeError("boom")

    monkeypatch.setattr(TileasOptMain, "apply_passes", boom)
    source = tmp_path / "ok.mlir"
    source.write_text("func.func @f() {\n  func.return\n}\n")
    assert run_tool([str(source)]) == 2
    err = capsys.readouterr().err
    assert "internal error: RuntimeError: boom" in err
    assert "Traceback" not in err


def test_every_registered_pass_has_its_registry_name() -> None:
    for name, factory in get_all_passes().items():
        assert factory().name == name


def test_after_setup_runs_once_the_tool_is_set_up(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    calls: list[str] = []
    missing = str(tmp_path / "missing.mlir")
    # Set up, then the input fails to open: the hook ran, before the input was read.
    assert run_tool([missing], after_setup=lambda: calls.append("set up")) == 1
    assert calls == ["set up"]
    assert "cannot open input file" in capsys.readouterr().err
    # The set-up itself fails (an unknown pass): the hook never runs.
    assert run_tool([missing, "-p", "no-such-pass"], after_setup=calls.clear) == 1
    assert calls == ["set up"]


def test_the_console_entry_point_resumes_the_collector(tmp_path: Path) -> None:
    """`tileas-opt` pauses the cyclic collector for start-up only: it is off while the
    tool sets up, and on again (start-up's objects frozen) when the input is read."""
    probe = (
        "import gc, sys\n"
        "from tileas_py.tools import tileas_opt\n"
        "Main = tileas_opt.TileasOptMain\n"
        "set_up, run = Main.setup_pipeline, Main.run_and_report\n"
        "def setup_pipeline(self):\n"
        "    print('setup', gc.isenabled(), file=sys.stderr)\n"
        "    set_up(self)\n"
        "def run_and_report(self):\n"
        "    print('run', gc.isenabled(), gc.get_freeze_count() > 0, file=sys.stderr)\n"
        "    return run(self)\n"
        "Main.setup_pipeline, Main.run_and_report = setup_pipeline, run_and_report\n"
        "from tileas_py.tools.startup import tileas_opt as entry\n"
        "entry()\n"
    )
    source = tmp_path / "empty.mlir"
    source.write_text("builtin.module {}\n")
    done = subprocess.run(
        [sys.executable, "-c", probe, str(source)],
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert done.stderr.split() == ["setup", "False", "run", "True", "True"]
