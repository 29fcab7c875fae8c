// RUN: tileas-opt %s --split-input-file -p tileas-resolve-agent-boundary --allow-unregistered-dialect | filecheck %s

#w8 = #nv_tileas.blocked<size_per_thread = [1, 8], threads_per_warp = [4, 8], warps_per_cta = [8, 1], order = [1, 0]>
#w4 = #nv_tileas.blocked<size_per_thread = [1, 8], threads_per_warp = [4, 8], warps_per_cta = [4, 1], order = [1, 0]>
#s = #nv_tileas.shared<swizzle = 128, order = [1, 0]>

func.func @handoff(%t: tensor<128x64xf32, #w8>, %u: tensor<128x64xf32, #w4>, %v: !nv_tileas.tiled_view<1024x1024xf32>, %i: index) {
  nv_tileas.async.pipeline.agent_switch num_warps = [4, 4] warp_id = [0, 4] agent_strides = [1, 1] {
    nv_tileas.tiled_store %t, %v[%i, %i] : tensor<128x64xf32, #w8> -> !nv_tileas.tiled_view<1024x1024xf32>
    %n = arith.negf %t : tensor<128x64xf32, #w8>
    %m = arith.negf %u : tensor<128x64xf32, #w4>
  } {
    %c = nv_tileas.convert_layout %t : tensor<128x64xf32, #w8> -> tensor<128x64xf32, #s>
  }
  func.return
}

// The 8-warp tile is staged once before the switch; the 4-warp tile stays direct.
// CHECK-LABEL: func.func @handoff
// CHECK-NEXT:    %[[BUF:.*]] = nv_tileas.alloc_tensor : tensor<128x64xf32, #nv_tileas.shared<swizzle = 0, order = [1, 0]>>
// CHECK-NEXT:    %[[STAGED:.*]] = nv_tileas.copy %t, %[[BUF]]
// CHECK-NEXT:    nv_tileas.async.pipeline.agent_switch num_warps = [4, 4] warp_id = [0, 4] agent_strides = [1, 1] {
// The tile op and the elementwise op both read the tile refitted to the agent's 4 warps.
// CHECK-NEXT:      %[[FIT:.*]] = nv_tileas.convert_layout %[[STAGED]] : {{.*}} -> tensor<128x64xf32, #nv_tileas.blocked<size_per_thread = [1, 8], threads_per_warp = [4, 8], warps_per_cta = [4, 1], order = [1, 0]>>
// CHECK-NEXT:      nv_tileas.tiled_store %[[FIT]], %v[%i, %i]
// CHECK-NEXT:      %n = arith.negf %[[FIT]] : tensor<128x64xf32, #nv_tileas.blocked<size_per_thread = [1, 8], threads_per_warp = [4, 8], warps_per_cta = [4, 1], order = [1, 0]>>
// CHECK-NEXT:      %m = arith.negf %u
// CHECK-NEXT:    } {
// A conversion of the tile reads the buffer directly.
// CHECK-NEXT:      %c = nv_tileas.convert_layout %[[STAGED]] : tensor<128x64xf32, #nv_tileas.shared<swizzle = 0, order = [1, 0]>> -> tensor<128x64xf32, #nv_tileas.shared<swizzle = 128, order = [1, 0]>>
// CHECK-NEXT:    }

// -----

#w8 = #nv_tileas.blocked<size_per_thread = [1, 8], threads_per_warp = [4, 8], warps_per_cta = [8, 1], order = [1, 0]>
#w1 = #nv_tileas.blocked<size_per_thread = [1, 8], threads_per_warp = [4, 8], warps_per_cta = [1, 1], order = [1, 0]>
#acc = #nv_tileas.mma<warps_per_cta = [4, 1], instr_shape = [64, 128, 16]>

// A 1-warp agent gets every register tile from outside laid out over 1 warp (issue 14,
// F6: elementwise users kept the 8-warp layout, and a 4-warp #nv_tileas.mma tile was
// used in place). Elementwise chains follow, converting the agent's own tiles; an MMA
// fragment is delivered in a row-major blocked layout.
func.func @one_warp(%t: tensor<128x64xf32, #w8>, %d: tensor<64x128xf32, #acc>, %v: !nv_tileas.tiled_view<1024x1024xf32>, %i: index) {
  nv_tileas.async.pipeline.agent_switch num_warps = [1] warp_id = [0] agent_strides = [1] {
    %own = "test.op"() : () -> tensor<128x64xf32, #w1>
    %n = arith.negf %t : tensor<128x64xf32, #w8>
    %s = arith.addf %n, %n : tensor<128x64xf32, #w8>
    nv_tileas.tiled_store %s, %v[%i, %i] : tensor<128x64xf32, #w8> -> !nv_tileas.tiled_view<1024x1024xf32>
    %e = nv_tileaa.extract %d[%i, %i] : tensor<64x128xf32, #acc> -> f32
    nv_tileas.tiled_store %d, %v[%i, %i] : tensor<64x128xf32, #acc> -> !nv_tileas.tiled_view<1024x1024xf32>
    "test.use"(%own, %e) : (tensor<128x64xf32, #w1>, f32) -> ()
  }
  func.return
}

// CHECK-LABEL: func.func @one_warp
// CHECK-NEXT:    %[[BT:.*]] = nv_tileas.alloc_tensor : tensor<128x64xf32, #nv_tileas.shared<swizzle = 0, order = [1, 0]>>
// CHECK-NEXT:    %[[ST:.*]] = nv_tileas.copy %t, %[[BT]]
// CHECK-NEXT:    %[[BD:.*]] = nv_tileas.alloc_tensor : tensor<64x128xf32, #nv_tileas.shared<swizzle = 0, order = [1, 0]>>
// CHECK-NEXT:    %[[SD:.*]] = nv_tileas.copy %d, %[[BD]] : tensor<64x128xf32, #nv_tileas.mma<{{.*}}>> -> tensor<64x128xf32, #nv_tileas.shared<swizzle = 0, order = [1, 0]>>
// CHECK-NEXT:    nv_tileas.async.pipeline.agent_switch num_warps = [1] warp_id = [0] agent_strides = [1] {
// CHECK-NEXT:      %[[D:.*]] = nv_tileas.convert_layout %[[SD]] : {{.*}} -> tensor<64x128xf32, #nv_tileas.blocked<size_per_thread = [1, 1], threads_per_warp = [1, 32], warps_per_cta = [1, 1], order = [1, 0]>>
// CHECK-NEXT:      %[[T:.*]] = nv_tileas.convert_layout %[[ST]] : {{.*}} -> tensor<128x64xf32, #nv_tileas.blocked<size_per_thread = [1, 8], threads_per_warp = [4, 8], warps_per_cta = [1, 1], order = [1, 0]>>
// CHECK-NEXT:      %own = "test.op"()
// CHECK-NEXT:      %n = arith.negf %[[T]] : tensor<128x64xf32, #nv_tileas.blocked<size_per_thread = [1, 8], threads_per_warp = [4, 8], warps_per_cta = [1, 1], order = [1, 0]>>
// CHECK-NEXT:      %s = arith.addf %n, %n : tensor<128x64xf32, #nv_tileas.blocked<size_per_thread = [1, 8], threads_per_warp = [4, 8], warps_per_cta = [1, 1], order = [1, 0]>>
// CHECK-NEXT:      nv_tileas.tiled_store %s, %v[%i, %i] : tensor<128x64xf32, #nv_tileas.blocked<{{.*}}warps_per_cta = [1, 1]{{.*}}>>
// CHECK-NEXT:      %e = nv_tileaa.extract %[[D]][%i, %i]
// CHECK-NEXT:      nv_tileas.tiled_store %[[D]], %v[%i, %i]
// CHECK-NEXT:      "test.use"(%own, %e)
// CHECK-NEXT:    }

// -----

#w8 = #nv_tileas.blocked<size_per_thread = [1], threads_per_warp = [32], warps_per_cta = [8], order = [0]>

// An elementwise op's other tiles in the agent are converted to the delivered layout.
func.func @mixed(%t: tensor<256xf32, #w8>, %v: !nv_tileas.tiled_view<1024xf32>, %i: index) {
  nv_tileas.async.pipeline.agent_switch num_warps = [4] warp_id = [0] agent_strides = [1] {
    %y = "test.op"() : () -> tensor<256xf32, #w8>
    %s = arith.addf %t, %y : tensor<256xf32, #w8>
    nv_tileas.tiled_store %s, %v[%i] : tensor<256xf32, #w8> -> !nv_tileas.tiled_view<1024xf32>
  }
  func.return
}

// CHECK-LABEL: func.func @mixed
// CHECK:           %[[T:.*]] = nv_tileas.convert_layout %{{.*}} : {{.*}} -> tensor<256xf32, #nv_tileas.blocked<size_per_thread = [1], threads_per_warp = [32], warps_per_cta = [4], order = [0]>>
// CHECK-NEXT:      %y = "test.op"()
// CHECK-NEXT:      %[[Y:.*]] = nv_tileas.convert_layout %y : {{.*}} -> tensor<256xf32, #nv_tileas.blocked<size_per_thread = [1], threads_per_warp = [32], warps_per_cta = [4], order = [0]>>
// CHECK-NEXT:      %s = arith.addf %[[T]], %[[Y]] : tensor<256xf32, #nv_tileas.blocked<size_per_thread = [1], threads_per_warp = [32], warps_per_cta = [4], order = [0]>>
