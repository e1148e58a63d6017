// RUN: not stencil-opt %s --stencil-distribute 2>&1 | FileCheck %s --check-prefix=NOGRID
// RUN: not stencil-opt %s --stencil-distribute="grid=2,0" 2>&1 | FileCheck %s --check-prefix=ZERO

// NOGRID: error: --stencil-distribute needs a process grid: grid=P0,P1,...
// ZERO: error: --stencil-distribute: every grid extent must be in [1, 2^20], got 0
func.func @f(%u: memref<?xf64>, %v: memref<?xf64>, %n: index) {
  stencil.domain (%i) = (1) to (%n) {
    %x = stencil.gather %u[-1] : memref<?xf64>
    stencil.store %x to %v : memref<?xf64>
  }
  return
}
