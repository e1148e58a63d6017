// RUN: stencil-opt %s --stencil-adjoint | FileCheck %s
// RUN: stencil-opt %s --stencil-adjoint | FileCheck %s --check-prefix=NOHAND

// The reversal of a time loop (docs/TimeLoops.md): three arrays rotated
// through iter_args and a sum of per-step terms, scaled after the loop.
// The body becomes the private @rot_step, differentiated as a
// straight-line function into @rot_step_adjoint; @rot_adjoint takes the
// snapshot count last and follows the run-time schedule's actions.

func.func @rot(%a: memref<?xf64> {stencil.active}, %b: memref<?xf64> {stencil.active},
               %c: memref<?xf64> {stencil.active}, %n: index, %T: index) -> f64 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %zero = arith.constant 0.0 : f64
  %half = arith.constant 0.5 : f64
  %r:4 = scf.for %t = %c0 to %T step %c1 iter_args(%x = %a, %y = %b, %z = %c, %s = %zero)
      -> (memref<?xf64>, memref<?xf64>, memref<?xf64>, f64) {
    %term = stencil.domain (%i) = (1) to (%n) -> f64 {
      %u = stencil.gather %x[-1] : memref<?xf64>
      %v = stencil.gather %y[0] : memref<?xf64>
      %w = arith.mulf %u, %v : f64
      stencil.store %w to %z : memref<?xf64>
      stencil.yield %w : f64
    }
    %s1 = arith.addf %s, %term : f64
    scf.yield %y, %z, %x, %s1 : memref<?xf64>, memref<?xf64>, memref<?xf64>, f64
  }
  %out = arith.mulf %half, %r#3 : f64
  return %out : f64
}

// CHECK-LABEL: func.func @rot_adjoint(
// CHECK-SAME:    %[[A:[a-z0-9]+]]: memref<?xf64>, %[[B:[a-z0-9]+]]: memref<?xf64>, %[[C:[a-z0-9]+]]: memref<?xf64>, %[[N:[a-z0-9]+]]: index, %[[T:[a-z0-9]+]]: index,
// CHECK-SAME:    %[[AB:[a-z0-9]+]]: memref<?xf64>, %[[BB:[a-z0-9]+]]: memref<?xf64>, %[[CB:[a-z0-9]+]]: memref<?xf64>, %[[SEED:[a-z0-9]+]]: f64, %[[SNAP:[a-z0-9]+]]: index)
// The roles of the arguments after the primal's (the C interface reads them).
// CHECK-SAME:    attributes {stencil.adjoint_of = @rot, stencil.extra_args = ["snapshots"], stencil.shadows_of = array<i64: 0, 1, 2>}
// The seed of the sum: the epilogue (0.5 * sum) reversed.
// CHECK:       %[[JB:.*]] = arith.mulf %[[SEED]], %{{.*}} : f64
// The bytes of one slot of the state (three arrays, each rounded up to a
// cache line) go to the library, which keeps the workspace.
// The step's adjoint reads x and y but not z (which the step overwrites):
// store-all (snapshots >= T) keeps x and y only, other schedules the whole
// state, so the offsets and the slot's bytes are selected at run time.
// CHECK:       %[[SA:.*]] = arith.cmpi sge, %[[SNAP]], %{{.*}} : index
// CHECK-COUNT-3: arith.select %[[SA]], %{{.*}}, %{{.*}} : index
// CHECK-NEXT:  %[[STRIDE:.*]] = arith.select %[[SA]], %{{.*}}, %{{.*}} : index
// CHECK:       %[[BYTES:.*]] = arith.index_cast %[[STRIDE]] : index to i64
// CHECK:       %[[SCHED:.*]] = call @stencil_ckpt_start(%{{.*}}, %{{.*}}, %[[BYTES]]) : (i64, i64, i64) -> !llvm.ptr
// CHECK:       scf.if
// Snapshots live in the library's workspace: slot k of state array j is a
// view at byte k * (bytes of one slot) + (offset of array j in a slot).
// CHECK:         %[[WS:.*]] = func.call @stencil_ckpt_workspace(%[[SCHED]]) : (!llvm.ptr) -> memref<?xi8>
// The shadows as bound during the last step: the rotation applied T-1 times.
// CHECK:         scf.for {{.*}} iter_args(%[[S0:.*]] = %[[AB]], %[[S1:.*]] = %[[BB]], %[[S2:.*]] = %[[CB]])
// CHECK-NEXT:      scf.yield %[[S1]], %[[S2]], %[[S0]]
// CHECK:         scf.while
// CHECK:           func.call @stencil_ckpt_step_action(%[[SCHED]])
// CHECK:           scf.index_switch
// STORE: copy each state array into its slot; z only if not store-all.
// CHECK:           case 0 {
// CHECK:             func.call @stencil_ckpt_action_slot
// CHECK:             %[[SV:view[_0-9]*]] = memref.view %[[WS]][%{{.*}}][%{{.*}}] : memref<?xi8> to memref<?xf64>
// CHECK-NEXT:        stencil.domain
// CHECK-NEXT:          %[[V:.*]] = stencil.gather %[[W:arg[0-9]+]][0] : memref<?xf64>
// CHECK-NEXT:          stencil.store %[[V]] to %[[SV]] : memref<?xf64>
// CHECK:             memref.view %[[WS]]
// CHECK:             %[[NSA:.*]] = arith.xori %[[SA]], %true
// CHECK-NEXT:        scf.if %[[NSA]] {
// CHECK:               memref.view %[[WS]]
// CHECK:               stencil.gather %[[Z:arg[0-9]+]][0]
// RESTORE: the other way.
// CHECK:           case 1 {
// CHECK:             %[[RV:view[_0-9]*]] = memref.view %[[WS]]
// CHECK:             stencil.domain
// CHECK-NEXT:          %[[V:.*]] = stencil.gather %[[RV]][0] : memref<?xf64>
// CHECK-NEXT:          stencil.store %[[V]] to %[[W]] : memref<?xf64>
// ADVANCE: primal steps, rotating the working arrays.
// CHECK:           case 2 {
// CHECK:             scf.for {{.*}} iter_args(%[[W0:.*]] = %{{.*}}, %[[W1:.*]] = %{{.*}}, %[[W2:.*]] = %{{.*}})
// CHECK:               func.call @rot_step(%[[N]], %[[W0]], %[[W1]], %[[W2]], %{{.*}})
// CHECK-NEXT:          scf.yield %[[W1]], %[[W2]], %[[W0]]
// REVERSE: the step's adjoint on the state in the slot the action names (its
// last use, read in place: no restore; z, which it does not read, from the
// working arrays) or, for slot -1, on the working state; then the term's
// seed, and the shadows rotated back.
// CHECK:           case 3 {
// CHECK:             %[[SL:.*]] = func.call @stencil_ckpt_action_slot
// CHECK-NEXT:        %[[SLI:.*]] = arith.index_cast %[[SL]]
// CHECK:             %[[FROM:.*]] = arith.cmpi sge, %[[SLI]], %{{.*}} : index
// CHECK-NEXT:        %[[ST:.*]]:3 = scf.if %[[FROM]]
// CHECK-COUNT-2:       memref.view %[[WS]]
// CHECK-NEXT:          scf.yield %view{{.*}}, %view{{.*}}, %[[Z]] : memref<?xf64>, memref<?xf64>, memref<?xf64>
// CHECK-NEXT:        } else {
// CHECK-NEXT:          scf.yield %[[P0:[a-z0-9]+]], %[[P1:[a-z0-9]+]], %[[Z]] :
// CHECK:             func.call @rot_step_adjoint(%[[N]], %[[ST]]#0, %[[ST]]#1, %[[ST]]#2, %{{.*}}, %[[Q0:[a-z0-9]+]], %[[Q1:[a-z0-9]+]], %[[Q2:[a-z0-9]+]], %[[JB]])
// CHECK-NEXT:        scf.yield %[[P0]], %[[P1]], %[[Z]], %[[Q2]], %[[Q0]], %[[Q1]]
// CHECK:         func.call @stencil_ckpt_finish(%[[SCHED]])
// CHECK-NOT:     memref.dealloc
// CHECK:       return

// The step: the captures (%n), the rotated arrays, the step index; it
// returns the term.
// CHECK-LABEL: func.func private @rot_step(
// CHECK-SAME:    %{{.*}}: index, %{{.*}}: memref<?xf64> {stencil.active}, %{{.*}}: memref<?xf64> {stencil.active}, %{{.*}}: memref<?xf64> {stencil.active}, %{{.*}}: index) -> f64 attributes {stencil.noalias}
// CHECK-LABEL: func.func private @rot_step_adjoint(
// CHECK-SAME:    %{{.*}}: f64) attributes {stencil.adjoint_of = @rot_step, stencil.extra_args = [], stencil.noalias, stencil.shadows_of = array<i64: 1, 2, 3>}
// CHECK:       func.func private @stencil_ckpt_start(i64, i64, i64) -> !llvm.ptr
// CHECK:       func.func private @stencil_ckpt_workspace(!llvm.ptr) -> memref<?xi8> attributes {llvm.emit_c_interface, stencil.runtime}

// No reset here is made unnecessary by the rotation (time-loop-handover.mlir):
// z's shadow, reset, goes to x, whose shadow the step scatters into.
// NOHAND-NOT: _steady
// NOHAND-NOT: step_adjoint_reset
// NOHAND:     func.func private @stencil_ckpt_finish
