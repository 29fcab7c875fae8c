"""tcgen05 in the simulator: hand-written sm_100a kernels (`kernels/tcgen05/`), each assembled
by the real ptxas and run through `launch`, exactly and with the hazards the checker must
see. Each kernel file opens with a comment saying what it does.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import ml_dtypes
import numpy as np
import pytest

from tileas_py.hw import tmem
from tileas_py.ptx.toolchain import run_ptxas
from tileas_py.sim import HazardError, HazardKind, SimulationError, TensorMap, launch
from tileas_py.sim.isa.clusterlaunchcontrol import encode_response

KERNELS = Path(__file__).parent / "kernels" / "tcgen05"
NOT_FOR_SM100 = {"target_sm90a.ptx"}
"""Kernels that ptxas must reject for sm_100a (the point of their test)."""


def line_of(name: str, text: str, occurrence: int = 1) -> int:
    seen = 0
    for number, line in enumerate((KERNELS / name).read_text().splitlines(), 1):
        if text in line:
            seen += 1
            if seen == occurrence:
                return number
    raise AssertionError(f"{text!r} not in {name}")


@pytest.mark.parametrize(
    "name", sorted(p.name for p in KERNELS.glob("*.ptx") if p.name not in NOT_FOR_SM100)
)
def test_ptxas_assembles_the_kernel(tmp_path: Path, name: str) -> None:
    result = run_ptxas(KERNELS / name, arch="sm_100a", output=tmp_path / "k.cubin")
    assert result.ok, result.messages


def _small(shape: tuple[int, ...], seed: int, dtype: Any = np.float16) -> Any:
    return np.random.default_rng(seed).integers(-3, 4, shape).astype(dtype)


# -- the GEMMs ----------------------------------------------------------------------------------


def _gemm_cta1(name: str) -> tuple[Any, Any]:
    a, b = _small((128, 64), 1), _small((64, 64), 2)
    c = np.zeros((128, 64), dtype=np.float32)
    report = launch(
        KERNELS / name,
        "gemm",
        1,
        128,
        [TensorMap(a, (128, 64), swizzle=128), TensorMap(b, (64, 64), swizzle=128), c],
    )
    return report, (c, a.astype(np.float32) @ b.astype(np.float32).T)


def test_gemm_cta_group_1_is_exact_with_no_hazard() -> None:
    report, (c, expected) = _gemm_cta1("gemm_cta1.ptx")
    assert np.array_equal(c, expected)
    assert report.hazards == []
    assert report.tcgen05_mma == 4


def _gemm_cta2(name: str) -> tuple[Any, Any]:
    a, b = _small((256, 64), 3), _small((64, 64), 4)
    c = np.zeros((256, 64), dtype=np.float32)
    report = launch(
        KERNELS / name,
        "gemm",
        2,
        128,
        [TensorMap(a, (128, 64), swizzle=128), TensorMap(b, (32, 64), swizzle=128), c],
        cluster=2,
    )
    return report, (c, a.astype(np.float32) @ b.astype(np.float32).T)


def test_gemm_cta_group_2_is_exact_with_no_hazard() -> None:
    report, (c, expected) = _gemm_cta2("gemm_cta2.ptx")
    assert np.array_equal(c, expected)
    assert report.hazards == []
    assert report.tcgen05_mma == 4


@pytest.mark.parametrize(
    ("name", "run", "at", "cta"),
    [
        ("gemm_cta1_early.ptx", _gemm_cta1, "tcgen05.ld.sync", (0, 0, 0)),
        ("gemm_cta1_nofence.ptx", _gemm_cta1, "tcgen05.ld.sync", (0, 0, 0)),
        ("gemm_cta2_early.ptx", _gemm_cta2, "tcgen05.ld.sync", (1, 0, 0)),
    ],
)
def test_reading_the_accumulator_before_the_commit_races(
    name: str, run: Any, at: str, cta: tuple[int, int, int]
) -> None:
    with pytest.raises(HazardError) as raised:
        run(name)
    hazards = raised.value.hazards
    assert [h.kind for h in hazards] == [HazardKind.RACE]
    hazard = hazards[0]
    assert hazard.line == line_of(name, at)
    assert hazard.at.cta == cta
    assert hazard.other is not None
    assert hazard.other.what.startswith("tcgen05.mma")
    assert hazard.other.cta == (0, 0, 0)
    assert hazard.address is not None
    assert hazard.address.startswith("tensor memory lane")


def test_using_a_load_before_its_wait() -> None:
    with pytest.raises(HazardError) as raised:
        _gemm_cta1("gemm_cta1_nowait.ptx")
    hazards = raised.value.hazards
    assert [h.kind for h in hazards] == [HazardKind.TCGEN05_LD]
    assert hazards[0].line == line_of("gemm_cta1_nowait.ptx", "st.global.v4.b32")
    assert "%r20 (and 3 more)" in hazards[0].message


# -- tcgen05.ld / tcgen05.st shapes ---------------------------------------------------------------


def _cells(
    shape: tmem.Shape, num: int, thread: int, lane: int, column: int, *, split: int = 0
) -> list[tuple[int, int]]:
    return [
        (lane + dl, column + dc) for dl, dc in tmem.fragment(shape, num, thread, split)
    ]


def test_every_load_shape_reads_its_fragment() -> None:
    """The register layouts are `hw.tmem.fragment`'s (checked against the ISA's figures
    there), at the warp's quarter of the lanes."""
    out = np.zeros((128, 16), dtype=np.uint32)
    report = launch(KERNELS / "tmem_shapes.ptx", "shapes", 1, 128, [out])
    assert report.hazards == []
    for tid in range(128):
        quarter, t = 32 * (tid // 32), tid % 32
        expected = [
            1000 * lane + column
            for lane, column in _cells(tmem.Shape.S16X64B, 2, t, quarter, 0)
            + _cells(tmem.Shape.S16X128B, 2, t, quarter + 16, 8)
            + _cells(tmem.Shape.S16X256B, 1, t, quarter, 16)
            + _cells(tmem.Shape.S16X32BX2, 2, t, quarter + 16, 4, split=8)
        ]
        packed = (1000 * tid + 20) & 0xFFFF | ((1000 * tid + 21) & 0xFFFF) << 16
        assert out[tid, :13].tolist() == [*expected, packed]
        # The 16x256b store put 7 + k at its fragment's cells; lane `tid` reads them back.
        stored = dict.fromkeys(range(32, 40), 0)
        for u in range(32):
            for k, (lane, column) in enumerate(
                _cells(tmem.Shape.S16X256B, 1, u, quarter + 16, 32)
            ):
                if lane == tid:
                    stored[column] = 7 + k
        if t >= 16:
            assert out[tid, 13:16].tolist() == [stored[32], stored[33], stored[34]]
        else:
            assert out[tid, 13:16].tolist() == [0, 0, 0]


# -- tcgen05.mma kinds --------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("kernel", "a_type", "b_type", "rows", "out_type"),
    [
        ("mma_tf32", np.float32, np.float32, 128, np.float32),
        (
            "mma_e4m3_e5m2",
            ml_dtypes.float8_e4m3fn,
            ml_dtypes.float8_e5m2,
            128,
            np.float32,
        ),
        ("mma_s8_u8", np.int8, np.uint8, 128, np.int32),
        ("mma_m64", np.float16, np.float16, 64, np.float32),
        ("mma_f16_atom32", np.float16, np.float16, 128, np.float32),
    ],
)
def test_each_mma_kind(
    kernel: str, a_type: Any, b_type: Any, rows: int, out_type: Any
) -> None:
    atom = 32 if kernel.endswith("atom32") else 16
    k = 128 // np.dtype(a_type).itemsize
    rng = np.random.default_rng(5)
    low = 0 if b_type is np.uint8 else -3
    a = rng.integers(-3, 4, (rows, k)).astype(a_type)
    b = rng.integers(low, 4, (32, k)).astype(b_type)
    c = np.zeros((rows, 32), dtype=out_type)
    report = launch(
        KERNELS / "mma_kinds.ptx",
        kernel,
        1,
        128,
        [
            TensorMap(a, (rows, k), swizzle=128, swizzle_atom=atom),
            TensorMap(b, (32, k), swizzle=128, swizzle_atom=atom),
            c,
        ],
    )
    assert report.hazards == []
    expected = a.astype(np.float64) @ b.astype(np.float64).T
    assert np.array_equal(c, expected.astype(out_type))
    assert np.abs(expected).max() > 0


def test_a_from_tensor_memory() -> None:
    a, b = _small((128, 16), 6), _small((32, 16), 7)
    c = np.zeros((128, 32), dtype=np.float32)
    report = launch(
        KERNELS / "mma_ts.ptx",
        "mma_ts",
        1,
        128,
        [a, TensorMap(b, (32, 16), swizzle=32), c],
    )
    assert report.hazards == []
    assert np.array_equal(c, a.astype(np.float32) @ b.astype(np.float32).T)


# -- tcgen05.cp and tcgen05.shift -------------------------------------------------------------


def test_copy_and_shift() -> None:
    out = np.zeros((128, 20), dtype=np.uint32)
    report = launch(KERNELS / "cp_shift.ptx", "cp_shift", 1, 128, [out])
    assert report.hazards == []
    words = np.arange(8)
    for lane in range(128):
        assert out[lane, :8].tolist() == (100 * lane + words).tolist()
        # Shifted down one lane inside each quarter: lane 32 q keeps its row.
        source = lane - 1 if lane % 32 else lane
        assert out[lane, 8:16].tolist() == (100 * source + words).tolist()
        # .32x128b.warpx4: row r (its first 16 bytes) in lane r of every quarter.
        assert out[lane, 16:20].tolist() == (100 * (lane % 32) + words[:4]).tolist()


# -- allocation -----------------------------------------------------------------------------------


def test_an_allocation_waits_for_free_columns() -> None:
    out = np.full(2, 7, dtype=np.uint32)
    report = launch(KERNELS / "alloc.ptx", "blocking", 1, 64, [out])
    assert report.hazards == []
    # Both warps got all 512 columns at column 0: the second after the first freed them.
    assert out.tolist() == [0, 0]


@pytest.mark.parametrize(
    ("kernel", "at", "message"),
    [
        (
            "after_relinquish",
            "tcgen05.alloc",
            "tcgen05.alloc after the CTA's tcgen05.relinquish_alloc_permit",
        ),
        (
            "leak",
            "tcgen05.alloc",
            "CTA (0, 0, 0) exits with tensor memory allocated (32 at column 0): "
            "tcgen05.dealloc is missing",
        ),
        (
            "bad_dealloc",
            "tcgen05.dealloc.cta_group::1.sync.aligned.b32 \t%r1, 32",
            "tcgen05.dealloc of columns 0-31, which are not one allocation (allocated: "
            "0-63)",
        ),
    ],
)
def test_allocation_hazards(kernel: str, at: str, message: str) -> None:
    with pytest.raises(HazardError) as raised:
        launch(KERNELS / "alloc.ptx", kernel, 1, 32, [])
    hazards = raised.value.hazards
    assert [(h.kind, h.message) for h in hazards] == [
        (HazardKind.TMEM_ALLOCATION, message)
    ]
    text = (KERNELS / "alloc.ptx").read_text()
    start = text.index(f".visible .entry {kernel}(")
    line = text[: text.index(at, start)].count("\n") + 1
    assert hazards[0].line == line


@pytest.mark.parametrize(
    ("kernel", "block", "at", "message"),
    [
        (
            "unallocated",
            32,
            "tcgen05.ld",
            "'tcgen05.ld.sync.aligned.32x32b.x1.b32' uses tensor-memory column 32, which "
            "is not allocated in CTA (0, 0, 0)",
        ),
        (
            "wrong_quarter",
            64,
            "tcgen05.ld",
            "warp 1 of its warpgroup may access tensor-memory lanes 32-63; "
            "'tcgen05.ld.sync.aligned.32x32b.x1.b32' at lane 0 reaches lanes 0-31",
        ),
        (
            "column_count",
            32,
            "tcgen05.alloc",
            "Argument 1 of instruction 'tcgen05.alloc': unexpected value '48', expected "
            "to be multiple of 32",
        ),
        (
            "deadlock",
            64,
            "tcgen05.alloc",
            "deadlock: threads 32-63 of CTA (0, 0, 0) at line {line} wait for 512 free "
            "columns of tensor memory (512 of 512 in use); threads 0-31 of CTA (0, 0, 0) "
            "at line {next} wait for barrier 0 (32 of 64 threads arrived)",
        ),
    ],
)
def test_located_errors(kernel: str, block: int, at: str, message: str) -> None:
    text = (KERNELS / "alloc.ptx").read_text()
    start = text.index(f".visible .entry {kernel}(")
    line = text[: text.index(at, start)].count("\n") + 1
    with pytest.raises(SimulationError) as raised:
        launch(KERNELS / "alloc.ptx", kernel, 1, block, [])
    error = raised.value
    assert not isinstance(error, HazardError)
    assert error.line == line
    assert error.message == message.format(line=line, next=line + 2)


def test_tcgen05_on_a_target_without_it(tmp_path: Path) -> None:
    source = KERNELS / "target_sm90a.ptx"
    result = run_ptxas(source, arch="sm_90a", output=tmp_path / "k.cubin")
    assert not result.ok
    assert any("not supported on .target 'sm_90a'" in m for m in result.messages)
    with pytest.raises(HazardError) as raised:
        launch(source, "k", 1, 32, [])
    hazards = raised.value.hazards
    assert {h.kind for h in hazards} == {HazardKind.TARGET}
    assert hazards[0].message == (
        "'tcgen05.alloc.cta_group::1.sync.aligned.shared::cta.b32' needs an sm_100a, "
        "sm_103a or sm_110a target (or sm_100f, sm_103f, sm_110f); the module's .target "
        "is sm_90a"
    )
    assert hazards[0].line == line_of("target_sm90a.ptx", "tcgen05.alloc")


# -- cluster launch control ---------------------------------------------------------------------


def test_try_cancel_takes_over_the_ctas_not_launched() -> None:
    """Two CTAs run at a time: the first two take over the other six, one per request,
    in launch order; the last requests fail."""
    done = np.zeros(8, dtype=np.uint32)
    raw = np.zeros((8, 4, 2), dtype=np.uint64)
    report = launch(
        KERNELS / "cluster_launch_control.ptx",
        "persistent_raw",
        8,
        32,
        [done, raw],
        resident_ctas=2,
    )
    assert report.hazards == []
    assert done.tolist() == [1, 2, 1, 2, 1, 2, 1, 2]
    word = [
        int.from_bytes(encode_response((x, 0, 0))[:8], "little") for x in range(2, 8)
    ]
    assert raw[0, :, 0].tolist() == [word[0], word[2], word[4], 0]
    assert raw[1, :, 0].tolist() == [word[1], word[3], word[5], 0]
    assert raw[2:].sum() == 0


def test_every_cta_launched_at_once_leaves_nothing_to_cancel() -> None:
    done = np.zeros(8, dtype=np.uint32)
    raw = np.zeros((8, 4, 2), dtype=np.uint64)
    launch(KERNELS / "cluster_launch_control.ptx", "persistent_raw", 8, 32, [done, raw])
    assert done.tolist() == list(range(1, 9))
    assert raw.sum() == 0


def test_query_cancel_decodes_the_response() -> None:
    from tileas_py.sim.geometry import Geometry
    from tileas_py.sim.isa import compile_instruction
    from tileas_py.sim.launch import prepare
    from tileas_py.sim.machine import Machine
    from tileas_py.sim.report import Report

    program = prepare(KERNELS / "cluster_launch_control.ptx", fixup=False).program
    m = Machine(
        program,
        program.kernel("persistent"),
        Geometry((1, 1, 1), (32, 1, 1), (1, 1, 1)),
        shared_bytes=32,
        report=Report("persistent"),
    )
    queries = [i for i in program.instructions if "query_cancel" in i.opcode]
    response = next(r for r in program.registers if r.name == "%q1").index
    lanes = np.arange(2)
    m.regs[response][lanes] = [
        int.from_bytes(encode_response((5, 0, 0))[:8], "little"),
        int.from_bytes(encode_response(None)[:8], "little"),
    ]
    for inst in queries:
        compile_instruction(m, inst)(m, lanes)
    canceled = program.registers[queries[0].registers[0]].index
    ctaid_x = program.registers[queries[1].registers[0]].index
    assert m.regs[canceled][lanes].tolist() == [True, False]
    assert int(m.regs[ctaid_x][0]) == 5


def test_the_32_byte_atom_swizzle_differs_from_the_16_byte_one() -> None:
    """Loaded with 16-byte atoms but read as 32-byte atoms, the operands come out permuted:
    the two modes are distinct layouts, and the MMA follows its descriptor's."""
    rng = np.random.default_rng(8)
    a = rng.integers(-3, 4, (128, 64)).astype(np.float16)
    b = rng.integers(-3, 4, (32, 64)).astype(np.float16)
    c = np.zeros((128, 32), dtype=np.float32)
    launch(
        KERNELS / "mma_kinds.ptx",
        "mma_f16_atom32",
        1,
        128,
        [TensorMap(a, (128, 64), swizzle=128), TensorMap(b, (32, 64), swizzle=128), c],
    )
    assert not np.array_equal(c, a.astype(np.float32) @ b.astype(np.float32).T)


def test_tensor_map_swizzle_atoms() -> None:
    """Line r of the pattern stores atom j of the line at atom j ^ (r mod lines)."""
    from tileas_py.sim.tensormap import swizzle_offsets

    address = np.arange(1024, dtype=np.int64)
    for atom, lines in ((16, 8), (32, 4), (64, 2)):
        line, j, byte = address // 128, (address % 128) // atom, address % atom
        expected = line * 128 + (j ^ (line % lines)) * atom + byte
        assert np.array_equal(swizzle_offsets(address, 128, atom), expected)
    with pytest.raises(ValueError, match="needs the 128-byte swizzle"):
        TensorMap(
            np.zeros((8, 16), dtype=np.float16), (8, 16), swizzle=32, swizzle_atom=32
        )


def test_refilling_an_operand_before_the_commit_races() -> None:
    """The MMA's shared-memory reads are in flight until the commit's mbarrier phase."""
    with pytest.raises(HazardError) as raised:
        _gemm_cta1("gemm_cta1_refill.ptx")
    hazards = raised.value.hazards
    assert {h.kind for h in hazards} == {HazardKind.RACE}
    first = hazards[0]
    assert first.at.what == "TMA write"
    assert first.line == line_of("gemm_cta1_refill.ptx", "[tile_a], [%rd1", 2)
    assert first.other is not None
    assert first.other.what.startswith("tcgen05.mma")
    assert first.address == "shared[0x0] of CTA (0, 0, 0)"
    report, (c, expected) = _gemm_cta1("gemm_cta1_refill_fixed.ptx")
    assert report.hazards == []
    assert np.array_equal(c, expected)


def test_a_pair_operation_needs_its_peer() -> None:
    with pytest.raises(SimulationError) as raised:
        launch(KERNELS / "peer_exited.ptx", "k", 2, 32, [])
    assert raised.value.line == line_of(
        "peer_exited.ptx", "tcgen05.shift.cta_group::2.down \t"
    )
    assert raised.value.message == (
        "'tcgen05.shift.cta_group::2.down' acts on CTA (1, 0, 0) of the pair, whose "
        "threads have all exited"
    )
