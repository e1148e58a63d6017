//===- VectorWidth.cpp - Vector width of one-dimensional sweeps -*- C++ -*-===//
//
// This file implements --stencil-vector-width: `prefer_vector_width` on the
// functions whose stencil domains are all one-dimensional (Passes.td says
// why).
//
//===----------------------------------------------------------------------===//

#include "Stencil/Target/Passes.h"
#include "Stencil/Dialect/StencilOps.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinOps.h"

namespace mlir::stencil {
#define GEN_PASS_DEF_STENCILVECTORWIDTHPASS
#include "Stencil/Target/Passes.h.inc"
} // namespace mlir::stencil

using namespace mlir;

/// The name under which the LLVM lowering of `func.func` passes the
/// attribute on to `llvm.func` (and the translation to LLVM IR on to the
/// outlined parallel regions).
static constexpr llvm::StringLiteral kPreferVectorWidth =
    "prefer_vector_width";

/// Whether `func` has stencil domains and all of them have rank 1.
static bool hasOnlyRank1Domains(func::FuncOp func) {
  bool any = false;
  WalkResult result = func.walk([&](stencil::DomainOp domain) {
    any = true;
    return domain.getRank() == 1 ? WalkResult::advance()
                                 : WalkResult::interrupt();
  });
  return any && !result.wasInterrupted();
}

namespace {
struct StencilVectorWidthPass
    : public mlir::stencil::impl::StencilVectorWidthPassBase<
          StencilVectorWidthPass> {
  using Base::Base;

  void runOnOperation() override {
    if (rank1Width == 0)
      return;
    StringAttr width =
        StringAttr::get(&getContext(), std::to_string(rank1Width));
    getOperation().walk([&](func::FuncOp func) {
      if (!func->hasAttr(kPreferVectorWidth) && hasOnlyRank1Domains(func))
        func->setAttr(kPreferVectorWidth, width);
    });
  }
};
} // namespace
