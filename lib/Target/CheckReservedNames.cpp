//===- CheckReservedNames.cpp - Keep user symbols out of the runtimes ----===//
//
// This file implements --stencil-check-reserved-names: the pipelines' entry
// check of Stencil/Dialect/ReservedNames.h.
//
//===----------------------------------------------------------------------===//

#include "Stencil/Dialect/ReservedNames.h"
#include "Stencil/Target/Passes.h"

namespace mlir::stencil {
#define GEN_PASS_DEF_STENCILCHECKRESERVEDNAMESPASS
#include "Stencil/Target/Passes.h.inc"
} // namespace mlir::stencil

using namespace mlir;

namespace {
struct StencilCheckReservedNamesPass
    : public mlir::stencil::impl::StencilCheckReservedNamesPassBase<
          StencilCheckReservedNamesPass> {
  using Base::Base;

  void runOnOperation() override {
    if (failed(stencil::checkReservedSymbols(getOperation())))
      signalPassFailure();
  }
};
} // namespace
