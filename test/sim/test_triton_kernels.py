"""The Triton GEMMs that the simulator is checked against are consistent: the manifest says
how to launch every PTX file, its parameters are the PTX's, the launch expressions evaluate,
the tensor maps obey the driver's rules, and the real ptxas assembles each kernel."""

import re
from pathlib import Path
from typing import Any

import pytest
from triton_kernels import (
    BEGIN,
    END,
    KERNELS_DIR,
    README,
    entry_function,
    load_manifest,
    readme_section,
)

from tileas_py.ptx.toolchain import run_ptxas

KERNELS = load_manifest()
NAMES = sorted(KERNELS)
SIZES = {"M": 128, "N": 256, "K": 192, "num_sms": 3}
"""Small sizes at which every launch expression must evaluate (multiples of 16, as the
kernels' specialisation requires)."""


def cdiv(a: int, b: int) -> int:
    return -(-a // b)


def evaluate(expression: str, **sizes: int) -> Any:
    names: dict[str, Any] = {"cdiv": cdiv, "min": min, "max": max}
    return eval(expression, {"__builtins__": {}}, names | SIZES | sizes)


def test_manifest_covers_every_ptx_file() -> None:
    on_disk = {path.name for path in KERNELS_DIR.glob("*.ptx")}
    assert on_disk == {kernel["ptx"] for kernel in KERNELS.values()}


def test_the_issue_kernels_are_there() -> None:
    """Issue 13 asks for a cp.async + wgmma pipeline that waits with `wait_group 1`, and a
    persistent kernel with TMA descriptors, mbarriers and wgmma."""
    texts = {name: (KERNELS_DIR / k["ptx"]).read_text() for name, k in KERNELS.items()}
    assert any(
        "cp.async.cg.shared.global" in text
        and "wgmma.wait_group.sync.aligned 1;" in text
        and "cp.async.bulk.tensor" not in text
        for text in texts.values()
    )
    persistent = [name for name, k in KERNELS.items() if "num_sms" in k["grid"]]
    assert persistent
    for name in persistent:
        text = texts[name]
        kinds = {param["kind"] for param in KERNELS[name]["params"]}
        assert "tensormap" in kinds
        assert "mbarrier.try_wait" in text
        assert "wgmma.mma_async" in text
        assert "tensormap" not in text


@pytest.mark.parametrize("name", NAMES)
def test_parameters_match_the_ptx(name: str) -> None:
    kernel = KERNELS[name]
    declared = [param.declarator for param in entry_function(kernel).params]
    params = kernel["params"]
    assert len(declared) == len(params)
    for param, declarator in zip(params, declared, strict=True):
        assert param["ptx_name"] == declarator.name
        pointer = declarator.ptr_space == "global"
        match param["kind"]:
            case "tensormap":
                assert (declarator.ptx_type.value, declarator.dims) == ("b8", (128,))
                assert declarator.align == 64
            case "pointer" | "scratch":
                assert declarator.ptx_type.value == "u64"
                assert pointer
            case "scalar":
                assert not declarator.dims
                assert not pointer
            case kind:
                pytest.fail(f"unknown parameter kind {kind}")


@pytest.mark.parametrize("name", NAMES)
def test_launch_configuration_evaluates(name: str) -> None:
    kernel = KERNELS[name]
    directives = kernel["directives"]
    if "reqntid" in directives:
        assert kernel["block"][: len(directives["reqntid"])] == directives["reqntid"]
    assert kernel["block"][0] % 128 == 0, "wgmma needs whole warpgroups"
    cluster = directives.get("reqnctapercluster", [1])
    assert kernel["cluster"][: len(cluster)] == cluster
    assert kernel["dynamic_shared"] > 0
    assert evaluate(kernel["requires"])
    grid = evaluate(kernel["grid"])
    assert isinstance(grid, int)
    assert grid > 0
    assert grid % kernel["cluster"][0] == 0
    for matrix in kernel["matrices"].values():
        assert all(evaluate(extent) > 0 for extent in matrix["shape"])
    for param in kernel["params"]:
        if param["kind"] == "scalar":
            assert isinstance(evaluate(param["value"]), int)
        if param["kind"] == "scratch":
            assert (param["value"] is None) == (param["bytes_per_cta"] == 0)


@pytest.mark.parametrize("name", NAMES)
def test_tensor_maps_obey_the_driver(name: str) -> None:
    """cuTensorMapEncodeTiled's rules, which `TensorMap` enforces: box extents at most 256,
    the inner box a multiple of 16 bytes and no wider than the swizzle span, global strides
    multiples of 16 bytes (the scalars that follow each map are its shape and strides)."""
    kernel = KERNELS[name]
    params = kernel["params"]
    for index, param in enumerate(params):
        if param["kind"] != "tensormap":
            continue
        matrix = kernel["matrices"][param["matrix"]]
        itemsize = matrix["itemsize"]
        box = param["box"]
        rank = len(matrix["shape"])
        assert len(box) == len(param["element_strides"]) == rank
        assert all(0 < extent <= 256 for extent in box)
        assert param["swizzle"] in {0, 32, 64, 128}
        inner = box[-1] * itemsize
        assert inner % 16 == 0
        if param["swizzle"]:
            assert inner <= param["swizzle"]
        shape = params[index + 1 : index + 1 + rank]
        strides = params[index + 1 + rank : index + 1 + 2 * rank]
        assert [p["value"] for p in shape] == matrix["shape"]
        assert evaluate(strides[-1]["value"]) == 1
        assert all(evaluate(s["value"]) * itemsize % 16 == 0 for s in strides[:-1])


DESCRIPTOR_SWIZZLE = {1: 128, 2: 64, 3: 32}
"""wgmma matrix descriptor bits 62-63 (PTX ISA, "Matrix Descriptor Format") to bytes."""


@pytest.mark.parametrize(
    "name",
    [n for n in NAMES if any(p["kind"] == "tensormap" for p in KERNELS[n]["params"])],
)
def test_wgmma_descriptors_use_the_tensor_map_swizzle(name: str) -> None:
    """The swizzle the TMA loads write A and B with (from Triton's metadata) is the one the
    kernel's wgmma descriptors read with: the layout bits of the 64-bit descriptor
    constants that Triton ORs into each descriptor."""
    kernel = KERNELS[name]
    text = (KERNELS_DIR / kernel["ptx"]).read_text()
    constants = {
        int(value) % (1 << 64)
        for value in re.findall(r"\.b64\s[^;]*,\s*(-?\d{12,});", text)
    }
    read = {DESCRIPTOR_SWIZZLE[c >> 62] for c in constants if c >> 62}
    written = {
        p["swizzle"]
        for p in kernel["params"]
        if p["kind"] == "tensormap" and p["matrix"] in {"A", "B"}
    }
    assert read == written


@pytest.mark.parametrize("name", NAMES)
def test_ptx_holds_what_the_kernel_is_for(name: str) -> None:
    kernel = KERNELS[name]
    text = (KERNELS_DIR / kernel["ptx"]).read_text()
    assert kernel["checks"]["contains"] or kernel["checks"]["absent"]
    for needle in kernel["checks"]["contains"]:
        assert needle in text
    for needle in kernel["checks"]["absent"]:
        assert needle not in text


@pytest.mark.parametrize("name", NAMES)
def test_ptxas_assembles(name: str, tmp_path: Path) -> None:
    result = run_ptxas(KERNELS_DIR / KERNELS[name]["ptx"], output=tmp_path / "k.cubin")
    assert result.ok, "\n".join(result.messages)
    assert (tmp_path / "k.cubin").stat().st_size > 0


def test_readme_lists_the_current_mnemonics() -> None:
    text = README.read_text()
    start, end = text.index(BEGIN), text.index(END) + len(END)
    assert text[start:end] == readme_section(), (
        "regenerate with: .venv/bin/python test/sim/triton_kernels.py"
    )
