// Branches with block arguments, switches, structured control flow, unreachable.
// RUN: tileas-opt %s --split-input-file -p convert-nvvm-to-ori | filecheck %s --check-prefix=ORI
// RUN: tileas-opt %s --split-input-file -p convert-nvvm-to-ori -t ptx | filecheck %s

// A loop that swaps its two carried values each iteration: the back edge's copies form
// a cycle, broken with a temporary. The exit block has two predecessors, so it has
// registers of its own, and the loop's exit edge gets an edge block for its copies.
func.func @swap(%a: i32, %b: i32, %n: i32) -> i32 {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %empty = arith.cmpi sle, %n, %c0 : i32
  cf.cond_br %empty, ^exit(%a, %c0 : i32, i32), ^loop(%a, %b, %c0 : i32, i32, i32)
^loop(%x: i32, %y: i32, %i: i32):
  %next = arith.addi %i, %c1 : i32
  %more = arith.cmpi slt, %next, %n : i32
  cf.cond_br %more, ^loop(%y, %x, %next : i32, i32, i32), ^exit(%x, %c1 : i32, i32)
^exit(%r: i32, %s: i32):
  %sum = arith.addi %r, %s : i32
  func.return %sum : i32
}

// ORI-LABEL: ori.func visible func @swap
// ORI:         ori.inst "setp.le.s32" (def %[[EMPTY:p[0-9]+]], %{{r[0-9]+}}, 0)
// ORI-NEXT:    ori.bra if not %[[EMPTY]] "bra" ^[[ENTER:bb[0-9]+]], ^[[SKIP:bb[0-9]+]]
// ORI-NEXT:  ^[[SKIP]]:
// ORI-NEXT:    ori.inst "mov.b32" (def %[[R:r[0-9]+]], %[[A:r[0-9]+]])
// ORI-NEXT:    ori.inst "mov.b32" (def %[[S:r[0-9]+]], 0)
// ORI-NEXT:    ori.fallthrough ^[[EXIT:bb[0-9]+]]
// ORI-NEXT:  ^[[ENTER]]:
// ORI-NEXT:    ori.inst "mov.b32" (def %[[Y:r[0-9]+]], %{{r[0-9]+}})
// ORI-NEXT:    ori.inst "mov.b32" (def %[[X:r[0-9]+]], %[[A]])
// ORI-NEXT:    ori.inst "mov.b32" (def %[[I:r[0-9]+]], 0)
// ORI-NEXT:    ori.fallthrough ^[[LOOP:bb[0-9]+]]
// ORI-NEXT:  ^[[LOOP]]:
// ORI-NEXT:    ori.inst "add.s32" (def %[[NEXT:r[0-9]+]], %[[I]], 1)
// ORI-NEXT:    ori.inst "setp.lt.s32" (def %[[MORE:p[0-9]+]], %[[NEXT]], %{{r[0-9]+}})
// ORI-NEXT:    ori.bra if not %[[MORE]] "bra" ^[[OUT:bb[0-9]+]], ^[[BACK:bb[0-9]+]]
// ORI-NEXT:  ^[[BACK]]:
// ORI-NEXT:    ori.inst "mov.b32" (def %[[I]], %[[NEXT]])
// ORI-NEXT:    ori.inst "mov.b32" (def %[[TEMP:r[0-9]+]], %[[X]])
// ORI-NEXT:    ori.inst "mov.b32" (def %[[X]], %[[Y]])
// ORI-NEXT:    ori.inst "mov.b32" (def %[[Y]], %[[TEMP]])
// ORI-NEXT:    ori.fallthrough ^[[LOOP]]
// ORI-NEXT:  ^[[OUT]]:
// ORI-NEXT:    ori.inst "mov.b32" (def %[[R]], %[[X]])
// ORI-NEXT:    ori.inst "mov.b32" (def %[[S]], 1)
// ORI-NEXT:    ori.fallthrough ^[[EXIT]]
// ORI-NEXT:  ^[[EXIT]]:
// ORI-NEXT:    ori.inst "add.s32" (def %{{r[0-9]+}}, %[[R]], %[[S]])

// CHECK-LABEL: swap(
// CHECK:       	mov.b32 	%r2, 0;
// CHECK-NEXT:  [[LOOP:\$L__ori_[0-9]+]]:
// CHECK-NEXT:  	add.s32 	%r[[NEXT:[0-9]+]], %r[[I:[0-9]+]], 1;
// CHECK-NEXT:  	setp.lt.s32 	%p{{[0-9]+}}, %r[[NEXT]], %r{{[0-9]+}};
// CHECK-NEXT:  	@!%p{{[0-9]+}} bra 	[[OUT:\$L__ori_[0-9]+]];
// CHECK-NEXT:  	mov.b32 	%r[[I]], %r[[NEXT]];
// CHECK-NEXT:  	mov.b32 	%r[[TEMP:[0-9]+]], %r[[X:[0-9]+]];
// CHECK-NEXT:  	mov.b32 	%r[[X]], %r[[Y:[0-9]+]];
// CHECK-NEXT:  	mov.b32 	%r[[Y]], %r[[TEMP]];
// CHECK-NEXT:  	bra 	[[LOOP]];
// CHECK-NEXT:  [[OUT]]:

// -----

// A block with one predecessor takes its arguments' registers as they are; a constant
// condition is an unconditional branch (its dead side is still printed); `cf.switch` is
// a chain of compares.
func.func @switch(%flag: i32, %v: f32) -> f32 {
  %t = arith.constant true
  cf.cond_br %t, ^pick(%v : f32), ^dead
^dead:
  llvm.unreachable
^pick(%w: f32):
  cf.switch %flag : i32, [
    default: ^other(%w : f32),
    3: ^three,
    7: ^seven(%w : f32)
  ]
^three:
  %c = arith.constant 3.0 : f32
  cf.br ^other(%c : f32)
^seven(%s: f32):
  %d = arith.mulf %s, %s : f32
  cf.br ^other(%d : f32)
^other(%r: f32):
  func.return %r : f32
}

// CHECK-LABEL: switch(
// CHECK:       	ld.param.f32 	%f1, [switch_param_1];
// CHECK-NEXT:  	bra 	[[PICK:\$L__ori_[0-9]+]];
// CHECK-NEXT:  	trap;
// CHECK-NEXT:  	exit;
// CHECK-NEXT:  [[PICK]]:
// CHECK-NEXT:  	setp.eq.s32 	%p0, %r0, 3;
// CHECK-NEXT:  	@%p0 bra 	[[THREE:\$L__ori_[0-9]+]];
// CHECK-NEXT:  	setp.eq.s32 	%p1, %r0, 7;
// CHECK-NEXT:  	@%p1 bra 	[[SEVEN:\$L__ori_[0-9]+]];
// CHECK-NEXT:  	mov.f32 	%f0, %f1;
// CHECK-NEXT:  	bra 	[[OTHER:\$L__ori_[0-9]+]];
// CHECK-NEXT:  [[THREE]]:
// CHECK-NEXT:  	mov.f32 	%f0, 0f40400000;
// CHECK-NEXT:  	bra 	[[OTHER]];
// CHECK-NEXT:  [[SEVEN]]:
// CHECK-NEXT:  	mul.f32 	%f2, %f1, %f1;
// CHECK-NEXT:  	mov.f32 	%f0, %f2;
// CHECK-NEXT:  [[OTHER]]:
// CHECK-NEXT:  	st.param.f32 	[func_retval0], %f0;
// CHECK-NEXT:  	ret;

// -----

llvm.func @unreachable(%p: i1) {
  llvm.cond_br %p, ^bad, ^good
^bad:
  llvm.unreachable
^good:
  llvm.return
}

// CHECK-LABEL: unreachable(
// CHECK:       	@!%p0 bra 	[[GOOD:\$L__ori_[0-9]+]];
// CHECK-NEXT:  	trap;
// CHECK-NEXT:  	exit;
// CHECK-NEXT:  [[GOOD]]:
// CHECK-NEXT:  	ret;

// -----

// scf.if with results, scf.for with iter_args, scf.index_switch and scf.while are
// lowered to branches first.
func.func @structured(%n: index, %x: f32, %k: index) -> f32 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %zero = arith.constant 0.0 : f32
  %sum = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %zero) -> (f32) {
    %odd = arith.andi %i, %c1 : index
    %is_odd = arith.cmpi ne, %odd, %c0 : index
    %inc = scf.if %is_odd -> (f32) {
      scf.yield %x : f32
    } else {
      %neg = arith.negf %x : f32
      scf.yield %neg : f32
    }
    %next = arith.addf %acc, %inc : f32
    scf.yield %next : f32
  }
  %picked = scf.index_switch %k -> f32
  case 2 {
    %two = arith.constant 2.0 : f32
    scf.yield %two : f32
  }
  default {
    scf.yield %sum : f32
  }
  %halved = scf.while (%v = %picked) : (f32) -> f32 {
    %big = arith.cmpf ogt, %v, %x : f32
    scf.condition(%big) %v : f32
  } do {
  ^bb0(%u: f32):
    %half = arith.constant 0.5 : f32
    %h = arith.mulf %u, %half : f32
    scf.yield %h : f32
  }
  func.return %halved : f32
}

// CHECK-LABEL: structured(
// CHECK:       	setp.lt.s64 	%p{{[0-9]+}}, %rd{{[0-9]+}}, %rd{{[0-9]+}};
// CHECK:       	and.b64 	%rd{{[0-9]+}}, %rd{{[0-9]+}}, 1;
// CHECK-NEXT:  	setp.ne.s64 	%p{{[0-9]+}}, %rd{{[0-9]+}}, 0;
// CHECK:       	neg.f32
// CHECK:       	cvt.u32.u64 	%r[[CASE:[0-9]+]], %rd{{[0-9]+}};
// CHECK-NEXT:  	setp.eq.s32 	%p{{[0-9]+}}, %r[[CASE]], 2;
// CHECK:       	setp.gt.f32 	%p{{[0-9]+}}, %f{{[0-9]+}}, %f{{[0-9]+}};
// CHECK:       	mul.f32 	%f{{[0-9]+}}, %f{{[0-9]+}}, 0f3F000000;
