"""docs/passes.md is what the pass reference generator makes of the registry today."""

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.passes import ModulePass

from tileas_py.passes import PASSES
from tileas_py.tools.pass_reference import (
    DOCS_PAGE,
    main,
    option_docs,
    options_of,
    pass_section,
    reference,
)


def test_docs_passes_md_is_up_to_date() -> None:
    # On failure: python -m tileas_py.tools.pass_reference --write
    assert DOCS_PAGE.read_text() == reference()


def test_check_mode_agrees_with_the_page() -> None:
    assert main(["--check"]) == 0


def test_every_registered_pass_has_a_section_with_a_docstring() -> None:
    page = reference()
    for name in PASSES:
        assert f"## `{name}`" in page
    sections = page.split("\n## ")[1:]
    assert len(sections) == len(PASSES)
    assert all(len(section.splitlines()) > 6 for section in sections)


@dataclass(frozen=True)
class _ExamplePass(ModulePass):
    """Does nothing, twice.

    Before:
    ```
    a
    ```
    """

    name = "example-pass"

    max_rounds: int = 3
    """How many times nothing is done."""

    labels: tuple[str, ...] = ("x", "y")

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        del ctx, op


def test_options_come_with_type_default_and_field_docstring() -> None:
    assert option_docs(_ExamplePass) == {
        "max_rounds": "How many times nothing is done."
    }
    rounds, labels = options_of(_ExamplePass)
    assert (rounds.name, rounds.type, rounds.default) == ("max-rounds", "int", "3")
    assert (labels.type, labels.default, labels.doc) == (
        "tuple[str, ...]",
        '"x","y"',
        "",
    )


def test_section_holds_the_docstring_and_an_option_row() -> None:
    section = pass_section("example-pass", _ExamplePass)
    assert section.startswith("## `example-pass`\n")
    assert "Does nothing, twice.\n\nBefore:\n```\na\n```" in section
    assert "| `max-rounds` | `int` | `3` | How many times nothing is done. |" in section
