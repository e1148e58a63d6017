//===- MergeOMPParallel.cpp - One thread team per run of nests --*- C++ -*-===//
//
// This file implements --stencil-merge-omp-parallel: consecutive
// omp.parallel regions, separated at most by side-effect free ops, become
// one region whose worksharing loops run one after the other.
//
//===----------------------------------------------------------------------===//

#include "Stencil/Target/Passes.h"

#include "mlir/Dialect/OpenMP/OpenMPDialect.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

namespace mlir::stencil {
#define GEN_PASS_DEF_STENCILMERGEOMPPARALLELPASS
#include "Stencil/Target/Passes.h.inc"
} // namespace mlir::stencil

using namespace mlir;

/// Returns true if `op` is a parallel region this pass may merge: one block,
/// no clauses (no operands, no reductions or privatisation).
static bool isMergeable(omp::ParallelOp op) {
  return op->getNumOperands() == 0 && op.getRegion().hasOneBlock();
}

/// Moves the body of `from` (except its terminator) to the end of `into`'s
/// body and erases `from`.
static void appendRegion(omp::ParallelOp into, omp::ParallelOp from) {
  Block &dest = into.getRegion().front();
  Block &src = from.getRegion().front();
  dest.getOperations().splice(dest.getTerminator()->getIterator(),
                              src.getOperations(), src.begin(),
                              src.getTerminator()->getIterator());
  from.erase();
}

/// Merges the runs of parallel regions in `block`.
static void mergeInBlock(Block &block) {
  omp::ParallelOp current;
  SmallVector<Operation *> between;
  for (Operation &op : llvm::make_early_inc_range(block)) {
    auto parallel = dyn_cast<omp::ParallelOp>(op);
    if (parallel && isMergeable(parallel)) {
      if (current) {
        // Ops between the two regions depend only on values defined before
        // the first one (regions have no results): hoist them above it.
        for (Operation *pure : between)
          pure->moveBefore(current);
        appendRegion(current, parallel);
      } else {
        current = parallel;
      }
      between.clear();
      continue;
    }
    if (current && op.getNumRegions() == 0 && isMemoryEffectFree(&op) &&
        !op.hasTrait<OpTrait::IsTerminator>()) {
      between.push_back(&op);
      continue;
    }
    current = nullptr;
    between.clear();
  }
}

namespace {
struct StencilMergeOMPParallelPass
    : public mlir::stencil::impl::StencilMergeOMPParallelPassBase<
          StencilMergeOMPParallelPass> {
  using Base::Base;

  void runOnOperation() override {
    SmallVector<Block *> blocks;
    getOperation()->walk([&](Block *block) { blocks.push_back(block); });
    for (Block *block : blocks)
      mergeInBlock(*block);
  }
};
} // namespace
