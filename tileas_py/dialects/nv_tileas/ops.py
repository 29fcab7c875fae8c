"""The tile ops of `nv_tileas`: the kernel, layout changes, buffers, TMA tiles and MMA."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import ClassVar

from xdsl.dialects.builtin import (
    I64,
    ArrayAttr,
    DenseArrayBase,
    DictionaryAttr,
    FunctionType,
    IndexType,
    IntegerAttr,
    StringAttr,
    SymbolNameConstraint,
    TensorType,
    i32,
    i64,
)
from xdsl.dialects.utils import parse_func_op_like, print_func_op_like
from xdsl.ir import Attribute, Block, Operation, Region, SSAValue
from xdsl.irdl import (
    IRDLOperation,
    VarConstraint,
    base,
    irdl_op_definition,
    operand_def,
    opt_prop_def,
    prop_def,
    region_def,
    result_def,
    traits_def,
    var_operand_def,
)
from xdsl.parser import Parser
from xdsl.pattern_rewriter import RewritePattern
from xdsl.printer import Printer
from xdsl.traits import (
    AlwaysSpeculatable,
    HasCanonicalizationPatternsTrait,
    HasParent,
    IsolatedFromAbove,
    IsTerminator,
    OpTrait,
    Pure,
    ReturnLike,
    SymbolOpInterface,
)
from xdsl.utils.exceptions import VerifyException

from tileas_py.dialects.cute_nvgpu import (
    FragKind,
    Major,
    MmaAtomConstraint,
    SM90MmaAtomType,
    SM100MmaAtomType,
    UniversalFmaAtomType,
    verify_gemm_operands,
    verify_wgmma_tiling,
)
from tileas_py.dialects.nv_tileaa import KERNEL_SPEC, verify_entry_block_matches
from tileas_py.dialects.nv_tileas.attrs import (
    SharedEncodingAttr,
    TiledViewType,
    as_tile,
    cta_of,
    encoding_of,
    ints,
    is_shared,
    is_tmem,
    verify_tile_type,
)
from tileas_py.dialects.nv_tileas.effects import (
    AllocatesResult,
    ConvertLayoutEffects,
    CopyEffects,
    ReadsSharedOperands,
)
from tileas_py.dialects.nv_tileas.interfaces import MmaFamily

TMA_MAX_BOX = 256
"""cuTensorMapEncodeTiled: every box dimension is at most 256 elements."""


@dataclass(frozen=True)
class TileLayoutsMatchRank(OpTrait):
    """Every nv_tileas-encoded tensor operand and result has a layout of its own rank."""

    def verify(self, op: Operation) -> None:
        for t in (*op.operand_types, *op.result_types):
            verify_tile_type(t)


def same_elements(a: Attribute, b: Attribute) -> bool:
    return as_tile(a).get_element_type() == as_tile(b).get_element_type()


def shape_of(t: Attribute) -> tuple[int, ...]:
    return as_tile(t).get_shape()


def piece_shape_of(t: Attribute) -> tuple[int, ...]:
    """The shape of the piece of a tile that each CTA holds (its CTA layout's split)."""
    shape = shape_of(t)
    cta = cta_of(t)
    if cta is None:
        return shape
    split = ints(cta.split)
    if len(split) != len(shape) or any(
        n % s for n, s in zip(shape, split, strict=True)
    ):
        raise VerifyException(
            f"a tile of shape {list(shape)} cannot be split {list(split)} ways"
        )
    return tuple(n // s for n, s in zip(shape, split, strict=True))


@irdl_op_definition
class KernelOp(IRDLOperation):
    """
    A tile kernel: one program instance per program id of the launch grid.

    Carries its cluster geometry in `nv_tileaa.kernel_spec`; returns nothing.

    Example:
    ```
    nv_tileas.kernel @k(%view: !nv_tileas.tiled_view<1024x1024xf16>) attributes {nv_tileaa.kernel_spec = #nv_tileaa.kernel_spec<num_ctas = 1>} {
      nv_tileas.return
    }
    ```
    """

    name = "nv_tileas.kernel"

    body = region_def()
    sym_name = prop_def(SymbolNameConstraint())
    function_type = prop_def(FunctionType)
    arg_attrs = opt_prop_def(ArrayAttr[DictionaryAttr])

    traits = traits_def(IsolatedFromAbove(), SymbolOpInterface())

    def __init__(
        self,
        name: str,
        inputs: Sequence[Attribute],
        kernel_spec: Attribute,
        region: Region | None = None,
    ) -> None:
        function_type = FunctionType.from_lists(inputs, [])
        if region is None:
            region = Region(Block(arg_types=inputs))
        super().__init__(
            properties={"sym_name": StringAttr(name), "function_type": function_type},
            attributes={KERNEL_SPEC: kernel_spec},
            regions=[region],
        )

    def verify_(self) -> None:
        verify_entry_block_matches(self.body, self.function_type)
        if self.function_type.outputs.data:
            raise VerifyException("a kernel returns no values")
        if KERNEL_SPEC not in self.attributes:
            raise VerifyException(f"expects a '{KERNEL_SPEC}' attribute")

    @classmethod
    def parse(cls, parser: Parser) -> KernelOp:
        name, inputs, outputs, region, extra, arg_attrs, _ = parse_func_op_like(
            parser, reserved_attr_names=("sym_name", "function_type")
        )
        op = KernelOp.create(
            properties={
                "sym_name": StringAttr(name),
                "function_type": FunctionType.from_lists(inputs, outputs),
            },
            attributes=dict(extra.data) if extra is not None else {},
            regions=[region],
        )
        if arg_attrs is not None:
            op.arg_attrs = arg_attrs
        return op

    def print(self, printer: Printer) -> None:
        print_func_op_like(
            printer,
            self.sym_name,
            self.function_type,
            self.body,
            self.attributes,
            arg_attrs=self.arg_attrs,
            reserved_attr_names=("sym_name", "function_type", "arg_attrs"),
        )


@irdl_op_definition
class ReturnOp(IRDLOperation):
    """
    Ends a kernel.

    Example: `nv_tileas.return`
    """

    name = "nv_tileas.return"

    traits = traits_def(HasParent(KernelOp), IsTerminator(), ReturnLike(), Pure())

    assembly_format = "attr-dict"

    def __init__(self) -> None:
        super().__init__()


class ConvertLayoutHasCanonicalizationPatterns(HasCanonicalizationPatternsTrait):
    @classmethod
    def get_canonicalization_patterns(cls) -> tuple[RewritePattern, ...]:
        from tileas_py.dialects.nv_tileas.canonicalization import (
            EraseDeadConvert,
            FoldConvertChain,
            FoldIdentityConvert,
        )

        return (FoldIdentityConvert(), FoldConvertChain(), EraseDeadConvert())


@irdl_op_definition
class ConvertLayoutOp(IRDLOperation):
    """
    Moves a tile into another layout (registers, shared memory or the CTAs of a cluster).

    Shape and element type stay; only the encoding changes.

    Example: `%y = nv_tileas.convert_layout %x : tensor<128x64xf32, #a> -> tensor<128x64xf32, #b>`
    """

    name = "nv_tileas.convert_layout"

    source = operand_def(TensorType)
    result = result_def(TensorType)

    traits = traits_def(
        ConvertLayoutEffects(),
        AlwaysSpeculatable(),
        TileLayoutsMatchRank(),
        ConvertLayoutHasCanonicalizationPatterns(),
    )

    assembly_format = "$source attr-dict `:` type($source) `->` type($result)"

    def __init__(self, source: SSAValue | Operation, result_type: TensorType) -> None:
        super().__init__(operands=[source], result_types=[result_type])

    def verify_(self) -> None:
        if shape_of(self.source.type) != shape_of(self.result.type) or not (
            same_elements(self.source.type, self.result.type)
        ):
            raise VerifyException(
                "source and result must have the same shape and element type"
            )


@irdl_op_definition
class BroadcastOp(IRDLOperation):
    """
    Repeats a tile along its unit dimensions.

    Same rank and element type; every source dimension is 1 or equal to the result's.

    Example: `%y = nv_tileas.broadcast %x : tensor<1x64xf32, #a> -> tensor<128x64xf32, #a>`
    """

    name = "nv_tileas.broadcast"

    source = operand_def(TensorType)
    result = result_def(TensorType)

    traits = traits_def(Pure(), TileLayoutsMatchRank())

    assembly_format = "$source attr-dict `:` type($source) `->` type($result)"

    def __init__(self, source: SSAValue | Operation, result_type: TensorType) -> None:
        super().__init__(operands=[source], result_types=[result_type])

    def verify_(self) -> None:
        src, dst = shape_of(self.source.type), shape_of(self.result.type)
        if not same_elements(self.source.type, self.result.type):
            raise VerifyException("source and result must have the same element type")
        if len(src) != len(dst) or any(
            s not in (1, d) for s, d in zip(src, dst, strict=True)
        ):
            raise VerifyException(
                f"cannot broadcast shape {list(src)} to {list(dst)}: dimensions must be "
                "1 or equal"
            )


@irdl_op_definition
class ExpandDimOp(IRDLOperation):
    """
    Inserts a unit dimension at `axis`.

    Example: `%y = nv_tileas.expand_dim %x axis = 0 : tensor<64xf32, #a> -> tensor<1x64xf32, #b>`
    """

    name = "nv_tileas.expand_dim"

    source = operand_def(TensorType)
    axis = prop_def(IntegerAttr[I64])
    result = result_def(TensorType)

    traits = traits_def(Pure(), TileLayoutsMatchRank())

    assembly_format = (
        "$source `axis` `=` $axis attr-dict `:` type($source) `->` type($result)"
    )

    def __init__(
        self, source: SSAValue | Operation, axis: int, result_type: TensorType
    ) -> None:
        super().__init__(
            operands=[source],
            properties={"axis": IntegerAttr(axis, i64)},
            result_types=[result_type],
        )

    def verify_(self) -> None:
        src, dst = shape_of(self.source.type), shape_of(self.result.type)
        axis = self.axis.value.data
        if not same_elements(self.source.type, self.result.type):
            raise VerifyException("source and result must have the same element type")
        if not 0 <= axis <= len(src):
            raise VerifyException(f"axis {axis} is out of range for rank {len(src)}")
        expected = (*src[:axis], 1, *src[axis:])
        if dst != expected:
            raise VerifyException(
                f"expected result shape {list(expected)}, got {list(dst)}"
            )


@irdl_op_definition
class AllocTensorOp(IRDLOperation):
    """
    Allocates an uninitialised tile buffer (in shared memory when its layout is shared).

    Example: `%buf = nv_tileas.alloc_tensor : tensor<128x64xf16, #nv_tileas.shared<swizzle = 128, order = [1, 0]>>`
    """

    name = "nv_tileas.alloc_tensor"

    result = result_def(TensorType)

    traits = traits_def(AllocatesResult(), TileLayoutsMatchRank())

    assembly_format = "attr-dict `:` type($result)"

    def __init__(self, result_type: TensorType) -> None:
        super().__init__(result_types=[result_type])


@irdl_op_definition
class CopyOp(IRDLOperation):
    """
    Copies a tile into a destination buffer and returns the written buffer.

    Source and destination may have different layouts; their shapes and element types
    match.

    Example: `%w = nv_tileas.copy %x, %buf : tensor<128x64xf16, #blocked> -> tensor<128x64xf16, #shared>`
    """

    name = "nv_tileas.copy"

    T: ClassVar = VarConstraint("T", base(TensorType))

    source = operand_def(TensorType)
    dest = operand_def(T)
    result = result_def(T)

    traits = traits_def(CopyEffects(), TileLayoutsMatchRank())

    assembly_format = "$source `,` $dest attr-dict `:` type($source) `->` type($dest)"

    def __init__(
        self, source: SSAValue | Operation, dest: SSAValue | Operation
    ) -> None:
        super().__init__(
            operands=[source, dest], result_types=[SSAValue.get(dest).type]
        )

    def verify_(self) -> None:
        if shape_of(self.source.type) != shape_of(self.dest.type) or not (
            same_elements(self.source.type, self.dest.type)
        ):
            raise VerifyException(
                "source and destination must have the same shape and element type"
            )


def verify_tiled_access(
    view: Attribute,
    indices: int,
    tile: Attribute,
    box: DenseArrayBase[I64] | None,
    vec_size: IntegerAttr | None,
) -> None:
    assert isinstance(view, TiledViewType)
    tile = as_tile(tile)
    view_shape, tile_shape = ints(view.shape), tile.get_shape()
    if indices != len(view_shape):
        raise VerifyException(
            f"expected {len(view_shape)} coordinates for a rank-{len(view_shape)} view, "
            f"got {indices}"
        )
    if len(tile_shape) != len(view_shape):
        raise VerifyException("the tile and the view must have the same rank")
    if tile.get_element_type() != view.element_type:
        raise VerifyException("the tile and the view must have the same element type")
    if any(t > v for t, v in zip(tile_shape, view_shape, strict=True)):
        raise VerifyException(
            f"tile {list(tile_shape)} does not fit in view {list(view_shape)}"
        )
    if box is not None:
        box_shape = box.get_values()
        if len(box_shape) != len(tile_shape):
            raise VerifyException("box must have one entry per tile dimension")
        for b, t in zip(box_shape, tile_shape, strict=True):
            if not 1 <= b <= TMA_MAX_BOX or t % b:
                raise VerifyException(
                    f"box {list(box_shape)} must divide the tile {list(tile_shape)} "
                    f"with entries between 1 and {TMA_MAX_BOX}"
                )
    if vec_size is not None and vec_size.value.data not in (1, 2, 4, 8, 16):
        raise VerifyException(
            f"vec_size must be 1, 2, 4, 8 or 16, got {vec_size.value.data}"
        )


@irdl_op_definition
class TiledLoadOp(IRDLOperation):
    """
    Loads the tile at element offset (`indices`) of a global view.

    `box` is the TMA box, the per-instruction part of the tile (the whole tile when
    absent); `vec_size` the vector width of a non-TMA load, in elements.

    Example: `%t = nv_tileas.tiled_load %view[%i, %j] box = [64, 64] : !nv_tileas.tiled_view<1024x1024xf16> -> tensor<128x64xf16, #blocked>`
    """

    name = "nv_tileas.tiled_load"

    view = operand_def(TiledViewType)
    indices = var_operand_def(IndexType)
    box = opt_prop_def(DenseArrayBase.constr(i64))
    vec_size = opt_prop_def(IntegerAttr[I64])
    result = result_def(TensorType)

    traits = traits_def(TileLayoutsMatchRank())

    assembly_format = (
        "$view `[` $indices `]` (`box` `=` $box^)? (`vec_size` `=` $vec_size^)?"
        " attr-dict `:` type($view) `->` type($result)"
    )

    def __init__(
        self,
        view: SSAValue | Operation,
        indices: Sequence[SSAValue | Operation],
        result_type: TensorType,
    ) -> None:
        super().__init__(operands=[view, indices], result_types=[result_type])

    def verify_(self) -> None:
        verify_tiled_access(
            self.view.type, len(self.indices), self.result.type, self.box, self.vec_size
        )


@irdl_op_definition
class TiledStoreOp(IRDLOperation):
    """
    Stores a tile at element offset (`indices`) of a global view.

    Example: `nv_tileas.tiled_store %t, %view[%i, %j] : tensor<128x64xf16, #blocked> -> !nv_tileas.tiled_view<1024x1024xf16>`
    """

    name = "nv_tileas.tiled_store"

    value = operand_def(TensorType)
    view = operand_def(TiledViewType)
    indices = var_operand_def(IndexType)
    box = opt_prop_def(DenseArrayBase.constr(i64))
    vec_size = opt_prop_def(IntegerAttr[I64])

    traits = traits_def(TileLayoutsMatchRank())

    assembly_format = (
        "$value `,` $view `[` $indices `]` (`box` `=` $box^)?"
        " (`vec_size` `=` $vec_size^)? attr-dict `:` type($value) `->` type($view)"
    )

    def __init__(
        self,
        value: SSAValue | Operation,
        view: SSAValue | Operation,
        indices: Sequence[SSAValue | Operation],
    ) -> None:
        super().__init__(operands=[value, view, indices])

    def verify_(self) -> None:
        verify_tiled_access(
            self.view.type, len(self.indices), self.value.type, self.box, self.vec_size
        )


def operand_major(operand: str, order: tuple[int, ...]) -> Major:
    """The majorness a shared order gives an A (M x K) or B (K x N) operand."""
    k_dim = 1 if operand == "A" else 0
    return Major.K if order[0] == k_dim else Major.MN


@irdl_op_definition
class DotOp(IRDLOperation):
    """
    Tile matrix multiply-accumulate `D = A * B + C` with the MMA atom that implements it.

    A is M x K, B is K x N, C and D are M x N. With an sm90 wgmma atom the tile is covered
    by (M / 64) x (N / atom N) x (K / atom K) `wgmma.mma_async` instructions; A comes from
    shared memory (`frag_kind = ss`) or registers (`rs`), B always from shared memory, and
    each shared operand's order must give the majorness the atom names (A k-major: order
    starts with 1; B k-major: order starts with 0). The operands' `#nv_tileas.shared`
    encodings carry the swizzle span that the SMEM descriptors are built with.
    `wait_group` is the number of wgmma groups left in flight after the dot
    (`wgmma.wait_group N`); only 0 is meaningful for synchronous atoms.

    With an sm100 atom (`tcgen05.mma`) A and B are in shared memory and C in tensor memory
    (`#nv_tileas.tmem`): the MMAs accumulate into C's buffer in place, and D is that
    buffer. The operands are this CTA's part of the atom's tile: M / cta_group rows of A
    and C (one instruction along M), N / cta_group columns of B per atom N of C, and any
    multiple of the atom's K; with `cta_group = 2` the CTA pair's MMA reads the other
    halves of A and B from the peer CTA's shared memory at the same addresses.

    Example:
    ```
    %d = nv_tileas.dot %a, %b, %c atom = !cute_nvgpu.sm90.mma<64x128x16, ab_major = (k, k), elem_type = (f16, f16, f32), frag_kind = ss> wait_group = 0
        : tensor<128x64xf16, #sa>, tensor<64x128xf16, #sb> -> tensor<128x128xf32, #acc>
    ```
    """

    name = "nv_tileas.dot"

    T: ClassVar = VarConstraint("T", base(TensorType))

    a = operand_def(TensorType)
    b = operand_def(TensorType)
    c = operand_def(T)
    atom = prop_def(MmaAtomConstraint)
    wait_group = prop_def(IntegerAttr[I64])
    result = result_def(T)

    traits = traits_def(
        ReadsSharedOperands(), AlwaysSpeculatable(), MmaFamily(), TileLayoutsMatchRank()
    )

    assembly_format = (
        "$a `,` $b `,` $c `atom` `=` $atom `wait_group` `=` $wait_group attr-dict"
        " `:` type($a) `,` type($b) `->` type($c)"
    )

    def __init__(
        self,
        a: SSAValue | Operation,
        b: SSAValue | Operation,
        c: SSAValue | Operation,
        atom: SM90MmaAtomType | SM100MmaAtomType | UniversalFmaAtomType,
        wait_group: int = 0,
    ) -> None:
        super().__init__(
            operands=[a, b, c],
            properties={"atom": atom, "wait_group": IntegerAttr(wait_group, i64)},
            result_types=[SSAValue.get(c).type],
        )

    def tile_counts(self) -> tuple[int, int, int]:
        """How many atom instructions cover the tile along M, N and K."""
        assert isinstance(self.atom, SM90MmaAtomType)
        (m, k), n = shape_of(self.a.type), shape_of(self.b.type)[1]
        return (m // self.atom.m.data, n // self.atom.n.data, k // self.atom.k.data)

    def verify_(self) -> None:
        atom = self.atom
        if isinstance(atom, SM100MmaAtomType):
            self._verify_tcgen05(atom)
            return
        assert isinstance(atom, SM90MmaAtomType | UniversalFmaAtomType)
        a_shape, b_shape = verify_gemm_operands(
            atom, self.a.type, self.b.type, self.c.type
        )
        if self.wait_group.value.data < 0:
            raise VerifyException("wait_group must be non-negative")
        if isinstance(atom, UniversalFmaAtomType):
            if self.wait_group.value.data:
                raise VerifyException("wait_group applies only to sm90 wgmma atoms")
            return
        self._verify_wgmma(atom, a_shape, b_shape)

    def _verify_tcgen05(self, atom: SM100MmaAtomType) -> None:
        if self.wait_group.value.data:
            raise VerifyException("wait_group applies only to sm90 wgmma atoms")
        if not (is_shared(self.a.type) and is_shared(self.b.type)):
            raise VerifyException(
                "an sm100 mma atom reads A and B from shared memory (#nv_tileas.shared)"
            )
        if not is_tmem(self.c.type):
            raise VerifyException(
                "an sm100 mma atom accumulates in tensor memory: C must be a "
                "#nv_tileas.tmem tile"
            )
        if any(len(shape_of(v.type)) != 2 for v in (self.a, self.b, self.c)):
            raise VerifyException("A, B and C of a dot are matrices")
        # What one CTA holds: the MMA is issued on the pieces (a CTA pair's dot splits
        # A and C by rows and B by columns across the pair).
        shapes = [piece_shape_of(v.type) for v in (self.a, self.b, self.c)]
        (a_rows, k), (b_rows, b_cols), (rows, cols) = shapes
        for operand, value, expected in zip(
            "ABC",
            (self.a, self.b, self.c),
            (atom.a_type, atom.b_type, atom.acc_type),
            strict=True,
        ):
            element = as_tile(value.type).get_element_type()
            if element != expected:
                raise VerifyException(
                    f"{operand} has element type {element} but the atom expects "
                    f"{expected}"
                )
        group = atom.cta_group.data
        per_cta = atom.m.data // group
        if a_rows != per_cta or rows != per_cta:
            raise VerifyException(
                f"with a cta_group = {group} atom of M = {atom.m.data} each CTA holds "
                f"{per_cta} rows of A and C, got {a_rows} and {rows}"
            )
        if cols % atom.n.data:
            raise VerifyException(
                f"tile N = {cols} is not a multiple of the atom's N = {atom.n.data}"
            )
        if b_cols * group != cols:
            raise VerifyException(
                f"with a cta_group = {group} atom each CTA holds {cols // group} of "
                f"C's {cols} columns of B, got {b_cols}"
            )
        if b_rows != k or k % atom.k.data:
            raise VerifyException(
                f"A has K = {k} and B has K = {b_rows}: both must be the same multiple "
                f"of the atom's K = {atom.k.data}"
            )
        for operand, value, major in (
            ("A", self.a, atom.a_major.data),
            ("B", self.b, atom.b_major.data),
        ):
            encoding = encoding_of(value.type)
            assert isinstance(encoding, SharedEncodingAttr)
            actual = operand_major(operand, ints(encoding.order))
            if actual != major:
                raise VerifyException(
                    f"{operand} is {major}-major in the atom but its shared order "
                    f"{list(ints(encoding.order))} makes it {actual}-major"
                )

    def _verify_wgmma(
        self,
        atom: SM90MmaAtomType,
        a_shape: tuple[int, ...],
        b_shape: tuple[int, ...],
    ) -> None:
        verify_wgmma_tiling(atom, a_shape, b_shape)
        a_in_smem = is_shared(self.a.type)
        if atom.frag_kind.data == FragKind.SS and not a_in_smem:
            raise VerifyException(
                "frag_kind = ss needs A in shared memory (#nv_tileas.shared)"
            )
        if atom.frag_kind.data == FragKind.RS and a_in_smem:
            raise VerifyException("frag_kind = rs needs A in registers")
        if not is_shared(self.b.type):
            raise VerifyException(
                "an sm90 wgmma atom reads B from shared memory (#nv_tileas.shared)"
            )
        for operand, value, major in (
            ("A", self.a, atom.a_major.data),
            ("B", self.b, atom.b_major.data),
        ):
            encoding = encoding_of(value.type)
            if not isinstance(encoding, SharedEncodingAttr):
                continue
            actual = operand_major(operand, ints(encoding.order))
            if actual != major:
                raise VerifyException(
                    f"{operand} is {major}-major in the atom but its shared order "
                    f"{list(ints(encoding.order))} makes it {actual}-major"
                )


@irdl_op_definition
class CancelNextProgramIdOp(IRDLOperation):
    """
    Asks the tile scheduler for the next program id of this persistent CTA (x, y, z).

    Ids past the end of the grid make `nv_tileaa.is_valid_program_id` false.

    Example: `%x, %y, %z = nv_tileas.cancel_next_program_id`
    """

    name = "nv_tileas.cancel_next_program_id"

    x = result_def(i32)
    y = result_def(i32)
    z = result_def(i32)

    assembly_format = "attr-dict"

    def __init__(self) -> None:
        super().__init__(result_types=[i32, i32, i32])


@irdl_op_definition
class PragmaOp(IRDLOperation):
    """
    Forwards a tile unchanged while attaching a named hint for later passes.

    Example: `%y = nv_tileas.pragma %x "keep_in_registers" : tensor<128x64xf32, #a>`
    """

    name = "nv_tileas.pragma"

    T: ClassVar = VarConstraint("T", base(TensorType))

    input = operand_def(T)
    pragma = prop_def(StringAttr)
    result = result_def(T)

    traits = traits_def(Pure(), TileLayoutsMatchRank())

    assembly_format = "$input $pragma attr-dict `:` type($input)"

    def __init__(self, value: SSAValue | Operation, pragma: str) -> None:
        super().__init__(
            operands=[value],
            properties={"pragma": StringAttr(pragma)},
            result_types=[SSAValue.get(value).type],
        )
