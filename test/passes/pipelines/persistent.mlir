// tileas-to-ptx makes only the kernel marked nv_tileas.dynamic_persistent persistent
// (issue 14, F5: every kernel of the module became persistent), for the launch grid of
// its num-sms option, which reaches the PTX as a constant a launcher reads.
// RUN: tileas-opt %s -p 'tileas-to-ptx{stop-after=tileas}' | filecheck %s --check-prefix=TILEAS
// RUN: tileas-opt %s -p 'tileas-to-ptx{num-sms=114}' -t ptx | filecheck %s --check-prefix=PTX

module attributes {nv_tileaa.target_spec = #nv_tileaa.target_spec<sm = 90>} {
  nv_tileas.kernel @marked() attributes {nv_tileaa.kernel_spec = #nv_tileaa.kernel_spec<num_ctas = 1>, nv_tileas.dynamic_persistent, nv_tileas.num_warps = 4 : i32} {
    %x = nv_tileaa.get_program_id x
    nv_tileas.return
  }
  nv_tileas.kernel @plain() attributes {nv_tileaa.kernel_spec = #nv_tileaa.kernel_spec<num_ctas = 1>, nv_tileas.num_warps = 4 : i32} {
    %x = nv_tileaa.get_program_id x
    nv_tileas.return
  }
}

// TILEAS-LABEL: nv_tileas.kernel @marked(%tile_grid_x: i32, %tile_grid_y: i32, %tile_grid_z: i32)
// TILEAS-SAME:    nv_tileas.persistent_grid = array<i32: 132, 1, 1>
// TILEAS:         scf.while
// TILEAS-LABEL: nv_tileas.kernel @plain()
// TILEAS-NOT:     scf.while
// TILEAS:         nv_tileas.return

// PTX:       .visible .const .align 4 .b32 marked_persistent_grid[3] = {114, 1, 1};
// PTX-NOT:   plain_persistent_grid
// PTX:       .visible .entry marked(
// PTX-NEXT:    .param .u32 marked_param_0,
// PTX-NEXT:    .param .u32 marked_param_1,
// PTX-NEXT:    .param .u32 marked_param_2
// PTX-NEXT:  )
// PTX:       .visible .entry plain()
