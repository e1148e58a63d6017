//===- InitAll.cpp - Register everything the stencil project offers -*- C++ -*-===//
//
// This file implements the registration entry points that stencil-opt and
// embedding compilers call.
//
//===----------------------------------------------------------------------===//

#include "Stencil/InitAll.h"

#include "Stencil/Conversion/Passes.h"
#include "Stencil/Gather/Passes.h"
#include "Stencil/Distribution/Passes.h"
#include "Stencil/GPU/Passes.h"
#include "Stencil/Pipelines/Pipelines.h"
#include "Stencil/Dialect/StencilDialect.h"
#include "Stencil/Target/CInterface.h"
#include "Stencil/Target/Passes.h"
#include "Stencil/Adjoint/AdjointRules.h"
#include "Stencil/Adjoint/Passes.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Conversion/MPIToLLVM/MPIToLLVM.h"
#include "mlir/Dialect/ControlFlow/IR/ControlFlow.h"
#include "mlir/Dialect/DLTI/DLTI.h"
#include "mlir/Dialect/EmitC/IR/EmitC.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MPI/IR/MPI.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/OpenMP/OpenMPDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Shard/IR/ShardDialect.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/InitAllExtensions.h"
#include "mlir/Target/LLVM/NVVM/Target.h"
#include "mlir/Target/LLVMIR/Dialect/Builtin/BuiltinToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Dialect/GPU/GPUToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Dialect/LLVMIR/LLVMToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Dialect/NVVM/NVVMToLLVMIRTranslation.h"
#include "mlir/Tools/mlir-translate/Translation.h"

void mlir::stencil::registerStencilInputDialects(DialectRegistry &registry) {
  registry.insert<StencilDialect, affine::AffineDialect, arith::ArithDialect,
                  cf::ControlFlowDialect, func::FuncDialect, math::MathDialect,
                  memref::MemRefDialect, scf::SCFDialect>();
  // The ConvertToLLVM interfaces are extensions: without them
  // --convert-to-llvm silently converts nothing.
  registerAllExtensions(registry);
  mpi::registerConvertMPIToLLVMInterface(registry);
  registerAllAdjointRules(registry);
  // The dialect verifies its attributes (`stencil.active`, ...) only while
  // it is loaded. A module may carry them on func ops before any stencil op
  // appears, so load it with func.
  registry.addExtension(+[](MLIRContext *ctx, func::FuncDialect *) {
    ctx->getOrLoadDialect<StencilDialect>();
  });
}

void mlir::stencil::registerAllStencilDialects(DialectRegistry &registry) {
  registerStencilInputDialects(registry);
  registry.insert<LLVM::LLVMDialect, omp::OpenMPDialect>();
  // The C source route (convert-to-c) ends in EmitC.
  registry.insert<emitc::EmitCDialect>();
  // Distributed functions (--stencil-distribute): the process grid, its
  // exchanges and the MPI implementation attribute. Not input dialects:
  // stencil programs are written without them.
  registry.insert<DLTIDialect, mpi::MPIDialect, shard::ShardDialect>();
  // The GPU route (convert-to-gpu): kernels, NVVM, and the NVVM target's
  // serialization of kernels into the embedded binary.
  registry.insert<gpu::GPUDialect, NVVM::NVVMDialect>();
  NVVM::registerNVVMTargetInterfaceExternalModels(registry);
  // gpu-module-to-binary translates the kernels to LLVM IR itself.
  registerBuiltinDialectTranslation(registry);
  registerGPUDialectTranslation(registry);
  registerLLVMDialectTranslation(registry);
  registerNVVMDialectTranslation(registry);
}

void mlir::stencil::registerAllStencilPasses() {
  registerStencilAdjointPasses();
  registerStencilGatherPasses();
  registerStencilConversionPasses();
  registerStencilTargetPasses();
  registerStencilDistributionPasses();
  registerStencilGPUPasses();
  registerStencilPipelines();
}

void mlir::stencil::registerAllStencilTranslations() {
  TranslateFromMLIRRegistration toCHeader(
      "stencil-to-c-header",
      "Write the C header declaring the module's C interface (docs/ABI.md)",
      [](Operation *op, raw_ostream &os) -> LogicalResult {
        auto module = dyn_cast<ModuleOp>(op);
        if (!module)
          return op->emitError("expected a builtin.module");
        StringRef source = "<stdin>";
        if (auto file = dyn_cast<FileLineColLoc>(module.getLoc()))
          source = file.getFilename().getValue();
        return emitCHeader(module, source, /*headerName=*/"", os);
      },
      registerAllStencilDialects);
}
