"""Lazy imports for the registries: a name maps to "module:attribute", imported on first use
so that `tileas-opt --help` does not load every dialect and pass."""

from collections.abc import Callable
from importlib import import_module
from typing import Any


def lazy(path: str) -> Callable[[], Any]:
    """A factory returning the object at `path` ("package.module:Name") when called."""
    module, _, name = path.partition(":")

    def load() -> Any:
        return getattr(import_module(module), name)

    return load
