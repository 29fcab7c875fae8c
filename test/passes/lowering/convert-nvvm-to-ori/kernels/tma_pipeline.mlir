// A warp-specialized TMA copy kernel: warpgroup 0 produces, warpgroup 1 consumes.
//
// Two stages of shared memory, each with a "full" mbarrier (armed by the producer with
// the byte count, completed by the TMA load) and an "empty" one (arrived on by the
// consumer when it is done with the stage). The producer's elected thread issues one TMA
// load per K tile; the consumer waits on the stage's phase, copies the tile out with a
// TMA store, and releases the stage. Tensor maps are by-value grid constants.
// RUN: tileas-opt %s -p convert-nvvm-to-ori | filecheck %s --check-prefix=ORI
// RUN: tileas-opt %s -p convert-nvvm-to-ori -t ptx | filecheck %s --check-prefix=PTX
// RUN: tileas-opt %s -p convert-nvvm-to-ori -t ptx -o %t.ptx
// RUN: ptxas -arch=sm_90a %t.ptx -o %t.cubin

module attributes {nvvm.target = #nvvm.target<chip = "sm_90a", features = "+ptx80">} {
  llvm.mlir.global external @smem() {addr_space = 3 : i32, alignment = 1024 : i64} : !llvm.array<0 x i8>
  llvm.mlir.global internal @full() {addr_space = 3 : i32, alignment = 8 : i64} : !llvm.array<2 x i64>
  llvm.mlir.global internal @empty() {addr_space = 3 : i32, alignment = 8 : i64} : !llvm.array<2 x i64>

  llvm.func @tma_copy(%in_map: !llvm.ptr {llvm.align = 64 : i64, llvm.byval = !llvm.array<128 x i8>, nvvm.grid_constant},
                      %out_map: !llvm.ptr {llvm.align = 64 : i64, llvm.byval = !llvm.array<128 x i8>, nvvm.grid_constant},
                      %tiles: i32) attributes {nvvm.kernel, nvvm.maxnreg = 128 : i32, nvvm.reqntid = array<i32: 256, 1, 1>} {
    %c0 = llvm.mlir.constant(0 : i32) : i32
    %c1 = llvm.mlir.constant(1 : i32) : i32
    %c2 = llvm.mlir.constant(2 : i32) : i32
    %c64 = llvm.mlir.constant(64 : i32) : i32
    %c128 = llvm.mlir.constant(128 : i32) : i32
    %bytes = llvm.mlir.constant(16384 : i32) : i32
    %ticks = llvm.mlir.constant(10000 : i32) : i32
    %tid = nvvm.read.ptx.sreg.tid.x : i32
    %row = nvvm.read.ptx.sreg.ctaid.x : i32
    %base = llvm.mlir.addressof @smem : !llvm.ptr<3>
    %full = llvm.mlir.addressof @full : !llvm.ptr<3>
    %empty = llvm.mlir.addressof @empty : !llvm.ptr<3>
    %full1 = llvm.getelementptr %full[0, 1] : (!llvm.ptr<3>) -> !llvm.ptr<3>, !llvm.array<2 x i64>
    %empty1 = llvm.getelementptr %empty[0, 1] : (!llvm.ptr<3>) -> !llvm.ptr<3>, !llvm.array<2 x i64>
    %is0 = llvm.icmp "eq" %tid, %c0 : i32
    nvvm.mbarrier.init %full, %c1, predicate = %is0 : !llvm.ptr<3>, i32, i1
    nvvm.mbarrier.init %full1, %c1, predicate = %is0 : !llvm.ptr<3>, i32, i1
    nvvm.mbarrier.init %empty, %c128, predicate = %is0 : !llvm.ptr<3>, i32, i1
    nvvm.mbarrier.init %empty1, %c128, predicate = %is0 : !llvm.ptr<3>, i32, i1
    nvvm.fence.mbarrier.init
    nvvm.cluster.arrive.relaxed {aligned}
    nvvm.cluster.wait {aligned}
    %warpgroup = llvm.udiv %tid, %c128 : i32
    %producer = llvm.icmp "eq" %warpgroup, %c0 : i32
    llvm.cond_br %producer, ^produce, ^consume

  ^produce:
    nvvm.setmaxregister decrease 40
    %leader = nvvm.elect.sync -> i1
    llvm.br ^p_loop(%c0 : i32)
  ^p_loop(%k: i32):
    %p_more = llvm.icmp "slt" %k, %tiles : i32
    llvm.cond_br %p_more, ^p_body, ^exit
  ^p_body:
    %stage = llvm.urem %k, %c2 : i32
    %round = llvm.udiv %k, %c2 : i32
    %parity = llvm.and %round, %c1 : i32
    %free_parity = llvm.xor %parity, %c1 : i32
    %p_empty = llvm.getelementptr %empty[0, %stage] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, !llvm.array<2 x i64>
    %p_full = llvm.getelementptr %full[0, %stage] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, !llvm.array<2 x i64>
    %offset = llvm.mul %stage, %bytes : i32
    %dst = llvm.getelementptr %base[%offset] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i8
    nvvm.mbarrier.try_wait.parity %p_empty, %free_parity, %ticks : !llvm.ptr<3>, i32, i32
    nvvm.mbarrier.arrive.expect_tx %p_full, %bytes, predicate = %leader : !llvm.ptr<3>, i32, i1
    %col = llvm.mul %k, %c64 : i32
    nvvm.cp.async.bulk.tensor.shared.cluster.global %dst, %in_map, %p_full, box[%col, %row] predicate = %leader : !llvm.ptr<3>, !llvm.ptr
    %k_next = llvm.add %k, %c1 : i32
    llvm.br ^p_loop(%k_next : i32)

  ^consume:
    nvvm.setmaxregister increase 232
    %c_leader = nvvm.elect.sync -> i1
    %first_warp = llvm.icmp "eq" %tid, %c128 : i32
    llvm.br ^c_loop(%c0 : i32)
  ^c_loop(%j: i32):
    %c_more = llvm.icmp "slt" %j, %tiles : i32
    llvm.cond_br %c_more, ^c_body, ^drain
  ^c_body:
    %c_stage = llvm.urem %j, %c2 : i32
    %c_round = llvm.udiv %j, %c2 : i32
    %c_parity = llvm.and %c_round, %c1 : i32
    %c_full = llvm.getelementptr %full[0, %c_stage] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, !llvm.array<2 x i64>
    %c_empty = llvm.getelementptr %empty[0, %c_stage] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, !llvm.array<2 x i64>
    %c_offset = llvm.mul %c_stage, %bytes : i32
    %src = llvm.getelementptr %base[%c_offset] : (!llvm.ptr<3>, i32) -> !llvm.ptr<3>, i8
    nvvm.mbarrier.try_wait.parity %c_full, %c_parity, %ticks : !llvm.ptr<3>, i32, i32
    nvvm.fence.proxy {kind = #nvvm.proxy_kind<async.shared>, space = #nvvm.shared_space<cta>}
    %c_col = llvm.mul %j, %c64 : i32
    nvvm.cp.async.bulk.tensor.global.shared.cta %out_map, %src, box[%c_col, %row], predicate = %first_warp : !llvm.ptr, <3>
    llvm.inline_asm has_side_effects "cp.async.bulk.commit_group;", "" : () -> ()
    llvm.inline_asm has_side_effects "cp.async.bulk.wait_group.read 0;", "" : () -> ()
    %state = nvvm.mbarrier.arrive %c_empty : !llvm.ptr<3> -> i64
    %j_next = llvm.add %j, %c1 : i32
    llvm.br ^c_loop(%j_next : i32)
  ^drain:
    llvm.inline_asm has_side_effects "cp.async.bulk.wait_group 0;", "" : () -> ()
    llvm.br ^exit

  ^exit:
    nvvm.barrier0
    llvm.cond_br %is0, ^release, ^done
  ^release:
    nvvm.mbarrier.inval %full : !llvm.ptr<3>
    nvvm.mbarrier.inval %full1 : !llvm.ptr<3>
    llvm.br ^done
  ^done:
    llvm.return
  }
}
