// A loop that carries a tile carries its LLVM value; the casts at its boundary fold away.
// RUN: tileas-opt %s -p convert-tileas-to-nvvm | filecheck %s

#s = #nv_tileas.shared<swizzle = 0, order = [1, 0]>

module attributes {nv_tileaa.target_spec = #nv_tileaa.target_spec<sm = 90>} {
  nv_tileas.kernel @k(%n32: i32) attributes {nv_tileaa.kernel_spec = #nv_tileaa.kernel_spec<num_ctas = 1>, nv_tileas.num_warps = 4 : i32} {
    %n = arith.index_cast %n32 : i32 to index
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %buf = nv_tileas.alloc_tensor : tensor<64x64xf32, #s>
    %last = scf.for %i = %c0 to %n step %c1 iter_args(%b = %buf) -> (tensor<64x64xf32, #s>) {
      scf.yield %b : tensor<64x64xf32, #s>
    } {nv_tileas.num_warps = 4 : i32}
    nv_tileas.return
  }
}

// CHECK:      %[[BUF:.*]] = llvm.getelementptr %{{.*}}[0] : (!llvm.ptr<3>) -> !llvm.ptr<3>, i8
// CHECK-NEXT: %{{.*}} = scf.for %{{.*}} = %{{.*}} to %{{.*}} step %{{.*}} iter_args(%[[B:.*]] = %[[BUF]]) -> (!llvm.ptr<3>) {
// CHECK-NEXT:   scf.yield %[[B]] : !llvm.ptr<3>
// CHECK-NEXT: }
// CHECK-NOT:  unrealized_conversion_cast
