"""A hand-written, regex-driven PTX tokenizer: one scan of the text, linear in its size.

PTX ISA: https://docs.nvidia.com/cuda/parallel-thread-execution/#syntax
"""

from __future__ import annotations

import bisect
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
    SPACE = 7
    ERROR = 8
    END = 9


class Token(NamedTuple):
    kind: Kind
    text: str
    start: int


_TOKEN = re.compile(
    r"(0[fF][0-9a-fA-F]{8}\b|0[dD][0-9a-fA-F]{16}\b)"
    r"|(0[xX][0-9a-fA-F]+U?|0[bB][01]+U?|\d+(?:\.\d*)?(?:[eE][+-]?\d+)?U?)"
    r'|("(?:[^"\\\n]|\\.)*")'
    r"|(\.[A-Za-z_][\w$]*)"
    r"|([A-Za-z_$%][\w$]*(?:\.[\w$]+(?:::[\w$]+)*)*)"
    r"|([{}\[\]();,:@!+\-|<>=*])"
    r"|(\s+|//[^\n]*|/\*[\s\S]*?\*/)"
    r"|([\s\S])"
)
_KINDS = tuple(Kind)


class Lexer:
    """The tokens of a whole text, found by one regex scan, with lookahead.

    A character no token starts with becomes an ERROR token, reported only if the parser
    reaches it (section bodies, kept raw, are skipped over without being judged).
    """

    def __init__(self, text: str, name: str) -> None:
        self.text = text
        self.input = Input(text, name)
        kinds = _KINDS
        space = Kind.SPACE
        self.tokens: list[Token] = [
            Token(kind, match.group(), match.start())
            for match in _TOKEN.finditer(text)
            if (kind := kinds[match.lastindex - 1]) is not space  # pyright: ignore[reportOptionalOperand]
        ]
        self.tokens.append(Token(Kind.END, "", len(text)))
        self.index = 0
        self.current = self.tokens[0]
        self._check(self.current)

    def _check(self, token: Token) -> None:
        if token.kind is not Kind.ERROR:
            return
        if self.text.startswith("/*", token.start):
            self.error_at(token.start, token.start + 2, "unterminated /* comment")
        self.error(f"unexpected character '{token.text}'", token)

    def advance(self) -> Token:
        """Consume and return the current token."""
        token = self.current
        if token.kind is not Kind.END:
            self.index += 1
            self.current = self.tokens[self.index]
            if self.current.kind is Kind.ERROR:
                self._check(self.current)
        return token

    def peek(self) -> Token:
        """The token after the current one."""
        return self.tokens[min(self.index + 1, len(self.tokens) - 1)]

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
        """Text from after the current `{` to the next `}` outside comments, consumed.

        For `.section` bodies, kept verbatim.
        """
        text = self.text
        start = self.current.start + 1
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
        index = bisect.bisect_right(self.tokens, close, key=lambda t: t.start)
        self.index = index
        self.current = self.tokens[index]
        self._check(self.current)
        return text[start:close]

    def error(self, message: str, token: Token | None = None) -> NoReturn:
        token = self.current if token is None else token
        end = token.start + max(len(token.text), 1)
        self.error_at(token.start, end, message)

    def error_at(self, start: int, end: int, message: str) -> NoReturn:
        raise ParseError(Span(start, end, self.input), message)
