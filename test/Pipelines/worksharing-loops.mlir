// RUN: stencil-opt %stencil_src/examples/wave3d.mlir --stencil-adjoint --convert-to-omp --stencil-report-loops -o /dev/null 2>&1 | FileCheck %s --check-prefix=CHECK-ONE
// RUN: stencil-opt %stencil_src/examples/wave3d.mlir --stencil-adjoint "--convert-to-omp=one-outer-loop=0" --stencil-report-loops -o /dev/null 2>&1 | FileCheck %s --check-prefix=CHECK-APART
// RUN: stencil-opt %stencil_src/examples/wave3d.mlir "--stencil-adjoint=reset-output-adjoints=false" --convert-to-omp --stencil-report-loops -o /dev/null 2>&1 | FileCheck %s --check-prefix=CHECK-NORESET
// RUN: stencil-opt %stencil_src/examples/wave3d.mlir "--stencil-adjoint=reset-output-adjoints=false" "--convert-to-omp=one-outer-loop=0" --stencil-report-loops -o /dev/null 2>&1 | FileCheck %s --check-prefix=CHECK-NORESET-APART
// RUN: stencil-opt %stencil_src/examples/burgers1d.mlir --stencil-adjoint --convert-to-omp --stencil-report-loops -o /dev/null 2>&1 | FileCheck %s --check-prefix=CHECK-ONE1D

// The worksharing loops of the gather adjoint after the whole pipeline, as
// --stencil-report-loops counts them: each is a barrier that every thread
// waits at. With one-outer-loop (the default) the slabs of dimension 0 run
// in the core's parallel loop.
//
// wave3d's adjoint with its fused reset: the blocked core (block 0 starting
// with the lower slab, the last block ending with the upper one) and the
// reset's second sweep (whose last block also resets the last planes): 2
// loops, where the slabs apart made 5 (lower slab, blocked core, upper
// slab, and the second sweep's two loops). All in one parallel region.
// CHECK-ONE: remark: loop report: {"function":"wave3d_adjoint",{{.*}}"omp_parallel":1,"omp_wsloop":2}
// CHECK-APART: remark: loop report: {"function":"wave3d_adjoint",{{.*}}"omp_parallel":1,"omp_wsloop":5}
//
// Without the reset (a time loop's steady steps): one loop over the union
// of the lower slab, core and upper slab, where they were 3.
// CHECK-NORESET: remark: loop report: {"function":"wave3d_adjoint",{{.*}}"omp_parallel":1,"omp_wsloop":1}
// CHECK-NORESET-APART: remark: loop report: {"function":"wave3d_adjoint",{{.*}}"omp_parallel":1,"omp_wsloop":3}
//
// 1-D with the fused reset: the same 2 loops.
// CHECK-ONE1D: remark: loop report: {"function":"burgers1d_adjoint",{{.*}}"omp_parallel":1,"omp_wsloop":2}
