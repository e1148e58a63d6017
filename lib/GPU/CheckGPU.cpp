//===- CheckGPU.cpp - What the GPU pipeline cannot run yet ------*- C++ -*-===//
//
// This file implements --stencil-check-gpu: located errors for the forms of
// stencil IR that the GPU route (`convert-to-gpu`) does not support yet.
//
//===----------------------------------------------------------------------===//

#include "Stencil/Dialect/StencilDialect.h"
#include "Stencil/Dialect/StencilOps.h"
#include "Stencil/GPU/Passes.h"
#include "Stencil/Runtime/Checkpoint.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Interfaces/CallInterfaces.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

namespace mlir::stencil {
#define GEN_PASS_DEF_STENCILCHECKGPUPASS
#include "Stencil/GPU/Passes.h.inc"
} // namespace mlir::stencil

using namespace mlir;
using namespace mlir::stencil;

/// Reports, at `site` (a call inside a domain), why the callee of `call`
/// cannot run on the device: it has no body in this module, or its body, or
/// a function it calls, accesses memory, calls indirectly or recurses.
/// `onPath` holds the functions of the current chain of calls, `proven`
/// those already found callable. Kernel outlining copies the callees into
/// the kernels' module.
static LogicalResult checkCall(Operation *site, func::CallOp call,
                               SymbolTableCollection &symbols,
                               DenseSet<Operation *> &onPath,
                               DenseSet<Operation *> &proven) {
  auto callee = symbols.lookupNearestSymbolFrom<func::FuncOp>(
      call, call.getCalleeAttr());
  // The func.call verifier already requires a func.func.
  if (!callee)
    return site->emitOpError() << "calls a symbol that is not a func.func, "
                                  "which the GPU pipeline cannot run";
  if (proven.contains(callee))
    return success();
  auto fail = [&](Operation *at, const Twine &why) {
    InFlightDiagnostic diag =
        site->emitOpError()
        << "calls @" << callee.getSymName() << ", which " << why
        << "; the GPU pipeline runs calls only to functions defined in the "
           "module whose bodies are free of memory effects";
    diag.attachNote(at->getLoc()) << "see here";
    return diag;
  };
  if (callee.isExternal())
    return fail(callee, "has no body in this module");
  if (!onPath.insert(callee).second)
    return fail(callee, "is recursive");
  WalkResult walk = callee.getBody().walk([&](Operation *op) {
    if (auto inner = dyn_cast<func::CallOp>(op))
      return failed(checkCall(site, inner, symbols, onPath, proven))
                 ? WalkResult::interrupt()
                 : WalkResult::advance();
    if (isa<CallOpInterface>(op)) {
      (void)fail(op, "calls indirectly");
      return WalkResult::interrupt();
    }
    if (!isa<func::ReturnOp>(op) && !isMemoryEffectFree(op)) {
      (void)fail(op, "accesses memory");
      return WalkResult::interrupt();
    }
    return WalkResult::advance();
  });
  onPath.erase(callee);
  if (walk.wasInterrupted())
    return failure();
  proven.insert(callee);
  return success();
}

/// Reports `call`, on the host, unless its callee is a function of the
/// module (its body is checked as the host's too) or one of the
/// checkpointing run-time library (Stencil/Runtime/Checkpoint.h), which the
/// adjoint of a time loop calls.
static LogicalResult checkHostCall(func::CallOp call,
                                   SymbolTableCollection &symbols) {
  auto callee = symbols.lookupNearestSymbolFrom<func::FuncOp>(
      call, call.getCalleeAttr());
  if (!callee || !callee.isExternal() ||
      callee.getSymName().starts_with(STENCIL_CKPT_PREFIX))
    return success();
  InFlightDiagnostic diag =
      call.emitOpError()
      << "calls @" << callee.getSymName()
      << ", which has no body in this module, on the host, where the GPU "
         "pipeline's arrays are device memory; it calls only the module's "
         "functions and the checkpointing run-time library from the host";
  diag.attachNote(callee.getLoc()) << "see here";
  return diag;
}

/// Reports `op` if the GPU route cannot run it yet.
static LogicalResult checkOp(Operation *op) {
  bool inDomain = op->getParentOfType<DomainOp>() != nullptr;
  StringRef distribution =
      StencilDialect::DistributionAttrHelper::getNameStr();
  if (auto func = dyn_cast<func::FuncOp>(op); func && func->hasAttr(distribution))
    return func.emitOpError()
           << "is distributed over MPI (" << distribution
           << "), which the GPU pipeline does not support yet";
  if (isa<CallOpInterface>(op) && !isa<func::CallOp>(op))
    return op->emitOpError()
           << "is an indirect call, which the GPU pipeline cannot run";
  // The host reads single f32/f64 elements from device memory
  // (--stencil-gpu-host-reads); it writes none. Host memory (a time loop's
  // clocks) it reads and writes as it likes.
  if (auto load = dyn_cast<memref::LoadOp>(op);
      load && isHostMemory(load.getMemRef()))
    return success();
  if (auto store = dyn_cast<memref::StoreOp>(op);
      store && isHostMemory(store.getMemRef()))
    return success();
  if (auto load = dyn_cast<memref::LoadOp>(op); load && !inDomain) {
    if (isa<Float32Type, Float64Type>(load.getType()))
      return success();
    return op->emitOpError()
           << "reads an element of type " << load.getType()
           << " on the host, where the GPU pipeline's arrays are device "
              "memory; only f32 and f64 elements are read back";
  }
  if (isa<memref::StoreOp, memref::CopyOp>(op) && !inDomain)
    return op->emitOpError()
           << "writes array elements outside stencil domains, on the "
              "host, where the GPU pipeline's arrays are device memory; not "
              "supported yet";
  return success();
}

namespace {
struct StencilCheckGPUPass
    : public mlir::stencil::impl::StencilCheckGPUPassBase<StencilCheckGPUPass> {
  using Base::Base;

  void runOnOperation() override {
    SymbolTableCollection symbols;
    DenseSet<Operation *> onPath, device;
    // Calls inside domains first: they run on the device, and so must
    // their callees, which the host checks below then skip.
    WalkResult calls = getOperation().walk([&](func::CallOp call) {
      if (!call->getParentOfType<DomainOp>())
        return WalkResult::advance();
      return failed(checkCall(call, call, symbols, onPath, device))
                 ? WalkResult::interrupt()
                 : WalkResult::advance();
    });
    if (calls.wasInterrupted())
      return signalPassFailure();
    WalkResult result =
        getOperation().walk<WalkOrder::PreOrder>([&](Operation *op) {
          if (device.contains(op))
            return WalkResult::skip();
          if (auto domain = dyn_cast<DomainOp>(op);
              domain && failed(domain.requireRectangular(
                            "the GPU pipeline (convert-to-gpu)")))
            return WalkResult::interrupt();
          if (auto domain = dyn_cast<DomainOp>(op);
              serialScatter && domain && domain.hasScatter()) {
            domain.emitOpError()
                << "scatters, and scatter=serial would run it on one GPU "
                   "thread; use scatter=gather (the default) or "
                   "scatter=atomic";
            return WalkResult::interrupt();
          }
          if (auto call = dyn_cast<func::CallOp>(op);
              call && !call->getParentOfType<DomainOp>() &&
              failed(checkHostCall(call, symbols)))
            return WalkResult::interrupt();
          return failed(checkOp(op)) ? WalkResult::interrupt()
                                     : WalkResult::advance();
        });
    if (result.wasInterrupted())
      signalPassFailure();
  }
};
} // namespace
