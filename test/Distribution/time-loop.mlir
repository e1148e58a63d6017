// RUN: stencil-opt %s --stencil-distribute="grid=2 report=1" 2>&1 | FileCheck %s --check-prefix=PLAN
// RUN: stencil-opt %s --stencil-distribute="grid=2" | FileCheck %s
// RUN: stencil-opt %s --stencil-adjoint --stencil-distribute="grid=2" | FileCheck %s --check-prefix=ADJ
// RUN: stencil-opt %s --stencil-adjoint | stencil-opt --stencil-distribute=grid=2 | stencil-opt --convert-to-omp -o /dev/null

// A time loop distributed whole (docs/Distributed.md): the states it
// rotates are viewed and exchanged inside the body, every step, before the
// domain that reads them beyond the block; `c`, an argument the body never
// writes, is exchanged once, before the loop; `w`, which no domain
// accesses, is every rank's whole copy, read as it is.

// PLAN: remark: distribution plan: {"domains":[{"exchanges":[{"array":0,"widths":{{\[\[1,1\]\]}}}],"reach":{{\[\[0,0\]\]}}}],"halos":{{\[\[\[1,1\]\],\[\[1,1\]\],\[\[0,0\]\]\]}},"loop_entry":[{"array":1,"widths":{{\[\[1,1\]\]}}}],"max_halo":1,"rank":1}

// CHECK-LABEL: func.func @smooth(
// CHECK-SAME: %[[U0:[a-z0-9]+]]: memref<?xf64> {stencil.active}, %[[U1:[a-z0-9]+]]: memref<?xf64> {stencil.active}, %[[C:[a-z0-9]+]]: memref<?xf64> {stencil.active}, %[[W:[a-z0-9]+]]: memref<?xf64>, %{{.*}}: index, %[[STEPS:[a-z0-9]+]]: index, %[[EXT:[a-z0-9]+]]: index)
// CHECK-SAME: stencil.extra_args = ["global_extent_0"]
// CHECK: %[[CSUB:.*]] = memref.subview %[[C]][0]
// CHECK: %[[CX:.*]] = shard.update_halo %[[CSUB]] on @stencil_grid split_axes = {{\[\[0\]\]}} halo_sizes = [1, 1]
// CHECK: %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}} = memref.extract_strided_metadata %[[CX]]
// CHECK: %[[CVIEW:.*]] = memref.reinterpret_cast
// CHECK: scf.for %[[T:.*]] = %{{.*}} to %[[STEPS]] step %{{.*}} iter_args(%[[A:.*]] = %[[U0]], %[[B:.*]] = %[[U1]])
// CHECK: memref.load %[[W]][%[[T]]]
// CHECK: %[[ASUB:.*]] = memref.subview %[[A]][0]
// CHECK: %[[AX:.*]] = shard.update_halo %[[ASUB]] on @stencil_grid split_axes = {{\[\[0\]\]}} halo_sizes = [1, 1]
// CHECK: %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}} = memref.extract_strided_metadata %[[AX]]
// CHECK: %[[AVIEW:.*]] = memref.reinterpret_cast
// CHECK: stencil.domain
// CHECK-NEXT: stencil.gather %[[AVIEW]][-1]
// CHECK-NEXT: stencil.gather %[[AVIEW]][1]
// CHECK-NEXT: stencil.gather %[[CVIEW]][-1]
// CHECK-NEXT: stencil.gather %[[CVIEW]][1]
// CHECK-NOT: shard.update_halo
// CHECK: scf.yield

// The adjoint of the loop calls its step functions, which are distributed
// like any function with domains; it gains the global extents too and
// passes them on. Its snapshot copies run over whole local arrays (0 to
// the extents) and stay as they are.

// ADJ-LABEL: func.func @smooth_adjoint(
// ADJ-SAME: %[[SNAP:[a-z0-9]+]]: index, %[[EXT:[a-z0-9]+]]: index)
// ADJ-SAME: stencil.extra_args = ["snapshots", "global_extent_0"]
// ADJ-NOT: shard.update_halo
// ADJ: stencil.domain (%{{.*}}) = (0) to (%{{.*}}) {
// ADJ: func.call @smooth_step(%{{.*}}, %[[EXT]])
// ADJ: func.call @smooth_step_adjoint(%{{.*}}, %[[EXT]])
// ADJ-LABEL: func.func private @smooth_step(
// ADJ-SAME: stencil.extra_args = ["global_extent_0"]
// ADJ: shard.update_halo
// ADJ-LABEL: func.func private @smooth_step_adjoint(
// ADJ-SAME: stencil.extra_args = ["global_extent_0"]
// ADJ: shard.update_halo

func.func @smooth(%u0: memref<?xf64> {stencil.active},
                  %u1: memref<?xf64> {stencil.active},
                  %c: memref<?xf64> {stencil.active},
                  %w: memref<?xf64>, %n: index, %steps: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %nm1 = arith.subi %n, %c1 : index
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
      stencil.store %v to %b : memref<?xf64>
    }
    scf.yield %b, %a : memref<?xf64>, memref<?xf64>
  }
  return
}
