// cute_nvgpu.atom.copy_s2t, the sm100 shared -> tensor memory copy: thread 0 of each CTA
// initialises the copy's mbarrier (one arrival), one thread issues tcgen05.cp and
// commits it to the mbarrier. With cta_group = 2 (seed 002's 2-CTA TMEM copy) the init
// is fenced for the cluster and the cluster meets, and the even CTA of each pair issues
// tcgen05.cp.cta_group::2, its commit multicast to the pair (3 << (rank & ~1)).
// RUN: tileas-opt %s --split-input-file -p convert-tileas-to-nvvm | filecheck %s

module attributes {nvvm.target = #nvvm.target<chip = "sm_100a">} {
  llvm.mlir.global internal @bar() {addr_space = 3 : i32, alignment = 8 : i64} : i64
  llvm.func @pair(%tmem: !llvm.ptr<6>, %desc: i64) attributes {nvvm.kernel, nvvm.cluster_dim = array<i32: 2, 1, 1>, nvvm.reqntid = array<i32: 128, 1, 1>} {
    %bar = llvm.mlir.addressof @bar : !llvm.ptr<3>
    %atom = cute_nvgpu.make_s2t_copy_atom : !cute_nvgpu.sm100.s2t_copy<shape = "64x128b.warpx2::02_13", cta_group = 2>
    cute_nvgpu.atom.copy_s2t %atom, %tmem, %desc, %bar : !cute_nvgpu.sm100.s2t_copy<shape = "64x128b.warpx2::02_13", cta_group = 2>, !llvm.ptr<6>, !llvm.ptr<3>
    llvm.return
  }
}

// CHECK-LABEL: llvm.func @pair
// CHECK-NEXT:    %bar = llvm.mlir.addressof @bar : !llvm.ptr<3>
// CHECK-NEXT:    [[TID:%.*]] = nvvm.read.ptx.sreg.tid.x : i32
// CHECK-NEXT:    [[Z:%.*]] = arith.constant 0 : i32
// CHECK-NEXT:    [[FIRST:%.*]] = arith.cmpi eq, [[TID]], [[Z]] : i32
// CHECK-NEXT:    [[ONE:%.*]] = arith.constant 1 : i32
// CHECK-NEXT:    nvvm.mbarrier.init %bar, [[ONE]], predicate = [[FIRST]] : !llvm.ptr<3>, i32, i1
// CHECK-NEXT:    nvvm.fence.mbarrier.init
// CHECK-NEXT:    nvvm.cluster.arrive.relaxed {aligned}
// CHECK-NEXT:    nvvm.cluster.wait {aligned}
// CHECK-NEXT:    [[RANK:%.*]] = nvvm.read.ptx.sreg.cluster.ctarank : i32
// CHECK-NEXT:    [[C1:%.*]] = arith.constant 1 : i32
// CHECK-NEXT:    [[LOW:%.*]] = arith.andi [[RANK]], [[C1]] : i32
// CHECK-NEXT:    [[C0:%.*]] = arith.constant 0 : i32
// CHECK-NEXT:    [[EVEN:%.*]] = arith.cmpi eq, [[LOW]], [[C0]] : i32
// CHECK-NEXT:    [[ISSUER:%.*]] = arith.andi [[EVEN]], [[FIRST]] : i1
// CHECK-NEXT:    [[PAIR:%.*]] = arith.xori [[RANK]], [[LOW]] : i32
// CHECK-NEXT:    [[BITS:%.*]] = arith.constant 3 : i32
// CHECK-NEXT:    [[SHIFTED:%.*]] = arith.shli [[BITS]], [[PAIR]] : i32
// CHECK-NEXT:    [[MASK:%.*]] = arith.trunci [[SHIFTED]] : i32 to i16
// CHECK-NEXT:    scf.if [[ISSUER]] {
// CHECK-NEXT:      nvvm.tcgen05.fence <after>
// CHECK-NEXT:      nvvm.tcgen05.cp %tmem, %desc {group = #nvvm.cta_group<cta_2>, multicast = #nvvm.tcgen05_cp_multicast<warpx2_02_13>, shape = #nvvm.tcgen05_cp_shape<shape_64x128b>}
// CHECK-NEXT:      nvvm.tcgen05.commit %bar, multicast_mask = [[MASK]] {group = #nvvm.cta_group<cta_2>} : !llvm.ptr<3>, i16
// CHECK-NEXT:    }
// CHECK-NEXT:    llvm.return

// -----

// One CTA: the init is fenced and the CTA meets; thread 0 issues, a plain commit.
module attributes {nvvm.target = #nvvm.target<chip = "sm_100a">} {
  llvm.mlir.global internal @bar() {addr_space = 3 : i32, alignment = 8 : i64} : i64
  llvm.func @one(%tmem: !llvm.ptr<6>, %desc: i64) attributes {nvvm.kernel, nvvm.reqntid = array<i32: 128, 1, 1>} {
    %bar = llvm.mlir.addressof @bar : !llvm.ptr<3>
    %atom = cute_nvgpu.make_s2t_copy_atom : !cute_nvgpu.sm100.s2t_copy<shape = "128x256b", cta_group = 1>
    cute_nvgpu.atom.copy_s2t %atom, %tmem, %desc, %bar : !cute_nvgpu.sm100.s2t_copy<shape = "128x256b", cta_group = 1>, !llvm.ptr<6>, !llvm.ptr<3>
    llvm.return
  }
}

// CHECK-LABEL: llvm.func @one
// CHECK:         nvvm.mbarrier.init %bar, {{%.*}}, predicate = [[FIRST:%.*]] : !llvm.ptr<3>, i32, i1
// CHECK-NEXT:    nvvm.fence.mbarrier.init
// CHECK-NEXT:    nvvm.barrier0
// CHECK-NEXT:    scf.if [[FIRST]] {
// CHECK-NEXT:      nvvm.tcgen05.fence <after>
// CHECK-NEXT:      nvvm.tcgen05.cp %tmem, %desc {shape = #nvvm.tcgen05_cp_shape<shape_128x256b>}
// CHECK-NEXT:      nvvm.tcgen05.commit %bar : !llvm.ptr<3>
// CHECK-NEXT:    }
// CHECK-NEXT:    llvm.return
