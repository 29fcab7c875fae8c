"""No sync phase drops or moves the synchronization a program relies on.

Under the most aggressive options (every barrier-removal mode, extern calls assumed not to
synchronize, fences after loops, fence and DEPBAR elimination), an independent check of
the IR before and after `ptxas-pipeline`, on adversarial kernels written to tempt each
optimization and on every kernel of the sync corpus and the real GEMMs:

- a shared-memory write and a later shared-memory read that a CTA barrier separated on
  every path are still separated by one;
- a shared-memory read that every path reached only through an mbarrier wait still is;
- a generic-proxy shared-memory write and a later async-proxy access (bulk copy / TMA) that
  a `fence.proxy.async` separated on every path are still separated by one.

Instructions are matched before and after by opcode and source line (phases clone and
predicate some of them).
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest
from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.ir import Block

from tileas_py.diagnostics import collect_diagnostics, location_of
from tileas_py.dialects.ori import FuncOp, InstructionOp, SassOp
from tileas_py.pipelines import PtxasPipelinePass
from tileas_py.ptx.reader import read_ptx

REPO = Path(__file__).resolve().parents[3]
INPUTS = Path(__file__).parent / "Inputs"


def assembles_by_default(ptx: Path) -> bool:
    """Whether the sync corpus kernel's plain `ptxas -arch=...` run succeeded."""
    for line in ptx.read_text().splitlines()[1:]:
        if not line.startswith("// RUN:"):
            break
        command, status = line.removeprefix("// RUN: ptxas ").split(" => exit ")
        if len(command.split()) == 1 and status == "0":
            return True
    return False


KERNELS = [
    *sorted(INPUTS.glob("*.ptx")),
    *sorted(
        p
        for p in (REPO / "test" / "ptxas" / "sync" / "corpus").glob("*.ptx")
        if assembles_by_default(p)
    ),
    *sorted((REPO / "test" / "ptx" / "corpus").glob("*.ptx")),
]

# compile-only: ptxas (and phase 87) refuse a call of an extern function without `-c`.
AGGRESSIVE = PtxasPipelinePass(
    sync_mode=3,
    assume_extern_functions_do_not_sync=True,
    stage_and_fence=True,
    compile_only=True,
)

Predicate = Callable[[InstructionOp], bool]
Key = tuple[str, int]


def parts(inst: InstructionOp) -> list[str]:
    return inst.opcode.data.split(".")


def writes_shared(inst: InstructionOp) -> bool:
    p = parts(inst)
    return p[0] in ("st", "atom", "red") and any(x.startswith("shared") for x in p)


def reads_shared(inst: InstructionOp) -> bool:
    p = parts(inst)
    return p[0] == "ld" and any(x.startswith("shared") for x in p)


def is_cta_barrier(inst: InstructionOp) -> bool:
    if isinstance(inst, SassOp):
        return inst.opcode.data.startswith("BAR.SYNC")
    p = parts(inst)
    return p[0] in ("bar", "barrier") and "sync" in p and p[1] != "warp"


def is_mbarrier_wait(inst: InstructionOp) -> bool:
    p = parts(inst)
    return p[0] in ("mbarrier", "_mbarrier") and p[1] in ("try_wait", "test_wait")


def is_async_proxy_access(inst: InstructionOp) -> bool:
    p = parts(inst)
    return p[:3] == ["cp", "async", "bulk"] or p[:3] == ["cp", "reduce", "async"]


def is_proxy_fence(inst: InstructionOp) -> bool:
    return parts(inst)[:3] == ["fence", "proxy", "async"]


def key(inst: InstructionOp) -> Key:
    location = location_of(inst)
    return inst.opcode.data, -1 if location is None else location.line.data


def positions(func: FuncOp) -> dict[InstructionOp, tuple[Block, int]]:
    found: dict[InstructionOp, tuple[Block, int]] = {}
    for block in list(func.body.blocks)[1:]:
        for index, op in enumerate(block.ops):
            if isinstance(op, InstructionOp):
                found[op] = (block, index)
    return found


def reaches_avoiding(
    start: Block, first: int, target: InstructionOp, blocker: Predicate
) -> bool:
    """Whether some path from position `first` of `start` reaches `target` without
    passing an instruction that `blocker` accepts."""
    stack = [(start, first)]
    seen: set[Block] = set()
    while stack:
        block, index = stack.pop()
        blocked = False
        for op in list(block.ops)[index:]:
            if op is target:
                return True
            if isinstance(op, InstructionOp) and blocker(op):
                blocked = True
                break
        terminator = block.last_op
        if blocked or terminator is None:
            continue
        for successor in terminator.successors:
            if successor not in seen:
                seen.add(successor)
                stack.append((successor, 0))
    return False


def separated_pairs(
    module: ModuleOp, first: Predicate, second: Predicate, blocker: Predicate
) -> set[tuple[Key, Key]]:
    """(first, second) pairs where `second` is reachable from `first` and every such path
    passes a `blocker`."""
    pairs: set[tuple[Key, Key]] = set()
    for func in module.ops:
        if not isinstance(func, FuncOp) or func.is_declaration:
            continue
        where = positions(func)
        sources = [i for i in where if first(i)]
        targets = [i for i in where if second(i)]
        for source in sources:
            block, index = where[source]
            for target in targets:
                if source is target:
                    continue
                reachable = reaches_avoiding(block, index + 1, target, lambda _: False)
                if reachable and not reaches_avoiding(
                    block, index + 1, target, blocker
                ):
                    pairs.add((key(source), key(target)))
    return pairs


def guarded_reads(module: ModuleOp) -> set[Key]:
    """Shared-memory reads that every path from the entry reaches through a wait."""
    guarded: set[Key] = set()
    for func in module.ops:
        if not isinstance(func, FuncOp) or func.is_declaration:
            continue
        entry = list(func.body.blocks)[1]
        for inst in positions(func):
            if reads_shared(inst) and not reaches_avoiding(
                entry, 0, inst, is_mbarrier_wait
            ):
                guarded.add(key(inst))
    return guarded


def properties(module: ModuleOp) -> dict[str, set[object]]:
    return {
        "barrier": set(
            separated_pairs(module, writes_shared, reads_shared, is_cta_barrier)
        ),
        "proxy fence": set(
            separated_pairs(
                module, writes_shared, is_async_proxy_access, is_proxy_fence
            )
        ),
        "mbarrier wait": set(guarded_reads(module)),
    }


@pytest.mark.parametrize(
    "ptx", KERNELS, ids=[f"{p.parent.name}/{p.stem}" for p in KERNELS]
)
def test_synchronization_survives_the_most_aggressive_pipeline(ptx: Path) -> None:
    before = read_ptx(ptx.read_text(), ptx.name)
    after = read_ptx(ptx.read_text(), ptx.name)
    with collect_diagnostics():
        AGGRESSIVE.apply(Context(), after)
    after.verify()
    expected = properties(before)
    actual = properties(after)
    for name, kept in expected.items():
        assert kept <= actual[name], (name, kept - actual[name])
    if ptx.parent.name == "Inputs":
        assert any(expected.values()), "an adversarial kernel must exercise a property"
