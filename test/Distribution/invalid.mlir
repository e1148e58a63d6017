// RUN: stencil-opt %s --stencil-distribute="grid=2" -split-input-file -verify-diagnostics

// Forms --stencil-distribute does not support yet are reported at the op.

func.func @rank2(%u: memref<?x?xf64>, %v: memref<?x?xf64>, %n: index) {
  // expected-error @below {{has rank 2; distributing it over a process grid of rank 1 is not supported yet}}
  stencil.domain (%i, %j) = (0, 0) to (%n, %n) {
    %x = stencil.gather %u[0, 0] : memref<?x?xf64>
    stencil.store %x to %v : memref<?x?xf64>
  }
  return
}

// -----

func.func @static(%u: memref<8xf64>, %v: memref<?xf64>, %n: index) {
  stencil.domain (%i) = (1) to (%n) {
    // expected-error @below {{accesses an array of type 'memref<8xf64>'; a distributed array must be dynamically shaped, of the grid's rank (1) and of identity layout}}
    %x = stencil.gather %u[-1] : memref<8xf64>
    stencil.store %x to %v : memref<?xf64>
  }
  return
}

// -----

func.func @temporary(%v: memref<?xf64>, %n: index) {
  // expected-error @below {{'memref.alloc' op is not supported yet in a function distributed by --stencil-distribute}}
  %t = memref.alloc(%n) : memref<?xf64>
  stencil.domain (%i) = (1) to (%n) {
    %x = stencil.gather %t[-1] : memref<?xf64>
    stencil.store %x to %v : memref<?xf64>
  }
  return
}

// -----

func.func @loop(%u: memref<?xf64>, %v: memref<?xf64>, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  // expected-error @below {{'scf.for' op is not supported yet in a function distributed by --stencil-distribute}}
  scf.for %t = %c0 to %n step %c1 {
    stencil.domain (%i) = (1) to (%n) {
      %x = stencil.gather %u[-1] : memref<?xf64>
      stencil.store %x to %v : memref<?xf64>
    }
  }
  return
}

// -----

func.func @view(%u: memref<?xf64>, %v: memref<?xf64>, %n: index) {
  %w = memref.subview %u[1] [%n] [1] : memref<?xf64> to memref<?xf64, strided<[1], offset: 1>>
  stencil.domain (%i) = (1) to (%n) {
    // expected-error @below {{accesses an array that is not an argument of the function; distributing it is not supported yet}}
    %x = stencil.gather %w[-1] : memref<?xf64, strided<[1], offset: 1>>
    stencil.store %x to %v : memref<?xf64>
  }
  return
}

// -----

func.func @permuted(%u: memref<?xf64>, %v: memref<?xf64>, %n: index) {
  stencil.domain (%i) = (1) to (%n) {
    %x = stencil.gather %u[-1] : memref<?xf64>
    %y = arith.negf %x : f64
    stencil.store %y to %v : memref<?xf64>
  }
  %c = arith.constant 0 : index
  // expected-error @below {{'memref.load' op is not supported yet in a function distributed by --stencil-distribute}}
  %z = memref.load %u[%c] : memref<?xf64>
  return
}
