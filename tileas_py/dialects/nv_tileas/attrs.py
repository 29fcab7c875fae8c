"""Layout encodings and types of `nv_tileas`.

A tile is a builtin `tensor` whose encoding says how its elements are spread over threads,
warps and the CTAs of a cluster, in the manner of Triton's GPU encodings
(https://github.com/triton-lang/triton/blob/main/include/triton/Dialect/TritonGPU/IR/TritonGPUAttrDefs.td):

- `#nv_tileas.blocked<...>`: registers, `size_per_thread` x `threads_per_warp` x
  `warps_per_cta` blocks;
- `#nv_tileas.shared<...>`: a shared-memory buffer, with its swizzle span and order;
- `#nv_tileas.mma<...>`: an MMA accumulator fragment, with the instruction shape;
- `#nv_tileas.tmem`: a tile in tensor memory (sm_100), a Blackwell MMA's accumulator.

Each carries an optional CTA layout (`cta = #nv_tileas.cta_layout<...>`): how many CTAs of
the cluster hold the tile along each dimension (`ctas_per_cluster`), how many distinct
pieces it is split into (`split`; the rest is replicated) and the CTA order. A tile whose
encoding has no CTA layout is "unplanned": `tileas-plan-cta` gives it one.
"""

from __future__ import annotations

import math
from abc import ABC, abstractmethod
from collections.abc import Sequence
from functools import lru_cache
from typing import Self, cast

from xdsl.dialects.builtin import (
    AnyTensorType,
    ArrayAttr,
    IntAttr,
    NoneAttr,
    StringAttr,
    TensorType,
)
from xdsl.ir import Attribute, ParametrizedAttribute, TypeAttribute
from xdsl.irdl import irdl_attr_definition
from xdsl.parser import AttrParser
from xdsl.printer import Printer
from xdsl.utils.exceptions import VerifyException

from tileas_py.dialects.utils import verified

NUM_WARPS = "nv_tileas.num_warps"
"""The discardable attribute giving the number of warps an op, agent or function runs on."""

DYNAMIC_PERSISTENT = "nv_tileas.dynamic_persistent"
"""The unit attribute marking a kernel that `tileas-to-ptx` makes dynamic persistent."""

PERSISTENT_GRID = "nv_tileas.persistent_grid"
"""On a dynamic persistent kernel (and its `llvm.func`): the launch grid it is built
for, `array<i32: x, y, z>`; the kernel takes the tile grid as its last three i32
parameters (`tileas-dynamic-persistent`)."""

TILE_SCHEDULER = "nv_tileas.tile_scheduler"
"""On a dynamic persistent kernel whose tiles are handed out by an atomic counter in
global memory: `"dynamic"`; the kernel then takes a pointer to that counter (an i32 the
launcher zeroes) as the parameter before the tile grid (`tileas-dynamic-persistent`)."""

SWIZZLE_BYTES = (0, 32, 64, 128)


def int_array(values: Sequence[int]) -> ArrayAttr[IntAttr]:
    return ArrayAttr(IntAttr(v) for v in values)


def ints(array: ArrayAttr[IntAttr]) -> tuple[int, ...]:
    return tuple(v.data for v in array.data)


def print_int_list(printer: Printer, key: str, values: ArrayAttr[IntAttr]) -> None:
    printer.print_string(f"{key} = [{', '.join(map(str, ints(values)))}]")


def parse_int_list(parser: AttrParser, key: str) -> ArrayAttr[IntAttr]:
    parser.parse_keyword(key)
    parser.parse_punctuation("=")
    values = parser.parse_comma_separated_list(
        parser.Delimiter.SQUARE, lambda: parser.parse_integer(allow_boolean=False)
    )
    return int_array(values)


def verify_permutation(what: str, order: Sequence[int], rank: int) -> None:
    if sorted(order) != list(range(rank)):
        raise VerifyException(
            f"{what} must be a permutation of 0..{rank - 1}, got {list(order)}"
        )


@irdl_attr_definition
class CTALayoutAttr(ParametrizedAttribute):
    """
    How a tile is spread over the CTAs of a cluster.

    `ctas_per_cluster[d]` CTAs along dimension d hold the tile; they split it into
    `split[d]` distinct pieces (a divisor of `ctas_per_cluster[d]`; CTAs beyond that hold
    replicas); `order` lists the dimensions fastest-varying first.

    Example: `#nv_tileas.cta_layout<ctas_per_cluster = [2, 1], split = [2, 1], order = [1, 0]>`
    """

    name = "nv_tileas.cta_layout"

    ctas_per_cluster: ArrayAttr[IntAttr]
    split: ArrayAttr[IntAttr]
    order: ArrayAttr[IntAttr]

    def __init__(
        self,
        ctas_per_cluster: Sequence[int],
        split: Sequence[int],
        order: Sequence[int],
    ) -> None:
        super().__init__(
            int_array(ctas_per_cluster), int_array(split), int_array(order)
        )

    @property
    def rank(self) -> int:
        return len(self.ctas_per_cluster.data)

    @property
    def num_ctas(self) -> int:
        return math.prod(ints(self.ctas_per_cluster))

    def print_parameters(self, printer: Printer) -> None:
        with printer.in_angle_brackets():
            print_int_list(printer, "ctas_per_cluster", self.ctas_per_cluster)
            printer.print_string(", ")
            print_int_list(printer, "split", self.split)
            printer.print_string(", ")
            print_int_list(printer, "order", self.order)

    @classmethod
    def parse_parameters(cls, parser: AttrParser) -> Sequence[Attribute]:
        start = parser.pos
        with parser.in_angle_brackets():
            ctas = parse_int_list(parser, "ctas_per_cluster")
            parser.parse_punctuation(",")
            split = parse_int_list(parser, "split")
            parser.parse_punctuation(",")
            order = parse_int_list(parser, "order")
        return verified(parser, cls, start, (ctas, split, order))

    def verify(self) -> None:
        ctas, split = ints(self.ctas_per_cluster), ints(self.split)
        if not ctas:
            raise VerifyException("a CTA layout needs at least one dimension")
        if len(split) != len(ctas) or len(self.order.data) != len(ctas):
            raise VerifyException(
                "ctas_per_cluster, split and order must have the same length"
            )
        for c, s in zip(ctas, split, strict=True):
            if c < 1 or s < 1 or c % s:
                raise VerifyException(
                    f"split {list(split)} must divide ctas_per_cluster {list(ctas)}"
                )
        verify_permutation("CTA order", ints(self.order), len(ctas))

    def expand(self, axis: int) -> CTALayoutAttr:
        """The layout of the tile with a unit dimension inserted at `axis`."""
        ctas, split = list(ints(self.ctas_per_cluster)), list(ints(self.split))
        ctas.insert(axis, 1)
        split.insert(axis, 1)
        order = [d + 1 if d >= axis else d for d in ints(self.order)] + [axis]
        return CTALayoutAttr(ctas, split, order)

    def fit(self, shape: Sequence[int]) -> CTALayoutAttr:
        """The layout for a tile of `shape`: a dimension is split into at most as many
        pieces as divide its size (a size-1, broadcast, dimension is replicated)."""
        split = ints(self.split)
        fitted = [math.gcd(s, size) for s, size in zip(split, shape, strict=True)]
        if tuple(fitted) == split:
            return self
        return CTALayoutAttr(ints(self.ctas_per_cluster), fitted, ints(self.order))

    def squeeze(self, axis: int) -> CTALayoutAttr | None:
        """The layout with unit dimension `axis` removed; None if CTAs are spread on it."""
        ctas, split = list(ints(self.ctas_per_cluster)), list(ints(self.split))
        if ctas[axis] != 1 or len(ctas) == 1:
            return None
        del ctas[axis], split[axis]
        order = [d - 1 if d > axis else d for d in ints(self.order) if d != axis]
        return CTALayoutAttr(ctas, split, order)


def print_cta(printer: Printer, cta: CTALayoutAttr | NoneAttr) -> None:
    if isinstance(cta, CTALayoutAttr):
        printer.print_string(", cta = ")
        printer.print_attribute(cta)


def parse_cta(parser: AttrParser) -> CTALayoutAttr | NoneAttr:
    if parser.parse_optional_punctuation(",") is None:
        return NoneAttr()
    parser.parse_keyword("cta")
    parser.parse_punctuation("=")
    pos = parser.pos
    cta = parser.parse_attribute()
    if not isinstance(cta, CTALayoutAttr):
        parser.raise_error("expected a #nv_tileas.cta_layout", pos, parser.pos)
    return cta


class TensorEncoding(ParametrizedAttribute, ABC):
    """A tile layout whose last parameter is its optional CTA layout."""

    @property
    @abstractmethod
    def rank(self) -> int:
        """The tensor rank this encoding describes."""
        raise NotImplementedError()

    @property
    @abstractmethod
    def cta_layout(self) -> CTALayoutAttr | None:
        """The CTA layout, None when the tile is unplanned."""
        raise NotImplementedError()

    def with_cta(self, cta: CTALayoutAttr | None) -> Self:
        params = list(self.parameters)
        params[-1] = cta if cta is not None else NoneAttr()
        return type(self).new(params)

    def verify_cta_rank(self) -> None:
        cta = self.cta_layout
        if cta is not None and cta.rank != self.rank:
            raise VerifyException(
                f"CTA layout has rank {cta.rank} but the layout has rank {self.rank}"
            )


@irdl_attr_definition
class BlockedEncodingAttr(TensorEncoding):
    """
    A register layout: each thread holds `size_per_thread` contiguous elements, a warp's 32
    threads are arranged `threads_per_warp`, the CTA's warps `warps_per_cta`; `order` lists
    dimensions fastest-varying first.

    Example: `#nv_tileas.blocked<size_per_thread = [1, 8], threads_per_warp = [4, 8], warps_per_cta = [4, 1], order = [1, 0]>`
    """

    name = "nv_tileas.blocked"

    size_per_thread: ArrayAttr[IntAttr]
    threads_per_warp: ArrayAttr[IntAttr]
    warps_per_cta: ArrayAttr[IntAttr]
    order: ArrayAttr[IntAttr]
    cta: CTALayoutAttr | NoneAttr

    def __init__(
        self,
        size_per_thread: Sequence[int],
        threads_per_warp: Sequence[int],
        warps_per_cta: Sequence[int],
        order: Sequence[int],
        cta: CTALayoutAttr | None = None,
    ) -> None:
        super().__init__(
            int_array(size_per_thread),
            int_array(threads_per_warp),
            int_array(warps_per_cta),
            int_array(order),
            cta if cta is not None else NoneAttr(),
        )

    @property
    def cta_layout(self) -> CTALayoutAttr | None:
        return self.cta if isinstance(self.cta, CTALayoutAttr) else None

    @property
    def rank(self) -> int:
        return len(self.order.data)

    @property
    def num_warps(self) -> int:
        return math.prod(ints(self.warps_per_cta))

    def print_parameters(self, printer: Printer) -> None:
        with printer.in_angle_brackets():
            print_int_list(printer, "size_per_thread", self.size_per_thread)
            printer.print_string(", ")
            print_int_list(printer, "threads_per_warp", self.threads_per_warp)
            printer.print_string(", ")
            print_int_list(printer, "warps_per_cta", self.warps_per_cta)
            printer.print_string(", ")
            print_int_list(printer, "order", self.order)
            print_cta(printer, self.cta)

    @classmethod
    def parse_parameters(cls, parser: AttrParser) -> Sequence[Attribute]:
        start = parser.pos
        with parser.in_angle_brackets():
            fields: list[Attribute] = []
            for i, key in enumerate(
                ("size_per_thread", "threads_per_warp", "warps_per_cta", "order")
            ):
                if i:
                    parser.parse_punctuation(",")
                fields.append(parse_int_list(parser, key))
            fields.append(parse_cta(parser))
        return verified(parser, cls, start, fields)

    def verify(self) -> None:
        arrays = (
            self.size_per_thread,
            self.threads_per_warp,
            self.warps_per_cta,
            self.order,
        )
        if len({len(a.data) for a in arrays}) != 1:
            raise VerifyException(
                "size_per_thread, threads_per_warp, warps_per_cta and order must have "
                "the same length"
            )
        if any(v < 1 for a in arrays[:3] for v in ints(a)):
            raise VerifyException("blocked layout sizes must be positive")
        if math.prod(ints(self.threads_per_warp)) != 32:
            raise VerifyException(
                f"threads_per_warp {list(ints(self.threads_per_warp))} must multiply "
                "to 32"
            )
        verify_permutation("order", ints(self.order), self.rank)
        self.verify_cta_rank()


@irdl_attr_definition
class SharedEncodingAttr(TensorEncoding):
    """
    A shared-memory buffer layout: the swizzle span in bytes (0, 32, 64 or 128) and the
    dimension order, fastest-varying first. An MMA operand's order gives its majorness.

    Example: `#nv_tileas.shared<swizzle = 128, order = [1, 0]>`
    """

    name = "nv_tileas.shared"

    swizzle: IntAttr
    order: ArrayAttr[IntAttr]
    cta: CTALayoutAttr | NoneAttr

    def __init__(
        self, swizzle: int, order: Sequence[int], cta: CTALayoutAttr | None = None
    ) -> None:
        super().__init__(
            IntAttr(swizzle), int_array(order), cta if cta is not None else NoneAttr()
        )

    @property
    def cta_layout(self) -> CTALayoutAttr | None:
        return self.cta if isinstance(self.cta, CTALayoutAttr) else None

    @property
    def rank(self) -> int:
        return len(self.order.data)

    def print_parameters(self, printer: Printer) -> None:
        with printer.in_angle_brackets():
            printer.print_string(f"swizzle = {self.swizzle.data}, ")
            print_int_list(printer, "order", self.order)
            print_cta(printer, self.cta)

    @classmethod
    def parse_parameters(cls, parser: AttrParser) -> Sequence[Attribute]:
        start = parser.pos
        with parser.in_angle_brackets():
            parser.parse_keyword("swizzle")
            parser.parse_punctuation("=")
            swizzle = parser.parse_integer(allow_boolean=False)
            parser.parse_punctuation(",")
            order = parse_int_list(parser, "order")
            cta = parse_cta(parser)
        return verified(parser, cls, start, (IntAttr(swizzle), order, cta))

    def verify(self) -> None:
        if self.swizzle.data not in SWIZZLE_BYTES:
            raise VerifyException(
                f"swizzle must be 0, 32, 64 or 128 bytes, got {self.swizzle.data}"
            )
        verify_permutation("order", ints(self.order), self.rank)
        self.verify_cta_rank()


@irdl_attr_definition
class MmaEncodingAttr(TensorEncoding):
    """
    An MMA accumulator fragment: the per-instruction tile (M, N, K) and how the CTA's warps
    tile the accumulator.

    Example: `#nv_tileas.mma<warps_per_cta = [4, 1], instr_shape = [64, 128, 16]>`
    """

    name = "nv_tileas.mma"

    warps_per_cta: ArrayAttr[IntAttr]
    instr_shape: ArrayAttr[IntAttr]
    cta: CTALayoutAttr | NoneAttr

    def __init__(
        self,
        warps_per_cta: Sequence[int],
        instr_shape: Sequence[int],
        cta: CTALayoutAttr | None = None,
    ) -> None:
        super().__init__(
            int_array(warps_per_cta),
            int_array(instr_shape),
            cta if cta is not None else NoneAttr(),
        )

    @property
    def cta_layout(self) -> CTALayoutAttr | None:
        return self.cta if isinstance(self.cta, CTALayoutAttr) else None

    @property
    def rank(self) -> int:
        return len(self.warps_per_cta.data)

    def print_parameters(self, printer: Printer) -> None:
        with printer.in_angle_brackets():
            print_int_list(printer, "warps_per_cta", self.warps_per_cta)
            printer.print_string(", ")
            print_int_list(printer, "instr_shape", self.instr_shape)
            print_cta(printer, self.cta)

    @classmethod
    def parse_parameters(cls, parser: AttrParser) -> Sequence[Attribute]:
        start = parser.pos
        with parser.in_angle_brackets():
            warps = parse_int_list(parser, "warps_per_cta")
            parser.parse_punctuation(",")
            instr = parse_int_list(parser, "instr_shape")
            cta = parse_cta(parser)
        return verified(parser, cls, start, (warps, instr, cta))

    def verify(self) -> None:
        if self.rank != 2:
            raise VerifyException("an MMA accumulator layout has rank 2")
        if len(self.instr_shape.data) != 3:
            raise VerifyException("instr_shape must be [M, N, K]")
        if any(v < 1 for v in (*ints(self.warps_per_cta), *ints(self.instr_shape))):
            raise VerifyException("MMA layout sizes must be positive")
        self.verify_cta_rank()


@irdl_attr_definition
class TmemEncodingAttr(TensorEncoding):
    """
    A tile in tensor memory (sm_100): the accumulator of a Blackwell MMA
    (`!cute_nvgpu.sm100.mma`), row i of a 128-row tile in lane i, column j in column j
    of its buffer, one 32-bit cell per element. The CTA's tensor memory is allocated
    once per kernel; each tile buffer (an `alloc_tensor` or a pipeline slot) is a range
    of its columns.

    Example: `#nv_tileas.tmem`
    """

    name = "nv_tileas.tmem"

    cta: CTALayoutAttr | NoneAttr

    def __init__(self, cta: CTALayoutAttr | None = None) -> None:
        super().__init__(cta if cta is not None else NoneAttr())

    @property
    def cta_layout(self) -> CTALayoutAttr | None:
        return self.cta if isinstance(self.cta, CTALayoutAttr) else None

    @property
    def rank(self) -> int:
        return 2

    def print_parameters(self, printer: Printer) -> None:
        if isinstance(self.cta, CTALayoutAttr):
            with printer.in_angle_brackets():
                printer.print_string("cta = ")
                printer.print_attribute(self.cta)

    @classmethod
    def parse_parameters(cls, parser: AttrParser) -> Sequence[Attribute]:
        start = parser.pos
        if parser.parse_optional_punctuation("<") is None:
            return (NoneAttr(),)
        parser.parse_keyword("cta")
        parser.parse_punctuation("=")
        pos = parser.pos
        cta = parser.parse_attribute()
        if not isinstance(cta, CTALayoutAttr):
            parser.raise_error("expected a #nv_tileas.cta_layout", pos, parser.pos)
        parser.parse_punctuation(">")
        return verified(parser, cls, start, (cta,))

    def verify(self) -> None:
        self.verify_cta_rank()


def is_tmem(t: Attribute) -> bool:
    """Whether `t` is a tile in tensor memory."""
    return isinstance(encoding_of(t), TmemEncodingAttr)


def as_tile(t: Attribute) -> AnyTensorType:
    """`t` as a tensor type (the caller knows it is one)."""
    assert isinstance(t, TensorType)
    return cast(AnyTensorType, t)


def encoding_of(t: Attribute) -> TensorEncoding | None:
    """The `nv_tileas` encoding of a tensor type, if it has one."""
    if isinstance(t, TensorType) and isinstance(t.encoding, TensorEncoding):
        return t.encoding
    return None


def cta_of(t: Attribute) -> CTALayoutAttr | None:
    """The CTA layout of a tensor type; None when unplanned or not an nv_tileas tile."""
    encoding = encoding_of(t)
    return encoding.cta_layout if encoding is not None else None


@lru_cache(maxsize=4096)
def with_cta(t: AnyTensorType, cta: CTALayoutAttr | None) -> AnyTensorType:
    """The tensor type `t` with its encoding's CTA layout replaced.

    Cached: attributes are immutable, and a pass retyping a kernel asks for the same few
    types over and over (building and verifying them dominated `tileas-plan-cta`)."""
    encoding = encoding_of(t)
    assert encoding is not None
    return TensorType(t.element_type, t.get_shape(), encoding.with_cta(cta))


def is_shared(t: Attribute) -> bool:
    """Whether `t` is a tile in shared memory (a buffer)."""
    return isinstance(encoding_of(t), SharedEncodingAttr)


def verify_tile_type(t: Attribute) -> None:
    """A tile's encoding, when it is an nv_tileas one, describes the tile's rank."""
    encoding = encoding_of(t)
    if encoding is None:
        return
    rank = as_tile(t).get_num_dims()
    if encoding.rank != rank:
        raise VerifyException(
            f"layout {encoding.name} has rank {encoding.rank} but the tile has rank {rank}"
        )


@irdl_attr_definition
class TiledViewType(ParametrizedAttribute, TypeAttribute):
    """
    A tensor in global memory that tiles are loaded from and stored to (through TMA on
    Hopper and later).

    Example: `!nv_tileas.tiled_view<4096x4096xf16>`
    """

    name = "nv_tileas.tiled_view"

    shape: ArrayAttr[IntAttr]
    element_type: TypeAttribute

    def __init__(self, shape: Sequence[int], element_type: TypeAttribute) -> None:
        super().__init__(int_array(shape), element_type)

    def print_parameters(self, printer: Printer) -> None:
        with printer.in_angle_brackets():
            printer.print_dimension_list(ints(self.shape))
            printer.print_string("x")
            printer.print_attribute(self.element_type)

    @classmethod
    def parse_parameters(cls, parser: AttrParser) -> Sequence[Attribute]:
        start = parser.pos
        with parser.in_angle_brackets():
            shape, element_type = parser.parse_ranked_shape()
        return verified(parser, cls, start, (int_array(shape), element_type))

    def verify(self) -> None:
        if not self.shape.data or any(d < 1 for d in ints(self.shape)):
            raise VerifyException("a tiled view needs a static, non-empty shape")


@irdl_attr_definition
class PipelineType(ParametrizedAttribute, TypeAttribute):
    """
    An asynchronous producer / consumer pipeline: a ring of `depth` stages, each holding
    one buffer (slot) per tile type and guarded by one full and one empty mbarrier. A
    stage of several slots (CUTLASS's A and B tiles of one K step) is filled, handed over
    and released as one.

    Example: `!nv_tileas.pipeline<3, tensor<128x64xf16, #nv_tileas.shared<swizzle = 128, order = [1, 0]>>>`,
    `!nv_tileas.pipeline<4, tensor<128x64xf16, #sa>, tensor<64x128xf16, #sb>>`
    """

    name = "nv_tileas.pipeline"

    depth: IntAttr
    slot_types: ArrayAttr[TensorType]

    def __init__(
        self, depth: int, slot_types: TensorType | Sequence[TensorType]
    ) -> None:
        types = (slot_types,) if isinstance(slot_types, TensorType) else slot_types
        super().__init__(IntAttr(depth), ArrayAttr(tuple(types)))

    def print_parameters(self, printer: Printer) -> None:
        with printer.in_angle_brackets():
            printer.print_string(f"{self.depth.data}, ")
            printer.print_list(self.slot_types.data, printer.print_attribute)

    @classmethod
    def parse_parameters(cls, parser: AttrParser) -> Sequence[Attribute]:
        start = parser.pos
        with parser.in_angle_brackets():
            depth = parser.parse_integer(allow_boolean=False)
            parser.parse_punctuation(",")
            types = parser.parse_comma_separated_list(
                parser.Delimiter.NONE, parser.parse_type
            )
        return verified(parser, cls, start, (IntAttr(depth), ArrayAttr(types)))

    def verify(self) -> None:
        if self.depth.data < 1:
            raise VerifyException(
                f"pipeline depth must be positive, got {self.depth.data}"
            )
        if not self.slot_types.data:
            raise VerifyException("a pipeline stage needs at least one slot type")
        for slot_type in self.slot_types.data:
            verify_tile_type(slot_type)


PIPELINE_ITERATOR_ROLES = ("producer", "consumer")


@irdl_attr_definition
class PipelineIteratorType(ParametrizedAttribute, TypeAttribute):
    """
    A producer's or consumer's iterator over a pipeline before scheduling has fixed its
    iteration counts: a handle wrapping a value of `element_type` (a stage index, a
    slot). `tileas-unwrap-pipeline-iterators` replaces each by its element type.

    Example: `!nv_tileas.pipeline_iterator<consumer, index>`
    """

    name = "nv_tileas.pipeline_iterator"

    role: StringAttr
    element_type: TypeAttribute

    def __init__(self, role: str, element_type: TypeAttribute) -> None:
        super().__init__(StringAttr(role), element_type)

    def print_parameters(self, printer: Printer) -> None:
        with printer.in_angle_brackets():
            printer.print_string(f"{self.role.data}, ")
            printer.print_attribute(self.element_type)

    @classmethod
    def parse_parameters(cls, parser: AttrParser) -> Sequence[Attribute]:
        start = parser.pos
        with parser.in_angle_brackets():
            role = parser.parse_identifier()
            parser.parse_punctuation(",")
            element_type = parser.parse_type()
        return verified(parser, cls, start, (StringAttr(role), element_type))

    def verify(self) -> None:
        if self.role.data not in PIPELINE_ITERATOR_ROLES:
            raise VerifyException(
                f"a pipeline iterator is a `producer` or `consumer` one, got "
                f"`{self.role.data}`"
            )


@irdl_attr_definition
class MBarrierType(ParametrizedAttribute, TypeAttribute):
    """
    A shared-memory mbarrier (arrive count + transaction count, phase-tracked).

    Example: `!nv_tileas.mbarrier`
    """

    name = "nv_tileas.mbarrier"
