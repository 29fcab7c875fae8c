"""Reverse postorder, dominators, post-dominators and control dependence on small graphs."""

from tileas_py.analysis.cfg import (
    DominatorTree,
    control_dependence,
    predecessors,
    reverse_postorder,
)

# 0 -> 1, 2 -> 3: a diamond.
DIAMOND = [[1, 2], [3], [3], []]
# 0 -> 1 (header) -> 2 (body) -> 1, and 1 -> 3 (exit).
LOOP = [[1], [2, 3], [1], []]


def test_reverse_postorder_follows_listed_successors_and_skips_unreachable() -> None:
    # Block 4 is not reachable from 0.
    graph = [[1, 2], [3], [3], [], [3]]
    assert reverse_postorder(graph) == [0, 2, 1, 3]
    assert reverse_postorder([[2, 1], [3], [3], []]) == [0, 1, 2, 3]
    assert reverse_postorder(graph, roots=(4,)) == [4, 3]


def test_predecessors_keep_edge_order() -> None:
    assert predecessors(DIAMOND) == [[], [0], [0], [1, 2]]
    assert predecessors(LOOP) == [[], [0, 2], [1], [1]]


def test_dominators_of_a_diamond() -> None:
    tree = DominatorTree.forward(DIAMOND)
    assert tree.idom == [None, 0, 0, 0]
    assert tree.dominates(0, 3)
    assert tree.dominates(3, 3)
    assert not tree.dominates(1, 3)
    assert not tree.dominates(2, 1)
    assert not tree.dominates(3, 0)


def test_post_dominators_of_a_diamond() -> None:
    tree = DominatorTree.backward(DIAMOND)
    assert tree.idom == [3, 3, 3, None]
    assert tree.dominates(3, 0)
    assert not tree.dominates(1, 0)
    assert not tree.dominates(0, 3)


def test_dominators_and_post_dominators_of_a_loop() -> None:
    forward = DominatorTree.forward(LOOP)
    assert forward.idom == [None, 0, 1, 1]
    assert forward.dominates(1, 2)  # the header dominates the body
    assert not forward.dominates(2, 1)  # the back edge does not make the body dominate
    backward = DominatorTree.backward(LOOP)
    assert backward.idom == [1, 3, 1, None]
    assert backward.dominates(1, 2)
    assert not backward.dominates(2, 0)


def test_several_exits_join_under_a_virtual_exit() -> None:
    # 0 -> 1 (exit), 0 -> 2 (exit): no real block post-dominates 0.
    tree = DominatorTree.backward([[1, 2], [], []])
    assert tree.idom == [None, None, None]
    assert not tree.dominates(1, 0)
    assert not tree.dominates(2, 0)
    assert all(tree.is_reachable(b) for b in range(3))


def test_unreachable_blocks_only_dominate_themselves() -> None:
    # Block 2 is unreachable and branches into the diamond's join 3; it must not disturb
    # the dominators of the reachable blocks.
    graph = [[1, 3], [3], [3], []]
    tree = DominatorTree.forward(graph)
    assert tree.idom == [None, 0, None, 0]
    assert not tree.is_reachable(2)
    assert tree.is_reachable(0)
    assert tree.is_reachable(3)
    assert tree.dominates(2, 2)
    assert not tree.dominates(0, 2)
    assert not tree.dominates(2, 3)


def test_blocks_that_reach_no_exit_have_no_post_dominator() -> None:
    # 0 -> 1 <-> 2 (an endless loop), 0 -> 3 (exit).
    tree = DominatorTree.backward([[1, 3], [2], [1], []])
    assert not tree.is_reachable(1)
    assert not tree.is_reachable(2)
    assert tree.idom[0] == 3


def test_irreducible_graph_converges() -> None:
    # 0 -> 1, 0 -> 2, 1 <-> 2: neither loop entry dominates the other.
    tree = DominatorTree.forward([[1, 2], [2], [1]])
    assert tree.idom == [None, 0, 0]


def test_control_dependence_of_a_diamond_inside_a_loop() -> None:
    # 0 -> 1 (branch) -> 2 | 3 -> 4 (latch) -> 1 | 5 (exit).
    graph = [[1], [2, 3], [4], [4], [1, 5], []]
    ipdom = DominatorTree.backward(graph).idom
    dependence = control_dependence(graph, ipdom)
    assert dependence[2] == 1 << 1
    assert dependence[3] == 1 << 1
    # The loop body runs again when the latch branches back.
    assert dependence[1] == 1 << 4
    assert dependence[4] == 1 << 4
    assert dependence[0] == 0
    assert dependence[5] == 0
