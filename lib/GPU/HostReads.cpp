//===- HostReads.cpp - Device elements read on the host ---------*- C++ -*-===//
//
// This file implements --stencil-gpu-host-reads: every memref.load of the
// GPU route's host code (outside the mapped parallel loops) becomes a call
// of the GPU run-time library that copies the element from device memory.
//
//===----------------------------------------------------------------------===//

#include "Stencil/Dialect/StencilDialect.h"
#include "Stencil/GPU/Passes.h"
#include "Stencil/Runtime/GPURuntime.h"
#include "Stencil/Support/Declare.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/BuiltinOps.h"

namespace mlir::stencil {
#define GEN_PASS_DEF_STENCILGPUHOSTREADSPASS
#include "Stencil/GPU/Passes.h.inc"
} // namespace mlir::stencil

using namespace mlir;

/// The declaration of the run-time library's reader of `type` elements.
static func::FuncOp getReader(ModuleOp module, Type type) {
  StringRef name = type.isF64() ? STENCIL_GPU_READ_F64_NAME
                                : STENCIL_GPU_READ_F32_NAME;
  auto ptr = LLVM::LLVMPointerType::get(module.getContext());
  return stencil::lookupOrDeclareFunction(module, name, {ptr}, {type});
}

/// The address of the element `load` reads: the aligned pointer plus the
/// offset and the indices times the strides, in elements of its type.
static Value elementAddress(OpBuilder &builder, memref::LoadOp load) {
  Location loc = load.getLoc();
  Value memref = load.getMemref();
  auto metadata =
      memref::ExtractStridedMetadataOp::create(builder, loc, memref);
  Value linear = metadata.getOffset();
  for (auto [index, stride] :
       llvm::zip_equal(load.getIndices(), metadata.getStrides()))
    linear = arith::AddIOp::create(
        builder, loc, linear,
        arith::MulIOp::create(builder, loc, index, stride));
  Value bytes = arith::ConstantIndexOp::create(
      builder, loc, load.getType().getIntOrFloatBitWidth() / 8);
  Value base =
      memref::ExtractAlignedPointerAsIndexOp::create(builder, loc, memref);
  Value address = arith::AddIOp::create(
      builder, loc, base, arith::MulIOp::create(builder, loc, linear, bytes));
  Value integer = arith::IndexCastOp::create(builder, loc,
                                             builder.getI64Type(), address);
  return LLVM::IntToPtrOp::create(
      builder, loc, LLVM::LLVMPointerType::get(builder.getContext()),
      integer);
}

namespace {
struct StencilGPUHostReadsPass
    : public mlir::stencil::impl::StencilGPUHostReadsPassBase<
          StencilGPUHostReadsPass> {
  using Base::Base;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    SmallVector<memref::LoadOp> loads;
    module.walk([&](memref::LoadOp load) {
      if (!load->getParentOfType<scf::ParallelOp>() &&
          !stencil::isHostMemory(load.getMemRef()) &&
          isa<Float32Type, Float64Type>(load.getType()))
        loads.push_back(load);
    });
    for (memref::LoadOp load : loads) {
      if (!load.getMemRefType().isStrided()) {
        load.emitOpError()
            << "reads an element of an array without a strided layout on "
               "the host; the GPU pipeline reads back elements of strided "
               "arrays only";
        return signalPassFailure();
      }
      OpBuilder builder(load);
      func::FuncOp reader = getReader(module, load.getType());
      auto call = func::CallOp::create(builder, load.getLoc(), reader,
                                       ValueRange{elementAddress(builder, load)});
      load.replaceAllUsesWith(call.getResult(0));
      load.erase();
    }
  }
};
} // namespace
