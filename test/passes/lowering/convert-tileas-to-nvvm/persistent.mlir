// The program-id queries of a dynamic persistent kernel: valid inside the launch grid,
// the next id one launch grid further along x.
// RUN: tileas-opt %s -p tileas-dynamic-persistent,convert-tileas-to-nvvm | filecheck %s
// RUN: tileas-opt %s -p tileas-dynamic-persistent,convert-tileas-to-nvvm,convert-nvvm-to-ori -t ptx | filecheck %s --check-prefix=PTX

module attributes {nv_tileaa.target_spec = #nv_tileaa.target_spec<sm = 90>} {
  nv_tileas.kernel @k() attributes {nv_tileaa.kernel_spec = #nv_tileaa.kernel_spec<num_ctas = 1>, nv_tileas.num_warps = 4 : i32} {
    %x = nv_tileaa.get_program_id x
    nv_tileas.return
  }
}

// CHECK:      scf.while (%[[X:.*]] = %{{.*}}, %[[Y:.*]] = %{{.*}}, %[[Z:.*]] = %{{.*}}) : (i32, i32, i32) -> (i32, i32, i32) {
// CHECK-NEXT:   %[[GX:.*]] = nvvm.read.ptx.sreg.nctaid.x : i32
// CHECK-NEXT:   %[[VX:.*]] = arith.cmpi ult, %[[X]], %[[GX]] : i32
// CHECK-NEXT:   %[[GY:.*]] = nvvm.read.ptx.sreg.nctaid.y : i32
// CHECK-NEXT:   %[[VY:.*]] = arith.cmpi ult, %[[Y]], %[[GY]] : i32
// CHECK-NEXT:   %[[VXY:.*]] = arith.andi %[[VX]], %[[VY]] : i1
// CHECK-NEXT:   %[[GZ:.*]] = nvvm.read.ptx.sreg.nctaid.z : i32
// CHECK-NEXT:   %[[VZ:.*]] = arith.cmpi ult, %[[Z]], %[[GZ]] : i32
// CHECK-NEXT:   %[[V:.*]] = arith.andi %[[VXY]], %[[VZ]] : i1
// CHECK-NEXT:   scf.condition(%[[V]]) %[[X]], %[[Y]], %[[Z]] : i32, i32, i32
// CHECK-NEXT: } do {
// CHECK-NEXT: ^{{.*}}(%[[PX:.*]]: i32, %[[PY:.*]]: i32, %[[PZ:.*]]: i32):
// CHECK-NEXT:   %[[G:.*]] = nvvm.read.ptx.sreg.nctaid.x : i32
// CHECK-NEXT:   %[[NX:.*]] = arith.addi %[[PX]], %[[G]] : i32
// CHECK-NEXT:   scf.yield %[[NX]], %[[PY]], %[[PZ]] : i32, i32, i32

// PTX:      mov.u32 %r{{[0-9]+}}, %nctaid.x;
// PTX:      setp.lt.u32
