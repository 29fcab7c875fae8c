// tileas-unwrap-pipeline-iterators (seed 002, DD02): in a function that creates a
// pipeline, producer and consumer iterator types become their element types (results,
// a loop's carried iterator, the signature, nested types), and the casts into iterators
// go. A function without a pipeline keeps its iterators.
// RUN: tileas-opt %s -p tileas-unwrap-pipeline-iterators | filecheck %s

#s = #nv_tileas.shared<swizzle = 128, order = [1, 0]>
builtin.module {
  func.func @pipelined(%start: !nv_tileas.pipeline_iterator<producer, index>, %n: index) -> !nv_tileas.pipeline_iterator<producer, index> {
    %p = nv_tileas.async.pipeline.create_pipeline : !nv_tileas.pipeline<2, tensor<64x64xf16, #s>>
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %it = builtin.unrealized_conversion_cast %c0 : index to !nv_tileas.pipeline_iterator<consumer, index>
    %r = scf.for %k = %c0 to %n step %c1 iter_args(%i = %it) -> (!nv_tileas.pipeline_iterator<consumer, index>) {
      %wrapped = "test.op"(%i) : (!nv_tileas.pipeline_iterator<consumer, index>) -> tuple<!nv_tileas.pipeline_iterator<consumer, index>, i32>
      scf.yield %i : !nv_tileas.pipeline_iterator<consumer, index>
    }
    func.return %start : !nv_tileas.pipeline_iterator<producer, index>
  }

  func.func @unpipelined(%c0: index) -> !nv_tileas.pipeline_iterator<consumer, index> {
    %it = builtin.unrealized_conversion_cast %c0 : index to !nv_tileas.pipeline_iterator<consumer, index>
    func.return %it : !nv_tileas.pipeline_iterator<consumer, index>
  }
}

// CHECK-LABEL: func.func @pipelined(%start: index, %n: index) -> index {
// CHECK-NEXT:    %p = nv_tileas.async.pipeline.create_pipeline : !nv_tileas.pipeline<2, tensor<64x64xf16, #nv_tileas.shared<swizzle = 128, order = [1, 0]>>>
// CHECK-NEXT:    %c0 = arith.constant 0 : index
// CHECK-NEXT:    %c1 = arith.constant 1 : index
// CHECK-NEXT:    %r = scf.for %k = %c0 to %n step %c1 iter_args(%i = %c0) -> (index) {
// CHECK-NEXT:      %wrapped = "test.op"(%i) : (index) -> tuple<index, i32>
// CHECK-NEXT:      scf.yield %i : index
// CHECK-NEXT:    }
// CHECK-NEXT:    func.return %start : index
// CHECK-NEXT:  }

// CHECK-LABEL: func.func @unpipelined(%c0: index) -> !nv_tileas.pipeline_iterator<consumer, index> {
// CHECK-NEXT:    %it = builtin.unrealized_conversion_cast %c0 : index to !nv_tileas.pipeline_iterator<consumer, index>
// CHECK-NEXT:    func.return %it : !nv_tileas.pipeline_iterator<consumer, index>
