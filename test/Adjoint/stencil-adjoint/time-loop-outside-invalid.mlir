// RUN: stencil-opt %s -split-input-file -verify-diagnostics --stencil-adjoint

// Domains before and after a time loop (its head and tail,
// docs/TimeLoops.md, sections 1.1 and 1.2) that --stencil-adjoint does not
// reverse (yet), reported at the op concerned.

// A domain after the loop may not write.
func.func @tail_writes(%a: memref<?xf64> {stencil.active},
                       %b: memref<?xf64> {stencil.active}, %n: index,
                       %T: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %r:2 = scf.for %t = %c0 to %T step %c1 iter_args(%x = %a, %y = %b)
      -> (memref<?xf64>, memref<?xf64>) {
    stencil.domain (%i) = (0) to (%n) {
      %v = stencil.gather %x[0] : memref<?xf64>
      stencil.store %v to %y : memref<?xf64>
    }
    scf.yield %y, %x : memref<?xf64>, memref<?xf64>
  }
  stencil.domain (%i) = (0) to (%n) {
    %v = stencil.gather %r#0[0] : memref<?xf64>
    // expected-error@+1 {{'stencil.store' op writes an array after the time loop of a function to differentiate; not supported yet (domains after the loop may only read arrays and sum floats, e.g. a misfit of the final state)}}
    stencil.store %v to %r#1 : memref<?xf64>
  }
  return
}

// -----

// The final arrays are read in domains, not taken apart by other ops.
func.func @result_subview(%a: memref<?xf64> {stencil.active},
                          %b: memref<?xf64> {stencil.active}, %n: index,
                          %T: index) -> f64 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  // expected-error@+1 {{'scf.for' op has an array result that is used other than read in a domain after the loop; not supported yet (the final state is in the arrays the loop was given)}}
  %r:2 = scf.for %t = %c0 to %T step %c1 iter_args(%x = %a, %y = %b)
      -> (memref<?xf64>, memref<?xf64>) {
    stencil.domain (%i) = (0) to (%n) {
      %v = stencil.gather %x[0] : memref<?xf64>
      stencil.store %v to %y : memref<?xf64>
    }
    scf.yield %y, %x : memref<?xf64>, memref<?xf64>
  }
  %v = memref.subview %r#0[1] [%n] [1]
      : memref<?xf64> to memref<?xf64, strided<[1], offset: 1>>
  %s = stencil.domain (%i) = (0) to (%n) -> f64 {
    %u = stencil.gather %v[0] : memref<?xf64, strided<[1], offset: 1>>
    stencil.yield %u : f64
  }
  return %s : f64
}

// -----

// The loop's sums have no value in the adjoint.
func.func @tail_reads_sum(%a: memref<?xf64> {stencil.active},
                          %b: memref<?xf64> {stencil.active}, %n: index,
                          %T: index) -> f64 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %zero = arith.constant 0.0 : f64
  %r:3 = scf.for %t = %c0 to %T step %c1 iter_args(%x = %a, %y = %b,
      %J = %zero) -> (memref<?xf64>, memref<?xf64>, f64) {
    stencil.domain (%i) = (0) to (%n) {
      %v = stencil.gather %x[0] : memref<?xf64>
      stencil.store %v to %y : memref<?xf64>
    }
    %term = stencil.domain (%i) = (0) to (%n) -> f64 {
      %v = stencil.gather %x[0] : memref<?xf64>
      stencil.yield %v : f64
    }
    %J1 = arith.addf %J, %term : f64
    scf.yield %y, %x, %J1 : memref<?xf64>, memref<?xf64>, f64
  }
  %s = stencil.domain (%i) = (0) to (%n) -> f64 {
    %u = stencil.gather %r#0[0] : memref<?xf64>
    // expected-error@+1 {{'arith.mulf' op reads the sum of the time loop in a domain after it; not supported yet}}
    %x = arith.mulf %u, %r#2 : f64
    stencil.yield %x : f64
  }
  return %s : f64
}

// -----

// An argument the loop rotates holds some state after it: which one
// depends on the trip count.
func.func @tail_reads_rotated_argument(%a: memref<?xf64> {stencil.active},
                                       %b: memref<?xf64> {stencil.active},
                                       %n: index, %T: index) -> f64 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %r:2 = scf.for %t = %c0 to %T step %c1 iter_args(%x = %a, %y = %b)
      -> (memref<?xf64>, memref<?xf64>) {
    stencil.domain (%i) = (0) to (%n) {
      %v = stencil.gather %x[0] : memref<?xf64>
      stencil.store %v to %y : memref<?xf64>
    }
    scf.yield %y, %x : memref<?xf64>, memref<?xf64>
  }
  %s = stencil.domain (%i) = (0) to (%n) -> f64 {
    // expected-error@+1 {{'stencil.gather' op reads argument #0 after the time loop, which rotates it; read the loop's result instead}}
    %u = stencil.gather %a[0] : memref<?xf64>
    stencil.yield %u : f64
  }
  return %s : f64
}

// -----

// A tail's sum used nonlinearly needs its value in the adjoint.
func.func @tail_squared(%a: memref<?xf64> {stencil.active},
                        %b: memref<?xf64> {stencil.active}, %n: index,
                        %T: index) -> f64 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %r:2 = scf.for %t = %c0 to %T step %c1 iter_args(%x = %a, %y = %b)
      -> (memref<?xf64>, memref<?xf64>) {
    stencil.domain (%i) = (0) to (%n) {
      %v = stencil.gather %x[0] : memref<?xf64>
      stencil.store %v to %y : memref<?xf64>
    }
    scf.yield %y, %x : memref<?xf64>, memref<?xf64>
  }
  %s = stencil.domain (%i) = (0) to (%n) -> f64 {
    %u = stencil.gather %r#0[0] : memref<?xf64>
    stencil.yield %u : f64
  }
  // expected-error@+1 {{'arith.mulf' op needs the value of a sum computed before or after the time loop in the adjoint (it is used nonlinearly); not supported yet}}
  %s2 = arith.mulf %s, %s : f64
  return %s2 : f64
}

// -----

// A float computed from an active scalar outside the tail.
func.func @tail_reads_active_float(%a: memref<?xf64> {stencil.active},
                                   %b: memref<?xf64> {stencil.active},
                                   %k: f64 {stencil.active}, %n: index,
                                   %T: index) -> f64 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %r:2 = scf.for %t = %c0 to %T step %c1 iter_args(%x = %a, %y = %b)
      -> (memref<?xf64>, memref<?xf64>) {
    stencil.domain (%i) = (0) to (%n) {
      %v = stencil.gather %x[0] : memref<?xf64>
      stencil.store %v to %y : memref<?xf64>
    }
    scf.yield %y, %x : memref<?xf64>, memref<?xf64>
  }
  %k2 = arith.mulf %k, %k : f64
  %s = stencil.domain (%i) = (0) to (%n) -> f64 {
    %u = stencil.gather %r#0[0] : memref<?xf64>
    // expected-error@+1 {{'arith.mulf' op reads a float computed from active values outside the domains after the time loop; not supported yet (pass it as an argument)}}
    %x = arith.mulf %u, %k2 : f64
    stencil.yield %x : f64
  }
  return %s : f64
}

// -----

// The head's adjoint runs after the schedule, which overwrites the state:
// it may not need the state's values (here b * b, b written by the loop).
func.func @head_reads_state(%a: memref<?xf64> {stencil.active},
                            %b: memref<?xf64> {stencil.active}, %n: index,
                            %T: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  stencil.domain (%i) = (0) to (%n) {
    // expected-error@+1 {{'stencil.gather' op reads argument #1 before the time loop in a way whose adjoint needs its value, which the loop overwrites; not supported yet (the adjoint of the domains before the loop may read only arrays the loop does not write)}}
    %v = stencil.gather %b[0] : memref<?xf64>
    %v2 = arith.mulf %v, %v : f64
    stencil.store %v2 to %a : memref<?xf64>
  }
  scf.for %t = %c0 to %T step %c1 {
    stencil.domain (%i) = (0) to (%n) {
      %v = stencil.gather %a[0] : memref<?xf64>
      stencil.store %v to %b : memref<?xf64>
    }
  }
  return
}

// -----

// What the head writes needs a shadow.
func.func @head_writes_passive(%a: memref<?xf64> {stencil.active},
                               %b: memref<?xf64> {stencil.active},
                               %c: memref<?xf64>, %n: index, %T: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  stencil.domain (%i) = (0) to (%n) {
    %v = stencil.gather %a[0] : memref<?xf64>
    // expected-error@+1 {{'stencil.store' op writes argument #2 before the time loop, which is not marked stencil.active; what the loop starts from needs a shadow}}
    stencil.store %v to %c : memref<?xf64>
  }
  scf.for %t = %c0 to %T step %c1 {
    stencil.domain (%i) = (0) to (%n) {
      %v = stencil.gather %c[0] : memref<?xf64>
      stencil.store %v to %b : memref<?xf64>
    }
  }
  return
}

// -----

// A sum of the head read in the loop.
func.func @loop_reads_head_sum(%a: memref<?xf64> {stencil.active},
                               %b: memref<?xf64> {stencil.active}, %n: index,
                               %T: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %s = stencil.domain (%i) = (0) to (%n) -> f64 {
    %v = stencil.gather %a[0] : memref<?xf64>
    stencil.yield %v : f64
  }
  // expected-error@+1 {{'scf.for' op reads a float computed before the loop from active arguments; not supported yet (pass it as an argument)}}
  scf.for %t = %c0 to %T step %c1 {
    stencil.domain (%i) = (0) to (%n) {
      %v = stencil.gather %a[0] : memref<?xf64>
      %w = arith.mulf %v, %s : f64
      stencil.store %w to %b : memref<?xf64>
    }
  }
  return
}

// -----

// A head's sum may start the loop's sum only once that is supported: its
// adjoint is taken before the loop's sums hand theirs back.
func.func @sum_starts_from_head(%a: memref<?xf64> {stencil.active},
                                %b: memref<?xf64> {stencil.active},
                                %v: memref<?xf64> {stencil.active},
                                %n: index, %T: index) -> f64 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %p = stencil.domain (%i) = (0) to (%n) -> f64 {
    %x = stencil.gather %v[0] : memref<?xf64>
    %x2 = arith.mulf %x, %x : f64
    stencil.yield %x2 : f64
  }
  // expected-error@+1 {{'scf.for' op uses a sum computed before the time loop before the loop has run; not supported yet (use it after the loop)}}
  %r:3 = scf.for %t = %c0 to %T step %c1 iter_args(%x = %a, %y = %b, %J = %p)
      -> (memref<?xf64>, memref<?xf64>, f64) {
    stencil.domain (%i) = (0) to (%n) {
      %u = stencil.gather %x[0] : memref<?xf64>
      %s = math.sin %u : f64
      stencil.store %s to %y : memref<?xf64>
    }
    %term = stencil.domain (%i) = (0) to (%n) -> f64 {
      %u = stencil.gather %x[0] : memref<?xf64>
      stencil.yield %u : f64
    }
    %J1 = arith.addf %J, %term : f64
    scf.yield %y, %x, %J1 : memref<?xf64>, memref<?xf64>, f64
  }
  return %r#2 : f64
}

// -----

// Nor may a scalar op before the loop use it.
func.func @head_sum_scaled_before(%a: memref<?xf64> {stencil.active},
                                  %b: memref<?xf64> {stencil.active},
                                  %v: memref<?xf64> {stencil.active},
                                  %n: index, %T: index) -> f64 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %p = stencil.domain (%i) = (0) to (%n) -> f64 {
    %x = stencil.gather %v[0] : memref<?xf64>
    %x2 = arith.mulf %x, %x : f64
    stencil.yield %x2 : f64
  }
  %half = arith.constant 0.5 : f64
  // expected-error@+1 {{'arith.mulf' op uses a sum computed before the time loop before the loop has run; not supported yet (use it after the loop)}}
  %p2 = arith.mulf %p, %half : f64
  %r:2 = scf.for %t = %c0 to %T step %c1 iter_args(%x = %a, %y = %b)
      -> (memref<?xf64>, memref<?xf64>) {
    stencil.domain (%i) = (0) to (%n) {
      %u = stencil.gather %x[0] : memref<?xf64>
      %s = math.sin %u : f64
      stencil.store %s to %y : memref<?xf64>
    }
    scf.yield %y, %x : memref<?xf64>, memref<?xf64>
  }
  return %p2 : f64
}

// -----

// The head's adjoint runs on the arrays as the head left them: an array a
// domain of the head reads may not be overwritten by a later one.
func.func @head_read_then_written(%a: memref<?xf64> {stencil.active},
                                  %b: memref<?xf64> {stencil.active},
                                  %v: memref<?xf64> {stencil.active},
                                  %c: memref<?xf64> {stencil.active},
                                  %n: index, %T: index) -> f64 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %p = stencil.domain (%i) = (0) to (%n) -> f64 {
    %x = stencil.gather %c[0] : memref<?xf64>
    %x2 = arith.mulf %x, %x : f64
    stencil.yield %x2 : f64
  }
  stencil.domain (%i) = (0) to (%n) {
    %x = stencil.gather %v[0] : memref<?xf64>
    %x2 = arith.mulf %x, %x : f64
    // expected-error@+1 {{'stencil.store' op overwrites, before the time loop, an array that a domain before it reads; not supported yet (the adjoint would need its former values)}}
    stencil.store %x2 to %c : memref<?xf64>
  }
  %r:2 = scf.for %t = %c0 to %T step %c1 iter_args(%x = %a, %y = %b)
      -> (memref<?xf64>, memref<?xf64>) {
    stencil.domain (%i) = (0) to (%n) {
      %u = stencil.gather %x[0] : memref<?xf64>
      %k = stencil.gather %c[0] : memref<?xf64>
      %s = arith.mulf %u, %k : f64
      stencil.store %s to %y : memref<?xf64>
    }
    scf.yield %y, %x : memref<?xf64>, memref<?xf64>
  }
  return %p : f64
}
