// RUN: stencil-opt %s --split-input-file --allow-unregistered-dialect \
// RUN:   --stencil-hoist-temporaries | FileCheck %s

// A step function with two temporaries, sized from a scalar argument and
// from an array argument, called in an scf.for that rotates the arrays.
// Both buffers are allocated before the loop (the array's extent read from
// the iter_arg's initial value) and freed after it; the call checks the
// sizes and allocates its own where they differ. The step takes the
// buffers as its last arguments and no longer allocates.

// CHECK-LABEL: func.func @loop(
// CHECK-SAME: %[[A:[a-z0-9]+]]: memref<?xf64>, %[[B:[a-z0-9]+]]: memref<?xf64>, %[[N:[a-z0-9]+]]: index
// CHECK: %[[S0:.*]] = affine.max #{{.*}}()[%[[N]]]
// CHECK: %[[BUF0:.*]] = memref.alloc(%[[S0]]) {alignment = 64 : i64} : memref<?xf64>
// CHECK: %[[D0:.*]] = memref.dim %[[A]], %{{.*}} : memref<?xf64>
// CHECK: %[[BUF1:.*]] = memref.alloc(%[[D0]]) : memref<?xf64>
// CHECK: scf.for {{.*}} iter_args(%[[X:.*]] = %[[A]], %[[Y:.*]] = %[[B]])
// CHECK:   %[[T0:.*]] = affine.max #{{.*}}()[%[[N]]]
// CHECK:   %[[OK0:.*]] = arith.cmpi eq, %[[T0]], %[[S0]] : index
// CHECK:   %[[P0:.*]] = scf.if %[[OK0]] -> (memref<?xf64>) {
// CHECK:     scf.yield %[[BUF0]] : memref<?xf64>
// CHECK:   } else {
// CHECK:     %[[OWN:.*]] = memref.alloc(%[[T0]]) {alignment = 64 : i64} : memref<?xf64>
// CHECK:     scf.yield %[[OWN]] : memref<?xf64>
// CHECK:   %[[T1:.*]] = memref.dim %[[X]], %{{.*}} : memref<?xf64>
// CHECK:   %[[OK1:.*]] = arith.cmpi eq, %[[T1]], %[[D0]] : index
// CHECK:   %[[P1:.*]] = scf.if %[[OK1]] -> (memref<?xf64>) {
// CHECK:     scf.yield %[[BUF1]] : memref<?xf64>
// CHECK:   func.call @step(%[[X]], %[[Y]], %[[N]], %[[P0]], %[[P1]])
// CHECK:   %[[NOT0:.*]] = arith.xori %[[OK0]], %{{.*}} : i1
// CHECK:   scf.if %[[NOT0]] {
// CHECK:     memref.dealloc %[[P0]] : memref<?xf64>
// CHECK:   %[[NOT1:.*]] = arith.xori %[[OK1]], %{{.*}} : i1
// CHECK:   scf.if %[[NOT1]] {
// CHECK:     memref.dealloc %[[P1]] : memref<?xf64>
// CHECK:   scf.yield %[[Y]], %[[X]]
// CHECK: }
// CHECK-DAG: memref.dealloc %[[BUF0]] : memref<?xf64>
// CHECK-DAG: memref.dealloc %[[BUF1]] : memref<?xf64>
// CHECK: return

// CHECK-LABEL: func.func private @step(
// CHECK-SAME: %{{[a-z0-9]+}}: index, %[[TMP0:[a-z0-9]+]]: memref<?xf64>, %[[TMP1:[a-z0-9]+]]: memref<?xf64>)
// CHECK-NOT: memref.alloc
// CHECK: stencil.store %{{.*}} to %[[TMP0]]
// CHECK: stencil.store %{{.*}} to %[[TMP1]]
// CHECK-NOT: memref.dealloc
// CHECK: return
#max = affine_map<()[s0] -> (s0, 0)>
func.func @loop(%a: memref<?xf64>, %b: memref<?xf64>, %n: index,
                %steps: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %r:2 = scf.for %t = %c0 to %steps step %c1 iter_args(%x = %a, %y = %b)
      -> (memref<?xf64>, memref<?xf64>) {
    func.call @step(%x, %y, %n) : (memref<?xf64>, memref<?xf64>, index) -> ()
    scf.yield %y, %x : memref<?xf64>, memref<?xf64>
  }
  return
}
func.func private @step(%x: memref<?xf64>, %y: memref<?xf64>, %n: index) {
  %c0 = arith.constant 0 : index
  %s = affine.max #max()[%n]
  %t0 = memref.alloc(%s) {alignment = 64 : i64} : memref<?xf64>
  %d = memref.dim %x, %c0 : memref<?xf64>
  %t1 = memref.alloc(%d) : memref<?xf64>
  stencil.domain (%i) = (0) to (%n) {
    %v = stencil.gather %x[0] : memref<?xf64>
    stencil.store %v to %t0 : memref<?xf64>
    stencil.store %v to %t1 : memref<?xf64>
  }
  stencil.domain (%i) = (0) to (%n) {
    %v = stencil.gather %t0[0] : memref<?xf64>
    %w = stencil.gather %t1[0] : memref<?xf64>
    %s2 = arith.addf %v, %w : f64
    stencil.store %s2 to %y : memref<?xf64>
  }
  memref.dealloc %t1 : memref<?xf64>
  memref.dealloc %t0 : memref<?xf64>
  return
}

// -----

// Two functions called one after the other in an scf.while, under
// conditionals, share one buffer (same type and sizes); the call outside
// the loop allocates around itself, as before. The anchor is the while
// loop: what the sizes need is defined above it.

// CHECK-LABEL: func.func @while(
// CHECK-SAME: %[[N:[a-z0-9]+]]: index
// CHECK: %[[BUF:.*]] = memref.alloc(%[[N]]) : memref<?xf64>
// CHECK-NOT: memref.alloc
// CHECK: scf.while
// CHECK: scf.if
// CHECK: scf.yield %[[BUF]] : memref<?xf64>
// CHECK: func.call @first(%[[N]], %{{.*}})
// CHECK: scf.yield %[[BUF]] : memref<?xf64>
// CHECK: func.call @second(%[[N]], %{{.*}})
// CHECK: }
// CHECK: memref.dealloc %[[BUF]] : memref<?xf64>
// CHECK: %[[OWN:.*]] = memref.alloc(%[[N]]) : memref<?xf64>
// CHECK-NEXT: call @first(%[[N]], %[[OWN]])
// CHECK-NEXT: memref.dealloc %[[OWN]] : memref<?xf64>
// CHECK-LABEL: func.func private @first(
// CHECK-SAME: %{{.*}}: index, %{{.*}}: memref<?xf64>)
// CHECK-LABEL: func.func private @second(
// CHECK-SAME: %{{.*}}: index, %{{.*}}: memref<?xf64>)
func.func @while(%n: index, %go: i1) {
  scf.while : () -> () {
    scf.condition(%go)
  } do {
    scf.if %go {
      func.call @first(%n) : (index) -> ()
      func.call @second(%n) : (index) -> ()
    }
    scf.yield
  }
  func.call @first(%n) : (index) -> ()
  return
}
func.func private @first(%n: index) {
  %t = memref.alloc(%n) : memref<?xf64>
  stencil.domain (%i) = (0) to (%n) {
    %one = arith.constant 1.0 : f64
    stencil.store %one to %t : memref<?xf64>
  }
  memref.dealloc %t : memref<?xf64>
  return
}
func.func private @second(%n: index) {
  %t = memref.alloc(%n) : memref<?xf64>
  stencil.domain (%i) = (0) to (%n) {
    %one = arith.constant 1.0 : f64
    stencil.store %one to %t : memref<?xf64>
  }
  memref.dealloc %t : memref<?xf64>
  return
}

// -----

// Left as they are: a size computed in the loop body (the loop cannot be
// left), a public function, a temporary that escapes through a call or is
// used by an op the pass does not know, one freed in a branch, and a
// function called outside loops only.

// CHECK-LABEL: func.func @kept(
// CHECK: scf.for
// CHECK: func.call @sized(%{{.*}}) : (index) -> ()
// CHECK: func.call @escapes(%{{.*}}) : (index) -> ()
// CHECK: func.call @unknown(%{{.*}}) : (index) -> ()
// CHECK: func.call @branch(%{{.*}}, %{{.*}}) : (index, i1) -> ()
// CHECK: func.call @public(%{{.*}}) : (index) -> ()
// CHECK: call @outside(%{{.*}}) : (index) -> ()
// CHECK-LABEL: func.func private @sized(
// CHECK: memref.alloc
// CHECK-LABEL: func.func private @escapes(
// CHECK: memref.alloc
// CHECK-LABEL: func.func private @unknown(
// CHECK: memref.alloc
// CHECK-LABEL: func.func private @branch(
// CHECK: memref.alloc
// CHECK-LABEL: func.func @public(
// CHECK: memref.alloc
// CHECK-LABEL: func.func private @outside(
// CHECK: memref.alloc
func.func @kept(%n: index, %go: i1) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  scf.for %t = %c0 to %n step %c1 {
    %m = arith.addi %t, %c1 : index
    func.call @sized(%m) : (index) -> ()
    func.call @escapes(%n) : (index) -> ()
    func.call @unknown(%n) : (index) -> ()
    func.call @branch(%n, %go) : (index, i1) -> ()
    func.call @public(%n) : (index) -> ()
  }
  func.call @outside(%n) : (index) -> ()
  return
}
func.func private @sized(%n: index) {
  %t = memref.alloc(%n) : memref<?xf64>
  stencil.domain (%i) = (0) to (%n) {
    %one = arith.constant 1.0 : f64
    stencil.store %one to %t : memref<?xf64>
  }
  memref.dealloc %t : memref<?xf64>
  return
}
func.func private @escapes(%n: index) {
  %t = memref.alloc(%n) : memref<?xf64>
  func.call @use(%t) : (memref<?xf64>) -> ()
  memref.dealloc %t : memref<?xf64>
  return
}
func.func private @use(memref<?xf64>)
func.func private @unknown(%n: index) {
  %t = memref.alloc(%n) : memref<?xf64>
  "test.unknown"(%t) : (memref<?xf64>) -> ()
  memref.dealloc %t : memref<?xf64>
  return
}
func.func private @branch(%n: index, %go: i1) {
  %t = memref.alloc(%n) : memref<?xf64>
  scf.if %go {
    memref.dealloc %t : memref<?xf64>
  }
  return
}
func.func @public(%n: index) {
  %t = memref.alloc(%n) : memref<?xf64>
  memref.dealloc %t : memref<?xf64>
  return
}
func.func private @outside(%n: index) {
  %t = memref.alloc(%n) : memref<?xf64>
  memref.dealloc %t : memref<?xf64>
  return
}
