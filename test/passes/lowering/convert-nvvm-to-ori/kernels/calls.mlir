// A kernel that calls device functions: scalar, predicate and byte arguments, a struct
// result, two results from a func.func, a call to a function defined later in the
// module (so it needs a prototype), and a private helper (no .visible).
// RUN: tileas-opt %s -p convert-nvvm-to-ori | filecheck %s --check-prefix=ORI
// RUN: tileas-opt %s -p convert-nvvm-to-ori -t ptx | filecheck %s --check-prefix=PTX
// RUN: tileas-opt %s -p convert-nvvm-to-ori -t ptx -o %t.ptx
// RUN: ptxas -arch=sm_90a %t.ptx -o %t.cubin

module attributes {nvvm.target = #nvvm.target<chip = "sm_90a">} {
  func.func private @clamp(%x: f32, %lo: f32, %hi: f32) -> f32 {
    %a = arith.maxnumf %x, %lo : f32
    %b = arith.minnumf %a, %hi : f32
    func.return %b : f32
  }

  func.func @divmod(%a: i32, %b: i32) -> (i32, i32) {
    %q = arith.divui %a, %b : i32
    %r = arith.remui %a, %b : i32
    func.return %q, %r : i32, i32
  }

  llvm.func @kernel(%out: !llvm.ptr<1>, %x: f32, %n: i32, %flag: i1, %tag: i8) attributes {nvvm.kernel} {
    %zero = llvm.mlir.constant(0.0 : f32) : f32
    %one = llvm.mlir.constant(1.0 : f32) : f32
    %c7 = llvm.mlir.constant(7 : i32) : i32
    %y = func.call @clamp(%x, %zero, %one) : (f32, f32, f32) -> f32
    %qr:2 = func.call @divmod(%n, %c7) : (i32, i32) -> (i32, i32)
    %pair = llvm.call @make_pair(%y, %qr#0, %flag, %tag) : (f32, i32, i1, i8) -> !llvm.struct<(f32, i32)>
    %f = llvm.extractvalue %pair[0] : !llvm.struct<(f32, i32)>
    %i = llvm.extractvalue %pair[1] : !llvm.struct<(f32, i32)>
    %sum = llvm.add %i, %qr#1 : i32
    %p1 = llvm.getelementptr %out[1] : (!llvm.ptr<1>) -> !llvm.ptr<1>, f32
    llvm.store %f, %out : f32, !llvm.ptr<1>
    llvm.store %sum, %p1 : i32, !llvm.ptr<1>
    llvm.return
  }

  llvm.func @make_pair(%f: f32, %i: i32, %negate: i1, %tag: i8) -> !llvm.struct<(f32, i32)> {
    %u = llvm.mlir.undef : !llvm.struct<(f32, i32)>
    %neg = llvm.fneg %f : f32
    %g = llvm.select %negate, %neg, %f : i1, f32
    %wide = llvm.zext %tag : i8 to i32
    %j = llvm.add %i, %wide : i32
    %s0 = llvm.insertvalue %g, %u[0] : !llvm.struct<(f32, i32)>
    %s1 = llvm.insertvalue %j, %s0[1] : !llvm.struct<(f32, i32)>
    llvm.return %s1 : !llvm.struct<(f32, i32)>
  }
}
