"""Helpers shared by the tile dialects' attribute parsers."""

from collections.abc import Sequence

from xdsl.ir import Attribute, ParametrizedAttribute
from xdsl.parser import AttrParser
from xdsl.utils.exceptions import VerifyException


def verified(
    parser: AttrParser,
    cls: type[ParametrizedAttribute],
    start: int,
    params: Sequence[Attribute],
) -> Sequence[Attribute]:
    """Check parsed parameters right away, so that an invalid attribute is reported as a
    parse error at its position (xDSL otherwise reports it without a location)."""
    try:
        cls.new(params)
    except VerifyException as e:
        parser.raise_error(str(e), start, parser.pos)
    return params
