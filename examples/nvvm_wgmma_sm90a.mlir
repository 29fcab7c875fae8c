// A small sm_90a kernel at the NVVM level: one 64x32 tile of D = A * B with f16 inputs
// and an f32 accumulator, K = 32 covered by two m64n32k16 WGMMAs.
//
// Thread 0 initializes an mbarrier for one arrival and the CTA fences and syncs the init;
// the elected thread of warp 0 (elect.sync elects one per warp) arms it with the expected
// byte count (6144: the 64x32 A tile and the 32x32 B tile, both K-major) and issues the
// TMA loads of the two tiles, which complete on it; the warpgroup waits for phase 0, then
// runs the four-op WGMMA sequence: fence, two mma_async threading the accumulator (the
// first zeroes it), commit, and a wait that drains the group. Each thread then stores the
// 16 values of its accumulator fragment where they belong in the row-major 64x32 tile:
// value j of thread t is row 16 (t / 32) + (t % 32) / 4 + 8 ((j / 2) % 2), column
// 2 (t % 4) + j % 2 + 8 (j / 4).
//
// The host passes the tensor maps (64-byte swizzle), the shared-memory addresses of the
// tiles and of the barrier, and the two matrix descriptors (K-major, 64-byte swizzle,
// stride byte offset 512); test/sim/test_sim_examples.py runs it that way in the simulator.
//
// Run: tileas-opt examples/nvvm_wgmma_sm90a.mlir

builtin.module attributes {nvvm.target = #nvvm.target<chip = "sm_90a", features = "+ptx80">} {
  llvm.func @gemm_tile(%tmap_a: !llvm.ptr, %tmap_b: !llvm.ptr, %smem_a: !llvm.ptr<3>, %smem_b: !llvm.ptr<3>, %bar: !llvm.ptr<3>, %desc_a: i64, %desc_b: i64, %acc_in: !llvm.struct<(f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32)>, %out: !llvm.ptr<1>) attributes {nvvm.kernel, nvvm.maxnreg = 168 : i32, nvvm.reqntid = array<i32: 128, 1, 1>} {
    %tid = nvvm.read.ptx.sreg.tid.x range <i32, 0, 128> : i32
    %bid = nvvm.read.ptx.sreg.ctaid.x : i32
    %zero = llvm.mlir.constant(0 : i32) : i32
    %one = llvm.mlir.constant(1 : i32) : i32
    %bytes = llvm.mlir.constant(6144 : i32) : i32
    %ticks = llvm.mlir.constant(1000000 : i32) : i32
    %desc_step = llvm.mlir.constant(2 : i64) : i64
    %first = llvm.icmp "eq" %tid, %zero : i32
    nvvm.mbarrier.init %bar, %one, predicate = %first : !llvm.ptr<3>, i32, i1
    nvvm.fence.mbarrier.init
    nvvm.barrier0
    %c5 = llvm.mlir.constant(5 : i32) : i32
    %warp = llvm.lshr %tid, %c5 : i32
    %warp0 = llvm.icmp "eq" %warp, %zero : i32
    %elected = nvvm.elect.sync -> i1
    %leader = llvm.and %elected, %warp0 : i1
    nvvm.mbarrier.arrive.expect_tx %bar, %bytes, predicate = %leader : !llvm.ptr<3>, i32, i1
    nvvm.cp.async.bulk.tensor.shared.cluster.global %smem_a, %tmap_a, %bar, box[%zero, %bid] predicate = %leader : !llvm.ptr<3>, !llvm.ptr
    nvvm.cp.async.bulk.tensor.shared.cluster.global %smem_b, %tmap_b, %bar, box[%zero, %zero] predicate = %leader : !llvm.ptr<3>, !llvm.ptr
    nvvm.mbarrier.try_wait.parity %bar, %zero, %ticks : !llvm.ptr<3>, i32, i32
    %desc_a1 = llvm.add %desc_a, %desc_step : i64
    %desc_b1 = llvm.add %desc_b, %desc_step : i64
    nvvm.wgmma.fence.aligned
    %acc0 = nvvm.wgmma.mma_async %desc_a, %desc_b, %acc_in, #nvvm.shape<m = 64, n = 32, k = 16>, D [<f32>, #nvvm.wgmma_scale_out<zero>], A [<f16>, #nvvm.wgmma_scale_in<one>, <row>], B [<f16>, #nvvm.wgmma_scale_in<one>, <col>] : !llvm.struct<(f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32)> -> !llvm.struct<(f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32)>
    %acc1 = nvvm.wgmma.mma_async %desc_a1, %desc_b1, %acc0, #nvvm.shape<m = 64, n = 32, k = 16>, D [<f32>, #nvvm.wgmma_scale_out<one>], A [<f16>, #nvvm.wgmma_scale_in<one>, <row>], B [<f16>, #nvvm.wgmma_scale_in<one>, <col>] : !llvm.struct<(f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32)> -> !llvm.struct<(f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32)>
    nvvm.wgmma.commit.group.sync.aligned
    nvvm.wgmma.wait.group.sync.aligned 0
    // The fragment's origin: row 16 (tid / 32) + (tid % 32) / 4, column 2 (tid % 4).
    %c2 = llvm.mlir.constant(2 : i32) : i32
    %c3 = llvm.mlir.constant(3 : i32) : i32
    %c4 = llvm.mlir.constant(4 : i32) : i32
    %c31 = llvm.mlir.constant(31 : i32) : i32
    %c512 = llvm.mlir.constant(512 : i32) : i32
    %c32 = llvm.mlir.constant(32 : i32) : i32
    %lane = llvm.and %tid, %c31 : i32
    %quad = llvm.lshr %lane, %c2 : i32
    %pair = llvm.and %lane, %c3 : i32
    %warp_rows = llvm.mul %warp, %c512 : i32
    %quad_rows = llvm.mul %quad, %c32 : i32
    %pair_cols = llvm.mul %pair, %c2 : i32
    %rows = llvm.add %warp_rows, %quad_rows : i32
    %origin = llvm.add %rows, %pair_cols : i32
    %tile = llvm.getelementptr %out[%origin] : (!llvm.ptr<1>, i32) -> !llvm.ptr<1>, f32
    %v0 = llvm.extractvalue %acc1[0] : !llvm.struct<(f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32)>
    %p0 = llvm.getelementptr %tile[0] : (!llvm.ptr<1>) -> !llvm.ptr<1>, f32
    llvm.store %v0, %p0 : f32, !llvm.ptr<1>
    %v1 = llvm.extractvalue %acc1[1] : !llvm.struct<(f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32)>
    %p1 = llvm.getelementptr %tile[1] : (!llvm.ptr<1>) -> !llvm.ptr<1>, f32
    llvm.store %v1, %p1 : f32, !llvm.ptr<1>
    %v2 = llvm.extractvalue %acc1[2] : !llvm.struct<(f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32)>
    %p2 = llvm.getelementptr %tile[256] : (!llvm.ptr<1>) -> !llvm.ptr<1>, f32
    llvm.store %v2, %p2 : f32, !llvm.ptr<1>
    %v3 = llvm.extractvalue %acc1[3] : !llvm.struct<(f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32)>
    %p3 = llvm.getelementptr %tile[257] : (!llvm.ptr<1>) -> !llvm.ptr<1>, f32
    llvm.store %v3, %p3 : f32, !llvm.ptr<1>
    %v4 = llvm.extractvalue %acc1[4] : !llvm.struct<(f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32)>
    %p4 = llvm.getelementptr %tile[8] : (!llvm.ptr<1>) -> !llvm.ptr<1>, f32
    llvm.store %v4, %p4 : f32, !llvm.ptr<1>
    %v5 = llvm.extractvalue %acc1[5] : !llvm.struct<(f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32)>
    %p5 = llvm.getelementptr %tile[9] : (!llvm.ptr<1>) -> !llvm.ptr<1>, f32
    llvm.store %v5, %p5 : f32, !llvm.ptr<1>
    %v6 = llvm.extractvalue %acc1[6] : !llvm.struct<(f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32)>
    %p6 = llvm.getelementptr %tile[264] : (!llvm.ptr<1>) -> !llvm.ptr<1>, f32
    llvm.store %v6, %p6 : f32, !llvm.ptr<1>
    %v7 = llvm.extractvalue %acc1[7] : !llvm.struct<(f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32)>
    %p7 = llvm.getelementptr %tile[265] : (!llvm.ptr<1>) -> !llvm.ptr<1>, f32
    llvm.store %v7, %p7 : f32, !llvm.ptr<1>
    %v8 = llvm.extractvalue %acc1[8] : !llvm.struct<(f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32)>
    %p8 = llvm.getelementptr %tile[16] : (!llvm.ptr<1>) -> !llvm.ptr<1>, f32
    llvm.store %v8, %p8 : f32, !llvm.ptr<1>
    %v9 = llvm.extractvalue %acc1[9] : !llvm.struct<(f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32)>
    %p9 = llvm.getelementptr %tile[17] : (!llvm.ptr<1>) -> !llvm.ptr<1>, f32
    llvm.store %v9, %p9 : f32, !llvm.ptr<1>
    %v10 = llvm.extractvalue %acc1[10] : !llvm.struct<(f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32)>
    %p10 = llvm.getelementptr %tile[272] : (!llvm.ptr<1>) -> !llvm.ptr<1>, f32
    llvm.store %v10, %p10 : f32, !llvm.ptr<1>
    %v11 = llvm.extractvalue %acc1[11] : !llvm.struct<(f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32)>
    %p11 = llvm.getelementptr %tile[273] : (!llvm.ptr<1>) -> !llvm.ptr<1>, f32
    llvm.store %v11, %p11 : f32, !llvm.ptr<1>
    %v12 = llvm.extractvalue %acc1[12] : !llvm.struct<(f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32)>
    %p12 = llvm.getelementptr %tile[24] : (!llvm.ptr<1>) -> !llvm.ptr<1>, f32
    llvm.store %v12, %p12 : f32, !llvm.ptr<1>
    %v13 = llvm.extractvalue %acc1[13] : !llvm.struct<(f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32)>
    %p13 = llvm.getelementptr %tile[25] : (!llvm.ptr<1>) -> !llvm.ptr<1>, f32
    llvm.store %v13, %p13 : f32, !llvm.ptr<1>
    %v14 = llvm.extractvalue %acc1[14] : !llvm.struct<(f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32)>
    %p14 = llvm.getelementptr %tile[280] : (!llvm.ptr<1>) -> !llvm.ptr<1>, f32
    llvm.store %v14, %p14 : f32, !llvm.ptr<1>
    %v15 = llvm.extractvalue %acc1[15] : !llvm.struct<(f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32)>
    %p15 = llvm.getelementptr %tile[281] : (!llvm.ptr<1>) -> !llvm.ptr<1>, f32
    llvm.store %v15, %p15 : f32, !llvm.ptr<1>
    llvm.return
  }
}
