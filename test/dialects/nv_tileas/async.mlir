// RUN: TILEAS_ROUNDTRIP
// RUN: TILEAS_GENERIC_ROUNDTRIP

#shared = #nv_tileas.shared<swizzle = 128, order = [1, 0]>
#blocked = #nv_tileas.blocked<size_per_thread = [1, 8], threads_per_warp = [4, 8], warps_per_cta = [4, 1], order = [1, 0]>

func.func @pipeline(%t: tensor<128x64xf16, #blocked>, %phase: i1) {
  %p = nv_tileas.async.pipeline.create_pipeline : !nv_tileas.pipeline<3, tensor<128x64xf16, #shared>>
  %bar = nv_tileas.mbarrier.create arrive_count = 1
  nv_tileas.async.pipeline.agent_switch num_warps = [1, 1, 4] warp_id = [0, 1, 4] agent_strides = [1, 3, 1] attributes {nv_tileas.num_warps = 8 : i32} {
    %slot = nv_tileas.async.pipeline.producer_acquire %p : !nv_tileas.pipeline<3, tensor<128x64xf16, #shared>> -> tensor<128x64xf16, #shared>
    %w = nv_tileas.copy %t, %slot : tensor<128x64xf16, #blocked> -> tensor<128x64xf16, #shared>
    nv_tileas.async.fence
    nv_tileas.mbarrier.expect_tx %bar bytes = 16384
    nv_tileas.async.arrive %bar
    nv_tileas.async.pipeline.producer_commit %p : !nv_tileas.pipeline<3, tensor<128x64xf16, #shared>>
  } {
  } {
    %r = nv_tileas.async.pipeline.consume_one %p : !nv_tileas.pipeline<3, tensor<128x64xf16, #shared>> -> (tensor<128x64xf16, #blocked>) {
    ^bb0(%slot: tensor<128x64xf16, #shared>):
      %v = nv_tileas.convert_layout %slot : tensor<128x64xf16, #shared> -> tensor<128x64xf16, #blocked>
      nv_tileas.async.pipeline.yield %v : tensor<128x64xf16, #blocked>
    }
    %s = nv_tileas.async.pipeline.consumer_acquire %p : !nv_tileas.pipeline<3, tensor<128x64xf16, #shared>> -> tensor<128x64xf16, #shared>
    nv_tileas.async.pipeline.consumer_release %p : !nv_tileas.pipeline<3, tensor<128x64xf16, #shared>>
    nv_tileas.mbarrier.arrive %bar
    nv_tileas.mbarrier.wait %bar, %phase
  }
  nv_tileas.async.pipeline.warp_specialize agent_strides = [1, 2] attributes {nv_tileas.num_warps = 8 : i32} {
    nv_tileas.cluster_barrier.arrive relaxed
    nv_tileas.cluster_barrier.arrive
  } {
    nv_tileas.cluster_barrier.wait
  }
  nv_tileas.async.pipeline.warp_specialize {
    nv_tileas.async.fence
  }
  func.return
}

// CHECK-LABEL: func.func @pipeline
// CHECK-NEXT:    %p = nv_tileas.async.pipeline.create_pipeline : !nv_tileas.pipeline<3, tensor<128x64xf16, #nv_tileas.shared<swizzle = 128, order = [1, 0]>>>
// CHECK-NEXT:    %bar = nv_tileas.mbarrier.create arrive_count = 1
// CHECK-NEXT:    nv_tileas.async.pipeline.agent_switch num_warps = [1, 1, 4] warp_id = [0, 1, 4] agent_strides = [1, 3, 1] attributes {nv_tileas.num_warps = 8 : i32} {
// CHECK-NEXT:      %slot = nv_tileas.async.pipeline.producer_acquire %p : !nv_tileas.pipeline<3, {{.*}}> -> tensor<128x64xf16, {{.*}}>
// CHECK-NEXT:      %w = nv_tileas.copy %t, %slot
// CHECK-NEXT:      nv_tileas.async.fence
// CHECK-NEXT:      nv_tileas.mbarrier.expect_tx %bar bytes = 16384
// CHECK-NEXT:      nv_tileas.async.arrive %bar
// CHECK-NEXT:      nv_tileas.async.pipeline.producer_commit %p : !nv_tileas.pipeline<3, {{.*}}>
// CHECK-NEXT:    } {
// CHECK-NEXT:    } {
// CHECK-NEXT:      %r = nv_tileas.async.pipeline.consume_one %p : !nv_tileas.pipeline<3, {{.*}}> -> (tensor<128x64xf16, {{.*}}>) {
// CHECK-NEXT:      ^bb0(%slot_1: tensor<128x64xf16, {{.*}}>):
// CHECK-NEXT:        %v = nv_tileas.convert_layout %slot_1
// CHECK-NEXT:        nv_tileas.async.pipeline.yield %v : tensor<128x64xf16, {{.*}}>
// CHECK-NEXT:      }
// CHECK-NEXT:      %s = nv_tileas.async.pipeline.consumer_acquire %p
// CHECK-NEXT:      nv_tileas.async.pipeline.consumer_release %p
// CHECK-NEXT:      nv_tileas.mbarrier.arrive %bar
// CHECK-NEXT:      nv_tileas.mbarrier.wait %bar, %phase
// CHECK-NEXT:    }
// CHECK-NEXT:    nv_tileas.async.pipeline.warp_specialize agent_strides = [1, 2] attributes {nv_tileas.num_warps = 8 : i32} {
// CHECK-NEXT:      nv_tileas.cluster_barrier.arrive relaxed
// CHECK-NEXT:      nv_tileas.cluster_barrier.arrive
// CHECK-NEXT:    } {
// CHECK-NEXT:      nv_tileas.cluster_barrier.wait
// CHECK-NEXT:    }
// CHECK-NEXT:    nv_tileas.async.pipeline.warp_specialize {
// CHECK-NEXT:      nv_tileas.async.fence
// CHECK-NEXT:    }

// CHECK-GENERIC-LABEL: "func.func"() <{sym_name = "pipeline"
// CHECK-GENERIC:       "nv_tileas.async.pipeline.agent_switch"() <{num_warps = array<i32: 1, 1, 4>, warp_id = array<i32: 0, 1, 4>, agent_strides = array<i32: 1, 3, 1>}> ({
// CHECK-GENERIC:       "nv_tileas.mbarrier.expect_tx"(%bar) <{bytes = 16384 : i64}> : (!nv_tileas.mbarrier) -> ()
// CHECK-GENERIC:       }, {
// CHECK-GENERIC-NEXT:  }, {
// CHECK-GENERIC:       "nv_tileas.async.pipeline.consume_one"(%p) ({
// CHECK-GENERIC:       "nv_tileas.cluster_barrier.arrive"() <{relaxed}> : () -> ()

// A stage of two slots: acquired, filled and consumed together.
#sb = #nv_tileas.shared<swizzle = 128, order = [0, 1]>
!stage = !nv_tileas.pipeline<4, tensor<128x64xf16, #shared>, tensor<64x128xf16, #sb>>
func.func @two_slots() {
  %p = nv_tileas.async.pipeline.create_pipeline : !stage
  %a, %b = nv_tileas.async.pipeline.producer_acquire %p : !stage -> tensor<128x64xf16, #shared>, tensor<64x128xf16, #sb>
  nv_tileas.async.pipeline.producer_commit %p : !stage
  %ca, %cb = nv_tileas.async.pipeline.consumer_acquire %p : !stage -> tensor<128x64xf16, #shared>, tensor<64x128xf16, #sb>
  nv_tileas.async.pipeline.consumer_release %p : !stage
  nv_tileas.async.pipeline.consume_one %p : !stage -> () {
  ^bb0(%x: tensor<128x64xf16, #shared>, %y: tensor<64x128xf16, #sb>):
    nv_tileas.async.pipeline.yield
  }
  func.return
}

// CHECK-LABEL: func.func @two_slots
// CHECK-NEXT:    %p = nv_tileas.async.pipeline.create_pipeline : !nv_tileas.pipeline<4, tensor<128x64xf16, #nv_tileas.shared<swizzle = 128, order = [1, 0]>>, tensor<64x128xf16, #nv_tileas.shared<swizzle = 128, order = [0, 1]>>>
// CHECK-NEXT:    %a, %b = nv_tileas.async.pipeline.producer_acquire %p : !nv_tileas.pipeline<4, {{.*}}> -> tensor<128x64xf16, {{.*}}>, tensor<64x128xf16, {{.*}}>
// CHECK-NEXT:    nv_tileas.async.pipeline.producer_commit %p
// CHECK-NEXT:    %ca, %cb = nv_tileas.async.pipeline.consumer_acquire %p : !nv_tileas.pipeline<4, {{.*}}> -> tensor<128x64xf16, {{.*}}>, tensor<64x128xf16, {{.*}}>
// CHECK-NEXT:    nv_tileas.async.pipeline.consumer_release %p
// CHECK-NEXT:    nv_tileas.async.pipeline.consume_one %p : !nv_tileas.pipeline<4, {{.*}}> -> () {
// CHECK-NEXT:    ^bb0(%x: tensor<128x64xf16, {{.*}}>, %y: tensor<64x128xf16, {{.*}}>):

// CHECK-GENERIC-LABEL: "func.func"() <{sym_name = "two_slots"
// CHECK-GENERIC:       %a, %b = "nv_tileas.async.pipeline.producer_acquire"(%p) : (!nv_tileas.pipeline<4, tensor<128x64xf16, #nv_tileas.shared<swizzle = 128, order = [1, 0]>>, tensor<64x128xf16, #nv_tileas.shared<swizzle = 128, order = [0, 1]>>>) -> (tensor<128x64xf16, #nv_tileas.shared<swizzle = 128, order = [1, 0]>>, tensor<64x128xf16, #nv_tileas.shared<swizzle = 128, order = [0, 1]>>)

// Pipeline iterators: a producer's or consumer's handle on a value of the element type.
func.func @iterators(%p: !nv_tileas.pipeline_iterator<producer, index>, %c: !nv_tileas.pipeline_iterator<consumer, tensor<64x128xf16, #sb>>) {
  func.return
}

// CHECK-LABEL: func.func @iterators(%p: !nv_tileas.pipeline_iterator<producer, index>, %c: !nv_tileas.pipeline_iterator<consumer, tensor<64x128xf16, #nv_tileas.shared<swizzle = 128, order = [0, 1]>>>)

// CHECK-GENERIC-LABEL: "func.func"() <{sym_name = "iterators", function_type = (!nv_tileas.pipeline_iterator<producer, index>, !nv_tileas.pipeline_iterator<consumer, tensor<64x128xf16, #nv_tileas.shared<swizzle = 128, order = [0, 1]>>>) -> ()}>
