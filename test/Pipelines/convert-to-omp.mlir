// The whole chain ends in the LLVM dialect with OpenMP: no op of another
// dialect is left (conversions are partial and would leave them silently),
// and mlir-translate produces LLVM IR that forks threads.
// RUN: stencil-opt %stencil_src/examples/wave3d.mlir --stencil-adjoint --convert-to-omp | FileCheck %s --check-prefix=CHECK-LLVM
// RUN: stencil-opt %stencil_src/examples/burgers1d.mlir --stencil-adjoint --convert-to-omp="scatter=serial" | FileCheck %s --check-prefix=CHECK-LLVM
// RUN: stencil-opt %stencil_src/examples/paper1d.mlir --stencil-adjoint --convert-to-omp="scatter=atomic" | FileCheck %s --check-prefix=CHECK-LLVM
// RUN: stencil-opt %stencil_src/examples/wave3d.mlir --stencil-adjoint --convert-to-omp="boundary=exact" | FileCheck %s --check-prefix=CHECK-LLVM
// RUN: stencil-opt %s --convert-to-omp | FileCheck %s --check-prefix=CHECK-LLVM
// RUN: stencil-opt %stencil_src/examples/wave3d.mlir --stencil-adjoint --convert-to-omp=check-bounds=0 | mlir-translate --mlir-to-llvmir | FileCheck %s --check-prefix=CHECK-IR
// RUN: stencil-opt %s --convert-to-omp | mlir-translate --mlir-to-llvmir | FileCheck %s --check-prefix=CHECK-REDUCE
// RUN: stencil-opt %stencil_src/examples/wave3d.mlir --stencil-adjoint --convert-to-omp | FileCheck %s --check-prefix=CHECK-RING

// CHECK-LLVM-NOT: {{^ *(%[^ ]+ = )?(stencil|affine|scf|arith|math|memref|func|cf|vector)\.}}
// CHECK-LLVM: llvm.func @_mlir_ciface_

// The primal and the adjoint both fork a team; the data pointers of the
// arrays they use are noalias (the adjoint of this linear stencil does not
// read the primal arrays u, u_1, u_2: without the bounds checks, which read
// their extents, nothing uses them); the C interface wrappers exist.
// CHECK-IR-DAG: define void @wave3d(ptr noalias %{{.*}}, ptr noalias %{{.*}},
// CHECK-IR-DAG: define void @wave3d_adjoint(ptr %{{[0-9]+}}, ptr %{{[0-9]+}}, {{.*}}, ptr noalias
// CHECK-IR-DAG: define void @_mlir_ciface_wave3d(
// CHECK-IR-DAG: define void @_mlir_ciface_wave3d_adjoint(
// CHECK-IR-DAG: call void {{.*}}@__kmpc_fork_call

// The adjoint keeps `c * u_b` in a ring of planes per thread, allocated
// inside the parallel loop: its stores and loads have an alias scope of
// their own, disjoint from the arrays' (--stencil-annotate-noalias), so
// that LLVM vectorizes the sweep without run-time overlap checks.
// CHECK-RING-DAG: #[[$RING:alias_scope[0-9]*]] = #llvm.alias_scope<{{.*}}domain = #[[$DOMAIN:alias_scope_domain[0-9]*]], description = "allocation 0">
// CHECK-RING-DAG: #[[$ARRAY:alias_scope[0-9]*]] = #llvm.alias_scope<{{.*}}domain = #[[$DOMAIN]], description = "array 0">
// CHECK-RING-LABEL: llvm.func @wave3d_adjoint(
// CHECK-RING: llvm.call @malloc(
// CHECK-RING: llvm.store {{.*}}alias_scopes = [#[[$RING]]], noalias_scopes = [{{.*}}#[[$ARRAY]]
// CHECK-RING: llvm.load {{.*}}alias_scopes = [#[[$RING]]], noalias_scopes = [{{.*}}#[[$ARRAY]]

// A reduction returns its sum: no OpenMP reduction (whose order would
// depend on the thread count), only a worksharing loop and a serial sum.
// CHECK-REDUCE-LABEL: define double @sum_squares
// CHECK-REDUCE: call void {{.*}}@__kmpc_fork_call
// CHECK-REDUCE-NOT: __kmpc_reduce
func.func @sum_squares(%u: memref<?x?xf64>, %n: index) -> f64 {
  %s = stencil.domain (%i, %j) = (0, 0) to (%n, %n) -> (f64) {
    %a = stencil.gather %u[0, 0] : memref<?x?xf64>
    %b = arith.mulf %a, %a : f64
    stencil.yield %b : f64
  }
  return %s : f64
}
