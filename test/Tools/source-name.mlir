// RUN: stencil-compile %s --source-name=user/wave.mlir --stencil-distribute=grid=2 --convert-to-omp -o %t.o --keep-ll=%t.ll
// RUN: FileCheck %s --input-file=%t.ll
// RUN: not stencil-compile %s --source-name=user/wave.mlir --stencil-distribute=grid=2,2 --convert-to-omp -o %t.o 2>&1 | FileCheck %s --check-prefix=DIAG

// --source-name names the input in locations: the messages of the
// library's run-time checks (here the distributed grid's) and the
// diagnostics name it, not the path read (stencilad compiles a copy and
// names the caller's file).
// CHECK: c"user/wave.mlir:[[@LINE+3]]:1: 'copy'\00"
// CHECK-NOT: source-name.mlir
// DIAG: user/wave.mlir:[[@LINE+2]]:3: error: 'stencil.domain' op has rank 1; distributing it over a process grid of rank 2
func.func @copy(%u: memref<?xf64>, %v: memref<?xf64>, %n: index) {
  stencil.domain (%i) = (1) to (%n - 1) {
    %x = stencil.gather %u[-1] : memref<?xf64>
    stencil.store %x to %v : memref<?xf64>
  }
  return
}
