"""Kernels, functions and shared memory in `convert-tileas-to-nvvm`.

- `nv_tileas.kernel`, `nv_tileaa.func`, and a `func.func` holding tile values, become an
  `llvm.func`; a kernel (every `nv_tileas.kernel`, and a function with
  `nv_tileaa.kernel_spec`) gets
  `nvvm.kernel`, `nvvm.reqntid = [32 * nv_tileas.num_warps, 1, 1]` when the warp count is
  known, `nvvm.minctasm` when `registers.py` gave it one, and
  `nvvm.cluster_dim = [num_ctas, 1, 1]` for a cluster. Parameters take the
  types of `conventions.convert_type` (an `index` one is i64, cast back with
  `arith.index_cast`: an `llvm.func` has no index parameters); a `!nv_tileas.tiled_view` parameter is a
  CUtensorMap passed by value (`llvm.byval = !llvm.array<128 x i8>`, `llvm.align = 64`,
  `nvvm.grid_constant`), of which the kernel gets the generic address.
- `nv_tileas.return` / `nv_tileaa.return` / `func.return` become `llvm.return`.
- Shared memory: every op that needs shared memory (`SHARED` of each pattern module: here
  `nv_tileas.alloc_tensor` of a `#nv_tileas.shared` tile) gets a slice of one
  kernel-wide buffer, `llvm.mlir.global internal @<kernel>_smem` in address space 3
  (`.shared .align 1024 .b8 k_smem[N]` in PTX; above 48 KiB, CUDA's limit for static
  shared memory, dynamic shared memory `.extern .shared .align 1024 .b8 k_smem[]` whose
  size the global records as `nv_tileas.dynamic_shared_bytes`), at offsets in program order, aligned to
  1024 bytes for swizzled tiles (a swizzle pattern repeats every 1024 bytes, and the
  WGMMA descriptors assume a pattern-aligned base) and 128 otherwise. The offset is
  recorded on the op as `nv_tileas.smem_offset` before the patterns run.
- Program ids are lowered in `persistent.py`.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping

from xdsl.dialects import arith, func, llvm
from xdsl.dialects.builtin import (
    ArrayAttr,
    DenseArrayBase,
    DictionaryAttr,
    IndexType,
    IntegerAttr,
    StringAttr,
    TensorType,
    UnitAttr,
    UnrealizedConversionCastOp,
    i8,
    i32,
    i64,
)
from xdsl.ir import Attribute, Block, Operation, Region, SSAValue
from xdsl.pattern_rewriter import (
    PatternRewriter,
    RewritePattern,
    op_type_rewrite_pattern,
)

from tileas_py.diagnostics import emit_error
from tileas_py.dialects import nv_tileaa
from tileas_py.dialects.nv_tileas import ops as tile_ops
from tileas_py.dialects.nv_tileas.attrs import (
    PERSISTENT_GRID,
    TILE_SCHEDULER,
    SharedEncodingAttr,
    TiledViewType,
)
from tileas_py.dialects.nvvm import kernel as nvvm_kernel
from tileas_py.passes.lowering.tileas_to_nvvm.conventions import (
    SHARED_PTR,
    TENSOR_MAP_BYTES,
    convert_type,
    element_bits,
    from_llvm,
    is_tile_type,
    to_llvm,
)

SMEM_OFFSET = "nv_tileas.smem_offset"
"""The byte offset, in the kernel's shared buffer, that shared-memory planning gives an op."""

NUM_WARPS = "nv_tileas.num_warps"
MAX_WARPS = 32
"""A CTA has at most 1024 threads (CUDA C++ Programming Guide, "Thread Hierarchy")."""

SWIZZLED_ALIGNMENT = 1024
DEFAULT_ALIGNMENT = 128

SharedRequest = Callable[[Operation], tuple[int, int] | None]
"""How many bytes an op needs in shared memory and their alignment (None: none)."""


def _alloc_tensor_request(op: Operation) -> tuple[int, int] | None:
    assert isinstance(op, tile_ops.AllocTensorOp)
    t = op.result.type
    encoding = t.encoding
    if not isinstance(encoding, SharedEncodingAttr):
        return None
    size = element_bits(t.get_element_type())
    for d in t.get_shape():
        size *= d
    align = SWIZZLED_ALIGNMENT if encoding.swizzle.data else DEFAULT_ALIGNMENT
    return (size + 7) // 8, align


SHARED: Mapping[type[Operation], SharedRequest] = {
    tile_ops.AllocTensorOp: _alloc_tensor_request,
}


def shared_buffer_name(function: Operation) -> str:
    name = function.properties.get("sym_name")
    assert isinstance(name, StringAttr)
    return f"{name.data}_smem"


def plan_shared_memory(
    function: Operation, requests: Mapping[type[Operation], SharedRequest]
) -> int:
    """Give each op of `function` that needs shared memory its offset (`SMEM_OFFSET`)
    in one buffer; returns the buffer's size in bytes."""
    end = 0
    for op in function.walk():
        request = requests.get(type(op))
        if request is None:
            continue
        needed = request(op)
        if needed is None:
            continue
        size, align = needed
        offset = -(-end // align) * align
        op.attributes[SMEM_OFFSET] = IntegerAttr(offset, i64)
        end = offset + size
    return end


STATIC_SHARED_LIMIT = 48 * 1024
"""The most shared memory a kernel may declare statically (CUDA C++ Programming Guide,
"Shared Memory": larger allocations must be dynamic, set at launch)."""

DYNAMIC_SHARED_BYTES = "nv_tileas.dynamic_shared_bytes"
"""On a dynamic shared buffer: the bytes the launch must provide."""


def declare_shared_buffer(function: Operation, size: int) -> None:
    """`llvm.mlir.global internal @<kernel>_smem` of `size` bytes, before `function`;
    above the static limit, an external zero-length array (dynamic shared memory:
    `.extern .shared .align 1024 .b8 k_smem[]`) that records `size` for the launch."""
    dynamic = size > STATIC_SHARED_LIMIT
    buffer = llvm.GlobalOp(
        llvm.LLVMArrayType(0 if dynamic else size, i8),
        shared_buffer_name(function),
        "external" if dynamic else "internal",
        addr_space=3,
        alignment=SWIZZLED_ALIGNMENT,
    )
    if dynamic:
        buffer.attributes[DYNAMIC_SHARED_BYTES] = IntegerAttr(size, i64)
    block = function.parent_block()
    assert block is not None
    block.insert_op_before(buffer, function)


def holds_tiles(op: func.FuncOp) -> bool:
    if nv_tileaa.KERNEL_SPEC in op.attributes:
        return True
    if any(is_tile_type(t) for t in op.function_type.inputs.data):
        return True
    return any(
        is_tile_type(t)
        for inner in op.walk()
        for t in (*inner.operand_types, *inner.result_types)
    )


def _argument_attributes(t: Attribute) -> DictionaryAttr:
    if isinstance(t, TiledViewType):
        return DictionaryAttr(
            {
                nvvm_kernel.BYVAL: llvm.LLVMArrayType(TENSOR_MAP_BYTES, i8),
                "llvm.align": IntegerAttr(64, i64),
                nvvm_kernel.GRID_CONSTANT: UnitAttr(),
            }
        )
    return DictionaryAttr({})


def _kernel_attributes(op: Operation) -> dict[str, Attribute]:
    attributes: dict[str, Attribute] = {nvvm_kernel.KERNEL: UnitAttr()}
    warps = op.attributes.get(NUM_WARPS)
    if isinstance(warps, IntegerAttr):
        if not 1 <= warps.value.data <= MAX_WARPS:
            emit_error(
                op,
                f"{NUM_WARPS} = {warps.value.data}: a CTA has 1 to {MAX_WARPS} warps "
                f"(at most {32 * MAX_WARPS} threads)",
            )
        attributes[nvvm_kernel.REQNTID] = DenseArrayBase.from_list(
            i32, [32 * warps.value.data, 1, 1]
        )
    for persistence in (PERSISTENT_GRID, TILE_SCHEDULER):
        recorded = op.attributes.get(persistence)
        if recorded is not None:
            attributes[persistence] = recorded
    min_ctas = op.attributes.get(nvvm_kernel.MINCTASM)
    if min_ctas is not None:
        attributes[nvvm_kernel.MINCTASM] = min_ctas
    spec = nv_tileaa.kernel_spec_of(op)
    if spec is not None and spec.num_ctas.data > 1:
        attributes[nvvm_kernel.CLUSTER_DIM] = DenseArrayBase.from_list(
            i32, [spec.num_ctas.data, 1, 1]
        )
    return attributes


def lower_function(
    rewriter: PatternRewriter,
    op: Operation,
    name: str,
    body: Region,
    outputs: tuple[Attribute, ...],
    *,
    kernel: bool,
) -> None:
    """Replace a tile-level function by an `llvm.func` with the same body."""
    entry = body.blocks.first
    if entry is None:
        emit_error(
            op,
            "a declaration of a function with tile values is not supported by "
            "convert-tileas-to-nvvm",
        )
    inputs: list[Attribute] = []
    arg_attrs: list[DictionaryAttr] = []
    for arg in entry.args:
        # An llvm.func has no index parameters: the kernel casts an i64 one back.
        converted = i64 if isinstance(arg.type, IndexType) else convert_type(arg.type)
        if converted is None:
            emit_error(
                op,
                f"parameter of type '{arg.type}' is not supported by "
                "convert-tileas-to-nvvm",
            )
        inputs.append(converted)
        arg_attrs.append(_argument_attributes(arg.type))
    results: list[Attribute] = []
    for t in outputs:
        converted = convert_type(t)
        if converted is None:
            emit_error(
                op,
                f"result of type '{t}' is not supported by convert-tileas-to-nvvm",
            )
        results.append(converted)
    if len(results) > 1:
        emit_error(op, "a function with several results is not supported")
    new_body = rewriter.move_region_contents_to_new_regions(body)
    block = new_body.blocks.first
    assert isinstance(block, Block)
    for index, (arg, converted) in enumerate(
        zip(tuple(block.args), inputs, strict=True)
    ):
        if arg.type == converted:
            continue
        new_arg = block.insert_arg(converted, index)
        new_arg.name_hint = arg.name_hint
        cast = (
            arith.IndexCastOp(new_arg, arg.type)
            if isinstance(arg.type, IndexType)
            else UnrealizedConversionCastOp.get([new_arg], [arg.type])
        )
        if block.first_op is not None:
            block.insert_op_before(cast, block.first_op)
        else:
            block.add_op(cast)
        arg.replace_all_uses_with(cast.results[0])
        block.erase_arg(arg)
    function_type = llvm.LLVMFunctionType(
        inputs, results[0] if results else llvm.LLVMVoidType()
    )
    extra = _kernel_attributes(op) if kernel else {}
    new = llvm.FuncOp(
        name,
        function_type,
        linkage=llvm.LinkageAttr("external"),
        body=new_body,
        extra_attrs=extra,
    )
    if any(attrs.data for attrs in arg_attrs):
        new.arg_attrs = ArrayAttr(arg_attrs)
    new.location = op.location
    rewriter.replace(op, new, [])


class LowerKernel(RewritePattern):
    """`nv_tileas.kernel` to an `llvm.func` marked `nvvm.kernel`."""

    @op_type_rewrite_pattern
    def match_and_rewrite(
        self, op: tile_ops.KernelOp, rewriter: PatternRewriter
    ) -> None:
        lower_function(rewriter, op, op.sym_name.data, op.body, (), kernel=True)


class LowerTileFunc(RewritePattern):
    """A `func.func` holding tile values, or an `nv_tileaa.func` (a device function), to
    an `llvm.func` (a kernel with `nv_tileaa.kernel_spec`)."""

    @op_type_rewrite_pattern
    def match_and_rewrite(
        self, op: func.FuncOp | nv_tileaa.FuncOp, rewriter: PatternRewriter
    ) -> None:
        if isinstance(op, func.FuncOp) and not holds_tiles(op):
            return
        lower_function(
            rewriter,
            op,
            op.sym_name.data,
            op.body,
            tuple(op.function_type.outputs.data),
            kernel=nv_tileaa.KERNEL_SPEC in op.attributes,
        )


class LowerReturn(RewritePattern):
    """`nv_tileas.return` / `nv_tileaa.return` / `func.return` (inside an `llvm.func`) to
    `llvm.return`."""

    @op_type_rewrite_pattern
    def match_and_rewrite(
        self,
        op: tile_ops.ReturnOp | nv_tileaa.ReturnOp | func.ReturnOp,
        rewriter: PatternRewriter,
    ) -> None:
        if not isinstance(op.parent_op(), llvm.FuncOp):
            return
        operands: list[SSAValue] = []
        if isinstance(op, func.ReturnOp | nv_tileaa.ReturnOp):
            for value in op.arguments:
                converted = convert_type(value.type)
                assert converted is not None
                operands.append(to_llvm(rewriter, value, op, converted))
        new = llvm.ReturnOp.build(operands=[operands])
        new.location = op.location
        rewriter.replace(op, new, [])


def shared_slice(rewriter: PatternRewriter, op: Operation) -> SSAValue | None:
    """The address of the slice of the kernel's shared buffer that planning gave `op`
    (None before planning, or when `op` needs none)."""
    offset = op.attributes.get(SMEM_OFFSET)
    if not isinstance(offset, IntegerAttr):
        return None
    function = op.parent_op()
    while function is not None and not isinstance(
        function, llvm.FuncOp | func.FuncOp | tile_ops.KernelOp | nv_tileaa.FuncOp
    ):
        function = function.parent_op()
    assert function is not None
    base = rewriter.insert(
        llvm.AddressOfOp(shared_buffer_name(function), SHARED_PTR)
    ).result
    address = llvm.GEPOp(
        base, [offset.value.data], pointee_type=i8, result_type=SHARED_PTR
    )
    return rewriter.insert(address).result


class LowerAllocTensor(RewritePattern):
    """A shared `nv_tileas.alloc_tensor` to its slice of the kernel's shared buffer."""

    @op_type_rewrite_pattern
    def match_and_rewrite(
        self, op: tile_ops.AllocTensorOp, rewriter: PatternRewriter
    ) -> None:
        if SMEM_OFFSET not in op.attributes:
            return
        address = shared_slice(rewriter, op)
        assert address is not None
        t = op.result.type
        assert isinstance(t, TensorType)
        rewriter.replace(op, [], [from_llvm(rewriter, address, op, t)])


PATTERNS: tuple[RewritePattern, ...] = (
    LowerKernel(),
    LowerTileFunc(),
    LowerReturn(),
    LowerAllocTensor(),
)
