//===- GPUPipeline.cpp - Stencil to GPU kernels -----------------*- C++ -*-===//
//
// This file implements the `convert-to-gpu` pipeline. It strings together
// our passes (the check, the guarded gather form, the block mapping) and
// upstream ones: convert-parallel-loops-to-gpu, gpu-kernel-outlining, the
// NVVM lowering and gpu-module-to-binary, in the order of upstream's
// gpu-lower-to-nvvm-pipeline, with the toolkit the project was built with.
//
//===----------------------------------------------------------------------===//

#include "Stencil/Conversion/Passes.h"
#include "Stencil/Gather/Passes.h"
#include "Stencil/GPU/Passes.h"
#include "Stencil/Pipelines/Pipelines.h"
#include "Stencil/Target/Passes.h"

// The conversions this pipeline uses (not the mlir/Conversion/Passes.h
// umbrella header, see Pipelines.cpp).
#include "mlir/Conversion/AffineToStandard/AffineToStandard.h"
#include "mlir/Conversion/ArithToLLVM/ArithToLLVM.h"
#include "mlir/Conversion/FuncToLLVM/ConvertFuncToLLVMPass.h"
#include "mlir/Conversion/GPUCommon/GPUCommonPass.h"
#include "mlir/Conversion/GPUToNVVM/GPUToNVVMPass.h"
#include "mlir/Conversion/IndexToLLVM/IndexToLLVM.h"
#include "mlir/Conversion/MathToLLVM/MathToLLVM.h"
#include "mlir/Conversion/ReconcileUnrealizedCasts/ReconcileUnrealizedCasts.h"
#include "mlir/Conversion/SCFToControlFlow/SCFToControlFlow.h"
#include "mlir/Conversion/SCFToGPU/SCFToGPUPass.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/GPU/Transforms/Passes.h"
#include "mlir/Dialect/MemRef/Transforms/Passes.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Transforms/Passes.h"

using namespace mlir;
using namespace mlir::stencil;

const char *mlir::stencil::getBuildCUDAToolkit() {
  return STENCIL_CUDA_TOOLKIT_DIR;
}

void mlir::stencil::addGPUCoarsening(OpPassManager &pm, int64_t factor) {
  if (factor == 1)
    return;
  StencilCoarsenGPUNestsPassOptions coarsen;
  coarsen.factor = factor;
  pm.addPass(createStencilCoarsenGPUNestsPass(coarsen));
  // Folds the copies' index sums, so that taps they share become one value.
  pm.addPass(createCanonicalizerPass());
  pm.addPass(createCSEPass());
}

/// Stencil IR to host functions launching kernels over scf.parallel nests.
static void buildKernels(OpPassManager &pm, const ConvertToGPUOptions &o) {
  StencilCheckGPUPassOptions check;
  check.serialScatter = o.scatter == ScatterLowering::Serial;
  // User symbols named like what the lowering calls or defines.
  pm.addPass(createStencilCheckReservedNamesPass());
  pm.addPass(createStencilCheckGPUPass(check));
  // On the input IR, which the bounds plan reads, once it is known to be
  // one the GPU route takes (the check calls a host function).
  if (o.cInterface && o.checkBounds)
    pm.addPass(createStencilCheckABIBoundsPass());
  pm.addPass(createStencilGPUCheckpointsPass());
  // Domains whose bounds vary inside a loop, in functions of their own.
  pm.addPass(createStencilOutlineDomainsPass());
  if (o.cInterface)
    pm.addPass(createStencilPrepareABIPass());
  if (o.scatter == ScatterLowering::Gather) {
    if (o.cut) {
      StencilCutSharedPassOptions cut;
      cut.minGain = o.cutMinGain;
      pm.addPass(createStencilCutSharedPass(cut));
    }
    StencilScatterToGatherPassOptions toGather;
    toGather.boundary = BoundaryStrategy::Guarded;
    toGather.fuseReset = false;
    toGather.maxGatherOps = o.maxGatherOps;
    pm.addPass(createStencilScatterToGatherPass(toGather));
  }
  if (o.hoistTemporaries)
    pm.addPass(createStencilHoistTemporariesPass());
  ConvertStencilToAffinePassOptions toAffine;
  toAffine.scatter = o.scatter;
  toAffine.allParallel = true;
  pm.addPass(createConvertStencilToAffinePass(toAffine));
  if (o.fpContract)
    pm.addPass(createStencilAllowContractionPass());
  pm.addPass(createCanonicalizerPass());
  pm.addPass(createCSEPass());
  pm.addPass(createLowerAffinePass());
  addGPUCoarsening(pm, o.coarsen);
  StencilMapToGPUPassOptions map;
  map.block.assign(o.block.begin(), o.block.end());
  map.align = o.align;
  map.rowPoints = o.rowPoints;
  pm.addPass(createStencilMapToGPUPass(map));
  pm.addPass(createStencilGPUHostReadsPass());
  if (o.index32) {
    StencilNarrowGPUIndicesPassOptions narrow;
    narrow.loopIndices = o.index32Loops;
    pm.addPass(createStencilNarrowGPUIndicesPass(narrow));
  }
  pm.addPass(createConvertParallelLoopToGpuPass());
  pm.addPass(createGpuKernelOutliningPass());
  if (o.noalias)
    pm.addPass(createStencilMarkGPUKernelArgsPass());
}

void mlir::stencil::buildConvertToGPUPipeline(OpPassManager &pm,
                                              const ConvertToGPUOptions &o) {
  buildKernels(pm, o);
  // Host and kernels to the LLVM dialect.
  pm.addPass(createSCFToControlFlowPass());
  pm.addPass(createConvertFuncToLLVMPass());
  pm.addPass(memref::createExpandStridedMetadataPass());
  GpuNVVMAttachTargetOptions target;
  target.chip = o.chip;
  target.features = o.features;
  target.optLevel = 3;
  pm.addPass(createGpuNVVMAttachTarget(target));
  pm.addPass(createLowerAffinePass());
  pm.addPass(createArithToLLVMConversionPass());
  pm.addPass(createConvertIndexToLLVMPass());
  pm.addPass(createCanonicalizerPass());
  pm.addPass(createCSEPass());
  pm.addNestedPass<gpu::GPUModuleOp>(createConvertGpuOpsToNVVMOps());
  if (o.noalias)
    pm.addNestedPass<gpu::GPUModuleOp>(createStencilGPUKernelNoAliasPass());
  pm.addNestedPass<gpu::GPUModuleOp>(createCanonicalizerPass());
  pm.addNestedPass<gpu::GPUModuleOp>(createCSEPass());
  pm.addNestedPass<gpu::GPUModuleOp>(createReconcileUnrealizedCastsPass());
  // Launches to GPU runtime calls, kernels to the embedded binary.
  pm.addPass(createGpuToLLVMConversionPass());
  GpuModuleToBinaryPassOptions binary;
  binary.compilationTarget = o.format;
  binary.toolkitPath =
      o.toolkit.empty() ? std::string(getBuildCUDAToolkit()) : o.toolkit.getValue();
  pm.addPass(createGpuModuleToBinaryPass(binary));
  pm.addPass(createConvertMathToLLVMPass());
  pm.addPass(createCanonicalizerPass());
  pm.addPass(createCSEPass());
  pm.addPass(createReconcileUnrealizedCastsPass());
  pm.addPass(createStencilVerifyLoweredPass());
}
