"""The command line of a tool that generates a docs page from the code: print it, write it
in place (`--write`), or fail when the page in the tree is stale (`--check`)."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable, Sequence
from pathlib import Path


def page_main(
    argv: Sequence[str] | None,
    *,
    page: Callable[[], str],
    path: Path,
    module: str,
    description: str,
    write_help: str,
) -> int:
    """Run the command line of `python -m module`, which generates `path` with `page`."""
    parser = argparse.ArgumentParser(description=description)
    mode = parser.add_mutually_exclusive_group()
    mode.add_argument("--write", action="store_true", help=write_help)
    mode.add_argument("--check", action="store_true", help="fail when it is stale")
    args = parser.parse_args(argv)
    text = page()
    if args.write:
        path.write_text(text)
    elif args.check:
        if path.read_text() != text:
            print(
                f"{path} is stale: run python -m {module} --write",
                file=sys.stderr,
            )
            return 1
    else:
        sys.stdout.write(text)
    return 0
