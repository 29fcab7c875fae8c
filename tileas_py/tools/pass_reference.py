"""Writes `docs/passes.md`, the reference of every registered pass and pipeline.

The page is generated from the code, so that it cannot drift from it: for each name of the
`PASSES` registry (`tileas_py.passes`, pipelines included) it gives the class, the
docstring (its summary, description and before / after example) and a table of the options
(`-p 'name{option=value}'`) with their types, defaults and field docstrings. A pass whose
class docstring has no example is documented by its module docstring as well, which is
where such a pass keeps it.

    python -m tileas_py.tools.pass_reference > docs/passes.md
    python -m tileas_py.tools.pass_reference --write      # the same, in place
    python -m tileas_py.tools.pass_reference --check      # exit 1 when docs/passes.md is stale
"""

from __future__ import annotations

import ast
import dataclasses
import inspect
import sys
import textwrap
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from xdsl.passes import ModulePass

from tileas_py.passes import PASSES, get_all_passes
from tileas_py.tools.generated_page import page_main

DOCS_PAGE = Path(__file__).resolve().parents[2] / "docs" / "passes.md"

HEADER = """\
# Pass reference

Generated from the pass docstrings by `python -m tileas_py.tools.pass_reference --write`;
do not edit by hand (a test fails when this page and the code disagree). Run a pass with
`tileas-opt -p 'name{option=value}'`, or from Python with
`tileas_py.api.run_pipeline(module, "name{option=value}")` (see [api.md](api.md)).
"""


@dataclass(frozen=True)
class Option:
    """One option of a pass: a field of its frozen dataclass."""

    name: str
    type: str
    default: str
    doc: str


def option_docs(cls: type) -> dict[str, str]:
    """The docstrings written under each field (`x: int = 1` then `\"\"\"...\"\"\"`) of `cls`
    and of its bases up to `ModulePass`; Python keeps none of them at run time."""
    docs: dict[str, str] = {}
    for klass in reversed(cls.__mro__):
        if not issubclass(klass, ModulePass) or klass is ModulePass:
            continue
        tree = ast.parse(textwrap.dedent(inspect.getsource(klass)))
        body = tree.body[0]
        assert isinstance(body, ast.ClassDef)
        for statement, following in zip(body.body, body.body[1:], strict=False):
            if (
                isinstance(statement, ast.AnnAssign)
                and isinstance(statement.target, ast.Name)
                and isinstance(following, ast.Expr)
                and isinstance(following.value, ast.Constant)
                and isinstance(following.value.value, str)
            ):
                docs[statement.target.id] = inspect.cleandoc(following.value.value)
    return docs


def options_of(cls: type[ModulePass]) -> list[Option]:
    docs = option_docs(cls)
    options: list[Option] = []
    for field in dataclasses.fields(cls):
        if field.default is not dataclasses.MISSING:
            default = _python_to_spec(field.default)
        elif field.default_factory is not dataclasses.MISSING:
            default = _python_to_spec(field.default_factory())
        else:
            default = "(required)"
        kind = field.type
        if not isinstance(kind, str):
            kind = inspect.formatannotation(kind)
        options.append(
            Option(
                field.name.replace("_", "-"), kind, default, docs.get(field.name, "")
            )
        )
    return options


def _python_to_spec(value: object) -> str:
    """A default as it is written in a pipeline spec."""
    if value is None:
        return "none"
    if isinstance(value, bool):
        return str(value).lower()
    if isinstance(value, tuple):
        items: tuple[object, ...] = value  # pyright: ignore[reportUnknownVariableType]
        return ",".join(_python_to_spec(v) for v in items)
    if isinstance(value, str):
        return f'"{value}"'
    return str(value)


def _has_example(doc: str) -> bool:
    """Whether a docstring shows an example: fenced, indented, or introduced by name."""
    return any(mark in doc for mark in ("```", "Before", "Example", "\n\n    "))


def _cell(text: str) -> str:
    return " ".join(text.split()).replace("|", "\\|")


def pass_section(name: str, cls: type[ModulePass]) -> str:
    doc = inspect.cleandoc(cls.__doc__ or "")
    lines = [f"## `{name}`", "", f"`{cls.__module__}.{cls.__qualname__}`", ""]
    if doc:
        lines += [doc, ""]
    module_doc = inspect.getmodule(cls).__doc__ if inspect.getmodule(cls) else None
    if not _has_example(doc) and module_doc:
        lines += [f"From `{cls.__module__}`:", "", inspect.cleandoc(module_doc), ""]
    options = options_of(cls)
    if options:
        lines += [
            "| option | type | default | description |",
            "| --- | --- | --- | --- |",
        ]
        lines += [
            f"| `{o.name}` | `{_cell(o.type)}` | `{_cell(o.default)}` | {_cell(o.doc)} |"
            for o in options
        ]
    else:
        lines.append("No options.")
    return "\n".join(lines) + "\n"


def reference() -> str:
    """The whole page, passes in the registry's order."""
    factories = get_all_passes()
    index = [
        f"- [`{name}`](#{_anchor(name)})"
        + (" (pipeline)" if ".pipelines:" in PASSES[name] else "")
        for name in PASSES
    ]
    sections = [pass_section(name, factories[name]()) for name in PASSES]
    return "\n".join([HEADER, *index, "", *sections])


def _anchor(name: str) -> str:
    """GitHub's anchor of a `## \\`name\\`` heading."""
    return "".join(c for c in name.lower() if c.isalnum() or c in "-_")


def main(argv: Sequence[str] | None = None) -> int:
    return page_main(
        argv,
        page=reference,
        path=DOCS_PAGE,
        module="tileas_py.tools.pass_reference",
        description="Print docs/passes.md.",
        write_help="write docs/passes.md",
    )


if __name__ == "__main__":
    sys.exit(main())
