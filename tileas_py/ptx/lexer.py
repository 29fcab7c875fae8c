"""A hand-written, regex-driven PTX tokenizer: one pass over the text, linear in its size.

PTX ISA: https://docs.nvidia.com/cuda/parallel-thread-execution/#syntax
"""

from __future__ import annotations

import re
from enum import IntEnum
from typing import NamedTuple, NoReturn

from xdsl.utils.exceptions import ParseError
from xdsl.utils.lexer import Input, Span


class Kind(IntEnum):
    """Token kinds, numbered like the groups of `_TOKEN`."""

    HEX_FLOAT = 1
    NUMBER = 2
    STRING = 3
    DIRECTIVE = 4
    IDENT = 5
    PUNCT = 6
    END = 7


class Token(NamedTuple):
    kind: Kind
    text: str
    start: int


_SKIP = re.compile(r"(?:\s+|//[^\n]*|/\*[\s\S]*?\*/)*")


def _skip(text: str, pos: int) -> int:
    """The position after the space and comments at `pos`."""
    match = _SKIP.match(text, pos)
    assert match is not None, "the skip pattern matches the empty string"
    return match.end()


_TOKEN = re.compile(
    r"(0[fF][0-9a-fA-F]{8}\b|0[dD][0-9a-fA-F]{16}\b)"
    r"|(0[xX][0-9a-fA-F]+U?|0[bB][01]+U?|\d+(?:\.\d*)?(?:[eE][+-]?\d+)?U?)"
    r'|("(?:[^"\\\n]|\\.)*")'
    r"|(\.[A-Za-z_][\w$]*)"
    r"|([A-Za-z_$%][\w$]*(?:\.[\w$]+(?:::[\w$]+)*)*)"
    r"|([{}\[\]();,:@!+\-|<>=*])"
)
_KINDS = tuple(Kind)


class Lexer:
    """Tokens on demand, with one token of lookahead."""

    def __init__(self, text: str, name: str) -> None:
        self.text = text
        self.input = Input(text, name)
        self.pos = 0
        self.current = self._lex()

    def _lex(self) -> Token:
        text = self.text
        pos = _skip(text, self.pos)
        if pos >= len(text):
            self.pos = pos
            return Token(Kind.END, "", pos)
        if text.startswith("/*", pos):
            self.error_at(pos, pos + 2, "unterminated /* comment")
        match = _TOKEN.match(text, pos)
        if match is None:
            self.error_at(pos, pos + 1, f"unexpected character '{text[pos]}'")
        self.pos = match.end()
        return Token(_KINDS[match.lastindex - 1], match.group(), pos)  # pyright: ignore[reportOptionalOperand]

    def advance(self) -> Token:
        """Consume and return the current token."""
        token = self.current
        self.current = self._lex()
        return token

    def next_char(self) -> str:
        """The first character after the current token and any space."""
        pos = _skip(self.text, self.pos)
        return self.text[pos : pos + 1]

    def take_punct(self, punct: str) -> bool:
        if self.current.kind is Kind.PUNCT and self.current.text == punct:
            self.advance()
            return True
        return False

    def expect_punct(self, punct: str) -> Token:
        if self.current.kind is not Kind.PUNCT or self.current.text != punct:
            self.error(f"expected '{punct}'")
        return self.advance()

    def raw_until_closing_brace(self) -> str:
        """Text from here to the next `}` outside comments and strings, which is consumed.

        For `.section` bodies, kept verbatim. The current token must be the `{`.
        """
        text = self.text
        start = self.pos
        pos = start
        while True:
            close = text.find("}", pos)
            if close < 0:
                self.error_at(start - 1, start, "unterminated section body")
            comment = text.find("//", pos, close)
            if comment < 0:
                break
            pos = text.find("\n", comment)
            if pos < 0:
                self.error_at(start - 1, start, "unterminated section body")
        self.pos = close + 1
        self.current = self._lex()
        return text[start:close]

    def error(self, message: str, token: Token | None = None) -> NoReturn:
        token = self.current if token is None else token
        end = token.start + max(len(token.text), 1)
        self.error_at(token.start, end, message)

    def error_at(self, start: int, end: int, message: str) -> NoReturn:
        raise ParseError(Span(start, end, self.input), message)
