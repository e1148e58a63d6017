// RUN: stencil-opt %s "--convert-to-gpu=format=isa coarsen=1" \
// RUN:   | FileCheck %s --check-prefix=ONE
// RUN: stencil-opt %s "--convert-to-gpu=format=isa coarsen=2" \
// RUN:   | FileCheck %s
// RUN: stencil-opt %s "--convert-to-gpu=format=isa coarsen=2 noalias=false" \
// RUN:   | FileCheck %s --check-prefix=ALIAS

// The coarsening (--stencil-coarsen-gpu-nests, the pipeline's `coarsen`)
// lets the NVPTX back end load a tap that neighbouring points of one thread
// share once. r[i] = u[i-1] + u[i] + u[i+1] along the outer dimension: one
// point per thread loads u three times. Two points per thread: the full
// block loads u[i0-1], u[i0], u[i0+1], u[i0+2] once each (4, not 6) and the
// partial block's loop 3, so the 32-bit kernel (the first binary) holds 7
// loads, not 9. Without noalias the store to r between the two copies may
// alias u, and all 9 stay.
// ONE: gpu.binary @column_kernel  [{{.*}}.entry column_kernel(
// ONE-COUNT-3: ld.global.nc.b64
// ONE-NOT: ld.global
// ONE: gpu.binary @column_kernel_0
// CHECK: gpu.binary @column_kernel  [{{.*}}.entry column_kernel(
// CHECK-COUNT-7: ld.global.nc.b64
// CHECK-NOT: ld.global
// CHECK: gpu.binary @column_kernel_0
// ALIAS: gpu.binary @column_kernel  [{{.*}}.entry column_kernel(
// ALIAS-COUNT-9: ld.global.b64
// ALIAS-NOT: ld.global
// ALIAS: gpu.binary @column_kernel_0
func.func @column(%r: memref<?x?xf64>, %u: memref<?x?xf64>, %n: index) {
  stencil.domain (%i, %j) = (1, 0) to (%n - 1, %n) {
    %a = stencil.gather %u[-1, 0] : memref<?x?xf64>
    %b = stencil.gather %u[0, 0] : memref<?x?xf64>
    %c = stencil.gather %u[1, 0] : memref<?x?xf64>
    %s = arith.addf %a, %b : f64
    %t = arith.addf %s, %c : f64
    stencil.store %t to %r : memref<?x?xf64>
  }
  return
}
