// RUN: stencil-opt %s --stencil-check-gpu -split-input-file -verify-diagnostics

// What the GPU route cannot run yet, reported at the op before anything is
// lowered (lib/GPU/CheckGPU.cpp).

// A domain without results, reading at offsets: supported (no error).
func.func @ok(%a: memref<?xf64>, %b: memref<?xf64>, %n: index) {
  %t = memref.alloc(%n) : memref<?xf64>
  stencil.domain (%i) = (1) to (%n) {
    %v = stencil.gather %b[-1] : memref<?xf64>
    stencil.store %v to %a : memref<?xf64>
  }
  memref.dealloc %t : memref<?xf64>
  return
}

// -----

func.func @sum(%a: memref<?xf64>, %n: index) -> f64 {
  // expected-error @+1 {{computes sums over its points, which the GPU pipeline does not support yet}}
  %s = stencil.domain (%i) = (0) to (%n) -> f64 {
    %v = stencil.gather %a[0] : memref<?xf64>
    stencil.yield %v : f64
  }
  return %s : f64
}

// -----

func.func @time_loop(%a: memref<?xf64>, %b: memref<?xf64>, %n: index, %t: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  // expected-error @+1 {{is a loop outside stencil domains (a time loop?), which the GPU pipeline does not support yet}}
  scf.for %s = %c0 to %t step %c1 {
    stencil.domain (%i) = (1) to (%n) {
      %v = stencil.gather %b[-1] : memref<?xf64>
      stencil.store %v to %a : memref<?xf64>
    }
  }
  return
}

// -----

func.func private @helper(%a: memref<?xf64>)

func.func @call(%a: memref<?xf64>) {
  // expected-error @+1 {{is a call, which the GPU pipeline does not support yet}}
  func.call @helper(%a) : (memref<?xf64>) -> ()
  return
}

// -----

func.func @host_load(%a: memref<?xf64>, %w: memref<?xf64>, %n: index) {
  %c0 = arith.constant 0 : index
  // expected-error @+1 {{accesses array elements outside stencil domains, on the host}}
  %x = memref.load %w[%c0] : memref<?xf64>
  stencil.domain (%i) = (0) to (%n) {
    stencil.store %x to %a : memref<?xf64>
  }
  return
}

// -----

// expected-error @+1 {{is distributed over MPI (stencil.distribution), which the GPU pipeline does not support yet}}
func.func @distributed(%a: memref<?xf64>) attributes {stencil.distribution = {grid = array<i64: 2>, halo = 1 : i64}} {
  return
}

// -----

// A domain that scatters is fine (scatter=gather or atomic follow);
// check-serial.mlir refuses it with serial-scatter.
func.func @scatter(%r: memref<?xf64>, %x: memref<?xf64>, %n: index) {
  stencil.domain (%i) = (1) to (%n) {
    %v = stencil.gather %x[0] : memref<?xf64>
    stencil.accumulate %v to %r[-1] : memref<?xf64>
  }
  return
}
