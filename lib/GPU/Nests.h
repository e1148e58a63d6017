//===- Nests.h - The parallel nests the GPU passes work on -------*- C++ -*-===//
//
// --stencil-map-to-gpu and --stencil-narrow-gpu-indices both work nest by
// nest: on each scf.parallel that no other scf.parallel contains.
//
//===----------------------------------------------------------------------===//

#ifndef STENCIL_LIB_GPU_NESTS_H
#define STENCIL_LIB_GPU_NESTS_H

#include "mlir/Dialect/SCF/IR/SCF.h"

namespace mlir::stencil {

/// The scf.parallel ops in `op` that no other scf.parallel contains.
inline SmallVector<scf::ParallelOp> getOutermostParallelNests(Operation *op) {
  SmallVector<scf::ParallelOp> nests;
  op->walk([&](scf::ParallelOp loop) {
    if (!loop->getParentOfType<scf::ParallelOp>())
      nests.push_back(loop);
  });
  return nests;
}

} // namespace mlir::stencil

#endif // STENCIL_LIB_GPU_NESTS_H
