//===- DeviceCheckpoints.cpp - Snapshots in device memory -------*- C++ -*-===//
//
// This file implements --stencil-gpu-checkpoints: the adjoint of a time
// loop on the GPU route starts its schedule and takes its snapshot
// workspace from the GPU run-time library (device memory) instead of the
// host one.
//
//===----------------------------------------------------------------------===//

#include "Stencil/GPU/Passes.h"
#include "Stencil/Runtime/GPURuntime.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/SymbolTable.h"

namespace mlir::stencil {
#define GEN_PASS_DEF_STENCILGPUCHECKPOINTSPASS
#include "Stencil/GPU/Passes.h.inc"
} // namespace mlir::stencil

using namespace mlir;

/// Redirects every call of the declaration `from` to a declaration `to` of
/// the same type and attributes, and erases `from`.
static void redirect(ModuleOp module, StringRef from, StringRef to) {
  auto host = module.lookupSymbol<func::FuncOp>(from);
  if (!host || !host.isExternal())
    return;
  auto device = module.lookupSymbol<func::FuncOp>(to);
  if (!device) {
    OpBuilder builder(host);
    device = cast<func::FuncOp>(builder.clone(*host));
    device.setSymName(to);
  }
  if (failed(SymbolTable::replaceAllSymbolUses(host, device.getSymNameAttr(),
                                               module)))
    return;
  host.erase();
}

namespace {
struct StencilGPUCheckpointsPass
    : public mlir::stencil::impl::StencilGPUCheckpointsPassBase<
          StencilGPUCheckpointsPass> {
  using Base::Base;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    redirect(module, STENCIL_CKPT_START_NAME, STENCIL_GPU_CKPT_START_NAME);
    redirect(module, STENCIL_CKPT_WORKSPACE_NAME,
             STENCIL_GPU_CKPT_WORKSPACE_NAME);
  }
};
} // namespace
