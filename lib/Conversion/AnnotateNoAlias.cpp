//===- AnnotateNoAlias.cpp - noalias on array data pointers -----*- C++ -*-===//
//
// This file implements --stencil-annotate-noalias: after the LLVM lowering,
// the data pointers of the array arguments recorded by --stencil-prepare-abi
// are marked `llvm.noalias`.
//
//===----------------------------------------------------------------------===//

#include "Stencil/Conversion/Passes.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/IR/BuiltinOps.h"

namespace mlir::stencil {
#define GEN_PASS_DEF_STENCILANNOTATENOALIASPASS
#include "Stencil/Conversion/Passes.h.inc"
} // namespace mlir::stencil

using namespace mlir;

namespace {
struct StencilAnnotateNoAliasPass
    : public mlir::stencil::impl::StencilAnnotateNoAliasPassBase<
          StencilAnnotateNoAliasPass> {
  using Base::Base;

  void runOnOperation() override {
    Builder builder(&getContext());
    for (auto func : getOperation().getOps<LLVM::LLVMFuncOp>()) {
      auto arrays = func->getAttrOfType<DenseI32ArrayAttr>(
          "stencil.noalias_args");
      if (!arrays || func.isExternal())
        continue;
      func->removeAttr("stencil.noalias_args");
      // The positions were computed from the original signature; check that
      // each still names a pointer before marking it.
      unsigned numArgs = func.getNumArguments();
      if (!llvm::all_of(arrays.asArrayRef(), [&](int32_t position) {
            return position >= 0 && static_cast<unsigned>(position) < numArgs &&
                   isa<LLVM::LLVMPointerType>(
                       func.getArgumentTypes()[position]);
          }))
        continue;
      for (int32_t position : arrays.asArrayRef())
        func.setArgAttr(position, "llvm.noalias", builder.getUnitAttr());
    }
  }
};
} // namespace
