//===- ScatterToGather.cpp - Scatter domains to gather nests ----*- C++ -*-===//
//
// This file implements --stencil-scatter-to-gather: every domain that
// scatters becomes a core gather nest plus boundary nests (compact peeling
// or PerforAD's exact split), each iteration writing only its own point.
//
//===----------------------------------------------------------------------===//

#include "AffineEmitter.h"
#include "Stencil/Conversion/Passes.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/IntegerSet.h"
#include "mlir/IR/PatternMatch.h"
#include "llvm/ADT/MapVector.h"

#include <limits>
#include <map>

namespace mlir::stencil {
#define GEN_PASS_DEF_STENCILSCATTERTOGATHERPASS
#include "Stencil/Conversion/Passes.h.inc"
} // namespace mlir::stencil

using namespace mlir;
using namespace mlir::stencil;

namespace {

/// One write of the domain body, seen as a statement `out[p + o] op= v(p)`
/// with iteration offset `o` (zero for stores and centre accumulates).
struct Statement {
  Operation *op;
  Value array;
  Value value;
  SmallVector<int64_t> offset;
  bool isStore;
};

/// How many nests of each kind one conversion emitted.
struct NestCounts {
  unsigned core = 0;
  unsigned boundary = 0;
  unsigned fallback = 0;
};

/// Emits the gather form of one scatter domain.
class GatherEmitter {
public:
  explicit GatherEmitter(DomainOp domain);

  /// Nests emitted so far.
  NestCounts counts;

  /// Emits the nests at the builder's insertion point.
  void emit(OpBuilder &builder, BoundaryStrategy strategy);

  /// Returns the number of nests of the compact form: a core plus two slabs
  /// per dimension whose statements have more than one offset.
  unsigned getCompactNestCount() const;
  /// Returns the number of boxes of the exact split before empty ones are
  /// dropped, the product of `2 m_k - 1` over dimensions with `m_k`
  /// distinct offsets, saturated at UINT64_MAX.
  uint64_t getExactBoxCount() const;
  /// Returns the number of body ops that `nests` nests evaluating every
  /// statement would clone: each statement recomputes its slice of the body.
  uint64_t estimateClonedOps(uint64_t nests) const;

private:
  /// Per-dimension lower/upper bound of the statement `s`'s valid output
  /// points: `[lower_k + o_k, upper_k + o_k)`.
  AffineExpr validLower(unsigned s, unsigned k) const {
    return bounds.lowerExpr(k) + stmts[s].offset[k];
  }
  AffineExpr validUpper(unsigned s, unsigned k) const {
    return bounds.upperExpr(k) + stmts[s].offset[k];
  }
  /// Smallest and largest offset of any statement in dimension `k`.
  int64_t minOffset(unsigned k) const;
  int64_t maxOffset(unsigned k) const;

  /// Emits the compact nests; `fallback` counts them as the small-domain
  /// fallback of the exact split.
  void emitCompact(OpBuilder &builder, bool fallback = false);
  void emitExact(OpBuilder &builder);

  /// Emits a nest over `box`, which spans the dimensions after the fixed
  /// coordinates `prefix` (all of them when `prefix` is empty), running
  /// statements `subset`. Statements are guarded by their validity in
  /// dimensions `>= firstGuarded` (none if `firstGuarded == rank`).
  void emitNest(OpBuilder &builder, const NestBounds &box,
                ArrayRef<unsigned> subset, unsigned firstGuarded,
                ValueRange prefix = {}, bool parallel = true);
  /// Emits dimensions `k..rank-1` of the compact form at fixed coordinates
  /// `prefix` of the dimensions before `k`, which lie in their cores: a
  /// guarded lower slab of dimension `k`, its core (recursing into `k+1`)
  /// and a guarded upper slab. Only the outermost loop may be parallel.
  void emitPeeled(OpBuilder &builder, unsigned k, SmallVector<Value> &prefix,
                  bool parallel, bool fallback);
  /// The body of an unguarded nest: all statements evaluated first, then one
  /// update per array.
  void emitFusedBody(OpBuilder &builder, ValueRange ivs,
                     ArrayRef<unsigned> subset);
  /// Evaluates statement `s` at output point `ivs` (the body at ivs - o)
  /// with `mapping` caching the values of that shift.
  Value evaluate(OpBuilder &builder, ValueRange ivs, unsigned s,
                 IRMapping &mapping);

  DomainOp domain;
  unsigned rank;
  NestBounds bounds;
  SmallVector<Statement> stmts;
  SmallVector<llvm::DenseSet<Operation *>> slices;
};

} // namespace

GatherEmitter::GatherEmitter(DomainOp domain)
    : domain(domain), rank(domain.getRank()),
      bounds(getDomainBounds(domain)) {
  for (Operation &op : domain.getBodyBlock()->without_terminator()) {
    auto access = dyn_cast<AccessOpInterface>(op);
    if (!access || !access.isWrite())
      continue;
    // Writes index with a permutation (verifier), so the offset exists.
    SmallVector<int64_t> offset = *getIterationOffset(access, rank);
    Value value = isa<StoreOp>(op) ? cast<StoreOp>(op).getValue()
                                   : cast<AccumulateOp>(op).getValue();
    stmts.push_back({&op, access.getAccessedArray(), value, offset,
                     isa<StoreOp>(op)});
    slices.emplace_back();
    collectBodySlice(domain, value, slices.back());
  }
}

int64_t GatherEmitter::minOffset(unsigned k) const {
  int64_t result = stmts.front().offset[k];
  for (const Statement &stmt : stmts)
    result = std::min(result, stmt.offset[k]);
  return result;
}

int64_t GatherEmitter::maxOffset(unsigned k) const {
  int64_t result = stmts.front().offset[k];
  for (const Statement &stmt : stmts)
    result = std::max(result, stmt.offset[k]);
  return result;
}

Value GatherEmitter::evaluate(OpBuilder &builder, ValueRange ivs, unsigned s,
                              IRMapping &mapping) {
  SmallVector<int64_t> shift;
  for (int64_t o : stmts[s].offset)
    shift.push_back(-o);
  emitBodyValues(builder, domain, ivs, shift, mapping, &slices[s]);
  return mapping.lookupOrDefault(stmts[s].value);
}

void GatherEmitter::emitFusedBody(OpBuilder &builder, ValueRange ivs,
                                  ArrayRef<unsigned> subset) {
  Location loc = domain.getLoc();
  // Evaluate every statement before any store, so that loads shared
  // between statements (same array, same absolute point) can be CSE'd.
  std::map<SmallVector<int64_t>, IRMapping> mappings;
  SmallVector<Value> values;
  for (unsigned s : subset)
    values.push_back(evaluate(builder, ivs, s, mappings[stmts[s].offset]));

  // One update per array, contributions summed in program order.
  llvm::MapVector<Value, SmallVector<unsigned>> byArray;
  for (auto [index, s] : llvm::enumerate(subset))
    byArray[stmts[s].array].push_back(index);
  SmallVector<int64_t> centre(rank, 0);
  for (auto &[array, indices] : byArray) {
    const Statement &first = stmts[subset[indices.front()]];
    SmallVector<int64_t> shift;
    for (int64_t o : first.offset)
      shift.push_back(-o);
    auto access = cast<AccessOpInterface>(first.op);
    AffineMap map = getAccessMap(access, rank, shift);
    Value sum = values[indices.front()];
    for (unsigned index : ArrayRef(indices).drop_front())
      sum = arith::AddFOp::create(builder, loc, sum, values[index]);
    if (first.isStore)
      affine::AffineStoreOp::create(builder, loc, sum, array, map, ivs);
    else
      emitAccumulate(builder, loc, sum, array, map, ivs);
  }
}

void GatherEmitter::emitNest(OpBuilder &builder, const NestBounds &box,
                             ArrayRef<unsigned> subset, unsigned firstGuarded,
                             ValueRange prefix, bool parallel) {
  Location loc = domain.getLoc();
  unsigned numSymbols = bounds.operands.size();
  MLIRContext *ctx = builder.getContext();
  buildLoopNest(
      builder, loc, box, parallel,
      [&](OpBuilder &b, Location loc, ValueRange inner) {
        SmallVector<Value> ivs(prefix.begin(), prefix.end());
        llvm::append_range(ivs, inner);
        if (firstGuarded == rank) {
          emitFusedBody(b, ivs, subset);
          return;
        }
        SmallVector<Value> operands(ivs.begin(), ivs.end());
        llvm::append_range(operands, bounds.operands);
        for (unsigned s : subset) {
          // valid_s(q): lower_k + o_k <= q_k < upper_k + o_k, k >= first.
          SmallVector<AffineExpr> constraints;
          for (unsigned k = firstGuarded; k < rank; ++k) {
            AffineExpr q = getAffineDimExpr(k, ctx);
            constraints.push_back(q - validLower(s, k));
            constraints.push_back(validUpper(s, k) - q - 1);
          }
          IntegerSet set = IntegerSet::get(
              rank, numSymbols, constraints,
              SmallVector<bool>(constraints.size(), false));
          auto guard = affine::AffineIfOp::create(b, loc, set, operands,
                                                  /*withElseRegion=*/false);
          OpBuilder::InsertionGuard insertion(b);
          b.setInsertionPointToStart(guard.getThenBlock());
          emitFusedBody(b, ivs, {s});
        }
      });
}

void GatherEmitter::emitPeeled(OpBuilder &builder, unsigned k,
                               SmallVector<Value> &prefix, bool parallel,
                               bool fallback) {
  if (k == rank) {
    emitFusedBody(builder, prefix,
                  llvm::to_vector(llvm::seq<unsigned>(0, stmts.size())));
    return;
  }
  MLIRContext *ctx = builder.getContext();
  unsigned numSymbols = bounds.operands.size();
  auto map = [&](AffineExpr e) { return symbolMap(e, numSymbols); };
  auto map2 = [&](AffineExpr a, AffineExpr b) {
    return AffineMap::get(0, numSymbols, {a, b}, ctx);
  };
  SmallVector<unsigned> all =
      llvm::to_vector(llvm::seq<unsigned>(0, stmts.size()));
  // H: the written points of a dimension; C: its core.
  auto hLo = [&](unsigned j) { return bounds.lowerExpr(j) + minOffset(j); };
  auto hHi = [&](unsigned j) { return bounds.upperExpr(j) + maxOffset(j); };
  auto cLo = [&](unsigned j) { return bounds.lowerExpr(j) + maxOffset(j); };
  auto cHi = [&](unsigned j) { return bounds.upperExpr(j) + minOffset(j); };
  bool peel = minOffset(k) != maxOffset(k);

  // A slab of dimension k: dimension k as given, later dimensions over H,
  // every statement guarded in dimensions >= k.
  auto slab = [&](AffineMap lower, AffineMap upper) {
    NestBounds box;
    box.operands = bounds.operands;
    box.lower.push_back(lower);
    box.upper.push_back(upper);
    for (unsigned j = k + 1; j < rank; ++j) {
      box.lower.push_back(map(hLo(j)));
      box.upper.push_back(map(hHi(j)));
    }
    emitNest(builder, box, all, k, prefix, parallel);
    (fallback ? counts.fallback : counts.boundary) += 1;
  };

  // Lower slab: [H.lo, min(C.lo, H.hi)).
  if (peel)
    slab(map(hLo(k)), map2(cLo(k), hHi(k)));

  // Core of dimension k, recursing into the next dimension.
  NestBounds core;
  core.operands = bounds.operands;
  core.lower.push_back(map(cLo(k)));
  core.upper.push_back(map(cHi(k)));
  bool stillParallel = parallel && core.getConstantExtent(0) == 1;
  buildLoopNest(builder, domain.getLoc(), core, parallel,
                [&](OpBuilder &b, Location, ValueRange iv) {
                  prefix.push_back(iv.front());
                  emitPeeled(b, k + 1, prefix, stillParallel, fallback);
                  prefix.pop_back();
                });
  if (k == 0)
    (fallback ? counts.fallback : counts.core) += 1;

  // Upper slab: [max(C.hi, min(C.lo, H.hi)), H.hi). The min inside a max
  // is not expressible in one bound map; since C.hi <= H.hi, it equals
  // max(C.hi, C.lo) whenever C.lo <= H.hi, and H.hi (an empty slab)
  // otherwise, where the lower slab already covered everything.
  if (peel)
    slab(map2(cHi(k), cLo(k)), map(hHi(k)));
}

void GatherEmitter::emitCompact(OpBuilder &builder, bool fallback) {
  // The slabs of an inner dimension sit inside the core loops of the outer
  // ones, next to the rows and planes they border, instead of being
  // separate sweeps over the arrays.
  SmallVector<Value> prefix;
  emitPeeled(builder, 0, prefix, /*parallel=*/true, fallback);
}

void GatherEmitter::emitExact(OpBuilder &builder) {
  unsigned numSymbols = bounds.operands.size();
  Location loc = domain.getLoc();

  // Distinct sorted offsets per dimension, and the size condition under
  // which the split is ordered: upper_k - lower_k >= max o - min o.
  SmallVector<SmallVector<int64_t>> offsets(rank);
  SmallVector<AffineExpr> conditions;
  for (unsigned k = 0; k < rank; ++k) {
    for (const Statement &stmt : stmts)
      offsets[k].push_back(stmt.offset[k]);
    llvm::sort(offsets[k]);
    offsets[k].erase(llvm::unique(offsets[k]), offsets[k].end());
    if (offsets[k].size() > 1)
      conditions.push_back(bounds.upperExpr(k) - bounds.lowerExpr(k) -
                           (offsets[k].back() - offsets[k].front()));
  }
  if (conditions.empty()) {
    emitCompact(builder);
    return;
  }
  auto check = affine::AffineIfOp::create(
      builder, loc,
      IntegerSet::get(0, numSymbols, conditions,
                      SmallVector<bool>(conditions.size(), false)),
      bounds.operands, /*withElseRegion=*/true);
  {
    OpBuilder::InsertionGuard guard(builder);
    builder.setInsertionPointToStart(check.getElseBlock());
    emitCompact(builder, /*fallback=*/true);
  }
  OpBuilder::InsertionGuard guard(builder);
  builder.setInsertionPointToStart(check.getThenBlock());

  // Interval t of dimension k (0-based, 2m - 1 of them), and which
  // statements are valid on it: statement with offset index s (in the
  // sorted list) is valid on intervals s .. s + m - 1.
  auto interval = [&](unsigned k, unsigned t) {
    ArrayRef<int64_t> o = offsets[k];
    unsigned m = o.size();
    AffineExpr lo = bounds.lowerExpr(k), hi = bounds.upperExpr(k);
    if (t + 1 < m)
      return std::make_pair(lo + o[t], lo + o[t + 1]);
    if (t + 1 == m)
      return std::make_pair(lo + o[m - 1], hi + o[0]);
    unsigned u = t - m;
    return std::make_pair(hi + o[u], hi + o[u + 1]);
  };
  SmallVector<unsigned> numIntervals, index(rank, 0);
  for (unsigned k = 0; k < rank; ++k)
    numIntervals.push_back(2 * offsets[k].size() - 1);
  while (true) {
    SmallVector<unsigned> subset;
    for (auto [s, stmt] : llvm::enumerate(stmts)) {
      bool valid = true;
      for (unsigned k = 0; k < rank && valid; ++k) {
        unsigned pos = llvm::find(offsets[k], stmt.offset[k]) -
                       offsets[k].begin();
        valid = index[k] >= pos && index[k] < pos + offsets[k].size();
      }
      if (valid)
        subset.push_back(s);
    }
    if (!subset.empty()) {
      NestBounds box;
      box.operands = bounds.operands;
      for (unsigned k = 0; k < rank; ++k) {
        auto [lo, hi] = interval(k, index[k]);
        box.lower.push_back(symbolMap(lo, numSymbols));
        box.upper.push_back(symbolMap(hi, numSymbols));
      }
      emitNest(builder, box, subset, rank);
      bool isCore = subset.size() == stmts.size() &&
                    llvm::all_of(llvm::seq<unsigned>(0, rank), [&](unsigned k) {
                      return index[k] + 1 == offsets[k].size();
                    });
      (isCore ? counts.core : counts.boundary) += 1;
    }
    // Next box, last dimension fastest.
    int k = rank - 1;
    while (k >= 0 && ++index[k] == numIntervals[k])
      index[k--] = 0;
    if (k < 0)
      break;
  }
}

unsigned GatherEmitter::getCompactNestCount() const {
  unsigned nests = 1;
  for (unsigned k = 0; k < rank; ++k)
    if (minOffset(k) != maxOffset(k))
      nests += 2;
  return nests;
}

uint64_t GatherEmitter::getExactBoxCount() const {
  uint64_t boxes = 1;
  for (unsigned k = 0; k < rank; ++k) {
    llvm::SmallDenseSet<int64_t> distinct;
    for (const Statement &stmt : stmts)
      distinct.insert(stmt.offset[k]);
    uint64_t pieces = 2 * distinct.size() - 1;
    if (boxes > std::numeric_limits<uint64_t>::max() / pieces)
      return std::numeric_limits<uint64_t>::max();
    boxes *= pieces;
  }
  return boxes;
}

uint64_t GatherEmitter::estimateClonedOps(uint64_t nests) const {
  uint64_t perNest = 0;
  for (const llvm::DenseSet<Operation *> &slice : slices)
    perNest += slice.size() + 1;
  if (nests != 0 && perNest > std::numeric_limits<uint64_t>::max() / nests)
    return std::numeric_limits<uint64_t>::max();
  return perNest * nests;
}

void GatherEmitter::emit(OpBuilder &builder, BoundaryStrategy strategy) {
  if (strategy == BoundaryStrategy::Exact)
    emitExact(builder);
  else
    emitCompact(builder);
}

/// Splits the results off a scatter domain: a copy without writes computes
/// the results, `domain` keeps the writes and loses its results. Returns the
/// domain that remains to convert.
static DomainOp splitResults(RewriterBase &rewriter, DomainOp domain) {
  if (domain.getNumResults() == 0)
    return domain;
  rewriter.setInsertionPoint(domain);
  auto reduction = cast<DomainOp>(rewriter.clone(*domain));
  for (Operation &op :
       llvm::make_early_inc_range(*reduction.getBodyBlock())) {
    auto access = dyn_cast<AccessOpInterface>(&op);
    if (access && access.isWrite())
      rewriter.eraseOp(&op);
  }
  rewriter.replaceAllUsesWith(domain.getResults(), reduction.getResults());
  auto writes = DomainOp::create(rewriter, domain.getLoc(),
                                 domain.getLowerBounds(),
                                 domain.getUpperBounds(),
                                 domain.getBoundOperands());
  rewriter.eraseOp(writes.getYield());
  rewriter.inlineRegionBefore(domain.getBody(), writes.getBody(),
                              writes.getBody().end());
  rewriter.eraseBlock(&writes.getBody().front());
  YieldOp yield = writes.getYield();
  rewriter.setInsertionPoint(yield);
  rewriter.replaceOpWithNewOp<YieldOp>(yield, ValueRange());
  rewriter.eraseOp(domain);
  return writes;
}

namespace {
struct StencilScatterToGatherPass
    : public mlir::stencil::impl::StencilScatterToGatherPassBase<
          StencilScatterToGatherPass> {
  using Base::Base;

  /// Applies the work limits. `exact` falls back to `compact`, with a
  /// remark, above max-exact-nests boxes or when its nests would clone more
  /// than max-gather-ops body ops; a compact form above max-gather-ops is an
  /// error, so that no input makes the conversion run for minutes without
  /// saying why.
  FailureOr<BoundaryStrategy> chooseStrategy(DomainOp domain,
                                             const GatherEmitter &emitter) {
    uint64_t maxExactNests = this->maxExactNests.getValue();
    uint64_t maxGatherOps = this->maxGatherOps.getValue();
    uint64_t compactNests = emitter.getCompactNestCount();
    if (boundary == BoundaryStrategy::Exact) {
      // The boxes plus the compact fallback for small domains.
      uint64_t boxes = emitter.getExactBoxCount();
      uint64_t ops = emitter.estimateClonedOps(
          boxes > maxExactNests ? boxes : boxes + compactNests);
      if (boxes <= maxExactNests && ops <= maxGatherOps)
        return BoundaryStrategy::Exact;
      InFlightDiagnostic remark = domain.emitRemark();
      if (boxes > maxExactNests)
        remark << "boundary=exact would split this domain into up to "
               << boxes << " boxes, more than max-exact-nests="
               << maxExactNests;
      else
        remark << "boundary=exact would clone about " << ops
               << " body ops, more than max-gather-ops=" << maxGatherOps;
      remark << "; using boundary=compact (" << compactNests << " nests)";
    }
    uint64_t ops = emitter.estimateClonedOps(compactNests);
    if (ops <= maxGatherOps)
      return BoundaryStrategy::Compact;
    domain.emitOpError()
        << "has a gather form that would clone about " << ops
        << " body ops (" << compactNests
        << " nests, each recomputing every shifted statement), more than "
           "max-gather-ops="
        << maxGatherOps
        << "; a nonlinear body grows with the square of the number of taps. "
           "Lower it with scatter=serial or scatter=atomic, or raise "
           "max-gather-ops";
    return failure();
  }

  void runOnOperation() override {
    IRRewriter rewriter(&getContext());
    SmallVector<DomainOp> domains;
    getOperation()->walk([&](DomainOp domain) {
      if (domain.hasScatter())
        domains.push_back(domain);
    });
    for (DomainOp domain : domains) {
      if (failed(checkBoundsAreAffineSymbols(domain)))
        return signalPassFailure();
      DomainOp writes = splitResults(rewriter, domain);
      rewriter.setInsertionPoint(writes);
      GatherEmitter emitter(writes);
      FailureOr<BoundaryStrategy> strategy = chooseStrategy(writes, emitter);
      if (failed(strategy))
        return signalPassFailure();
      emitNonEmptyGuard(rewriter, writes.getLoc(), getDomainBounds(writes));
      emitter.emit(rewriter, *strategy);
      if (reportNests)
        writes.emitRemark()
            << "gather form: " << emitter.counts.core << " core, "
            << emitter.counts.boundary << " boundary and "
            << emitter.counts.fallback << " fallback nests";
      rewriter.eraseOp(writes);
    }
  }
};
} // namespace
