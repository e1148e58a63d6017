//===- AllowContraction.cpp - Opt in to FMA contraction ---------*- C++ -*-===//
//
// This file implements --stencil-allow-contraction: the `contract`
// fast-math flag on every arith op that carries fast-math flags.
//
//===----------------------------------------------------------------------===//

#include "Stencil/Target/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/BuiltinOps.h"

namespace mlir::stencil {
#define GEN_PASS_DEF_STENCILALLOWCONTRACTIONPASS
#include "Stencil/Target/Passes.h.inc"
} // namespace mlir::stencil

using namespace mlir;

namespace {
struct StencilAllowContractionPass
    : public mlir::stencil::impl::StencilAllowContractionPassBase<
          StencilAllowContractionPass> {
  using Base::Base;

  void runOnOperation() override {
    MLIRContext *ctx = &getContext();
    getOperation()->walk([&](arith::ArithFastMathInterface op) {
      arith::FastMathFlags flags = arith::FastMathFlags::none;
      if (arith::FastMathFlagsAttr attr = op.getFastMathFlagsAttr())
        flags = attr.getValue();
      op->setAttr(op.getFastMathAttrName(),
                  arith::FastMathFlagsAttr::get(
                      ctx, flags | arith::FastMathFlags::contract));
    });
  }
};
} // namespace
