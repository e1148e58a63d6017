//===- Passes.h - GPU passes --------------------------------------*- C++ -*-===//
//
// This file declares the passes of the GPU route (--stencil-check-gpu,
// --stencil-map-to-gpu, --stencil-narrow-gpu-indices and the kernel
// argument marks) and the registration hook generated from Passes.td.
//
//===----------------------------------------------------------------------===//

#ifndef STENCIL_GPU_PASSES_H
#define STENCIL_GPU_PASSES_H

#include "mlir/Pass/Pass.h"

namespace mlir {
namespace arith {
class ArithDialect;
} // namespace arith
namespace gpu {
class GPUDialect;
} // namespace gpu
namespace memref {
class MemRefDialect;
} // namespace memref
namespace scf {
class SCFDialect;
} // namespace scf
} // namespace mlir

namespace mlir::stencil {

/// Elements to which --stencil-map-to-gpu aligns the start of innermost
/// loops by default: 1, none. Measured on an H200 (docs/GPU.md), 32 made
/// wave3d's primal 5-6% faster and dense27's 16% slower.
constexpr int64_t kDefaultGPUAlign = 1;

#define GEN_PASS_DECL
#include "Stencil/GPU/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "Stencil/GPU/Passes.h.inc"

} // namespace mlir::stencil

#endif // STENCIL_GPU_PASSES_H
