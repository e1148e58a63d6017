//===- PrepareABI.cpp - Mark functions for the C ABI ------------*- C++ -*-===//
//
// This file implements --stencil-prepare-abi: public functions get
// `llvm.emit_c_interface`, and their array arguments are recorded for
// --stencil-annotate-noalias.
//
//===----------------------------------------------------------------------===//

#include "Stencil/Conversion/Passes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinOps.h"

namespace mlir::stencil {
#define GEN_PASS_DEF_STENCILPREPAREABIPASS
#include "Stencil/Conversion/Passes.h.inc"
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
      if (func.isExternal() || !func.isPublic())
        continue;
      func->setAttr("llvm.emit_c_interface", builder.getUnitAttr());
      // With the default calling convention a rank-r memref expands into
      // (allocated, aligned, offset, sizes[r], strides[r]) and a scalar into
      // one argument. Record where the data pointers will be; give up on
      // signatures with other argument types.
      SmallVector<int32_t> pointers;
      int32_t position = 0;
      bool known = true;
      for (Type type : func.getArgumentTypes()) {
        if (auto memref = dyn_cast<MemRefType>(type)) {
          pointers.push_back(position);
          pointers.push_back(position + 1);
          position += 3 + 2 * memref.getRank();
        } else if (type.isIntOrIndexOrFloat()) {
          position += 1;
        } else {
          known = false;
        }
      }
      if (known && !pointers.empty())
        func->setAttr("stencil.noalias_args",
                      builder.getDenseI32ArrayAttr(pointers));
    }
  }
};
} // namespace
