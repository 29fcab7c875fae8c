// RUN: not tileas-opt %s --split-input-file -p tileas-resolve-agent-boundary 2>&1 | filecheck %s

#w8 = #nv_tileas.blocked<size_per_thread = [1], threads_per_warp = [32], warps_per_cta = [8], order = [0]>

// A loop's iter_arg has the type of the loop's result: a tile from outside cannot enter
// it in the agent's layout.
func.func @iter_arg(%t: tensor<256xf32, #w8>, %n: index) {
  nv_tileas.async.pipeline.agent_switch num_warps = [4] warp_id = [0] agent_strides = [1] {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %r = scf.for %k = %c0 to %n step %c1 iter_args(%acc = %t) -> (tensor<256xf32, #w8>) {
      scf.yield %acc : tensor<256xf32, #w8>
    }
  }
  func.return
}

// CHECK: invalid.mlir:11:5: error: a tile laid out over 8 warps reaches 'scf.for' in an agent of 4 warps, which cannot take it in another layout

// -----

#w8 = #nv_tileas.blocked<size_per_thread = [1], threads_per_warp = [32], warps_per_cta = [8], order = [0]>

// Nor can an elementwise result re-laid out for the agent reach a call.
func.func private @sink(tensor<256xf32, #w8>)

func.func @call_user(%t: tensor<256xf32, #w8>) {
  nv_tileas.async.pipeline.agent_switch num_warps = [4] warp_id = [0] agent_strides = [1] {
    %n = arith.negf %t : tensor<256xf32, #w8>
    func.call @sink(%n) : (tensor<256xf32, #w8>) -> ()
  }
  func.return
}

// CHECK: invalid.mlir:30:5: error: a tile laid out over 8 warps reaches 'func.call' in an agent of 4 warps, which cannot take it in another layout
