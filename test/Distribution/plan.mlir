// RUN: stencil-opt %s --stencil-distribute="grid=2,2 report=1" --mlir-print-op-on-diagnostic=false -o /dev/null 2>&1 | FileCheck %s
// RUN: not stencil-opt %s --stencil-distribute="grid=2,2 halo=1" --mlir-print-op-on-diagnostic=false -o /dev/null 2>&1 | FileCheck %s --check-prefix=NARROW

// The plans (DistributionPlan.h) as --stencil-distribute reports them.
// Arrays are numbered in order of first access.

// A scatter domain (the scatter form of an adjoint) runs the points whose
// writes meet the block, one beyond it per side where it writes at -1/+1:
// reach [1, 1] in dimension 0. It then reads `b` at the centre one point
// beyond the block (halo 1), and writes `a` up to two points beyond
// (scratch, halo 2). Dimension 1 is written at the centre only.
// CHECK: remark: distribution plan: {"domains":[{"exchanges":[{"array":0,"widths":{{\[\[}}1,1],[0,0]]}],"reach":{{\[\[}}1,1],[0,0]]}],"halos":{{\[\[\[}}1,1],[0,0]],{{\[\[}}2,2],[0,0]]],"max_halo":2,"rank":2}
func.func @scatter(%a: memref<?x?xf64>, %b: memref<?x?xf64>, %n: index) {
  stencil.domain (%i, %j) = (1, 1) to (%n - 1, %n - 1) {
    %x = stencil.gather %b[0, 0] : memref<?x?xf64>
    stencil.accumulate %x to %a[-1, 0] : memref<?x?xf64>
    stencil.accumulate %x to %a[1, 0] : memref<?x?xf64>
  }
  return
}

// Two domains read `u` without a write in between: one exchange, as wide
// as both need (1 below in dimension 0 from the first, 2 above in
// dimension 1 from the second). `v` is written by the second domain and
// read by the third: exchanged again before the third only.
// CHECK: remark: distribution plan: {"domains":[{"exchanges":[{"array":0,"widths":{{\[\[}}1,0],[0,2]]},{"array":1,"widths":{{\[\[}}0,0],[1,0]]}],"reach":{{\[\[}}0,0],[0,0]]},{"exchanges":[],"reach":{{\[\[}}0,0],[0,0]]},{"exchanges":[{"array":1,"widths":{{\[\[}}1,1],[0,0]]}],"reach":{{\[\[}}0,0],[0,0]]}],"halos":{{\[\[\[}}1,0],[0,2]],{{\[\[}}1,1],[1,0]],{{\[\[}}0,0],[0,0]],{{\[\[}}0,0],[0,0]]],"max_halo":2,"rank":2}
func.func @reuse(%u: memref<?x?xf64>, %v: memref<?x?xf64>, %w: memref<?x?xf64>,
                 %x: memref<?x?xf64>, %n: index) {
  stencil.domain (%i, %j) = (2, 2) to (%n - 2, %n - 2) {
    %a = stencil.gather %u[-1, 0] : memref<?x?xf64>
    %b = stencil.gather %v[0, -1] : memref<?x?xf64>
    %s = arith.addf %a, %b : f64
    stencil.store %s to %w : memref<?x?xf64>
  }
  stencil.domain (%i, %j) = (2, 2) to (%n - 2, %n - 2) {
    %a = stencil.gather %u[0, 2] : memref<?x?xf64>
    stencil.store %a to %v : memref<?x?xf64>
  }
  stencil.domain (%i, %j) = (2, 2) to (%n - 2, %n - 2) {
    %a = stencil.gather %v[-1, 0] : memref<?x?xf64>
    %b = stencil.gather %v[1, 0] : memref<?x?xf64>
    %s = arith.addf %a, %b : f64
    stencil.store %s to %x : memref<?x?xf64>
  }
  return
}

// A halo option narrower than what the functions need is refused.
// NARROW: error: --stencil-distribute: halo=1 is narrower than the 2 points the functions need
