// RUN: stencil-opt %s --stencil-distribute=grid=2 --stencil-adjoint -verify-diagnostics -o /dev/null
// RUN: stencil-opt %s --stencil-adjoint --stencil-distribute=grid=2 | FileCheck %s

// The adjoint has no rules for what the distribution adds (run-time calls,
// views of blocks): it says so at the distributed function, with the pass
// order that works.

// expected-error @below {{'func.func' op is already distributed by --stencil-distribute, whose run-time calls and block views have no adjoint; run --stencil-adjoint before --stencil-distribute}}
func.func @f(%u: memref<?xf64> {stencil.active}, %v: memref<?xf64> {stencil.active}, %n: index) {
  stencil.domain (%i) = (1) to (%n) {
    %x = stencil.gather %u[-1] : memref<?xf64>
    stencil.store %x to %v : memref<?xf64>
  }
  return
}

// In that order, both functions are distributed.
// CHECK: func.func @f({{.*}}attributes {stencil.distribution
// CHECK: func.func @f_adjoint({{.*}}attributes {stencil.adjoint_of = @f, stencil.distribution
