// RUN: stencil-opt %s --convert-to-omp | FileCheck %s
// RUN: stencil-opt %s --convert-to-omp=c-interface=0 | FileCheck %s --check-prefix=NOABI

// After the LLVM lowering, the data pointers of functions marked by
// --stencil-prepare-abi are marked noalias, and every load and store traced
// back to an array gets that array's alias scope and the others' as
// noalias scopes (argument noalias does not survive the outlining of the
// OpenMP region; the scopes do). The marker attribute is removed.
// CHECK-DAG: #[[$DOMAIN:.*]] = #llvm.alias_scope_domain<{{.*}}description = "arrays of @copy">
// CHECK-DAG: #[[$U:.*]] = #llvm.alias_scope<{{.*}}domain = #[[$DOMAIN]], description = "array 0">
// CHECK-DAG: #[[$R:.*]] = #llvm.alias_scope<{{.*}}domain = #[[$DOMAIN]], description = "array 1">
// CHECK-LABEL: llvm.func @copy(
// CHECK-SAME: %{{[^:]*}}: !llvm.ptr {llvm.noalias}, %{{[^:]*}}: !llvm.ptr {llvm.noalias}, %{{[^:]*}}: i64, %{{[^:]*}}: i64, %{{[^:]*}}: i64, %{{[^:]*}}: !llvm.ptr {llvm.noalias}, %{{[^:]*}}: !llvm.ptr {llvm.noalias}
// CHECK-NOT: stencil.noalias
// CHECK: omp.parallel
// CHECK: llvm.load %{{.*}} {alias_scopes = [#[[$U]]], noalias_scopes = [#[[$R]]]} : !llvm.ptr -> f64
// CHECK: llvm.store %{{.*}}, %{{.*}} {alias_scopes = [#[[$R]]], noalias_scopes = [#[[$U]]]} : f64, !llvm.ptr

// Without the C interface nothing is promised, so nothing is marked.
// NOABI-LABEL: llvm.func @copy(
// NOABI-NOT: llvm.noalias
// NOABI-NOT: alias_scopes
func.func @copy(%u: memref<?xf64>, %r: memref<?xf64>, %n: index) {
  stencil.domain (%i) = (0) to (%n) {
    %x = stencil.gather %u[0] : memref<?xf64>
    stencil.store %x to %r : memref<?xf64>
  }
  return
}
