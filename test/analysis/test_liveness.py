"""The backward liveness solver and the straight-line use/def summary."""

from tileas_py.analysis.liveness import solve, use_def


def test_use_def_counts_reads_before_sure_writes() -> None:
    # r0 = r1; r2 = r0; @p r1 = ...; r3 = r1
    gen, kill = use_def(
        [
            (0b0010, 0b0001, True),
            (0b0001, 0b0100, True),
            (0, 0b0010, False),
            (0b0010, 0b1000, True),
        ]
    )
    assert gen == 0b0010  # r0 was written before it was read
    assert kill == 0b1101  # the guarded write of r1 may not happen


def test_value_live_around_a_loop() -> None:
    # 0 writes r0; 1 (loop) reads r0 and writes r1; 2 reads r1.
    live_in, live_out = solve(
        [[1], [1, 2], []], gen=[0, 0b01, 0b10], kill=[0b01, 0b10, 0]
    )
    assert live_in == [0, 0b01, 0b10]
    assert live_out == [0b01, 0b11, 0]


def test_value_killed_on_one_path_only() -> None:
    # 0 -> 1 | 2 -> 3; 3 reads r0, 1 writes it, 2 does not.
    live_in, live_out = solve(
        [[1, 2], [3], [3], []], gen=[0, 0, 0, 1], kill=[0, 1, 0, 0]
    )
    assert live_in == [1, 0, 1, 1]
    assert live_out == [1, 1, 1, 0]


def test_unreachable_blocks_are_solved_too() -> None:
    # Block 2 is unreachable from 0 and reads r0 that its successor 1 also reads.
    live_in, live_out = solve([[1], [], [1]], gen=[0, 1, 0b10], kill=[0, 0, 0])
    assert live_in == [1, 1, 0b11]
    assert live_out == [1, 0, 1]


def test_a_long_chain_reaches_the_fixed_point() -> None:
    # A loop of 50 blocks where only the last reads r0: it is live everywhere around it.
    count = 50
    successors = [[i + 1] for i in range(count - 1)] + [[0]]
    gen = [0] * count
    gen[-1] = 1
    live_in, _ = solve(successors, gen=gen, kill=[0] * count)
    assert live_in == [1] * count
