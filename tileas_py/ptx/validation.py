"""What ptxas's PTX front end rejects beyond the grammar, with ptxas 13.5's own messages.

The PTX reader parses the syntax; these rules are the semantic checks ptxas makes before any
phase runs, so that a module the reader accepts is one ptxas would accept:

- the header: a file starts with `.version` (one ptxas knows) and then `.target`;
- `wgmma.*` (PTX ISA "Asynchronous Warpgroup Level Matrix Multiply-Accumulate"): only on
  `sm_90a`; the shape, the type triple, the operand list of each form (descriptor or
  register A, dense or sparse), s8 with u8 only from PTX ISA 8.4, the vector lengths, and
  the values of the immediates.

Each check returns ptxas's message (the text after `ptxas file.ptx, line N; error   : `)
or None. The rules and texts were found by assembling probes with ptxas 13.5
(`test/ptx/test_validation.py` checks every message against the real ptxas).
PTX ISA: https://docs.nvidia.com/cuda/parallel-thread-execution/#asynchronous-warpgroup-level-matrix-instructions
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from enum import StrEnum

from xdsl.ir import Attribute, SSAValue

from tileas_py.dialects.ori.attributes import (
    FloatImmAttr,
    ImmAttr,
    NotAttr,
    PtxType,
    SlotAttr,
    VectorAttr,
)
from tileas_py.dialects.ori.function import RegOp
from tileas_py.dialects.ori.instructions import InstructionOp
from tileas_py.hw.wgmma import (
    FLOAT_N,
    INTEGER_N,
    WgmmaType,
    is_legal_combination,
    k_for,
    result_elements,
)

CURRENT_VERSION = "9.5"
"""The newest PTX ISA version ptxas 13.5 reads."""

_MINORS_BY_MAJOR = {1: 5, 2: 3, 3: 2, 4: 3, 5: 1, 6: 5, 7: 8, 8: 8, 9: 5}
SUPPORTED_VERSIONS = frozenset(
    10 * major + minor
    for major, last in _MINORS_BY_MAJOR.items()
    for minor in range(last + 1)
)
"""The PTX ISA versions ptxas 13.5 reads, as `10 * major + minor`: 1.0-1.5, 2.0-2.3,
3.0-3.2, 4.0-4.3, 5.0-5.1, 6.0-6.5, 7.0-7.8, 8.0-8.8 and 9.0-9.5."""

MIXED_INTEGERS_VERSION = (8, 4)
"""The PTX ISA version from which `wgmma.mma_async` takes s8 with u8."""

WGMMA_TARGET = "sm_90a"
"""The only target with `wgmma` (sm_90 and sm_100a refuse it)."""


def unsupported_version(text: str) -> str | None:
    """ptxas's message for a `.version` it does not know, else None.

    ptxas reads `M.m` as `10 * M + m` with an integer minor, so `8.10` is 9.0."""
    major, _, minor = text.partition(".")
    known = major.isdigit() and minor.isdigit()
    if known and 10 * int(major) + int(minor) in SUPPORTED_VERSIONS:
        return None
    return f"Unsupported .version {text}; current version is '{CURRENT_VERSION}'"


def missing_header(file_name: str, has_version: bool) -> str:
    """ptxas's message for a file whose first statement after the header is not preceded
    by `.version` (then `.target`)."""
    directive = ".target" if has_version else ".version"
    return f"Missing {directive} directive at start of file '{file_name}'"


def first_sm(targets: Sequence[str]) -> str | None:
    """The SM of a `.target` list (`sm_90a` of `sm_90a, texmode_independent`)."""
    return next((t for t in targets if t.startswith("sm_")), None)


# -- wgmma ---------------------------------------------------------------------------------


class Family(StrEnum):
    """How ptxas names a `wgmma.mma_async` by its input types in its messages."""

    FLOAT = "floating point types"
    FP8 = "FP8 types"
    INTEGER = "integer types"
    BOOLEAN = "boolean type"


_FAMILY_OF = {
    WgmmaType.F16: Family.FLOAT,
    WgmmaType.BF16: Family.FLOAT,
    WgmmaType.TF32: Family.FLOAT,
    WgmmaType.E4M3: Family.FP8,
    WgmmaType.E5M2: Family.FP8,
    WgmmaType.S8: Family.INTEGER,
    WgmmaType.U8: Family.INTEGER,
    WgmmaType.B1: Family.BOOLEAN,
}
_FAMILY_INPUTS = {
    family: tuple(t for t, f in _FAMILY_OF.items() if f is family) for family in Family
}
_TRANSPOSABLE = frozenset({WgmmaType.F16, WgmmaType.BF16})
_SCALED = frozenset({Family.FLOAT, Family.FP8})

_SHAPE = re.compile(r"m(\d+)n(\d+)k(\d+)")
_MMA_SHAPES = frozenset(
    {
        "m8n8k4",
        "m8n8k16",
        "m8n8k32",
        "m8n8k128",
        "m16n8k4",
        "m16n8k8",
        "m16n8k16",
        "m16n8k32",
        "m16n8k64",
        "m16n8k128",
        "m16n8k256",
        "m16n16k8",
        "m16n16k16",
        "m32n8k16",
        "m8n32k16",
    }
)
"""The mma / wmma shapes: modifiers ptxas knows, so a wgmma with one is an illegal shape
rather than an unknown modifier."""
_WGMMA_K = frozenset({8, 16, 32, 64, 256})

_DESCRIPTOR_TYPES = frozenset({PtxType.B64, PtxType.U64, PtxType.S64})
_FRAGMENT_TYPES = frozenset({PtxType.B32, PtxType.U32, PtxType.S32})
_A_FRAGMENT_REGISTERS = 4
"""The 32-bit registers of a register A fragment per thread, whatever the input type."""


def is_known_shape(shape: str) -> bool:
    """Whether ptxas knows `shape` as a modifier at all (an mma or wgmma shape)."""
    match = _SHAPE.fullmatch(shape)
    if match is None:
        return False
    m, n, k = (int(g) for g in match.groups())
    wgmma = m == 64 and n % 8 == 0 and 8 <= n <= 256 and k in _WGMMA_K
    return wgmma or shape in _MMA_SHAPES


@dataclass(frozen=True)
class _Operand:
    """A wgmma operand as the checks see it: the layout node and its registers' types."""

    node: Attribute
    types: tuple[PtxType, ...]

    @property
    def is_register(self) -> bool:
        return isinstance(self.node, SlotAttr)

    @property
    def is_immediate(self) -> bool:
        return isinstance(self.node, ImmAttr)

    def register_in(self, allowed: frozenset[PtxType]) -> bool:
        return self.is_register and self.types[0] in allowed


def _operands(op: InstructionOp) -> list[_Operand]:
    registers = iter(op.registers)
    return [_Operand(node, tuple(_types(node, registers))) for node in op.layout]


def _types(node: Attribute, registers: Iterator[SSAValue]) -> Iterator[PtxType]:
    if isinstance(node, SlotAttr):
        owner = next(registers).owner
        yield owner.ptx_type.data if isinstance(owner, RegOp) else PtxType.B32
    elif isinstance(node, VectorAttr | NotAttr):
        children = node.elements if isinstance(node, VectorAttr) else (node.operand,)
        for child in children:
            yield from _types(child, registers)


def _element_kind(node: Attribute, ptx_type: PtxType | None) -> str:
    """What ptxas compares the elements of a D vector by: predicates, immediates and
    registers of each width differ."""
    if isinstance(node, ImmAttr | FloatImmAttr):
        return "immediate"
    if ptx_type is PtxType.PRED:
        return "predicate"
    return (
        "64"
        if ptx_type in (PtxType.B64, PtxType.U64, PtxType.S64, PtxType.F64)
        else "32"
    )


@dataclass(frozen=True)
class _Wgmma:
    """A `wgmma.mma_async[.sp]` mnemonic taken apart."""

    sparse: bool
    shape: str
    m: int
    n: int
    k: int
    types: tuple[WgmmaType, WgmmaType, WgmmaType]

    @property
    def family(self) -> Family:
        return _FAMILY_OF[self.types[1]]

    @property
    def mixed_integers(self) -> bool:
        """s8 with u8 (ptxas names the instruction after "mixed integer types")."""
        return self.family is Family.INTEGER and self.types[1] != self.types[2]

    @property
    def name(self) -> str:
        prefix = "Sparse " if self.sparse else ""
        family = "mixed integer types" if self.mixed_integers else self.family.value
        return f"{prefix}wgmma.mma_async with {family}"


def check_wgmma(
    op: InstructionOp, targets: Sequence[str], version: tuple[int, int] | None = None
) -> str | None:
    """ptxas's first message about a `wgmma.*` instruction in a module of PTX ISA
    `version` (None: unknown, no version check), or None."""
    parts = op.opcode.data.split(".")
    if parts[:2] != ["wgmma", "mma_async"]:
        if not _wgmma_supported(targets):
            return _unsupported(".".join(parts[:2]), targets)
        if parts[1] == "wait_group" and not (
            len(op.layout.data) == 1 and isinstance(op.layout.data[0], ImmAttr)
        ):
            return "Arguments mismatch for instruction 'wgmma.wait_group'"
        return None
    return _check_mma_async(op, parts, targets, version)


def _wgmma_supported(targets: Sequence[str]) -> bool:
    return first_sm(targets) == WGMMA_TARGET


def _unsupported(name: str, targets: Sequence[str]) -> str:
    return f"Instruction '{name}' not supported on .target '{first_sm(targets)}'"


def _check_mma_async(
    op: InstructionOp,
    parts: list[str],
    targets: Sequence[str],
    version: tuple[int, int] | None,
) -> str | None:
    generic = "wgmma.mma_async"
    shapes = [p for p in parts if _SHAPE.fullmatch(p) is not None]
    for shape in shapes:
        if not is_known_shape(shape):
            return f"Unknown modifier '.{shape}'"
    if not shapes:
        return f"Shape modifier required for instruction '{generic}'"
    if "sync" not in parts:
        return f".sync modifier required for instruction '{generic}'"
    type_names = [p for p in parts if p in WgmmaType.__members__.values()]
    types = [WgmmaType(t) for t in type_names[:3]]
    if len(types) != 3 or not is_legal_combination(*types):
        return f"Unexpected instruction types specified for '{generic}'"
    match = _SHAPE.fullmatch(shapes[0])
    assert match is not None
    m, n, k = (int(g) for g in match.groups())
    wgmma = _Wgmma("sp" in parts, shapes[0], m, n, k, (types[0], types[1], types[2]))
    operands = _operands(op)
    return (
        _check_arguments(wgmma, operands)
        or _check_feature_version(wgmma, version)
        or (None if _wgmma_supported(targets) else _unsupported(wgmma.name, targets))
        or _check_shape(wgmma)
        or _check_vector_sizes(wgmma, operands)
        or _check_immediates(wgmma, operands)
    )


def _check_feature_version(
    wgmma: _Wgmma, version: tuple[int, int] | None
) -> str | None:
    if not wgmma.mixed_integers or version is None or version >= MIXED_INTEGERS_VERSION:
        return None
    feature = "Sparse WGMMA" if wgmma.sparse else "WGMMA"
    major, minor = MIXED_INTEGERS_VERSION
    return (
        f"Feature '{feature} with mixed integer types' requires PTX ISA "
        f".version {major}.{minor} or later"
    )


def _check_arguments(wgmma: _Wgmma, operands: list[_Operand]) -> str | None:
    mismatch = "Arguments mismatch for instruction 'wgmma.mma_async'"
    d = operands[0].node if operands else None
    if not isinstance(d, VectorAttr):
        return "Vector expected for argument 0"
    types = iter(operands[0].types)
    kinds = {
        _element_kind(e, next(types) if isinstance(e, SlotAttr) else None)
        for e in d.elements
    }
    if len(kinds) > 1:
        return (
            "Vector with elements of different types are not allowed in "
            "wgmma.mma_async instruction"
        )
    if kinds != {"32"}:
        return mismatch
    register_a = len(operands) > 1 and isinstance(operands[1].node, VectorAttr)
    expected = _argument_kinds(wgmma, register_a)
    if len(operands) != len(expected):
        return mismatch
    for operand, kind in zip(operands[1:], expected[1:], strict=True):
        if not _is_kind(operand, kind):
            return mismatch
    return None


def _argument_kinds(wgmma: _Wgmma, register_a: bool) -> list[str]:
    """The operand list of the form: `d`, `a` / `a-fragment`, `b`, (`meta`, `selector`),
    `scale-d`, (`imm-scale-a`, `imm-scale-b`), (`imm-trans-a`,) (`imm-trans-b`)."""
    kinds = ["d", "a-fragment" if register_a else "descriptor", "descriptor"]
    if wgmma.sparse:
        kinds += ["metadata", "selector"]
    kinds.append("scale-d")
    if wgmma.family in _SCALED:
        kinds += ["scale-a", "scale-b"]
    if wgmma.types[1] in _TRANSPOSABLE:
        kinds += ["trans-b"] if register_a else ["trans-a", "trans-b"]
    return kinds


def _is_kind(operand: _Operand, kind: str) -> bool:
    node = operand.node
    if kind == "descriptor":
        return operand.is_immediate or operand.register_in(_DESCRIPTOR_TYPES)
    if kind == "a-fragment":
        return (
            isinstance(node, VectorAttr)
            and all(isinstance(e, SlotAttr) for e in node.elements)
            and all(t in _FRAGMENT_TYPES for t in operand.types)
        )
    if kind == "metadata":
        return operand.is_immediate or operand.register_in(_FRAGMENT_TYPES)
    if kind == "scale-d":
        if isinstance(node, NotAttr):
            return isinstance(node.operand, SlotAttr) and operand.types == (
                PtxType.PRED,
            )
        return operand.is_immediate or operand.register_in(frozenset({PtxType.PRED}))
    return operand.is_immediate


def _check_shape(wgmma: _Wgmma) -> str | None:
    family = wgmma.family
    factor = 2 if wgmma.sparse else 1
    ks = {k_for(t) * factor for t in _FAMILY_INPUTS[family]}
    legal_n = FLOAT_N if family in _SCALED else INTEGER_N
    if wgmma.m != 64 or wgmma.k not in ks or wgmma.n not in legal_n:
        return f"Illegal matrix shape '.{wgmma.shape}' for instruction '{wgmma.name}'"
    if wgmma.k != k_for(wgmma.types[1]) * factor:
        return (
            f"Illegal instruction types specified for '{wgmma.name}' "
            f"with shape '.{wgmma.shape}'"
        )
    return None


def _check_vector_sizes(wgmma: _Wgmma, operands: list[_Operand]) -> str | None:
    message = f"Argument vector size mismatch for instruction '{wgmma.name}'"
    d, a = operands[0].node, operands[1].node
    assert isinstance(d, VectorAttr)
    if len(d.elements) != result_elements(wgmma.n, wgmma.types[0]):
        return message
    if isinstance(a, VectorAttr) and len(a.elements) != _A_FRAGMENT_REGISTERS:
        return message
    return None


def _check_immediates(wgmma: _Wgmma, operands: list[_Operand]) -> str | None:
    register_a = isinstance(operands[1].node, VectorAttr)
    for index, (operand, kind) in enumerate(
        zip(operands, _argument_kinds(wgmma, register_a), strict=True)
    ):
        allowed = _allowed_values(wgmma, kind)
        node = operand.node
        if allowed is None or not isinstance(node, ImmAttr):
            continue
        value = node.value.data
        if value not in allowed:
            expected = " or ".join(str(v) for v in allowed)
            return (
                f"Argument {index} of instruction '{wgmma.name}': unexpected value "
                f"'{value}', expected to be {expected}"
            )
    return None


def _allowed_values(wgmma: _Wgmma, kind: str) -> tuple[int, ...] | None:
    if kind in ("scale-d", "trans-a", "trans-b"):
        return (0, 1)
    if kind in ("scale-a", "scale-b"):
        return (-1, 1)
    if kind == "selector":
        return (0, 1) if wgmma.family is Family.FLOAT else (0,)
    return None
