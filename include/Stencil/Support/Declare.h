//===- Declare.h - Declarations of run-time functions ----------*- C++ -*-===//
//
// The one way the passes declare the run-time functions they call (the
// checkpointing, distributed and GPU libraries, OpenMP).
//
//===----------------------------------------------------------------------===//

#ifndef STENCIL_SUPPORT_DECLARE_H
#define STENCIL_SUPPORT_DECLARE_H

#include "Stencil/Dialect/ReservedNames.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinOps.h"

namespace mlir::stencil {

/// The function `name` of `module`: the one there, or a private declaration
/// `(args) -> (results)` added at the module's end and marked the
/// pipeline's own (Stencil/Dialect/ReservedNames.h).
inline func::FuncOp lookupOrDeclareFunction(ModuleOp module, StringRef name,
                                            TypeRange args,
                                            TypeRange results) {
  if (auto existing = module.lookupSymbol<func::FuncOp>(name))
    return existing;
  OpBuilder builder = OpBuilder::atBlockEnd(module.getBody());
  auto decl = func::FuncOp::create(builder, module.getLoc(), name,
                                   builder.getFunctionType(args, results));
  decl.setPrivate();
  markRuntimeSymbol(decl);
  return decl;
}

} // namespace mlir::stencil

#endif // STENCIL_SUPPORT_DECLARE_H
