//===- PrepareABI.cpp - Mark functions for the C ABI ------------*- C++ -*-===//
//
// This file implements --stencil-prepare-abi: public functions get
// `llvm.emit_c_interface`, and those with array arguments `stencil.noalias`,
// which --stencil-annotate-noalias turns into LLVM aliasing facts. It drops
// `stencil.active` from their arguments.
//
//===----------------------------------------------------------------------===//

#include "Stencil/Target/Passes.h"
#include "Stencil/Dialect/StencilDialect.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinOps.h"

namespace mlir::stencil {
#define GEN_PASS_DEF_STENCILPREPAREABIPASS
#include "Stencil/Target/Passes.h.inc"
} // namespace mlir::stencil

using namespace mlir;

namespace {
struct StencilPrepareABIPass
    : public mlir::stencil::impl::StencilPrepareABIPassBase<
          StencilPrepareABIPass> {
  using Base::Base;

  void runOnOperation() override {
    Builder builder(&getContext());
    for (auto func : getOperation().getOps<func::FuncOp>()) {
      if (func.isExternal())
        continue;
      // `stencil.active` means nothing past differentiation, and the
      // lowering would copy it onto the arguments of the LLVM function (a
      // private step function of a time loop that is not inlined keeps it
      // otherwise) and the wrapper's descriptor pointers.
      for (unsigned i = 0, e = func.getNumArguments(); i < e; ++i)
        func.removeArgAttr(
            i, stencil::StencilDialect::ActiveAttrHelper::getNameStr());
      if (!func.isPublic())
        continue;
      func->setAttr("llvm.emit_c_interface", builder.getUnitAttr());
      // The ABI contract: the arrays passed to one call do not overlap.
      if (llvm::any_of(func.getArgumentTypes(), llvm::IsaPred<MemRefType>))
        func->setAttr(stencil::StencilDialect::NoaliasAttrHelper::getNameStr(),
                      builder.getUnitAttr());
    }
  }
};
} // namespace
