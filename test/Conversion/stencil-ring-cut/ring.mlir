// RUN: stencil-opt %s --split-input-file --stencil-ring-cut | FileCheck %s

// A cut's fill nest (the temporary at plane i) and the gather nest that
// reads it at planes i - 1 and i + 1 become one parallel loop over blocks
// of dimension 0, one per thread. Each block fills a ring of 3 planes:
// before its first plane the planes start - 1 and start, then, before the
// rows of plane i, plane i + 1, where it is one of the fill's planes
// [1, n - 1). The loads and the store go to the ring at plane mod 3; the
// temporary is gone.

// CHECK-LABEL: func.func @ring(
// CHECK-SAME:  %[[U:[a-z0-9]+]]: memref<?x?xf64>, %[[OUT:[a-z0-9]+]]: memref<?x?xf64>, %[[N:[a-z0-9]+]]: index
// CHECK-NOT:   memref.alloc
// CHECK:       call @omp_get_max_threads()
// CHECK:       affine.parallel (%[[C:.*]]) = (0) to (symbol(%[[CHUNKS:.*]])) {
// CHECK-NEXT:    %[[R:.*]] = memref.alloc(%[[N]]) {alignment = 64 : i64} : memref<3x?xf64>
// CHECK-NEXT:    affine.for %[[P:.*]] = #[[PRO_LB:.*]](%[[C]])[%[[N]], %[[N]], %{{.*}}] to #[[PRO_UB:.*]](%[[C]])[%[[N]], %[[N]], %{{.*}}] {
// CHECK-NEXT:      affine.if #{{.*}}(%[[P]])[%[[N]], %[[N]]] {
// CHECK-NEXT:        affine.for %[[J:.*]] = 0 to %[[N]] {
// CHECK-NEXT:          affine.load %[[U]][%[[P]], %[[J]]]
// CHECK-NEXT:          arith.mulf
// CHECK-NEXT:          affine.store %{{.*}}, %[[R]][%[[P]] mod 3, %[[J]]]
// CHECK:         affine.for %[[I:.*]] = #{{.*}}(%[[C]])[%[[N]], %[[N]], %{{.*}}] to min #{{.*}}(%[[C]])[%[[N]], %[[N]], %{{.*}}] {
// CHECK-NEXT:      affine.if #{{.*}}(%[[I]])[%[[N]], %[[N]]] {
// CHECK-NEXT:        %[[NEXT:.*]] = affine.apply #{{.*}}(%[[I]])
// CHECK-NEXT:        affine.for %[[J2:.*]] = 0 to %[[N]] {
// CHECK-NEXT:          affine.load %[[U]][%[[NEXT]], %[[J2]]]
// CHECK-NEXT:          arith.mulf
// CHECK-NEXT:          affine.store %{{.*}}, %[[R]][%[[NEXT]] mod 3, %[[J2]]]
// CHECK:           affine.for %[[J3:.*]] = 0 to %[[N]] {
// CHECK-NEXT:        affine.load %[[R]][(%[[I]] - 1) mod 3, %[[J3]]]
// CHECK-NEXT:        affine.load %[[R]][(%[[I]] + 1) mod 3, %[[J3]]]
// CHECK-NEXT:        arith.addf
// CHECK-NEXT:        affine.store %{{.*}}, %[[OUT]][%[[I]], %[[J3]]]
// CHECK:         memref.dealloc %[[R]] : memref<3x?xf64>
// CHECK-NOT:   memref.dealloc
// CHECK:       return
// CHECK:       func.func private @omp_get_max_threads() -> i32
func.func @ring(%u: memref<?x?xf64>, %out: memref<?x?xf64>, %n: index)
    attributes {stencil.noalias} {
  %t = memref.alloc(%n, %n) {alignment = 64 : i64} : memref<?x?xf64>
  affine.parallel (%i) = (1) to (symbol(%n) - 1) {
    affine.for %j = 0 to %n {
      %v = affine.load %u[%i, %j] : memref<?x?xf64>
      %w = arith.mulf %v, %v : f64
      affine.store %w, %t[%i, %j] : memref<?x?xf64>
    }
  }
  affine.parallel (%i) = (2) to (symbol(%n) - 2) {
    affine.for %j = 0 to %n {
      %a = affine.load %t[%i - 1, %j] : memref<?x?xf64>
      %b = affine.load %t[%i + 1, %j] : memref<?x?xf64>
      %s = arith.addf %a, %b : f64
      affine.store %s, %out[%i, %j] : memref<?x?xf64>
    }
  }
  memref.dealloc %t : memref<?x?xf64>
  return
}

// -----

// Left as they are: a function whose arrays may overlap (no
// stencil.noalias), a gather nest that writes what the fill reads, a fill
// that writes another array too, and reads only ahead of the plane (the
// ring must hold the plane itself).

// CHECK-LABEL: func.func @may_alias(
// CHECK:         memref.alloc(%{{.*}}, %{{.*}}) {alignment = 64 : i64} : memref<?x?xf64>
// CHECK-NOT:     mod
// CHECK-LABEL: func.func @writes_fill_input(
// CHECK:         memref.alloc(%{{.*}}, %{{.*}}) {alignment = 64 : i64} : memref<?x?xf64>
// CHECK-NOT:     mod
// CHECK-LABEL: func.func @fill_writes_more(
// CHECK:         memref.alloc(%{{.*}}, %{{.*}}) {alignment = 64 : i64} : memref<?x?xf64>
// CHECK-NOT:     mod
// CHECK-LABEL: func.func @ahead(
// CHECK:         memref.alloc(%{{.*}}, %{{.*}}) {alignment = 64 : i64} : memref<?x?xf64>
// CHECK-NOT:     mod
func.func @may_alias(%u: memref<?x?xf64>, %out: memref<?x?xf64>, %n: index) {
  %t = memref.alloc(%n, %n) {alignment = 64 : i64} : memref<?x?xf64>
  affine.parallel (%i) = (1) to (symbol(%n) - 1) {
    affine.for %j = 0 to %n {
      %v = affine.load %u[%i, %j] : memref<?x?xf64>
      affine.store %v, %t[%i, %j] : memref<?x?xf64>
    }
  }
  affine.parallel (%i) = (2) to (symbol(%n) - 2) {
    affine.for %j = 0 to %n {
      %a = affine.load %t[%i - 1, %j] : memref<?x?xf64>
      affine.store %a, %out[%i, %j] : memref<?x?xf64>
    }
  }
  memref.dealloc %t : memref<?x?xf64>
  return
}
func.func @writes_fill_input(%u: memref<?x?xf64>, %n: index)
    attributes {stencil.noalias} {
  %t = memref.alloc(%n, %n) {alignment = 64 : i64} : memref<?x?xf64>
  affine.parallel (%i) = (1) to (symbol(%n) - 1) {
    affine.for %j = 0 to %n {
      %v = affine.load %u[%i, %j] : memref<?x?xf64>
      affine.store %v, %t[%i, %j] : memref<?x?xf64>
    }
  }
  affine.parallel (%i) = (2) to (symbol(%n) - 2) {
    affine.for %j = 0 to %n {
      %a = affine.load %t[%i - 1, %j] : memref<?x?xf64>
      affine.store %a, %u[%i, %j] : memref<?x?xf64>
    }
  }
  memref.dealloc %t : memref<?x?xf64>
  return
}
func.func @fill_writes_more(%u: memref<?x?xf64>, %out: memref<?x?xf64>,
                            %n: index) attributes {stencil.noalias} {
  %t = memref.alloc(%n, %n) {alignment = 64 : i64} : memref<?x?xf64>
  affine.parallel (%i) = (1) to (symbol(%n) - 1) {
    affine.for %j = 0 to %n {
      %v = affine.load %u[%i, %j] : memref<?x?xf64>
      affine.store %v, %t[%i, %j] : memref<?x?xf64>
      affine.store %v, %out[%i, %j] : memref<?x?xf64>
    }
  }
  affine.parallel (%i) = (2) to (symbol(%n) - 2) {
    affine.for %j = 0 to %n {
      %a = affine.load %t[%i - 1, %j] : memref<?x?xf64>
      affine.store %a, %out[%i, %j] : memref<?x?xf64>
    }
  }
  memref.dealloc %t : memref<?x?xf64>
  return
}
func.func @ahead(%u: memref<?x?xf64>, %out: memref<?x?xf64>, %n: index)
    attributes {stencil.noalias} {
  %t = memref.alloc(%n, %n) {alignment = 64 : i64} : memref<?x?xf64>
  affine.parallel (%i) = (1) to (symbol(%n) - 1) {
    affine.for %j = 0 to %n {
      %v = affine.load %u[%i, %j] : memref<?x?xf64>
      affine.store %v, %t[%i, %j] : memref<?x?xf64>
    }
  }
  affine.parallel (%i) = (0) to (symbol(%n) - 3) {
    affine.for %j = 0 to %n {
      %a = affine.load %t[%i + 1, %j] : memref<?x?xf64>
      %b = affine.load %t[%i + 2, %j] : memref<?x?xf64>
      %s = arith.addf %a, %b : f64
      affine.store %s, %out[%i, %j] : memref<?x?xf64>
    }
  }
  memref.dealloc %t : memref<?x?xf64>
  return
}
