"""Control-flow graph orders and dominator trees over plain successor lists.

A graph is `successors: Sequence[Sequence[int]]`, indexed by node (block) number; nothing
here knows about a dialect, so the ori CFG, the SSA dominance check and the NVVM lowering
share one implementation:

- `reverse_postorder`: the nodes reachable from some roots, each after its dominators
  (an iterative depth-first walk that takes successors in their listed order);
- `immediate_dominators`: Cooper, Harvey and Kennedy's iterative algorithm ("A Simple,
  Fast Dominance Algorithm"), with several roots joined under a virtual one;
- `DominatorTree.forward` / `DominatorTree.backward`: dominators from an entry, and
  post-dominators towards the nodes without successors, with O(1) `dominates` queries by
  the entry / exit numbers of a depth-first walk of the tree;
- `control_dependence`: the branches each node is control dependent on, from the
  post-dominator tree.

For example, for the diamond `0 -> 1, 2 -> 3`:

    tree = DominatorTree.forward([[1, 2], [3], [3], []])
    tree.idom == [None, 0, 0, 0]      # the entry has none
    tree.dominates(0, 3) and not tree.dominates(1, 3)

Everything is linear in the size of the graph per iteration of the dominator fixed point
(two iterations on reducible graphs).
"""

from __future__ import annotations

from collections.abc import Collection, Iterator, Sequence


def predecessors(successors: Sequence[Sequence[int]]) -> list[list[int]]:
    """Each node's predecessors, in the order the edges are listed."""
    result: list[list[int]] = [[] for _ in successors]
    for node, targets in enumerate(successors):
        for target in targets:
            result[target].append(node)
    return result


def reverse_postorder(
    successors: Sequence[Sequence[int]], roots: Sequence[int] = (0,)
) -> list[int]:
    """The nodes reachable from `roots`, in reverse postorder (iterative DFS).

    Successors are visited in their listed order, so the order is deterministic; nodes no
    root reaches are left out.
    """
    visited = [False] * len(successors)
    postorder: list[int] = []
    for root in roots:
        if visited[root]:
            continue
        visited[root] = True
        stack: list[tuple[int, Iterator[int]]] = [(root, iter(successors[root]))]
        while stack:
            node, targets = stack[-1]
            for target in targets:
                if not visited[target]:
                    visited[target] = True
                    stack.append((target, iter(successors[target])))
                    break
            else:
                stack.pop()
                postorder.append(node)
    postorder.reverse()
    return postorder


def immediate_dominators(
    order: Sequence[int],
    predecessors: Sequence[Sequence[int]],
    roots: Collection[int] = (0,),
) -> list[int | None]:
    """Immediate dominators by Cooper, Harvey and Kennedy's iterative algorithm.

    `order` is a reverse postorder from `roots` (see `reverse_postorder`); several roots
    behave as children of one virtual root. Roots and the nodes `order` leaves out (not
    reached) get None.
    """
    count = len(predecessors)
    if not order:
        return [None] * count
    virtual = count
    rank = [-1] * (count + 1)
    for position, node in enumerate(order):
        rank[node] = position + 1
    rank[virtual] = 0
    idom = [-1] * (count + 1)
    idom[virtual] = virtual
    root_set = set(roots)
    for root in root_set:
        idom[root] = virtual

    def intersect(a: int, b: int) -> int:
        while a != b:
            while rank[a] > rank[b]:
                a = idom[a]
            while rank[b] > rank[a]:
                b = idom[b]
        return a

    changed = True
    while changed:
        changed = False
        for node in order:
            if node in root_set:
                continue
            new = -1
            for pred in predecessors[node]:
                if idom[pred] == -1:
                    continue
                new = pred if new == -1 else intersect(pred, new)
            if new != -1 and idom[node] != new:
                idom[node] = new
                changed = True
    return [None if d in (-1, virtual) else d for d in idom[:count]]


def tree_intervals(parent: Sequence[int | None]) -> list[tuple[int, int]]:
    """The (entry, exit) numbers of each node in a depth-first walk of the forest given by
    `parent` (None for a tree's root): `a` is an ancestor of `b`, or `b` itself, exactly
    when `b`'s interval lies inside `a`'s."""
    children: list[list[int]] = [[] for _ in parent]
    roots: list[int] = []
    for node, p in enumerate(parent):
        (roots if p is None else children[p]).append(node)
    interval = [(0, 0)] * len(parent)
    clock = 0
    for root in roots:
        stack: list[tuple[int, bool]] = [(root, False)]
        while stack:
            node, done = stack.pop()
            if done:
                interval[node] = (interval[node][0], clock)
                continue
            interval[node] = (clock, 0)
            clock += 1
            stack.append((node, True))
            stack.extend((c, False) for c in children[node])
    return interval


class DominatorTree:
    """Immediate dominators of a graph's nodes, with O(1) dominance queries.

    Build it with `forward` (dominators from an entry) or `backward` (post-dominators
    towards the nodes without successors). Nodes the roots do not reach (unreachable
    blocks; for post-dominators, blocks that reach no exit) are trees of their own: they
    dominate and are dominated by themselves only.
    """

    def __init__(self, idom: list[int | None], order: Sequence[int]) -> None:
        self.idom = idom
        """Each node's immediate dominator; None for the roots, for the children of a
        virtual root and for unreached nodes."""
        self._reached = [False] * len(idom)
        for node in order:
            self._reached[node] = True
        self._interval = tree_intervals(idom)

    @classmethod
    def forward(
        cls,
        successors: Sequence[Sequence[int]],
        entry: int = 0,
        *,
        order: Sequence[int] | None = None,
        preds: Sequence[Sequence[int]] | None = None,
    ) -> DominatorTree:
        """Dominators of the nodes reachable from `entry`. `order` (a reverse postorder
        from `entry`) and `preds` may be given when the caller has them already."""
        if order is None:
            order = reverse_postorder(successors, (entry,)) if successors else []
        if preds is None:
            preds = predecessors(successors)
        return cls(immediate_dominators(order, preds, (entry,)), order)

    @classmethod
    def backward(
        cls,
        successors: Sequence[Sequence[int]],
        *,
        preds: Sequence[Sequence[int]] | None = None,
    ) -> DominatorTree:
        """Post-dominators: every node without successors is an exit, and the exits join
        under one virtual exit (which is nobody's immediate post-dominator: exits get
        None)."""
        if preds is None:
            preds = predecessors(successors)
        exits = [node for node, targets in enumerate(successors) if not targets]
        order = reverse_postorder(preds, exits)
        return cls(immediate_dominators(order, successors, exits), order)

    def dominates(self, a: int, b: int) -> bool:
        """Whether every path from the roots to `b` passes through `a` (reflexive)."""
        start_a, end_a = self._interval[a]
        start_b, end_b = self._interval[b]
        return start_a <= start_b and end_b <= end_a

    def is_reachable(self, node: int) -> bool:
        """Whether a root reaches `node` (for post-dominators: `node` reaches an exit)."""
        return self._reached[node]


def control_dependence(
    successors: Sequence[Sequence[int]], ipdom: Sequence[int | None]
) -> list[int]:
    """For each node, the bit vector of the nodes whose conditional branch decides whether
    it runs (Ferrante, Ottenstein and Warren: walk the post-dominator tree from each
    successor of a branch up to the branch's immediate post-dominator). `ipdom` is
    `DominatorTree.backward(successors).idom`."""
    dependence = [0] * len(successors)
    for branch, targets in enumerate(successors):
        if len(targets) < 2:
            continue
        stop = ipdom[branch]
        for target in targets:
            runner: int | None = target
            while runner is not None and runner != stop:
                dependence[runner] |= 1 << branch
                runner = ipdom[runner]
    return dependence
