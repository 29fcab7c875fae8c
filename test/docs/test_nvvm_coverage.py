"""docs/nvvm-coverage.md is what the coverage generator makes of the nvvm dialect today,
and the dialect covers every op of upstream's NVVM dialect in LLVM 22.1.8."""

from tileas_py.dialects.nvvm import NVVM
from tileas_py.dialects.nvvm.upstream import UPSTREAM_OPS
from tileas_py.tools.nvvm_coverage import DOCS_PAGE, main, reference, targets, verifier


def test_docs_nvvm_coverage_md_is_up_to_date() -> None:
    # On failure: python -m tileas_py.tools.nvvm_coverage --write
    assert DOCS_PAGE.read_text() == reference()


def test_check_mode_agrees_with_the_page() -> None:
    assert main(["--check"]) == 0


def test_every_upstream_op_has_a_row_and_an_implementation() -> None:
    page = reference()
    ours = {op.name for op in NVVM.operations}
    assert ours == set(UPSTREAM_OPS)
    for name in UPSTREAM_OPS:
        assert f"| `{name}` | `" in page
    assert "| missing |" not in page
    assert f"**{len(UPSTREAM_OPS)} of {len(UPSTREAM_OPS)}**" in page


def test_columns_come_from_the_op_definitions() -> None:
    ops = {op.name: op for op in NVVM.operations}
    assert targets(ops["nvvm.wgmma.fence.aligned"]) == "sm_90a"
    assert targets(ops["nvvm.mapa"]) == "sm_90+"
    assert targets(ops["nvvm.tcgen05.shift"]) == "sm_100a, sm_103a, sm_110a"
    assert targets(ops["nvvm.tcgen05.mma"]) == "sm_100a/f, sm_103a/f, sm_110a/f"
    assert targets(ops["nvvm.exit"]) == "any"
    assert verifier(ops["nvvm.exit"]) == "ODS"
    assert verifier(ops["nvvm.setmaxregister"]) == "ODS + rules"
    assert verifier(ops["nvvm.mbarrier.arrive_drop"]) == "ODS + rules"
