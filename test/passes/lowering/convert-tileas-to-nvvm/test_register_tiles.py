"""Register tiles (`#nv_tileas.blocked`) and the FMA dot, checked by running what
convert-tileas-to-nvvm emits.

The lowered kernels are straight-line code, so a small interpreter runs every thread of
the CTA in lockstep, op by op, over one shared and one global memory (lockstep order is a
valid order once the emitted barriers separate writers from readers; the lit tests check
that the barriers are there). Inputs are placed in shared buffers, the kernel reads them
into registers with `convert_layout`, and what it stores to global memory is compared
with the expected tile: every element written once, by the thread the layout gives it
to, with the right value.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

import pytest
from xdsl.dialects import llvm
from xdsl.dialects.builtin import FloatAttr, IntegerAttr, ModuleOp
from xdsl.ir import Operation, SSAValue

from tileas_py.api import parse_mlir, run_pipeline
from tileas_py.passes.lowering.tileas_to_nvvm.conventions import SHARED_PTR
from tileas_py.passes.lowering.tileas_to_nvvm.kernel import DEFAULT_ALIGNMENT

Value = int | float | tuple["Value", ...] | None

_INTEGER_OPS: dict[str, Callable[[int, int], int]] = {
    "arith.andi": lambda a, b: a & b,
    "arith.shrui": lambda a, b: a >> b,
    "arith.muli": lambda a, b: a * b,
    "arith.addi": lambda a, b: a + b,
    "arith.divui": lambda a, b: a // b,
    "arith.remui": lambda a, b: a % b,
}


def _addf(a: float, b: float) -> float:
    return a + b


def _mulf(a: float, b: float) -> float:
    return a * b


def _negf(a: float) -> float:
    return -a


_FLOAT_OPS: dict[str, Callable[..., float]] = {
    "arith.addf": _addf,
    "arith.mulf": _mulf,
    "arith.negf": _negf,
}
_BYTES = {"f32": 4, "i8": 1}


@dataclass
class Machine:
    """Shared and global memory (byte address -> value) and one register file per thread."""

    threads: int
    shared: dict[int, Value] = field(default_factory=dict[int, Value])
    stores: dict[int, tuple[int, Value]] = field(
        default_factory=dict[int, tuple[int, Value]]
    )
    registers: list[dict[SSAValue, Value]] = field(
        default_factory=list[dict[SSAValue, Value]]
    )

    def run(self, function: llvm.FuncOp) -> None:
        self.registers = [
            {arg: 0 for arg in function.body.block.args} for _ in range(self.threads)
        ]
        for op in function.body.block.ops:
            for tid in range(self.threads):
                self.step(op, tid)

    def step(self, op: Operation, tid: int) -> None:
        regs = self.registers[tid]
        values = [regs[operand] for operand in op.operands]
        result: Value = None
        match op:
            case _ if op.name == "nvvm.read.ptx.sreg.tid.x":
                result = tid
            case _ if op.name in _INTEGER_OPS:
                a, b = values
                assert isinstance(a, int)
                assert isinstance(b, int)
                result = _INTEGER_OPS[op.name](a, b)
            case _ if op.name in _FLOAT_OPS:
                result = _FLOAT_OPS[op.name](*values)
            case _ if op.name in ("arith.extui", "arith.index_cast"):
                result = values[0]
            case _ if op.name in ("arith.constant", "llvm.mlir.constant"):
                attr = op.properties.get("value", op.attributes.get("value"))
                assert isinstance(attr, IntegerAttr | FloatAttr)
                result = attr.value.data
            case llvm.UndefOp() | llvm.ZeroOp():
                t = op.results[0].type
                assert isinstance(t, llvm.LLVMStructType)
                zero = 0.0 if isinstance(op, llvm.ZeroOp) else None
                result = (zero,) * len(t.types.data)
            case llvm.InsertValueOp():
                struct, value = values
                assert isinstance(struct, tuple)
                index = op.position.get_values()[0]
                result = (*struct[:index], value, *struct[index + 1 :])
            case llvm.ExtractValueOp():
                struct = values[0]
                assert isinstance(struct, tuple)
                result = struct[op.position.get_values()[0]]
            case llvm.AddressOfOp():
                result = 0
            case llvm.GEPOp():
                result = self.address(op, values)
            case llvm.LoadOp():
                address = values[0]
                assert isinstance(address, int)
                result = self.shared[address]  # a read of unwritten memory fails
            case llvm.StoreOp():
                value, address = values
                assert isinstance(address, int)
                if op.ptr.type == SHARED_PTR:
                    self.shared[address] = value
                else:
                    assert address not in self.stores, "an element is stored twice"
                    self.stores[address] = (tid, value)
            case llvm.FMAOp():
                a, b, c = values
                assert isinstance(a, float)
                assert isinstance(b, float)
                assert isinstance(c, float)
                result = a * b + c
            case _ if op.name in ("nvvm.barrier0", "llvm.return"):
                pass
            case _:
                raise AssertionError(f"the interpreter does not know {op.name}")
        if op.results:
            regs[op.results[0]] = result

    @staticmethod
    def address(op: llvm.GEPOp, values: Sequence[Value]) -> int:
        base, *dynamic = values
        assert isinstance(base, int)
        constant = op.rawConstantIndices.get_values()[0]
        index = dynamic[0] if constant == llvm.GEP_USE_SSA_VAL else constant
        assert isinstance(index, int)
        return base + index * _BYTES[str(op.elem_type)]


def lower(text: str) -> llvm.FuncOp:
    module: ModuleOp = parse_mlir(text)
    run_pipeline(module, "convert-tileas-to-nvvm")
    function = next(op for op in module.body.block.ops if isinstance(op, llvm.FuncOp))
    assert function.body.block.ops  # straight-line: one block
    return function


def blocked(spt: list[int], tpw: list[int], wpc: list[int], order: list[int]) -> str:
    return (
        f"#nv_tileas.blocked<size_per_thread = {spt}, threads_per_warp = {tpw}, "
        f"warps_per_cta = {wpc}, order = {order}>"
    )


KERNEL = """
module attributes {{nv_tileaa.target_spec = #nv_tileaa.target_spec<sm = 90>}} {{
  nv_tileas.kernel @k(%out: !llvm.ptr<1>) attributes {{nv_tileaa.kernel_spec = #nv_tileaa.kernel_spec<num_ctas = 1>, nv_tileas.num_warps = {warps} : i32}} {{
    %c0 = arith.constant 0 : index
    %view = builtin.unrealized_conversion_cast %out : !llvm.ptr<1> to !nv_tileas.tiled_view<{shape}xf32>
{body}
    nv_tileas.return
  }}
}}
"""

LAYOUTS = {
    "example": (blocked([1, 8], [8, 4], [4, 1], [1, 0]), 4, (32, 32)),
    "repeated": (blocked([1, 4], [8, 4], [4, 1], [1, 0]), 4, (64, 32)),
    "column-order": (blocked([4, 1], [4, 8], [1, 2], [0, 1]), 2, (32, 32)),
    "three-warps": (blocked([1, 1], [16, 2], [3, 1], [1, 0]), 3, (96, 4)),
}


def run_on_layout(
    name: str, body: str, fill: Callable[[int], float], shared_order: str = "[1, 0]"
) -> tuple[dict[int, tuple[int, Value]], int]:
    """Run KERNEL with `body` for layout `name`, the first shared buffer holding
    `fill(i)` at element i; returns the global stores and the tile's width. In `body`,
    `{t}` is the register tile's type, `{s}` the shared tile's (of `shared_order`), `{cs}`
    a column-major shared tile's and `{view}` the view's."""
    layout, warps, (rows, cols) = LAYOUTS[name]
    shape = f"{rows}x{cols}"
    types = {
        "t": f"tensor<{shape}xf32, {layout}>",
        "s": f"tensor<{shape}xf32, #nv_tileas.shared<swizzle = 0, order = {shared_order}>>",
        "cs": f"tensor<{shape}xf32, #nv_tileas.shared<swizzle = 0, order = [0, 1]>>",
        "view": f"!nv_tileas.tiled_view<{shape}xf32>",
    }
    machine = Machine(32 * warps)
    for index in range(rows * cols):
        machine.shared[4 * index] = fill(index)
    text = KERNEL.format(warps=warps, shape=shape, body=body.format(**types))
    machine.run(lower(text))
    assert len(machine.stores) == rows * cols
    return machine.stores, cols


@pytest.mark.parametrize("shared_order", ["[1, 0]", "[0, 1]"])
@pytest.mark.parametrize("name", list(LAYOUTS))
def test_a_shared_tile_goes_through_registers_unchanged(
    name: str, shared_order: str
) -> None:
    body = """
    %buf = nv_tileas.alloc_tensor : {s}
    %r = nv_tileas.convert_layout %buf : {s} -> {t}
    nv_tileas.tiled_store %r, %view[%c0, %c0] : {t} -> {view}"""
    rows, cols = LAYOUTS[name][2]

    def coordinates(index: int) -> tuple[int, int]:
        """The (row, col) of element `index` of the shared tile."""
        if shared_order == "[0, 1]":
            return index % rows, index // rows
        return divmod(index, cols)

    def fill(index: int) -> float:
        r, c = coordinates(index)
        return float(r * 1000 + c)

    stores, cols = run_on_layout(name, body, fill, shared_order)
    for address, (_, value) in stores.items():
        r, c = divmod(address // 4, cols)
        assert value == float(r * 1000 + c)


@pytest.mark.parametrize("name", list(LAYOUTS))
def test_a_register_tile_copied_to_shared_reads_back_unchanged(name: str) -> None:
    body = """
    %buf = nv_tileas.alloc_tensor : {s}
    %other = nv_tileas.alloc_tensor : {cs}
    %r = nv_tileas.convert_layout %buf : {s} -> {t}
    %w = nv_tileas.copy %r, %other : {t} -> {cs}
    %back = nv_tileas.convert_layout %w : {cs} -> {t}
    nv_tileas.tiled_store %back, %view[%c0, %c0] : {t} -> {view}"""
    stores, _ = run_on_layout(name, body, float)
    assert all(float(address // 4) == v for address, (_, v) in stores.items())


@pytest.mark.parametrize("name", list(LAYOUTS))
def test_elementwise_ops_apply_to_every_element(name: str) -> None:
    body = """
    %buf = nv_tileas.alloc_tensor : {s}
    %x = nv_tileas.convert_layout %buf : {s} -> {t}
    %square = arith.mulf %x, %x : {t}
    %sum = arith.addf %square, %x : {t}
    %y = arith.negf %sum : {t}
    nv_tileas.tiled_store %y, %view[%c0, %c0] : {t} -> {view}"""
    stores, _ = run_on_layout(name, body, float)
    for address, (_, value) in stores.items():
        x = float(address // 4)
        assert value == -(x * x + x)


def test_the_example_layout_gives_each_thread_its_row_and_columns() -> None:
    layout, warps, (rows, cols) = LAYOUTS["example"]
    t = f"tensor<{rows}x{cols}xf32, {layout}>"
    body = f"""
    %r = arith.constant dense<1.0> : {t}
    nv_tileas.tiled_store %r, %view[%c0, %c0] : {t} -> !nv_tileas.tiled_view<{rows}x{cols}xf32>"""
    machine = Machine(32 * warps)
    machine.run(lower(KERNEL.format(warps=warps, shape=f"{rows}x{cols}", body=body)))
    for address, (tid, value) in machine.stores.items():
        r, c = divmod(address // 4, cols)
        warp, lane = divmod(tid, 32)
        assert (r, c // 8) == (8 * warp + lane // 4, lane % 4)
        assert value == 1.0


DOTS = {
    "example": (
        blocked([1, 8], [8, 4], [4, 1], [1, 0]),
        blocked([1, 8], [8, 4], [4, 1], [1, 0]),
        blocked([1, 8], [8, 4], [4, 1], [1, 0]),
        4,
        (32, 32, 32),
    ),
    "mixed-layouts": (
        blocked([1, 1], [8, 4], [1, 1], [1, 0]),
        blocked([1, 4], [4, 8], [1, 1], [1, 0]),
        blocked([2, 4], [4, 8], [1, 1], [1, 0]),
        1,
        (8, 4, 32),
    ),
    "column-order": (
        blocked([2, 2], [4, 8], [2, 1], [0, 1]),
        blocked([2, 2], [8, 4], [1, 2], [0, 1]),
        blocked([4, 1], [4, 8], [1, 2], [0, 1]),
        2,
        (16, 16, 16),
    ),
}


@pytest.mark.parametrize("name", list(DOTS))
def test_the_fma_dot_computes_a_times_b_plus_c(name: str) -> None:
    la, lb, lc, warps, (m, k, n) = DOTS[name]
    ta, tb, tc = (
        f"tensor<{m}x{k}xf32, {la}>",
        f"tensor<{k}x{n}xf32, {lb}>",
        f"tensor<{m}x{n}xf32, {lc}>",
    )
    sa = f"tensor<{m}x{k}xf32, #nv_tileas.shared<swizzle = 0, order = [1, 0]>>"
    sb = f"tensor<{k}x{n}xf32, #nv_tileas.shared<swizzle = 0, order = [1, 0]>>"
    body = f"""
    %abuf = nv_tileas.alloc_tensor : {sa}
    %bbuf = nv_tileas.alloc_tensor : {sb}
    %a = nv_tileas.convert_layout %abuf : {sa} -> {ta}
    %b = nv_tileas.convert_layout %bbuf : {sb} -> {tb}
    %c = arith.constant dense<0.5> : {tc}
    %d = nv_tileas.dot %a, %b, %c atom = !cute_nvgpu.universal_fma<f32, f32, f32> wait_group = 0 : {ta}, {tb} -> {tc}
    nv_tileas.tiled_store %d, %view[%c0, %c0] : {tc} -> !nv_tileas.tiled_view<{m}x{n}xf32>"""
    function = lower(KERNEL.format(warps=warps, shape=f"{m}x{n}", body=body))
    rng = random.Random(name)
    a = [[float(rng.randint(-4, 4)) for _ in range(k)] for _ in range(m)]
    b = [[float(rng.randint(-4, 4)) for _ in range(n)] for _ in range(k)]
    machine = Machine(32 * warps)
    # The buffers in program order, each 128-byte aligned (kernel.plan_shared_memory).
    b_base = -(-4 * m * k // DEFAULT_ALIGNMENT) * DEFAULT_ALIGNMENT
    for r in range(m):
        for c in range(k):
            machine.shared[4 * (r * k + c)] = a[r][c]
    for r in range(k):
        for c in range(n):
            machine.shared[b_base + 4 * (r * n + c)] = b[r][c]
    machine.run(function)
    assert len(machine.stores) == m * n
    for address, (_, value) in machine.stores.items():
        r, c = divmod(address // 4, n)
        assert value == sum(a[r][i] * b[i][c] for i in range(k)) + 0.5
