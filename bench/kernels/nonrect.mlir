//===- nonrect.mlir - Nonrectangular domains and their bounding boxes -----===//
//
// The kernels of stencil-bench-nonrect (bench/BenchNonrect.cpp): two
// nonrectangular domains, each beside the same stencil on its bounding box,
// so that the adjoint/primal ratio of a domain can be set against the
// box's (docs/Performance.md). Both stencils are linear.
//
//   triangle      i in [1, n-1), j in [i, n-1): a 5-point star with a
//                 passive coefficient array
//   triangle_box  the same star on i, j in [1, n-1)
//   wedge         i, j in [1, n-1), k in [max(1, i-j), min(n-1, i+j)): a
//                 7-point leapfrog step r = 2u - u2 + D lap(u)
//   wedge_box     the same step on i, j, k in [1, n-1)
//
//===----------------------------------------------------------------------===//

func.func @triangle(%r: memref<?x?xf64> {stencil.active},
                    %u: memref<?x?xf64> {stencil.active},
                    %c: memref<?x?xf64>, %n: index) {
  stencil.domain (%i, %j) = (1, %i) to (%n - 1, %n - 1) {
    %four = arith.constant 4.0 : f64
    %uc = stencil.gather %u[0, 0] : memref<?x?xf64>
    %un = stencil.gather %u[-1, 0] : memref<?x?xf64>
    %us = stencil.gather %u[1, 0] : memref<?x?xf64>
    %uw = stencil.gather %u[0, -1] : memref<?x?xf64>
    %ue = stencil.gather %u[0, 1] : memref<?x?xf64>
    %cc = stencil.gather %c[0, 0] : memref<?x?xf64>
    %centre = arith.mulf %four, %uc : f64
    %a = arith.subf %centre, %un : f64
    %b = arith.subf %a, %us : f64
    %d = arith.subf %b, %uw : f64
    %e = arith.subf %d, %ue : f64
    %v = arith.mulf %cc, %e : f64
    stencil.store %v to %r : memref<?x?xf64>
  }
  return
}

func.func @triangle_box(%r: memref<?x?xf64> {stencil.active},
                        %u: memref<?x?xf64> {stencil.active},
                        %c: memref<?x?xf64>, %n: index) {
  stencil.domain (%i, %j) = (1, 1) to (%n - 1, %n - 1) {
    %four = arith.constant 4.0 : f64
    %uc = stencil.gather %u[0, 0] : memref<?x?xf64>
    %un = stencil.gather %u[-1, 0] : memref<?x?xf64>
    %us = stencil.gather %u[1, 0] : memref<?x?xf64>
    %uw = stencil.gather %u[0, -1] : memref<?x?xf64>
    %ue = stencil.gather %u[0, 1] : memref<?x?xf64>
    %cc = stencil.gather %c[0, 0] : memref<?x?xf64>
    %centre = arith.mulf %four, %uc : f64
    %a = arith.subf %centre, %un : f64
    %b = arith.subf %a, %us : f64
    %d = arith.subf %b, %uw : f64
    %e = arith.subf %d, %ue : f64
    %v = arith.mulf %cc, %e : f64
    stencil.store %v to %r : memref<?x?xf64>
  }
  return
}

func.func @wedge(%r: memref<?x?x?xf64> {stencil.active},
                 %u: memref<?x?x?xf64> {stencil.active},
                 %u2: memref<?x?x?xf64> {stencil.active},
                 %D: f64, %n: index) {
  stencil.domain (%i, %j, %k) = (1, 1, max(1, %i - %j))
                             to (%n - 1, %n - 1, min(%n - 1, %i + %j)) {
    %two = arith.constant 2.0 : f64
    %six = arith.constant 6.0 : f64
    %c = stencil.gather %u[0, 0, 0] : memref<?x?x?xf64>
    %im = stencil.gather %u[-1, 0, 0] : memref<?x?x?xf64>
    %ip = stencil.gather %u[1, 0, 0] : memref<?x?x?xf64>
    %jm = stencil.gather %u[0, -1, 0] : memref<?x?x?xf64>
    %jp = stencil.gather %u[0, 1, 0] : memref<?x?x?xf64>
    %km = stencil.gather %u[0, 0, -1] : memref<?x?x?xf64>
    %kp = stencil.gather %u[0, 0, 1] : memref<?x?x?xf64>
    %old = stencil.gather %u2[0, 0, 0] : memref<?x?x?xf64>
    %s1 = arith.addf %im, %ip : f64
    %s2 = arith.addf %s1, %jm : f64
    %s3 = arith.addf %s2, %jp : f64
    %s4 = arith.addf %s3, %km : f64
    %s5 = arith.addf %s4, %kp : f64
    %c6 = arith.mulf %six, %c : f64
    %lap = arith.subf %s5, %c6 : f64
    %dl = arith.mulf %D, %lap : f64
    %c2 = arith.mulf %two, %c : f64
    %a = arith.subf %c2, %old : f64
    %v = arith.addf %a, %dl : f64
    stencil.store %v to %r : memref<?x?x?xf64>
  }
  return
}

func.func @wedge_box(%r: memref<?x?x?xf64> {stencil.active},
                     %u: memref<?x?x?xf64> {stencil.active},
                     %u2: memref<?x?x?xf64> {stencil.active},
                     %D: f64, %n: index) {
  stencil.domain (%i, %j, %k) = (1, 1, 1) to (%n - 1, %n - 1, %n - 1) {
    %two = arith.constant 2.0 : f64
    %six = arith.constant 6.0 : f64
    %c = stencil.gather %u[0, 0, 0] : memref<?x?x?xf64>
    %im = stencil.gather %u[-1, 0, 0] : memref<?x?x?xf64>
    %ip = stencil.gather %u[1, 0, 0] : memref<?x?x?xf64>
    %jm = stencil.gather %u[0, -1, 0] : memref<?x?x?xf64>
    %jp = stencil.gather %u[0, 1, 0] : memref<?x?x?xf64>
    %km = stencil.gather %u[0, 0, -1] : memref<?x?x?xf64>
    %kp = stencil.gather %u[0, 0, 1] : memref<?x?x?xf64>
    %old = stencil.gather %u2[0, 0, 0] : memref<?x?x?xf64>
    %s1 = arith.addf %im, %ip : f64
    %s2 = arith.addf %s1, %jm : f64
    %s3 = arith.addf %s2, %jp : f64
    %s4 = arith.addf %s3, %km : f64
    %s5 = arith.addf %s4, %kp : f64
    %c6 = arith.mulf %six, %c : f64
    %lap = arith.subf %s5, %c6 : f64
    %dl = arith.mulf %D, %lap : f64
    %c2 = arith.mulf %two, %c : f64
    %a = arith.subf %c2, %old : f64
    %v = arith.addf %a, %dl : f64
    stencil.store %v to %r : memref<?x?x?xf64>
  }
  return
}
