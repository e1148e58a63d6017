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

/// The largest number of contexts (choices of the outer coordinates'
/// alternatives) a coordinate's alternatives are computed under.
constexpr size_t kMaxContexts = 16;

namespace {
/// Ranges of the outer coordinates that hold under `conditions`.
struct Context {
  SmallVector<IndexRange> outer;
  SmallVector<std::pair<IndexExpr, IndexExpr>> conditions;
};
} // namespace

/// The candidate ends of a row: each lower expression's smallest value and
/// each upper one's largest (exclusive) value over `outer`, the dominated
/// ones left out; false if an expression is not affine.
bool Planner::rowEnds(DomainOp domain, unsigned d,
                      ArrayRef<IndexRange> symbols, ArrayRef<IndexRange> outer,
                      SmallVectorImpl<IndexExpr> &los,
                      SmallVectorImpl<IndexExpr> &ends) {
  for (AffineExpr expr : domain.getLowerBoundMap(d).getResults()) {
    auto r = evalAffine(expr, symbols, domain, outer);
    if (!r)
      return false;
    los.push_back(r->lo);
  }
  for (AffineExpr expr : domain.getUpperBoundMap(d).getResults()) {
    auto r = evalAffine(expr, symbols, domain, outer);
    if (!r)
      return false;
    ends.push_back(r->hi);
  }
  SmallVector<IndexExpr> l = undominated(los, /*largest=*/true);
  SmallVector<IndexExpr> e = undominated(ends, /*largest=*/false);
  los.assign(l.begin(), l.end());
  ends.assign(e.begin(), e.end());
  return true;
}

/// One alternative per choice of a largest lower end in `los` and a
/// smallest upper end in `ends`, under `base` plus the conditions that
/// make the choice the tightest and the row non-empty; false on overflow.
bool Planner::appendChoices(DomainOp domain, ArrayRef<IndexExpr> los,
                            ArrayRef<IndexExpr> ends, const Conditions &base,
                            std::vector<Alternative> &out) {
  for (size_t i = 0; i < los.size(); ++i)
    for (size_t j = 0; j < ends.size(); ++j) {
      auto last = IndexExpr::combine(ends[j], -1, IndexExpr::ofConstant(1));
      if (!last)
        return fail(domain, "an index range that overflows");
      Alternative alt{IndexRange{los[i], *last}, base};
      auto require = [&](const IndexExpr &a, const IndexExpr &b) {
        auto condition = atMost(a, b);
        if (condition)
          alt.conditions.push_back(*condition);
        return condition.has_value();
      };
      for (size_t k = 0; k < los.size(); ++k)
        if (k != i && !require(los[k], los[i]))
          return fail(domain, "an index range that overflows");
      for (size_t k = 0; k < ends.size(); ++k)
        if (k != j && !require(ends[j], ends[k]))
          return fail(domain, "an index range that overflows");
      for (const IndexExpr &lo : los)
        for (const IndexExpr &end : ends)
          alt.conditions.push_back({lo, end});
      out.push_back(std::move(alt));
    }
  return true;
}

/// Dimension `d` of a nonrectangular domain: a max of lower and a min of
/// upper expressions over the symbols and the outer coordinates. Every
/// expression is evaluated over intervals (the outer coordinates over
/// their ranges), so that each lower expression's smallest value bounds
/// the coordinate from below and each upper one's largest from above. The
/// tightest of those ends depends on the sizes where two of them are not
/// comparable as expressions: the coordinate then gets one alternative
/// range per choice, each under the conditions that make its ends the
/// tightest, and an access through it one record per alternative; where
/// the expressions use outer coordinates that have alternatives, the
/// choices are made under each combination of theirs. The row runs only
/// if every lower end is below every upper end (exact where the bounds use
/// no outer coordinate). The values the lowering computes (each
/// expression, and the row's span, some upper minus some lower one) are
/// checked to fit.
bool Planner::walkGroupBounds(DomainOp domain, unsigned d,
                              ArrayRef<IndexRange> symbols, Conditions &when) {
  SmallVector<IndexRange> outer;
  for (unsigned k = 0; k < d; ++k)
    outer.push_back(ranges[domain.getInductionVars()[k]]);
  Value iv = domain.getInductionVars()[d];
  // The fits, over the outer coordinates' ranges (each sound on its own).
  SmallVector<IndexRange> lowers, uppers;
  for (auto [map, out] : {std::make_pair(domain.getLowerBoundMap(d), &lowers),
                          std::make_pair(domain.getUpperBoundMap(d), &uppers)})
    for (AffineExpr expr : map.getResults()) {
      auto r = evalAffine(expr, symbols, domain, outer);
      if (!r)
        return false;
      recordFit(iv, *r, when);
      out->push_back(*r);
    }
  for (const IndexRange &ub : uppers)
    for (const IndexRange &lb : lowers) {
      auto span = add(ub, -1, lb);
      if (!span)
        return fail(domain, "an index range that overflows");
      recordFit(iv, *span, when);
    }
  SmallVector<IndexExpr> los, ends;
  if (!rowEnds(domain, d, symbols, outer, los, ends))
    return false;
  if (los.size() * ends.size() > kMaxAlternatives)
    return fail(domain, "a nonrectangular bound with too many expressions "
                        "whose order depends on the sizes");
  for (const IndexExpr &lo : los)
    for (const IndexExpr &end : ends)
      when.push_back({lo, end});
  std::vector<Alternative> plain;
  if (!appendChoices(domain, los, ends, {}, plain))
    return false;
  // The range other uses see (arithmetic on the coordinate, the bounds of
  // inner dimensions): any alternative over the plain ranges is sound.
  ranges[iv] = plain.front().range;

  // The contexts: the alternatives of the outer coordinates the bounds use.
  std::vector<Context> contexts{Context{outer, {}}};
  auto uses = [&](unsigned k) {
    auto usesIn = [&](AffineMap map) {
      return llvm::any_of(map.getResults(), [&](AffineExpr e) {
        return e.isFunctionOfDim(k);
      });
    };
    return usesIn(domain.getLowerBoundMap(d)) ||
           usesIn(domain.getUpperBoundMap(d));
  };
  for (unsigned k = 0; k < d; ++k) {
    auto it = alternatives.find(domain.getInductionVars()[k]);
    if (it == alternatives.end() || !uses(k))
      continue;
    if (contexts.size() * it->second.size() > kMaxContexts)
      break; // The plain ranges of the rest: sound, only looser.
    std::vector<Context> next;
    for (const Context &c : contexts)
      for (const Alternative &alt : it->second) {
        Context n = c;
        n.outer[k] = alt.range;
        n.conditions.append(alt.conditions.begin(), alt.conditions.end());
        next.push_back(std::move(n));
      }
    contexts = std::move(next);
  }
  if (contexts.size() == 1) {
    if (plain.size() > 1)
      alternatives[iv] = std::move(plain);
    return true;
  }
  std::vector<Alternative> alts;
  for (const Context &c : contexts) {
    SmallVector<IndexExpr> cLos, cEnds;
    if (!rowEnds(domain, d, symbols, c.outer, cLos, cEnds))
      return false;
    Conditions base(c.conditions.begin(), c.conditions.end());
    if (!appendChoices(domain, cLos, cEnds, base, alts))
      return false;
  }
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

