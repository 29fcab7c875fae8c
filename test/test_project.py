"""Project-level checks: CI runs the README's test command, and the code is lint/type clean."""

import re
import subprocess
import sys
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parent.parent
BIN = Path(sys.executable).parent


def readme_commands() -> list[str]:
    text = (REPO_ROOT / "README.md").read_text()
    setup = text.split("## Set up and run", 1)[1].split("\n## ", 1)[0]
    return re.findall(r"```sh\n(.*?)\n```", setup, flags=re.S)


def test_readme_has_exactly_two_setup_commands() -> None:
    commands = readme_commands()
    assert len(commands) == 2
    assert all("\n" not in c for c in commands)


def test_ci_runs_the_readme_test_command() -> None:
    test_command = readme_commands()[1]
    assert "lit test" in test_command
    assert test_command.endswith("pytest")
    ci_script = (REPO_ROOT / ".ci" / "run").read_text()
    assert test_command in ci_script.splitlines()


def run_tool(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [str(BIN / args[0]), *args[1:]],
        cwd=REPO_ROOT,
        capture_output=True,
        text=True,
        check=False,
    )


def test_ruff_lint_is_clean() -> None:
    result = run_tool("ruff", "check", ".")
    assert result.returncode == 0, result.stdout + result.stderr


def test_ruff_format_is_clean() -> None:
    result = run_tool("ruff", "format", "--check", ".")
    assert result.returncode == 0, result.stdout + result.stderr


def test_pyright_strict_is_clean() -> None:
    # Plainly, as a developer runs it: pyproject.toml points it at the repo's .venv.
    result = run_tool("basedpyright")
    assert result.returncode == 0, result.stdout[-5000:] + result.stderr
