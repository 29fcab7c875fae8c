"""Natural loops of an ori function's CFG: headers, bodies, latches and loop depths.

A back edge goes from a block to a block that dominates it (its header); the loop of a
header is every block that reaches one of its latches without passing the header. Loops
with the same header are one loop. The work is linear in the size of all loop bodies
(nested loops count once per nesting level).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from tileas_py.dialects.ori.analysis import ControlFlowGraph


@dataclass
class Loop:
    """One natural loop, its blocks named by CFG index."""

    header: int
    latches: list[int] = field(default_factory=list[int])
    blocks: set[int] = field(default_factory=set[int])

    def exits(self, cfg: ControlFlowGraph) -> list[tuple[int, int]]:
        """The edges leaving the loop, as (inside, outside) pairs."""
        return [
            (b, s)
            for b in sorted(self.blocks)
            for s in cfg.successors[b]
            if s not in self.blocks
        ]


@dataclass
class LoopNest:
    """The natural loops of a function, outermost first, and each block's loop depth."""

    loops: list[Loop]
    depth: list[int]

    def innermost(self, block: int) -> Loop | None:
        """The smallest loop containing `block`, None outside every loop."""
        containing = [loop for loop in self.loops if block in loop.blocks]
        return min(containing, key=lambda loop: len(loop.blocks), default=None)


def loop_nest(cfg: ControlFlowGraph) -> LoopNest:
    """Find the natural loops of `cfg` (irreducible cycles are not loops here)."""
    by_header: dict[int, Loop] = {}
    for block in cfg.reverse_postorder:
        for successor in cfg.successors[block]:
            if cfg.dominates(cfg.blocks[successor], cfg.blocks[block]):
                loop = by_header.setdefault(successor, Loop(successor))
                loop.latches.append(block)
    for loop in by_header.values():
        loop.blocks = {loop.header}
        stack = [latch for latch in loop.latches if latch != loop.header]
        loop.blocks.update(stack)
        while stack:
            block = stack.pop()
            for predecessor in cfg.predecessors[block]:
                if predecessor not in loop.blocks and cfg.is_reachable(
                    cfg.blocks[predecessor]
                ):
                    loop.blocks.add(predecessor)
                    stack.append(predecessor)
    loops = sorted(by_header.values(), key=lambda loop: -len(loop.blocks))
    depth = [0] * len(cfg.blocks)
    for loop in loops:
        for block in loop.blocks:
            depth[block] += 1
    return LoopNest(loops, depth)
