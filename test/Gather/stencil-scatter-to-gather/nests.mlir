// Nest counts per example and strategy (docs/Adjoint.md lists them).
// RUN: stencil-opt %stencil_src/examples/paper1d.mlir --stencil-adjoint --stencil-scatter-to-gather="report-nests" -o /dev/null 2>&1 | FileCheck %s --check-prefix=P1-COMPACT
// RUN: stencil-opt %stencil_src/examples/paper1d.mlir --stencil-adjoint --stencil-scatter-to-gather="boundary=exact report-nests" -o /dev/null 2>&1 | FileCheck %s --check-prefix=P1-EXACT
// RUN: stencil-opt %stencil_src/examples/wave3d.mlir --stencil-adjoint --stencil-scatter-to-gather="report-nests" -o /dev/null 2>&1 | FileCheck %s --check-prefix=WAVE-COMPACT
// RUN: stencil-opt %stencil_src/examples/wave3d.mlir --stencil-adjoint --stencil-scatter-to-gather="boundary=exact report-nests" -o /dev/null 2>&1 | FileCheck %s --check-prefix=WAVE-EXACT
// RUN: stencil-opt %stencil_src/examples/burgers1d.mlir --stencil-adjoint --stencil-scatter-to-gather="report-nests" -o /dev/null 2>&1 | FileCheck %s --check-prefix=B-COMPACT
// RUN: stencil-opt %stencil_src/examples/burgers1d.mlir --stencil-adjoint --stencil-scatter-to-gather="boundary=exact report-nests" -o /dev/null 2>&1 | FileCheck %s --check-prefix=B-EXACT
// RUN: stencil-opt %s -split-input-file --stencil-scatter-to-gather="report-nests" -o /dev/null 2>&1 | FileCheck %s --check-prefix=COMPACT
// RUN: stencil-opt %s -split-input-file --stencil-scatter-to-gather="boundary=exact report-nests" -o /dev/null 2>&1 | FileCheck %s --check-prefix=EXACT

// P1-COMPACT: remark: gather form: 1 core, 2 boundary and 0 fallback nests
// P1-EXACT: remark: gather form: 1 core, 4 boundary and 3 fallback nests
// WAVE-COMPACT: remark: gather form: 1 core, 6 boundary and 0 fallback nests
// WAVE-EXACT: remark: gather form: 1 core, 80 boundary and 7 fallback nests
// B-COMPACT: remark: gather form: 1 core, 2 boundary and 0 fallback nests
// B-EXACT: remark: gather form: 1 core, 4 boundary and 3 fallback nests

// A gap: u[i+1] - u[i-1] with no centre term. The exact split has three
// intervals, [s-1, s+1), [s+1, e-1), [e-1, e+1), each with one or two
// statements.
// EXACT: remark: gather form: 1 core, 2 boundary and 3 fallback nests
func.func @gap(%rb: memref<?xf64>, %ub: memref<?xf64>, %n: index) {
  // COMPACT: remark: gather form: 1 core, 2 boundary and 0 fallback nests
  stencil.domain (%i) = (1) to (%n - 1) {
    %r = stencil.gather %rb[0] : memref<?xf64>
    %m = arith.negf %r : f64
    stencil.accumulate %r to %ub[1] : memref<?xf64>
    stencil.accumulate %m to %ub[-1] : memref<?xf64>
  }
  return
}

// -----

// A mixed derivative reading only the corners of a 3x3 square: offsets
// {-1, 1} in both dimensions, 3 x 3 boxes, all with some statement.
// EXACT: remark: gather form: 1 core, 8 boundary and 5 fallback nests
func.func @corners(%rb: memref<?x?xf64>, %ub: memref<?x?xf64>, %n: index, %m: index) {
  // COMPACT: remark: gather form: 1 core, 4 boundary and 0 fallback nests
  stencil.domain (%i, %j) = (1, 1) to (%n - 1, %m - 1) {
    %r = stencil.gather %rb[0, 0] : memref<?x?xf64>
    %q = arith.negf %r : f64
    stencil.accumulate %r to %ub[1, 1] : memref<?x?xf64>
    stencil.accumulate %r to %ub[-1, -1] : memref<?x?xf64>
    stencil.accumulate %q to %ub[1, -1] : memref<?x?xf64>
    stencil.accumulate %q to %ub[-1, 1] : memref<?x?xf64>
  }
  return
}

// -----

// Offsets in only one dimension of a 2D domain: the other dimension needs
// no slabs.
// EXACT: remark: gather form: 1 core, 4 boundary and 3 fallback nests
func.func @one_dim(%rb: memref<?x?xf64>, %ub: memref<?x?xf64>, %n: index) {
  // COMPACT: remark: gather form: 1 core, 2 boundary and 0 fallback nests
  stencil.domain (%i, %j) = (0, 2) to (%n, %n - 2) {
    %r = stencil.gather %rb[0, 0] : memref<?x?xf64>
    stencil.accumulate %r to %ub[0, -2] : memref<?x?xf64>
    stencil.accumulate %r to %ub[0, 0] : memref<?x?xf64>
    stencil.accumulate %r to %ub[0, 1] : memref<?x?xf64>
  }
  return
}

// -----

// Domains without scatters are left for --convert-stencil-to-affine: no
// remark for them.
// COMPACT-NOT: remark: gather form
// EXACT-NOT: remark: gather form
func.func @no_scatter(%u: memref<?xf64>, %r: memref<?xf64>, %n: index) {
  stencil.domain (%i) = (1) to (%n) {
    %a = stencil.gather %u[-1] : memref<?xf64>
    stencil.accumulate %a to %r[0] : memref<?xf64>
  }
  return
}
