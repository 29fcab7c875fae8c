// tileas-py case file: special registers, wmma, ldmatrix and stmatrix, and their verifier messages

llvm.func @special_registers() {
  %0 = nvvm.read.ptx.sreg.laneid : i32
  %1 = nvvm.read.ptx.sreg.warpsize : i32
  %2 = nvvm.read.ptx.sreg.warpid : i32
  %3 = nvvm.read.ptx.sreg.nwarpid : i32
  %4 = nvvm.read.ptx.sreg.smid : i32
  %5 = nvvm.read.ptx.sreg.nsmid : i32
  %6 = nvvm.read.ptx.sreg.gridid : i32
  %7 = nvvm.read.ptx.sreg.lanemask.eq : i32
  %8 = nvvm.read.ptx.sreg.lanemask.le : i32
  %9 = nvvm.read.ptx.sreg.lanemask.lt : i32
  %10 = nvvm.read.ptx.sreg.lanemask.ge : i32
  %11 = nvvm.read.ptx.sreg.lanemask.gt : i32
  %12 = nvvm.read.ptx.sreg.tid.x : i32
  %13 = nvvm.read.ptx.sreg.tid.y : i32
  %14 = nvvm.read.ptx.sreg.tid.z : i32
  %15 = nvvm.read.ptx.sreg.ntid.x : i32
  %16 = nvvm.read.ptx.sreg.ntid.y : i32
  %17 = nvvm.read.ptx.sreg.ntid.z : i32
  %18 = nvvm.read.ptx.sreg.ctaid.x : i32
  %19 = nvvm.read.ptx.sreg.ctaid.y : i32
  %20 = nvvm.read.ptx.sreg.ctaid.z : i32
  %21 = nvvm.read.ptx.sreg.nctaid.x : i32
  %22 = nvvm.read.ptx.sreg.nctaid.y : i32
  %23 = nvvm.read.ptx.sreg.nctaid.z : i32
  %24 = nvvm.read.ptx.sreg.clusterid.x : i32
  %25 = nvvm.read.ptx.sreg.clusterid.y : i32
  %26 = nvvm.read.ptx.sreg.clusterid.z : i32
  %27 = nvvm.read.ptx.sreg.nclusterid.x : i32
  %28 = nvvm.read.ptx.sreg.nclusterid.y : i32
  %29 = nvvm.read.ptx.sreg.nclusterid.z : i32
  %30 = nvvm.read.ptx.sreg.cluster.ctaid.x : i32
  %31 = nvvm.read.ptx.sreg.cluster.ctaid.y : i32
  %32 = nvvm.read.ptx.sreg.cluster.ctaid.z : i32
  %33 = nvvm.read.ptx.sreg.cluster.nctaid.x : i32
  %34 = nvvm.read.ptx.sreg.cluster.nctaid.y : i32
  %35 = nvvm.read.ptx.sreg.cluster.nctaid.z : i32
  %36 = nvvm.read.ptx.sreg.cluster.ctarank : i32
  %37 = nvvm.read.ptx.sreg.cluster.nctarank : i32
  %38 = nvvm.read.ptx.sreg.clock : i32
  %39 = nvvm.read.ptx.sreg.clock64 : i32
  %40 = nvvm.read.ptx.sreg.globaltimer : i32
  %41 = nvvm.read.ptx.sreg.globaltimer.lo : i32
  %42 = nvvm.read.ptx.sreg.aggr.smem.size : i32
  %43 = nvvm.read.ptx.sreg.dynamic.smem.size : i32
  %44 = nvvm.read.ptx.sreg.total.smem.size : i32
  %45 = nvvm.read.ptx.sreg.envreg0 : i32
  %46 = nvvm.read.ptx.sreg.envreg31 : i32
  %r0 = nvvm.read.ptx.sreg.tid.x range <i32, 0, 128> : i32
  %r1 = nvvm.read.ptx.sreg.laneid range <i32, 0, 32> : i32
  %r2 = nvvm.read.ptx.sreg.cluster.ctarank range <i32, 0, 16> : i32
  %r3 = nvvm.read.ptx.sreg.clock64 : i64
  %r4 = nvvm.read.ptx.sreg.globaltimer : i64
  llvm.return
}

// -----

llvm.func @wmma_and_matrix_ops(%p: !llvm.ptr<3>, %g: !llvm.ptr, %s: i32, %h: vector<2xf16>, %f: f32, %i: i32) {
  %0 = nvvm.wmma.load %g, %s {eltype = #nvvm.mma_type<f16>, frag = #nvvm.mma_frag<a>, k = 16 : i32, layout = #nvvm.mma_layout<row>, m = 16 : i32, n = 16 : i32} : (!llvm.ptr) -> !llvm.struct<(vector<2xf16>, vector<2xf16>, vector<2xf16>, vector<2xf16>, vector<2xf16>, vector<2xf16>, vector<2xf16>, vector<2xf16>)>
  %1 = nvvm.wmma.load %p, %s {eltype = #nvvm.mma_type<f32>, frag = #nvvm.mma_frag<c>, k = 16 : i32, layout = #nvvm.mma_layout<col>, m = 16 : i32, n = 16 : i32} : (!llvm.ptr<3>) -> !llvm.struct<(f32, f32, f32, f32, f32, f32, f32, f32)>
  nvvm.wmma.store %g, %s, %h, %h, %h, %h {eltype = #nvvm.mma_type<f16>, k = 16 : i32, layout = #nvvm.mma_layout<row>, m = 16 : i32, n = 16 : i32} : !llvm.ptr, vector<2xf16>, vector<2xf16>, vector<2xf16>, vector<2xf16>
  %2 = nvvm.wmma.mma %h, %h, %h, %h, %h, %h, %h, %h, %h, %h, %h, %h, %h, %h, %h, %h, %h, %h, %h, %h {eltypeA = #nvvm.mma_type<f16>, eltypeB = #nvvm.mma_type<f16>, k = 16 : i32, layoutA = #nvvm.mma_layout<row>, layoutB = #nvvm.mma_layout<row>, m = 16 : i32, n = 16 : i32} : (vector<2xf16>, vector<2xf16>, vector<2xf16>, vector<2xf16>, vector<2xf16>, vector<2xf16>, vector<2xf16>, vector<2xf16>, vector<2xf16>, vector<2xf16>, vector<2xf16>, vector<2xf16>, vector<2xf16>, vector<2xf16>, vector<2xf16>, vector<2xf16>, vector<2xf16>, vector<2xf16>, vector<2xf16>, vector<2xf16>) -> !llvm.struct<(vector<2xf16>, vector<2xf16>, vector<2xf16>, vector<2xf16>)>
  %3 = nvvm.ldmatrix %p {num = 1 : i32, layout = #nvvm.mma_layout<row>, shape = #nvvm.ld_st_matrix_shape<m = 8, n = 8>, eltType = #nvvm.ld_st_matrix_elt_type<b16>} : (!llvm.ptr<3>) -> i32
  %4 = nvvm.ldmatrix %p {num = 2 : i32, layout = #nvvm.mma_layout<col>, shape = #nvvm.ld_st_matrix_shape<m = 16, n = 16>, eltType = #nvvm.ld_st_matrix_elt_type<b8>} : (!llvm.ptr<3>) -> !llvm.struct<(i32, i32, i32, i32)>
  %5 = nvvm.ldmatrix %p {num = 4 : i32, layout = #nvvm.mma_layout<row>, shape = #nvvm.ld_st_matrix_shape<m = 8, n = 16>, eltType = #nvvm.ld_st_matrix_elt_type<b8x16.b6x16_p32>} : (!llvm.ptr<3>) -> !llvm.struct<(i32, i32, i32, i32)>
  nvvm.stmatrix %p, %i, %i {layout = #nvvm.mma_layout<row>, shape = #nvvm.ld_st_matrix_shape<m = 8, n = 8>, eltType = #nvvm.ld_st_matrix_elt_type<b16>} : !llvm.ptr<3>, i32, i32
  nvvm.stmatrix %p, %i {layout = #nvvm.mma_layout<col>, shape = #nvvm.ld_st_matrix_shape<m = 16, n = 8>, eltType = #nvvm.ld_st_matrix_elt_type<b8>} : !llvm.ptr<3>, i32
  llvm.return
}

// -----

llvm.func @sreg_tensor_result() {
  %0 = "nvvm.read.ptx.sreg.laneid"() : () -> tensor<2xi32>
  llvm.return
}

// -----

llvm.func @sreg_bad_range() {
  %0 = "nvvm.read.ptx.sreg.tid.y"() <{range = #llvm.constant_range<i32, 5, 5>}> : () -> i32
  llvm.return
}

// -----

llvm.func @sreg_operand() {
  %c = llvm.mlir.constant(1 : i32) : i32
  %0 = "nvvm.read.ptx.sreg.clock"(%c) : (i32) -> i32
  llvm.return
}

// -----

llvm.func @wmma_load_space(%p: !llvm.ptr<7>, %s: i32) {
  %0 = nvvm.wmma.load %p, %s {eltype = #nvvm.mma_type<f16>, frag = #nvvm.mma_frag<a>, k = 16 : i32, layout = #nvvm.mma_layout<row>, m = 16 : i32, n = 16 : i32} : (!llvm.ptr<7>) -> !llvm.struct<(vector<2xf16>, vector<2xf16>, vector<2xf16>, vector<2xf16>, vector<2xf16>, vector<2xf16>, vector<2xf16>, vector<2xf16>)>
  llvm.return
}

// -----

llvm.func @wmma_load_combination(%p: !llvm.ptr, %s: i32) {
  %0 = nvvm.wmma.load %p, %s {eltype = #nvvm.mma_type<f16>, frag = #nvvm.mma_frag<a>, k = 7 : i32, layout = #nvvm.mma_layout<row>, m = 16 : i32, n = 16 : i32} : (!llvm.ptr) -> !llvm.struct<(vector<2xf16>)>
  llvm.return
}

// -----

llvm.func @wmma_load_result(%p: !llvm.ptr, %s: i32) {
  %0 = nvvm.wmma.load %p, %s {eltype = #nvvm.mma_type<f16>, frag = #nvvm.mma_frag<a>, k = 16 : i32, layout = #nvvm.mma_layout<row>, m = 16 : i32, n = 16 : i32} : (!llvm.ptr) -> !llvm.struct<(vector<2xf16>)>
  llvm.return
}

// -----

llvm.func @wmma_store_count(%p: !llvm.ptr, %s: i32, %h: vector<2xf16>) {
  nvvm.wmma.store %p, %s, %h, %h {eltype = #nvvm.mma_type<f16>, k = 16 : i32, layout = #nvvm.mma_layout<row>, m = 16 : i32, n = 16 : i32} : !llvm.ptr, vector<2xf16>, vector<2xf16>
  llvm.return
}

// -----

llvm.func @wmma_store_type(%p: !llvm.ptr, %s: i32, %h: vector<2xf16>, %f: f32) {
  nvvm.wmma.store %p, %s, %h, %h, %h, %f {eltype = #nvvm.mma_type<f16>, k = 16 : i32, layout = #nvvm.mma_layout<row>, m = 16 : i32, n = 16 : i32} : !llvm.ptr, vector<2xf16>, vector<2xf16>, vector<2xf16>, f32
  llvm.return
}

// -----

llvm.func @wmma_mma_count(%h: vector<2xf16>) {
  %0 = nvvm.wmma.mma %h, %h {eltypeA = #nvvm.mma_type<f16>, eltypeB = #nvvm.mma_type<f16>, k = 16 : i32, layoutA = #nvvm.mma_layout<row>, layoutB = #nvvm.mma_layout<row>, m = 16 : i32, n = 16 : i32} : (vector<2xf16>, vector<2xf16>) -> !llvm.struct<(vector<2xf16>, vector<2xf16>, vector<2xf16>, vector<2xf16>)>
  llvm.return
}

// -----

llvm.func @ldmatrix_8x8_num(%p: !llvm.ptr<3>) {
  %0 = nvvm.ldmatrix %p {num = 3 : i32, layout = #nvvm.mma_layout<row>, shape = #nvvm.ld_st_matrix_shape<m = 8, n = 8>, eltType = #nvvm.ld_st_matrix_elt_type<b16>} : (!llvm.ptr<3>) -> i32
  llvm.return
}

// -----

llvm.func @ldmatrix_8x16_layout(%p: !llvm.ptr<3>) {
  %0 = nvvm.ldmatrix %p {num = 1 : i32, layout = #nvvm.mma_layout<col>, shape = #nvvm.ld_st_matrix_shape<m = 8, n = 16>, eltType = #nvvm.ld_st_matrix_elt_type<b8x16.b6x16_p32>} : (!llvm.ptr<3>) -> i32
  llvm.return
}

// -----

llvm.func @ldmatrix_shape(%p: !llvm.ptr<3>) {
  %0 = nvvm.ldmatrix %p {num = 1 : i32, layout = #nvvm.mma_layout<row>, shape = #nvvm.ld_st_matrix_shape<m = 16, n = 8>, eltType = #nvvm.ld_st_matrix_elt_type<b16>} : (!llvm.ptr<3>) -> i32
  llvm.return
}

// -----

llvm.func @ldmatrix_result(%p: !llvm.ptr<3>) {
  %0 = nvvm.ldmatrix %p {num = 1 : i32, layout = #nvvm.mma_layout<row>, shape = #nvvm.ld_st_matrix_shape<m = 8, n = 8>, eltType = #nvvm.ld_st_matrix_elt_type<b16>} : (!llvm.ptr<3>) -> i64
  llvm.return
}

// -----

llvm.func @ldmatrix_global(%p: !llvm.ptr<1>) {
  %0 = "nvvm.ldmatrix"(%p) <{num = 1 : i32, layout = #nvvm.mma_layout<row>, shape = #nvvm.ld_st_matrix_shape<m = 8, n = 8>, eltType = #nvvm.ld_st_matrix_elt_type<b16>}> : (!llvm.ptr<1>) -> i32
  llvm.return
}

// -----

llvm.func @environment_registers() {
  %0 = nvvm.read.ptx.sreg.envreg0 : i32
  %1 = nvvm.read.ptx.sreg.envreg1 : i32
  %2 = nvvm.read.ptx.sreg.envreg2 : i32
  %3 = nvvm.read.ptx.sreg.envreg3 : i32
  %4 = nvvm.read.ptx.sreg.envreg4 : i32
  %5 = nvvm.read.ptx.sreg.envreg5 : i32
  %6 = nvvm.read.ptx.sreg.envreg6 : i32
  %7 = nvvm.read.ptx.sreg.envreg7 : i32
  %8 = nvvm.read.ptx.sreg.envreg8 : i32
  %9 = nvvm.read.ptx.sreg.envreg9 : i32
  %10 = nvvm.read.ptx.sreg.envreg10 : i32
  %11 = nvvm.read.ptx.sreg.envreg11 : i32
  %12 = nvvm.read.ptx.sreg.envreg12 : i32
  %13 = nvvm.read.ptx.sreg.envreg13 : i32
  %14 = nvvm.read.ptx.sreg.envreg14 : i32
  %15 = nvvm.read.ptx.sreg.envreg15 : i32
  %16 = nvvm.read.ptx.sreg.envreg16 : i32
  %17 = nvvm.read.ptx.sreg.envreg17 : i32
  %18 = nvvm.read.ptx.sreg.envreg18 : i32
  %19 = nvvm.read.ptx.sreg.envreg19 : i32
  %20 = nvvm.read.ptx.sreg.envreg20 : i32
  %21 = nvvm.read.ptx.sreg.envreg21 : i32
  %22 = nvvm.read.ptx.sreg.envreg22 : i32
  %23 = nvvm.read.ptx.sreg.envreg23 : i32
  %24 = nvvm.read.ptx.sreg.envreg24 : i32
  %25 = nvvm.read.ptx.sreg.envreg25 : i32
  %26 = nvvm.read.ptx.sreg.envreg26 : i32
  %27 = nvvm.read.ptx.sreg.envreg27 : i32
  %28 = nvvm.read.ptx.sreg.envreg28 : i32
  %29 = nvvm.read.ptx.sreg.envreg29 : i32
  %30 = nvvm.read.ptx.sreg.envreg30 : i32
  %31 = nvvm.read.ptx.sreg.envreg31 : i32
  llvm.return
}
