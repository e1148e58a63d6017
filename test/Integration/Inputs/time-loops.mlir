// Time loops for gen/check_adjoint.py (time-loops.test): whole-loop
// gradients against finite differences, the dot-product test of linear
// loops, every snapshot count against the first, 1 against 2 threads.

// 1-D leapfrog wave through three rotated buffers: u_next = 2 u - u_prev +
// c (u[-1] - 2 u + u[1]), a point source w[t] at %s, and the misfit
// J = sum_t 1/2 (u_next[r] - d[t])^2 at the receiver %r.
func.func @wave1d(%u0: memref<?xf64> {stencil.active},
                  %u1: memref<?xf64> {stencil.active},
                  %u2: memref<?xf64> {stencil.active},
                  %c: memref<?xf64> {stencil.active},
                  %w: memref<?xf64>, %d: memref<?xf64>, %n: index, %s: index,
                  %r: index, %steps: index) -> f64 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %zero = arith.constant 0.0 : f64
  %nm1 = arith.subi %n, %c1 : index
  %res:4 = scf.for %t = %c0 to %steps step %c1
      iter_args(%prev = %u0, %cur = %u1, %next = %u2, %J = %zero)
      -> (memref<?xf64>, memref<?xf64>, memref<?xf64>, f64) {
    stencil.domain (%i) = (1) to (%nm1) {
      %two = arith.constant 2.0 : f64
      %um = stencil.gather %cur[-1] : memref<?xf64>
      %u = stencil.gather %cur[0] : memref<?xf64>
      %up = stencil.gather %cur[1] : memref<?xf64>
      %p = stencil.gather %prev[0] : memref<?xf64>
      %cc = stencil.gather %c[0] : memref<?xf64>
      %u2x = arith.mulf %two, %u : f64
      %l1 = arith.addf %um, %up : f64
      %lap = arith.subf %l1, %u2x : f64
      %cl = arith.mulf %cc, %lap : f64
      %a = arith.subf %u2x, %p : f64
      %v = arith.addf %a, %cl : f64
      stencil.store %v to %next : memref<?xf64>
    }
    %wt = memref.load %w[%t] : memref<?xf64>
    %s1 = arith.addi %s, %c1 : index
    stencil.domain (%i) = (%s) to (%s1) {
      stencil.accumulate %wt to %next[0] : memref<?xf64>
    }
    %dt = memref.load %d[%t] : memref<?xf64>
    %r1 = arith.addi %r, %c1 : index
    %term = stencil.domain (%i) = (%r) to (%r1) -> f64 {
      %half = arith.constant 0.5 : f64
      %un = stencil.gather %next[0] : memref<?xf64>
      %e = arith.subf %un, %dt : f64
      %e2 = arith.mulf %e, %e : f64
      %h = arith.mulf %half, %e2 : f64
      stencil.yield %h : f64
    }
    %J1 = arith.addf %J, %term : f64
    scf.yield %cur, %next, %prev, %J1
        : memref<?xf64>, memref<?xf64>, memref<?xf64>, f64
  }
  return %res#3 : f64
}

// @wave1d with an i32 induction variable that runs from 1 by 2 (steps
// 1, 3, ..., 2 steps - 1): the reversal counts steps in index and gives
// the step function the variable's own values, which index the source and
// the data.
func.func @wave1d_i32(%u0: memref<?xf64> {stencil.active},
                      %u1: memref<?xf64> {stencil.active},
                      %u2: memref<?xf64> {stencil.active},
                      %c: memref<?xf64> {stencil.active},
                      %w: memref<?xf64>, %d: memref<?xf64>, %n: index,
                      %s: index, %r: index, %steps: index) -> f64 {
  %c1 = arith.constant 1 : index
  %one = arith.constant 1 : i32
  %two = arith.constant 2 : i32
  %zero = arith.constant 0.0 : f64
  %nm1 = arith.subi %n, %c1 : index
  %steps32 = arith.index_cast %steps : index to i32
  %twice = arith.muli %steps32, %two : i32
  %res:4 = scf.for %t = %one to %twice step %two
      iter_args(%prev = %u0, %cur = %u1, %next = %u2, %J = %zero)
      -> (memref<?xf64>, memref<?xf64>, memref<?xf64>, f64) : i32 {
    stencil.domain (%i) = (1) to (%nm1) {
      %f2 = arith.constant 2.0 : f64
      %um = stencil.gather %cur[-1] : memref<?xf64>
      %u = stencil.gather %cur[0] : memref<?xf64>
      %up = stencil.gather %cur[1] : memref<?xf64>
      %p = stencil.gather %prev[0] : memref<?xf64>
      %cc = stencil.gather %c[0] : memref<?xf64>
      %u2x = arith.mulf %f2, %u : f64
      %l1 = arith.addf %um, %up : f64
      %lap = arith.subf %l1, %u2x : f64
      %cl = arith.mulf %cc, %lap : f64
      %a = arith.subf %u2x, %p : f64
      %v = arith.addf %a, %cl : f64
      stencil.store %v to %next : memref<?xf64>
    }
    %ti = arith.index_cast %t : i32 to index
    %wt = memref.load %w[%ti] : memref<?xf64>
    %s1 = arith.addi %s, %c1 : index
    stencil.domain (%i) = (%s) to (%s1) {
      stencil.accumulate %wt to %next[0] : memref<?xf64>
    }
    %dt = memref.load %d[%ti] : memref<?xf64>
    %r1 = arith.addi %r, %c1 : index
    %term = stencil.domain (%i) = (%r) to (%r1) -> f64 {
      %half = arith.constant 0.5 : f64
      %un = stencil.gather %next[0] : memref<?xf64>
      %e = arith.subf %un, %dt : f64
      %e2 = arith.mulf %e, %e : f64
      %h = arith.mulf %half, %e2 : f64
      stencil.yield %h : f64
    }
    %J1 = arith.addf %J, %term : f64
    scf.yield %cur, %next, %prev, %J1
        : memref<?xf64>, memref<?xf64>, memref<?xf64>, f64
  }
  return %res#3 : f64
}

// 2-D explicit diffusion through a temporary and a copy back (no
// rotation): tmp = u + k lap(u) on the interior, then u = tmp there.
// Linear in u (k passive): the dot-product test applies.
func.func @heat2d(%u: memref<?x?xf64> {stencil.active},
                  %tmp: memref<?x?xf64> {stencil.active},
                  %k: f64, %n: index, %m: index, %steps: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %nm1 = arith.subi %n, %c1 : index
  %mm1 = arith.subi %m, %c1 : index
  scf.for %t = %c0 to %steps step %c1 {
    stencil.domain (%i, %j) = (1, 1) to (%nm1, %mm1) {
      %four = arith.constant 4.0 : f64
      %a = stencil.gather %u[-1, 0] : memref<?x?xf64>
      %b = stencil.gather %u[1, 0] : memref<?x?xf64>
      %c = stencil.gather %u[0, -1] : memref<?x?xf64>
      %d = stencil.gather %u[0, 1] : memref<?x?xf64>
      %x = stencil.gather %u[0, 0] : memref<?x?xf64>
      %ab = arith.addf %a, %b : f64
      %cd = arith.addf %c, %d : f64
      %s = arith.addf %ab, %cd : f64
      %x4 = arith.mulf %four, %x : f64
      %lap = arith.subf %s, %x4 : f64
      %kl = arith.mulf %k, %lap : f64
      %v = arith.addf %x, %kl : f64
      stencil.store %v to %tmp : memref<?x?xf64>
    }
    stencil.domain (%i, %j) = (1, 1) to (%nm1, %mm1) {
      %v = stencil.gather %tmp[0, 0] : memref<?x?xf64>
      stencil.store %v to %u : memref<?x?xf64>
    }
  }
  return
}

// 1-D nonlinear decay through two rotated buffers with an active scalar:
// b = a + k * sin(a[-1] - a[1]) on the interior; returns 2 * sum_t b[q]^2.
func.func @decay1d(%a0: memref<?xf64> {stencil.active},
                   %b0: memref<?xf64> {stencil.active},
                   %k: f64 {stencil.active}, %n: index, %q: index,
                   %steps: index) -> f64 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %zero = arith.constant 0.0 : f64
  %two = arith.constant 2.0 : f64
  %nm1 = arith.subi %n, %c1 : index
  %res:3 = scf.for %t = %c0 to %steps step %c1
      iter_args(%a = %a0, %b = %b0, %S = %zero)
      -> (memref<?xf64>, memref<?xf64>, f64) {
    stencil.domain (%i) = (1) to (%nm1) {
      %l = stencil.gather %a[-1] : memref<?xf64>
      %x = stencil.gather %a[0] : memref<?xf64>
      %r = stencil.gather %a[1] : memref<?xf64>
      %diff = arith.subf %l, %r : f64
      %sn = math.sin %diff : f64
      %ks = arith.mulf %k, %sn : f64
      %v = arith.addf %x, %ks : f64
      stencil.store %v to %b : memref<?xf64>
    }
    %q1 = arith.addi %q, %c1 : index
    %term = stencil.domain (%i) = (%q) to (%q1) -> f64 {
      %y = stencil.gather %b[0] : memref<?xf64>
      %y2 = arith.mulf %y, %y : f64
      stencil.yield %y2 : f64
    }
    %S1 = arith.addf %S, %term : f64
    scf.yield %b, %a, %S1 : memref<?xf64>, memref<?xf64>, f64
  }
  %out = arith.mulf %two, %res#2 : f64
  return %out : f64
}

// 2-D leapfrog wave through three rotated buffers, the velocity active and
// squared (nonlinear), a misfit read from the current state before the
// update: the step overwrites the interior of `next` before anything reads
// it, so Revolve's snapshots keep only its four edges (docs/TimeLoops.md,
// section 4), which later steps read. Non-square, so that the edges of the
// two dimensions differ.
func.func @wave2d(%u0: memref<?x?xf64> {stencil.active},
                  %u1: memref<?x?xf64> {stencil.active},
                  %u2: memref<?x?xf64> {stencil.active},
                  %c: memref<?x?xf64> {stencil.active},
                  %n: index, %m: index, %r: index, %s: index,
                  %steps: index) -> f64 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %zero = arith.constant 0.0 : f64
  %nm1 = arith.subi %n, %c1 : index
  %mm1 = arith.subi %m, %c1 : index
  %r1 = arith.addi %r, %c1 : index
  %s1 = arith.addi %s, %c1 : index
  %res:4 = scf.for %t = %c0 to %steps step %c1
      iter_args(%prev = %u0, %cur = %u1, %next = %u2, %J = %zero)
      -> (memref<?x?xf64>, memref<?x?xf64>, memref<?x?xf64>, f64) {
    %term = stencil.domain (%i, %j) = (%r, %s) to (%r1, %s1) -> f64 {
      %x = stencil.gather %cur[0, 0] : memref<?x?xf64>
      %x2 = arith.mulf %x, %x : f64
      stencil.yield %x2 : f64
    }
    stencil.domain (%i, %j) = (1, 1) to (%nm1, %mm1) {
      %two = arith.constant 2.0 : f64
      %four = arith.constant 4.0 : f64
      %a = stencil.gather %cur[-1, 0] : memref<?x?xf64>
      %b = stencil.gather %cur[1, 0] : memref<?x?xf64>
      %e = stencil.gather %cur[0, -1] : memref<?x?xf64>
      %f = stencil.gather %cur[0, 1] : memref<?x?xf64>
      %u = stencil.gather %cur[0, 0] : memref<?x?xf64>
      %p = stencil.gather %prev[0, 0] : memref<?x?xf64>
      %cc = stencil.gather %c[0, 0] : memref<?x?xf64>
      %ab = arith.addf %a, %b : f64
      %ef = arith.addf %e, %f : f64
      %s4 = arith.addf %ab, %ef : f64
      %u4 = arith.mulf %four, %u : f64
      %lap = arith.subf %s4, %u4 : f64
      %c2 = arith.mulf %cc, %cc : f64
      %cl = arith.mulf %c2, %lap : f64
      %u2x = arith.mulf %two, %u : f64
      %d = arith.subf %u2x, %p : f64
      %v = arith.addf %d, %cl : f64
      stencil.store %v to %next : memref<?x?xf64>
    }
    %J1 = arith.addf %J, %term : f64
    scf.yield %cur, %next, %prev, %J1
        : memref<?x?xf64>, memref<?x?xf64>, memref<?x?xf64>, f64
  }
  return %res#3 : f64
}

// Two rotated buffers and an array the loop writes without rotating it
// (`g`, a record of 2 a, which nothing reads): the state is a, b, then g,
// and the step's adjoint reads a (the sine's partials) but not g, whose
// snapshots keep only its two end points.
func.func @mixed1d(%a0: memref<?xf64> {stencil.active},
                   %b0: memref<?xf64> {stencil.active},
                   %g: memref<?xf64> {stencil.active}, %n: index, %q: index,
                   %steps: index) -> f64 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %zero = arith.constant 0.0 : f64
  %nm1 = arith.subi %n, %c1 : index
  %res:3 = scf.for %t = %c0 to %steps step %c1
      iter_args(%a = %a0, %b = %b0, %S = %zero)
      -> (memref<?xf64>, memref<?xf64>, f64) {
    stencil.domain (%i) = (1) to (%nm1) {
      %two = arith.constant 2.0 : f64
      %x = stencil.gather %a[0] : memref<?xf64>
      %y = arith.mulf %two, %x : f64
      stencil.store %y to %g : memref<?xf64>
    }
    stencil.domain (%i) = (1) to (%nm1) {
      %k = arith.constant 0.4 : f64
      %l = stencil.gather %a[-1] : memref<?xf64>
      %x = stencil.gather %a[0] : memref<?xf64>
      %r = stencil.gather %a[1] : memref<?xf64>
      %p = arith.mulf %l, %r : f64
      %sn = math.sin %p : f64
      %ks = arith.mulf %k, %sn : f64
      %v = arith.addf %x, %ks : f64
      stencil.store %v to %b : memref<?xf64>
    }
    %q1 = arith.addi %q, %c1 : index
    %term = stencil.domain (%i) = (%q) to (%q1) -> f64 {
      %y = stencil.gather %b[0] : memref<?xf64>
      %y2 = arith.mulf %y, %y : f64
      stencil.yield %y2 : f64
    }
    %S1 = arith.addf %S, %term : f64
    scf.yield %b, %a, %S1 : memref<?xf64>, memref<?xf64>, f64
  }
  return %res#2 : f64
}

// wave1d with an objective of the final state after the loop as well (the
// tail, docs/TimeLoops.md, section 1): J = sum_t misfit_t + 3 * 1/2 sum_i
// (u_T[i] - dT[i])^2 + sum_i c[i] u_{T-1}[i] u_T[i+1]. The steps' adjoints
// read the state, so the schedule reverses T + 1 steps, the last being the
// tail.
func.func @wave1d_final(%u0: memref<?xf64> {stencil.active},
                        %u1: memref<?xf64> {stencil.active},
                        %u2: memref<?xf64> {stencil.active},
                        %c: memref<?xf64> {stencil.active},
                        %w: memref<?xf64>, %d: memref<?xf64>,
                        %dT: memref<?xf64>, %n: index, %s: index,
                        %r: index, %steps: index) -> f64 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %zero = arith.constant 0.0 : f64
  %nm1 = arith.subi %n, %c1 : index
  %res:4 = scf.for %t = %c0 to %steps step %c1
      iter_args(%prev = %u0, %cur = %u1, %next = %u2, %J = %zero)
      -> (memref<?xf64>, memref<?xf64>, memref<?xf64>, f64) {
    stencil.domain (%i) = (1) to (%nm1) {
      %two = arith.constant 2.0 : f64
      %um = stencil.gather %cur[-1] : memref<?xf64>
      %u = stencil.gather %cur[0] : memref<?xf64>
      %up = stencil.gather %cur[1] : memref<?xf64>
      %p = stencil.gather %prev[0] : memref<?xf64>
      %cc = stencil.gather %c[0] : memref<?xf64>
      %u2x = arith.mulf %two, %u : f64
      %l1 = arith.addf %um, %up : f64
      %lap = arith.subf %l1, %u2x : f64
      %cl = arith.mulf %cc, %lap : f64
      %a = arith.subf %u2x, %p : f64
      %v = arith.addf %a, %cl : f64
      stencil.store %v to %next : memref<?xf64>
    }
    %wt = memref.load %w[%t] : memref<?xf64>
    %s1 = arith.addi %s, %c1 : index
    stencil.domain (%i) = (%s) to (%s1) {
      stencil.accumulate %wt to %next[0] : memref<?xf64>
    }
    %dt = memref.load %d[%t] : memref<?xf64>
    %r1 = arith.addi %r, %c1 : index
    %term = stencil.domain (%i) = (%r) to (%r1) -> f64 {
      %half = arith.constant 0.5 : f64
      %un = stencil.gather %next[0] : memref<?xf64>
      %e = arith.subf %un, %dt : f64
      %e2 = arith.mulf %e, %e : f64
      %h = arith.mulf %half, %e2 : f64
      stencil.yield %h : f64
    }
    %J1 = arith.addf %J, %term : f64
    scf.yield %cur, %next, %prev, %J1
        : memref<?xf64>, memref<?xf64>, memref<?xf64>, f64
  }
  // A bound computed after the loop, which only the tail uses.
  %nm2 = arith.subi %nm1, %c1 : index
  %misfit = stencil.domain (%i) = (0) to (%n) -> f64 {
    %half = arith.constant 0.5 : f64
    %u = stencil.gather %res#1[0] : memref<?xf64>
    %o = stencil.gather %dT[0] : memref<?xf64>
    %e = arith.subf %u, %o : f64
    %e2 = arith.mulf %e, %e : f64
    %h = arith.mulf %half, %e2 : f64
    stencil.yield %h : f64
  }
  %cross = stencil.domain (%i) = (1) to (%nm2) -> f64 {
    %cc = stencil.gather %c[0] : memref<?xf64>
    %a = stencil.gather %res#0[0] : memref<?xf64>
    %b = stencil.gather %res#1[1] : memref<?xf64>
    %ab = arith.mulf %a, %b : f64
    %x = arith.mulf %cc, %ab : f64
    stencil.yield %x : f64
  }
  %three = arith.constant 3.0 : f64
  %m3 = arith.mulf %three, %misfit : f64
  %sum = arith.addf %res#3, %m3 : f64
  %total = arith.addf %sum, %cross : f64
  return %total : f64
}

// wave1d without the per-step misfit and with the velocity passive: the
// steps' adjoints read no state, so no schedule advances it; the objective
// 1/2 sum_i (u_T[i] - dT[i])^2 of the final state does, so the adjoint
// first runs the T steps forward for it.
func.func @wave1d_final_passive(%u0: memref<?xf64> {stencil.active},
                                %u1: memref<?xf64> {stencil.active},
                                %u2: memref<?xf64> {stencil.active},
                                %c: memref<?xf64>, %dT: memref<?xf64>,
                                %n: index, %steps: index) -> f64 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %nm1 = arith.subi %n, %c1 : index
  %res:3 = scf.for %t = %c0 to %steps step %c1
      iter_args(%prev = %u0, %cur = %u1, %next = %u2)
      -> (memref<?xf64>, memref<?xf64>, memref<?xf64>) {
    stencil.domain (%i) = (1) to (%nm1) {
      %two = arith.constant 2.0 : f64
      %um = stencil.gather %cur[-1] : memref<?xf64>
      %u = stencil.gather %cur[0] : memref<?xf64>
      %up = stencil.gather %cur[1] : memref<?xf64>
      %p = stencil.gather %prev[0] : memref<?xf64>
      %cc = stencil.gather %c[0] : memref<?xf64>
      %u2x = arith.mulf %two, %u : f64
      %l1 = arith.addf %um, %up : f64
      %lap = arith.subf %l1, %u2x : f64
      %cl = arith.mulf %cc, %lap : f64
      %a = arith.subf %u2x, %p : f64
      %v = arith.addf %a, %cl : f64
      stencil.store %v to %next : memref<?xf64>
    }
    scf.yield %cur, %next, %prev
        : memref<?xf64>, memref<?xf64>, memref<?xf64>
  }
  %misfit = stencil.domain (%i) = (0) to (%n) -> f64 {
    %half = arith.constant 0.5 : f64
    %u = stencil.gather %res#1[0] : memref<?xf64>
    %o = stencil.gather %dT[0] : memref<?xf64>
    %e = arith.subf %u, %o : f64
    %e2 = arith.mulf %e, %e : f64
    %h = arith.mulf %half, %e2 : f64
    stencil.yield %h : f64
  }
  return %misfit : f64
}

// heat2d with a linear objective of the final state, sum g u: neither the
// steps' adjoints nor the tail's read the state, so the adjoint runs no
// primal step at all (and the dot-product test applies).
func.func @heat2d_final(%u: memref<?x?xf64> {stencil.active},
                        %tmp: memref<?x?xf64> {stencil.active},
                        %g: memref<?x?xf64>, %k: f64, %n: index, %m: index,
                        %steps: index) -> f64 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %nm1 = arith.subi %n, %c1 : index
  %mm1 = arith.subi %m, %c1 : index
  scf.for %t = %c0 to %steps step %c1 {
    stencil.domain (%i, %j) = (1, 1) to (%nm1, %mm1) {
      %four = arith.constant 4.0 : f64
      %a = stencil.gather %u[-1, 0] : memref<?x?xf64>
      %b = stencil.gather %u[1, 0] : memref<?x?xf64>
      %c = stencil.gather %u[0, -1] : memref<?x?xf64>
      %d = stencil.gather %u[0, 1] : memref<?x?xf64>
      %x = stencil.gather %u[0, 0] : memref<?x?xf64>
      %ab = arith.addf %a, %b : f64
      %cd = arith.addf %c, %d : f64
      %s = arith.addf %ab, %cd : f64
      %x4 = arith.mulf %four, %x : f64
      %lap = arith.subf %s, %x4 : f64
      %kl = arith.mulf %k, %lap : f64
      %v = arith.addf %x, %kl : f64
      stencil.store %v to %tmp : memref<?x?xf64>
    }
    stencil.domain (%i, %j) = (1, 1) to (%nm1, %mm1) {
      %v = stencil.gather %tmp[0, 0] : memref<?x?xf64>
      stencil.store %v to %u : memref<?x?xf64>
    }
  }
  %dot = stencil.domain (%i, %j) = (0, 0) to (%n, %m) -> f64 {
    %x = stencil.gather %u[0, 0] : memref<?x?xf64>
    %y = stencil.gather %g[0, 0] : memref<?x?xf64>
    %xy = arith.mulf %x, %y : f64
    stencil.yield %xy : f64
  }
  return %dot : f64
}

// wave1d with domains before the loop (the head, docs/TimeLoops.md,
// section 1.2): the coefficient from a velocity, c = (s v)^2, written into
// the argument %c that the loop reads; the first state from the initial
// one and a velocity field, u1 = u0 + h (w0[-1] + w0[1]) inside (the loop
// starts from both); and a penalty sum v^2 that the function adds to the
// misfit. The gradient reaches v, u0 and w0 through the head; %c and the
// inside of %u1 are overwritten, so their gradients are zero there. (The
// neighbours of w0 make the head read beyond a rank's block:
// mpi-time-loops.test.)
func.func @wave1d_head(%u0: memref<?xf64> {stencil.active},
                       %u1: memref<?xf64> {stencil.active},
                       %u2: memref<?xf64> {stencil.active},
                       %w0: memref<?xf64> {stencil.active},
                       %v: memref<?xf64> {stencil.active},
                       %c: memref<?xf64> {stencil.active},
                       %d: memref<?xf64>, %s: f64, %h: f64, %n: index,
                       %r: index, %steps: index) -> f64 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %zero = arith.constant 0.0 : f64
  %nm1 = arith.subi %n, %c1 : index
  stencil.domain (%i) = (0) to (%n) {
    %vv = stencil.gather %v[0] : memref<?xf64>
    %sv = arith.mulf %s, %vv : f64
    %sv2 = arith.mulf %sv, %sv : f64
    stencil.store %sv2 to %c : memref<?xf64>
  }
  stencil.domain (%i) = (1) to (%nm1) {
    %a = stencil.gather %u0[0] : memref<?xf64>
    %bm = stencil.gather %w0[-1] : memref<?xf64>
    %bp = stencil.gather %w0[1] : memref<?xf64>
    %b = arith.addf %bm, %bp : f64
    %hb = arith.mulf %h, %b : f64
    %x = arith.addf %a, %hb : f64
    stencil.store %x to %u1 : memref<?xf64>
  }
  %penalty = stencil.domain (%i) = (0) to (%n) -> f64 {
    %vv = stencil.gather %v[0] : memref<?xf64>
    %v2 = arith.mulf %vv, %vv : f64
    stencil.yield %v2 : f64
  }
  %res:4 = scf.for %t = %c0 to %steps step %c1
      iter_args(%prev = %u0, %cur = %u1, %next = %u2, %J = %zero)
      -> (memref<?xf64>, memref<?xf64>, memref<?xf64>, f64) {
    stencil.domain (%i) = (1) to (%nm1) {
      %two = arith.constant 2.0 : f64
      %um = stencil.gather %cur[-1] : memref<?xf64>
      %u = stencil.gather %cur[0] : memref<?xf64>
      %up = stencil.gather %cur[1] : memref<?xf64>
      %p = stencil.gather %prev[0] : memref<?xf64>
      %cc = stencil.gather %c[0] : memref<?xf64>
      %u2x = arith.mulf %two, %u : f64
      %l1 = arith.addf %um, %up : f64
      %lap = arith.subf %l1, %u2x : f64
      %cl = arith.mulf %cc, %lap : f64
      %a = arith.subf %u2x, %p : f64
      %x = arith.addf %a, %cl : f64
      stencil.store %x to %next : memref<?xf64>
    }
    %dt = memref.load %d[%t] : memref<?xf64>
    %r1 = arith.addi %r, %c1 : index
    %term = stencil.domain (%i) = (%r) to (%r1) -> f64 {
      %half = arith.constant 0.5 : f64
      %un = stencil.gather %next[0] : memref<?xf64>
      %e = arith.subf %un, %dt : f64
      %e2 = arith.mulf %e, %e : f64
      %y = arith.mulf %half, %e2 : f64
      stencil.yield %y : f64
    }
    %J1 = arith.addf %J, %term : f64
    scf.yield %cur, %next, %prev, %J1
        : memref<?xf64>, memref<?xf64>, memref<?xf64>, f64
  }
  %weight = arith.constant 0.01 : f64
  %wp = arith.mulf %weight, %penalty : f64
  %total = arith.addf %res#3, %wp : f64
  return %total : f64
}

// wave1d driven by scalars the loop carries (clocks, docs/TimeLoops.md,
// section 1): a simulated time t, advanced by a table of time steps dts[t]
// and feeding the source sin(omega t); an index k that picks the
// observation each step compares with (k + 2 mod T); and the receiver's
// position, which moves one point per step from r and wraps back to 1 (a
// domain whose bounds vary per step: --stencil-outline-domains). The
// objective adds the final time (passive: it shifts J, not its gradient)
// and, after the loop, the final state's energy weighted by the final time
// (a tail that reads a clock).
func.func @wave1d_clock(%u0: memref<?xf64> {stencil.active},
                        %u1: memref<?xf64> {stencil.active},
                        %u2: memref<?xf64> {stencil.active},
                        %c: memref<?xf64> {stencil.active},
                        %dts: memref<?xf64>, %d: memref<?xf64>, %t0: f64,
                        %omega: f64, %n: index, %s: index, %r: index,
                        %steps: index) -> f64 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %zero = arith.constant 0.0 : f64
  %nm1 = arith.subi %n, %c1 : index
  %res:7 = scf.for %it = %c0 to %steps step %c1
      iter_args(%prev = %u0, %cur = %u1, %next = %u2, %J = %zero,
                %time = %t0, %k = %c0, %rk = %r)
      -> (memref<?xf64>, memref<?xf64>, memref<?xf64>, f64, f64, index,
          index) {
    stencil.domain (%i) = (1) to (%nm1) {
      %two = arith.constant 2.0 : f64
      %um = stencil.gather %cur[-1] : memref<?xf64>
      %u = stencil.gather %cur[0] : memref<?xf64>
      %up = stencil.gather %cur[1] : memref<?xf64>
      %p = stencil.gather %prev[0] : memref<?xf64>
      %cc = stencil.gather %c[0] : memref<?xf64>
      %u2x = arith.mulf %two, %u : f64
      %l1 = arith.addf %um, %up : f64
      %lap = arith.subf %l1, %u2x : f64
      %cl = arith.mulf %cc, %lap : f64
      %a = arith.subf %u2x, %p : f64
      %v = arith.addf %a, %cl : f64
      stencil.store %v to %next : memref<?xf64>
    }
    %phase = arith.mulf %omega, %time : f64
    %wt = math.sin %phase : f64
    %s1 = arith.addi %s, %c1 : index
    stencil.domain (%i) = (%s) to (%s1) {
      stencil.accumulate %wt to %next[0] : memref<?xf64>
    }
    %dk = memref.load %d[%k] : memref<?xf64>
    %r1 = arith.addi %rk, %c1 : index
    %term = stencil.domain (%i) = (%rk) to (%r1) -> f64 {
      %half = arith.constant 0.5 : f64
      %un = stencil.gather %next[0] : memref<?xf64>
      %e = arith.subf %un, %dk : f64
      %e2 = arith.mulf %e, %e : f64
      %h = arith.mulf %half, %e2 : f64
      stencil.yield %h : f64
    }
    %J1 = arith.addf %J, %term : f64
    %step = memref.load %dts[%it] : memref<?xf64>
    %time1 = arith.addf %time, %step : f64
    %k2 = arith.addi %k, %c2 : index
    %kn = arith.remui %k2, %steps : index
    %inside = arith.cmpi slt, %r1, %nm1 : index
    %rn = arith.select %inside, %r1, %c1 : index
    scf.yield %cur, %next, %prev, %J1, %time1, %kn, %rn
        : memref<?xf64>, memref<?xf64>, memref<?xf64>, f64, f64, index, index
  }
  %w = arith.constant 0.001 : f64
  %tw = arith.mulf %w, %res#4 : f64
  %total = arith.addf %res#3, %tw : f64
  %energy = stencil.domain (%i) = (0) to (%n) -> f64 {
    %u = stencil.gather %res#1[0] : memref<?xf64>
    %uu = arith.mulf %u, %u : f64
    %e = arith.mulf %uu, %res#4 : f64
    stencil.yield %e : f64
  }
  %all = arith.addf %total, %energy : f64
  return %all : f64
}

// A 2-D nonlinear loop through two rotated buffers whose step adjoint, with
// cut-min-gain=1, stores two values in temporaries per step (the partials
// of tanh(w e) and sin(s + n) c): the reversed loop's step functions then
// take both from one buffer each, allocated before the loop
// (--stencil-hoist-temporaries). Returns sum_t b[q, q]^2.
func.func @cut2d(%a0: memref<?x?xf64> {stencil.active},
                 %b0: memref<?x?xf64> {stencil.active},
                 %c: memref<?x?xf64>, %k: f64 {stencil.active},
                 %n: index, %m: index, %q: index, %steps: index) -> f64 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %zero = arith.constant 0.0 : f64
  %nm1 = arith.subi %n, %c1 : index
  %mm1 = arith.subi %m, %c1 : index
  %res:3 = scf.for %t = %c0 to %steps step %c1
      iter_args(%a = %a0, %b = %b0, %S = %zero)
      -> (memref<?x?xf64>, memref<?x?xf64>, f64) {
    stencil.domain (%i, %j) = (1, 1) to (%nm1, %mm1) {
      %w = stencil.gather %a[-1, 0] : memref<?x?xf64>
      %e = stencil.gather %a[1, 0] : memref<?x?xf64>
      %s = stencil.gather %a[0, -1] : memref<?x?xf64>
      %nn = stencil.gather %a[0, 1] : memref<?x?xf64>
      %x = stencil.gather %a[0, 0] : memref<?x?xf64>
      %cc = stencil.gather %c[0, 0] : memref<?x?xf64>
      %we = arith.mulf %w, %e : f64
      %p = math.tanh %we : f64
      %sn = arith.addf %s, %nn : f64
      %y = math.sin %sn : f64
      %yc = arith.mulf %y, %cc : f64
      %py = arith.addf %p, %yc : f64
      %kpy = arith.mulf %k, %py : f64
      %v = arith.addf %x, %kpy : f64
      stencil.store %v to %b : memref<?x?xf64>
    }
    %q1 = arith.addi %q, %c1 : index
    %term = stencil.domain (%i, %j) = (%q, %q) to (%q1, %q1) -> f64 {
      %y = stencil.gather %b[0, 0] : memref<?x?xf64>
      %y2 = arith.mulf %y, %y : f64
      stencil.yield %y2 : f64
    }
    %S1 = arith.addf %S, %term : f64
    scf.yield %b, %a, %S1 : memref<?x?xf64>, memref<?x?xf64>, f64
  }
  return %res#2 : f64
}

// A 1-D reaction-diffusion whose state is written in place (no iter_args):
// tmp = u + k (u[-1] - 2 u + u[1]) + 1/4 u[-1] u[1] inside, copied back
// into u, and a nonlinear objective of the final state after the loop,
// sum_i c[i] u_T[i]^2 (the tail). The steps' adjoints and the tail's read
// the state, so the schedule reverses T + 1 steps, the last being the
// tail, on the arrays the caller passed (no rotated array, no shadow to
// rotate).
func.func @react1d_final(%u: memref<?xf64> {stencil.active},
                         %tmp: memref<?xf64> {stencil.active},
                         %c: memref<?xf64> {stencil.active},
                         %k: f64 {stencil.active}, %n: index,
                         %steps: index) -> f64 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %nm1 = arith.subi %n, %c1 : index
  scf.for %t = %c0 to %steps step %c1 {
    stencil.domain (%i) = (1) to (%nm1) {
      %two = arith.constant 2.0 : f64
      %quarter = arith.constant 0.25 : f64
      %a = stencil.gather %u[-1] : memref<?xf64>
      %x = stencil.gather %u[0] : memref<?xf64>
      %b = stencil.gather %u[1] : memref<?xf64>
      %ab = arith.addf %a, %b : f64
      %x2 = arith.mulf %two, %x : f64
      %lap = arith.subf %ab, %x2 : f64
      %kl = arith.mulf %k, %lap : f64
      %p = arith.mulf %a, %b : f64
      %qp = arith.mulf %quarter, %p : f64
      %y = arith.addf %x, %kl : f64
      %v = arith.addf %y, %qp : f64
      stencil.store %v to %tmp : memref<?xf64>
    }
    stencil.domain (%i) = (1) to (%nm1) {
      %v = stencil.gather %tmp[0] : memref<?xf64>
      stencil.store %v to %u : memref<?xf64>
    }
  }
  %J = stencil.domain (%i) = (0) to (%n) -> f64 {
    %x = stencil.gather %u[0] : memref<?xf64>
    %cc = stencil.gather %c[0] : memref<?xf64>
    %x2 = arith.mulf %x, %x : f64
    %y = arith.mulf %cc, %x2 : f64
    stencil.yield %y : f64
  }
  return %J : f64
}

// A linear 1-D diffusion whose state is written in place, tmp = u + k
// (u[-1] - 2 u + u[1]) copied back into u, with a per-step sum of the state
// just written, J = sum_t sum_i g[i] u_{t+1}[i]. The step's adjoint replays
// the copy into u for the sum, after the first domain read u: allowed
// because that domain's adjoint (linear) does not read u. Nothing reads the
// state, so no schedule keeps any (the dot-product test applies).
func.func @heat1d_sum(%u: memref<?xf64> {stencil.active},
                      %tmp: memref<?xf64> {stencil.active},
                      %g: memref<?xf64>, %k: f64, %n: index,
                      %steps: index) -> f64 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %zero = arith.constant 0.0 : f64
  %nm1 = arith.subi %n, %c1 : index
  %S = scf.for %t = %c0 to %steps step %c1 iter_args(%acc = %zero) -> (f64) {
    stencil.domain (%i) = (1) to (%nm1) {
      %two = arith.constant 2.0 : f64
      %a = stencil.gather %u[-1] : memref<?xf64>
      %x = stencil.gather %u[0] : memref<?xf64>
      %b = stencil.gather %u[1] : memref<?xf64>
      %ab = arith.addf %a, %b : f64
      %x2 = arith.mulf %two, %x : f64
      %lap = arith.subf %ab, %x2 : f64
      %kl = arith.mulf %k, %lap : f64
      %v = arith.addf %x, %kl : f64
      stencil.store %v to %tmp : memref<?xf64>
    }
    stencil.domain (%i) = (1) to (%nm1) {
      %v = stencil.gather %tmp[0] : memref<?xf64>
      stencil.store %v to %u : memref<?xf64>
    }
    %q = stencil.domain (%i) = (0) to (%n) -> f64 {
      %x = stencil.gather %u[0] : memref<?xf64>
      %w = stencil.gather %g[0] : memref<?xf64>
      %y = arith.mulf %w, %x : f64
      stencil.yield %y : f64
    }
    %acc1 = arith.addf %acc, %q : f64
    scf.yield %acc1 : f64
  }
  return %S : f64
}
