//===- Declare.h - Declarations of run-time functions ----------*- C++ -*-===//
//
// The one way the passes declare the run-time functions they call (the
// checkpointing, distributed and GPU libraries, OpenMP), pass them
// buffers, and how the run-time checks they generate name the function
// they guard.
//
//===----------------------------------------------------------------------===//

#ifndef STENCIL_SUPPORT_DECLARE_H
#define STENCIL_SUPPORT_DECLARE_H

#include "Stencil/Dialect/ReservedNames.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinOps.h"
#include "llvm/Support/raw_ostream.h"

#include <string>

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

/// The address of `memref`'s first element as the run-time functions take
/// a pointer (`!llvm.ptr`).
inline Value getRuntimePointer(OpBuilder &builder, Location loc,
                               Value memref) {
  Value address =
      memref::ExtractAlignedPointerAsIndexOp::create(builder, loc, memref);
  Value integer =
      arith::IndexCastOp::create(builder, loc, builder.getI64Type(), address);
  return LLVM::IntToPtrOp::create(
      builder, loc, LLVM::LLVMPointerType::get(builder.getContext()), integer);
}

/// `FILE:LINE:COL: 'name'` of `func`: how the run-time checks the passes
/// generate (the bounds of the C entry points, the distributed grid) begin
/// their messages, so that the user finds the function in the source.
inline std::string describeForRuntime(func::FuncOp func) {
  std::string text;
  llvm::raw_string_ostream os(text);
  if (auto file = func.getLoc()->findInstanceOf<FileLineColLoc>())
    os << file.getFilename().getValue() << ":" << file.getLine() << ":"
       << file.getColumn() << ": ";
  os << "'" << func.getSymName() << "'";
  return text;
}

} // namespace mlir::stencil

#endif // STENCIL_SUPPORT_DECLARE_H
