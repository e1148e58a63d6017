//===- BlockPlan.h - Block shapes of GPU nests --------------------*- C++ -*-===//
//
// This file declares the plan of --stencil-map-to-gpu: from the number of
// loops of a parallel nest and the requested block shape alone, the tile
// size and the processor of each loop. It holds no IR.
//
//===----------------------------------------------------------------------===//

#ifndef STENCIL_GPU_BLOCKPLAN_H
#define STENCIL_GPU_BLOCKPLAN_H

#include "mlir/Support/LLVM.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdint>
#include <optional>
#include <string>

namespace mlir::stencil {

/// The GPU hardware dimension a loop runs on.
enum class GPUAxis { X, Y, Z, Sequential };

/// How one parallel nest runs on the GPU; per loop, outermost first.
struct BlockPlan {
  /// Threads per block along each loop (1 for sequential loops).
  SmallVector<int64_t> tile;
  /// The block and thread dimension of each loop.
  SmallVector<GPUAxis> axis;
  /// Set when the innermost loop starts at a constant that is not a
  /// multiple of the alignment: the loop then starts at `alignedLower`
  /// (that constant rounded down) and the threads below `lower` do
  /// nothing, so that each warp's accesses start on an aligned element.
  std::optional<int64_t> lower, alignedLower;
  /// Points of the innermost loop each thread runs, `tile` of them apart
  /// (a block then covers `tile * rowPoints` of them); 1: one point.
  int64_t rowPoints = 1;
  /// Threads per block in all.
  int64_t threads() const;
  /// Writes the plan as one line of JSON.
  void printJSON(raw_ostream &os) const;
};

/// The default threads per block, innermost first, for `numLoops` loops.
SmallVector<int64_t> getDefaultBlock(unsigned numLoops);

/// Plans the alignment of the innermost loop (`lower`, `alignedLower` of
/// `plan`): for a loop that starts at the constant `lower` with step 1,
/// `lower` rounded down to a multiple of `align` when it is not one
/// already. Nothing for `align` <= 1.
void planInnerAlignment(BlockPlan &plan, std::optional<int64_t> lower,
                        std::optional<int64_t> step, int64_t align);

/// Points per thread along the innermost loop of a nest that stores
/// without loading (the reset of an output adjoint): such blocks end so
/// soon that the rate at which the GPU starts blocks bounds the kernel.
/// Measured on an H200 (docs/GPU.md), 4 made the f32 reset 1.4x faster.
constexpr int64_t kDefaultStoreOnlyRowPoints = 4;
/// The most points per thread `row-points` may ask for: each is a copy of
/// the nest's body.
constexpr int64_t kMaxRowPoints = 64;

/// Plans `plan.rowPoints`: `requested` where it is positive, otherwise
/// kDefaultStoreOnlyRowPoints for a nest that reads no memory (`reads`
/// false) and 1 for the others.
void planRowPoints(BlockPlan &plan, int64_t requested, bool reads);

/// Plans a nest of `numLoops` loops with `block` threads per block,
/// innermost loop first (`x, y, z`; empty: the default). Fails with a
/// message in `error` for more than three entries, entries below 1, or more
/// than 1024 threads. Entries beyond the number of loops are ignored.
FailureOr<BlockPlan> planBlockShape(unsigned numLoops, ArrayRef<int64_t> block,
                                    std::string &error);

} // namespace mlir::stencil

#endif // STENCIL_GPU_BLOCKPLAN_H
