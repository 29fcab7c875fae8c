// tileas-to-ptx: every stage in order on a small kernel, stop-after, and a bad option.
// RUN: tileas-opt %s -p 'tileas-to-ptx{stop-after=tileas}' | filecheck %s --check-prefix=TILEAS
// RUN: tileas-opt %s -p 'tileas-to-ptx{stop-after=nvvm}' | filecheck %s --check-prefix=NVVM
// RUN: tileas-opt %s -p tileas-to-ptx -t ptx | filecheck %s --check-prefix=PTX
// RUN: not tileas-opt %s -p 'tileas-to-ptx{stop-after=llvm}' 2>&1 | filecheck %s --check-prefix=BAD

// An agent of one warpgroup; the mapping pass assigns its warps, the lowering branches on
// them; the sm 90 target gets no OCG knobs.
module attributes {nv_tileaa.target_spec = #nv_tileaa.target_spec<sm = 90>} {
  nv_tileas.kernel @k() attributes {nv_tileaa.kernel_spec = #nv_tileaa.kernel_spec<num_ctas = 1>} {
    nv_tileas.async.pipeline.warp_specialize {
      nv_tileas.async.fence {nv_tileas.num_warps = 4 : i32}
    }
    nv_tileas.return
  }
}

// TILEAS:      nv_tileas.kernel @k() attributes {{.*}}nv_tileas.num_warps = 4 : i32
// TILEAS-NEXT:   nv_tileas.async.pipeline.agent_switch num_warps = [4] warp_id = [0] agent_strides = [1]
// TILEAS-NOT:  llvm.inline_asm

// NVVM:        llvm.func @k() attributes {nvvm.kernel, nvvm.reqntid = array<i32: 128, 1, 1>}
// NVVM:          scf.if
// NVVM-NEXT:       nvvm.fence.proxy

// PTX:         .visible .entry k()
// PTX:         .reqntid 128, 1, 1
// PTX:         fence.proxy.async.shared::cta;

// BAD: tileas-to-ptx: stop-after must be tileas, nvvm or ori, got 'llvm'
