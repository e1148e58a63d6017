//===- BlockPlan.cpp - Block shapes of GPU nests ----------------*- C++ -*-===//
//
// This file implements the block plan of --stencil-map-to-gpu
// (Stencil/GPU/BlockPlan.h).
//
//===----------------------------------------------------------------------===//

#include "Stencil/GPU/BlockPlan.h"

#include "llvm/Support/JSON.h"
#include "llvm/Support/MathExtras.h"

using namespace mlir;
using namespace mlir::stencil;

static constexpr int64_t kMaxThreadsPerBlock = 1024;

int64_t BlockPlan::threads() const {
  int64_t n = 1;
  for (int64_t t : tile)
    n *= t;
  return n;
}

void BlockPlan::printJSON(raw_ostream &os) const {
  llvm::json::Array axes;
  for (GPUAxis a : axis)
    axes.push_back(a == GPUAxis::X   ? "x"
                   : a == GPUAxis::Y ? "y"
                   : a == GPUAxis::Z ? "z"
                                     : "sequential");
  llvm::json::Object object{{"tile", llvm::json::Array(tile)},
                            {"axis", std::move(axes)},
                            {"threads", threads()}};
  if (alignedLower)
    object["aligned_lower"] =
        llvm::json::Array{static_cast<int64_t>(*lower), *alignedLower};
  if (rowPoints > 1)
    object["row_points"] = rowPoints;
  os << llvm::json::Value(std::move(object));
}

void mlir::stencil::planInnerAlignment(BlockPlan &plan,
                                       std::optional<int64_t> lower,
                                       std::optional<int64_t> step,
                                       int64_t align) {
  if (align <= 1 || !lower || step != 1)
    return;
  int64_t rounded = llvm::divideFloorSigned(*lower, align) * align;
  if (rounded == *lower)
    return;
  plan.lower = *lower;
  plan.alignedLower = rounded;
}

void mlir::stencil::planRowPoints(BlockPlan &plan, int64_t requested,
                                  bool reads) {
  if (requested > 0)
    plan.rowPoints = requested;
  else
    plan.rowPoints = reads ? 1 : kDefaultStoreOnlyRowPoints;
}

SmallVector<int64_t> mlir::stencil::getDefaultBlock(unsigned numLoops) {
  if (numLoops <= 1)
    return {256};
  if (numLoops == 2)
    return {32, 8};
  return {32, 8, 1};
}

FailureOr<BlockPlan> mlir::stencil::planBlockShape(unsigned numLoops,
                                                   ArrayRef<int64_t> block,
                                                   std::string &error) {
  SmallVector<int64_t> shape =
      block.empty() ? getDefaultBlock(numLoops) : llvm::to_vector(block);
  if (shape.size() > 3) {
    error = "a block has at most three dimensions (x,y,z), got " +
            std::to_string(shape.size());
    return failure();
  }
  int64_t threads = 1;
  for (int64_t t : shape) {
    if (t < 1) {
      error = "threads per block must be at least 1, got " + std::to_string(t);
      return failure();
    }
    threads *= t;
    if (threads > kMaxThreadsPerBlock) {
      error = "a block has at most 1024 threads";
      return failure();
    }
  }
  BlockPlan plan;
  plan.tile.assign(numLoops, 1);
  plan.axis.assign(numLoops, GPUAxis::Sequential);
  const GPUAxis axes[] = {GPUAxis::X, GPUAxis::Y, GPUAxis::Z};
  // Loop numLoops-1-d (d-th from the innermost) takes axis d.
  for (unsigned d = 0; d < 3 && d < numLoops; ++d) {
    unsigned loop = numLoops - 1 - d;
    plan.axis[loop] = axes[d];
    plan.tile[loop] = d < shape.size() ? shape[d] : 1;
  }
  return plan;
}
