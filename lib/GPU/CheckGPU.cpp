//===- CheckGPU.cpp - What the GPU pipeline cannot run yet ------*- C++ -*-===//
//
// This file implements --stencil-check-gpu: located errors for the forms of
// stencil IR that the GPU route (`convert-to-gpu`) does not support yet.
//
//===----------------------------------------------------------------------===//

#include "Stencil/Dialect/StencilDialect.h"
#include "Stencil/Dialect/StencilOps.h"
#include "Stencil/GPU/Passes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/BuiltinOps.h"

namespace mlir::stencil {
#define GEN_PASS_DEF_STENCILCHECKGPUPASS
#include "Stencil/GPU/Passes.h.inc"
} // namespace mlir::stencil

using namespace mlir;
using namespace mlir::stencil;

/// Reports `op` if the GPU route cannot run it yet.
static LogicalResult checkOp(Operation *op) {
  bool inDomain = op->getParentOfType<DomainOp>() != nullptr;
  StringRef distribution =
      StencilDialect::DistributionAttrHelper::getNameStr();
  if (auto func = dyn_cast<func::FuncOp>(op); func && func->hasAttr(distribution))
    return func.emitOpError()
           << "is distributed over MPI (" << distribution
           << "), which the GPU pipeline does not support yet";
  if (auto domain = dyn_cast<DomainOp>(op); domain && domain.getNumResults())
    return op->emitOpError()
           << "computes sums over its points, which the GPU pipeline does "
              "not support yet (it needs a device reduction)";
  if (isa<scf::ForOp, scf::WhileOp>(op) && !inDomain)
    return op->emitOpError()
           << "is a loop outside stencil domains (a time loop?), which the "
              "GPU pipeline does not support yet; call the step function "
              "from the host once per step";
  if (isa<func::CallOp>(op))
    return op->emitOpError()
           << "is a call, which the GPU pipeline does not support yet";
  if (isa<memref::LoadOp, memref::StoreOp, memref::CopyOp>(op) && !inDomain)
    return op->emitOpError()
           << "accesses array elements outside stencil domains, on the "
              "host, where the GPU pipeline's arrays are device memory; not "
              "supported yet";
  return success();
}

namespace {
struct StencilCheckGPUPass
    : public mlir::stencil::impl::StencilCheckGPUPassBase<StencilCheckGPUPass> {
  using Base::Base;

  void runOnOperation() override {
    WalkResult result = getOperation().walk([&](Operation *op) {
      if (auto domain = dyn_cast<DomainOp>(op);
          serialScatter && domain && domain.hasScatter()) {
        domain.emitOpError()
            << "scatters, and scatter=serial would run it on one GPU "
               "thread; use scatter=gather (the default) or scatter=atomic";
        return WalkResult::interrupt();
      }
      return failed(checkOp(op)) ? WalkResult::interrupt()
                                 : WalkResult::advance();
    });
    if (result.wasInterrupted())
      signalPassFailure();
  }
};
} // namespace
