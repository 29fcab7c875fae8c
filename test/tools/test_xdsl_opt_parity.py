"""Plain `xdsl-opt` (through the `xdsl.universe` entry point) handles every op the project
defines exactly as `tileas-opt` does: every dialect round-trip test, custom and generic form."""

from pathlib import Path

import pytest
from xdsl.xdsl_opt_main import xDSLOptMain

from tileas_py.tools.tileas_opt import TileasOptMain

DIALECT_TESTS = Path(__file__).resolve().parent.parent / "dialects"
OVERRIDDEN = {"gpu"}
"""Tests of xDSL dialects the project loads in its own form (tileas_py.dialects.OVERRIDES):
plain `xdsl-opt` keeps xDSL's, by design (one name cannot belong to two dialects)."""
ROUNDTRIP_FILES = sorted(
    p
    for p in DIALECT_TESTS.rglob("*.mlir")
    # corpus/ holds another test's data (valid and invalid chunks), as for lit.
    if "invalid" not in p.name
    and not {"Output", "corpus", *OVERRIDDEN} & set(p.relative_to(DIALECT_TESTS).parts)
)


def test_there_are_dialect_roundtrip_files() -> None:
    assert len(ROUNDTRIP_FILES) >= 5


@pytest.mark.parametrize(
    "source", ROUNDTRIP_FILES, ids=lambda p: str(p.relative_to(DIALECT_TESTS))
)
@pytest.mark.parametrize("generic", [False, True], ids=["custom", "generic"])
def test_xdsl_opt_prints_what_tileas_opt_prints(
    source: Path, generic: bool, capsys: pytest.CaptureFixture[str]
) -> None:
    args = [str(source), "--split-input-file"]
    if generic:
        args.append("--print-op-generic")
    assert TileasOptMain(args=args).run_and_report() == 0
    expected = capsys.readouterr().out
    xDSLOptMain(args=args).run()
    assert capsys.readouterr().out == expected
