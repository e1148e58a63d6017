// RUN: stencil-opt %s --stencil-distribute="grid=2 report=1" --mlir-print-op-on-diagnostic=false -o /dev/null 2>&1 | FileCheck %s --check-prefix=PLAN
// RUN: stencil-opt %s --stencil-distribute="grid=2" | FileCheck %s
// RUN: stencil-opt %s --stencil-adjoint --stencil-distribute="grid=2" | FileCheck %s --check-prefix=ADJ
// RUN: stencil-opt %s --stencil-adjoint --stencil-distribute="grid=2" --convert-to-omp -o /dev/null

// Domains before and after a time loop (docs/TimeLoops.md, sections 1.1
// and 1.2) distributed with it (docs/Distributed.md, "Time loops"). The
// three parts are planned apart, no halo trusted at the start of each:
// - the head reads `v` (array 0) beyond the block: exchanged before it;
// - `c` (array 1), which the head writes and the body only reads, is
//   exchanged once before the loop (loop_entry), after the head;
// - the body exchanges its state `a` (array 2) every step;
// - the tail reads the final state `%r#1` (array 4) beyond the block: a
//   view of the loop's result, exchanged after the loop.
// PLAN: remark: distribution plan: {"domains":[{"exchanges":[{"array":0,"widths":{{\[\[1,1\]\]}}}],"reach":{{\[\[0,0\]\]}}},{"exchanges":[{"array":2,"widths":{{\[\[1,0\]\]}}}],"reach":{{\[\[0,0\]\]}}},{"exchanges":[{"array":4,"widths":{{\[\[0,1\]\]}}}],"reach":{{\[\[0,0\]\]}}}],"halos":{{\[\[\[1,1\]\],\[\[0,1\]\],\[\[1,0\]\],\[\[0,0\]\],\[\[0,1\]\]\]}},"head_domains":1,"loop_entry":[{"array":1,"widths":{{\[\[0,1\]\]}}}],"max_halo":1,"rank":1,"tail_domains":1}

// CHECK-LABEL: func.func @run(
// CHECK-SAME: %[[U0:[a-z0-9]+]]: memref<?xf64> {stencil.active}, %[[U1:[a-z0-9]+]]: memref<?xf64> {stencil.active}, %[[V:[a-z0-9]+]]: memref<?xf64> {stencil.active}, %[[C:[a-z0-9]+]]: memref<?xf64> {stencil.active}
// CHECK: %[[VSUB:.*]] = memref.subview %[[V]][0]
// CHECK: shard.update_halo %[[VSUB]] on @stencil_grid split_axes = {{\[\[0\]\]}} halo_sizes = [1, 1]
// CHECK: stencil.domain
// CHECK: stencil.store
// CHECK: %[[CSUB:.*]] = memref.subview %[[C]][1]
// CHECK: shard.update_halo %[[CSUB]] on @stencil_grid split_axes = {{\[\[0\]\]}} halo_sizes = [0, 1]
// CHECK: %[[R:.*]]:2 = scf.for
// CHECK: shard.update_halo %{{.*}} halo_sizes = [1, 0]
// CHECK: scf.yield
// CHECK: memref.extract_strided_metadata %[[R]]#1
// CHECK: %[[RSUB:.*]] = memref.subview %[[R]]#1[1]
// CHECK: %[[RX:.*]] = shard.update_halo %[[RSUB]] on @stencil_grid split_axes = {{\[\[0\]\]}} halo_sizes = [0, 1]
// CHECK: memref.extract_strided_metadata %[[RX]]
// CHECK: %[[RVIEW:.*]] = memref.reinterpret_cast
// CHECK: stencil.domain
// CHECK-SAME: -> (f64)
// CHECK-NEXT: stencil.gather %[[RVIEW]][1]
// CHECK: return

// The adjoint calls the head, the tail's adjoint and the head's adjoint,
// each a function of its own with domains, distributed like a step.
// ADJ-LABEL: func.func @run_adjoint(
// ADJ-SAME: stencil.extra_args = ["snapshots", "global_extent_0"]
// ADJ-DAG: func.func private @run_head({{.*}}stencil.extra_args = ["global_extent_0"]
// ADJ-DAG: func.func private @run_head_adjoint({{.*}}stencil.extra_args = ["global_extent_0"]
// ADJ-DAG: func.func private @run_tail_adjoint({{.*}}stencil.extra_args = ["global_extent_0"]
func.func @run(%u0: memref<?xf64> {stencil.active},
               %u1: memref<?xf64> {stencil.active},
               %v: memref<?xf64> {stencil.active},
               %c: memref<?xf64> {stencil.active},
               %n: index, %steps: index) -> f64 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %nm1 = arith.subi %n, %c1 : index
  stencil.domain (%i) = (1) to (%nm1) {
    %l = stencil.gather %v[-1] : memref<?xf64>
    %r = stencil.gather %v[1] : memref<?xf64>
    %s = arith.addf %l, %r : f64
    stencil.store %s to %c : memref<?xf64>
  }
  %r:2 = scf.for %t = %c0 to %steps step %c1 iter_args(%a = %u0, %b = %u1)
      -> (memref<?xf64>, memref<?xf64>) {
    stencil.domain (%i) = (1) to (%nm1) {
      %x = stencil.gather %a[-1] : memref<?xf64>
      %y = stencil.gather %c[1] : memref<?xf64>
      %z = arith.mulf %x, %y : f64
      stencil.store %z to %b : memref<?xf64>
    }
    scf.yield %b, %a : memref<?xf64>, memref<?xf64>
  }
  %sum = stencil.domain (%i) = (1) to (%nm1) -> f64 {
    %x = stencil.gather %r#1[1] : memref<?xf64>
    %x2 = arith.mulf %x, %x : f64
    stencil.yield %x2 : f64
  }
  return %sum : f64
}

// An argument the body writes and exchanges inside the loop (the copy
// back of a diffusion in place), read after it: the tail reads it through
// its view from before the loop, which dominates it, and exchanges it
// again where it reads beyond the block.
// CHECK-LABEL: func.func @in_place(
// CHECK-SAME: %[[U:[a-z0-9]+]]: memref<?xf64> {stencil.active}
// CHECK: %[[BEFORE:.*]] = memref.reinterpret_cast
// CHECK: scf.for
// CHECK: shard.update_halo
// CHECK: stencil.store
// CHECK: stencil.store
// CHECK: }
// CHECK: stencil.domain
// CHECK-SAME: -> (f64)
// CHECK-NEXT: stencil.gather %[[BEFORE]][0]
// CHECK: %[[USUB:.*]] = memref.subview %[[U]][0]
// CHECK: shard.update_halo %[[USUB]] on @stencil_grid split_axes = {{\[\[0\]\]}} halo_sizes = [1, 0]
// CHECK: stencil.domain
// CHECK-SAME: -> (f64)
// CHECK-NEXT: stencil.gather %{{.*}}[-1]
func.func @in_place(%u: memref<?xf64> {stencil.active},
                    %tmp: memref<?xf64> {stencil.active},
                    %n: index, %steps: index) -> f64 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %nm1 = arith.subi %n, %c1 : index
  scf.for %t = %c0 to %steps step %c1 {
    stencil.domain (%i) = (1) to (%nm1) {
      %l = stencil.gather %u[-1] : memref<?xf64>
      %r = stencil.gather %u[1] : memref<?xf64>
      %s = arith.addf %l, %r : f64
      stencil.store %s to %tmp : memref<?xf64>
    }
    stencil.domain (%i) = (1) to (%nm1) {
      %v = stencil.gather %tmp[0] : memref<?xf64>
      stencil.store %v to %u : memref<?xf64>
    }
  }
  %dot = stencil.domain (%i) = (0) to (%n) -> f64 {
    %x = stencil.gather %u[0] : memref<?xf64>
    %x2 = arith.mulf %x, %x : f64
    stencil.yield %x2 : f64
  }
  %left = stencil.domain (%i) = (1) to (%n) -> f64 {
    %x = stencil.gather %u[-1] : memref<?xf64>
    stencil.yield %x : f64
  }
  %sum = arith.addf %dot, %left : f64
  return %sum : f64
}
