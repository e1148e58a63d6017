//===- Pipelines.h - Stencil to LLVM pipelines --------------------*- C++ -*-===//
//
// This file declares the `convert-to-omp` pipeline, which lowers stencil IR
// through affine, SCF and OpenMP to the LLVM dialect.
//
//===----------------------------------------------------------------------===//

#ifndef STENCIL_CONVERSION_PIPELINES_H
#define STENCIL_CONVERSION_PIPELINES_H

#include "mlir/Pass/PassOptions.h"

namespace mlir {
class OpPassManager;
} // namespace mlir

namespace mlir::stencil {

/// Options of the `convert-to-omp` pipeline.
struct ConvertToOMPOptions : public PassPipelineOptions<ConvertToOMPOptions> {
  PassOptions::Option<std::string> scatter{
      *this, "scatter",
      llvm::cl::desc("How domains that scatter run: serial | atomic"),
      llvm::cl::init("serial")};
  PassOptions::Option<bool> cInterface{
      *this, "c-interface",
      llvm::cl::desc("Emit _mlir_ciface_ wrappers for public functions and "
                     "mark array data pointers noalias"),
      llvm::cl::init(true)};
};

/// Builds the pipeline from stencil IR to the LLVM dialect with OpenMP:
/// stencil -> affine -> scf.parallel -> omp -> llvm.
void buildConvertToOMPPipeline(OpPassManager &pm,
                               const ConvertToOMPOptions &options);

/// Registers `convert-to-omp` as a named pipeline.
void registerStencilPipelines();

} // namespace mlir::stencil

#endif // STENCIL_CONVERSION_PIPELINES_H
