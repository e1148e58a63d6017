//===- Pipelines.cpp - Stencil to LLVM pipelines ----------------*- C++ -*-===//
//
// This file implements the `convert-to-omp` pipeline. It only strings
// together our passes and upstream ones; the threading comes from upstream
// convert-scf-to-openmp.
//
//===----------------------------------------------------------------------===//

#include "Stencil/Pipelines/Pipelines.h"
#include "Stencil/Conversion/Passes.h"
#include "Stencil/Gather/Passes.h"
#include "Stencil/Distribution/Passes.h"
#include "Stencil/GPU/Passes.h"
#include "Stencil/Target/Passes.h"

// The conversions this pipeline uses, not mlir/Conversion/Passes.h: that
// umbrella header declares every upstream conversion and took most of this
// file's compile time.
#include "mlir/Conversion/AffineToStandard/AffineToStandard.h"
#include "mlir/Conversion/ConvertToLLVM/ToLLVMPass.h"
#include "mlir/Conversion/MathToLLVM/MathToLLVM.h"
#include "mlir/Conversion/MathToLibm/MathToLibm.h"
#include "mlir/Conversion/ReconcileUnrealizedCasts/ReconcileUnrealizedCasts.h"
#include "mlir/Conversion/SCFToControlFlow/SCFToControlFlow.h"
#include "mlir/Conversion/SCFToOpenMP/SCFToOpenMP.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/MemRef/Transforms/Passes.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"
#include "mlir/Transforms/Passes.h"

using namespace mlir;
using namespace mlir::stencil;

void mlir::stencil::addStencilToSCFPasses(OpPassManager &pm,
                                          const ConvertToOMPOptions &options) {
  ConvertStencilToAffinePassOptions toAffine;
  toAffine.scatter = options.scatter;
  // User symbols named like what the lowering calls or defines.
  pm.addPass(createStencilCheckReservedNamesPass());
  // On the input IR, which the bounds plan reads.
  if (options.cInterface && options.checkBounds)
    pm.addPass(createStencilCheckABIBoundsPass());
  // The exchanges of distributed functions first: shard.update_halo is
  // Pure, and nothing may fold it before it is lowered (a no-op elsewhere).
  StencilLowerHaloExchangePassOptions exchange;
  exchange.overlap = options.overlapExchanges;
  pm.addPass(createStencilLowerHaloExchangePass(exchange));
  // Domains whose bounds vary inside a loop, in functions of their own.
  pm.addPass(createStencilOutlineDomainsPass());
  // While the domains, and so their ranks, are still there.
  StencilVectorWidthPassOptions width;
  width.rank1Width = options.vectorWidth1D;
  pm.addPass(createStencilVectorWidthPass(width));
  if (options.cInterface)
    pm.addPass(createStencilPrepareABIPass());
  if (options.scatter == ScatterLowering::Gather) {
    // The gather form shifts writes that each point owns; reductions sum
    // in domains of their own.
    pm.addPass(createStencilSplitReductionsPass());
    if (options.cut) {
      StencilCutSharedPassOptions cut;
      cut.minGain = options.cutMinGain;
      cut.padded = options.cutPadded;
      // Rings need the gather sweep as one parallel loop over dimension 0.
      if (options.ringCut && options.oneOuterLoop &&
          options.boundary == BoundaryStrategy::Compact)
        cut.ringMinGain = options.cutRingMinGain;
      pm.addPass(createStencilCutSharedPass(cut));
    }
    StencilScatterToGatherPassOptions toGather;
    toGather.boundary = options.boundary;
    toGather.maxExactNests = options.maxExactNests;
    toGather.maxGatherOps = options.maxGatherOps;
#define STENCIL_GATHER_SWITCH(TYPE, MEMBER, NAME, DESCRIPTION)                 \
  toGather.MEMBER = options.MEMBER;
#include "Stencil/Pipelines/GatherSwitches.def"
    pm.addPass(createStencilScatterToGatherPass(toGather));
  }
  pm.addPass(createConvertStencilToAffinePass(toAffine));
  if (options.ringCut)
    pm.addPass(createStencilRingCutPass());
  // After the rings: those of a step are allocated per call inside its
  // parallel loop; what remains of its temporaries moves out of loops.
  if (options.hoistTemporaries)
    pm.addPass(createStencilHoistTemporariesPass());
  // On the final loop nests: the interior of the nests after an exchange
  // runs before its wait.
  if (options.overlapExchanges) {
    StencilOverlapExchangesPassOptions overlap;
    overlap.chunks = options.overlapChunks;
    pm.addPass(createStencilOverlapExchangesPass(overlap));
  }
  if (options.fpContract)
    pm.addPass(createStencilAllowContractionPass());
  pm.addPass(createCanonicalizerPass());
  pm.addPass(createCSEPass());
  pm.addPass(createLowerAffinePass());
}

void mlir::stencil::buildConvertToOMPPipeline(
    OpPassManager &pm, const ConvertToOMPOptions &options) {
  addStencilToSCFPasses(pm, options);
  addGPUCoarsening(pm, options.gpuCoarsen);
  if (options.gpuIndex32)
    pm.addPass(createStencilNarrowGPUIndicesPass());
  pm.addPass(createConvertSCFToOpenMPPass());
  pm.addPass(createCanonicalizerPass());
  pm.addPass(createStencilInlineAllocaScopesPass());
  pm.addPass(createStencilMergeOMPParallelPass());
  pm.addPass(memref::createExpandStridedMetadataPass());
  // Views (the snapshot slots of reversed time loops) leave affine.apply.
  pm.addPass(createLowerAffinePass());
  pm.addPass(createSCFToControlFlowPass());
  // Math ops LLVM has intrinsics for first (they vectorize); the rest
  // (cbrt, atan2, tan, ...) become libm calls.
  pm.addPass(createConvertMathToLLVMPass());
  pm.addPass(createStencilCheckLibmNamesPass());
  pm.addPass(createConvertMathToLibmPass());
  pm.addPass(createConvertToLLVMPass());
  pm.addPass(createReconcileUnrealizedCastsPass());
  if (options.cInterface)
    pm.addPass(createStencilAnnotateNoAliasPass());
  pm.addPass(createStencilVerifyLoweredPass());
}

void mlir::stencil::registerStencilPipelines() {
  PassPipelineRegistration<ConvertToOMPOptions>(
      "convert-to-omp",
      "Lower stencil IR through affine, SCF and OpenMP to the LLVM dialect",
      buildConvertToOMPPipeline);
  PassPipelineRegistration<ConvertToGPUOptions>(
      "convert-to-gpu",
      "Lower stencil IR through SCF and upstream's GPU and NVVM passes to "
      "the LLVM dialect with an embedded GPU binary",
      buildConvertToGPUPipeline);
  PassPipelineRegistration<ConvertToCOptions>(
      kConvertToCPipeline,
      "Lower stencil IR through SCF to EmitC, which stencil-compile "
      "--emit=c prints as C99 with OpenMP pragmas (docs/CSource.md)",
      buildConvertToCPipeline);
}
