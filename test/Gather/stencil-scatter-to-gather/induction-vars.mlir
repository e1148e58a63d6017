// RUN: stencil-opt %s --stencil-scatter-to-gather | FileCheck %s
// RUN: stencil-opt %s --stencil-scatter-to-gather=boundary=exact | FileCheck %s --check-prefix=EXACT

// A body may use the induction variables (a position-dependent
// coefficient). A statement shifted by -o evaluates the body at q - o, so
// each use of %i becomes q - o: here q + 1 for the accumulate at offset -1.
// CHECK: #[[$SHIFT:.*]] = affine_map<(d0) -> (d0 + 1)>
// CHECK-LABEL: func.func @position
// CHECK: scf.if
// CHECK: affine.parallel (%[[Q:.*]]) =
// CHECK: %[[P:.*]] = affine.apply #[[$SHIFT]](%[[Q]])
// CHECK: %[[K:.*]] = arith.index_cast %[[P]] : index to i64
// CHECK: arith.sitofp %[[K]] : i64 to f64
// EXACT-LABEL: func.func @position
// EXACT: affine.apply
// EXACT-NOT: stencil.domain
func.func @position(%r: memref<?xf64>, %n: index) {
  stencil.domain (%i) = (1) to (%n) {
    %k = arith.index_cast %i : index to i64
    %x = arith.sitofp %k : i64 to f64
    stencil.accumulate %x to %r[-1] : memref<?xf64>
  }
  return
}
