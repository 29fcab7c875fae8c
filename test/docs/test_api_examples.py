"""The examples of docs/api.md run, in order and in one namespace, and print what the page
shows under each (a ```text block right after a ```python block)."""

import contextlib
import io
import re
from pathlib import Path

API_PAGE = Path(__file__).resolve().parents[2] / "docs" / "api.md"
EXAMPLE = re.compile(r"```python\n(.*?)```(?:\n\n```text\n(.*?)```)?", re.S)


def examples() -> list[tuple[str, str]]:
    return [(m[1], m[2] or "") for m in EXAMPLE.finditer(API_PAGE.read_text())]


def test_page_has_examples_with_outputs() -> None:
    found = examples()
    assert len(found) >= 5
    assert all(expected for _, expected in found)


def test_examples_print_what_the_page_shows() -> None:
    namespace: dict[str, object] = {}
    for code, expected in examples():
        printed = io.StringIO()
        with contextlib.redirect_stdout(printed):
            exec(code, namespace)
        assert printed.getvalue() == expected, code
