// A small sm_90a kernel at the NVVM level: one 64x32 tile of D = A * B with f16 inputs
// and an f32 accumulator, K = 32 covered by two m64n32k16 WGMMAs.
//
// The CTA initializes an mbarrier for one arrival and fences the init; the elected thread
// arms it with the expected byte count and issues the TMA loads of the A and B tiles,
// which complete on it; the warpgroup waits for phase 0, then runs the four-op WGMMA
// sequence: fence, two mma_async threading the accumulator (the first zeroes it), commit,
// and a wait that drains the group before the accumulator is stored.
//
// Run: tileas-opt examples/nvvm_wgmma_sm90a.mlir

builtin.module attributes {nvvm.target = #nvvm.target<chip = "sm_90a", features = "+ptx80">} {
  llvm.func @gemm_tile(%tmap_a: !llvm.ptr, %tmap_b: !llvm.ptr, %smem_a: !llvm.ptr<3>, %smem_b: !llvm.ptr<3>, %bar: !llvm.ptr<3>, %desc_a: i64, %desc_b: i64, %acc_in: !llvm.struct<(f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32)>, %out: !llvm.ptr<1>) attributes {nvvm.kernel, nvvm.maxnreg = 168 : i32, nvvm.reqntid = array<i32: 128, 1, 1>} {
    %tid = nvvm.read.ptx.sreg.tid.x range <i32, 0, 128> : i32
    %bid = nvvm.read.ptx.sreg.ctaid.x : i32
    %zero = llvm.mlir.constant(0 : i32) : i32
    %one = llvm.mlir.constant(1 : i32) : i32
    %bytes = llvm.mlir.constant(8192 : i32) : i32
    %ticks = llvm.mlir.constant(1000000 : i32) : i32
    %desc_step = llvm.mlir.constant(2 : i64) : i64
    nvvm.mbarrier.init %bar, %one : !llvm.ptr<3>, i32
    nvvm.fence.mbarrier.init
    nvvm.barrier0
    %leader = nvvm.elect.sync -> i1
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
    llvm.store %acc1, %out : !llvm.struct<(f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32, f32)>, !llvm.ptr<1>
    llvm.return
  }
}
