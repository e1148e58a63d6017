//===- KernelArgs.cpp - What GPU kernels may assume of their arrays -*- C++ -*-===//
//
// This file implements --stencil-mark-gpu-kernel-args (after outlining:
// which array arguments of each kernel are only read, and whether its
// arrays are distinct) and --stencil-gpu-kernel-noalias (after the NVVM
// lowering: the pointers of such kernels become `noalias`). Together they
// let the NVPTX back end read arrays a kernel never writes through the
// read-only data path (`ld.global.nc`), which it does only for `noalias`
// read-only kernel pointers. Distinct arrays are the ABI's contract
// (docs/ABI.md, "Arrays must not overlap"), the same the CPU path's
// --stencil-annotate-noalias relies on.
//
//===----------------------------------------------------------------------===//

#include "Stencil/Dialect/StencilDialect.h"
#include "Stencil/GPU/Passes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Interfaces/ViewLikeInterface.h"
#include "llvm/ADT/SmallPtrSet.h"

namespace mlir::stencil {
#define GEN_PASS_DEF_STENCILMARKGPUKERNELARGSPASS
#define GEN_PASS_DEF_STENCILGPUKERNELNOALIASPASS
#include "Stencil/GPU/Passes.h.inc"
} // namespace mlir::stencil

using namespace mlir;
using namespace mlir::stencil;


/// The allocation or function argument `array` is a view of, or null if it
/// comes from anything else (a global, a loop-carried value, ...).
static Value getArrayRoot(Value array) {
  while (array) {
    if (auto arg = dyn_cast<BlockArgument>(array)) {
      Operation *owner = arg.getOwner()->getParentOp();
      return isa<func::FuncOp>(owner) && arg.getOwner()->isEntryBlock()
                 ? array
                 : Value();
    }
    Operation *def = array.getDefiningOp();
    if (isa<memref::AllocOp, memref::AllocaOp, gpu::AllocOp>(def))
      return array;
    if (auto meta = dyn_cast<memref::ExtractStridedMetadataOp>(def))
      array = meta.getSource();
    else if (auto view = dyn_cast<ViewLikeOpInterface>(def))
      array = view.getViewSource();
    else
      return Value();
  }
  return Value();
}

/// True if the memref operands of `launch` are views of pairwise distinct
/// allocations or function arguments.
static bool hasDistinctArrays(gpu::LaunchFuncOp launch) {
  llvm::SmallPtrSet<Value, 8> roots;
  for (Value operand : launch.getKernelOperands()) {
    if (!isa<MemRefType>(operand.getType()))
      continue;
    Value root = getArrayRoot(operand);
    if (!root || !roots.insert(root).second)
      return false;
  }
  return true;
}

/// Marks the memref arguments of `kernel` that it only loads from.
static void markReadOnly(gpu::GPUFuncOp kernel) {
  for (BlockArgument arg : kernel.getArguments()) {
    if (!isa<MemRefType>(arg.getType()))
      continue;
    bool onlyLoaded = llvm::all_of(arg.getUsers(), [&](Operation *user) {
      return isa<memref::LoadOp>(user);
    });
    if (onlyLoaded)
      kernel.setArgAttr(arg.getArgNumber(), LLVM::LLVMDialect::getReadonlyAttrName(),
                        UnitAttr::get(kernel.getContext()));
  }
}

namespace {
struct StencilMarkGPUKernelArgsPass
    : public mlir::stencil::impl::StencilMarkGPUKernelArgsPassBase<
          StencilMarkGPUKernelArgsPass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    // A kernel is marked only if every launch of it passes distinct arrays.
    llvm::DenseMap<Operation *, bool> distinct;
    SymbolTableCollection symbols;
    module.walk([&](gpu::LaunchFuncOp launch) {
      auto kernel = symbols.lookupNearestSymbolFrom<gpu::GPUFuncOp>(
          launch, launch.getKernelAttr());
      if (!kernel)
        return;
      auto [it, inserted] = distinct.try_emplace(kernel, true);
      it->second = it->second && hasDistinctArrays(launch);
    });
    for (auto [op, isDistinct] : distinct) {
      auto kernel = cast<gpu::GPUFuncOp>(op);
      markReadOnly(kernel);
      if (isDistinct)
        StencilDialect::DistinctArraysAttrHelper(kernel.getContext())
            .setAttr(kernel, UnitAttr::get(kernel.getContext()));
    }
  }
};

struct StencilGPUKernelNoAliasPass
    : public mlir::stencil::impl::StencilGPUKernelNoAliasPassBase<
          StencilGPUKernelNoAliasPass> {
  void runOnOperation() override {
    getOperation()->walk([&](LLVM::LLVMFuncOp func) {
      StencilDialect::DistinctArraysAttrHelper mark(func.getContext());
      if (!mark.isAttrPresent(func))
        return;
      mark.removeAttr(func);
      for (unsigned i = 0, e = func.getNumArguments(); i < e; ++i)
        if (isa<LLVM::LLVMPointerType>(func.getArgument(i).getType()))
          func.setArgAttr(i, LLVM::LLVMDialect::getNoAliasAttrName(),
                          UnitAttr::get(func.getContext()));
    });
  }
};
} // namespace
