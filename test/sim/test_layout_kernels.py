"""Small PTX kernels through `tileas_py.sim.launch`, each checking one layout fact of the
PTX ISA end to end: a TMA load's shared bytes (every swizzle mode, out-of-bounds fill, element
strides, 1-D to 5-D, multicast), its transaction byte count, a TMA store that clips, one
wgmma per type and majorness against numpy, and ldmatrix / stmatrix fragments. The kernels
(`layout_ptx`) are assembled by the real ptxas, so they stay real PTX; the expectations come
from `ptx_isa` and `tma_reference`, never from the simulator's own layout code."""

from __future__ import annotations

from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

import ml_dtypes
import numpy as np
import numpy.typing as npt
import pytest
from layout_ptx import (  # pyright: ignore[reportImplicitRelativeImport]
    ldmatrix,
    module,
    stmatrix,
    tma_load,
    tma_store,
    wgmma,
)
from ptx_isa import (  # pyright: ignore[reportImplicitRelativeImport]
    a_position,
    accumulator_position,
    descriptor_word,
    matrix_fragment,
    operand_byte_address,
    swizzled,
)
from tma_reference import (  # pyright: ignore[reportImplicitRelativeImport]
    box_indices,
    load_box,
    shared_image,
)

from tileas_py.ptx.toolchain import run_ptxas
from tileas_py.sim import SimulationError, TensorMap, launch

KERNELS: dict[str, str] = {}
"""Every kernel of this file, by entry name: one ptxas run assembles them all."""


def _kernel(name: str, text: str) -> str:
    KERNELS[name] = text
    return name


def _run(name: str, grid: int, block: int, args: list[Any], **kwargs: Any) -> None:
    launch(module(KERNELS[name]), name, grid, block, args, **kwargs)


def _ints(
    rng: np.random.Generator, shape: tuple[int, ...], low: int, high: int, dtype: Any
) -> npt.NDArray[Any]:
    return rng.integers(low, high + 1, size=shape).astype(np.float64).astype(dtype)


# -- TMA loads --------------------------------------------------------------------------------


@dataclass(frozen=True)
class Load:
    name: str
    shape: tuple[int, ...]
    box: tuple[int, ...]
    coords: tuple[int, ...]
    """PTX order: innermost first."""
    swizzle: int = 0
    strides: tuple[int, ...] | None = None
    dtype: Any = np.float16
    base: int = 0
    """Where the box lands in the 1024-aligned shared buffer."""
    fill: str = "zero"

    @property
    def tmap(self) -> TensorMap:
        array = _ints(np.random.default_rng(1), self.shape, -100, 100, self.dtype)
        return TensorMap(
            array, self.box, self.swizzle, self.strides, oob_fill=self.fill
        )

    @property
    def buffer_bytes(self) -> int:
        return -(-(self.base + self.tmap.shared_bytes + 256) // 1024) * 1024

    def kernel(self, *, multicast: bool = False) -> str:
        name = f"tma_{self.name}{'_multicast' if multicast else ''}"
        if name not in KERNELS:
            _kernel(
                name,
                tma_load(
                    name,
                    len(self.shape),
                    buffer_bytes=self.buffer_bytes,
                    box_offset=self.base,
                    multicast=multicast,
                ),
            )
        return name

    def run(
        self, tmap: TensorMap, *, tx_delta: int = 0, cluster: int = 1
    ) -> npt.NDArray[np.uint8]:
        """The shared buffer of every CTA after the load, one row per CTA."""
        out = np.zeros((cluster, self.buffer_bytes), dtype=np.uint8)
        mask = (1 << cluster) - 1 if cluster > 1 else 0
        args = [tmap, out, tmap.box_bytes + tx_delta, mask, *self.coords]
        _run(self.kernel(multicast=cluster > 1), cluster, 128, args, cluster=cluster)
        return out

    def expected(self, tmap: TensorMap) -> npt.NDArray[np.uint8]:
        box = load_box(
            tmap.array,
            self.coords,
            self.box,
            self.strides,
            fill=np.nan if self.fill == "nan" else 0,
        )
        return shared_image(box, self.swizzle, self.base, self.buffer_bytes, 0xA5)


_LOADS = [
    Load("sw128", (64, 64), (8, 64), (0, 8), swizzle=128),
    Load("sw64", (64, 64), (8, 32), (32, 8), swizzle=64),
    Load("sw32", (64, 64), (8, 16), (16, 40), swizzle=32),
    Load("none", (64, 64), (8, 24), (8, 8)),
    Load("left", (64, 64), (8, 64), (-16, 8), swizzle=128),
    Load("right", (64, 64), (8, 64), (40, 8), swizzle=128),
    Load("top", (64, 64), (16, 32), (0, -5), swizzle=64),
    Load("bottom", (64, 64), (16, 32), (32, 60), swizzle=64),
    Load("corner", (64, 64), (16, 16), (-8, -12), swizzle=32),
    Load("outside", (64, 64), (8, 16), (-64, -8)),
    Load("nan_fill", (64, 64), (8, 64), (16, 60), swizzle=128, fill="nan"),
    Load("phase", (64, 64), (16, 64), (0, 0), swizzle=128, base=384),
    Load("phase64", (64, 64), (8, 32), (0, 0), swizzle=64, base=128),
    Load("narrow", (64, 64), (16, 16), (8, 4), swizzle=128),
    Load("narrow64", (64, 64), (16, 16), (8, 4), swizzle=64, base=256),
    Load("d1", (200,), (64,), (-8,), dtype=np.int32),
    Load("d3", (8, 12, 32), (4, 6, 8), (4, -1, 1), 32, (2, 3, 4), np.float32),
    Load("d4", (3, 4, 5, 16), (2, 3, 2, 8), (8, 3, -1, 1), 0, (1, 2, 3, 1), np.int16),
    Load("d5", (2, 3, 4, 5, 8), (2, 2, 3, 4, 8), (0, 3, 2, -1, 1), 0, (1, 2, 2, 3, 1)),
    Load("bytes", (16, 64), (8, 64), (-32, 4), swizzle=64, dtype=np.uint8),
]


@pytest.mark.parametrize("case", _LOADS, ids=[c.name for c in _LOADS])
def test_tma_load_writes_the_isa_layout(case: Load) -> None:
    tmap = case.tmap
    out = case.run(tmap)[0]
    expected = case.expected(tmap)
    if case.fill == "nan":
        assert np.array_equal(
            out.view(np.float16), expected.view(np.float16), equal_nan=True
        )
        assert np.isnan(out.view(np.float16)).sum() == 8 * 64 - 4 * 48
    else:
        assert (out == expected).all()


@pytest.mark.parametrize("cluster", [2, 4])
def test_tma_load_multicasts_to_every_cta_of_the_mask(cluster: int) -> None:
    case = _LOADS[1]
    tmap = case.tmap
    out = case.run(tmap, cluster=cluster)
    expected = case.expected(tmap)
    for rank in range(cluster):
        assert (out[rank] == expected).all(), rank


@pytest.mark.parametrize(
    "case", [_LOADS[0], _LOADS[13], _LOADS[16]], ids=lambda c: c.name
)
@pytest.mark.parametrize("delta", [16, -16])
def test_tma_load_completes_exactly_its_box_bytes(case: Load, delta: int) -> None:
    """The box's bytes (ceil(box / stride) elements per dimension, not the padded
    footprint) complete the mbarrier's transaction count: expecting 16 bytes more or less
    leaves the phase open and every thread waiting."""
    with pytest.raises(SimulationError, match="deadlock"):
        case.run(case.tmap, tx_delta=delta)


def test_tma_box_must_be_128_byte_aligned_in_shared_memory() -> None:
    case = Load("misaligned", (64, 64), (8, 64), (0, 0), swizzle=128, base=64)
    with pytest.raises(SimulationError, match="must be 128-byte aligned"):
        case.run(case.tmap)


# -- TMA stores -------------------------------------------------------------------------------


@dataclass(frozen=True)
class Store:
    name: str
    shape: tuple[int, ...]
    box: tuple[int, ...]
    coords: tuple[int, ...]
    swizzle: int = 0
    base: int = 0
    buffer_bytes: int = 4096

    def __post_init__(self) -> None:
        _kernel(
            self.name,
            tma_store(
                self.name,
                len(self.shape),
                buffer_bytes=self.buffer_bytes,
                box_offset=self.base,
            ),
        )


_STORES = [
    Store("store_sw32", (32, 48), (16, 16), (40, 24), swizzle=32),
    Store("store_sw128", (32, 64), (8, 64), (-16, 4), swizzle=128, base=128),
    Store("store_sw64_narrow", (32, 64), (8, 16), (56, -4), swizzle=64),
    Store("store_3d", (4, 6, 16), (2, 4, 8), (12, 4, 3)),
]


@pytest.mark.parametrize("case", _STORES, ids=[c.name for c in _STORES])
def test_tma_store_reads_the_isa_layout_and_clips(case: Store) -> None:
    rng = np.random.default_rng(2)
    src = rng.integers(0, 256, size=case.buffer_bytes, dtype=np.uint8)
    array = np.full(case.shape, -1, dtype=np.int16)
    _run(
        case.name,
        1,
        128,
        [TensorMap(array, case.box, case.swizzle), src, *case.coords],
    )
    expected = np.full(case.shape, -1, dtype=np.int16)
    axes = box_indices(case.shape, case.coords, case.box, None)
    pitch = max(case.box[-1] * 2, case.swizzle)
    for row, index in enumerate(np.ndindex(*case.box[:-1])):
        outer = [int(axis[i]) for axis, i in zip(axes, index, strict=False)]
        for col, inner in enumerate(axes[-1].tolist()):
            at = (*outer, inner)
            if all(0 <= c < n for c, n in zip(at, case.shape, strict=True)):
                address = swizzled(case.base + row * pitch + 2 * col, case.swizzle)
                expected[at] = src[address : address + 2].view(np.int16)[0]
    assert (array == expected).all()
    assert (array == -1).any(), "the box lies wholly inside"
    assert (array != -1).any(), "the box lies wholly outside"


# -- wgmma ------------------------------------------------------------------------------------

_DTYPES: dict[str, Any] = {
    "f16": np.float16,
    "bf16": ml_dtypes.bfloat16,
    "tf32": np.float32,
    "e4m3": ml_dtypes.float8_e4m3fn,
    "e5m2": ml_dtypes.float8_e5m2,
    "s8": np.int8,
    "u8": np.uint8,
    "f32": np.float32,
    "s32": np.int32,
}
_K = {2: 16, 4: 8, 1: 32}
_REGION = 16384
"""A's bytes start at offset 0 of the shared image, B's at this offset."""


@dataclass(frozen=True)
class Operand:
    """How a shared-memory operand is laid out: majorness, swizzle, descriptor fields
    (bytes, relative to the operand's region) and the base offset."""

    k_major: bool = True
    swizzle: int = 0
    start: int = 0
    lbo: int = 0
    sbo: int = 0
    base_offset: int = 0


def _default_operand(
    k_major: bool, swizzle: int, rows: int, k: int, eb: int
) -> Operand:
    """Dense canonical layouts (LBO / SBO as a TMA-written tile would have them)."""
    width = max(swizzle, 16)
    if k_major:
        if swizzle:
            return Operand(True, swizzle, 0, 16, 8 * width)
        return Operand(True, 0, 0, rows * 16, 128)
    if swizzle:
        return Operand(False, swizzle, 0, k * width, 8 * width)
    return Operand(False, 0, 0, rows // (16 // eb) * 128, 128)


@dataclass(frozen=True)
class Mma:
    name: str
    dtype: str
    atype: str
    btype: str
    a: Operand | None
    """None: A comes from registers."""
    b: Operand
    n: int = 32
    scale_a: int = 1
    scale_b: int = 1
    scale_d: bool = False

    @property
    def element_bytes(self) -> int:
        return np.dtype(_DTYPES[self.atype]).itemsize

    @property
    def k(self) -> int:
        return _K[self.element_bytes]

    @property
    def accumulators(self) -> int:
        return self.n // 4 if self.dtype == "f16" else self.n // 2

    def immediates(self) -> list[int]:
        if self.atype in ("s8", "u8"):
            return []
        scales = [self.scale_a, self.scale_b]
        if self.atype not in ("f16", "bf16"):
            return scales
        trans_b = [0 if self.b.k_major else 1]
        if self.a is None:
            return scales + trans_b
        return [*scales, 0 if self.a.k_major else 1, *trans_b]

    def __post_init__(self) -> None:
        shape = f"m64n{self.n}k{self.k}"
        _kernel(
            self.name,
            wgmma(
                self.name,
                shape,
                f"{self.dtype}.{self.atype}.{self.btype}",
                self.accumulators,
                image_bytes=2 * _REGION,
                a_from_registers=self.a is None,
                immediates=self.immediates(),
            ),
        )


def _place(
    image: npt.NDArray[np.uint8],
    region: int,
    matrix: npt.NDArray[Any],
    operand: Operand,
) -> int:
    """Write `matrix` (MN x K) where a wgmma reads it; returns its descriptor word."""
    eb = matrix.dtype.itemsize
    raw = np.ascontiguousarray(matrix).view(np.uint8).reshape(*matrix.shape, eb)
    for (mn, k), _ in np.ndenumerate(matrix):
        address = region + operand_byte_address(
            k_major=operand.k_major,
            swizzle=operand.swizzle,
            element_bytes=eb,
            start=operand.start,
            lbo=operand.lbo,
            sbo=operand.sbo,
            base_offset=operand.base_offset,
            mn=mn,
            k=k,
        )
        image[address : address + eb] = raw[mn, k]
    return descriptor_word(
        start=region + operand.start,
        lbo=operand.lbo,
        sbo=operand.sbo,
        base_offset=operand.base_offset,
        swizzle=operand.swizzle,
    )


def _a_registers(a: npt.NDArray[Any]) -> npt.NDArray[np.uint32]:
    """Thread t's four A fragment registers, elements packed low to high."""
    bits = a.dtype.itemsize * 8
    per = 32 // bits
    raw = np.ascontiguousarray(a).view(np.dtype(f"u{a.dtype.itemsize}"))
    words = np.zeros((128, 4), dtype=np.uint32)
    for thread in range(128):
        for i in range(4 * per):
            row, col = a_position(thread, i, bits)
            words[thread, i // per] |= np.uint32(
                int(raw[row, col]) << (bits * (i % per))
            )
    return words


def _operand(
    k_major: bool, swizzle: int, rows: int, atype: str, **changes: int
) -> Operand:
    eb = np.dtype(_DTYPES[atype]).itemsize
    return replace(_default_operand(k_major, swizzle, rows, _K[eb], eb), **changes)


def _mma(name: str, types: str, a: Operand | None, b: Operand, **kwargs: Any) -> Mma:
    dtype, atype, btype = types.split(".")
    return Mma(f"wg_{name}", dtype, atype, btype, a, b, **kwargs)


def _k(sw: int, t: str = "f16", rows: int = 64) -> Operand:
    return _operand(True, sw, rows, t)


def _mn(sw: int, t: str = "f16", rows: int = 64) -> Operand:
    return _operand(False, sw, rows, t)


_MMAS = [
    *[
        _mma(f"f16_k_sw{sw}", "f32.f16.f16", _k(sw), _k(sw, rows=32))
        for sw in (0, 32, 64, 128)
    ],
    *[
        _mma(f"f16_mn_sw{sw}", "f32.f16.f16", _mn(sw), _mn(sw, rows=32))
        for sw in (0, 32, 64, 128)
    ],
    _mma("bf16_k128_mn64", "f32.bf16.bf16", _k(128, "bf16"), _mn(64, "bf16", 32)),
    _mma(
        "bf16_mn32_k0", "f32.bf16.bf16", _mn(32, "bf16"), _k(0, "bf16", 32), scale_b=-1
    ),
    _mma(
        "f16_k128_start32",
        "f32.f16.f16",
        _operand(True, 128, 64, "f16", start=32),
        _operand(True, 64, 32, "f16", start=32),
    ),
    _mma(
        "f16_base_offset",
        "f32.f16.f16",
        _operand(True, 128, 64, "f16", start=384, base_offset=3),
        _operand(False, 128, 32, "f16", start=1024 + 128, base_offset=1),
    ),
    _mma(
        "f16_gaps",
        "f32.f16.f16",
        _operand(True, 0, 64, "f16", lbo=2048, sbo=256),
        _operand(False, 0, 32, "f16", lbo=1024, sbo=256),
        scale_a=-1,
        scale_d=True,
    ),
    _mma("f16_acc", "f16.f16.f16", _k(32), _mn(128, rows=32), scale_d=True),
    _mma("tf32_k128", "f32.tf32.tf32", _k(128, "tf32"), _k(128, "tf32", 32)),
    _mma(
        "tf32_k0",
        "f32.tf32.tf32",
        _k(0, "tf32"),
        _k(32, "tf32", 32),
        scale_a=-1,
        scale_b=-1,
    ),
    _mma("e4m3", "f32.e4m3.e4m3", _k(128, "e4m3"), _k(64, "e4m3", 32)),
    _mma("e5m2_f16", "f16.e5m2.e4m3", _k(64, "e5m2"), _k(0, "e4m3", 32), scale_b=-1),
    _mma("s8", "s32.s8.s8", _k(128, "s8"), _k(128, "s8", 32), scale_d=True),
    _mma("u8_s8", "s32.u8.s8", _k(32, "u8"), _k(0, "s8", 32)),
    _mma("u8_u8", "s32.u8.u8", _k(0, "u8"), _k(64, "u8", 32), n=64),
    _mma("regs_f16", "f32.f16.f16", None, _k(128, rows=32), scale_d=True),
    _mma("regs_bf16_mn", "f32.bf16.bf16", None, _mn(128, "bf16", 64), n=64, scale_a=-1),
    _mma("regs_tf32", "f32.tf32.tf32", None, _k(64, "tf32", 32)),
    _mma("regs_e4m3", "f16.e4m3.e5m2", None, _k(128, "e5m2", 32)),
    _mma("regs_s8", "s32.s8.u8", None, _k(32, "u8", 32)),
]

_LIMITS = {"s8": (-8, 8), "u8": (0, 8)}


@pytest.mark.parametrize("case", _MMAS, ids=[c.name for c in _MMAS])
def test_wgmma_against_numpy(case: Mma) -> None:
    rng = np.random.default_rng(3)
    low_a, high_a = _LIMITS.get(case.atype, (-3, 3))
    low_b, high_b = _LIMITS.get(case.btype, (-3, 3))
    a = _ints(rng, (64, case.k), low_a, high_a, _DTYPES[case.atype])
    b = _ints(rng, (case.k, case.n), low_b, high_b, _DTYPES[case.btype])
    image = rng.integers(0, 256, size=2 * _REGION, dtype=np.uint8)
    desc_a = _place(image, 0, a, case.a) if case.a is not None else 0
    desc_b = _place(image, _REGION, np.ascontiguousarray(b.T), case.b)
    a_regs = _a_registers(a) if case.a is None else np.zeros((128, 4), np.uint32)
    d_type = _DTYPES[case.dtype]
    d_in = _ints(rng, (64, case.n), -4, 4, np.float64)
    words_in = np.zeros((128, case.accumulators), dtype=np.uint32)
    per = 2 if case.dtype == "f16" else 1
    for thread in range(128):
        for i in range(case.n // 2):
            value = np.array(d_in[accumulator_position(thread, i)]).astype(d_type)
            bits = int(value.view(np.dtype(f"u{value.itemsize}")))
            words_in[thread, i // per] |= np.uint32(bits << (16 * (i % per)))
    out = np.zeros((128, case.accumulators), dtype=np.uint32)
    _run(
        case.name,
        1,
        128,
        [image, desc_a, desc_b, a_regs, words_in, int(case.scale_d), out],
    )
    product = (case.scale_a * a.astype(np.float64)) @ (
        case.scale_b * b.astype(np.float64)
    )
    expected = product + d_in if case.scale_d else product
    got = np.zeros((64, case.n), dtype=np.float64)
    for thread in range(128):
        for i in range(case.n // 2):
            word = (int(out[thread, i // per]) >> (16 * (i % per))) & (
                0xFFFF if per == 2 else 0xFFFFFFFF
            )
            raw = np.array(word, dtype=np.dtype(f"u{4 // per}"))
            got[accumulator_position(thread, i)] = float(raw.view(d_type))
    assert (got == expected).all()


# -- ldmatrix / stmatrix ----------------------------------------------------------------------

_MATRIX_CASES = [(count, trans) for count in (1, 2, 4) for trans in (False, True)]


def _matrix_name(kind: str, count: int, trans: bool) -> str:
    return f"{kind}_x{count}{'_trans' if trans else ''}"


for _count, _trans in _MATRIX_CASES:
    _kernel(
        _matrix_name("ldm", _count, _trans),
        ldmatrix(
            _matrix_name("ldm", _count, _trans), _count, trans=_trans, buffer_bytes=1024
        ),
    )
    _kernel(
        _matrix_name("stm", _count, _trans),
        stmatrix(
            _matrix_name("stm", _count, _trans), _count, trans=_trans, buffer_bytes=1024
        ),
    )


def _rows() -> npt.NDArray[np.uint32]:
    """Lane l's row address: 16-byte rows scattered over the 1 KiB buffer."""
    return (16 * np.random.default_rng(4).permutation(64)[:32]).astype(np.uint32)


@pytest.mark.parametrize(("count", "trans"), _MATRIX_CASES)
def test_ldmatrix_fragments(count: int, trans: bool) -> None:
    name = _matrix_name("ldm", count, trans)
    src = np.random.default_rng(5).integers(0, 1 << 16, size=512, dtype=np.uint16)
    rows = _rows()
    out = np.zeros((32, count), dtype=np.uint32)
    _run(name, 1, 32, [src, rows, None, out])
    for lane in range(32):
        for j in range(count):
            matrix = np.stack(
                [src[r // 2 : r // 2 + 8] for r in rows[8 * j : 8 * j + 8]]
            )
            if trans:
                matrix = matrix.T
            (r0, c0), (r1, c1) = matrix_fragment(lane)
            word = int(matrix[r0, c0]) | int(matrix[r1, c1]) << 16
            assert int(out[lane, j]) == word, (lane, j)


@pytest.mark.parametrize(("count", "trans"), _MATRIX_CASES)
def test_stmatrix_fragments(count: int, trans: bool) -> None:
    name = _matrix_name("stm", count, trans)
    rng = np.random.default_rng(6)
    src = rng.integers(0, 1 << 16, size=512, dtype=np.uint16)
    regs = rng.integers(0, 1 << 32, size=(32, count), dtype=np.uint32)
    rows = _rows()
    out = np.zeros(512, dtype=np.uint16)
    _run(name, 1, 32, [src, rows, regs, out])
    expected = src.copy()
    for j in range(count):
        matrix = np.zeros((8, 8), dtype=np.uint16)
        for lane in range(32):
            (r0, c0), (r1, c1) = matrix_fragment(lane)
            matrix[r0, c0] = int(regs[lane, j]) & 0xFFFF
            matrix[r1, c1] = int(regs[lane, j]) >> 16
        if trans:
            matrix = matrix.T
        for i, r in enumerate(rows[8 * j : 8 * j + 8].tolist()):
            expected[r // 2 : r // 2 + 8] = matrix[i]
    assert (out == expected).all()


# -- the kernels are real PTX ------------------------------------------------------------------


def test_every_kernel_assembles_with_ptxas(tmp_path: Path) -> None:
    for case in _LOADS:
        case.kernel()
    _LOADS[1].kernel(multicast=True)
    source = tmp_path / "layouts.ptx"
    source.write_text(module(*KERNELS.values()))
    result = run_ptxas(source)
    assert result.ok, "\n".join(result.messages)
    assert len(KERNELS) > 60
