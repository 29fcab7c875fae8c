"""docs/walkthrough.md is the GEMM example's IR after every stage of tileas-to-ptx, as
`python -m tileas_py.tools.walkthrough` prints it today."""

from pathlib import Path

from tileas_py.tools.walkthrough import render

REPO_ROOT = Path(__file__).resolve().parents[2]


def test_walkthrough_is_current() -> None:
    document = (REPO_ROOT / "docs" / "walkthrough.md").read_text()
    assert document == render(), (
        "docs/walkthrough.md is stale: "
        "python -m tileas_py.tools.walkthrough > docs/walkthrough.md"
    )


def test_walkthrough_shows_every_stage() -> None:
    document = (REPO_ROOT / "docs" / "walkthrough.md").read_text()
    for stage in (
        "## input",
        "## optimize-execution-unit-mapping",
        "## tileas-plan-cta",
        "## convert-tileas-to-nvvm",
        "## convert-nvvm-to-ori",
        "## -t ptx",
    ):
        assert stage in document
    assert "nvvm.wgmma.mma_async" in document
    assert "cp.async.bulk.tensor" in document
