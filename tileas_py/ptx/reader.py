"""The PTX reader: PTX text (ISA 7.x to 9.x, as nvcc and Triton emit it) to ori.

A recursive-descent parser over the tokens of `tileas_py.ptx.lexer`, in one pass and linear
in the size of the file. Every instruction op gets the `FileLineColLoc` of its statement in
the `.ptx` file. `{ }` scopes are flattened: their registers, variables and labels are
renamed apart (`P1` -> `P1$1`) where they clash with a name already declared in the
function, so printing the function back without the braces means the same.

Unsupported or malformed PTX raises xDSL's `ParseError` with the span of the offending
token, which `tileas-opt` reports as `file:line:col: error: ...`.
PTX ISA: https://docs.nvidia.com/cuda/parallel-thread-execution/
"""

from __future__ import annotations

import dataclasses
import struct
from dataclasses import dataclass, field
from functools import lru_cache

from xdsl.dialects.builtin import (
    ArrayAttr,
    FileLineColLoc,
    IntAttr,
    ModuleOp,
    StringAttr,
    SymbolRefAttr,
)
from xdsl.ir import Attribute, Block, Operation, SSAValue

from tileas_py.dialects.ori.attributes import (
    SINK,
    SLOTS,
    USE_SLOT,
    AddressAttr,
    FloatImmAttr,
    FunctionKind,
    GenericAddressAttr,
    ImmAttr,
    Linkage,
    NotAttr,
    PairAttr,
    ParenAttr,
    PtxType,
    Role,
    SlotAttr,
    SpecialRegAttr,
    StateSpace,
    VectorAttr,
)
from tileas_py.dialects.ori.builders import build_instruction, build_register
from tileas_py.dialects.ori.declarations import (
    PERFORMANCE_DIRECTIVES,
    UNSIZED,
    Declarator,
    DirectiveAttr,
    ParamAttr,
    ParamSpace,
)
from tileas_py.dialects.ori.function import (
    FallthroughOp,
    FuncOp,
    LabelOp,
    LocOp,
    register_name_hint,
)
from tileas_py.dialects.ori.instructions import (
    BraOp,
    BrxOp,
    CallOp,
    InstructionOp,
    instruction_class,
)
from tileas_py.dialects.ori.module_ops import (
    AddressSizeOp,
    FileOp,
    PragmaOp,
    SectionOp,
    TargetOp,
    VarOp,
    VersionOp,
)
from tileas_py.paused_gc import paused_gc
from tileas_py.ptx.isa import KNOWN_ROOTS, first_operand_role, is_special_register
from tileas_py.ptx.lexer import Kind, Lexer, Token
from tileas_py.ptx.validation import (
    check_wgmma,
    missing_header,
    unsupported_version,
)

_TYPES = {f".{t.value}": t for t in PtxType}
_SPACES = {f".{s.value}": s for s in StateSpace}
_LINKAGES = {f".{linkage.value}": linkage for linkage in Linkage}
_DIRECTIVES = {f".{d}" for d in PERFORMANCE_DIRECTIVES}
_TERMINATOR_ROOTS = frozenset({"bra", "brx", "ret", "exit"})
_OCTAL = frozenset("01234567")
MAX_REGISTERS = 1 << 16
"""Registers one function may declare: `%r<N>` makes N ops, so N must be bounded (ptxas,
which makes them lazily, takes up to 2**31 - 1)."""


def read_ptx(text: str, name: str = "<stdin>", line_offset: int = 0) -> ModuleOp:
    """Parse a PTX module into ori (raises xDSL's ParseError on bad or unsupported PTX)."""
    with paused_gc():
        return PtxReader(text, name, line_offset).read_module()


def integer_value(text: str) -> int:
    """The value of a PTX integer literal: decimal, hex, octal or binary, `U` suffix."""
    digits = text.removesuffix("U")
    if digits[:2] in ("0x", "0X"):
        return int(digits[2:], 16)
    if digits[:2] in ("0b", "0B"):
        return int(digits[2:], 2)
    if len(digits) > 1 and digits[0] == "0":
        return int(digits, 8)
    return int(digits)


@dataclass(frozen=True)
class _Signature:
    """What a call of a function must match: how many values it returns and takes."""

    kind: FunctionKind
    returns: int
    params: int
    defined: bool


@dataclass
class _Scope:
    """One `{ }` scope of a function body: what it shadows and the labels it defines."""

    shadowed: list[tuple[str, SSAValue | str | None]] = field(
        default_factory=lambda: []
    )
    labels: dict[str, Block] = field(default_factory=lambda: {})
    pending: list[tuple[InstructionOp, int, str, Token]] = field(
        default_factory=lambda: []
    )
    """Branches waiting for their labels: the op, which successor, the label."""


class _FunctionBuilder:
    """The blocks, declarations and name scopes of the function being read."""

    def __init__(self) -> None:
        self.declarations: list[Operation] = []
        self.declared: set[str] = set()
        self.labels_used: set[str] = set()
        self.suffixes: dict[str, int] = {}
        self.visible: dict[str, SSAValue | str] = {}
        self.scopes: list[_Scope] = [_Scope()]
        self.target_lists: dict[str, tuple[str, list[Token]]] = {}
        """`.branchtargets` lists: their name in the function, and their labels."""
        self.blocks: list[Block] = []
        self.current: Block | None = self.new_block()
        self.entry_jump = FallthroughOp(self.current)

    def new_block(self) -> Block:
        block = Block()
        self.blocks.append(block)
        return block

    def unique(self, name: str, taken: set[str] | None = None) -> str:
        """`name`, or `name$N` if the function already has `name` (in `taken`)."""
        taken = self.declared if taken is None else taken
        if name not in taken:
            return name
        # Counting on from the last suffix given keeps renaming linear when one inline
        # asm snippet is repeated many times.
        n = self.suffixes.get(name, 1)
        while f"{name}${n}" in taken:
            n += 1
        self.suffixes[name] = n + 1
        return f"{name}${n}"

    def bind(self, name: str, value: SSAValue | str) -> None:
        self.scopes[-1].shadowed.append((name, self.visible.get(name)))
        self.visible[name] = value

    def block_for_code(self) -> Block:
        if self.current is None:
            self.current = self.new_block()
        return self.current

    def end_block(self, terminator: Operation, falls_through: bool) -> None:
        assert self.current is not None
        self.current.add_op(terminator)
        self.current = None
        if falls_through:
            self.current = self.new_block()
            # A positive index: xDSL 0.74's OpSuccessors.__setitem__ mishandles -1.
            terminator.successors[len(terminator.successors) - 1] = self.current


class PtxReader:
    """Reads one PTX module; see `read_ptx`."""

    def __init__(self, text: str, name: str, line_offset: int = 0) -> None:
        self.lexer = Lexer(text, name)
        self.text = text
        self.file = StringAttr(name)
        self.line_offset = line_offset
        self.line = 1
        self.line_start = 0
        self.line_pos = 0
        self.symbols: set[str] = set()
        self.func: _FunctionBuilder | None = None
        self.params: set[str] = set()
        self.targets: tuple[str, ...] = ()
        self.version: tuple[int, int] | None = None
        self.functions: dict[str, _Signature] = {}

    # -- positions ------------------------------------------------------------------------

    def location(self, pos: int) -> FileLineColLoc:
        """The file:line:col of `pos`; positions are asked for in increasing order."""
        text = self.text
        self.line += text.count("\n", self.line_pos, pos)
        self.line_pos = pos
        self.line_start = text.rfind("\n", 0, pos) + 1
        return FileLineColLoc(
            self.file,
            _int_attr(self.line + self.line_offset),
            _int_attr(pos - self.line_start + 1),
        )

    # -- tokens ---------------------------------------------------------------------------

    def expect(self, kind: Kind, what: str) -> Token:
        if self.lexer.current.kind is not kind:
            self.lexer.error(f"expected {what}")
        return self.lexer.advance()

    def expect_integer(self) -> int:
        negative = self.lexer.take_punct("-")
        token = self.expect(Kind.NUMBER, "an integer")
        text = token.text
        if not text.startswith(("0x", "0X")) and ("." in text or "e" in text.lower()):
            self.lexer.error("expected an integer", token)
        value = self.integer(token)
        return -value if negative else value

    def integer(self, token: Token) -> int:
        """The value of an integer literal; PTX integer constants have 64 bits."""
        text = token.text.removesuffix("U")
        if text[:1] == "0" and text[1:2].isdigit() and not set(text) <= _OCTAL:
            self.lexer.error(f"invalid octal integer '{token.text}'", token)
        # Checked on the length first: int() refuses strings of over 4300 digits.
        if len(text) > 66 or integer_value(text) >> 64:
            self.lexer.error("integer constant does not fit in 64 bits", token)
        return integer_value(text)

    def take_directive(self, directive: str) -> bool:
        current = self.lexer.current
        if current.kind is Kind.DIRECTIVE and current.text == directive:
            self.lexer.advance()
            return True
        return False

    # -- module level ---------------------------------------------------------------------

    def read_module(self) -> ModuleOp:
        ops = self.read_header()
        lexer = self.lexer
        while lexer.current.kind is not Kind.END:
            token = lexer.current
            if token.kind is not Kind.DIRECTIVE:
                lexer.error(f"unexpected '{token.text}' at module level")
            ops.append(self.read_module_statement(token))
        return ModuleOp(ops)

    def read_header(self) -> list[Operation]:
        """`.version` then `.target`, which ptxas requires before anything else: a file
        lacking one is refused at the first token after the header (ptxas's line)."""
        lexer = self.lexer
        ops: list[Operation] = []
        has_version = False
        for directive in (".version", ".target"):
            token = lexer.current
            if token.kind is not Kind.DIRECTIVE or token.text != directive:
                continue
            op = self.read_module_statement(token)
            if isinstance(op, VersionOp):
                has_version = True
                if (message := unsupported_version(op.version.data)) is not None:
                    lexer.error(message, token)
                major, _, minor = op.version.data.partition(".")
                self.version = (int(major), int(minor))
            elif has_version:
                assert isinstance(op, TargetOp)
                self.targets = tuple(t.data for t in op.targets)
                ops.append(op)
                return ops
            ops.append(op)
        lexer.error(missing_header(self.file.data, has_version))

    def read_module_statement(self, token: Token) -> Operation:
        lexer = self.lexer
        directive = token.text
        location = self.location(token.start)
        if directive == ".version":
            lexer.advance()
            op: Operation = VersionOp(self.expect(Kind.NUMBER, "a version").text)
        elif directive == ".target":
            lexer.advance()
            targets = [self.expect(Kind.IDENT, "a target").text]
            while lexer.take_punct(","):
                targets.append(self.expect(Kind.IDENT, "a target").text)
            op = TargetOp(targets)
        elif directive == ".address_size":
            lexer.advance()
            op = AddressSizeOp(self.expect_integer())
        elif directive == ".file":
            lexer.advance()
            index = self.expect_integer()
            path = self.read_string()
            timestamp = size = None
            if lexer.take_punct(","):
                timestamp = self.expect_integer()
                if lexer.take_punct(","):
                    size = self.expect_integer()
            op = FileOp(index, path, timestamp, size)
        elif directive == ".section":
            lexer.advance()
            name = lexer.advance()
            if name.kind not in (Kind.DIRECTIVE, Kind.IDENT):
                lexer.error("expected a section name", name)
            if lexer.current.text != "{":
                lexer.error("expected '{'")
            op = SectionOp(name.text, lexer.raw_until_closing_brace())
        elif directive == ".pragma":
            op = self.read_pragma()
        else:
            op = self.read_declaration()
        op.location = location
        lexer.take_punct(";")
        return op

    def read_string(self) -> str:
        token = self.expect(Kind.STRING, "a string")
        return (
            token.text[1:-1]
            .encode("latin-1", "backslashreplace")
            .decode("unicode_escape")
        )

    def read_pragma(self) -> PragmaOp:
        self.lexer.advance()
        strings = [self.read_string()]
        while self.lexer.take_punct(","):
            strings.append(self.read_string())
        self.lexer.expect_punct(";")
        return PragmaOp(strings)

    def read_declaration(self) -> Operation:
        lexer = self.lexer
        linkage = None
        if (token := lexer.current).text in _LINKAGES:
            linkage = _LINKAGES[token.text]
            lexer.advance()
        token = lexer.current
        if token.text in (".entry", ".func"):
            return self.read_function(linkage)
        if token.text in _SPACES and token.text != ".param":
            lexer.advance()
            var = self.read_variable(_SPACES[token.text], linkage)
            self.symbols.add(var.var_name.data)
            return var
        lexer.error(f"unsupported directive '{token.text}'")

    def read_declarator(self, allow_pointer: bool = False) -> Declarator:
        lexer = self.lexer
        align = vector = ptr_space = ptr_align = None
        if self.take_directive(".align"):
            align = self.expect_integer()
        if (v := lexer.current.text) in (".v2", ".v4", ".v8"):
            lexer.advance()
            vector = int(v[2:])
        type_token = lexer.current
        if type_token.text not in _TYPES:
            lexer.error(f"expected a PTX type, got '{type_token.text}'")
        lexer.advance()
        if allow_pointer and self.take_directive(".ptr"):
            ptr_space = "generic"
            space = lexer.current.text
            if space in (".global", ".shared", ".const", ".local"):
                lexer.advance()
                ptr_space = space[1:]
            if self.take_directive(".align"):
                ptr_align = self.expect_integer()
        if align is None and self.take_directive(".align"):
            align = self.expect_integer()
        name = self.expect(Kind.IDENT, "a name").text
        dims: list[int] = []
        while lexer.take_punct("["):
            if lexer.take_punct("]"):
                dims.append(UNSIZED)
                continue
            dims.append(self.expect_integer())
            lexer.expect_punct("]")
        return Declarator(
            _TYPES[type_token.text],
            name,
            align,
            vector,
            tuple(dims),
            ptr_space,
            ptr_align,
        )

    def read_variable(self, space: StateSpace, linkage: Linkage | None) -> VarOp:
        declarator = self.read_declarator()
        init = None
        if self.lexer.take_punct("="):
            init = self.read_initializer()
        self.lexer.expect_punct(";")
        return VarOp(space, declarator, linkage=linkage, init=init)

    def read_initializer(self) -> Attribute:
        lexer = self.lexer
        if lexer.take_punct("{"):
            elements = [self.read_initializer()]
            while lexer.take_punct(","):
                elements.append(self.read_initializer())
            lexer.expect_punct("}")
            return ArrayAttr(elements)
        token = lexer.current
        if token.kind is Kind.IDENT:
            lexer.advance()
            if token.text == "generic":
                lexer.expect_punct("(")
                symbol = self.expect(Kind.IDENT, "a variable").text
                lexer.expect_punct(")")
                return GenericAddressAttr(SymbolRefAttr(symbol))
            return SymbolRefAttr(token.text)
        return self.read_number()

    def read_number(self) -> ImmAttr | FloatImmAttr:
        lexer = self.lexer
        negative = lexer.take_punct("-")
        token = lexer.advance()
        if token.kind is Kind.HEX_FLOAT:
            width = 32 if token.text[1] in "fF" else 64
            if negative:
                lexer.error("negate a float literal through its bits", token)
            return FloatImmAttr(width, int(token.text[2:], 16))
        if token.kind is not Kind.NUMBER:
            lexer.error("expected a number", token)
        text = token.text
        if not text.startswith(("0x", "0X")) and ("." in text or "e" in text.lower()):
            value = float(text)
            bits = struct.unpack("<Q", struct.pack("<d", -value if negative else value))
            return FloatImmAttr(64, bits[0])
        value = self.integer(token)
        return _imm(-value if negative else value)

    # -- functions ------------------------------------------------------------------------

    def read_params(self, kind: FunctionKind) -> list[ParamAttr]:
        """`(.param .u64 p, ...)`; a `.func` may also take and return registers,
        `(.reg .b32 a)`, which its body names like its own registers."""
        lexer = self.lexer
        params: list[ParamAttr] = []
        if not lexer.take_punct("("):
            return params
        if lexer.take_punct(")"):
            return params
        while True:
            token = lexer.current
            if token.text == ".reg":
                lexer.advance()
                declarator = self.read_declarator()
                if kind is FunctionKind.ENTRY:
                    lexer.error(
                        f"Entry parameter '{declarator.name}' must have .param "
                        "state space",
                        token,
                    )
                if declarator.vector is not None or declarator.dims:
                    lexer.error("a register parameter must be a scalar", token)
                params.append(ParamAttr(declarator, ParamSpace.REG))
            elif token.text == ".param":
                lexer.advance()
                params.append(ParamAttr(self.read_declarator(allow_pointer=True)))
            else:
                lexer.error("expected a .param declaration")
            if not lexer.take_punct(","):
                break
        lexer.expect_punct(")")
        return params

    def read_function(self, linkage: Linkage | None) -> FuncOp:
        lexer = self.lexer
        kind = (
            FunctionKind.ENTRY
            if lexer.advance().text == ".entry"
            else FunctionKind.FUNC
        )
        returns: list[ParamAttr] = []
        if kind is FunctionKind.FUNC and lexer.current.text == "(":
            returns = self.read_params(kind)
        name = self.expect(Kind.IDENT, "a function name").text
        self.symbols.add(name)
        params = self.read_params(kind)
        # Where ptxas places its messages about the definition: the end of a kernel's
        # parameter list, a function's body.
        signature_end = lexer.tokens[lexer.index - 1]
        directives: list[DirectiveAttr] = []
        while (token := lexer.current).text in _DIRECTIVES:
            lexer.advance()
            values: list[int] = []
            if lexer.current.kind is Kind.NUMBER:
                values.append(self.expect_integer())
                while lexer.take_punct(","):
                    values.append(self.expect_integer())
            directives.append(DirectiveAttr(token.text[1:], values))
        func = FuncOp(
            name, kind, params, returns, linkage=linkage, directives=directives
        )
        defines = lexer.current.text == "{"
        signature = _Signature(kind, len(returns), len(params), defines)
        at = signature_end if kind is FunctionKind.ENTRY else lexer.current
        self.declare_function(signature, name, at)
        if lexer.take_punct(";"):
            return func
        brace = lexer.expect_punct("{")
        self.params = {
            p.param_name.data for p in (*params, *returns) if not p.is_register
        }
        self.read_body(func, brace, [p for p in (*returns, *params) if p.is_register])
        self.params = set()
        return func

    def declare_function(self, signature: _Signature, name: str, at: Token) -> None:
        """Record a function's signature for its calls; ptxas refuses a second definition,
        or an entry and a function of one name."""
        previous = self.functions.get(name)
        if previous is not None:
            if previous.kind is not signature.kind:
                self.lexer.error(
                    f"Inconsistent redefinition of '{name}' as entry and function",
                    at,
                )
            if previous.defined and signature.defined:
                self.lexer.error(f"Duplicate definition of function '{name}'", at)
        defined = signature.defined or (previous is not None and previous.defined)
        self.functions[name] = dataclasses.replace(signature, defined=defined)

    def read_body(
        self, func: FuncOp, brace: Token, register_params: list[ParamAttr]
    ) -> None:
        builder = self.func = _FunctionBuilder()
        for param in register_params:
            name = param.param_name.data
            reg = build_register(param.ptx_type.data, name)
            builder.declared.add(name)
            builder.bind(name, reg.result)
            builder.declarations.append(reg)
        lexer = self.lexer
        depth = 1
        while depth:
            token = lexer.current
            if token.kind is Kind.END:
                lexer.error("expected '}' to close the function body", brace)
            if token.kind is Kind.PUNCT:
                if token.text == "{":
                    lexer.advance()
                    builder.scopes.append(_Scope())
                    depth += 1
                    continue
                if token.text == "}":
                    lexer.advance()
                    self.close_scope(builder, depth == 1)
                    depth -= 1
                    continue
                if token.text == "@":
                    self.read_instruction()
                    continue
                lexer.error(f"unexpected '{token.text}'")
            if token.kind is Kind.DIRECTIVE:
                self.read_body_directive(token)
                continue
            if token.kind is Kind.IDENT:
                if lexer.peek().text == ":":
                    if lexer.tokens[lexer.index + 2].text == ".branchtargets":
                        self.read_target_list(token)
                    else:
                        self.read_label(token)
                else:
                    self.read_instruction()
                continue
            lexer.error(f"unexpected '{token.text}' in a function body")
        if builder.current is not None:
            builder.current.add_op(FallthroughOp())
        entry = Block([*builder.declarations, builder.entry_jump])
        func.body.add_block(entry)
        func.body.add_block(builder.blocks)
        self.func = None

    def close_scope(self, builder: _FunctionBuilder, outermost: bool) -> None:
        scope = builder.scopes.pop()
        for name, previous in reversed(scope.shadowed):
            if previous is None:
                del builder.visible[name]
            else:
                builder.visible[name] = previous
        unresolved: list[tuple[InstructionOp, int, str, Token]] = []
        for op, index, label, token in scope.pending:
            target = scope.labels.get(label)
            if target is None:
                unresolved.append((op, index, label, token))
            else:
                op.successors[index] = target
        if outermost:
            if unresolved:
                _, _, label, token = unresolved[0]
                self.lexer.error(f"Unknown symbol '{label}'", token)
            return
        builder.scopes[-1].pending.extend(unresolved)

    def read_label(self, token: Token) -> None:
        builder = self.func
        assert builder is not None
        lexer = self.lexer
        lexer.advance()
        lexer.expect_punct(":")
        scope = builder.scopes[-1]
        if token.text in scope.labels:
            lexer.error(f"duplicate label '{token.text}'", token)
        current = builder.current
        if current is not None and current.first_op is None:
            block = current
        else:
            block = builder.new_block()
            if current is not None:
                current.add_op(FallthroughOp(block))
            builder.current = block
        name = builder.unique(token.text, builder.labels_used)
        builder.labels_used.add(name)
        label = LabelOp(name)
        label.location = self.location(token.start)
        block.add_op(label)
        scope.labels[token.text] = block

    def read_target_list(self, token: Token) -> None:
        """`name: .branchtargets L1, L2, ...;`, the labels a `brx.idx` picks from."""
        builder = self.func
        assert builder is not None
        lexer = self.lexer
        lexer.advance()
        lexer.expect_punct(":")
        lexer.advance()
        labels = [self.expect(Kind.IDENT, "a label")]
        while lexer.take_punct(","):
            labels.append(self.expect(Kind.IDENT, "a label"))
        lexer.expect_punct(";")
        if token.text in builder.target_lists:
            lexer.error(f"duplicate label '{token.text}'", token)
        name = builder.unique(token.text, builder.labels_used)
        builder.labels_used.add(name)
        builder.target_lists[token.text] = (name, labels)

    def read_body_directive(self, token: Token) -> None:
        builder = self.func
        assert builder is not None
        lexer = self.lexer
        directive = token.text
        if directive == ".reg":
            lexer.advance()
            self.read_registers(builder)
            return
        if directive == ".loc":
            location = self.location(token.start)
            lexer.advance()
            op = self.read_loc()
            op.location = location
            builder.block_for_code().add_op(op)
            return
        if directive == ".pragma":
            location = self.location(token.start)
            op = self.read_pragma()
            op.location = location
            builder.block_for_code().add_op(op)
            return
        if directive in _SPACES:
            location = self.location(token.start)
            lexer.advance()
            var = self.read_variable(_SPACES[directive], None)
            var.location = location
            name = var.var_name.data
            unique = builder.unique(name)
            var.var_name = StringAttr(unique)
            builder.declared.add(unique)
            builder.bind(name, unique)
            builder.declarations.append(var)
            return
        lexer.error(f"unsupported directive '{directive}' in a function body")

    def read_registers(self, builder: _FunctionBuilder) -> None:
        lexer = self.lexer
        if (v := lexer.current.text) in (".v2", ".v4", ".v8"):
            lexer.error(f"vector registers ({v}) are not supported")
        type_token = lexer.current
        if type_token.text not in _TYPES:
            lexer.error(f"expected a PTX type, got '{type_token.text}'")
        ptx_type = _TYPES[lexer.advance().text]
        while True:
            name_token = self.expect(Kind.IDENT, "a register name")
            location = self.location(name_token.start)
            name = name_token.text
            if lexer.take_punct("<"):
                count_token = lexer.current
                count = self.expect_integer()
                lexer.expect_punct(">")
                if count < 0:
                    lexer.error("a register count cannot be negative", count_token)
                if len(builder.declarations) + count > MAX_REGISTERS:
                    lexer.error(
                        f"more than {MAX_REGISTERS} registers in one function "
                        "are not supported",
                        count_token,
                    )
                members = [(name, i) for i in range(count)]
            else:
                members = [(name, None)]
            for prefix, index in members:
                full = prefix if index is None else f"{prefix}{index}"
                unique = builder.unique(full)
                reg = (
                    build_register(ptx_type, prefix, index)
                    if unique == full
                    else build_register(ptx_type, unique)
                )
                reg.result.name_hint = register_name_hint(unique)
                reg.location = location
                builder.declared.add(unique)
                builder.bind(full, reg.result)
                builder.declarations.append(reg)
            if not lexer.take_punct(","):
                break
        lexer.expect_punct(";")

    def read_loc(self) -> LocOp:
        lexer = self.lexer
        file = self.expect_integer()
        line = self.expect_integer()
        column = self.expect_integer()
        function_name = None
        inlined_at = None
        while lexer.take_punct(","):
            key = self.expect(Kind.IDENT, "function_name or inlined_at")
            if key.text == "function_name":
                function_name = self.expect(Kind.IDENT, "a label").text
            elif key.text == "inlined_at":
                inlined_at = (
                    self.expect_integer(),
                    self.expect_integer(),
                    self.expect_integer(),
                )
            else:
                lexer.error(f"unknown .loc attribute '{key.text}'", key)
        return LocOp(file, line, column, function_name, inlined_at)

    # -- instructions ---------------------------------------------------------------------

    def read_instruction(self) -> None:
        builder = self.func
        assert builder is not None
        lexer = self.lexer
        start = lexer.current
        guard: SSAValue | None = None
        negated = False
        if lexer.take_punct("@"):
            negated = lexer.take_punct("!")
            guard_token = self.expect(Kind.IDENT, "a guard predicate")
            value = builder.visible.get(guard_token.text)
            if not isinstance(value, SSAValue):
                lexer.error(f"Unknown symbol '{guard_token.text}'", guard_token)
            guard = value
        mnemonic = self.expect(Kind.IDENT, "an instruction")
        opcode = mnemonic.text
        root = opcode.split(".", 1)[0]
        if root not in KNOWN_ROOTS:
            lexer.error(f"Not a name of any known instruction: '{root}'", mnemonic)
        location = self.location(start.start)
        op_class = instruction_class(opcode)
        if root in _TERMINATOR_ROOTS:
            self.read_terminator(
                builder,
                op_class,
                opcode,
                guard=guard,
                negated=negated,
                location=location,
            )
            return
        registers: list[SSAValue] = []
        layout: list[Attribute] = []
        if not lexer.take_punct(";"):
            layout.append(self.read_operand(registers))
            while lexer.take_punct(","):
                layout.append(self.read_operand(registers))
            lexer.expect_punct(";")
        if layout:
            role = first_operand_role(opcode)
            if op_class is CallOp and isinstance(layout[0], ParenAttr):
                role = "def"  # the return registers of a `.reg` result
            if role != "use":
                layout[0] = _with_role(layout[0], Role(role))
        op = build_instruction(op_class, opcode, layout, registers, guard, negated)
        op.location = location
        if (message := self.check(op, root)) is not None:
            lexer.error(message, start)
        builder.block_for_code().add_op(op)

    def check(self, op: InstructionOp, root: str) -> str | None:
        """ptxas's message about an instruction the grammar accepts, or None."""
        if root == "wgmma":
            return check_wgmma(op, self.targets, self.version)
        if isinstance(op, CallOp) and isinstance(callee := op.callee, SymbolRefAttr):
            signature = self.functions.get(callee.root_reference.data)
            if signature is not None and (
                len(op.returns) != signature.returns
                or len(op.arguments) != signature.params
            ):
                return "Call has wrong number of parameters"
        return None

    def read_terminator(
        self,
        builder: _FunctionBuilder,
        op_class: type[InstructionOp],
        opcode: str,
        *,
        guard: SSAValue | None,
        negated: bool,
        location: FileLineColLoc,
    ) -> None:
        lexer = self.lexer
        labels: list[Token] = []
        layout: list[Attribute] = []
        registers: list[SSAValue] = []
        if op_class is BraOp:
            labels.append(self.expect(Kind.IDENT, "a branch target"))
        elif op_class is BrxOp:
            layout.append(self.read_operand(registers))
            lexer.expect_punct(",")
            list_token = self.expect(Kind.IDENT, "a .branchtargets list")
            if list_token.text not in builder.target_lists:
                lexer.error("Arguments mismatch for instruction 'brx.idx'", list_token)
            name, labels = builder.target_lists[list_token.text]
            layout.append(SymbolRefAttr(name))
        lexer.expect_punct(";")
        successors = [_UNRESOLVED] * (len(labels) + int(guard is not None))
        op = op_class(
            opcode,
            layout,
            registers,
            guard=guard,
            guard_negated=negated,
            successors=successors,
        )
        op.location = location
        builder.block_for_code()
        builder.end_block(op, falls_through=guard is not None)
        for index, label in enumerate(labels):
            builder.scopes[-1].pending.append((op, index, label.text, label))

    def read_operand(self, registers: list[SSAValue]) -> Attribute:
        operand = self.read_single_operand(registers)
        if self.lexer.take_punct("|"):
            return PairAttr(operand, self.read_single_operand(registers))
        return operand

    def _operands_until(self, close: str, registers: list[SSAValue]) -> list[Attribute]:
        """Comma-separated operands up to and including the punctuation `close`."""
        elements = [self.read_operand(registers)]
        while self.lexer.take_punct(","):
            elements.append(self.read_operand(registers))
        self.lexer.expect_punct(close)
        return elements

    def read_single_operand(self, registers: list[SSAValue]) -> Attribute:
        lexer = self.lexer
        token = lexer.current
        if token.kind is Kind.IDENT:
            lexer.advance()
            return self.resolve(token, registers)
        if token.kind is Kind.PUNCT:
            punct = token.text
            if punct == "[":
                lexer.advance()
                return self.read_address(registers)
            if punct == "{":
                lexer.advance()
                return VectorAttr(self._operands_until("}", registers))
            if punct == "(":
                lexer.advance()
                if lexer.take_punct(")"):
                    return ParenAttr(())
                return ParenAttr(self._operands_until(")", registers))
            if punct == "!":
                lexer.advance()
                return NotAttr(self.read_single_operand(registers))
            if punct == "-":
                return self.read_number()
        if token.kind in (Kind.NUMBER, Kind.HEX_FLOAT):
            return self.read_number()
        lexer.error(f"expected an operand, got '{token.text}'")

    def read_address(self, registers: list[SSAValue]) -> AddressAttr:
        lexer = self.lexer
        token = lexer.current
        if token.kind is Kind.IDENT:
            lexer.advance()
            base = self.resolve(token, registers)
        else:
            base = self.read_number()
            if not isinstance(base, ImmAttr):
                lexer.error("an address cannot be a float", token)
        offset = 0
        if lexer.take_punct("+"):
            offset = self.expect_integer()
        elif lexer.take_punct("-"):
            offset = -self.expect_integer()
        rest: list[Attribute] = []
        while lexer.take_punct(","):
            rest.append(self.read_operand(registers))
        lexer.expect_punct("]")
        return AddressAttr(base, offset, rest)

    def resolve(self, token: Token, registers: list[SSAValue]) -> Attribute:
        """A register slot, a (renamed) function-scope variable, a special register or a symbol."""
        builder = self.func
        assert builder is not None
        name = token.text
        value = builder.visible.get(name)
        if isinstance(value, SSAValue):
            registers.append(value)
            return USE_SLOT
        if value is not None:
            return SymbolRefAttr(value)
        if name == "_":
            return SINK
        if is_special_register(name):
            return SpecialRegAttr(name)
        if name in self.symbols or name in self.params:
            return SymbolRefAttr(name)
        self.lexer.error(f"Unknown symbol '{name}'", token)


@lru_cache(maxsize=1 << 16)
def _imm(value: int) -> ImmAttr:
    return ImmAttr(value)


@lru_cache(maxsize=1 << 16)
def _int_attr(value: int) -> IntAttr:
    return IntAttr(value)


_UNRESOLVED = Block()
"""Stands for a branch target until the label's scope closes."""


def _with_role(operand: Attribute, role: Role) -> Attribute:
    """`operand` with every register slot given `role`."""
    if isinstance(operand, SlotAttr):
        return SLOTS[role]
    if isinstance(operand, VectorAttr):
        return VectorAttr([_with_role(e, role) for e in operand.elements])
    if isinstance(operand, PairAttr):
        return PairAttr(
            _with_role(operand.first, role), _with_role(operand.second, role)
        )
    if isinstance(operand, ParenAttr):
        return ParenAttr([_with_role(e, role) for e in operand.elements])
    return operand
