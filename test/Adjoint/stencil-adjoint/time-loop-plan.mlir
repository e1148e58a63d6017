// RUN: stencil-opt %s --stencil-adjoint=report=1 -o /dev/null 2>&1 \
// RUN:   | FileCheck %s
// RUN: stencil-opt %s "--stencil-adjoint=report=1 snapshot-borders=0 defer-hand-overs=0" \
// RUN:   -o /dev/null 2>&1 | FileCheck %s --check-prefix=OFF

// The plan of the reversal of a time loop (lib/Adjoint/TimeLoop/TimeLoopPlan.h)
// as the JSON remark of report=1 prints it at the loop (keys sorted). The
// expected plans are derived by hand from the inputs, not captured from the
// output. The step function takes the captures that are not constants (in
// the order the body first uses them, innermost first), the rotated arrays,
// the induction variable and the clocks; its adjoint takes those, then the
// shadows of the active captures, then those of the rotated arrays.

// A leapfrog wave, next = 2 cur - prev + c (cur[-1] - 2 cur + cur[1]):
// (prev, cur, next) yields (cur, next, prev), so after a step rotated array
// k is the one that was rotated[k + 1 mod 3]. The step takes c (step
// argument 0, active) and n - 1 (1), then prev (2), cur (3), next (4), t
// (5); its adjoint then c_b (6), prev_b (7), cur_b (8), next_b (9). The
// adjoint reads cur (c times the Laplacian of cur) but neither prev (it
// enters linearly) nor next (only stored): next's snapshot keeps the border
// of the box [1, n - 1 + 0) the step overwrites first. Reversed, the shadow
// of next (2) goes to prev (0), whose shadow only takes -next_b at the
// centre: the hand-over is deferred (the value is next_b alone), received
// by cur's shadow (8), the one prev's is handed to.
// CHECK: remark: time-loop plan: {"accumulators":[],"adjoint":"wave_adjoint","clocks":[],"function":"wave",
// CHECK-SAME: "hand_over_functions":{"flush":"wave_step_adjoint_flush","receiving":"wave_step_adjoint_receiving","reset":"wave_step_adjoint_reset","steady":"wave_step_adjoint_steady"},
// CHECK-SAME: "hand_overs":[{"deferred":true,"from":2,"from_arg":9,"receiver_arg":8,"to":0,"to_arg":7}],
// CHECK-SAME: "head":{"adjoint":null,"domains":0,"function":null},"induction_type":"index","rotated":[0,1,2],"rotation":[1,2,0],
// CHECK-SAME: "schedule":{"actions":["store","restore","advance","reverse"],"stateless":false,"steps":"T"},
// CHECK-SAME: "state":[{"border":false,"box":null,"read":false,"rotated":0,"step_arg":2},
// CHECK-SAME: {"border":false,"box":null,"read":true,"rotated":1,"step_arg":3},
// CHECK-SAME: {"border":true,"box":{"lower":[{"constant":1}],"upper":[{"offset":0,"step_arg":1}]},"read":false,"rotated":2,"step_arg":4}],
// CHECK-SAME: "step":{"active_captures":1,"adjoint":"wave_step_adjoint","captures":2,"function":"wave_step"},
// CHECK-SAME: "tail":{"adjoint":null,"domains":0,"function":null},"tail_reads_state":false}
//
// Without borders the snapshot keeps all of next (no box); without
// deferral the hand-over stores, so neither the receiving variant nor the
// flush is built.
// OFF: remark: time-loop plan: {{.*}}"function":"wave",
// OFF-SAME: "hand_over_functions":{"flush":null,"receiving":null,"reset":"wave_step_adjoint_reset","steady":"wave_step_adjoint_steady"},
// OFF-SAME: "hand_overs":[{"deferred":false,
// OFF-SAME: {"border":false,"box":null,"read":false,"rotated":2,"step_arg":4}],
func.func @wave(%u0: memref<?xf64> {stencil.active},
                %u1: memref<?xf64> {stencil.active},
                %u2: memref<?xf64> {stencil.active},
                %c: memref<?xf64> {stencil.active},
                %n: index, %T: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %two = arith.constant 2.0 : f64
  %nm1 = arith.subi %n, %c1 : index
  %r:3 = scf.for %t = %c0 to %T step %c1
      iter_args(%prev = %u0, %cur = %u1, %next = %u2)
      -> (memref<?xf64>, memref<?xf64>, memref<?xf64>) {
    stencil.domain (%i) = (1) to (%nm1) {
      %l = stencil.gather %cur[-1] : memref<?xf64>
      %m = stencil.gather %cur[0] : memref<?xf64>
      %r = stencil.gather %cur[1] : memref<?xf64>
      %p = stencil.gather %prev[0] : memref<?xf64>
      %v = stencil.gather %c[0] : memref<?xf64>
      %lr = arith.addf %l, %r : f64
      %m2 = arith.mulf %two, %m : f64
      %lap = arith.subf %lr, %m2 : f64
      %f = arith.mulf %v, %lap : f64
      %g = arith.addf %m2, %f : f64
      %w = arith.subf %g, %p : f64
      stencil.store %w to %next : memref<?xf64>
    }
    scf.yield %cur, %next, %prev
        : memref<?xf64>, memref<?xf64>, memref<?xf64>
  }
  return
}

// A final-state objective, J = sum (x_T - d)^2, after y = sin(x): the tail
// becomes misfit_tail and its adjoint reads the final state, which only an
// advancing schedule provides, so the schedule counts the tail as step T
// (T + 1 steps). The step reads x (cos x), not y, whose box is [0, n). The
// shadow of y (from 1, argument 5 after n, x, y, t and x_b) goes to x (0,
// argument 4), stored, not deferred: the value needs cos x.
// CHECK: remark: time-loop plan: {"accumulators":[],"adjoint":"misfit_adjoint","clocks":[],"function":"misfit",
// CHECK-SAME: "hand_over_functions":{"flush":null,"receiving":null,"reset":"misfit_step_adjoint_reset","steady":"misfit_step_adjoint_steady"},
// CHECK-SAME: "hand_overs":[{"deferred":false,"from":1,"from_arg":5,"receiver_arg":5,"to":0,"to_arg":4}],
// CHECK-SAME: "head":{"adjoint":null,"domains":0,"function":null},"induction_type":"index","rotated":[0,1],"rotation":[1,0],
// CHECK-SAME: "schedule":{"actions":["store","restore","advance","reverse"],"stateless":false,"steps":"T+1"},
// CHECK-SAME: "state":[{"border":false,"box":null,"read":true,"rotated":0,"step_arg":1},
// CHECK-SAME: {"border":true,"box":{"lower":[{"constant":0}],"upper":[{"offset":0,"step_arg":0}]},"read":false,"rotated":1,"step_arg":2}],
// CHECK-SAME: "step":{"active_captures":0,"adjoint":"misfit_step_adjoint","captures":1,"function":"misfit_step"},
// CHECK-SAME: "tail":{"adjoint":"misfit_tail_adjoint","domains":1,"function":"misfit_tail"},"tail_reads_state":true}
func.func @misfit(%a: memref<?xf64> {stencil.active},
                  %b: memref<?xf64> {stencil.active},
                  %d: memref<?xf64>, %n: index, %T: index) -> f64 {
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
  %J = stencil.domain (%i) = (0) to (%n) -> f64 {
    %u = stencil.gather %r#0[0] : memref<?xf64>
    %o = stencil.gather %d[0] : memref<?xf64>
    %e = arith.subf %u, %o : f64
    %e2 = arith.mulf %e, %e : f64
    stencil.yield %e2 : f64
  }
  return %J : f64
}

// A head: the domain before the loop computes the coefficient k = m^2 the
// loop reads; it becomes model_head, run before the schedule, and its
// adjoint after it. The step takes k (active) and n; y = k x reads x.
// CHECK: remark: time-loop plan: {"accumulators":[],"adjoint":"model_adjoint","clocks":[],"function":"model",
// CHECK-SAME: "hand_overs":[{"deferred":false,"from":1,"from_arg":7,"receiver_arg":7,"to":0,"to_arg":6}],
// CHECK-SAME: "head":{"adjoint":"model_head_adjoint","domains":1,"function":"model_head"},
// CHECK-SAME: "state":[{"border":false,"box":null,"read":true,"rotated":0,"step_arg":2},
// CHECK-SAME: {"border":true,"box":{"lower":[{"constant":0}],"upper":[{"offset":0,"step_arg":1}]},"read":false,"rotated":1,"step_arg":3}],
// CHECK-SAME: "step":{"active_captures":1,"adjoint":"model_step_adjoint","captures":2,"function":"model_step"},
// CHECK-SAME: "tail":{"adjoint":null,"domains":0,"function":null},"tail_reads_state":false}
func.func @model(%m: memref<?xf64> {stencil.active},
                 %k: memref<?xf64> {stencil.active},
                 %a: memref<?xf64> {stencil.active},
                 %b: memref<?xf64> {stencil.active},
                 %n: index, %T: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  stencil.domain (%i) = (0) to (%n) {
    %v = stencil.gather %m[0] : memref<?xf64>
    %s = arith.mulf %v, %v : f64
    stencil.store %s to %k : memref<?xf64>
  }
  %r:2 = scf.for %t = %c0 to %T step %c1 iter_args(%x = %a, %y = %b)
      -> (memref<?xf64>, memref<?xf64>) {
    stencil.domain (%i) = (0) to (%n) {
      %v = stencil.gather %x[0] : memref<?xf64>
      %q = stencil.gather %k[0] : memref<?xf64>
      %s = arith.mulf %q, %v : f64
      stencil.store %s to %y : memref<?xf64>
    }
    scf.yield %y, %x : memref<?xf64>, memref<?xf64>
  }
  return
}

// In place: the loop carries nothing, and the state is the captured arrays
// it writes, u (step argument 0, read: u[-1] u[1]) and the work array w
// (1), which the step overwrites on [1, n - 1) before reading it: its
// snapshot keeps the border, with n the step's argument 2.
// CHECK: remark: time-loop plan: {"accumulators":[],"adjoint":"inplace_adjoint","clocks":[],"function":"inplace",
// CHECK-SAME: "hand_overs":[],
// CHECK-SAME: "rotated":[],"rotation":[],
// CHECK-SAME: "state":[{"border":false,"box":null,"read":true,"step_arg":0},
// CHECK-SAME: {"border":true,"box":{"lower":[{"constant":1}],"upper":[{"offset":-1,"step_arg":2}]},"read":false,"step_arg":1}],
// CHECK-SAME: "step":{"active_captures":2,"adjoint":"inplace_step_adjoint","captures":3,"function":"inplace_step"},
func.func @inplace(%u: memref<?xf64> {stencil.active},
                   %w: memref<?xf64> {stencil.active},
                   %n: index, %T: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  scf.for %t = %c0 to %T step %c1 {
    stencil.domain (%i) = (1) to (%n - 1) {
      %l = stencil.gather %u[-1] : memref<?xf64>
      %r = stencil.gather %u[1] : memref<?xf64>
      %p = arith.mulf %l, %r : f64
      stencil.store %p to %w : memref<?xf64>
    }
    stencil.domain (%i) = (1) to (%n - 1) {
      %v = stencil.gather %w[0] : memref<?xf64>
      stencil.store %v to %u : memref<?xf64>
    }
  }
  return
}

// An i32 induction variable: the plan records its type (the driver counts
// steps in index and passes each step its time as i32).
// CHECK: remark: time-loop plan: {"accumulators":[],"adjoint":"iv32_adjoint","clocks":[],"function":"iv32",
// CHECK-SAME: "induction_type":"i32","rotated":[0,1],"rotation":[1,0],
// CHECK-SAME: "state":[{"border":false,"box":null,"read":true,"rotated":0,"step_arg":1},
func.func @iv32(%u0: memref<?xf64> {stencil.active},
                %u1: memref<?xf64> {stencil.active},
                %n: index, %steps: i32) {
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %r:2 = scf.for %t = %c0 to %steps step %c1 iter_args(%a = %u0, %b = %u1)
      -> (memref<?xf64>, memref<?xf64>) : i32 {
    stencil.domain (%i) = (0) to (%n) {
      %x = stencil.gather %a[0] : memref<?xf64>
      %p = arith.mulf %x, %x : f64
      stencil.store %p to %b : memref<?xf64>
    }
    scf.yield %b, %a : memref<?xf64>, memref<?xf64>
  }
  return
}
