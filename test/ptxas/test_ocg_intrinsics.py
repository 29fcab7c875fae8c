"""`check_ocg_intrinsic` against the real ptxas on generated `red_async` / `write_async` calls.

The sync corpus holds one kernel per message (`ocg_*`); here a seeded generator makes a few
hundred calls of the two memory intrinsics, mixing every subop (domain, reduction, type,
vector, memory order, scope, mmio, in any order) with parameter lists of every length and
of right and wrong PTX types, and every one is assembled with ptxas 13.5 (`-c`, since the
intrinsic is an `.extern .func`). What ptxas prints must be what the checker returns, in
order. ptxas itself crashes (C7907, "Internal compiler error") on some forms it should
accept (`red_async_global_add_u32`, `write_async_shared_v4_b64`, most `_global` forms),
before it checks the parameter types: for those the checker must find no subop rule broken.
"""

from __future__ import annotations

import random
import re
import tempfile
from pathlib import Path

import pytest

from tileas_py.hw.sync.diagnostics import Severity
from tileas_py.hw.sync.intrinsics import OCG_PREFIX, IntrinsicCall, check_ocg_intrinsic
from tileas_py.ptx.toolchain import run_ptxas

REGISTERS = {
    "b16": "%h1",
    "b32": "%r1",
    "u32": "%r1",
    "s32": "%r1",
    "f32": "%f1",
    "b64": "%rd1",
    "u64": "%rd1",
    "s64": "%rd1",
}
ORDERINGS: tuple[list[str], ...] = (
    ["release", "gpu"],
    ["release", "sys"],
    ["gpu"],
    [],
    ["release"],
)
OTHER_TYPES = ("b32", "u32", "s32", "b64", "u64", "s64", "f32", "b16")


def kernel(call: IntrinsicCall) -> str:
    """A kernel that declares the intrinsic and calls it once, on line 20 or later."""
    declared = ", ".join(f".param .{t} a{i}" for i, t in enumerate(call.params))
    stores = "".join(
        f"\t.param .{t} a{i};\n\tst.param.{t} [a{i}], {REGISTERS[t]};\n"
        for i, t in enumerate(call.params)
    )
    arguments = ", ".join(f"a{i}" for i in range(len(call.params)))
    name = OCG_PREFIX + call.name
    return (
        ".version 8.5\n.target sm_90a\n.address_size 64\n"
        f".extern .func {name}({declared});\n"
        ".visible .entry k(.param .u64 p)\n{\n"
        "\t.reg .b16 %h<2>;\n\t.reg .b32 %r<2>;\n\t.reg .b64 %rd<2>;\n"
        "\t.reg .f32 %f<2>;\n"
        "\tld.param.u64 %rd1, [p];\n\tmov.u32 %r1, %tid.x;\n"
        f"\t{{\n{stores}\tcall.uni {name}, ({arguments});\n\t}}\n\tret;\n}}\n"
    )


def generated_calls(family: str, count: int, seed: int) -> list[IntrinsicCall]:
    rng = random.Random(seed)
    calls: dict[IntrinsicCall, None] = {}
    while len(calls) < count:
        domain = rng.choice(["shared", "global", None])
        vector = rng.choice([None, "v2", "v4"])
        if family == "red_async":
            operation = rng.choice(
                ["add", "min", "max", "inc", "dec", "and", "or", "xor", None]
            )
            data_type = rng.choice(["u32", "s32", "u64", None])
            default = {"u32": "b32", "s32": "s32", "u64": "b64"}.get(
                data_type or "", "b32"
            )
            named = [domain, operation, vector, data_type]
        else:
            data_type = rng.choice(["b32", "b64", None])
            default = data_type or "b32"
            named = [domain, vector, data_type]
        subops = [s for s in named if s] + rng.choice(ORDERINGS)
        if rng.random() < 0.1:
            subops.append("mmio")
        if rng.random() < 0.3:
            rng.shuffle(subops)
        width = {"v2": 2, "v4": 4}.get(vector or "", 1)
        if rng.random() < 0.2:
            width = rng.randrange(5)
        data = rng.choice(OTHER_TYPES) if rng.random() < 0.3 else default
        if family == "red_async":
            address = ["b32", "b32"] if domain != "global" else ["b64"]
            params = [*address, *[data] * width]
        else:
            params = ["b64", *[data] * width, *(["b64"] if domain != "global" else [])]
        if rng.random() < 0.15 and params:
            params[rng.randrange(len(params))] = rng.choice(OTHER_TYPES)
        calls[IntrinsicCall(f"{family}_{'_'.join(subops)}", tuple(params))] = None
    return list(calls)


CALLS = generated_calls("red_async", 150, 11) + generated_calls("write_async", 150, 12)
MESSAGE = re.compile(
    r"^ptxas (?:application ptx input, line \d+; )?\w+ *: (?P<text>.*)$"
)


def ptxas_messages(call: IntrinsicCall) -> list[str] | None:
    """The texts ptxas prints for the call (without its final abort), None if it crashes."""
    with tempfile.TemporaryDirectory() as tmp:
        ptx = Path(tmp) / "k.ptx"
        ptx.write_text(kernel(call))
        result = run_ptxas(ptx, output=Path(tmp) / "k.cubin", extra_args=("-c",))
    texts = [
        m.group("text")
        for line in result.messages
        if (m := MESSAGE.match(line)) is not None
        and line != "ptxas fatal   : Ptx assembly aborted due to errors"
    ]
    if any("(C7907)" in text for text in texts):
        return None
    return texts


@pytest.mark.parametrize(
    "call", CALLS, ids=[f"{c.name}({','.join(c.params)})" for c in CALLS]
)
def test_checker_prints_what_ptxas_prints(call: IntrinsicCall) -> None:
    expected = ptxas_messages(call)
    found = check_ocg_intrinsic(call)
    if expected is None:
        assert all(
            d.message.severity is Severity.WARNING
            or d.message.name == "intrinsic-param-type"
            for d in found
        )
    else:
        assert [d.text for d in found] == expected


def test_every_rule_is_generated() -> None:
    texts = {d.text for c in CALLS for d in check_ocg_intrinsic(c)}
    for rule in (
        "Vector type does not match number of subops",
        "Operand type does not match specified type",
        "Type {u32, s32, u64} not specified",
        "Vector supported only for {u32, u64}",
        "Op {add, min, max, inc, dec, and, or, xor} not specified",
        "Unsupported non _add global memory reduction",
        "Invalid vector / data type combination",
        "Invalid data type / op combination",
        "Valid type not specified",
    ):
        assert any(rule in text for text in texts), rule
