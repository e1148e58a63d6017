//===- DistributeEmitter.h - IR of a distributed function ----*- C++ -*-===//
//
// This file declares what --stencil-distribute builds from a function's
// distribution plan: the block of the rank, views of the arrays in global
// coordinates, the exchanges and the clipped domains.
//
//===----------------------------------------------------------------------===//

#ifndef STENCIL_LIB_DISTRIBUTION_DISTRIBUTEEMITTER_H
#define STENCIL_LIB_DISTRIBUTION_DISTRIBUTEEMITTER_H

#include "Stencil/Dialect/ReservedNames.h"
#include "Stencil/Dialect/StencilOps.h"
#include "Stencil/Distribution/DistributionPlan.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/BuiltinOps.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/SetVector.h"

namespace mlir::stencil {

/// A function to distribute: its time loop (or null), its domains in
/// program order (`head` before the loop, then `body` in it, then the rest
/// after it), their accesses (array numbers index `arrays`: arguments of
/// the function, states of its time loop and the loop's array results) and
/// its plan.
struct DistributedFunction {
  func::FuncOp func;
  scf::ForOp loop;
  SmallVector<DomainOp> domains;
  unsigned head = 0, body = 0;
  SmallVector<SmallVector<DistAccess>> accesses;
  SmallVector<Value> arrays;
  /// Arguments that domains read whole, in global coordinates, on every
  /// rank (through subviews, or of another rank than the grid's).
  llvm::SmallDenseSet<BlockArgument> replicated;
  DistributionPlan plan;
};

/// The arguments of `dist.func` that are the rank's blocks (whose extents
/// it checks): its arrays, and the arguments its time loop's states (and so
/// its results) start from.
SmallVector<BlockArgument> getBlockArguments(DistributedFunction &dist);

/// Per function, the numbers of its arguments that are blocks.
using BlockArgumentSets =
    llvm::DenseMap<Operation *, llvm::SmallSetVector<int64_t, 8>>;

/// Records in each distributed function's `stencil.distribution` which of
/// its arguments are blocks: `blocks` holds those of the functions with
/// domains; adjoints inherit their primal's, and callers (a time loop's
/// adjoint) gain the arguments they pass where a callee takes a block
/// (BlockArguments.cpp).
void recordBlockArguments(ModuleOp module,
                          const DenseSet<Operation *> &distributed,
                          BlockArgumentSets &blocks);

/// Records `blocks`, the numbers of the arguments of `func` (distributed)
/// that are the rank's blocks, in its `stencil.distribution` (`blocks`).
void setBlockArguments(func::FuncOp func, ArrayRef<int64_t> blocks);

/// Adds the private `shard.grid` of shape `grid` and the MPI implementation
/// attribute to `module`.
void emitGrid(ModuleOp module, ArrayRef<int64_t> grid);

/// Rewrites `dist.func` into its distributed form: every array a block
/// with `halo` points on each side, one trailing global extent per
/// dimension.
void emitDistributedFunction(DistributedFunction &dist, ArrayRef<int64_t> grid,
                             int64_t halo);

/// Marks `func` distributed over `grid` with halos of `halo`
/// (`stencil.distribution`), appends one global extent per dimension to its
/// arguments (named and listed in `stencil.extra_args`) and returns them.
SmallVector<Value> markDistributed(func::FuncOp func, ArrayRef<int64_t> grid,
                                   int64_t halo);

/// Makes the ops of `func` (a distributed function: its trailing arguments
/// are the global extents) marked `stencil.global_index` = k the rank's
/// local index in dimension k, clamped to the points the rank owns, and
/// removes the marks. A time loop's driver bounds its border snapshots so
/// (docs/Distributed.md, "Time loops"). Fails, with an error at the op, if
/// k is not a dimension of the grid.
LogicalResult localizeGlobalIndices(func::FuncOp func, ArrayRef<int64_t> grid,
                                    int64_t halo);

} // namespace mlir::stencil

#endif // STENCIL_LIB_DISTRIBUTION_DISTRIBUTEEMITTER_H
