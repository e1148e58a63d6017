//===- GatherPlan.h - The nests of a domain's gather form ----*- C++ -*-===//
//
// This file declares the plan of --stencil-scatter-to-gather: from the
// iteration offsets of a domain's writes alone, the list of loop nests of
// its gather form (their boxes, the statements each runs and the dimensions
// in which those are guarded). The plan holds no IR; ScatterToGather.cpp
// builds IR from it, and `report-nests` prints it as JSON.
//
//===----------------------------------------------------------------------===//

#ifndef STENCIL_LIB_GATHER_GATHERPLAN_H
#define STENCIL_LIB_GATHER_GATHERPLAN_H

#include "Stencil/Gather/Passes.h"

#include "mlir/Support/LLVM.h"
#include "llvm/ADT/SmallVector.h"

#include <cstdint>
#include <optional>

namespace mlir::stencil {

/// A loop bound of one dimension k: the domain's lower or upper bound in k
/// plus a constant.
struct GatherBound {
  bool upper;
  int64_t offset;
};

/// The range [max(lower...), min(upper...)) of one dimension of a nest.
struct GatherRange {
  SmallVector<GatherBound, 2> lower;
  SmallVector<GatherBound, 2> upper;
};

/// One loop nest of the gather form.
struct GatherNest {
  enum class Kind { Core, Boundary, Fallback };
  Kind kind;
  /// Compact nests of depth d run inside the core loops of dimensions < d
  /// (the core nest's ranges there); the core nest and exact boxes have
  /// depth 0.
  unsigned depth;
  /// The ranges of dimensions depth .. rank-1.
  SmallVector<GatherRange> ranges;
  /// The statements it runs, as indices into the domain's writes in program
  /// order.
  SmallVector<unsigned> statements;
  /// Statements are guarded by their validity in dimensions >= firstGuarded
  /// (none when it equals the rank).
  unsigned firstGuarded;
  /// A guarded nest of two or more dimensions that runs as one loop over
  /// its outer dimension holding one unguarded nest per statement, clipped
  /// to where it is valid (planSplitSlabs).
  bool split = false;
};

/// The reset of an output adjoint (a constant stored over the domain right
/// after it) fused into the compact core sweep of dimension 0. The core runs
/// in parallel blocks of `block` iterations, each in order; after gather
/// iteration q, plane q - maxOffset has been read by every iteration that
/// reads it (q - maxOffset + o for the offsets o of dimension 0) and is
/// reset, unless some of those lie in an earlier block (the first `lag()`
/// iterations of each block). Those planes, and the last `lag()` planes of
/// the domain (read by the upper slab), are reset in a second sweep.
///
/// With `rowOffset` (rank >= 2), plane q - maxOffset is reset row by row
/// while plane q runs: row r of it is last read by iteration
/// (r + maxOffset, r + rowOffset) of dimensions 0 and 1, the latest reader
/// in iteration order, so it is reset right after core row r + rowOffset,
/// while it is still in cache. The rows no core row covers (those of the
/// slabs of dimension 1) are reset after the plane.
struct FusedReset {
  /// Iterations of dimension 0 per block; with `balanced`, the least.
  int64_t block;
  int64_t minOffset, maxOffset;
  /// The largest offset in dimension 1 among the writes at `maxOffset` in
  /// dimension 0; unset: whole planes are reset.
  std::optional<int64_t> rowOffset;
  /// Blocks sized at run time, one per thread: max(block, ceil(core
  /// iterations / omp_get_max_threads())). Otherwise every block has
  /// `block` iterations (the last one fewer), whatever the threads.
  bool balanced = false;
  int64_t lag() const { return maxOffset - minOffset; }
};

/// One point of a dimension's slabs run as straight-line code
/// (planPeeledPoints): the point `bound + offset` of that dimension
/// (`bound` its lower bound or, with `upper`, its upper bound), where
/// `statements` are valid in that dimension.
struct PeeledPoint {
  bool upper;
  int64_t offset;
  SmallVector<unsigned> statements;
};

/// The slabs of one dimension as points: where the dimension's extent is at
/// least `span` (the span of the writes' offsets in it), its lower and upper
/// slab are disjoint, and `points` cover them. Empty `points`: the slabs.
struct PeeledDim {
  int64_t span = 0;
  SmallVector<PeeledPoint> points;
};

/// The gather form of one domain.
struct GatherPlan {
  unsigned rank = 0;
  BoundaryStrategy strategy = BoundaryStrategy::Compact;
  /// Exact only: the split is ordered when upper_k - lower_k >= span for
  /// each (k, span) here; then `nests` run, else `fallback`. Empty for a
  /// compact plan, or an exact one that needs no split.
  SmallVector<std::pair<unsigned, int64_t>> sizeConditions;
  /// Compact nests in emission order (lower slabs outside in, the core,
  /// upper slabs inside out), or the boxes of the exact split.
  SmallVector<GatherNest> nests;
  /// The compact nests of the exact form's small-domain branch.
  SmallVector<GatherNest> fallback;
  /// Set when the reset that follows the domain is fused into its sweep.
  std::optional<FusedReset> reset;
  /// Whether planSplitSlabs split guarded nests (the `split-slabs` option).
  bool splitSlabs = false;
  /// Dimension 0's slabs run in the core's parallel loop, not in loops of
  /// their own (planOuterLoop, `one-outer-loop`). Without a fused reset
  /// (rank >= 2): one loop over the union of the lower slab, core and upper
  /// slab, each iteration taking the part its plane lies in. With a
  /// balanced fused reset (any rank): the first block starts with the lower
  /// slab and the last block ends with the upper one.
  bool outerInOneLoop = false;
  /// Compact, rank >= 2, one entry per dimension (or none): where a
  /// dimension's extent is at least its span, its slabs run as its points,
  /// each point over the statements valid there in that dimension (and, in
  /// the dimensions inside it, peeled or sliced again), with no guard; else
  /// as the slabs (planPeeledPoints: `peel-innermost` for the innermost
  /// dimension, `peel-outer` for the others).
  SmallVector<PeeledDim> peeled;

  /// The points of dimension `k`, or null where its slabs run as nests.
  const PeeledDim *getPeeled(unsigned k) const {
    return k < peeled.size() && !peeled[k].points.empty() ? &peeled[k]
                                                          : nullptr;
  }

  /// Counts the nests of each kind.
  unsigned count(GatherNest::Kind kind) const;
  /// Writes the plan as one line of JSON.
  void printJSON(raw_ostream &os) const;
};

/// Plans the gather form of writes at iteration offsets `offsets` (one
/// vector of `rank` entries per write, in program order).
GatherPlan planGather(ArrayRef<SmallVector<int64_t>> offsets, unsigned rank,
                      BoundaryStrategy strategy);

/// Fuses the reset that follows the domain into `plan`'s core sweep, with
/// blocks of `block` iterations of dimension 0 (0: a default for the rank;
/// at least 4 times the lag), resetting rows instead of planes when `rows`
/// and the rank is at least 2. Only a compact plan can fuse it; returns
/// false for an exact one.
bool planFusedReset(GatherPlan &plan, ArrayRef<SmallVector<int64_t>> offsets,
                    int64_t block, bool rows);

/// Marks as split the guarded nests of two or more dimensions that run at
/// most `maxStatements` statements, when `enabled`: each then runs as one
/// loop over its outer dimension holding one unguarded nest per statement,
/// clipped to where it is valid, instead of guarding each statement at each
/// point (which vectorizes into masked loads and stores). Above
/// `maxStatements` the nests per slab would make the code, and its compile
/// time, grow with the number of taps times the dimensions.
void planSplitSlabs(GatherPlan &plan, bool enabled, unsigned maxStatements);

/// Sets `plan.outerInOneLoop` if `enabled` and the plan has a form it
/// applies to: compact nests (or an exact plan's compact fallback) of rank
/// >= 2 without a fused reset, or with a balanced one (blocks sized at run
/// time, one per thread). Call it after planFusedReset.
void planOuterLoop(GatherPlan &plan, bool enabled);

/// Plans the slabs of a compact plan (rank >= 2) as straight-line points:
/// the innermost dimension's when `innermost`, the others' when `outer`,
/// each where the span of the writes'
/// offsets in the dimension is at most `maxSpan`, with at most
/// `maxStatements` writes. Where the extent is at least the span, the slabs
/// are disjoint and each point's valid statements are known from its
/// offset alone: `lower + c` runs those with offset <= c, `upper + c` those
/// with offset > c. Outer dimensions are peeled from the inside out while
/// the bodies of a plane, the product of (2 span + 1) over the peeled
/// dimensions, stay at most `maxBodies`.
void planPeeledPoints(GatherPlan &plan, ArrayRef<SmallVector<int64_t>> offsets,
                      bool innermost, bool outer, int64_t maxSpan,
                      unsigned maxStatements, int64_t maxBodies);

/// The number of nests of the compact form: a core plus two slabs per
/// dimension whose statements have more than one offset.
unsigned getCompactNestCount(ArrayRef<SmallVector<int64_t>> offsets,
                             unsigned rank);

/// The number of boxes of the exact split before empty ones are dropped:
/// the product of `2 m_k - 1` over dimensions with `m_k` distinct offsets,
/// saturated at UINT64_MAX.
uint64_t getExactBoxCount(ArrayRef<SmallVector<int64_t>> offsets,
                          unsigned rank);

} // namespace mlir::stencil

#endif // STENCIL_LIB_GATHER_GATHERPLAN_H
