// RUN: stencil-opt %s --stencil-omp-pragmas | FileCheck %s

// The outermost parallel loop without results gets the pragma right before
// it; nested ones do not (one level of threads); a loop of two dimensions
// collapses both; a parallel loop with a result (a reduction) runs serially:
// OpenMP's reduction clause would sum in an order that depends on the
// threads.

// CHECK-LABEL: func.func @nested(
// CHECK: emitc.verbatim "#pragma omp parallel for" {c_omp_pragma}
// CHECK-NEXT: scf.parallel
// CHECK-NOT: emitc.verbatim
// CHECK: scf.parallel
func.func @nested(%a: memref<?x?xf64>, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %x = arith.constant 1.0 : f64
  scf.parallel (%i) = (%c0) to (%n) step (%c1) {
    scf.parallel (%j) = (%c0) to (%n) step (%c1) {
      memref.store %x, %a[%i, %j] : memref<?x?xf64>
      scf.reduce
    }
    scf.reduce
  }
  return
}

// CHECK-LABEL: func.func @two_dims(
// CHECK: emitc.verbatim "#pragma omp parallel for collapse(2)" {c_omp_pragma}
// CHECK-NEXT: scf.parallel
func.func @two_dims(%a: memref<?x?xf64>, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %x = arith.constant 1.0 : f64
  scf.parallel (%i, %j) = (%c0, %c0) to (%n, %n) step (%c1, %c1) {
    memref.store %x, %a[%i, %j] : memref<?x?xf64>
    scf.reduce
  }
  return
}

// CHECK-LABEL: func.func @reduction(
// CHECK-NOT: emitc.verbatim
// CHECK: scf.parallel
func.func @reduction(%a: memref<?xf64>, %n: index) -> f64 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %zero = arith.constant 0.0 : f64
  %sum = scf.parallel (%i) = (%c0) to (%n) step (%c1) init (%zero) -> f64 {
    %v = memref.load %a[%i] : memref<?xf64>
    scf.reduce(%v : f64) {
    ^bb0(%l: f64, %r: f64):
      %s = arith.addf %l, %r : f64
      scf.reduce.return %s : f64
    }
  }
  return %sum : f64
}
