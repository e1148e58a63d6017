//===- AccessBoundsNonrect.cpp - Ranges of nonrectangular coordinates -*- C++ -*-===//
//
// This file implements the planner's part for nonrectangular domains
// (AccessPlanner.h): the range of a coordinate bounded by a max of lower and
// a min of upper expressions of the sizes and the outer coordinates, with
// one alternative range per choice of its tightest ends where that choice
// depends on the sizes, and the accesses through such coordinates
// (docs/ABI.md, "Bounds").
//
//===----------------------------------------------------------------------===//

#include "AccessPlanner.h"

#include "llvm/ADT/STLExtras.h"

using namespace mlir;
using namespace mlir::stencil;
using namespace mlir::stencil::access_plan;

/// Whether `a` is known to be at most `b`: they differ by a constant.
static bool knownAtMost(const IndexExpr &a, const IndexExpr &b) {
  auto diff = IndexExpr::combine(b, -1, a);
  return diff && diff->terms.empty() && diff->constant >= 0;
}

/// Drops from `ends` those known not to be the tightest (another is known
/// larger with `largest`, else smaller); ties keep the first.
static SmallVector<IndexExpr> undominated(ArrayRef<IndexExpr> ends,
                                          bool largest) {
  SmallVector<IndexExpr> out;
  for (size_t k = 0; k < ends.size(); ++k) {
    const IndexExpr &e = ends[k];
    bool dominated = false;
    for (size_t m = 0; m < ends.size() && !dominated; ++m) {
      const IndexExpr &o = ends[m];
      if (m == k)
        continue;
      bool tighter = largest ? knownAtMost(e, o) : knownAtMost(o, e);
      bool tie = knownAtMost(e, o) && knownAtMost(o, e);
      dominated = tighter && (!tie || m < k);
    }
    if (!dominated)
      out.push_back(e);
  }
  return out;
}

/// `a <= b` as a condition `a < b + 1`; nullopt on overflow.
static std::optional<std::pair<IndexExpr, IndexExpr>>
atMost(const IndexExpr &a, const IndexExpr &b) {
  auto next = IndexExpr::combine(b, 1, IndexExpr::ofConstant(1));
  if (!next)
    return std::nullopt;
  return std::make_pair(a, *next);
}

/// The largest number of alternative ranges of one coordinate.
constexpr size_t kMaxAlternatives = 16;

/// Dimension `d` of a nonrectangular domain: a max of lower and a min of
/// upper expressions over the symbols and the outer coordinates. Every
/// expression is evaluated over intervals (the outer coordinates over
/// their ranges), so that each lower expression's smallest value bounds
/// the coordinate from below and each upper one's largest from above. The
/// tightest of those ends depends on the sizes where two of them are not
/// comparable as expressions: the coordinate then gets one alternative
/// range per choice, each under the conditions that make its ends the
/// tightest, and an access through it one record per alternative. The row
/// runs only if every lower end is below every upper end (exact where the
/// bounds use no outer coordinate). The values the lowering computes (each
/// expression, and the row's span, some upper minus some lower one) are
/// checked to fit.
bool Planner::walkGroupBounds(DomainOp domain, unsigned d,
                              ArrayRef<IndexRange> symbols, Conditions &when) {
  SmallVector<IndexRange> outer;
  for (unsigned k = 0; k < d; ++k)
    outer.push_back(ranges[domain.getInductionVars()[k]]);
  Value iv = domain.getInductionVars()[d];
  auto evalAll = [&](AffineMap map, SmallVectorImpl<IndexRange> &out) {
    for (AffineExpr expr : map.getResults()) {
      auto r = evalAffine(expr, symbols, domain, outer);
      if (!r)
        return false;
      recordFit(iv, *r, when);
      out.push_back(*r);
    }
    return true;
  };
  SmallVector<IndexRange> lowers, uppers;
  if (!evalAll(domain.getLowerBoundMap(d), lowers) ||
      !evalAll(domain.getUpperBoundMap(d), uppers))
    return false;
  SmallVector<IndexExpr> los, ends;
  for (const IndexRange &lb : lowers)
    los.push_back(lb.lo);
  for (const IndexRange &ub : uppers) {
    ends.push_back(ub.hi);
    for (const IndexRange &lb : lowers) {
      auto span = add(ub, -1, lb);
      if (!span)
        return fail(domain, "an index range that overflows");
      recordFit(iv, *span, when);
    }
  }
  los = undominated(los, /*largest=*/true);
  ends = undominated(ends, /*largest=*/false);
  if (los.size() * ends.size() > kMaxAlternatives)
    return fail(domain, "a nonrectangular bound with too many expressions "
                        "whose order depends on the sizes");
  std::vector<Alternative> alts;
  for (auto [i, lo] : llvm::enumerate(los))
    for (auto [j, end] : llvm::enumerate(ends)) {
      auto last = IndexExpr::combine(end, -1, IndexExpr::ofConstant(1));
      if (!last)
        return fail(domain, "an index range that overflows");
      Alternative alt{IndexRange{lo, *last}, {}};
      auto require = [&](const IndexExpr &a, const IndexExpr &b) {
        auto condition = atMost(a, b);
        if (condition)
          alt.conditions.push_back(*condition);
        return condition.has_value();
      };
      for (auto [k, other] : llvm::enumerate(los))
        if (k != i && !require(other, lo))
          return fail(domain, "an index range that overflows");
      for (auto [k, other] : llvm::enumerate(ends))
        if (k != j && !require(end, other))
          return fail(domain, "an index range that overflows");
      alts.push_back(std::move(alt));
    }
  for (const IndexExpr &lo : los)
    for (const IndexExpr &end : ends)
      when.push_back({lo, end});
  // The range other uses see (arithmetic on the coordinate, the bounds of
  // inner dimensions): any alternative is a sound one.
  ranges[iv] = alts.front().range;
  if (alts.size() > 1)
    alternatives[iv] = std::move(alts);
  return true;
}

/// Records an access of a domain's body whose indices are `indices`: once
/// with the coordinates' ranges, and, for each index through a coordinate
/// with alternative ranges, once per alternative under its conditions.
void Planner::recordAccess(DomainOp domain, AccessOpInterface access,
                           const View &view, ArrayRef<IndexRange> indices,
                           const Conditions &when) {
  SmallVector<std::pair<unsigned, Value>> split;
  for (auto [pos, dim] : llvm::enumerate(access.getIterationDims()))
    if (dim != kFixedDim &&
        alternatives.count(domain.getInductionVars()[dim]))
      split.push_back({unsigned(pos), domain.getInductionVars()[dim]});
  SmallVector<unsigned> positions =
      llvm::to_vector(llvm::make_first_range(split));
  record(view, indices, access.isWrite(), when, std::nullopt, positions);
  SmallVector<int64_t> offsets = llvm::to_vector(access.getArrayOffset());
  for (auto [pos, iv] : split)
    for (const Alternative &alt : alternatives[iv]) {
      auto r = add(alt.range, 1, point(offsets[pos]));
      if (!r) {
        fail(access, "an index range that overflows");
        return;
      }
      SmallVector<IndexRange> shifted(indices);
      shifted[pos] = *r;
      Conditions under(when);
      under.append(alt.conditions.begin(), alt.conditions.end());
      record(view, shifted, access.isWrite(), under, pos);
    }
}

