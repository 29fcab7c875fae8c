"""Inputs the fuzzer (test/fuzz/fuzzer.py) found to crash or hang tileas-opt, each now a
diagnostic and exit code 1. docs/robustness.md lists them with their causes."""

from pathlib import Path

import pytest
from fuzzer import judge, run_in_process
from xdsl.dialects.builtin import DenseArrayBase, i32

from tileas_py.xdsl_gaps.parsing import raised_in_xdsl

# A string without its closing quote made xDSL's lexer regex backtrack exponentially:
# 2**60 ways to split the 60 characters before it gives up.
UNTERMINATED_STRING = 'ori.section ".debug_info" "' + "a" * 60 + "\\-1A\n"

# `%x` is defined in ^bb1 only; ^bb3 is reached from ^bb2 too.
DIAMOND = """\
func.func @f(%a: i32, %c: i1) -> i32 {{
  cf.cond_br %c, ^bb1, ^bb2
^bb1:
  %x = arith.addi %a, %a : i32
  cf.br ^bb3(%x : i32)
^bb2:
  cf.br ^bb3(%a : i32)
^bb3(%p: i32):
  {use}
  func.return %p : i32
}}
"""

CASES: dict[str, tuple[str, str, list[str], str]] = {
    "unterminated-string": (
        "mlir",
        UNTERMINATED_STRING,
        [],
        "1:27: error: End of file reached before closing string literal.",
    ),
    "integer-over-4300-digits": (
        "mlir",
        '"test.op"() {v = ' + "7" * 5000 + "} : () -> ()\n",
        ["--allow-unregistered-dialect"],
        "1:18: error: integer literal has more than 4300 digits",
    ),
    "block-label-defined-twice-after-forward-use": (
        "mlir",
        "func.func @f() {\n  cf.br ^bb1\n^bb1:\n  cf.br ^bb1\n^bb1:\n  func.return\n}\n",
        [],
        "5:1: error: re-declaration of block 'bb1'",
    ),
    "gep-index-out-of-i32-range": (
        "mlir",
        "llvm.func @f(%p: !llvm.ptr<1>) {\n"
        "  %q = llvm.getelementptr %p[9223372036854775808] : (!llvm.ptr<1>) -> !llvm.ptr<1>, f32\n"
        "  llvm.return\n}\n",
        [],
        "2:3: error: Integer value 9223372036854775808 is out of range for type i32",
    ),
    "extractvalue-index-past-the-struct": (
        "mlir",
        "llvm.func @f(%s: !llvm.struct<(f32, f32)>) {\n"
        "  %r = llvm.extractvalue %s[9223372036854775807] : !llvm.struct<(f32, f32)>\n"
        "  llvm.return\n}\n",
        [],
        "2:3: error: malformed op (tuple index out of range)",
    ),
    "use-above-its-definition": (
        "mlir",
        "llvm.func @f(%d: !llvm.ptr<1>, %v: f32) {\n"
        "  llvm.store %v, %p : f32, !llvm.ptr<1>\n"
        "  %p = llvm.getelementptr %d[20] : (!llvm.ptr<1>) -> !llvm.ptr<1>, f32\n"
        "  llvm.return\n}\n",
        ["-p", "convert-nvvm-to-ori"],
        "2:3: error: 'llvm.store' op operand #1 does not dominate this use",
    ),
    "use-in-a-block-its-definition-does-not-dominate": (
        "mlir",
        DIAMOND.format(use="%y = arith.addi %x, %a : i32"),
        [],
        "9:3: error: 'arith.addi' op operand #0 does not dominate this use",
    ),
    "i64-array-property-past-2-to-the-63": (
        "mlir",
        "nv_tileas.async.pipeline.agent_switch num_warps = [9223372036854775808, 4]\n",
        [],
        "1:1: error: malformed op (argument out of range)",
    ),
    "negative-wgmma-wait-count": (
        "ptx",
        ".version 8.0\n.target sm_90a\n.address_size 64\n.visible .entry k()\n{\n"
        "  wgmma.wait_group.sync.aligned -1;\n  ret;\n}\n",
        ["-p", "ptxas-gmma"],
        "6:3: error: 'ori.wgmma.wait_group' op Argument 0 of instruction "
        "'wgmma.wait_group': unexpected value '-1', expected to be non-negative integer",
    ),
    "icmp-predicate-out-of-range": (
        "mlir",
        "llvm.func @f(%a: i32) -> i1 {\n"
        '  %c = "llvm.icmp"(%a, %a) <{predicate = 42 : i64}> : (i32, i32) -> i1\n'
        "  llvm.return %c : i1\n}\n",
        [],
        "2:3: error: 'llvm.icmp' op attribute 'predicate' failed to satisfy constraint: "
        "allowed 64-bit signless integer cases: 0, 1, 2, 3, 4, 5, 6, 7, 8, 9",
    ),
    "cmpi-predicate-negative": (
        "mlir",
        "func.func @f(%a: i32) -> i1 {\n"
        '  %c = "arith.cmpi"(%a, %a) <{predicate = -1 : i64}> : (i32, i32) -> i1\n'
        "  func.return %c : i1\n}\n",
        [],
        "2:3: error: 'arith.cmpi' op attribute 'predicate' failed to satisfy constraint",
    ),
    "cmpf-predicate-out-of-range": (
        "mlir",
        "func.func @f(%a: f32) -> i1 {\n"
        '  %c = "arith.cmpf"(%a, %a) <{predicate = 16 : i64, fastmath = #arith.fastmath<none>}>'
        " : (f32, f32) -> i1\n"
        "  func.return %c : i1\n}\n",
        [],
        "2:3: error: 'arith.cmpf' op attribute 'predicate' failed to satisfy constraint: "
        "allowed 64-bit signless integer cases: 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15",
    ),
    "fcmp-predicate-out-of-range": (
        "mlir",
        "llvm.func @f(%a: f32) -> i1 {\n"
        '  %c = "llvm.fcmp"(%a, %a) <{predicate = 99 : i64}> : (f32, f32) -> i1\n'
        "  llvm.return %c : i1\n}\n",
        [],
        "2:3: error: 'llvm.fcmp' op attribute 'predicate' failed to satisfy constraint",
    ),
    "dense-splat-past-the-index-range": (
        "mlir",
        "func.func @f() {\n"
        "  %c = arith.constant dense<1.0> : tensor<9223372036854775807x64xf32>\n"
        "  func.return\n}\n",
        [],
        "2:3: error: malformed op (cannot fit 'int' into an index-sized integer)",
    ),
    "register-tile-store-in-a-nested-module": (
        "mlir",
        "#b = #nv_tileas.blocked<size_per_thread = [1, 4], threads_per_warp = [8, 4], "
        "warps_per_cta = [4, 1], order = [1, 0]>\n"
        "module {\n"
        "  nv_tileas.kernel @k(%c: !nv_tileas.tiled_view<64x64xf32>, %i: index) "
        "attributes {nv_tileaa.kernel_spec = #nv_tileaa.kernel_spec<num_ctas = 1>, "
        "nv_tileas.num_warps = 4 : i32} {\n"
        "    %t = arith.constant dense<2.5> : tensor<32x32xf32, #b>\n"
        "    nv_tileas.tiled_store %t, %c[%i, %i] : tensor<32x32xf32, #b> -> "
        "!nv_tileas.tiled_view<64x64xf32>\n"
        "    nv_tileas.return\n  }\n}\n"
        "nv_tileas.kernel @other() attributes {nv_tileaa.kernel_spec = "
        "#nv_tileaa.kernel_spec<num_ctas = 1>} {\n  nv_tileas.return\n}\n",
        ["-p", "convert-tileas-to-nvvm"],
        "5:5: error: 'nv_tileas.tiled_store' is not supported by convert-tileas-to-nvvm",
    ),
    "accumulator-instr-shape-past-wgmma": (
        "mlir",
        "#acc = #nv_tileas.mma<warps_per_cta = [4, 1], instr_shape = [64, 4294967295, 16]>\n"
        "nv_tileas.kernel @k(%out: !llvm.ptr<1>) attributes {nv_tileaa.kernel_spec = "
        "#nv_tileaa.kernel_spec<num_ctas = 1>} {\n"
        "  %c = arith.constant dense<2.0> : tensor<64x32xf32, #acc>\n"
        "  %v = builtin.unrealized_conversion_cast %out : !llvm.ptr<1> to "
        "!nv_tileas.tiled_view<64x32xf32>\n"
        "  %c0 = arith.constant 0 : index\n"
        "  nv_tileas.tiled_store %c, %v[%c0, %c0] : tensor<64x32xf32, #acc> -> "
        "!nv_tileas.tiled_view<64x32xf32>\n"
        "  nv_tileas.return\n}\n",
        ["-p", "tileas-to-ptx"],
        "3:3: error: an #nv_tileas.mma accumulator's instr_shape [64, 4294967295, 16] "
        "is not a WGMMA shape",
    ),
    "kernel-of-negative-warps": (
        "mlir",
        "nv_tileas.kernel @k() attributes {nv_tileaa.kernel_spec = "
        "#nv_tileaa.kernel_spec<num_ctas = 1>, nv_tileas.num_warps = -2147483648 : i32}"
        " {\n  nv_tileas.return\n}\n",
        ["-p", "tileas-to-ptx"],
        "1:1: error: nv_tileas.num_warps = -2147483648: a CTA has 1 to 32 warps",
    ),
    "agent-switch-at-module-level": (
        "mlir",
        "nv_tileas.async.pipeline.agent_switch num_warps = [1, 4] warp_id = [0, 4] "
        "agent_strides = [1, 1] {\n} {\n}\n"
        "nv_tileas.kernel @k() attributes {nv_tileaa.kernel_spec = "
        "#nv_tileaa.kernel_spec<num_ctas = 1>} {\n  nv_tileas.return\n}\n",
        ["-p", "tileas-to-ptx"],
        "1:1: error: agent_switch must be inside a kernel or function",
    ),
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_found_input_gives_one_diagnostic(name: str, tmp_path: Path) -> None:
    kind, text, args, expected = CASES[name]
    source = tmp_path / f"input.{kind}"
    source.write_text(text)
    outcome = run_in_process([str(source), *args], timeout=60)
    assert judge(outcome) is None, outcome.stderr
    assert outcome.rc == 1
    assert f"{source}:{expected}" in outcome.stderr


def test_only_errors_raised_inside_xdsl_become_parse_errors() -> None:
    """An exception from tileas-py's own parsing code stays an internal error."""
    with pytest.raises(ValueError, match="out of range") as in_xdsl:
        DenseArrayBase.from_list(i32, [1 << 40])
    assert raised_in_xdsl(in_xdsl.value)
    with pytest.raises(ValueError, match="invalid literal") as in_project:
        int("not a number")
    assert not raised_in_xdsl(in_project.value)


def test_dominated_uses_across_blocks_and_regions_are_accepted(tmp_path: Path) -> None:
    source = tmp_path / "input.mlir"
    nested = (
        "%z = scf.execute_region -> i32 {\n"
        "    %y = arith.addi %a, %p : i32\n"
        "    scf.yield %y : i32\n"
        "  }"
    )
    source.write_text(DIAMOND.format(use=nested))
    outcome = run_in_process([str(source)], timeout=60)
    assert (outcome.rc, outcome.stderr) == (0, "")
