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

// The loop's states start from %u: after the loop, %u is a final state,
// read through the loop's result, not directly.
func.func @state_start_after_loop(%u: memref<?xf64>, %v: memref<?xf64>,
                                  %n: index) -> f64 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  // expected-error @below {{'scf.for' op starts a state from an array that domains in or after the loop also access directly; distributing it is not supported yet}}
  %r:2 = scf.for %t = %c0 to %n step %c1 iter_args(%a = %u, %b = %v)
      -> (memref<?xf64>, memref<?xf64>) {
    stencil.domain (%i) = (1) to (%n) {
      %x = stencil.gather %a[-1] : memref<?xf64>
      stencil.store %x to %b : memref<?xf64>
    }
    scf.yield %b, %a : memref<?xf64>, memref<?xf64>
  }
  %s = stencil.domain (%i) = (1) to (%n) -> f64 {
    %x = stencil.gather %u[-1] : memref<?xf64>
    stencil.yield %x : f64
  }
  return %s : f64
}

// -----

func.func @two_loops(%u: memref<?xf64>, %v: memref<?xf64>, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  scf.for %t = %c0 to %n step %c1 {
    stencil.domain (%i) = (1) to (%n) {
      %x = stencil.gather %u[-1] : memref<?xf64>
      stencil.store %x to %v : memref<?xf64>
    }
  }
  // expected-error @below {{is a second time loop with domains in one function; distributing it is not supported yet}}
  scf.for %t = %c0 to %n step %c1 {
    stencil.domain (%i) = (1) to (%n) {
      %x = stencil.gather %v[-1] : memref<?xf64>
      stencil.store %x to %u : memref<?xf64>
    }
  }
  return
}

// -----

func.func @nested_loop(%u: memref<?xf64>, %v: memref<?xf64>, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  scf.for %t = %c0 to %n step %c1 {
    stencil.domain (%i) = (1) to (%n) {
      %x = stencil.gather %u[-1] : memref<?xf64>
      stencil.store %x to %v : memref<?xf64>
    }
    // expected-error @below {{'scf.for' op is not supported yet in a function distributed by --stencil-distribute}}
    scf.for %s = %c0 to %n step %c1 {
      stencil.domain (%i) = (1) to (%n) {
        %x = stencil.gather %v[-1] : memref<?xf64>
        stencil.store %x to %u : memref<?xf64>
      }
    }
  }
  return
}

// -----

func.func @aliased_state(%u: memref<?xf64>, %v: memref<?xf64>, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  // expected-error @below {{'scf.for' op starts a state from an array that domains in or after the loop also access directly; distributing it is not supported yet}}
  %r:2 = scf.for %t = %c0 to %n step %c1 iter_args(%a = %u, %b = %v)
      -> (memref<?xf64>, memref<?xf64>) {
    stencil.domain (%i) = (1) to (%n) {
      %x = stencil.gather %a[-1] : memref<?xf64>
      %y = stencil.gather %u[0] : memref<?xf64>
      %z = arith.addf %x, %y : f64
      stencil.store %z to %b : memref<?xf64>
    }
    scf.yield %b, %a : memref<?xf64>, memref<?xf64>
  }
  return
}

// -----

func.func @same_state_twice(%u: memref<?xf64>, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  // expected-error @below {{'scf.for' op starts a state from a value that is not an argument of the function used nowhere else; distributing it is not supported yet}}
  %r:2 = scf.for %t = %c0 to %n step %c1 iter_args(%a = %u, %b = %u)
      -> (memref<?xf64>, memref<?xf64>) {
    stencil.domain (%i) = (1) to (%n) {
      %x = stencil.gather %a[-1] : memref<?xf64>
      stencil.store %x to %b : memref<?xf64>
    }
    scf.yield %b, %a : memref<?xf64>, memref<?xf64>
  }
  return
}

// -----

func.func @state_read_whole(%u: memref<?xf64>, %v: memref<?xf64>, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %s = memref.subview %u[1] [%n] [1] : memref<?xf64> to memref<?xf64, strided<[1], offset: 1>>
  // expected-error @below {{'scf.for' op starts a state from a value that is not an argument of the function used nowhere else; distributing it is not supported yet}}
  %r:2 = scf.for %t = %c0 to %n step %c1 iter_args(%a = %u, %b = %v)
      -> (memref<?xf64>, memref<?xf64>) {
    stencil.domain (%i) = (1) to (%n) {
      %x = stencil.gather %a[-1] : memref<?xf64>
      %y = stencil.gather %s[0] : memref<?xf64, strided<[1], offset: 1>>
      %z = arith.addf %x, %y : f64
      stencil.store %z to %b : memref<?xf64>
    }
    scf.yield %b, %a : memref<?xf64>, memref<?xf64>
  }
  return
}

// -----

func.func @state_after_loop(%u: memref<?xf64>, %v: memref<?xf64>, %n: index)
    -> memref<?xf64> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %r:2 = scf.for %t = %c0 to %n step %c1 iter_args(%a = %u, %b = %v)
      -> (memref<?xf64>, memref<?xf64>) {
    stencil.domain (%i) = (1) to (%n) {
      %x = stencil.gather %a[-1] : memref<?xf64>
      stencil.store %x to %b : memref<?xf64>
    }
    scf.yield %b, %a : memref<?xf64>, memref<?xf64>
  }
  // expected-error @below {{'func.return' op uses a final state of the time loop outside a domain; distributing it is not supported yet}}
  return %r#0 : memref<?xf64>
}

// -----

// Two results of the loop would be one buffer: the plan, which keeps
// them apart, could trust a stale halo.
func.func @not_a_rotation(%u: memref<?xf64>, %v: memref<?xf64>, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  // expected-error @below {{'scf.for' op yields its arrays other than as a permutation of its states (scf.yield %cur, %next, %prev); distributing it is not supported yet}}
  %r:2 = scf.for %t = %c0 to %n step %c1 iter_args(%a = %u, %b = %v)
      -> (memref<?xf64>, memref<?xf64>) {
    stencil.domain (%i) = (1) to (%n) {
      %x = stencil.gather %a[-1] : memref<?xf64>
      stencil.store %x to %b : memref<?xf64>
    }
    scf.yield %b, %b : memref<?xf64>, memref<?xf64>
  }
  return
}

// -----

func.func @state_outside_domain(%u: memref<?xf64>, %v: memref<?xf64>, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %r:2 = scf.for %t = %c0 to %n step %c1 iter_args(%a = %u, %b = %v)
      -> (memref<?xf64>, memref<?xf64>) {
    stencil.domain (%i) = (1) to (%n) {
      %x = stencil.gather %a[-1] : memref<?xf64>
      stencil.store %x to %b : memref<?xf64>
    }
    // expected-error @below {{'memref.load' op uses a time-loop state outside a domain; distributing it is not supported yet}}
    %y = memref.load %b[%c0] : memref<?xf64>
    scf.yield %b, %a : memref<?xf64>, memref<?xf64>
  }
  return
}

// -----

func.func @replicated_store(%u: memref<?xf64>, %v: memref<?xf64>,
                            %w: memref<?xf64>, %n: index) {
  %c0 = arith.constant 0 : index
  %zero = arith.constant 0.0 : f64
  stencil.domain (%i) = (1) to (%n) {
    %x = stencil.gather %u[-1] : memref<?xf64>
    stencil.store %x to %v : memref<?xf64>
  }
  // expected-error @below {{'memref.store' op is not supported yet in a function distributed by --stencil-distribute}}
  memref.store %zero, %w[%c0] : memref<?xf64>
  return
}

// -----

func.func @replicated_view(%u: memref<?xf64>, %v: memref<?xf64>,
                           %w: memref<?xf64>, %n: index) {
  stencil.domain (%i) = (1) to (%n) {
    %x = stencil.gather %u[-1] : memref<?xf64>
    stencil.store %x to %v : memref<?xf64>
  }
  // expected-error @below {{'memref.cast' op uses an array that no domain accesses, which every rank holds whole, other than by reading it; this is not supported yet}}
  %s = memref.cast %w : memref<?xf64> to memref<4xf64>
  return
}

// -----

func.func @nested_domain(%u: memref<?xf64>, %v: memref<?xf64>, %n: index,
                         %flag: i1) {
  scf.if %flag {
    // expected-error @below {{is nested in a region other than a function's body or its time loop's; distributing it is not supported yet}}
    stencil.domain (%i) = (1) to (%n) {
      %x = stencil.gather %u[-1] : memref<?xf64>
      stencil.store %x to %v : memref<?xf64>
    }
  }
  return
}

// -----

// A subview that a domain writes: a replicated array (read whole through
// a subview, docs/Distributed.md) cannot be written, and a block is not
// viewed so.
func.func @view(%u: memref<?xf64>, %v: memref<?xf64>, %n: index) {
  %w = memref.subview %v[1] [%n] [1] : memref<?xf64> to memref<?xf64, strided<[1], offset: 1>>
  stencil.domain (%i) = (1) to (%n) {
    %x = stencil.gather %u[-1] : memref<?xf64>
    // expected-error @below {{accesses an array that is not an argument of the function, a state of its time loop or one of the loop's results; distributing it is not supported yet}}
    stencil.store %x to %w : memref<?xf64, strided<[1], offset: 1>>
  }
  return
}

// -----

// A block read directly and whole through a subview at once.
// expected-error @below {{argument 0 is accessed both as a block (through the identity `dims`) and whole (through a subview, a selection, a fixed element or a reduction); distributing it is not supported yet}}
func.func @block_and_whole(%u: memref<?xf64>, %v: memref<?xf64>, %n: index) {
  %w = memref.subview %u[1] [%n] [1] : memref<?xf64> to memref<?xf64, strided<[1], offset: 1>>
  stencil.domain (%i) = (1) to (%n) {
    %x = stencil.gather %u[-1] : memref<?xf64>
    %y = stencil.gather %w[0] : memref<?xf64, strided<[1], offset: 1>>
    %z = arith.addf %x, %y : f64
    stencil.store %z to %v : memref<?xf64>
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
  // expected-error @below {{'memref.load' op uses a distributed array outside a domain; this is not supported yet}}
  %z = memref.load %u[%c] : memref<?xf64>
  return
}

// -----

// A global index (the bound of a border snapshot, marked by
// --stencil-adjoint) of a dimension the grid does not have.
func.func private @step(%u: memref<?xf64>, %v: memref<?xf64>, %n: index) {
  stencil.domain (%i) = (1) to (%n) {
    %x = stencil.gather %u[-1] : memref<?xf64>
    stencil.store %x to %v : memref<?xf64>
  }
  return
}

func.func @driver(%u: memref<?xf64>, %v: memref<?xf64>, %n: index) -> index {
  call @step(%u, %v, %n) : (memref<?xf64>, memref<?xf64>, index) -> ()
  // expected-error @below {{'arith.constant' op marks a global index of dimension 1, which a grid of rank 1 does not split; distributing it is not supported}}
  %b = arith.constant {stencil.global_index = 1 : i64} 1 : index
  return %b : index
}
