// RUN: stencil-opt %s --stencil-report-loops -o /dev/null 2>&1 | FileCheck %s

// One JSON remark per function with a body: loops with no enclosing loop
// (also inside affine.if / scf.if), how many of them sit in an else region,
// and the OpenMP regions and worksharing loops.

// CHECK: remark: loop report: {"function":"nests","loop_nests":3,"loop_nests_in_else":1,"omp_parallel":0,"omp_wsloop":0}
func.func @nests(%m: memref<?xf64>, %n: index) {
  affine.for %i = 0 to %n {
    // Nested: not a nest of its own.
    affine.for %j = 0 to %n {
    }
  }
  affine.if affine_set<()[s0] : (s0 - 4 >= 0)>()[%n] {
    affine.parallel (%i) = (0) to (symbol(%n)) {
    }
  } else {
    affine.for %i = 0 to %n {
    }
  }
  return
}

// CHECK: remark: loop report: {"function":"omp","loop_nests":0,"loop_nests_in_else":0,"omp_parallel":1,"omp_wsloop":2}
llvm.func @omp(%n: i64) {
  %c0 = llvm.mlir.constant(0 : i64) : i64
  %c1 = llvm.mlir.constant(1 : i64) : i64
  omp.parallel {
    omp.wsloop {
      omp.loop_nest (%i) : i64 = (%c0) to (%n) step (%c1) {
        omp.yield
      }
    }
    omp.wsloop {
      omp.loop_nest (%i) : i64 = (%c0) to (%n) step (%c1) {
        omp.yield
      }
    }
    omp.terminator
  }
  llvm.return
}

// Declarations get no report.
// CHECK-NOT: "function":"declared"
func.func private @declared(f64)
