//===- VerifyLowered.cpp - Check that a module is fully lowered -*- C++ -*-===//
//
// This file implements --stencil-verify-lowered, the last pass of the
// pipelines to the LLVM dialect. Upstream conversions to LLVM are partial:
// an op they cannot convert (a function whose signature has no LLVM type,
// say) stays behind and nothing reports it until mlir-translate fails. This
// pass turns that into an error at the op, so that a pipeline never ends
// with success on half-lowered IR.
//
//===----------------------------------------------------------------------===//

#include "Stencil/Target/Passes.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/OpenMP/OpenMPDialect.h"
#include "mlir/IR/BuiltinOps.h"

namespace mlir::stencil {
#define GEN_PASS_DEF_STENCILVERIFYLOWEREDPASS
#include "Stencil/Target/Passes.h.inc"
} // namespace mlir::stencil

using namespace mlir;

namespace {
struct StencilVerifyLoweredPass
    : public mlir::stencil::impl::StencilVerifyLoweredPassBase<
          StencilVerifyLoweredPass> {
  using Base::Base;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    WalkResult result = module.walk<WalkOrder::PreOrder>([&](Operation *op) {
      if (op == module.getOperation() ||
          isa_and_nonnull<LLVM::LLVMDialect, omp::OpenMPDialect>(
              op->getDialect()))
        return WalkResult::advance();
      // The GPU pipeline's embedded kernels and their launches, which the
      // translation to LLVM IR lowers (to runtime calls over LLVM values).
      if (isa<gpu::BinaryOp>(op))
        return WalkResult::skip();
      if (isa<gpu::LaunchFuncOp>(op) &&
          llvm::all_of(op->getOperandTypes(), LLVM::isCompatibleType))
        return WalkResult::advance();
      op->emitOpError()
          << "was not lowered to the LLVM dialect; it has no lowering to "
             "LLVM here (e.g. a type without an LLVM equivalent)";
      return WalkResult::interrupt();
    });
    if (result.wasInterrupted())
      signalPassFailure();
  }
};
} // namespace
