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
// CHECK-NEXT:    [[MASK:%.*]] = arith.constant 3 : i16
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

// -----

// Four CTAs (seed 002's 4-CTA path): the issuers are thread 0 of the CTAs whose rank in
// the group of 4 is odd, `((rank rem 4) & 1) != 0` made warp-uniform (a promise: no
// instruction); each copies its pair's matrices with cta_group::2 into its slice of the
// destination (partition_d: (rank mod 4) * 4 columns on), commit multicast to the pair.
module attributes {nvvm.target = #nvvm.target<chip = "sm_100a">} {
  llvm.mlir.global internal @bar() {addr_space = 3 : i32, alignment = 8 : i64} : i64
  llvm.func @four(%tmem: !llvm.ptr<6>, %desc: i64) attributes {nvvm.kernel, nvvm.cluster_dim = array<i32: 4, 1, 1>, nvvm.reqntid = array<i32: 128, 1, 1>} {
    %bar = llvm.mlir.addressof @bar : !llvm.ptr<3>
    %atom = cute_nvgpu.make_s2t_copy_atom : !cute_nvgpu.sm100.s2t_copy<shape = "32x128b.warpx4", cta_group = 4>
    cute_nvgpu.atom.copy_s2t %atom, %tmem, %desc, %bar : !cute_nvgpu.sm100.s2t_copy<shape = "32x128b.warpx4", cta_group = 4>, !llvm.ptr<6>, !llvm.ptr<3>
    llvm.return
  }
}

// CHECK-LABEL: llvm.func @four
// CHECK:         nvvm.mbarrier.init %bar, {{%.*}}, predicate = [[FIRST:%.*]] : !llvm.ptr<3>, i32, i1
// CHECK-NEXT:    nvvm.fence.mbarrier.init
// CHECK-NEXT:    nvvm.cluster.arrive.relaxed {aligned}
// CHECK-NEXT:    nvvm.cluster.wait {aligned}
// CHECK-NEXT:    [[RANK:%.*]] = nvvm.read.ptx.sreg.cluster.ctarank : i32
// CHECK-NEXT:    [[C1:%.*]] = arith.constant 1 : i32
// CHECK-NEXT:    [[LOW:%.*]] = arith.andi [[RANK]], [[C1]] : i32
// CHECK-NEXT:    [[C4:%.*]] = arith.constant 4 : i32
// CHECK-NEXT:    [[IN4:%.*]] = arith.remsi [[RANK]], [[C4]] : i32
// CHECK-NEXT:    [[C1B:%.*]] = arith.constant 1 : i32
// CHECK-NEXT:    [[PARITY:%.*]] = arith.andi [[IN4]], [[C1B]] : i32
// CHECK-NEXT:    [[C0:%.*]] = arith.constant 0 : i32
// CHECK-NEXT:    [[ODD:%.*]] = arith.cmpi ne, [[PARITY]], [[C0]] : i32
// CHECK-NEXT:    [[ISSUER:%.*]] = arith.andi [[ODD]], [[FIRST]] : i1
// CHECK-NEXT:    [[G:%.*]] = arith.constant 4 : i32
// CHECK-NEXT:    [[SLICE:%.*]] = arith.remui [[RANK]], [[G]] : i32
// CHECK-NEXT:    [[W:%.*]] = arith.constant 4 : i32
// CHECK-NEXT:    [[COLUMNS:%.*]] = arith.muli [[SLICE]], [[W]] : i32
// CHECK-NEXT:    [[RAW:%.*]] = llvm.ptrtoint %tmem : !llvm.ptr<6> to i32
// CHECK-NEXT:    [[MOVED:%.*]] = llvm.add [[RAW]], [[COLUMNS]] : i32
// CHECK-NEXT:    [[DST:%.*]] = llvm.inttoptr [[MOVED]] : i32 to !llvm.ptr<6>
// CHECK-NEXT:    [[NOT1:%.*]] = arith.constant -2 : i32
// CHECK-NEXT:    [[PAIR:%.*]] = arith.andi [[RANK]], [[NOT1]] : i32
// CHECK-NEXT:    [[BITS:%.*]] = arith.constant 3 : i32
// CHECK-NEXT:    [[SHIFTED:%.*]] = arith.shli [[BITS]], [[PAIR]] : i32
// CHECK-NEXT:    [[MASK:%.*]] = arith.trunci [[SHIFTED]] : i32 to i16
// CHECK-NEXT:    scf.if [[ISSUER]] {
// CHECK-NEXT:      nvvm.tcgen05.fence <after>
// CHECK-NEXT:      nvvm.tcgen05.cp [[DST]], %desc {group = #nvvm.cta_group<cta_2>, multicast = #nvvm.tcgen05_cp_multicast<warpx4>, shape = #nvvm.tcgen05_cp_shape<shape_32x128b>}
// CHECK-NEXT:      nvvm.tcgen05.commit %bar, multicast_mask = [[MASK]] {group = #nvvm.cta_group<cta_2>} : !llvm.ptr<3>, i16
// CHECK-NEXT:    }
// CHECK-NEXT:    llvm.return

// -----

// partition_d and make_warp_uniform on their own: the slice of CTA %rank of a 2-CTA
// 128x256b destination ((rank mod 2) * 8 columns on); the uniform value is the value.
module attributes {nvvm.target = #nvvm.target<chip = "sm_100a">} {
  llvm.func @parts(%tmem: !llvm.ptr<6>, %rank: i32, %p: i1) -> i1 {
    %atom = cute_nvgpu.make_s2t_copy_atom : !cute_nvgpu.sm100.s2t_copy<shape = "128x256b", cta_group = 2>
    %dst = cute_nvgpu.atom.partition_d %atom, %tmem, %rank : !cute_nvgpu.sm100.s2t_copy<shape = "128x256b", cta_group = 2>, !llvm.ptr<6>
    %x = nvvm.tcgen05.ld %dst {shape = #nvvm.tcgen05_ldst_shape<shape_32x32b>} : i32
    %u = cute_nvgpu.arch.make_warp_uniform %p : i1
    llvm.return %u : i1
  }
}

// CHECK-LABEL: llvm.func @parts
// CHECK-NEXT:    [[G:%.*]] = arith.constant 2 : i32
// CHECK-NEXT:    [[SLICE:%.*]] = arith.remui %rank, [[G]] : i32
// CHECK-NEXT:    [[W:%.*]] = arith.constant 8 : i32
// CHECK-NEXT:    [[COLUMNS:%.*]] = arith.muli [[SLICE]], [[W]] : i32
// CHECK-NEXT:    [[RAW:%.*]] = llvm.ptrtoint %tmem : !llvm.ptr<6> to i32
// CHECK-NEXT:    [[MOVED:%.*]] = llvm.add [[RAW]], [[COLUMNS]] : i32
// CHECK-NEXT:    [[DST:%.*]] = llvm.inttoptr [[MOVED]] : i32 to !llvm.ptr<6>
// CHECK-NEXT:    {{%.*}} = nvvm.tcgen05.ld [[DST]] {shape = #nvvm.tcgen05_ldst_shape<shape_32x32b>} : i32
// CHECK-NEXT:    llvm.return %p : i1
