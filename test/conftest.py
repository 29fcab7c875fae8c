"""Shared pytest fixtures."""

import sys
from pathlib import Path

import pytest

REPO_ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture
def repo_root() -> Path:
    return REPO_ROOT


def pytest_terminal_summary(terminalreporter: pytest.TerminalReporter) -> None:
    """How many corpus kernels the sync SASS prediction reproduces, and why not the rest."""
    prediction = sys.modules.get("test_sync_prediction")
    results: list[tuple[str, str, bool]] = getattr(prediction, "RESULTS", [])
    if not results:
        return
    known: dict[tuple[str, str], str] = getattr(prediction, "KNOWN_MISMATCHES", {})
    matched = sum(ok for _, _, ok in results)
    terminalreporter.section("sync SASS prediction vs ptxas 13.5")
    defaults = [ok for _, command, ok in results if " " not in command]
    terminalreporter.write_line(
        f"{sum(defaults)} of {len(defaults)} default runs and {matched} of "
        f"{len(results)} runs in all match exactly; known mismatches:"
    )
    for name, command, ok in results:
        if not ok:
            reason = known.get((name, command), "UNEXPECTED")
            terminalreporter.write_line(f"  {name} [{command}]: {reason}")
