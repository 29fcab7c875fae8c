"""`promote_locals`: per-thread values kept in an alloca become SSA values carried by
structured control flow; an alloca with any other use stays in memory."""

from __future__ import annotations

from xdsl.dialects import llvm

from tileas_py.api import parse_mlir, print_mlir
from tileas_py.passes.lowering.tileas_to_nvvm.promote_locals import promote_locals


def _promoted(text: str) -> str:
    module = parse_mlir(text, "promote.mlir")
    for function in module.body.block.ops:
        assert isinstance(function, llvm.FuncOp)
        promote_locals(function)
    module.verify()
    return print_mlir(module)


_HEADER = """
llvm.func @k(%n64: i64, %c: i1, %out: !llvm.ptr) {
  %n = arith.index_cast %n64 : i64 to index
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %two = llvm.mlir.constant(2 : i32) : i32
  %zero = arith.constant 0 : i32
  %one = arith.constant 1 : i32
  %mem = llvm.alloca %two x i32 {alignment = 4 : i64} : (i32) -> !llvm.ptr
  %e0 = llvm.getelementptr %mem[0] : (!llvm.ptr) -> !llvm.ptr, i32
  %e1 = llvm.getelementptr %mem[1] : (!llvm.ptr) -> !llvm.ptr, i32
  llvm.store %zero, %e0 : i32, !llvm.ptr
  llvm.store %zero, %e1 : i32, !llvm.ptr
"""


def test_a_loop_and_a_branch_carry_the_elements_they_store() -> None:
    text = (
        _HEADER
        + """
  scf.for %i = %c0 to %n step %c1 {
    %v = llvm.load %e0 : !llvm.ptr -> i32
    %w = arith.addi %v, %one : i32
    llvm.store %w, %e0 : i32, !llvm.ptr
    scf.if %c {
      %x = llvm.load %e1 : !llvm.ptr -> i32
      %y = arith.addi %x, %w : i32
      llvm.store %y, %e1 : i32, !llvm.ptr
    }
  }
  %r = llvm.load %e1 : !llvm.ptr -> i32
  llvm.store %r, %out : i32, !llvm.ptr
  llvm.return
}
"""
    )
    out = _promoted(text)
    assert "llvm.alloca" not in out
    assert "getelementptr" not in out
    # The loop carries both elements (element 0 stored in the body, 1 in the branch),
    # the branch yields element 1 on both sides.
    assert (
        "%0, %r = scf.for %i = %c0 to %n step %c1 iter_args(%v = %zero, %x = %zero) -> (i32, i32) {"
        in out
    )
    assert "%1 = scf.if %c -> (i32) {" in out
    assert "scf.yield %y : i32" in out
    assert "scf.yield %x : i32" in out
    assert "scf.yield %w, %1 : i32, i32" in out
    # After the loop, the value read is the loop's second result.
    assert "llvm.store %r, %out : i32, !llvm.ptr" in out


def test_a_while_loop_carries_an_element_through_both_regions() -> None:
    text = (
        _HEADER
        + """
  %last = scf.while (%arg = %c0) : (index) -> index {
    %go = arith.cmpi slt, %arg, %n : index
    scf.condition(%go) %arg : index
  } do {
  ^bb0(%i: index):
    %v = llvm.load %e0 : !llvm.ptr -> i32
    %w = arith.addi %v, %one : i32
    llvm.store %w, %e0 : i32, !llvm.ptr
    %next = arith.addi %i, %c1 : index
    scf.yield %next : index
  }
  %r = llvm.load %e0 : !llvm.ptr -> i32
  llvm.store %r, %out : i32, !llvm.ptr
  llvm.return
}
"""
    )
    out = _promoted(text)
    assert "llvm.alloca" not in out
    assert "scf.while (%arg = %c0, %0 = %zero) : (index, i32) -> (index, i32)" in out
    assert "scf.condition(%go) %arg, %0 : index, i32" in out
    assert "scf.yield %next, %w : index, i32" in out


def test_an_escaping_alloca_stays_in_memory() -> None:
    text = (
        _HEADER
        + """
  llvm.store %e0, %out : !llvm.ptr, !llvm.ptr
  llvm.return
}
"""
    )
    out = _promoted(text)
    assert "llvm.alloca" in out
    assert out.count("llvm.store") == 3
