"""Work-arounds for xDSL 0.74 parser bugs that crash or hang on malformed input.

Each was found by fuzzing `tileas-opt` (see docs/robustness.md) and is fixed here, at the
narrowest point the project controls, until xDSL fixes it:

- the MLIR lexer's string-literal regex backtracks exponentially on an unterminated string
  or a bad escape (`"a\\-1 ...` in a long string hangs); `BoundedMLIRLexer` matches the
  same language with possessive quantifiers, in linear time;
- an integer literal of over 4300 decimal digits makes `int()` raise `ValueError`;
  `BoundedMLIRLexer` reports it as a parse error instead;
- the parser forgets where a forward-referenced block was defined, so a second definition
  of that label raises `KeyError`; `RobustParser` records it;
- xDSL's custom op parsers do not range-check what they read: a value out of its type's
  range (`llvm.getelementptr %p[9223372036854775808]`) raises `ValueError` from an
  attribute constructor, an index past a struct's fields (`llvm.extractvalue %s[99]`)
  raises `IndexError`, and 2**63 in a declarative `array<i64>` property
  (`num_warps = [9223372036854775808]`) raises `struct.error` when packed.
  `RobustParser` reports an exception raised inside xDSL while parsing an op as a parse
  error at that op; one raised in tileas-py's own parsers stays an internal error (a bug
  to fix, not to hide).

"""

from __future__ import annotations

import re
import struct
import sys
import traceback
from pathlib import Path

import xdsl
from xdsl.context import Context
from xdsl.ir import Block, Operation
from xdsl.parser import Parser, ParserState
from xdsl.utils.exceptions import ParseError
from xdsl.utils.lexer import Input, Span
from xdsl.utils.mlir_lexer import MLIRLexer, MLIRToken, MLIRTokenKind


class BoundedMLIRLexer(MLIRLexer):
    """xDSL's MLIR lexer without its exponential string regex and its integer crash."""

    # xDSL's regex, with possessive `++` / `*+`: a failed match no longer tries every way
    # of splitting the string's characters between the two alternatives.
    _unescaped_characters_regex = re.compile(
        r'"(?:[^"\\\n\v\f]++|\\(?:["nt\\]|[0-9A-Fa-f]{2}))*+"'
    )

    def lex(self) -> MLIRToken:
        token = super().lex()
        if (
            token.kind is MLIRTokenKind.INTEGER_LIT
            and not token.text.startswith(("0x", "0X"))
            and len(token.text) > sys.get_int_max_str_digits()
        ):
            raise ParseError(
                token.span,
                f"integer literal has more than {sys.get_int_max_str_digits()} digits",
            )
        return token


class RobustParser(Parser):
    """xDSL's MLIR parser with the fixes above."""

    def __init__(self, ctx: Context, text: str, name: str = "<unknown>") -> None:
        super().__init__(ctx, text, name)
        self._parser_state = ParserState(BoundedMLIRLexer(Input(text, name)))

    def _parse_block(self) -> Block:
        label = self._current_token
        block = super()._parse_block()
        # xDSL leaves a forward-referenced block's definition span as None.
        self.blocks[label.text[1:]] = (block, label.span)
        return block

    def parse_operation(self) -> Operation:
        start = self.pos
        try:
            return super().parse_operation()
        except (
            ValueError,
            IndexError,
            KeyError,
            OverflowError,
            MemoryError,
            struct.error,
        ) as e:
            if not raised_in_xdsl(e):
                raise
            message = str(e) if isinstance(e, ValueError) else f"malformed op ({e})"
            raise ParseError(Span(start, self.pos, self.lexer.input), message) from None


_XDSL_DIR = Path(xdsl.__file__).parent


def raised_in_xdsl(error: BaseException) -> bool:
    """Whether the innermost frame of `error`'s traceback is xDSL's code."""
    frames = traceback.extract_tb(error.__traceback__)
    return bool(frames) and Path(frames[-1].filename).is_relative_to(_XDSL_DIR)
