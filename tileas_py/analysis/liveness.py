"""Backward liveness over plain successor lists, with register sets as int bit vectors.

Each block has `gen` (what it reads before any sure write) and `kill` (what it surely
writes); then

    live_out[b] = OR of live_in[s] over b's successors s
    live_in[b]  = gen[b] | (live_out[b] & ~kill[b])

and `solve` finds the least fixed point. What "read" and "surely written" mean is the
caller's (ori counts a guarded write as no write; the SSA lowering kills a value in the
block that defines it), so the adapters stay next to their dialects and compute `gen` /
`kill`, with `use_def` for straight-line code.

For example, a loop `0 -> 1 -> 1, 2` where block 1 reads register 0 that block 0 writes:

    live_in, live_out = solve([[1], [1, 2], []], gen=[0, 1, 0], kill=[1, 0, 0])
    live_in == [0, 1, 0] and live_out == [1, 1, 0]

The solver is a worklist seeded in postorder: a block is revisited only when the live-in
of one of its successors grew, so on reducible graphs each block is visited about twice.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from tileas_py.analysis.cfg import predecessors, reverse_postorder


def use_def(steps: Iterable[tuple[int, int, bool]]) -> tuple[int, int]:
    """(`gen`, `kill`) of straight-line code given as (reads, writes, surely runs) steps:
    what it reads before writing it, and what it surely writes (a step that may not run,
    such as a guarded instruction, kills nothing)."""
    used = 0
    killed = 0
    for reads, writes, surely in steps:
        used |= reads & ~killed
        if surely:
            killed |= writes
    return used, killed


def solve(
    successors: Sequence[Sequence[int]],
    gen: Sequence[int],
    kill: Sequence[int],
) -> tuple[list[int], list[int]]:
    """Live-in and live-out bit vectors of each block (all blocks, reachable or not)."""
    count = len(successors)
    preds = predecessors(successors)
    # Postorder from the entry first, then the blocks it does not reach: successors are
    # mostly done before their predecessors.
    order = reverse_postorder(successors)[::-1] if count else []
    reached = [False] * count
    for block in order:
        reached[block] = True
    order += [block for block in range(count) if not reached[block]]
    live_in = [0] * count
    live_out = [0] * count
    queued = [True] * count
    worklist = order[::-1]  # popped from the end: postorder first
    while worklist:
        block = worklist.pop()
        queued[block] = False
        out = 0
        for successor in successors[block]:
            out |= live_in[successor]
        live_out[block] = out
        new_in = gen[block] | (out & ~kill[block])
        if new_in != live_in[block]:
            live_in[block] = new_in
            for pred in preds[block]:
                if not queued[pred]:
                    queued[pred] = True
                    worklist.append(pred)
    return live_in, live_out
