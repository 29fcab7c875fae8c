// Program ids of a dynamic persistent kernel: CTA c runs the tiles c, c + G, c + 2G, ...
// of the tile grid its last three parameters give (G: the CTAs launched), x fastest; the
// launch grid it was built for becomes a constant a launcher reads.
// RUN: tileas-opt %s --split-input-file -p 'tileas-dynamic-persistent{num-sms=8},convert-tileas-to-nvvm' | filecheck %s
// RUN: tileas-opt %s --split-input-file -p tileas-dynamic-persistent,convert-tileas-to-nvvm,convert-nvvm-to-ori -t ptx | filecheck %s --check-prefix=PTX

module attributes {nv_tileaa.target_spec = #nv_tileaa.target_spec<sm = 90>} {
  nv_tileas.kernel @k() attributes {nv_tileaa.kernel_spec = #nv_tileaa.kernel_spec<num_ctas = 1>, nv_tileas.num_warps = 4 : i32} {
    %x = nv_tileaa.get_program_id x
    nv_tileas.return
  }
}

// CHECK:      llvm.mlir.global external constant @k_persistent_grid(dense<[8, 1, 1]> : tensor<3xi32>) {addr_space = 4 : i32, alignment = 4 : i64} : !llvm.array<3 x i32>
// CHECK:      llvm.func @k(%[[TX:.*]]: i32, %[[TY:.*]]: i32, %[[TZ:.*]]: i32) attributes {{{.*}}nv_tileas.persistent_grid = array<i32: 8, 1, 1>}
// The first tile: the CTA's linear id in the launch grid, in the tile grid.
// CHECK-NEXT:   %[[CX:.*]] = nvvm.read.ptx.sreg.ctaid.x : i32
// CHECK-NEXT:   %[[CY:.*]] = nvvm.read.ptx.sreg.ctaid.y : i32
// CHECK-NEXT:   %[[CZ:.*]] = nvvm.read.ptx.sreg.ctaid.z : i32
// CHECK-NEXT:   %[[GX:.*]] = nvvm.read.ptx.sreg.nctaid.x : i32
// CHECK-NEXT:   %[[GY:.*]] = nvvm.read.ptx.sreg.nctaid.y : i32
// CHECK-NEXT:   %{{.*}} = nvvm.read.ptx.sreg.nctaid.z : i32
// CHECK-NEXT:   %[[A:.*]] = arith.muli %[[GY]], %[[CZ]] : i32
// CHECK-NEXT:   %[[B:.*]] = arith.addi %[[CY]], %[[A]] : i32
// CHECK-NEXT:   %[[C:.*]] = arith.muli %[[GX]], %[[B]] : i32
// CHECK-NEXT:   %[[CTA:.*]] = arith.addi %[[CX]], %[[C]] : i32
// CHECK-NEXT:   %[[X0:.*]] = arith.remui %[[CTA]], %[[TX]] : i32
// CHECK-NEXT:   %[[R:.*]] = arith.divui %[[CTA]], %[[TX]] : i32
// CHECK-NEXT:   %[[Y0:.*]] = arith.remui %[[R]], %[[TY]] : i32
// CHECK-NEXT:   %[[Z0:.*]] = arith.divui %[[R]], %[[TY]] : i32
// CHECK-NEXT:   scf.while (%[[X:.*]] = %[[X0]], %[[Y:.*]] = %[[Y0]], %[[Z:.*]] = %[[Z0]]) : (i32, i32, i32) -> (i32, i32, i32) {
// Valid inside the tile grid.
// CHECK-NEXT:     %[[VX:.*]] = arith.cmpi ult, %[[X]], %[[TX]] : i32
// CHECK-NEXT:     %[[VY:.*]] = arith.cmpi ult, %[[Y]], %[[TY]] : i32
// CHECK-NEXT:     %[[VXY:.*]] = arith.andi %[[VX]], %[[VY]] : i1
// CHECK-NEXT:     %[[VZ:.*]] = arith.cmpi ult, %[[Z]], %[[TZ]] : i32
// CHECK-NEXT:     %[[V:.*]] = arith.andi %[[VXY]], %[[VZ]] : i1
// CHECK-NEXT:     scf.condition(%[[V]]) %[[X]], %[[Y]], %[[Z]] : i32, i32, i32
// CHECK-NEXT:   } do {
// The next tile: as many tiles further on as CTAs run.
// CHECK-NEXT:   ^{{.*}}(%[[PX:.*]]: i32, %[[PY:.*]]: i32, %[[PZ:.*]]: i32):
// CHECK-NEXT:     %[[D:.*]] = arith.muli %[[TY]], %[[PZ]] : i32
// CHECK-NEXT:     %[[E:.*]] = arith.addi %[[PY]], %[[D]] : i32
// CHECK-NEXT:     %[[F:.*]] = arith.muli %[[TX]], %[[E]] : i32
// CHECK-NEXT:     %[[T:.*]] = arith.addi %[[PX]], %[[F]] : i32
// CHECK-NEXT:     %[[NGX:.*]] = nvvm.read.ptx.sreg.nctaid.x : i32
// CHECK-NEXT:     %[[NGY:.*]] = nvvm.read.ptx.sreg.nctaid.y : i32
// CHECK-NEXT:     %[[NGZ:.*]] = nvvm.read.ptx.sreg.nctaid.z : i32
// CHECK-NEXT:     %[[NYZ:.*]] = arith.muli %[[NGY]], %[[NGZ]] : i32
// CHECK-NEXT:     %[[N:.*]] = arith.muli %[[NGX]], %[[NYZ]] : i32
// CHECK-NEXT:     %[[NEXT:.*]] = arith.addi %[[T]], %[[N]] : i32
// CHECK-NEXT:     %[[NX:.*]] = arith.remui %[[NEXT]], %[[TX]] : i32
// CHECK-NEXT:     %[[NR:.*]] = arith.divui %[[NEXT]], %[[TX]] : i32
// CHECK-NEXT:     %[[NY:.*]] = arith.remui %[[NR]], %[[TY]] : i32
// CHECK-NEXT:     %[[NZ:.*]] = arith.divui %[[NR]], %[[TY]] : i32
// CHECK-NEXT:     scf.yield %[[NX]], %[[NY]], %[[NZ]] : i32, i32, i32

// PTX:      .visible .const .align 4 .b32 k_persistent_grid[3] = {132, 1, 1};
// PTX:      .visible .entry k(
// PTX-NEXT:   .param .u32 k_param_0,
// PTX-NEXT:   .param .u32 k_param_1,
// PTX-NEXT:   .param .u32 k_param_2
// PTX:        ld.param.u32 %r{{[0-9]+}}, [k_param_0];
// PTX:        mov.u32 %r{{[0-9]+}}, %nctaid.x;
// PTX:        rem.u32
// PTX:        setp.lt.u32

// -----

// A persistent loop written by hand, without nv_tileas.persistent_grid: the tile grid is
// the launch grid, the next id one launch grid further along x.
module attributes {nv_tileaa.target_spec = #nv_tileaa.target_spec<sm = 90>} {
  nv_tileas.kernel @by_hand() attributes {nv_tileaa.kernel_spec = #nv_tileaa.kernel_spec<num_ctas = 1>, nv_tileas.num_warps = 4 : i32} {
    %x0 = nv_tileaa.get_program_id x
    %y0 = nv_tileaa.get_program_id y
    %z0 = nv_tileaa.get_program_id z
    %r:3 = scf.while (%x = %x0, %y = %y0, %z = %z0) : (i32, i32, i32) -> (i32, i32, i32) {
      %valid = nv_tileaa.is_valid_program_id %x, %y, %z
      scf.condition(%valid) %x, %y, %z : i32, i32, i32
    } do {
    ^bb0(%x: i32, %y: i32, %z: i32):
      %nx, %ny, %nz = nv_tileas.cancel_next_program_id
      scf.yield %nx, %ny, %nz : i32, i32, i32
    }
    nv_tileas.return
  }
}

// CHECK-LABEL: llvm.func @by_hand()
// CHECK-NEXT:   %{{.*}} = nvvm.read.ptx.sreg.ctaid.x : i32
// CHECK-NEXT:   %{{.*}} = nvvm.read.ptx.sreg.ctaid.y : i32
// CHECK-NEXT:   %{{.*}} = nvvm.read.ptx.sreg.ctaid.z : i32
// CHECK-NEXT:   scf.while (%[[X:.*]] = %{{.*}}, %[[Y:.*]] = %{{.*}}, %[[Z:.*]] = %{{.*}}) : (i32, i32, i32) -> (i32, i32, i32) {
// CHECK-NEXT:     %[[GX:.*]] = nvvm.read.ptx.sreg.nctaid.x : i32
// CHECK-NEXT:     %[[VX:.*]] = arith.cmpi ult, %[[X]], %[[GX]] : i32
// CHECK-NEXT:     %[[GY:.*]] = nvvm.read.ptx.sreg.nctaid.y : i32
// CHECK-NEXT:     %[[VY:.*]] = arith.cmpi ult, %[[Y]], %[[GY]] : i32
// CHECK-NEXT:     %[[VXY:.*]] = arith.andi %[[VX]], %[[VY]] : i1
// CHECK-NEXT:     %[[GZ:.*]] = nvvm.read.ptx.sreg.nctaid.z : i32
// CHECK-NEXT:     %[[VZ:.*]] = arith.cmpi ult, %[[Z]], %[[GZ]] : i32
// CHECK-NEXT:     %[[V:.*]] = arith.andi %[[VXY]], %[[VZ]] : i1
// CHECK-NEXT:     scf.condition(%[[V]]) %[[X]], %[[Y]], %[[Z]] : i32, i32, i32
// CHECK-NEXT:   } do {
// CHECK-NEXT:   ^{{.*}}(%[[PX:.*]]: i32, %[[PY:.*]]: i32, %[[PZ:.*]]: i32):
// CHECK-NEXT:     %[[G:.*]] = nvvm.read.ptx.sreg.nctaid.x : i32
// CHECK-NEXT:     %[[NX:.*]] = arith.addi %[[PX]], %[[G]] : i32
// CHECK-NEXT:     scf.yield %[[NX]], %[[PY]], %[[PZ]] : i32, i32, i32
