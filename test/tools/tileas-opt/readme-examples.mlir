// The NVVM example prints back as it is, and the README's worked example.
// RUN: tileas-opt %S/../../../examples/nvvm_wgmma_sm90a.mlir | filecheck %s --check-prefix=MAIN
// RUN: tileas-opt %s --print-op-generic | filecheck %s --check-prefix=WORKED --match-full-lines
// The example is sm_90a-only: retargeted at plain sm_90, its first WGMMA op is rejected.
// RUN: sed 's/"sm_90a"/"sm_90"/' %S/../../../examples/nvvm_wgmma_sm90a.mlir | not tileas-opt 2>&1 | filecheck %s --check-prefix=SM90

func.func @drain() {
  nvvm.wgmma.fence.aligned
  nvvm.wgmma.commit.group.sync.aligned
  nvvm.wgmma.wait.group.sync.aligned 0
  func.return
}

// MAIN: builtin.module attributes {nvvm.target = #nvvm.target<chip = "sm_90a", features = "+ptx80">} {
// MAIN: llvm.func @gemm_tile({{.*}}) attributes {nvvm.kernel, nvvm.maxnreg = 168 : i32, nvvm.reqntid = array<i32: 128, 1, 1>} {
// MAIN: %tid = nvvm.read.ptx.sreg.tid.x range <i32, 0, 128> : i32
// MAIN: nvvm.mbarrier.init %bar, %one, predicate = %first : !llvm.ptr<3>, i32, i1
// MAIN: nvvm.mbarrier.try_wait.parity %bar, %zero, %ticks : !llvm.ptr<3>, i32, i32
// MAIN: nvvm.wgmma.fence.aligned
// MAIN-NEXT: %acc0 = nvvm.wgmma.mma_async %desc_a, %desc_b, %acc_in, <m = 64, n = 32, k = 16>, D[<f32>, <zero>], A[<f16>, <one>, <row>], B[<f16>, <one>, <col>]
// MAIN-NEXT: %acc1 = nvvm.wgmma.mma_async %desc_a1, %desc_b1, %acc0, <m = 64, n = 32, k = 16>, D[<f32>, <one>], A[<f16>, <one>, <row>], B[<f16>, <one>, <col>]
// MAIN-NEXT: nvvm.wgmma.commit.group.sync.aligned
// MAIN-NEXT: nvvm.wgmma.wait.group.sync.aligned 0
// MAIN: llvm.store %v15, %p15 : f32, !llvm.ptr<1>
// MAIN-NEXT: llvm.return

// WORKED:      "builtin.module"() ({
// WORKED-NEXT:   "func.func"() <{sym_name = "drain", function_type = () -> ()}> ({
// WORKED-NEXT:     "nvvm.wgmma.fence.aligned"() : () -> ()
// WORKED-NEXT:     "nvvm.wgmma.commit.group.sync.aligned"() : () -> ()
// WORKED-NEXT:     "nvvm.wgmma.wait.group.sync.aligned"() <{group = 0 : i64}> : () -> ()
// WORKED-NEXT:     "func.return"() : () -> ()
// WORKED-NEXT:   }) : () -> ()
// WORKED-NEXT: }) : () -> ()

// SM90: stdin:{{[0-9]+}}:5: error: 'nvvm.wgmma.fence.aligned' op is not supported on sm_90
