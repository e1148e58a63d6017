//===- AdjointRules.h - Register the derivative rules -------------*- C++ -*-===//
//
// This file declares the hooks that attach the derivative rules
// (AdjointOpInterface external models) to the ops of each dialect.
//
//===----------------------------------------------------------------------===//

#ifndef STENCIL_ADJOINT_ADJOINTRULES_H
#define STENCIL_ADJOINT_ADJOINTRULES_H

namespace mlir {
class DialectRegistry;
} // namespace mlir

namespace mlir::stencil {

/// Rules for stencil.gather, store, accumulate and yield.
void registerStencilAdjointRules(DialectRegistry &registry);
/// Rules for the arith float ops, constants, casts, cmpf and select.
void registerArithAdjointRules(DialectRegistry &registry);
/// Rules for the math dialect.
void registerMathAdjointRules(DialectRegistry &registry);
/// The rule for func.call with user-provided partial derivatives.
void registerFuncAdjointRules(DialectRegistry &registry);
/// The rule for scf.if with results.
void registerSCFAdjointRules(DialectRegistry &registry);

/// Calls every hook above.
inline void registerAllAdjointRules(DialectRegistry &registry) {
  registerStencilAdjointRules(registry);
  registerArithAdjointRules(registry);
  registerMathAdjointRules(registry);
  registerFuncAdjointRules(registry);
  registerSCFAdjointRules(registry);
}

} // namespace mlir::stencil

#endif // STENCIL_ADJOINT_ADJOINTRULES_H
