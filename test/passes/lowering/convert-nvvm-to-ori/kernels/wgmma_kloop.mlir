// A WGMMA GEMM main loop: one warpgroup computes a 64x64 f32 tile of D = A * B.
//
// Each K step loads a 64x64 f16 tile of A and of B with TMA into shared memory, waits
// on the mbarrier's phase, then runs the four-op WGMMA sequence: a fence, four
// m64n64k16 mma_async (K = 64) that thread the accumulator, a commit, and a wait that
// leaves the group in flight (`wait_group 1`) until the next step's wait. The
// accumulator is an scf.for iter_arg, zero at the start; after the loop the last group
// is drained and every thread stores its 32 accumulator registers.
// RUN: tileas-opt %s -p convert-nvvm-to-ori | filecheck %s --check-prefix=ORI
// RUN: tileas-opt %s -p convert-nvvm-to-ori -t ptx | filecheck %s --check-prefix=PTX
// RUN: tileas-opt %s -p convert-nvvm-to-ori -t ptx -o %t.ptx
// RUN: ptxas -arch=sm_90a %t.ptx -o %t.cubin

module attributes {nvvm.target = #nvvm.target<chip = "sm_90a", features = "+ptx80">} {
  llvm.mlir.global internal @tile_a() {addr_space = 3 : i32, alignment = 1024 : i64} : !llvm.array<4096 x f16>
  llvm.mlir.global internal @tile_b() {addr_space = 3 : i32, alignment = 1024 : i64} : !llvm.array<4096 x f16>
  llvm.mlir.global internal @bar() {addr_space = 3 : i32, alignment = 8 : i64} : i64

  llvm.func @gemm_kloop(%map_a: !llvm.ptr {llvm.align = 64 : i64, llvm.byval = !llvm.array<128 x i8>, nvvm.grid_constant},
                        %map_b: !llvm.ptr {llvm.align = 64 : i64, llvm.byval = !llvm.array<128 x i8>, nvvm.grid_constant},
                        %d: !llvm.ptr<1>, %k_count: i64) attributes {nvvm.kernel, nvvm.maxnreg = 168 : i32, nvvm.reqntid = array<i32: 128, 1, 1>} {
    %tid = nvvm.read.ptx.sreg.tid.x : i32
    %m = nvvm.read.ptx.sreg.ctaid.x : i32
    %n = nvvm.read.ptx.sreg.ctaid.y : i32
    %i0 = arith.constant 0 : i32
    %i1 = arith.constant 1 : i32
    %i64 = arith.constant 64 : i32
    %bytes = arith.constant 16384 : i32
    %ticks = arith.constant 1000000 : i32
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %k_tiles = arith.index_cast %k_count : i64 to index
    %a = llvm.mlir.addressof @tile_a : !llvm.ptr<3>
    %b = llvm.mlir.addressof @tile_b : !llvm.ptr<3>
    %bar = llvm.mlir.addressof @bar : !llvm.ptr<3>
    %first = arith.cmpi eq, %tid, %i0 : i32
    nvvm.mbarrier.init %bar, %i1, predicate = %first : !llvm.ptr<3>, i32, i1
    nvvm.fence.mbarrier.init
    nvvm.barrier0
    // Shared-memory matrix descriptors: address >> 4, LBO 1, SBO 64 (1024 B), 128B swizzle.
    %mask = arith.constant 262143 : i64
    %fields = arith.constant 4611686293305294848 : i64
    %a_addr = llvm.ptrtoint %a : !llvm.ptr<3> to i64
    %b_addr = llvm.ptrtoint %b : !llvm.ptr<3> to i64
    %a_low = arith.andi %a_addr, %mask : i64
    %b_low = arith.andi %b_addr, %mask : i64
    %c4 = arith.constant 4 : i64
    %a_enc = arith.shrui %a_low, %c4 : i64
    %b_enc = arith.shrui %b_low, %c4 : i64
    %desc_a0 = arith.ori %a_enc, %fields : i64
    %desc_b0 = arith.ori %b_enc, %fields : i64
    %step = arith.constant 2 : i64
    %desc_a1 = arith.addi %desc_a0, %step : i64
    %desc_a2 = arith.addi %desc_a1, %step : i64
    %desc_a3 = arith.addi %desc_a2, %step : i64
    %desc_b1 = arith.addi %desc_b0, %step : i64
    %desc_b2 = arith.addi %desc_b1, %step : i64
    %desc_b3 = arith.addi %desc_b2, %step : i64
    %zero = llvm.mlir.zero : !llvm.struct<(f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32)>
    %result = scf.for %kt = %c0 to %k_tiles step %c1 iter_args(%acc = %zero) -> (!llvm.struct<(f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32)>) {
      %kt32 = arith.index_cast %kt : index to i32
      %parity = arith.andi %kt32, %i1 : i32
      %col = arith.muli %kt32, %i64 : i32
      %row_a = arith.muli %m, %i64 : i32
      %row_b = arith.muli %n, %i64 : i32
      nvvm.mbarrier.arrive.expect_tx %bar, %bytes, predicate = %first : !llvm.ptr<3>, i32, i1
      nvvm.cp.async.bulk.tensor.shared.cluster.global %a, %map_a, %bar, box[%col, %row_a] predicate = %first : !llvm.ptr<3>, !llvm.ptr
      nvvm.cp.async.bulk.tensor.shared.cluster.global %b, %map_b, %bar, box[%col, %row_b] predicate = %first : !llvm.ptr<3>, !llvm.ptr
      nvvm.mbarrier.try_wait.parity %bar, %parity, %ticks : !llvm.ptr<3>, i32, i32
      nvvm.wgmma.fence.aligned
      %acc0 = nvvm.wgmma.mma_async %desc_a0, %desc_b0, %acc, #nvvm.shape<m = 64, n = 64, k = 16>, D [<f32>, #nvvm.wgmma_scale_out<one>], A [<f16>, #nvvm.wgmma_scale_in<one>, <row>], B [<f16>, #nvvm.wgmma_scale_in<one>, <col>] : !llvm.struct<(f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32)> -> !llvm.struct<(f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32)>
      %acc1 = nvvm.wgmma.mma_async %desc_a1, %desc_b1, %acc0, #nvvm.shape<m = 64, n = 64, k = 16>, D [<f32>, #nvvm.wgmma_scale_out<one>], A [<f16>, #nvvm.wgmma_scale_in<one>, <row>], B [<f16>, #nvvm.wgmma_scale_in<one>, <col>] : !llvm.struct<(f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32)> -> !llvm.struct<(f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32)>
      %acc2 = nvvm.wgmma.mma_async %desc_a2, %desc_b2, %acc1, #nvvm.shape<m = 64, n = 64, k = 16>, D [<f32>, #nvvm.wgmma_scale_out<one>], A [<f16>, #nvvm.wgmma_scale_in<one>, <row>], B [<f16>, #nvvm.wgmma_scale_in<one>, <col>] : !llvm.struct<(f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32)> -> !llvm.struct<(f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32)>
      %acc3 = nvvm.wgmma.mma_async %desc_a3, %desc_b3, %acc2, #nvvm.shape<m = 64, n = 64, k = 16>, D [<f32>, #nvvm.wgmma_scale_out<one>], A [<f16>, #nvvm.wgmma_scale_in<one>, <row>], B [<f16>, #nvvm.wgmma_scale_in<one>, <col>] : !llvm.struct<(f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32)> -> !llvm.struct<(f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32)>
      nvvm.wgmma.commit.group.sync.aligned
      nvvm.wgmma.wait.group.sync.aligned 1
      scf.yield %acc3 : !llvm.struct<(f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32)>
    }
    nvvm.wgmma.wait.group.sync.aligned 0
    // Each thread stores its accumulator registers contiguously (row-major by thread).
    %tid64 = arith.extui %tid : i32 to i64
    %per_thread = arith.constant 32 : i64
    %first_elem = arith.muli %tid64, %per_thread : i64
    %base = llvm.getelementptr %d[%first_elem] : (!llvm.ptr<1>, i64) -> !llvm.ptr<1>, f32
    %v0 = llvm.extractvalue %result[0] : !llvm.struct<(f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32)>
    %p0 = llvm.getelementptr %base[0] : (!llvm.ptr<1>) -> !llvm.ptr<1>, f32
    llvm.store %v0, %p0 : f32, !llvm.ptr<1>
    %v1 = llvm.extractvalue %result[1] : !llvm.struct<(f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32)>
    %p1 = llvm.getelementptr %base[1] : (!llvm.ptr<1>) -> !llvm.ptr<1>, f32
    llvm.store %v1, %p1 : f32, !llvm.ptr<1>
    %v2 = llvm.extractvalue %result[2] : !llvm.struct<(f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32)>
    %p2 = llvm.getelementptr %base[2] : (!llvm.ptr<1>) -> !llvm.ptr<1>, f32
    llvm.store %v2, %p2 : f32, !llvm.ptr<1>
    %v3 = llvm.extractvalue %result[3] : !llvm.struct<(f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32)>
    %p3 = llvm.getelementptr %base[3] : (!llvm.ptr<1>) -> !llvm.ptr<1>, f32
    llvm.store %v3, %p3 : f32, !llvm.ptr<1>
    %v4 = llvm.extractvalue %result[4] : !llvm.struct<(f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32)>
    %p4 = llvm.getelementptr %base[4] : (!llvm.ptr<1>) -> !llvm.ptr<1>, f32
    llvm.store %v4, %p4 : f32, !llvm.ptr<1>
    %v5 = llvm.extractvalue %result[5] : !llvm.struct<(f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32)>
    %p5 = llvm.getelementptr %base[5] : (!llvm.ptr<1>) -> !llvm.ptr<1>, f32
    llvm.store %v5, %p5 : f32, !llvm.ptr<1>
    %v6 = llvm.extractvalue %result[6] : !llvm.struct<(f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32)>
    %p6 = llvm.getelementptr %base[6] : (!llvm.ptr<1>) -> !llvm.ptr<1>, f32
    llvm.store %v6, %p6 : f32, !llvm.ptr<1>
    %v7 = llvm.extractvalue %result[7] : !llvm.struct<(f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32)>
    %p7 = llvm.getelementptr %base[7] : (!llvm.ptr<1>) -> !llvm.ptr<1>, f32
    llvm.store %v7, %p7 : f32, !llvm.ptr<1>
    %v8 = llvm.extractvalue %result[8] : !llvm.struct<(f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32)>
    %p8 = llvm.getelementptr %base[8] : (!llvm.ptr<1>) -> !llvm.ptr<1>, f32
    llvm.store %v8, %p8 : f32, !llvm.ptr<1>
    %v9 = llvm.extractvalue %result[9] : !llvm.struct<(f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32)>
    %p9 = llvm.getelementptr %base[9] : (!llvm.ptr<1>) -> !llvm.ptr<1>, f32
    llvm.store %v9, %p9 : f32, !llvm.ptr<1>
    %v10 = llvm.extractvalue %result[10] : !llvm.struct<(f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32)>
    %p10 = llvm.getelementptr %base[10] : (!llvm.ptr<1>) -> !llvm.ptr<1>, f32
    llvm.store %v10, %p10 : f32, !llvm.ptr<1>
    %v11 = llvm.extractvalue %result[11] : !llvm.struct<(f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32)>
    %p11 = llvm.getelementptr %base[11] : (!llvm.ptr<1>) -> !llvm.ptr<1>, f32
    llvm.store %v11, %p11 : f32, !llvm.ptr<1>
    %v12 = llvm.extractvalue %result[12] : !llvm.struct<(f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32)>
    %p12 = llvm.getelementptr %base[12] : (!llvm.ptr<1>) -> !llvm.ptr<1>, f32
    llvm.store %v12, %p12 : f32, !llvm.ptr<1>
    %v13 = llvm.extractvalue %result[13] : !llvm.struct<(f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32)>
    %p13 = llvm.getelementptr %base[13] : (!llvm.ptr<1>) -> !llvm.ptr<1>, f32
    llvm.store %v13, %p13 : f32, !llvm.ptr<1>
    %v14 = llvm.extractvalue %result[14] : !llvm.struct<(f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32)>
    %p14 = llvm.getelementptr %base[14] : (!llvm.ptr<1>) -> !llvm.ptr<1>, f32
    llvm.store %v14, %p14 : f32, !llvm.ptr<1>
    %v15 = llvm.extractvalue %result[15] : !llvm.struct<(f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32)>
    %p15 = llvm.getelementptr %base[15] : (!llvm.ptr<1>) -> !llvm.ptr<1>, f32
    llvm.store %v15, %p15 : f32, !llvm.ptr<1>
    %v16 = llvm.extractvalue %result[16] : !llvm.struct<(f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32)>
    %p16 = llvm.getelementptr %base[16] : (!llvm.ptr<1>) -> !llvm.ptr<1>, f32
    llvm.store %v16, %p16 : f32, !llvm.ptr<1>
    %v17 = llvm.extractvalue %result[17] : !llvm.struct<(f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32)>
    %p17 = llvm.getelementptr %base[17] : (!llvm.ptr<1>) -> !llvm.ptr<1>, f32
    llvm.store %v17, %p17 : f32, !llvm.ptr<1>
    %v18 = llvm.extractvalue %result[18] : !llvm.struct<(f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32)>
    %p18 = llvm.getelementptr %base[18] : (!llvm.ptr<1>) -> !llvm.ptr<1>, f32
    llvm.store %v18, %p18 : f32, !llvm.ptr<1>
    %v19 = llvm.extractvalue %result[19] : !llvm.struct<(f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32)>
    %p19 = llvm.getelementptr %base[19] : (!llvm.ptr<1>) -> !llvm.ptr<1>, f32
    llvm.store %v19, %p19 : f32, !llvm.ptr<1>
    %v20 = llvm.extractvalue %result[20] : !llvm.struct<(f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32)>
    %p20 = llvm.getelementptr %base[20] : (!llvm.ptr<1>) -> !llvm.ptr<1>, f32
    llvm.store %v20, %p20 : f32, !llvm.ptr<1>
    %v21 = llvm.extractvalue %result[21] : !llvm.struct<(f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32)>
    %p21 = llvm.getelementptr %base[21] : (!llvm.ptr<1>) -> !llvm.ptr<1>, f32
    llvm.store %v21, %p21 : f32, !llvm.ptr<1>
    %v22 = llvm.extractvalue %result[22] : !llvm.struct<(f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32)>
    %p22 = llvm.getelementptr %base[22] : (!llvm.ptr<1>) -> !llvm.ptr<1>, f32
    llvm.store %v22, %p22 : f32, !llvm.ptr<1>
    %v23 = llvm.extractvalue %result[23] : !llvm.struct<(f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32)>
    %p23 = llvm.getelementptr %base[23] : (!llvm.ptr<1>) -> !llvm.ptr<1>, f32
    llvm.store %v23, %p23 : f32, !llvm.ptr<1>
    %v24 = llvm.extractvalue %result[24] : !llvm.struct<(f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32)>
    %p24 = llvm.getelementptr %base[24] : (!llvm.ptr<1>) -> !llvm.ptr<1>, f32
    llvm.store %v24, %p24 : f32, !llvm.ptr<1>
    %v25 = llvm.extractvalue %result[25] : !llvm.struct<(f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32)>
    %p25 = llvm.getelementptr %base[25] : (!llvm.ptr<1>) -> !llvm.ptr<1>, f32
    llvm.store %v25, %p25 : f32, !llvm.ptr<1>
    %v26 = llvm.extractvalue %result[26] : !llvm.struct<(f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32)>
    %p26 = llvm.getelementptr %base[26] : (!llvm.ptr<1>) -> !llvm.ptr<1>, f32
    llvm.store %v26, %p26 : f32, !llvm.ptr<1>
    %v27 = llvm.extractvalue %result[27] : !llvm.struct<(f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32)>
    %p27 = llvm.getelementptr %base[27] : (!llvm.ptr<1>) -> !llvm.ptr<1>, f32
    llvm.store %v27, %p27 : f32, !llvm.ptr<1>
    %v28 = llvm.extractvalue %result[28] : !llvm.struct<(f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32)>
    %p28 = llvm.getelementptr %base[28] : (!llvm.ptr<1>) -> !llvm.ptr<1>, f32
    llvm.store %v28, %p28 : f32, !llvm.ptr<1>
    %v29 = llvm.extractvalue %result[29] : !llvm.struct<(f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32)>
    %p29 = llvm.getelementptr %base[29] : (!llvm.ptr<1>) -> !llvm.ptr<1>, f32
    llvm.store %v29, %p29 : f32, !llvm.ptr<1>
    %v30 = llvm.extractvalue %result[30] : !llvm.struct<(f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32)>
    %p30 = llvm.getelementptr %base[30] : (!llvm.ptr<1>) -> !llvm.ptr<1>, f32
    llvm.store %v30, %p30 : f32, !llvm.ptr<1>
    %v31 = llvm.extractvalue %result[31] : !llvm.struct<(f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32)>
    %p31 = llvm.getelementptr %base[31] : (!llvm.ptr<1>) -> !llvm.ptr<1>, f32
    llvm.store %v31, %p31 : f32, !llvm.ptr<1>
    llvm.return
  }
}


// The accumulator lives in the loop header's registers %f0..%f31: zeroed on the way in,
// accumulated into in place by each mma_async, and passed back on the back edge without
// a copy, so the only copy on the back edge is the induction variable's.
// ORI:        ori.inst "mov.f32" (def %f31, f32(0x0))
// ORI-NEXT:   ori.fallthrough ^[[HEAD:bb[0-9]+]]
// ORI:        ori.wgmma.fence "wgmma.fence.sync.aligned"
// ORI-NEXT:   ori.wgmma.mma_async "wgmma.mma_async.sync.aligned.m64n64k16.f32.f16.f16" (inout {[[ACC:%f0, %f1, .*, %f31]]}, %rd13, %rd14, 1, 1, 1, 0, 0)
// ORI-NEXT:   ori.wgmma.mma_async "wgmma.mma_async.sync.aligned.m64n64k16.f32.f16.f16" (inout {[[ACC]]}, %rd15, %rd18, 1, 1, 1, 0, 0)
// ORI-NEXT:   ori.wgmma.mma_async "wgmma.mma_async.sync.aligned.m64n64k16.f32.f16.f16" (inout {[[ACC]]}, %rd16, %rd19, 1, 1, 1, 0, 0)
// ORI-NEXT:   ori.wgmma.mma_async "wgmma.mma_async.sync.aligned.m64n64k16.f32.f16.f16" (inout {[[ACC]]}, %rd17, %rd20, 1, 1, 1, 0, 0)
// ORI-NEXT:   ori.wgmma.commit_group "wgmma.commit_group.sync.aligned"
// ORI-NEXT:   ori.wgmma.wait_group "wgmma.wait_group.sync.aligned" (1)
// ORI-NEXT:   ori.inst "add.s64" (def %[[NEXT:rd[0-9]+]], %rd0, 1)
// ORI-NEXT:   ori.inst "mov.b64" (def %rd0, %[[NEXT]])
// ORI-NEXT:   ori.fallthrough ^[[HEAD]]
// ORI-NEXT: ^{{bb[0-9]+}}:
// ORI-NEXT:   ori.wgmma.wait_group "wgmma.wait_group.sync.aligned" (0)
// ORI:        ori.inst "st.global.f32" ([%[[BASE:rd[0-9]+]]], %f0)
// ORI-NEXT:   ori.inst "st.global.f32" ([%[[BASE]] + 4], %f1)
// ORI:        ori.inst "st.global.f32" ([%[[BASE]] + 124], %f31)
// ORI-NEXT:   ori.ret "ret"

// PTX:      .shared .align 1024 .b16 tile_a[4096];
// PTX-NEXT: .shared .align 1024 .b16 tile_b[4096];
// PTX-NEXT: .shared .align 8 .b64 bar;
// PTX:      .reqntid 128, 1, 1
// PTX-NEXT: .maxnreg 168
// PTX:      [[HEAD:\$L__ori_[0-9]+]]:
// PTX-NEXT: 	setp.lt.s64 	%p1, %rd0, %rd6;
// PTX:      [[WAIT:\$L__ori_[0-9]+]]:
// PTX-NEXT: 	mbarrier.try_wait.parity.shared::cta.b64 	%p2, [bar], %r4, 1000000;
// PTX-NEXT: 	@!%p2 bra 	[[WAIT]];
// PTX-NEXT: 	wgmma.fence.sync.aligned;
// PTX-NEXT: 	wgmma.mma_async.sync.aligned.m64n64k16.f32.f16.f16 	{[[ACC:%f0, %f1, .*, %f31]]}, %rd13, %rd14, 1, 1, 1, 0, 0;
// PTX-NEXT: 	wgmma.mma_async.sync.aligned.m64n64k16.f32.f16.f16 	{[[ACC]]}, %rd15, %rd18, 1, 1, 1, 0, 0;
// PTX-NEXT: 	wgmma.mma_async.sync.aligned.m64n64k16.f32.f16.f16 	{[[ACC]]}, %rd16, %rd19, 1, 1, 1, 0, 0;
// PTX-NEXT: 	wgmma.mma_async.sync.aligned.m64n64k16.f32.f16.f16 	{[[ACC]]}, %rd17, %rd20, 1, 1, 1, 0, 0;
// PTX-NEXT: 	wgmma.commit_group.sync.aligned;
// PTX-NEXT: 	wgmma.wait_group.sync.aligned 	1;
// PTX-NEXT: 	add.s64 	%rd[[NEXT:[0-9]+]], %rd0, 1;
// PTX-NEXT: 	mov.b64 	%rd0, %rd[[NEXT]];
// PTX-NEXT: 	bra 	[[HEAD]];
