"""Warp-level collectives: shuffles, votes, reductions, elections, matches, and the 8x8
matrix loads and stores (`ldmatrix`, `stmatrix`).

Each runs once the threads it needs have converged (`collective.converge`), on a
(warps, 32) table of the participants' values.
PTX ISA, "shfl.sync", "vote.sync", "redux.sync", "elect.sync", "match.sync", "ldmatrix",
"stmatrix": https://docs.nvidia.com/cuda/parallel-thread-execution/#data-movement-and-conversion-instructions-shfl-sync
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy as np
import numpy.typing as npt

from tileas_py.sim.isa import Unsupported, semantics
from tileas_py.sim.isa.access import load, resolve, space_of, store
from tileas_py.sim.isa.collective import converge
from tileas_py.sim.isa.operands import (
    Operand,
    Pair,
    address_reader,
    reader,
    vector_elements,
    writer,
)
from tileas_py.sim.program import Action, Instruction
from tileas_py.sim.ptx_types import is_type_name, ptx_type

if TYPE_CHECKING:
    from tileas_py.sim.machine import Machine

Lanes = npt.NDArray[np.int64]
U32 = ptx_type("u32")
B32 = ptx_type("b32")
PRED = ptx_type("pred")
FULL = np.uint32(0xFFFFFFFF)


def _table(
    lanes: Lanes, values: npt.NDArray[Any]
) -> tuple[npt.NDArray[np.int64], npt.NDArray[Any], npt.NDArray[np.bool_]]:
    """(warp of each lane, a (warps, 32) table of values, a (warps, 32) presence mask)."""
    warps, inverse = np.unique(lanes // 32, return_inverse=True)
    table = np.zeros((warps.shape[0], 32), dtype=values.dtype)
    present = np.zeros((warps.shape[0], 32), dtype=np.bool_)
    table[inverse, lanes % 32] = values
    present[inverse, lanes % 32] = True
    return inverse, table, present


def _split_dest(
    m: Machine, inst: Instruction, operand: Operand, ty: Any
) -> tuple[Any, Any]:
    if isinstance(operand, Pair):
        return writer(m, inst, operand.first, ty), writer(m, inst, operand.second, PRED)
    return writer(m, inst, operand, ty), None


@semantics("shfl", klass="warp")
def compile_shfl(m: Machine, inst: Instruction, ops: list[Operand]) -> Action:
    mode = inst.parts[2]
    write, write_p = _split_dest(m, inst, ops[0], B32)
    read_a = reader(m, inst, ops[1], B32)
    read_b = reader(m, inst, ops[2], U32)
    read_c = reader(m, inst, ops[3], U32)
    read_mask = reader(m, inst, ops[4], U32)

    def run(m: Machine, lanes: Lanes) -> None:
        lanes = converge(m, inst, lanes, 32, read_mask(m, lanes))
        if lanes.size == 0:
            return
        lane = (lanes % 32).astype(np.int64)
        b = read_b(m, lanes).astype(np.int64) & 31
        c = read_c(m, lanes).astype(np.int64)
        clamp = c & 31
        segmask = (c >> 8) & 31
        max_lane = (lane & segmask) | (clamp & ~segmask)
        min_lane = lane & segmask
        if mode == "up":
            j = lane - b
            valid = j >= max_lane
        elif mode == "down":
            j = lane + b
            valid = j <= max_lane
        elif mode == "bfly":
            j = lane ^ b
            valid = j <= max_lane
        elif mode == "idx":
            j = min_lane | (b & ~segmask)
            valid = j <= max_lane
        else:
            raise Unsupported(f"shfl mode {mode}")
        j = np.where(valid, j, lane) & 31
        inverse, table, _ = _table(lanes, read_a(m, lanes))
        write(m, lanes, table[inverse, j])
        if write_p is not None:
            write_p(m, lanes, valid)

    return run


@semantics("vote", klass="warp")
def compile_vote(m: Machine, inst: Instruction, ops: list[Operand]) -> Action:
    mode = inst.parts[2] if inst.parts[1] == "sync" else inst.parts[1]
    ballot = mode == "ballot"
    write = writer(m, inst, ops[0], B32 if ballot else PRED)
    read_a = reader(m, inst, ops[1], PRED)
    read_mask = reader(m, inst, ops[2], U32) if len(ops) > 2 else None

    def run(m: Machine, lanes: Lanes) -> None:
        masks = (
            read_mask(m, lanes)
            if read_mask is not None
            else np.full(lanes.shape[0], FULL)
        )
        lanes = converge(m, inst, lanes, 32, masks)
        if lanes.size == 0:
            return
        flags = read_a(m, lanes)
        inverse, table, present = _table(lanes, flags)
        if ballot:
            weights = np.uint64(1) << np.arange(32, dtype=np.uint64)
            bits = (
                ((table & present).astype(np.uint64) * weights)
                .sum(axis=1)
                .astype(np.uint32)
            )
            write(m, lanes, bits[inverse])
            return
        any_true: npt.NDArray[np.bool_] = np.any(table & present, axis=1)
        all_true: npt.NDArray[np.bool_] = np.all(table | ~present, axis=1)
        result = {"all": all_true, "any": any_true, "uni": all_true | ~any_true}[mode]
        write(m, lanes, result[inverse])

    return run


@semantics("activemask", klass="warp")
def compile_activemask(m: Machine, inst: Instruction, ops: list[Operand]) -> Action:
    write = writer(m, inst, ops[0], B32)

    def run(m: Machine, lanes: Lanes) -> None:
        inverse, _, present = _table(lanes, np.zeros(len(lanes), dtype=np.uint8))
        weights = np.uint64(1) << np.arange(32, dtype=np.uint64)
        bits = (present.astype(np.uint64) * weights).sum(axis=1).astype(np.uint32)
        write(m, lanes, bits[inverse])

    return run


@semantics("elect", klass="warp")
def compile_elect(m: Machine, inst: Instruction, ops: list[Operand]) -> Action:
    write, write_p = _split_dest(m, inst, ops[0], U32)
    read_mask = reader(m, inst, ops[1], U32)

    def run(m: Machine, lanes: Lanes) -> None:
        masks = read_mask(m, lanes)
        lanes = converge(m, inst, lanes, 32, masks)
        if lanes.size == 0:
            return
        masks = read_mask(m, lanes)
        inverse, _, present = _table(lanes, np.zeros(len(lanes), dtype=np.uint8))
        mask_table = np.zeros(present.shape, dtype=np.bool_)
        bits = (masks[:, None] >> np.arange(32, dtype=np.uint32)) & 1
        mask_table[inverse] |= bits.astype(np.bool_)
        eligible = present & mask_table
        leader = np.where(eligible.any(axis=1), eligible.argmax(axis=1), 0)
        write(m, lanes, leader[inverse].astype(np.uint32))
        if write_p is not None:
            write_p(m, lanes, (lanes % 32) == leader[inverse])

    return run


@semantics("redux", klass="warp")
def compile_redux(m: Machine, inst: Instruction, ops: list[Operand]) -> Action:
    op = inst.parts[2]
    ty = ptx_type(inst.parts[-1])
    write = writer(m, inst, ops[0], ty)
    read_a = reader(m, inst, ops[1], ty)
    read_mask = reader(m, inst, ops[2], U32)
    reduce: Any = {
        "add": np.add,
        "min": np.minimum,
        "max": np.maximum,
        "and": np.bitwise_and,
        "or": np.bitwise_or,
        "xor": np.bitwise_xor,
    }.get(op)
    if reduce is None:
        raise Unsupported(f"redux.{op}")

    def run(m: Machine, lanes: Lanes) -> None:
        lanes = converge(m, inst, lanes, 32, read_mask(m, lanes))
        if lanes.size == 0:
            return
        values = read_a(m, lanes)
        inverse = np.unique(lanes // 32, return_inverse=True)[1]
        out = np.empty_like(values)
        for warp in np.unique(inverse).tolist():
            chosen = inverse == warp
            out[chosen] = reduce.reduce(values[chosen])
        write(m, lanes, out)

    return run


@semantics("match", klass="warp")
def compile_match(m: Machine, inst: Instruction, ops: list[Operand]) -> Action:
    mode = inst.parts[2]
    ty = ptx_type(inst.parts[-1])
    write, write_p = _split_dest(m, inst, ops[0], B32)
    read_a = reader(m, inst, ops[1], ty)
    read_mask = reader(m, inst, ops[2], U32)

    def run(m: Machine, lanes: Lanes) -> None:
        lanes = converge(m, inst, lanes, 32, read_mask(m, lanes))
        if lanes.size == 0:
            return
        values = read_a(m, lanes)
        result = np.zeros(lanes.shape[0], dtype=np.uint32)
        flags = np.zeros(lanes.shape[0], dtype=np.bool_)
        warps = lanes // 32
        for warp in np.unique(warps).tolist():
            chosen = np.flatnonzero(warps == warp)
            group_values = values[chosen]
            bits = (lanes[chosen] % 32).astype(np.uint64)
            for i in chosen.tolist():
                same = group_values == values[i]
                mask = int((np.uint64(1) << bits[same]).sum())
                if mode == "all":
                    every = bool(same.all())
                    result[i] = mask if every else 0
                    flags[i] = every
                else:
                    result[i] = mask
        write(m, lanes, result)
        if write_p is not None:
            write_p(m, lanes, flags)

    return run


# -- ldmatrix / stmatrix ------------------------------------------------------------------------


def _matrix_shape(inst: Instruction) -> tuple[int, bool]:
    parts = inst.parts
    if "m8n8" not in parts:
        raise Unsupported("only the m8n8 shape")
    if not any(is_type_name(p) and p == "b16" for p in parts):
        raise Unsupported("only .b16 elements")
    count = next((int(p[1:]) for p in parts if p in ("x1", "x2", "x4")), 1)
    return count, "trans" in parts


@semantics("ldmatrix", klass="memory")
def compile_ldmatrix(m: Machine, inst: Instruction, ops: list[Operand]) -> Action:
    count, transposed = _matrix_shape(inst)
    destinations = vector_elements(ops[0])
    if len(destinations) != count:
        raise Unsupported(f".x{count} needs {count} destination registers")
    writers = [writer(m, inst, d, B32) for d in destinations]
    read_address, symbol_space = address_reader(m, inst, ops[1])
    space = space_of(inst.opcode)
    space = "shared" if space == "generic" else space

    def run(m: Machine, lanes: Lanes) -> None:
        lanes = converge(m, inst, lanes, 32)
        if lanes.size == 0:
            return
        addresses = read_address(m, lanes)
        # Threads 8i..8i+7 give the row addresses of matrix i.
        providers = (lanes % 32) < 8 * count
        rows_lanes = lanes[providers]
        pieces = resolve(
            m,
            inst,
            space,
            addresses[providers],
            rows_lanes,
            16,
            symbol_space=symbol_space,
        )
        rows = load(m, inst, pieces, rows_lanes, 16).view(np.uint16)  # (n, 8) elements
        inverse, _, _ = _table(lanes, np.zeros(lanes.size, dtype=np.uint8))
        warp_of_row = inverse[providers]
        table = np.zeros((int(inverse.max()) + 1, 32, 8), dtype=np.uint16)
        table[warp_of_row, rows_lanes % 32] = rows
        lane = lanes % 32
        for i, write in enumerate(writers):
            matrix = table[inverse, :, :][
                :, 8 * i : 8 * i + 8, :
            ]  # (n, 8 rows, 8 cols)
            row = lane // 4
            col = 2 * (lane % 4)
            n = np.arange(lanes.size)
            if transposed:
                low = matrix[n, col, row]
                high = matrix[n, col + 1, row]
            else:
                low = matrix[n, row, col]
                high = matrix[n, row, col + 1]
            write(
                m,
                lanes,
                low.astype(np.uint32) | (high.astype(np.uint32) << np.uint32(16)),
            )

    return run


@semantics("stmatrix", klass="memory")
def compile_stmatrix(m: Machine, inst: Instruction, ops: list[Operand]) -> Action:
    count, transposed = _matrix_shape(inst)
    read_address, symbol_space = address_reader(m, inst, ops[0])
    sources = vector_elements(ops[1])
    if len(sources) != count:
        raise Unsupported(f".x{count} needs {count} source registers")
    readers = [reader(m, inst, s, B32) for s in sources]
    space = space_of(inst.opcode)
    space = "shared" if space == "generic" else space

    def run(m: Machine, lanes: Lanes) -> None:
        lanes = converge(m, inst, lanes, 32)
        if lanes.size == 0:
            return
        inverse, _, _ = _table(lanes, np.zeros(lanes.size, dtype=np.uint8))
        warps = int(inverse.max()) + 1
        table = np.zeros((warps, 32, 8), dtype=np.uint16)
        lane = lanes % 32
        row = lane // 4
        col = 2 * (lane % 4)
        for i, read in enumerate(readers):
            value = read(m, lanes)
            low = (value & np.uint32(0xFFFF)).astype(np.uint16)
            high = (value >> np.uint32(16)).astype(np.uint16)
            if transposed:
                table[inverse, 8 * i + col, row] = low
                table[inverse, 8 * i + col + 1, row] = high
            else:
                table[inverse, 8 * i + row, col] = low
                table[inverse, 8 * i + row, col + 1] = high
        providers = lane < 8 * count
        rows_lanes = lanes[providers]
        addresses = read_address(m, lanes)[providers]
        data = table[inverse[providers], lane[providers]].view(np.uint8).reshape(-1, 16)
        pieces = resolve(
            m, inst, space, addresses, rows_lanes, 16, symbol_space=symbol_space
        )
        store(m, inst, pieces, rows_lanes, data, 16)

    return run
