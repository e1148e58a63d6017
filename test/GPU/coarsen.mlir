// RUN: stencil-opt %s "--stencil-coarsen-gpu-nests=factor=2 report" -o /dev/null 2>&1 \
// RUN:   | FileCheck %s --check-prefix=PLAN
// RUN: stencil-opt %s --stencil-coarsen-gpu-nests=factor=2 --canonicalize --cse \
// RUN:   | FileCheck %s
// RUN: stencil-opt %s "--stencil-coarsen-gpu-nests=factor=8 max-ops=60 report" \
// RUN:   -o /dev/null 2>&1 | FileCheck %s --check-prefix=LIMIT
// RUN: stencil-opt %s --stencil-coarsen-gpu-nests=report -o /dev/null 2>&1 \
// RUN:   | FileCheck %s --check-prefix=AUTO
// RUN: not stencil-opt %s --stencil-coarsen-gpu-nests=factor=-1 -o /dev/null 2>&1 \
// RUN:   | FileCheck %s --check-prefix=NEGATIVE

// --stencil-coarsen-gpu-nests (lib/GPU/Coarsen.cpp): a 2-D or 3-D nest
// runs over blocks of `factor` consecutive outermost indices; full blocks
// run the copies in straight-line code, the partial block at the upper end
// an scf.for. The IR below is derived by hand from the pass's description.

// PLAN: remark: coarsening plan: {"body_ops":3,"factor":2,"unswitch":false}
// PLAN: remark: coarsening plan: {"body_ops":9,"factor":2,"unswitch":true}
// PLAN: remark: coarsening plan: {"body_ops":6,"factor":2,"unswitch":false}
// PLAN: remark: coarsening plan: {"body_ops":1,"factor":1,"reason":"only nests of 2 or 3 dimensions are coarsened","unswitch":false}
// PLAN: remark: coarsening plan: {"body_ops":3,"factor":1,"reason":"the nest reduces","unswitch":false}
// PLAN: remark: coarsening plan: {"body_ops":2,"factor":1,"reason":"the outermost step is not 1","unswitch":false}
// PLAN: remark: coarsening plan: {"body_ops":2,"factor":2,"unswitch":false}
// LIMIT: remark: coarsening plan: {"body_ops":3,"factor":8,"unswitch":false}
// LIMIT: remark: coarsening plan: {"body_ops":9,"factor":1,"reason":"the copies would exceed max-ops","unswitch":false}
// NEGATIVE: error: stencil-coarsen-gpu-nests: factor must be at least 0, got -1

// factor=0 (the default) chooses: 16 bytes over the widest element loaded
// (f32: 4 points) for bodies without branches or atomic updates, none for
// the others.
// AUTO: remark: coarsening plan: {"body_ops":3,"factor":4,"unswitch":false}
// AUTO: remark: coarsening plan: {"body_ops":9,"factor":1,"reason":"automatic: the body branches","unswitch":false}
// AUTO: remark: coarsening plan: {"body_ops":6,"factor":1,"reason":"automatic: the body branches","unswitch":false}
// AUTO: remark: coarsening plan: {"body_ops":1,"factor":1,"reason":"automatic: the body loads no scalars","unswitch":false}
// AUTO: remark: coarsening plan: {"body_ops":3,"factor":1,"reason":"the nest reduces","unswitch":false}
// AUTO: remark: coarsening plan: {"body_ops":2,"factor":1,"reason":"the outermost step is not 1","unswitch":false}
// AUTO: remark: coarsening plan: {"body_ops":2,"factor":1,"reason":"automatic: the body updates atomically","unswitch":false}

// i in [1, n) in blocks of 2: ceil((n - 1) / 2) blocks; block b starts at
// i0 = 2b + 1 and is full when i0 + 2 <= n. Copy 0 (i = i0) reads
// b[i0 - 1] and writes a[i0]; copy 1 (i = i0 + 1) reads b[i0], writes
// a[i0 + 1]. The rest runs the body for i in [i0, n).
// CHECK-LABEL: func.func @shift(
// CHECK-SAME: %[[A:.+]]: memref<?x?xf32>, %[[B:.+]]: memref<?x?xf32>, %[[N:.+]]: index)
// CHECK-DAG: %[[C1:.+]] = arith.constant 1 : index
// CHECK-DAG: %[[C2:.+]] = arith.constant 2 : index
// CHECK-DAG: %[[C3:.+]] = arith.constant 3 : index
// CHECK: %[[EXT:.+]] = arith.subi %[[N]], %[[C1]] : index
// CHECK: %[[BLOCKS:.+]] = arith.ceildivsi %[[EXT]], %[[C2]] : index
// CHECK: scf.parallel (%[[BI:.+]], %[[J:.+]]) = (%{{.+}}, %{{.+}}) to (%[[BLOCKS]], %[[N]])
// CHECK:   %[[S:.+]] = arith.muli %[[BI]], %[[C2]] : index
// CHECK:   %[[I0:.+]] = arith.addi %[[S]], %[[C1]] : index
// CHECK:   %[[END:.+]] = arith.addi %[[S]], %[[C3]] : index
// CHECK:   %[[FULL:.+]] = arith.cmpi sle, %[[END]], %[[N]] : index
// CHECK:   scf.if %[[FULL]] {
// CHECK:     %[[I1:.+]] = arith.addi %[[S]], %[[C2]] : index
// CHECK:     %[[V0:.+]] = memref.load %[[B]][%[[S]], %[[J]]]
// CHECK:     memref.store %[[V0]], %[[A]][%[[I0]], %[[J]]]
// CHECK:     %[[V1:.+]] = memref.load %[[B]][%[[I0]], %[[J]]]
// CHECK:     memref.store %[[V1]], %[[A]][%[[I1]], %[[J]]]
// CHECK:   } else {
// CHECK:     scf.for %[[I:.+]] = %[[I0]] to %[[N]] step %[[C1]] {
// CHECK:       %[[IM:.+]] = arith.subi %[[I]], %[[C1]] : index
// CHECK:       %[[V:.+]] = memref.load %[[B]][%[[IM]], %[[J]]]
// CHECK:       memref.store %[[V]], %[[A]][%[[I]], %[[J]]]
func.func @shift(%a: memref<?x?xf32>, %b: memref<?x?xf32>, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  scf.parallel (%i, %j) = (%c1, %c0) to (%n, %n) step (%c1, %c1) {
    %im = arith.subi %i, %c1 : index
    %v = memref.load %b[%im, %j] : memref<?x?xf32>
    memref.store %v, %a[%i, %j] : memref<?x?xf32>
    scf.reduce
  }
  return
}

// A body that ends in a branch after pure ops (the gather form's test for
// interior points): a full block tests both copies' conditions once and
// runs both then-regions one after the other, or else each copy's own
// branch in order.
// CHECK-LABEL: func.func @split(
// CHECK-SAME: %[[A:.+]]: memref<?x?xf32>, %[[B:.+]]: memref<?x?xf32>, %[[N:.+]]: index)
// CHECK: scf.parallel (%[[BI:.+]], %[[J:.+]]) =
// CHECK:   %[[I0:.+]] = arith.muli %[[BI]], %{{.+}} : index
// CHECK:   scf.if %{{.+}} {
// CHECK:     %[[I1:.+]] = arith.addi %[[I0]], %{{.+}} : index
// CHECK:     %[[IN0:.+]] = arith.cmpi sge, %[[I0]], %{{.+}} : index
// CHECK:     %[[IN1:.+]] = arith.cmpi sge, %[[I1]], %{{.+}} : index
// CHECK:     %[[ALL:.+]] = arith.andi %[[IN0]], %[[IN1]] : i1
// CHECK:     scf.if %[[ALL]] {
// CHECK:       memref.load %[[B]]
// CHECK:       memref.store %{{.+}}, %[[A]][%[[I0]], %[[J]]]
// CHECK:       memref.load %[[B]][%[[I0]], %[[J]]]
// CHECK:       memref.store %{{.+}}, %[[A]][%[[I1]], %[[J]]]
// CHECK:     } else {
// CHECK:       scf.if %[[IN0]] {
// CHECK:       } else {
// CHECK:         memref.store %{{.+}}, %[[A]][%[[I0]], %[[J]]]
// CHECK:       scf.if %[[IN1]] {
// CHECK:       } else {
// CHECK:         memref.store %{{.+}}, %[[A]][%[[I1]], %[[J]]]
// CHECK:   } else {
// CHECK:     scf.for
func.func @split(%a: memref<?x?xf32>, %b: memref<?x?xf32>, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  scf.parallel (%i, %j) = (%c0, %c0) to (%n, %n) step (%c1, %c1) {
    %inside = arith.cmpi sge, %i, %c1 : index
    scf.if %inside {
      %im = arith.subi %i, %c1 : index
      %v = memref.load %b[%im, %j] : memref<?x?xf32>
      memref.store %v, %a[%i, %j] : memref<?x?xf32>
    } else {
      %z = arith.constant 0.0 : f32
      memref.store %z, %a[%i, %j] : memref<?x?xf32>
    }
    scf.reduce
  }
  return
}

// A store before the branch: the copies' branches cannot be tested first,
// so the copies run one after the other, each with its own branch.
// CHECK-LABEL: func.func @impure(
// CHECK: scf.if %{{.+}} {
// CHECK-NOT: arith.andi
// CHECK:   memref.store
// CHECK:   scf.if
// CHECK:   memref.store
// CHECK:   scf.if
// CHECK: } else {
func.func @impure(%a: memref<?x?xf32>, %b: memref<?x?xf32>, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %z = arith.constant 0.0 : f32
  scf.parallel (%i, %j) = (%c0, %c0) to (%n, %n) step (%c1, %c1) {
    memref.store %z, %b[%i, %j] : memref<?x?xf32>
    %inside = arith.cmpi sge, %i, %c1 : index
    scf.if %inside {
      %v = memref.load %b[%i, %j] : memref<?x?xf32>
      memref.store %v, %a[%i, %j] : memref<?x?xf32>
    }
    scf.reduce
  }
  return
}

// Left alone: 1-D nests (coarsening the only dimension would break the
// coalescing of a warp's accesses), reductions, steps other than 1.
// CHECK-LABEL: func.func @left_alone(
// CHECK: scf.parallel (%{{.+}}) = (%{{.+}}) to (%{{.+}}) step
// CHECK-NOT: scf.for
// CHECK: scf.parallel (%{{.+}}, %{{.+}}) = (%{{.+}}, %{{.+}}) to (%{{.+}}, %{{.+}}) step (%{{.+}}, %{{.+}}) init
// CHECK-NOT: scf.for
// CHECK: scf.parallel (%{{.+}}, %{{.+}}) = (%{{.+}}, %{{.+}}) to (%{{.+}}, %{{.+}}) step (%[[C2:c2]], %{{.+}})
// CHECK-NOT: scf.for
func.func @left_alone(%a: memref<?x?xf32>, %x: memref<?xf32>, %n: index) -> f32 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %z = arith.constant 0.0 : f32
  scf.parallel (%i) = (%c0) to (%n) step (%c1) {
    memref.store %z, %x[%i] : memref<?xf32>
    scf.reduce
  }
  %sum = scf.parallel (%i, %j) = (%c0, %c0) to (%n, %n) step (%c1, %c1) init (%z) -> f32 {
    %v = memref.load %a[%i, %j] : memref<?x?xf32>
    scf.reduce(%v : f32) {
    ^bb0(%l: f32, %r: f32):
      %s = arith.addf %l, %r : f32
      scf.reduce.return %s : f32
    }
  }
  scf.parallel (%i, %j) = (%c0, %c0) to (%n, %n) step (%c2, %c1) {
    %v = memref.load %a[%i, %j] : memref<?x?xf32>
    memref.store %v, %a[%j, %i] : memref<?x?xf32>
    scf.reduce
  }
  return %sum : f32
}

// Atomic updates: coarsened when a factor is given, not by the automatic
// choice (nothing to share; the atomic baseline stays as it is).
// CHECK-LABEL: func.func @atomic(
// CHECK: scf.if
// CHECK-COUNT-2: memref.atomic_rmw addf
// CHECK: scf.for
func.func @atomic(%a: memref<?x?xf64>, %b: memref<?x?xf64>, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  scf.parallel (%i, %j) = (%c0, %c0) to (%n, %n) step (%c1, %c1) {
    %v = memref.load %b[%i, %j] : memref<?x?xf64>
    %old = memref.atomic_rmw addf %v, %a[%i, %j] : (f64, memref<?x?xf64>) -> f64
    scf.reduce
  }
  return
}
