// RUN: TILEAS_ROUNDTRIP
// RUN: TILEAS_GENERIC_ROUNDTRIP
// The CHECK lines are what upstream mlir-opt 22.1.8 prints for this input, custom and
// generic, with SSA names elided: both tools must agree op for op.

// Special registers: every `nvvm.read.ptx.sreg.*` op, with and without `range`.

llvm.func @special_registers() {
  %0 = nvvm.read.ptx.sreg.tid.x : i32
  %1 = nvvm.read.ptx.sreg.tid.y range <i32, 0, 4> : i32
  %2 = nvvm.read.ptx.sreg.tid.z : i32
  %3 = nvvm.read.ptx.sreg.ntid.x : i32
  %4 = nvvm.read.ptx.sreg.ntid.y : i32
  %5 = nvvm.read.ptx.sreg.ntid.z : i32
  %6 = nvvm.read.ptx.sreg.ctaid.x : i32
  %7 = nvvm.read.ptx.sreg.ctaid.y : i32
  %8 = nvvm.read.ptx.sreg.ctaid.z : i32
  %9 = nvvm.read.ptx.sreg.nctaid.x : i32
  %10 = nvvm.read.ptx.sreg.nctaid.y : i32
  %11 = nvvm.read.ptx.sreg.nctaid.z : i32
  %12 = nvvm.read.ptx.sreg.laneid range <i32, 0, 32> : i32
  %13 = nvvm.read.ptx.sreg.warpsize : i32
  %14 = nvvm.read.ptx.sreg.warpid : i32
  %15 = nvvm.read.ptx.sreg.nwarpid : i32
  %16 = nvvm.read.ptx.sreg.smid : i32
  %17 = nvvm.read.ptx.sreg.nsmid : i32
  %18 = nvvm.read.ptx.sreg.gridid : i64
  %19 = nvvm.read.ptx.sreg.lanemask.eq : i32
  %20 = nvvm.read.ptx.sreg.lanemask.le : i32
  %21 = nvvm.read.ptx.sreg.lanemask.lt : i32
  %22 = nvvm.read.ptx.sreg.lanemask.ge : i32
  %23 = nvvm.read.ptx.sreg.lanemask.gt : i32
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
  %36 = nvvm.read.ptx.sreg.cluster.ctarank range <i32, 0, 8> : i32
  %37 = nvvm.read.ptx.sreg.cluster.nctarank : i32
  %38 = nvvm.read.ptx.sreg.clock : i32
  %39 = nvvm.read.ptx.sreg.clock64 : i64
  %40 = nvvm.read.ptx.sreg.globaltimer : i64
  %41 = nvvm.read.ptx.sreg.globaltimer.lo : i32
  %42 = nvvm.read.ptx.sreg.envreg0 : i32
  %43 = nvvm.read.ptx.sreg.envreg31 : i32
  llvm.return
}

// CHECK: %{{.*}} = nvvm.read.ptx.sreg.tid.x : i32
// CHECK: %{{.*}} = nvvm.read.ptx.sreg.tid.y range <i32, 0, 4> : i32
// CHECK: %{{.*}} = nvvm.read.ptx.sreg.tid.z : i32
// CHECK: %{{.*}} = nvvm.read.ptx.sreg.ntid.x : i32
// CHECK: %{{.*}} = nvvm.read.ptx.sreg.ntid.y : i32
// CHECK: %{{.*}} = nvvm.read.ptx.sreg.ntid.z : i32
// CHECK: %{{.*}} = nvvm.read.ptx.sreg.ctaid.x : i32
// CHECK: %{{.*}} = nvvm.read.ptx.sreg.ctaid.y : i32
// CHECK: %{{.*}} = nvvm.read.ptx.sreg.ctaid.z : i32
// CHECK: %{{.*}} = nvvm.read.ptx.sreg.nctaid.x : i32
// CHECK: %{{.*}} = nvvm.read.ptx.sreg.nctaid.y : i32
// CHECK: %{{.*}} = nvvm.read.ptx.sreg.nctaid.z : i32
// CHECK: %{{.*}} = nvvm.read.ptx.sreg.laneid range <i32, 0, 32> : i32
// CHECK: %{{.*}} = nvvm.read.ptx.sreg.warpsize : i32
// CHECK: %{{.*}} = nvvm.read.ptx.sreg.warpid : i32
// CHECK: %{{.*}} = nvvm.read.ptx.sreg.nwarpid : i32
// CHECK: %{{.*}} = nvvm.read.ptx.sreg.smid : i32
// CHECK: %{{.*}} = nvvm.read.ptx.sreg.nsmid : i32
// CHECK: %{{.*}} = nvvm.read.ptx.sreg.gridid : i64
// CHECK: %{{.*}} = nvvm.read.ptx.sreg.lanemask.eq : i32
// CHECK: %{{.*}} = nvvm.read.ptx.sreg.lanemask.le : i32
// CHECK: %{{.*}} = nvvm.read.ptx.sreg.lanemask.lt : i32
// CHECK: %{{.*}} = nvvm.read.ptx.sreg.lanemask.ge : i32
// CHECK: %{{.*}} = nvvm.read.ptx.sreg.lanemask.gt : i32
// CHECK: %{{.*}} = nvvm.read.ptx.sreg.clusterid.x : i32
// CHECK: %{{.*}} = nvvm.read.ptx.sreg.clusterid.y : i32
// CHECK: %{{.*}} = nvvm.read.ptx.sreg.clusterid.z : i32
// CHECK: %{{.*}} = nvvm.read.ptx.sreg.nclusterid.x : i32
// CHECK: %{{.*}} = nvvm.read.ptx.sreg.nclusterid.y : i32
// CHECK: %{{.*}} = nvvm.read.ptx.sreg.nclusterid.z : i32
// CHECK: %{{.*}} = nvvm.read.ptx.sreg.cluster.ctaid.x : i32
// CHECK: %{{.*}} = nvvm.read.ptx.sreg.cluster.ctaid.y : i32
// CHECK: %{{.*}} = nvvm.read.ptx.sreg.cluster.ctaid.z : i32
// CHECK: %{{.*}} = nvvm.read.ptx.sreg.cluster.nctaid.x : i32
// CHECK: %{{.*}} = nvvm.read.ptx.sreg.cluster.nctaid.y : i32
// CHECK: %{{.*}} = nvvm.read.ptx.sreg.cluster.nctaid.z : i32
// CHECK: %{{.*}} = nvvm.read.ptx.sreg.cluster.ctarank range <i32, 0, 8> : i32
// CHECK: %{{.*}} = nvvm.read.ptx.sreg.cluster.nctarank : i32
// CHECK: %{{.*}} = nvvm.read.ptx.sreg.clock : i32
// CHECK: %{{.*}} = nvvm.read.ptx.sreg.clock64 : i64
// CHECK: %{{.*}} = nvvm.read.ptx.sreg.globaltimer : i64
// CHECK: %{{.*}} = nvvm.read.ptx.sreg.globaltimer.lo : i32
// CHECK: %{{.*}} = nvvm.read.ptx.sreg.envreg0 : i32
// CHECK: %{{.*}} = nvvm.read.ptx.sreg.envreg31 : i32
// CHECK-GENERIC: %{{.*}} = "nvvm.read.ptx.sreg.tid.x"() : () -> i32
// CHECK-GENERIC: %{{.*}} = "nvvm.read.ptx.sreg.tid.y"() <{range = #llvm.constant_range<i32, 0, 4>}> : () -> i32
// CHECK-GENERIC: %{{.*}} = "nvvm.read.ptx.sreg.tid.z"() : () -> i32
// CHECK-GENERIC: %{{.*}} = "nvvm.read.ptx.sreg.ntid.x"() : () -> i32
// CHECK-GENERIC: %{{.*}} = "nvvm.read.ptx.sreg.ntid.y"() : () -> i32
// CHECK-GENERIC: %{{.*}} = "nvvm.read.ptx.sreg.ntid.z"() : () -> i32
// CHECK-GENERIC: %{{.*}} = "nvvm.read.ptx.sreg.ctaid.x"() : () -> i32
// CHECK-GENERIC: %{{.*}} = "nvvm.read.ptx.sreg.ctaid.y"() : () -> i32
// CHECK-GENERIC: %{{.*}} = "nvvm.read.ptx.sreg.ctaid.z"() : () -> i32
// CHECK-GENERIC: %{{.*}} = "nvvm.read.ptx.sreg.nctaid.x"() : () -> i32
// CHECK-GENERIC: %{{.*}} = "nvvm.read.ptx.sreg.nctaid.y"() : () -> i32
// CHECK-GENERIC: %{{.*}} = "nvvm.read.ptx.sreg.nctaid.z"() : () -> i32
// CHECK-GENERIC: %{{.*}} = "nvvm.read.ptx.sreg.laneid"() <{range = #llvm.constant_range<i32, 0, 32>}> : () -> i32
// CHECK-GENERIC: %{{.*}} = "nvvm.read.ptx.sreg.warpsize"() : () -> i32
// CHECK-GENERIC: %{{.*}} = "nvvm.read.ptx.sreg.warpid"() : () -> i32
// CHECK-GENERIC: %{{.*}} = "nvvm.read.ptx.sreg.nwarpid"() : () -> i32
// CHECK-GENERIC: %{{.*}} = "nvvm.read.ptx.sreg.smid"() : () -> i32
// CHECK-GENERIC: %{{.*}} = "nvvm.read.ptx.sreg.nsmid"() : () -> i32
// CHECK-GENERIC: %{{.*}} = "nvvm.read.ptx.sreg.gridid"() : () -> i64
// CHECK-GENERIC: %{{.*}} = "nvvm.read.ptx.sreg.lanemask.eq"() : () -> i32
// CHECK-GENERIC: %{{.*}} = "nvvm.read.ptx.sreg.lanemask.le"() : () -> i32
// CHECK-GENERIC: %{{.*}} = "nvvm.read.ptx.sreg.lanemask.lt"() : () -> i32
// CHECK-GENERIC: %{{.*}} = "nvvm.read.ptx.sreg.lanemask.ge"() : () -> i32
// CHECK-GENERIC: %{{.*}} = "nvvm.read.ptx.sreg.lanemask.gt"() : () -> i32
// CHECK-GENERIC: %{{.*}} = "nvvm.read.ptx.sreg.clusterid.x"() : () -> i32
// CHECK-GENERIC: %{{.*}} = "nvvm.read.ptx.sreg.clusterid.y"() : () -> i32
// CHECK-GENERIC: %{{.*}} = "nvvm.read.ptx.sreg.clusterid.z"() : () -> i32
// CHECK-GENERIC: %{{.*}} = "nvvm.read.ptx.sreg.nclusterid.x"() : () -> i32
// CHECK-GENERIC: %{{.*}} = "nvvm.read.ptx.sreg.nclusterid.y"() : () -> i32
// CHECK-GENERIC: %{{.*}} = "nvvm.read.ptx.sreg.nclusterid.z"() : () -> i32
// CHECK-GENERIC: %{{.*}} = "nvvm.read.ptx.sreg.cluster.ctaid.x"() : () -> i32
// CHECK-GENERIC: %{{.*}} = "nvvm.read.ptx.sreg.cluster.ctaid.y"() : () -> i32
// CHECK-GENERIC: %{{.*}} = "nvvm.read.ptx.sreg.cluster.ctaid.z"() : () -> i32
// CHECK-GENERIC: %{{.*}} = "nvvm.read.ptx.sreg.cluster.nctaid.x"() : () -> i32
// CHECK-GENERIC: %{{.*}} = "nvvm.read.ptx.sreg.cluster.nctaid.y"() : () -> i32
// CHECK-GENERIC: %{{.*}} = "nvvm.read.ptx.sreg.cluster.nctaid.z"() : () -> i32
// CHECK-GENERIC: %{{.*}} = "nvvm.read.ptx.sreg.cluster.ctarank"() <{range = #llvm.constant_range<i32, 0, 8>}> : () -> i32
// CHECK-GENERIC: %{{.*}} = "nvvm.read.ptx.sreg.cluster.nctarank"() : () -> i32
// CHECK-GENERIC: %{{.*}} = "nvvm.read.ptx.sreg.clock"() : () -> i32
// CHECK-GENERIC: %{{.*}} = "nvvm.read.ptx.sreg.clock64"() : () -> i64
// CHECK-GENERIC: %{{.*}} = "nvvm.read.ptx.sreg.globaltimer"() : () -> i64
// CHECK-GENERIC: %{{.*}} = "nvvm.read.ptx.sreg.globaltimer.lo"() : () -> i32
// CHECK-GENERIC: %{{.*}} = "nvvm.read.ptx.sreg.envreg0"() : () -> i32
// CHECK-GENERIC: %{{.*}} = "nvvm.read.ptx.sreg.envreg31"() : () -> i32
