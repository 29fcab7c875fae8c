"""A generator of large tile kernels that exercise every tileas pass.

`kernel(units)` returns the text of a module with one `nv_tileas.kernel` made of `units`
repetitions of a ~35-op unit: a TMA load and CTA-changing conversions around elementwise
work (tileas-plan-cta), a negated broadcast (sink-negf-through-shapes), a sliced loop
(tileas-slicing), a buffer alias (tileas-remove-buffer-alias), a conversion chain
(tileas-remove-layout-conversions), a wgmma dot (tileas-insert-OCG-knobs), agents with
barriers and a tile crossing into them (optimize-execution-unit-mapping,
tileas-resolve-agent-boundary) and program ids (tileas-dynamic-persistent).
"""

from __future__ import annotations

CTA2 = "cta = #nv_tileas.cta_layout<ctas_per_cluster = [2, 1], split = [2, 1], order = [1, 0]>"

HEADER = f"""\
#b = #nv_tileas.blocked<size_per_thread = [1, 4], threads_per_warp = [4, 8], warps_per_cta = [4, 1], order = [1, 0]>
#b2 = #nv_tileas.blocked<size_per_thread = [1, 4], threads_per_warp = [4, 8], warps_per_cta = [4, 1], order = [1, 0], {CTA2}>
#bt = #nv_tileas.blocked<size_per_thread = [4, 1], threads_per_warp = [8, 4], warps_per_cta = [4, 1], order = [0, 1]>
#w8 = #nv_tileas.blocked<size_per_thread = [1, 4], threads_per_warp = [4, 8], warps_per_cta = [8, 1], order = [1, 0]>
#row = #nv_tileas.blocked<size_per_thread = [4], threads_per_warp = [32], warps_per_cta = [4], order = [0]>
#sa = #nv_tileas.shared<swizzle = 128, order = [1, 0]>
#sb = #nv_tileas.shared<swizzle = 128, order = [0, 1]>
#acc = #nv_tileas.mma<warps_per_cta = [4, 1], instr_shape = [64, 64, 16]>
!view = !nv_tileas.tiled_view<4096x4096xf32>
!atom = !cute_nvgpu.sm90.mma<64x64x16, ab_major = (k, k), elem_type = (f16, f16, f32), frag_kind = ss>
builtin.module attributes {{nv_tileaa.target_spec = #nv_tileaa.target_spec<sm = 100>}} {{
  nv_tileas.kernel @generated(%v: !view, %row: tensor<64xf32, #row>, %h: tensor<64x64xf16, #b>, %bmat: tensor<64x64xf16, #sb>, %cacc: tensor<64x64xf32, #acc>, %big: tensor<64x64xf32, #w8>, %flag: i1) attributes {{nv_tileaa.kernel_spec = #nv_tileaa.kernel_spec<num_ctas = 2>}} {{
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %bar = nv_tileas.mbarrier.create arrive_count = 1
"""

UNIT = """\
    %pid{i} = nv_tileaa.get_program_id x
    %off{i} = arith.index_cast %pid{i} : i32 to index
    %t{i} = nv_tileas.tiled_load %v[%off{i}, %c0] : !view -> tensor<64x64xf32, #b2>
    %cv{i} = nv_tileas.convert_layout %t{i} : tensor<64x64xf32, #b2> -> tensor<64x64xf32, #b>
    %n{i} = arith.negf %cv{i} : tensor<64x64xf32, #b>
    %e{i} = nv_tileas.expand_dim %row axis = 0 : tensor<64xf32, #row> -> tensor<1x64xf32, #b>
    %bb{i} = nv_tileas.broadcast %e{i} : tensor<1x64xf32, #b> -> tensor<64x64xf32, #b>
    %nb{i} = arith.negf %bb{i} : tensor<64x64xf32, #b>
    %s{i} = arith.addf %n{i}, %nb{i} : tensor<64x64xf32, #b>
    %p{i} = nv_tileas.pragma %s{i} "keep" : tensor<64x64xf32, #b>
    %r{i} = scf.for %k{i} = %c0 to %c4 step %c1 iter_args(%acc{i} = %p{i}) -> (tensor<64x64xf32, #b>) {{
      %m{i} = arith.mulf %acc{i}, %acc{i} : tensor<64x64xf32, #b>
      scf.yield %m{i} : tensor<64x64xf32, #b>
    }} {{sliceCount = 2 : i64}}
    %back{i} = nv_tileas.convert_layout %r{i} : tensor<64x64xf32, #b> -> tensor<64x64xf32, #b2>
    nv_tileas.tiled_store %back{i}, %v[%off{i}, %c0] : tensor<64x64xf32, #b2> -> !view
    %x{i} = nv_tileas.convert_layout %back{i} : tensor<64x64xf32, #b2> -> tensor<64x64xf32, #bt>
    %y{i} = arith.negf %x{i} : tensor<64x64xf32, #bt>
    %z{i} = nv_tileas.convert_layout %y{i} : tensor<64x64xf32, #bt> -> tensor<64x64xf32, #b2>
    nv_tileas.tiled_store %z{i}, %v[%c0, %off{i}] : tensor<64x64xf32, #b2> -> !view
    %a{i} = nv_tileas.alloc_tensor : tensor<64x64xf16, #sa>
    %sel{i} = arith.select %flag, %a{i}, %a{i} : tensor<64x64xf16, #sa>
    %w{i} = nv_tileas.copy %h, %sel{i} : tensor<64x64xf16, #b> -> tensor<64x64xf16, #sa>
    %d{i} = nv_tileas.dot %w{i}, %bmat, %cacc atom = !atom wait_group = 0 : tensor<64x64xf16, #sa>, tensor<64x64xf16, #sb> -> tensor<64x64xf32, #acc>
    nv_tileas.async.pipeline.agent_switch num_warps = [1, 4] warp_id = [0, 4] agent_strides = [1, 1] {{
      nv_tileas.mbarrier.expect_tx %bar bytes = 16384 {{nv_tileas.num_warps = 1 : i32}}
      nv_tileas.async.arrive %bar {{nv_tileas.num_warps = 1 : i32}}
    }} {{
      nv_tileas.async.fence {{nv_tileas.num_warps = 4 : i32}}
      nv_tileas.tiled_store %big, %v[%off{i}, %off{i}] {{nv_tileas.num_warps = 4 : i32}} : tensor<64x64xf32, #w8> -> !view
      nv_tileas.mbarrier.arrive %bar {{nv_tileas.num_warps = 4 : i32}}
    }}
"""

FOOTER = """\
    nv_tileas.return
  }
}
"""

OPS_PER_UNIT = 33


def kernel(units: int) -> str:
    """A module whose kernel repeats the unit `units` times."""
    return HEADER + "".join(UNIT.format(i=i) for i in range(units)) + FOOTER
