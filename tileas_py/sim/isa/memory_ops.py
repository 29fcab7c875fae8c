"""Loads, stores, atomics and address-space conversions.

`ld` / `st` move 1 to 16 bytes per thread (a scalar or a `.v2` / `.v4` vector) in any
state space, through `access.resolve` (bounds, alignment) and the race checker. Strong
accesses (`.volatile`, `.relaxed`, `.acquire`, `.release`) and atomics do not race with
each other. They are how flag-based synchronisation orders the accesses around it:
`.release` stores and atomics publish the thread's clock at the location and `.acquire`
loads and atomics join it; relaxed ones (atomics without a `.sem` too) publish the clock
of the thread's last fence and defer what they observe to its next fence (the PTX memory
model's release and acquire patterns, `clocks.VectorClocks.fence`). Atomics on one
address from one group of threads are applied one thread after another, in lane order.
PTX ISA, "Data Movement and Conversion Instructions":
https://docs.nvidia.com/cuda/parallel-thread-execution/#data-movement-and-conversion-instructions
"""

from __future__ import annotations

from collections.abc import Callable, Hashable
from typing import TYPE_CHECKING, Any

import numpy as np
import numpy.typing as npt

from tileas_py.sim import memory as mem
from tileas_py.sim.clocks import Clock, join
from tileas_py.sim.isa import Unsupported, semantics
from tileas_py.sim.isa.access import Piece, load, resolve, space_of, store
from tileas_py.sim.isa.alu import float_arith
from tileas_py.sim.isa.operands import (
    Operand,
    address_reader,
    reader,
    vector_elements,
    writer,
)
from tileas_py.sim.program import Action, Instruction
from tileas_py.sim.ptx_types import (
    UNSIGNED,
    PtxType,
    from_bits,
    is_type_name,
    ptx_type,
    to_bits,
)

if TYPE_CHECKING:
    from tileas_py.sim.machine import Machine

Lanes = npt.NDArray[np.int64]

_VECTORS = {"v2": 2, "v4": 4, "v8": 8}
_STRONG = ("volatile", "relaxed", "acquire", "release", "acq_rel", "mmio")


def _element_type(inst: Instruction) -> PtxType:
    types = [p for p in inst.parts[1:] if is_type_name(p)]
    if not types:
        raise Unsupported("no operand type")
    ty = ptx_type(types[-1])
    if ty.bits > 64:
        raise Unsupported(f"{ty.bits}-bit accesses")
    return ty


def _vector(inst: Instruction) -> int:
    return next((_VECTORS[p] for p in inst.parts[1:] if p in _VECTORS), 1)


def _semantics(inst: Instruction) -> str | None:
    return next((p for p in inst.parts[1:] if p in _STRONG), None)


# -- synchronisation through memory -------------------------------------------------------------


def _sync_key(piece: Piece, row: int) -> Hashable:
    return (id(piece.region), int(piece.offsets[row]))


def publish(m: Machine, pieces: list[Piece], lanes: Lanes, *, release: bool) -> None:
    """A strong write: what it publishes joins the location's published clock. A release
    publishes the thread's clock (then advances it), a relaxed write the thread's clock at
    its last fence, if it has fenced (`clocks.VectorClocks.fence`)."""
    clocks = m.clocks
    if clocks is None or (not release and clocks.fence_rows is None):
        return
    published: dict[Hashable, Clock] = m.state.setdefault("published", {})
    for piece in pieces:
        for row in range(piece.rows.shape[0]):
            lane = lanes[piece.rows[row] : piece.rows[row] + 1]
            clock = clocks.row(int(lane[0])) if release else clocks.fenced_clock(lane)
            if clock is None:
                continue
            key = _sync_key(piece, row)
            published[key] = join(published[key], clock) if key in published else clock
            if release:
                clocks.tick(lane)


def observe(m: Machine, pieces: list[Piece], lanes: Lanes, *, acquire: bool) -> None:
    """A strong read: the thread joins what was published at the location it read; a
    relaxed read defers that to its next fence."""
    clocks = m.clocks
    if clocks is None:
        return
    published: dict[Hashable, Clock] = m.state.get("published", {})
    if not published:
        return
    for piece in pieces:
        for row in range(piece.rows.shape[0]):
            clock = published.get(_sync_key(piece, row))
            if clock is None:
                continue
            lane = lanes[piece.rows[row] : piece.rows[row] + 1]
            if acquire:
                clocks.acquire(lane, clock)
            else:
                clocks.defer(lane, clock)


# -- ld / st ------------------------------------------------------------------------------------


@semantics("ld", "ldu", klass="memory")
def compile_ld(m: Machine, inst: Instruction, ops: list[Operand]) -> Action:
    ty = _element_type(inst)
    count = _vector(inst)
    size = ty.bytes * count
    space = space_of(inst.opcode)
    locate_pieces = _access_locator(m, inst, ops[1], space, size)
    destinations = vector_elements(ops[0])
    if len(destinations) != count:
        raise Unsupported(f"{count} elements but {len(destinations)} destinations")
    writers = [writer(m, inst, d, ty) for d in destinations]
    sem = _semantics(inst)
    mode = "atomic" if sem is not None else "read"
    acquire = sem in ("acquire", "acq_rel")
    element = ptx_type(f"b{ty.bits}") if ty.kind != "pred" else ty
    # Loads that another thread's writes could change (a spin loop reads one of these).
    polled = space in ("global", "shared", "shared::cluster", "generic")

    def run(m: Machine, lanes: Lanes) -> None:
        if lanes.size == 0:
            return
        pieces = locate_pieces(m, lanes)
        _forbid_tensor_map(m, inst, pieces)
        raw = load(m, inst, pieces, lanes, size, mode=mode)
        if sem is not None:
            observe(m, pieces, lanes, acquire=acquire)
        words = raw.reshape(lanes.shape[0], count, ty.bytes)
        for i, write in enumerate(writers):
            bits = (
                np.ascontiguousarray(words[:, i, :]).view(element.storage).reshape(-1)
            )
            write(m, lanes, from_bits(bits, ty))
        if polled:
            m.poll(lanes, inst)

    return run


def _align(size: int) -> int:
    return size if size & (size - 1) == 0 else 1


def _access_locator(
    m: Machine, inst: Instruction, address: Operand, space: str, size: int
) -> Callable[[Machine, Lanes], list[Piece]]:
    """How to find, per run, the pieces of each lane's `size`-byte access at `address` in
    `space` (aligned to `size` where that is a power of two)."""
    read_address, symbol_space = address_reader(m, inst, address)
    align = _align(size)

    def locate_pieces(m: Machine, lanes: Lanes) -> list[Piece]:
        return resolve(
            m,
            inst,
            space,
            read_address(m, lanes),
            lanes,
            size,
            symbol_space=symbol_space,
            align=align,
        )

    return locate_pieces


def _forbid_tensor_map(m: Machine, inst: Instruction, pieces: list[Piece]) -> None:
    maps: dict[int, Any] = m.state.get("tensor_maps", {})
    global_maps: dict[int, Any] = m.state.get("global_tensor_maps", {})
    for piece in pieces:
        if piece.region.extra.get("index") in global_maps:
            m.fail(
                "reading the bytes of a CUtensorMap is not supported (its encoding is not public)",
                inst,
            )
        if maps and piece.region is m.params:
            for offset in np.unique(piece.offsets // 128 * 128).tolist():
                if offset in maps:
                    m.fail(
                        "reading the bytes of a CUtensorMap is not supported (its encoding "
                        "is not public)",
                        inst,
                    )


@semantics("st", klass="memory")
def compile_st(m: Machine, inst: Instruction, ops: list[Operand]) -> Action:
    if "async" in inst.parts:
        return _compile_async_store(m, inst, ops, None)
    ty = _element_type(inst)
    count = _vector(inst)
    size = ty.bytes * count
    space = space_of(inst.opcode)
    locate_pieces = _access_locator(m, inst, ops[0], space, size)
    sources = vector_elements(ops[1])
    if len(sources) != count:
        raise Unsupported(f"{count} elements but {len(sources)} sources")
    readers = [reader(m, inst, s, ty) for s in sources]
    sem = _semantics(inst)
    mode = "atomic" if sem is not None else "write"
    release = sem in ("release", "acq_rel")

    def run(m: Machine, lanes: Lanes) -> None:
        if lanes.size == 0:
            return
        pieces = locate_pieces(m, lanes)
        parts = [
            to_bits(r(m, lanes), ty).view(np.uint8).reshape(lanes.shape[0], ty.bytes)
            for r in readers
        ]
        data = np.concatenate(parts, axis=1) if len(parts) > 1 else parts[0]
        store(m, inst, pieces, lanes, data, size, mode=mode)
        if sem is not None:
            publish(m, pieces, lanes, release=release)

    return run


# -- atomics --------------------------------------------------------------------------------------

Values = npt.NDArray[Any]
Combine = Callable[[Values, Values, Values], Values]

_INTEGER_OPS: dict[str, Combine] = {
    "and": lambda old, b, c: old & b,
    "or": lambda old, b, c: old | b,
    "xor": lambda old, b, c: old ^ b,
    "exch": lambda old, b, c: b,
    "add": lambda old, b, c: old + b,
    "min": lambda old, b, c: np.minimum(old, b),
    "max": lambda old, b, c: np.maximum(old, b),
    "inc": lambda old, b, c: np.where(old >= b, 0, old + 1).astype(old.dtype),
    "dec": lambda old, b, c: np.where((old == 0) | (old > b), b, old - 1).astype(
        old.dtype
    ),
    "cas": lambda old, b, c: np.where(old == b, c, old).astype(old.dtype),
}


def _combiner(op: str, ty: PtxType) -> Callable[[Any, Any, Any], Any]:
    """The new value of an atomic `op` on `ty` from the old one, the operand and (for
    `cas`) the value swapped in."""
    if ty.is_float and op not in ("add", "exch", "min", "max"):
        raise Unsupported(f"atom.{op} on floats")
    if ty.lanes > 1 and op not in ("add", "min", "max"):
        raise Unsupported(f"atom.{op} on packed types")
    unsigned = ptx_type(f"b{ty.bits}")

    def combine(old: Any, b: Any, c: Any) -> Any:
        if ty.is_float and op == "add":
            # atom/red.add.f32 flush subnormal inputs and results; f16, bf16 and f64 do not.
            flush = ty.element.name == "f32"
            return float_arith("add", [old, b], ty.element, "rn", ftz=flush)
        if op in ("min", "max") and not ty.is_signed and not ty.is_float:
            return _INTEGER_OPS[op](
                old.view(unsigned.dtype), b.view(unsigned.dtype), c
            ).view(old.dtype)
        return _INTEGER_OPS[op](old, b, c if c is not None else b)

    return combine


@semantics("atom", "red", klass="memory")
def compile_atom(m: Machine, inst: Instruction, ops: list[Operand]) -> Action:
    ty = _element_type(inst)
    parts = inst.parts
    op = next((p for p in parts[1:] if p in _INTEGER_OPS), None)
    if op is None:
        raise Unsupported("atomic operation")
    if "async" in parts:
        return _compile_async_store(m, inst, ops, op)
    count = _vector(inst)
    space = space_of(inst.opcode)
    returns = inst.root == "atom"
    operands = list(ops)
    dest = operands.pop(0) if returns else None
    size = ty.bytes * count
    locate_pieces = _access_locator(m, inst, operands[0], space, size)
    values = [reader(m, inst, e, ty) for e in vector_elements(operands[1])]
    compare = reader(m, inst, operands[2], ty) if op == "cas" else None
    writers = (
        [writer(m, inst, e, ty) for e in vector_elements(dest)]
        if dest is not None
        else []
    )
    sem = _semantics(inst)
    acquire = sem in ("acquire", "acq_rel")
    release = sem in ("release", "acq_rel")
    combine = _combiner(op, ty)

    def run(m: Machine, lanes: Lanes) -> None:
        if lanes.size == 0:
            return
        pieces = locate_pieces(m, lanes)
        operand_values = [r(m, lanes) for r in values]
        c_values = compare(m, lanes) if compare is not None else None
        old_out = [np.empty_like(v) for v in operand_values]
        actor = m.actor(lanes, inst.pc)
        changed = False
        for piece in pieces:
            m.record(
                piece.region,
                piece.offsets,
                size,
                actor,
                "atomic",
                inst,
                inst.opcode,
                owners=piece.rows,
            )
            # Apply one thread per address at a time: repeated addresses in lane order.
            remaining: Lanes = np.arange(len(piece.rows), dtype=np.int64)
            while remaining.size:
                first: Lanes = np.unique(piece.offsets[remaining], return_index=True)[1]
                now = remaining[np.sort(first)]
                rows = piece.rows[now]
                # Each thread sees what the threads before it at its address published.
                applied = Piece(piece.region, piece.offsets[now], rows)
                observe(m, [applied], lanes, acquire=acquire)
                raw = mem.gather(piece.region, piece.offsets[now], size).reshape(
                    now.shape[0], count, ty.bytes
                )
                new_parts: list[Any] = []
                for i in range(count):
                    old = from_bits(
                        np.ascontiguousarray(raw[:, i, :])
                        .view(UNSIGNED[ty.bits])
                        .reshape(-1),
                        ty,
                    )
                    old_out[i][rows] = old
                    new = combine(
                        old,
                        operand_values[i][rows],
                        c_values[rows] if c_values is not None else None,
                    )
                    new_parts.append(
                        to_bits(np.asarray(new).astype(ty.dtype), ty)
                        .view(np.uint8)
                        .reshape(-1, ty.bytes)
                    )
                data = np.concatenate(new_parts, axis=1) if count > 1 else new_parts[0]
                changed = changed or not np.array_equal(
                    data, raw.reshape(now.shape[0], size)
                )
                mem.scatter(piece.region, piece.offsets[now], data, size)
                publish(m, [applied], lanes, release=release)
                remaining = remaining[~np.isin(remaining, now)]
        for write, old in zip(writers, old_out, strict=False):
            write(m, lanes, old)
        # An atomic that left memory as it was (a failed cas, an `or` of 0) is a read, for
        # the threads that spin on it.
        if changed:
            m.bump()
        elif returns:
            m.poll(lanes, inst)

    return run


# -- asynchronous stores to the cluster -----------------------------------------------------------


def _compile_async_store(
    m: Machine, inst: Instruction, ops: list[Operand], op: str | None
) -> Action:
    """`st.async` / `red.async` (op: the reduction): a store or reduction into the shared
    memory of a CTA of the cluster, whose completion is a `complete_tx` of its bytes on an
    mbarrier of that CTA. The checker sees it as an asynchronous operation of the issuing
    thread, ordered before whoever observes the mbarrier phase it completes."""
    from tileas_py.sim.isa.async_copy import async_access, start
    from tileas_py.sim.isa.mbarrier import complete_tx, locate

    ty = _element_type(inst)
    count = _vector(inst)
    size = ty.bytes * count
    locate_pieces = _access_locator(m, inst, ops[0], "shared::cluster", size)
    readers = [reader(m, inst, e, ty) for e in vector_elements(ops[1])]
    if len(readers) != count:
        raise Unsupported(f"{count} elements but {len(readers)} sources")
    read_bar, bar_symbol = address_reader(m, inst, ops[2])
    combine = _combiner(op, ty) if op is not None else None
    name = "red.async" if op is not None else "st.async"

    def run(m: Machine, lanes: Lanes) -> None:
        if lanes.size == 0:
            return
        n = lanes.shape[0]
        pieces = locate_pieces(m, lanes)
        flat = np.zeros(n, dtype=np.int64)
        for piece in pieces:
            flat[piece.rows] = piece.offsets
        bar_ctas, bar_offsets = locate(
            m, inst, "shared::cluster", read_bar(m, lanes), lanes, bar_symbol
        )
        values = [r(m, lanes) for r in readers]
        data = np.concatenate(
            [to_bits(v, ty).view(np.uint8).reshape(n, ty.bytes) for v in values], axis=1
        )
        for i, lane in enumerate(lanes.tolist()):
            if flat[i] // m.shared.size != bar_ctas[i]:
                m.fail(
                    f"'{inst.opcode}' signals an mbarrier in another CTA than the one it "
                    "writes to",
                    inst,
                )
            key = (int(bar_ctas[i]), int(bar_offsets[i]))
            operation = start(
                m, lane, ("tma", lane, key[1]), f"{name} of thread {lane}", inst.pc
            )
            target = flat[i : i + 1]
            async_access(
                m,
                inst,
                operation,
                m.shared,
                target,
                size,
                "atomic" if combine is not None else "write",
                proxy=False,
                what=f"{name} write",
            )
            written = data[i : i + 1]
            if combine is not None:
                old = from_bits(
                    mem.gather(m.shared, target, size).view(ty.storage).reshape(-1), ty
                )
                new = combine(old, values[0][i : i + 1], None)
                written = to_bits(np.asarray(new).astype(ty.dtype), ty).view(np.uint8)
            mem.scatter(m.shared, target, written.reshape(1, size), size)
            complete_tx(m, inst, key, size, lane, operation.done)
        m.bump()

    return run


# -- address spaces -------------------------------------------------------------------------------

_GENERIC_BASES = {
    "shared": mem.GENERIC_SHARED,
    "shared::cta": mem.GENERIC_SHARED,
    "shared::cluster": mem.GENERIC_SHARED,
    "local": mem.GENERIC_LOCAL,
    "param": mem.GENERIC_PARAM,
    "const": mem.GENERIC_CONST,
    "global": 0,
}


@semantics("cvta", klass="alu")
def compile_cvta(m: Machine, inst: Instruction, ops: list[Operand]) -> Action:
    parts = inst.parts
    to_space = parts[1] == "to"
    space = parts[2] if to_space else parts[1]
    if space.startswith("param::"):
        space = "param"
    if space not in _GENERIC_BASES:
        raise Unsupported(f"cvta to or from .{space}")
    base = np.uint64(_GENERIC_BASES[space])
    ty = ptx_type(parts[-1])
    read = reader(m, inst, ops[1], ptx_type("u64"))
    write = writer(m, inst, ops[0], ty)

    def run(m: Machine, lanes: Lanes) -> None:
        a = read(m, lanes)
        out = a - base if to_space else a + base
        write(m, lanes, out.astype(ty.dtype))

    return run


@semantics("mapa", klass="alu")
def compile_mapa(m: Machine, inst: Instruction, ops: list[Operand]) -> Action:
    ty = ptx_type(inst.parts[-1])
    generic = "shared::cluster" not in inst.parts
    read_a = reader(m, inst, ops[1], ptx_type("u64"))
    read_rank = reader(m, inst, ops[2], ptx_type("u32"))
    write = writer(m, inst, ops[0], ty)
    shift = np.uint64(mem.RANK_SHIFT)
    mask = np.uint64(mem.OFFSET_MASK)
    base = np.uint64(mem.GENERIC_SHARED)

    def run(m: Machine, lanes: Lanes) -> None:
        a = read_a(m, lanes)
        rank = read_rank(m, lanes).astype(np.uint64)
        if generic:
            a = a - base
        if (rank >= m.geometry.cluster_size).any():
            m.fail("mapa to a CTA rank outside the cluster", inst)
        mapped = (a & mask) | ((rank + np.uint64(1)) << shift)
        if generic:
            mapped = mapped + base
        write(m, lanes, mapped.astype(ty.dtype))

    return run


@semantics("getctarank", klass="alu")
def compile_getctarank(m: Machine, inst: Instruction, ops: list[Operand]) -> Action:
    generic = "shared::cluster" not in inst.parts
    read_a = reader(m, inst, ops[1], ptx_type("u64"))
    write = writer(m, inst, ops[0], ptx_type("u32"))

    def run(m: Machine, lanes: Lanes) -> None:
        a = read_a(m, lanes)
        if generic:
            a = a - np.uint64(mem.GENERIC_SHARED)
        rank = (a >> np.uint64(mem.RANK_SHIFT)).astype(np.int64)
        own = m.geometry.cta_rank[m.geometry.lane_cta[lanes]]
        write(m, lanes, np.where(rank > 0, rank - 1, own).astype(np.uint32))

    return run


@semantics("isspacep", klass="alu")
def compile_isspacep(m: Machine, inst: Instruction, ops: list[Operand]) -> Action:
    space = inst.parts[1]
    windows = {
        "global": mem.GLOBAL_WINDOW,
        "shared": mem.SHARED_WINDOW,
        "shared::cta": mem.SHARED_WINDOW,
        "shared::cluster": mem.SHARED_WINDOW,
        "local": mem.LOCAL_WINDOW,
        "param": mem.PARAM_WINDOW,
        "const": mem.CONST_WINDOW,
    }
    if space not in windows:
        raise Unsupported(f"isspacep.{space}")
    window = windows[space]
    read = reader(m, inst, ops[1], ptx_type("u64"))
    write = writer(m, inst, ops[0], ptx_type("pred"))

    def run(m: Machine, lanes: Lanes) -> None:
        which = (read(m, lanes) >> np.uint64(mem.WINDOW_SHIFT)).astype(np.int64)
        result = which >= window if window == mem.GLOBAL_WINDOW else which == window
        if space in ("shared", "shared::cta"):  # .shared is .shared::cta
            result = result & (
                (read(m, lanes) - np.uint64(mem.GENERIC_SHARED))
                >> np.uint64(mem.RANK_SHIFT)
                == 0
            )
        write(m, lanes, result)

    return run
