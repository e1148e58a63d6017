// RUN: stencil-opt %s -split-input-file -verify-diagnostics --stencil-adjoint

// Time loops that --stencil-adjoint does not reverse (yet) are reported at
// the op concerned (docs/TimeLoops.md, "What is not supported").

// In place within one domain: the dialect's verifier already refuses it.
func.func @in_place(%u: memref<?xf64> {stencil.active}, %n: index, %T: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  scf.for %t = %c0 to %T step %c1 {
    stencil.domain (%i) = (1) to (%n) {
      // expected-note@+1 {{read here}}
      %a = stencil.gather %u[-1] : memref<?xf64>
      // expected-error@+1 {{'stencil.store' op writes an array that is also read in this domain}}
      stencil.store %a to %u : memref<?xf64>
    }
  }
  return
}

// -----

// A carried float that is neither a sum of per-step terms nor a clock
// (computed from passive values alone): a product with the step's misfit.
func.func @product(%a: memref<?xf64> {stencil.active},
                   %b: memref<?xf64> {stencil.active}, %n: index,
                   %T: index) -> f64 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %one = arith.constant 1.0 : f64
  // expected-error@+1 {{'scf.for' op carries the scalar #2 in a way not supported yet: a loop-carried float must be a sum of per-step terms (scf.yield ..., %acc + %term, %acc used nowhere else) or computed from itself, the step's index, constants and passive arguments alone (a simulated time %t + %dt)}}
  %r:3 = scf.for %t = %c0 to %T step %c1 iter_args(%x = %a, %y = %b, %p = %one)
      -> (memref<?xf64>, memref<?xf64>, f64) {
    stencil.domain (%i) = (0) to (%n) {
      %v = stencil.gather %x[0] : memref<?xf64>
      stencil.store %v to %y : memref<?xf64>
    }
    %s = stencil.domain (%i) = (0) to (%n) -> f64 {
      %v = stencil.gather %y[0] : memref<?xf64>
      stencil.yield %v : f64
    }
    %p1 = arith.mulf %p, %s : f64
    scf.yield %y, %x, %p1 : memref<?xf64>, memref<?xf64>, f64
  }
  return %r#2 : f64
}

// -----

// A float clock that reads an active argument is not passive.
func.func @active_clock(%a: memref<?xf64> {stencil.active},
                        %b: memref<?xf64> {stencil.active}, %k: f64 {stencil.active},
                        %n: index, %T: index) -> f64 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %zero = arith.constant 0.0 : f64
  // expected-error@+1 {{'scf.for' op carries the scalar #2 in a way not supported yet}}
  %r:4 = scf.for %t = %c0 to %T step %c1
      iter_args(%x = %a, %y = %b, %time = %zero, %J = %zero)
      -> (memref<?xf64>, memref<?xf64>, f64, f64) {
    stencil.domain (%i) = (0) to (%n) {
      %v = stencil.gather %x[0] : memref<?xf64>
      %w = arith.mulf %v, %time : f64
      stencil.store %w to %y : memref<?xf64>
    }
    %s = stencil.domain (%i) = (0) to (%n) -> f64 {
      %v = stencil.gather %y[0] : memref<?xf64>
      stencil.yield %v : f64
    }
    %time1 = arith.addf %time, %k : f64
    %J1 = arith.addf %J, %s : f64
    scf.yield %y, %x, %time1, %J1 : memref<?xf64>, memref<?xf64>, f64, f64
  }
  return %r#3 : f64
}

// -----

func.func @not_a_rotation(%a: memref<?xf64> {stencil.active},
                          %b: memref<?xf64> {stencil.active}, %n: index,
                          %T: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  // expected-error@+1 {{'scf.for' op must yield its arrays as a rotation of its array iter_args (scf.yield %cur, %next, %prev); yielded value #1 is not}}
  %r:2 = scf.for %t = %c0 to %T step %c1 iter_args(%x = %a, %y = %b)
      -> (memref<?xf64>, memref<?xf64>) {
    stencil.domain (%i) = (0) to (%n) {
      %v = stencil.gather %x[0] : memref<?xf64>
      stencil.store %v to %y : memref<?xf64>
    }
    scf.yield %y, %y : memref<?xf64>, memref<?xf64>
  }
  return
}

// -----

// A float computed from passive values only, but started from an active
// argument: its value depends on t0, so it is not a clock.
func.func @active_clock_start(%a: memref<?xf64> {stencil.active},
                              %b: memref<?xf64> {stencil.active},
                              %t0: f64 {stencil.active}, %dt: f64,
                              %n: index, %T: index) -> f64 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %zero = arith.constant 0.0 : f64
  // expected-error@+1 {{'scf.for' op carries the scalar #2 in a way not supported yet}}
  %r:4 = scf.for %t = %c0 to %T step %c1
      iter_args(%x = %a, %y = %b, %time = %t0, %J = %zero)
      -> (memref<?xf64>, memref<?xf64>, f64, f64) {
    stencil.domain (%i) = (0) to (%n) {
      %v = stencil.gather %x[0] : memref<?xf64>
      %w = arith.mulf %v, %time : f64
      stencil.store %w to %y : memref<?xf64>
    }
    %s = stencil.domain (%i) = (0) to (%n) -> f64 {
      %v = stencil.gather %y[0] : memref<?xf64>
      stencil.yield %v : f64
    }
    %time1 = arith.addf %time, %dt : f64
    %J1 = arith.addf %J, %s : f64
    scf.yield %y, %x, %time1, %J1 : memref<?xf64>, memref<?xf64>, f64, f64
  }
  return %r#3 : f64
}

// -----

// An index the loop carries from what it loads from an active array.
func.func @index_carried(%a: memref<?xf64> {stencil.active},
                         %b: memref<?xf64> {stencil.active}, %n: index,
                         %T: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  // expected-error@+1 {{'scf.for' op carries a value of type 'index' (iter_arg #0) that is not supported yet: the loop may carry arrays of rank >= 1, f32/f64 sums of per-step terms, and scalars it computes from themselves, the step's index, constants and passive arguments alone}}
  %r = scf.for %t = %c0 to %T step %c1 iter_args(%k = %c0) -> (index) {
    stencil.domain (%i) = (0) to (%n) {
      %v = stencil.gather %a[0] : memref<?xf64>
      stencil.store %v to %b : memref<?xf64>
    }
    %x = memref.load %a[%k] : memref<?xf64>
    %xi = arith.fptosi %x : f64 to i64
    %k1 = arith.index_cast %xi : i64 to index
    scf.yield %k1 : index
  }
  return
}

// -----

func.func @passive_state(%a: memref<?xf64> {stencil.active}, %b: memref<?xf64>,
                         %n: index, %T: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  // expected-error@+1 {{'scf.for' op starts the rotated array #1 from a value that is not an argument marked stencil.active; the arrays a time loop carries need shadows}}
  %r:2 = scf.for %t = %c0 to %T step %c1 iter_args(%x = %a, %y = %b)
      -> (memref<?xf64>, memref<?xf64>) {
    stencil.domain (%i) = (0) to (%n) {
      %v = stencil.gather %x[0] : memref<?xf64>
      stencil.store %v to %y : memref<?xf64>
    }
    scf.yield %y, %x : memref<?xf64>, memref<?xf64>
  }
  return
}

// -----

func.func @passive_written(%a: memref<?xf64> {stencil.active}, %b: memref<?xf64>,
                           %n: index, %T: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  // expected-error@+1 {{'scf.for' op writes argument #1, which is not marked stencil.active; the state a time loop carries needs a shadow}}
  scf.for %t = %c0 to %T step %c1 {
    stencil.domain (%i) = (0) to (%n) {
      %v = stencil.gather %a[0] : memref<?xf64>
      stencil.store %v to %b : memref<?xf64>
    }
  }
  return
}

// -----

func.func @two_loops(%a: memref<?xf64> {stencil.active},
                     %b: memref<?xf64> {stencil.active}, %n: index, %T: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  scf.for %t = %c0 to %T step %c1 {
    stencil.domain (%i) = (0) to (%n) {
      %v = stencil.gather %a[0] : memref<?xf64>
      stencil.store %v to %b : memref<?xf64>
    }
  }
  // expected-error@+1 {{'scf.for' op is a second time loop in a function to differentiate; only one is supported yet}}
  scf.for %t = %c0 to %T step %c1 {
    stencil.domain (%i) = (0) to (%n) {
      %v = stencil.gather %b[0] : memref<?xf64>
      stencil.store %v to %a : memref<?xf64>
    }
  }
  return
}

// -----

func.func @store_before(%a: memref<?xf64> {stencil.active},
                        %b: memref<?xf64> {stencil.active}, %n: index,
                        %T: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %x = arith.constant 1.0 : f64
  // expected-error@+1 {{'memref.store' op is not supported yet before the time loop of a function to differentiate (expected side-effect free scalar ops and domains)}}
  memref.store %x, %a[%c0] : memref<?xf64>
  scf.for %t = %c0 to %T step %c1 {
    stencil.domain (%i) = (0) to (%n) {
      %v = stencil.gather %a[0] : memref<?xf64>
      stencil.store %v to %b : memref<?xf64>
    }
  }
  return
}

// -----

// A trip count read from memory depends on data.
func.func @data_dependent_count(%a: memref<?xf64> {stencil.active},
                                %b: memref<?xf64> {stencil.active},
                                %counts: memref<?xindex>, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  // expected-error@+1 {{'memref.load' op is not supported yet before the time loop of a function to differentiate}}
  %T = memref.load %counts[%c0] : memref<?xindex>
  scf.for %t = %c0 to %T step %c1 {
    stencil.domain (%i) = (0) to (%n) {
      %v = stencil.gather %a[0] : memref<?xf64>
      stencil.store %v to %b : memref<?xf64>
    }
  }
  return
}

// -----

func.func @sum_squared(%a: memref<?xf64> {stencil.active},
                       %b: memref<?xf64> {stencil.active}, %n: index,
                       %T: index) -> f64 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %zero = arith.constant 0.0 : f64
  %r:3 = scf.for %t = %c0 to %T step %c1 iter_args(%x = %a, %y = %b, %s = %zero)
      -> (memref<?xf64>, memref<?xf64>, f64) {
    %term = stencil.domain (%i) = (0) to (%n) -> f64 {
      %v = stencil.gather %x[0] : memref<?xf64>
      stencil.store %v to %y : memref<?xf64>
      stencil.yield %v : f64
    }
    %s1 = arith.addf %s, %term : f64
    scf.yield %y, %x, %s1 : memref<?xf64>, memref<?xf64>, f64
  }
  // expected-error@+1 {{'arith.mulf' op needs the value of the time loop's sum #2 in the adjoint (the sum is used nonlinearly after the loop); not supported yet}}
  %sq = arith.mulf %r#2, %r#2 : f64
  return %sq : f64
}

// -----

func.func @active_scalar_above(%a: memref<?xf64> {stencil.active},
                               %b: memref<?xf64> {stencil.active},
                               %k: f64 {stencil.active}, %n: index,
                               %T: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %k2 = arith.mulf %k, %k : f64
  // expected-error@+1 {{'scf.for' op reads a float computed before the loop from active arguments; not supported yet (pass it as an argument)}}
  %r:2 = scf.for %t = %c0 to %T step %c1 iter_args(%x = %a, %y = %b)
      -> (memref<?xf64>, memref<?xf64>) {
    stencil.domain (%i) = (0) to (%n) {
      %v = stencil.gather %x[0] : memref<?xf64>
      %w = arith.mulf %v, %k2 : f64
      stencil.store %w to %y : memref<?xf64>
    }
    scf.yield %y, %x : memref<?xf64>, memref<?xf64>
  }
  return
}

// -----

func.func @aliased_state(%a: memref<?xf64> {stencil.active},
                         %b: memref<?xf64> {stencil.active}, %n: index,
                         %T: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  // expected-note@+1 {{the time loop that rotates it}}
  %r:2 = scf.for %t = %c0 to %T step %c1 iter_args(%x = %a, %y = %b)
      -> (memref<?xf64>, memref<?xf64>) {
    stencil.domain (%i) = (0) to (%n) {
      // expected-error@+1 {{'stencil.gather' op reads argument #0 directly in a time loop that rotates it as an iter_arg; read the iter_arg instead}}
      %v = stencil.gather %a[0] : memref<?xf64>
      stencil.store %v to %y : memref<?xf64>
    }
    scf.yield %y, %x : memref<?xf64>, memref<?xf64>
  }
  return
}

// -----

// A store into the first value of a rotated iter_arg is reported as a
// write, where it happens.
func.func @smooth(%u0: memref<?xf64> {stencil.active},
                  %u1: memref<?xf64> {stencil.active},
                  %c: memref<?xf64> {stencil.active},
                  %w: memref<?xf64>, %n: index, %steps: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %nm1 = arith.subi %n, %c1 : index
  // expected-note@+1 {{the time loop that rotates it}}
  %r:2 = scf.for %t = %c0 to %steps step %c1 iter_args(%a = %u0, %b = %u1)
      -> (memref<?xf64>, memref<?xf64>) {
    %wt = memref.load %w[%t] : memref<?xf64>
    stencil.domain (%i) = (1) to (%nm1) {
      %l = stencil.gather %a[-1] : memref<?xf64>
      %r = stencil.gather %a[1] : memref<?xf64>
      %cl = stencil.gather %c[-1] : memref<?xf64>
      %cr = stencil.gather %c[1] : memref<?xf64>
      %x = arith.mulf %l, %cl : f64
      %y = arith.mulf %r, %cr : f64
      %s = arith.addf %x, %y : f64
      %v = arith.addf %s, %wt : f64
      // expected-error@+1 {{'stencil.store' op writes argument #0 directly in a time loop that rotates it as an iter_arg; store into the iter_arg instead}}
      stencil.store %v to %u0 : memref<?xf64>
    }
    scf.yield %b, %a : memref<?xf64>, memref<?xf64>
  }
  return
}

// -----

// Only signed loops are reversed: the trip count is counted signed.
func.func @unsigned_loop(%a: memref<?xf64> {stencil.active},
                         %b: memref<?xf64> {stencil.active}, %n: index,
                         %T: i32) {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  // expected-error@+1 {{'scf.for' op compares its induction variable unsigned; not supported yet in a function to differentiate (the reversal counts steps signed)}}
  %r:2 = scf.for unsigned %t = %c0 to %T step %c1 iter_args(%x = %a, %y = %b)
      -> (memref<?xf64>, memref<?xf64>) : i32 {
    stencil.domain (%i) = (0) to (%n) {
      %v = stencil.gather %x[0] : memref<?xf64>
      stencil.store %v to %y : memref<?xf64>
    }
    scf.yield %y, %x : memref<?xf64>, memref<?xf64>
  }
  return
}

// -----

// The step's own body is checked as a straight-line function: an op with
// regions inside the loop is reported there.
func.func @nested_loop(%a: memref<?xf64> {stencil.active},
                       %b: memref<?xf64> {stencil.active}, %n: index,
                       %T: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %r:2 = scf.for %t = %c0 to %T step %c1 iter_args(%x = %a, %y = %b)
      -> (memref<?xf64>, memref<?xf64>) {
    // expected-error@+1 {{'scf.for' op is not supported yet at the top level of a function to differentiate}}
    scf.for %s = %c0 to %T step %c1 {
    }
    stencil.domain (%i) = (0) to (%n) {
      %v = stencil.gather %x[0] : memref<?xf64>
      stencil.store %v to %y : memref<?xf64>
    }
    scf.yield %y, %x : memref<?xf64>, memref<?xf64>
  }
  return
}

// -----

// The outlined step's name is taken.
func.func private @taken_step(%x: index) -> index
// expected-error@+1 {{'func.func' op cannot outline its time step: a symbol named 'taken_step' already exists}}
func.func @taken(%a: memref<?xf64> {stencil.active},
                 %b: memref<?xf64> {stencil.active}, %n: index, %T: index) {
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
  return
}

// -----

// The adjoint's name is taken: nothing is left behind (no step functions).
// expected-error@+1 {{'func.func' op cannot create its adjoint: a symbol named 'clash_adjoint' already exists}}
func.func @clash(%a: memref<?xf64> {stencil.active},
                 %b: memref<?xf64> {stencil.active}, %n: index, %T: index) {
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
  return
}
func.func @clash_adjoint() {
  return
}

// -----

// The seed of the sum reaches its initial value, computed before the loop
// by an op without a rule: reported, not dropped.
func.func @prologue_without_rule(%a: memref<?xf64> {stencil.active},
                                 %b: memref<?xf64> {stencil.active},
                                 %k: f64 {stencil.active}, %n: index,
                                 %T: index) -> f64 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  // expected-error@+1 {{'math.erf' op has no adjoint rule}}
  %s0 = math.erf %k : f64
  %r:3 = scf.for %t = %c0 to %T step %c1 iter_args(%x = %a, %y = %b, %s = %s0)
      -> (memref<?xf64>, memref<?xf64>, f64) {
    %term = stencil.domain (%i) = (0) to (%n) -> f64 {
      %v = stencil.gather %x[0] : memref<?xf64>
      stencil.store %v to %y : memref<?xf64>
      stencil.yield %v : f64
    }
    %s1 = arith.addf %s, %term : f64
    scf.yield %y, %x, %s1 : memref<?xf64>, memref<?xf64>, f64
  }
  return %r#2 : f64
}

// -----

// A per-step sum of a state written in place: the step's adjoint replays
// the copy into %u for it, which clobbers the %u the first domain's adjoint
// needs (it is nonlinear in %u). The linear step is accepted
// (clobber-linear.mlir).
func.func @inplace_sum_nonlinear(%u: memref<?xf64> {stencil.active},
                                 %t: memref<?xf64> {stencil.active},
                                 %n: index, %steps: index) -> f64 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %z = arith.constant 0.0 : f64
  %S = scf.for %it = %c0 to %steps step %c1 iter_args(%acc = %z) -> (f64) {
    // expected-note@+1 {{earlier domain reading it, whose adjoint needs its old values}}
    stencil.domain (%i) = (1) to (%n - 1) {
      %a = stencil.gather %u[-1] : memref<?xf64>
      %b = stencil.gather %u[1] : memref<?xf64>
      %s = arith.mulf %a, %b : f64
      stencil.store %s to %t : memref<?xf64>
    }
    // expected-error@+1 {{'stencil.domain' op overwrites an array that an earlier domain reads, and its result is needed later}}
    stencil.domain (%i) = (1) to (%n - 1) {
      %a = stencil.gather %t[0] : memref<?xf64>
      stencil.store %a to %u : memref<?xf64>
    }
    %q = stencil.domain (%i) = (0) to (%n) -> (f64) {
      %a = stencil.gather %u[0] : memref<?xf64>
      stencil.yield %a : f64
    }
    %acc1 = arith.addf %acc, %q : f64
    scf.yield %acc1 : f64
  }
  return %S : f64
}

// -----

// The name of the step's adjoint is taken: the plan checks every name it
// will create before anything is built.
func.func private @pair_step_adjoint()
// expected-error@+1 {{'func.func' op cannot outline its time step: a symbol named 'pair_step_adjoint' already exists}}
func.func @pair(%a: memref<?xf64> {stencil.active},
                %b: memref<?xf64> {stencil.active}, %n: index, %T: index) {
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
  return
}

// -----

// The shadow of y is handed over to x (x_b only takes y_b, at the centre):
// the name of the step's adjoint without that reset is taken.
func.func private @handed_step_adjoint_steady()
// expected-error@+1 {{'func.func' op cannot outline the reversal of its time step: a symbol named 'handed_step_adjoint_steady' already exists}}
func.func @handed(%a: memref<?xf64> {stencil.active},
                  %b: memref<?xf64> {stencil.active}, %n: index, %T: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %r:2 = scf.for %t = %c0 to %T step %c1 iter_args(%x = %a, %y = %b)
      -> (memref<?xf64>, memref<?xf64>) {
    stencil.domain (%i) = (0) to (%n) {
      %v = stencil.gather %x[0] : memref<?xf64>
      %s = math.sin %v : f64
      stencil.store %s to %y : memref<?xf64>
    }
    scf.yield %y, %x : memref<?xf64>, memref<?xf64>
  }
  return
}
