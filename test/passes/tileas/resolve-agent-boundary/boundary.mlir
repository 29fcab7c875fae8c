// RUN: tileas-opt %s -p tileas-resolve-agent-boundary | filecheck %s

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
// The tile op reads the tile refitted to the agent's 4 warps; negf keeps its type.
// CHECK-NEXT:      %[[ORIG:.*]] = nv_tileas.convert_layout %[[STAGED]] : {{.*}} -> tensor<128x64xf32, #nv_tileas.blocked<size_per_thread = [1, 8], threads_per_warp = [4, 8], warps_per_cta = [8, 1], order = [1, 0]>>
// CHECK-NEXT:      %[[FIT:.*]] = nv_tileas.convert_layout %[[STAGED]] : {{.*}} -> tensor<128x64xf32, #nv_tileas.blocked<size_per_thread = [1, 8], threads_per_warp = [4, 8], warps_per_cta = [4, 1], order = [1, 0]>>
// CHECK-NEXT:      nv_tileas.tiled_store %[[FIT]], %v[%i, %i]
// CHECK-NEXT:      %n = arith.negf %[[ORIG]]
// CHECK-NEXT:      %m = arith.negf %u
// CHECK-NEXT:    } {
// A conversion of the tile reads the buffer directly.
// CHECK-NEXT:      %c = nv_tileas.convert_layout %[[STAGED]] : tensor<128x64xf32, #nv_tileas.shared<swizzle = 0, order = [1, 0]>> -> tensor<128x64xf32, #nv_tileas.shared<swizzle = 128, order = [1, 0]>>
// CHECK-NEXT:    }
