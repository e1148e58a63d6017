// RUN: stencil-opt %s --stencil-distribute="grid=2,1" -split-input-file -verify-diagnostics

// Reductions (accumulates whose `dims` are not a permutation) into an
// array are refused at the accumulate in a distributed function: each rank
// would sum only its block's points into its own copy of the array.

// The gradient of a per-column coefficient c[j]: a selection.
func.func @selection(%u: memref<?x?xf64>, %c: memref<?xf64>,
                     %cb: memref<?xf64>, %n: index) {
  %c1 = arith.constant 1 : index
  %nm1 = arith.subi %n, %c1 : index
  stencil.domain (%i, %j) = (1, 1) to (%nm1, %nm1) {
    %a = stencil.gather %u[-1, 0] : memref<?x?xf64>
    // expected-error @below {{'stencil.accumulate' op sums into an array across ranks (a reduction: its `dims` are not a permutation of the iteration dimensions), which is not supported yet in a distributed function}}
    stencil.accumulate %a to %cb[0] dims [1] : memref<?xf64>
  }
  return
}

// -----

// A rank-0 array (a global parameter held in memory).
func.func @scalar(%u: memref<?x?xf64>, %sb: memref<f64>, %n: index) {
  stencil.domain (%i, %j) = (0, 0) to (%n, %n) {
    %a = stencil.gather %u[0, 0] : memref<?x?xf64>
    // expected-error @below {{sums into an array across ranks (a reduction}}
    stencil.accumulate %a to %sb[] dims [] : memref<f64>
  }
  return
}

// -----

// A filter tap w[1][2] (fixed elements), into an array of the grid's rank.
func.func @fixed(%u: memref<?x?xf64>, %wb: memref<?x?xf64>, %n: index) {
  stencil.domain (%i, %j) = (0, 0) to (%n, %n) {
    %a = stencil.gather %u[0, 0] : memref<?x?xf64>
    // expected-error @below {{sums into an array across ranks (a reduction}}
    stencil.accumulate %a to %wb[1, 2] dims [_, _] : memref<?x?xf64>
  }
  return
}

// -----

// A diagonal read of a distributed array: not a permutation either.
func.func @diagonal(%u: memref<?x?xf64>, %v: memref<?x?xf64>, %n: index) {
  stencil.domain (%i, %j) = (0, 0) to (%n, %n) {
    // expected-error @below {{reads a block of a distributed array through `dims` that are not a permutation (a selection, repetition or fixed element); distributing it is not supported yet}}
    %a = stencil.gather %u[0, 0] dims [0, 0] : memref<?x?xf64>
    stencil.store %a to %v : memref<?x?xf64>
  }
  return
}
