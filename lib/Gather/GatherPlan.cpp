//===- GatherPlan.cpp - The nests of a domain's gather form --*- C++ -*-===//
//
// This file implements the plan of the gather form (GatherPlan.h): the
// compact peeling and PerforAD's exact split, as lists of nests computed
// from the statements' iteration offsets.
//
//===----------------------------------------------------------------------===//

#include "GatherPlan.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/Sequence.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <limits>

using namespace mlir;
using namespace mlir::stencil;

namespace {

/// The offsets seen per dimension.
struct OffsetTable {
  OffsetTable(ArrayRef<SmallVector<int64_t>> offsets, unsigned rank)
      : offsets(offsets), distinct(rank) {
    for (unsigned k = 0; k < rank; ++k) {
      for (const SmallVector<int64_t> &o : offsets)
        distinct[k].push_back(o[k]);
      llvm::sort(distinct[k]);
      distinct[k].erase(llvm::unique(distinct[k]), distinct[k].end());
    }
  }
  int64_t min(unsigned k) const { return distinct[k].front(); }
  int64_t max(unsigned k) const { return distinct[k].back(); }
  bool peeled(unsigned k) const { return distinct[k].size() > 1; }

  ArrayRef<SmallVector<int64_t>> offsets;
  /// Sorted distinct offsets of each dimension.
  SmallVector<SmallVector<int64_t>> distinct;
};

GatherBound lowerPlus(int64_t o) { return {/*upper=*/false, o}; }
GatherBound upperPlus(int64_t o) { return {/*upper=*/true, o}; }

/// H, the points written in dimension k: [lower + min o, upper + max o).
GatherRange written(const OffsetTable &t, unsigned k) {
  return {{lowerPlus(t.min(k))}, {upperPlus(t.max(k))}};
}

/// C, the core of dimension k: [lower + max o, upper + min o).
GatherRange core(const OffsetTable &t, unsigned k) {
  return {{lowerPlus(t.max(k))}, {upperPlus(t.min(k))}};
}

/// The guarded form: one nest over every written point, each statement
/// guarded by its validity in the dimensions from the first peeled one on
/// (in an unpeeled dimension every statement is valid over all of H).
void planGuarded(const OffsetTable &t, unsigned rank,
                 SmallVector<GatherNest> &out) {
  GatherNest nest{GatherNest::Kind::Core, 0, {}, {}, rank};
  for (unsigned k = 0; k < rank; ++k) {
    nest.ranges.push_back(written(t, k));
    if (t.peeled(k) && nest.firstGuarded == rank)
      nest.firstGuarded = k;
  }
  nest.statements = llvm::to_vector(llvm::seq<unsigned>(t.offsets.size()));
  out.push_back(std::move(nest));
}

/// The compact form: at each dimension k, a guarded lower slab, the core
/// (holding dimension k+1's slabs and core) and a guarded upper slab.
void planCompact(const OffsetTable &t, unsigned rank, GatherNest::Kind core_,
                 GatherNest::Kind boundary, SmallVector<GatherNest> &out) {
  SmallVector<unsigned> all =
      llvm::to_vector(llvm::seq<unsigned>(0, t.offsets.size()));
  auto slab = [&](unsigned k, GatherRange range) {
    GatherNest nest{boundary, k, {std::move(range)}, all, k};
    for (unsigned j = k + 1; j < rank; ++j)
      nest.ranges.push_back(written(t, j));
    return nest;
  };
  SmallVector<GatherNest> upperSlabs;
  for (unsigned k = 0; k < rank; ++k) {
    if (!t.peeled(k))
      continue;
    // Lower slab: [H.lo, min(C.lo, H.hi)).
    GatherRange lower = written(t, k);
    lower.upper = {lowerPlus(t.max(k)), upperPlus(t.max(k))};
    out.push_back(slab(k, lower));
    // Upper slab: [max(C.hi, C.lo), H.hi). The exact lower bound would be
    // max(C.hi, min(C.lo, H.hi)); since C.hi <= H.hi it equals
    // max(C.hi, C.lo) whenever C.lo <= H.hi, and otherwise the slab is empty
    // and the lower slab covered everything.
    GatherRange upper = written(t, k);
    upper.lower = {upperPlus(t.min(k)), lowerPlus(t.max(k))};
    upperSlabs.push_back(slab(k, upper));
  }
  GatherNest centre{core_, 0, {}, all, rank};
  for (unsigned k = 0; k < rank; ++k)
    centre.ranges.push_back(core(t, k));
  out.push_back(std::move(centre));
  out.append(upperSlabs.rbegin(), upperSlabs.rend());
}

/// Interval i (of 2m - 1) of dimension k in the exact split.
GatherRange interval(const OffsetTable &t, unsigned k, unsigned i) {
  ArrayRef<int64_t> o = t.distinct[k];
  unsigned m = o.size();
  if (i + 1 < m)
    return {{lowerPlus(o[i])}, {lowerPlus(o[i + 1])}};
  if (i + 1 == m)
    return {{lowerPlus(o[m - 1])}, {upperPlus(o[0])}};
  unsigned u = i - m;
  return {{upperPlus(o[u])}, {upperPlus(o[u + 1])}};
}

/// PerforAD's split: every combination of intervals, each box running the
/// statements valid on all of its intervals (statement with the s-th
/// smallest offset of dimension k is valid on intervals s .. s + m - 1).
void planExactBoxes(const OffsetTable &t, unsigned rank,
                    SmallVector<GatherNest> &out) {
  SmallVector<unsigned> count, index(rank, 0);
  for (unsigned k = 0; k < rank; ++k)
    count.push_back(2 * t.distinct[k].size() - 1);
  while (true) {
    GatherNest box{GatherNest::Kind::Boundary, 0, {}, {}, rank};
    for (auto [s, offset] : llvm::enumerate(t.offsets)) {
      bool valid = true;
      for (unsigned k = 0; k < rank && valid; ++k) {
        unsigned pos =
            llvm::find(t.distinct[k], offset[k]) - t.distinct[k].begin();
        valid = index[k] >= pos && index[k] < pos + t.distinct[k].size();
      }
      if (valid)
        box.statements.push_back(s);
    }
    if (!box.statements.empty()) {
      for (unsigned k = 0; k < rank; ++k)
        box.ranges.push_back(interval(t, k, index[k]));
      bool centre = llvm::all_of(llvm::seq<unsigned>(0, rank), [&](unsigned k) {
        return index[k] + 1 == t.distinct[k].size();
      });
      if (centre && box.statements.size() == t.offsets.size())
        box.kind = GatherNest::Kind::Core;
      out.push_back(std::move(box));
    }
    // Next box, last dimension fastest.
    int k = rank - 1;
    while (k >= 0 && ++index[k] == count[k])
      index[k--] = 0;
    if (k < 0)
      break;
  }
}

} // namespace

GatherPlan mlir::stencil::planGather(ArrayRef<SmallVector<int64_t>> offsets,
                                     unsigned rank, BoundaryStrategy strategy) {
  OffsetTable table(offsets, rank);
  GatherPlan plan;
  plan.rank = rank;
  plan.strategy = strategy;
  if (strategy == BoundaryStrategy::Guarded) {
    planGuarded(table, rank, plan.nests);
    return plan;
  }
  if (strategy == BoundaryStrategy::Exact)
    for (unsigned k = 0; k < rank; ++k)
      if (table.peeled(k))
        plan.sizeConditions.push_back({k, table.max(k) - table.min(k)});
  if (plan.sizeConditions.empty()) {
    planCompact(table, rank, GatherNest::Kind::Core, GatherNest::Kind::Boundary,
                plan.nests);
    return plan;
  }
  planExactBoxes(table, rank, plan.nests);
  planCompact(table, rank, GatherNest::Kind::Fallback,
              GatherNest::Kind::Fallback, plan.fallback);
  return plan;
}

bool mlir::stencil::planFusedReset(GatherPlan &plan,
                                   ArrayRef<SmallVector<int64_t>> offsets,
                                   int64_t block, bool rows) {
  if (plan.strategy == BoundaryStrategy::Guarded ||
      !plan.sizeConditions.empty() || plan.rank == 0)
    return false;
  OffsetTable table(offsets, plan.rank);
  FusedReset reset{block, table.min(0), table.max(0), std::nullopt};
  if (rows && plan.rank >= 2)
    for (const SmallVector<int64_t> &o : offsets)
      if (o[0] == reset.maxOffset)
        reset.rowOffset = std::max(reset.rowOffset.value_or(o[1]), o[1]);
  // Unless the caller fixes it, a block is as long as the core's share of
  // one thread (balanced), and at least a run long enough to vectorize and
  // to amortize the block's scheduling (1-D: points), or a few planes.
  reset.balanced = reset.block <= 0;
  if (reset.block <= 0)
    reset.block = plan.rank == 1 ? 8192 : 16;
  reset.block = std::max(reset.block, 4 * reset.lag());
  plan.reset = reset;
  return true;
}

unsigned GatherPlan::count(GatherNest::Kind kind) const {
  unsigned n = 0;
  for (const GatherNest &nest : llvm::concat<const GatherNest>(nests, fallback))
    n += nest.kind == kind;
  return n;
}

static llvm::json::Array toJSON(ArrayRef<GatherBound> bounds) {
  llvm::json::Array out;
  for (const GatherBound &b : bounds)
    out.push_back(llvm::json::Object{{"bound", b.upper ? "upper" : "lower"},
                                     {"offset", b.offset}});
  return out;
}

static llvm::json::Array toJSON(ArrayRef<GatherNest> nests) {
  llvm::json::Array out;
  for (const GatherNest &nest : nests) {
    llvm::json::Array ranges;
    for (const GatherRange &range : nest.ranges)
      ranges.push_back(llvm::json::Object{{"max_of", toJSON(range.lower)},
                                          {"min_of", toJSON(range.upper)}});
    StringRef kind = nest.kind == GatherNest::Kind::Core       ? "core"
                     : nest.kind == GatherNest::Kind::Boundary ? "boundary"
                                                               : "fallback";
    out.push_back(
        llvm::json::Object{{"kind", kind},
                           {"depth", nest.depth},
                           {"ranges", std::move(ranges)},
                           {"statements", llvm::json::Array(nest.statements)},
                           {"first_guarded", nest.firstGuarded},
                           {"split", nest.split}});
  }
  return out;
}

static llvm::json::Array toJSON(ArrayRef<PeeledPoint> points) {
  llvm::json::Array out;
  for (const PeeledPoint &p : points)
    out.push_back(llvm::json::Object{
        {"bound", p.upper ? "upper" : "lower"},
        {"offset", p.offset},
        {"statements", llvm::json::Array(p.statements)}});
  return out;
}

void GatherPlan::printJSON(raw_ostream &os) const {
  const PeeledDim *innermost = rank ? getPeeled(rank - 1) : nullptr;
  llvm::json::Array outerPoints;
  for (unsigned k = 0; k + 1 < rank; ++k)
    if (const PeeledDim *dim = getPeeled(k))
      outerPoints.push_back(llvm::json::Object{
          {"dim", k}, {"span", dim->span}, {"points", toJSON(dim->points)}});
  llvm::json::Array conditions;
  for (auto [k, span] : sizeConditions)
    conditions.push_back(llvm::json::Object{{"dim", k}, {"min_extent", span}});
  llvm::json::Object plan{
      {"rank", rank},
      {"boundary", strategy == BoundaryStrategy::Exact     ? "exact"
                   : strategy == BoundaryStrategy::Guarded ? "guarded"
                                                           : "compact"},
      {"core", count(GatherNest::Kind::Core)},
      {"boundary_nests", count(GatherNest::Kind::Boundary)},
      {"fallback_nests", count(GatherNest::Kind::Fallback)},
      {"size_conditions", std::move(conditions)},
      {"nests", toJSON(nests)},
      {"fallback", toJSON(fallback)},
      {"split_slabs", splitSlabs},
      {"outer_in_one_loop", outerInOneLoop},
      {"innermost_points", toJSON(innermost ? innermost->points
                                            : ArrayRef<PeeledPoint>())},
      {"innermost_span", innermost ? innermost->span : 0},
      {"outer_points", std::move(outerPoints)},
      {"reset",
       reset ? llvm::json::Value(llvm::json::Object{
                   {"block", reset->block},
                   {"balanced", reset->balanced},
                   {"min_offset", reset->minOffset},
                   {"max_offset", reset->maxOffset},
                   {"row_offset", reset->rowOffset
                                      ? llvm::json::Value(*reset->rowOffset)
                                      : llvm::json::Value(nullptr)}})
             : llvm::json::Value(nullptr)}};
  os << llvm::json::Value(std::move(plan));
}

void mlir::stencil::planSplitSlabs(GatherPlan &plan, bool enabled,
                                   unsigned maxStatements) {
  // The guarded form is one nest by design.
  enabled &= plan.strategy != BoundaryStrategy::Guarded;
  plan.splitSlabs = enabled;
  for (SmallVector<GatherNest> *list : {&plan.nests, &plan.fallback})
    for (GatherNest &nest : *list)
      nest.split = enabled && nest.firstGuarded < plan.rank &&
                   nest.ranges.size() > 1 &&
                   nest.statements.size() <= maxStatements;
}

void mlir::stencil::planOuterLoop(GatherPlan &plan, bool enabled) {
  plan.outerInOneLoop =
      enabled && plan.strategy != BoundaryStrategy::Guarded &&
      (plan.reset ? plan.reset->balanced : plan.rank >= 2);
}

unsigned
mlir::stencil::getCompactNestCount(ArrayRef<SmallVector<int64_t>> offsets,
                                   unsigned rank) {
  OffsetTable table(offsets, rank);
  unsigned nests = 1;
  for (unsigned k = 0; k < rank; ++k)
    nests += table.peeled(k) ? 2 : 0;
  return nests;
}

uint64_t mlir::stencil::getExactBoxCount(ArrayRef<SmallVector<int64_t>> offsets,
                                         unsigned rank) {
  OffsetTable table(offsets, rank);
  uint64_t boxes = 1;
  for (unsigned k = 0; k < rank; ++k) {
    uint64_t pieces = 2 * table.distinct[k].size() - 1;
    if (boxes > std::numeric_limits<uint64_t>::max() / pieces)
      return std::numeric_limits<uint64_t>::max();
    boxes *= pieces;
  }
  return boxes;
}

/// The points of dimension `k`'s two slabs (PeeledDim), or none when its
/// offsets span more than `maxSpan`.
static PeeledDim planPeeledDim(ArrayRef<SmallVector<int64_t>> offsets,
                               unsigned k, int64_t maxSpan) {
  int64_t lo = offsets.front()[k], hi = lo;
  for (const SmallVector<int64_t> &o : offsets) {
    lo = std::min(lo, o[k]);
    hi = std::max(hi, o[k]);
  }
  PeeledDim dim;
  if (hi - lo > maxSpan)
    return dim;
  // Output points lower + c and upper + c for c in [lo, hi): the lower and
  // the upper slab of the compact form when they are disjoint.
  for (bool upper : {false, true})
    for (int64_t c = lo; c < hi; ++c) {
      PeeledPoint point{upper, c, {}};
      for (auto [s, o] : llvm::enumerate(offsets))
        if (upper ? c < o[k] : o[k] <= c)
          point.statements.push_back(s);
      dim.points.push_back(std::move(point));
    }
  dim.span = hi - lo;
  return dim;
}

void mlir::stencil::planPeeledPoints(GatherPlan &plan,
                                     ArrayRef<SmallVector<int64_t>> offsets,
                                     bool innermost, bool outer,
                                     int64_t maxSpan, unsigned maxStatements,
                                     int64_t maxBodies) {
  plan.peeled.clear();
  if (plan.strategy != BoundaryStrategy::Compact || plan.rank < 2 ||
      offsets.empty() || offsets.size() > maxStatements)
    return;
  unsigned last = plan.rank - 1;
  PeeledDim inner = planPeeledDim(offsets, last, maxSpan);
  if (!innermost || inner.points.empty())
    return;
  plan.peeled.resize(plan.rank);
  plan.peeled[last] = std::move(inner);
  if (!outer)
    return;
  int64_t bodies = 2 * plan.peeled[last].span + 1;
  for (unsigned k = last; k-- > 0;) {
    PeeledDim dim = planPeeledDim(offsets, k, maxSpan);
    if (dim.points.empty() || bodies * (2 * dim.span + 1) > maxBodies)
      return;
    bodies *= 2 * dim.span + 1;
    plan.peeled[k] = std::move(dim);
  }
}
