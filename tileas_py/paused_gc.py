"""Keeping the PTX reader and writer linear in the size of their input."""

from __future__ import annotations

import gc
from collections.abc import Generator
from contextlib import contextmanager


@contextmanager
def paused_gc() -> Generator[None]:
    """Pause Python's cyclic garbage collector for the duration of the block.

    Building tens of thousands of ops allocates steadily without freeing anything, so
    every full collection walks the whole growing IR again: 30% of the reading time at
    30k instructions and growing with size. Reference counting still frees what it can.
    """
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_enabled:
            gc.enable()
