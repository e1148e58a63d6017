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

// Sums over points run on the device (the partial sums and their sum in
// kernels, the total read back: docs/GPU.md). No error.
func.func @sum(%a: memref<?xf64>, %n: index) -> f64 {
  %s = stencil.domain (%i) = (0) to (%n) -> f64 {
    %v = stencil.gather %a[0] : memref<?xf64>
    stencil.yield %v : f64
  }
  return %s : f64
}

// -----

// A time loop stays on the host and launches its domains' kernels every
// step (the adjoint of a time loop likewise: docs/GPU.md). No error.
func.func @time_loop(%a: memref<?xf64>, %b: memref<?xf64>, %n: index, %t: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  scf.for %s = %c0 to %t step %c1 {
    stencil.domain (%i) = (1) to (%n) {
      %v = stencil.gather %b[-1] : memref<?xf64>
      stencil.store %v to %a : memref<?xf64>
    }
  }
  return
}

// -----

// The host calls the module's functions (each launches its own kernels)
// and the checkpointing run-time library; nothing else. No error for the
// first two calls.
func.func private @step(%a: memref<?xf64>, %b: memref<?xf64>, %n: index) {
  stencil.domain (%i) = (0) to (%n) {
    %v = stencil.gather %a[0] : memref<?xf64>
    %w = arith.mulf %v, %v : f64
    stencil.store %w to %b : memref<?xf64>
  }
  return
}
func.func private @stencil_ckpt_step_action(!llvm.ptr) -> i64
// expected-note @+1 {{see here}}
func.func private @helper(%a: memref<?xf64>)

func.func @call(%a: memref<?xf64>, %b: memref<?xf64>, %n: index, %s: !llvm.ptr) {
  func.call @step(%a, %b, %n) : (memref<?xf64>, memref<?xf64>, index) -> ()
  %k = func.call @stencil_ckpt_step_action(%s) : (!llvm.ptr) -> i64
  // expected-error @+1 {{calls @helper, which has no body in this module, on the host, where the GPU pipeline's arrays are device memory}}
  func.call @helper(%a) : (memref<?xf64>) -> ()
  return
}

// -----

// Calls inside domains run on the device when the callee, and every
// function it calls, has a body free of memory effects: kernel outlining
// copies them into the kernels' module. No error.
func.func private @square(%x: f64) -> f64 {
  %y = arith.mulf %x, %x : f64
  return %y : f64
}
func.func private @smooth(%x: f64) -> f64 {
  %s = func.call @square(%x) : (f64) -> f64
  %y = math.sin %s : f64
  return %y : f64
}
func.func @pure_call(%a: memref<?xf64>, %b: memref<?xf64>, %n: index) {
  stencil.domain (%i) = (1) to (%n) {
    %v = stencil.gather %b[-1] : memref<?xf64>
    %w = func.call @smooth(%v) : (f64) -> f64
    %u = func.call @square(%w) : (f64) -> f64
    stencil.store %u to %a : memref<?xf64>
  }
  return
}

// -----

// expected-note @+1 {{see here}}
func.func private @external(%x: f64) -> f64

func.func @external_call(%a: memref<?xf64>, %b: memref<?xf64>, %n: index) {
  stencil.domain (%i) = (0) to (%n) {
    %v = stencil.gather %b[0] : memref<?xf64>
    // expected-error @+1 {{calls @external, which has no body in this module; the GPU pipeline runs calls only to functions defined in the module}}
    %w = func.call @external(%v) : (f64) -> f64
    stencil.store %w to %a : memref<?xf64>
  }
  return
}

// -----

// A callee that calls one without a body: reported at the domain's call.
// expected-note @+1 {{see here}}
func.func private @leaf(%x: f64) -> f64
func.func private @middle(%x: f64) -> f64 {
  %y = func.call @leaf(%x) : (f64) -> f64
  return %y : f64
}

func.func @nested_call(%a: memref<?xf64>, %b: memref<?xf64>, %n: index) {
  stencil.domain (%i) = (0) to (%n) {
    %v = stencil.gather %b[0] : memref<?xf64>
    // expected-error @+1 {{calls @leaf, which has no body in this module}}
    %w = func.call @middle(%v) : (f64) -> f64
    stencil.store %w to %a : memref<?xf64>
  }
  return
}

// -----

func.func private @reads(%x: f64) -> f64 {
  %c0 = arith.constant 0 : index
  // expected-note @+1 {{see here}}
  %m = memref.alloca() : memref<1xf64>
  memref.store %x, %m[%c0] : memref<1xf64>
  %y = memref.load %m[%c0] : memref<1xf64>
  return %y : f64
}

func.func @memory_call(%a: memref<?xf64>, %b: memref<?xf64>, %n: index) {
  stencil.domain (%i) = (0) to (%n) {
    %v = stencil.gather %b[0] : memref<?xf64>
    // expected-error @+1 {{calls @reads, which accesses memory; the GPU pipeline runs calls only to functions defined in the module}}
    %w = func.call @reads(%v) : (f64) -> f64
    stencil.store %w to %a : memref<?xf64>
  }
  return
}

// -----

// expected-note @+1 {{see here}}
func.func private @loop(%x: f64) -> f64 {
  %y = func.call @loop(%x) : (f64) -> f64
  return %y : f64
}

func.func @recursive_call(%a: memref<?xf64>, %b: memref<?xf64>, %n: index) {
  stencil.domain (%i) = (0) to (%n) {
    %v = stencil.gather %b[0] : memref<?xf64>
    // expected-error @+1 {{calls @loop, which is recursive; the GPU pipeline runs calls only to functions defined in the module}}
    %w = func.call @loop(%v) : (f64) -> f64
    stencil.store %w to %a : memref<?xf64>
  }
  return
}

// -----

// The host reads f64 and f32 elements (copied back one by one: FWI's
// source wavelet), no other type, and writes none.
func.func @host_load(%a: memref<?xf64>, %w: memref<?xf64>, %n: index) {
  %c0 = arith.constant 0 : index
  %x = memref.load %w[%c0] : memref<?xf64>
  stencil.domain (%i) = (0) to (%n) {
    stencil.store %x to %a : memref<?xf64>
  }
  return
}

// -----

func.func @host_index_load(%a: memref<?xf64>, %b: memref<?xf64>, %p: memref<?xindex>) {
  %c0 = arith.constant 0 : index
  // expected-error @+1 {{reads an element of type 'index' on the host, where the GPU pipeline's arrays are device memory; only f32 and f64 elements are read back}}
  %k = memref.load %p[%c0] : memref<?xindex>
  stencil.domain (%i) = (0) to (%k) {
    %v = stencil.gather %a[0] : memref<?xf64>
    stencil.store %v to %b : memref<?xf64>
  }
  return
}

// -----

func.func @host_store(%w: memref<?xf64>, %x: f64) {
  %c0 = arith.constant 0 : index
  // expected-error @+1 {{writes array elements outside stencil domains, on the host, where the GPU pipeline's arrays are device memory; not supported yet}}
  memref.store %x, %w[%c0] : memref<?xf64>
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
