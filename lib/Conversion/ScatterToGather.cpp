//===- ScatterToGather.cpp - Scatter domains to gather nests ----*- C++ -*-===//
//
// This file implements --stencil-scatter-to-gather: every domain that
// scatters becomes a core gather nest plus boundary nests (compact peeling
// or PerforAD's exact split), each iteration writing only its own point.
//
//===----------------------------------------------------------------------===//

#include "AffineEmitter.h"
#include "GatherPlan.h"
#include "Stencil/Conversion/Passes.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/IntegerSet.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
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

/// Builds the IR of a GatherPlan for one scatter domain: the nests the plan
/// lists, each evaluating its statements at shifted points.
class GatherEmitter {
public:
  explicit GatherEmitter(DomainOp domain);

  /// The iteration offsets of the writes, in program order: the planner's
  /// input.
  SmallVector<SmallVector<int64_t>> getOffsets() const;
  /// Returns the number of body ops that `nests` nests evaluating every
  /// statement would clone: each statement recomputes its slice of the body.
  uint64_t estimateClonedOps(uint64_t nests) const;

  /// Emits the nests of `plan` at the builder's insertion point. With a
  /// fused reset in the plan, they also store `resetValue` into
  /// `resetArray` over the domain.
  void emit(OpBuilder &builder, const GatherPlan &plan, Value resetArray = {},
            TypedAttr resetValue = {});

private:
  /// The compact nests of a plan, by role.
  struct CompactNests {
    const GatherNest *core = nullptr;
    SmallVector<const GatherNest *> lower, upper;
  };
  CompactNests classify(ArrayRef<GatherNest> nests) const;

  /// Per-dimension lower/upper bound of the statement `s`'s valid output
  /// points: `[lower_k + o_k, upper_k + o_k)`.
  AffineExpr validLower(unsigned s, unsigned k) const {
    return bounds.lowerExpr(k) + stmts[s].offset[k];
  }
  AffineExpr validUpper(unsigned s, unsigned k) const {
    return bounds.upperExpr(k) + stmts[s].offset[k];
  }
  /// The affine bounds of `nest`'s dimensions from `nest.depth` on (all of
  /// them when `onlyDim` is unset; else only that one).
  NestBounds getNestBounds(const GatherNest &nest,
                           std::optional<unsigned> onlyDim = {}) const;

  void emitCompact(OpBuilder &builder, ArrayRef<GatherNest> nests);
  void emitExact(OpBuilder &builder, const GatherPlan &plan);

  /// Emits a nest over `box`, which spans the dimensions after the fixed
  /// coordinates `prefix` (all of them when `prefix` is empty), running
  /// statements `subset`. Statements are guarded by their validity in
  /// dimensions `>= firstGuarded` (none if `firstGuarded == rank`).
  void emitNest(OpBuilder &builder, const NestBounds &box,
                ArrayRef<unsigned> subset, unsigned firstGuarded,
                ValueRange prefix = {}, bool parallel = true);
  /// A guarded nest of two or more dimensions as one loop over its outer
  /// dimension and, inside it, one unguarded nest per statement over the
  /// rest of `box` clipped to where the statement is valid (`split-slabs`).
  void emitSplitNest(OpBuilder &builder, const NestBounds &box,
                     ArrayRef<unsigned> subset, unsigned firstGuarded,
                     ValueRange prefix, bool parallel);
  /// `box` (dimensions firstDim..) intersected in dimensions >= firstGuarded
  /// with statement `s`'s valid output points.
  NestBounds clipToValid(const NestBounds &box, unsigned s, unsigned firstDim,
                         unsigned firstGuarded) const;
  /// Emits dimensions `k..rank-1` of the compact form at fixed coordinates
  /// `prefix` of the dimensions before `k`, which lie in their cores: the
  /// lower slab of dimension `k`, its core (recursing into `k+1`) and the
  /// upper slab. Only the outermost loop may be parallel.
  void emitPeeled(OpBuilder &builder, unsigned k, SmallVector<Value> &prefix,
                  bool parallel, const CompactNests &nests);
  /// The core loop of dimension 0 with the reset fused (GatherPlan.h,
  /// FusedReset): parallel blocks, each running its iterations in order.
  void emitBlockedCore(OpBuilder &builder, SmallVector<Value> &prefix,
                       const CompactNests &nests);
  /// The second sweep of the fused reset: the planes the blocks left.
  void emitResetRemainder(OpBuilder &builder);
  /// Builds a loop over `[max(from), min(to))` of dimension 0 whose bounds
  /// use the block index `block` (dimension d0 of the expressions).
  affine::AffineForOp buildBlockLoop(OpBuilder &builder, Value block,
                                     ArrayRef<AffineExpr> from,
                                     ArrayRef<AffineExpr> to);
  /// The first iteration of block `d0` of the core of dimension 0, and the
  /// core's end.
  AffineExpr blockStart() const;
  AffineExpr coreEnd() const;
  /// The block indices: `[0, ceil(core extent / block))`.
  NestBounds getBlockRange() const;
  /// Stores the reset value into plane `p` of dimension 0 of the reset
  /// array, over the domain in the other dimensions.
  void emitResetPlane(OpBuilder &builder, Value p);
  /// Stores the reset value at the fixed leading coordinates `fixed` of the
  /// reset array, over `rest` in the dimensions after them.
  void emitResetNest(OpBuilder &builder, ValueRange fixed,
                     const NestBounds &rest);
  /// The domain's bounds in dimensions `from` .. rank-1.
  NestBounds getTrailingBounds(unsigned from) const;
  /// With row resets: resets row `j - rowOffset` of plane `rowResetPlane`
  /// after core row `j` of dimension 1.
  void emitResetRowBehind(OpBuilder &builder, Value j);
  /// With row resets: the rows of plane `p` that no core row of dimension 1
  /// reset (below and above the core's rows shifted by -rowOffset).
  void emitResetRowsLeft(OpBuilder &builder, Value p, const GatherNest &core);
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
  std::optional<FusedReset> reset;
  bool splitSlabs = false;
  Value resetArray;
  /// Set while the rows of a blocked plane are emitted with row resets: the
  /// plane behind, whose rows the core rows of dimension 1 reset.
  Value rowResetPlane;
  /// The constant the reset stores, created once before the nests.
  Value resetValue;
  SmallVector<Statement> stmts;
  SmallVector<llvm::DenseSet<Operation *>> slices;
};

} // namespace

GatherEmitter::GatherEmitter(DomainOp domain)
    : domain(domain), rank(domain.getRank()), bounds(getDomainBounds(domain)) {
  for (Operation &op : domain.getBodyBlock()->without_terminator()) {
    auto access = dyn_cast<AccessOpInterface>(op);
    if (!access || !access.isWrite())
      continue;
    // Writes index with a permutation (verifier), so the offset exists.
    SmallVector<int64_t> offset = *getIterationOffset(access, rank);
    Value value = isa<StoreOp>(op) ? cast<StoreOp>(op).getValue()
                                   : cast<AccumulateOp>(op).getValue();
    stmts.push_back(
        {&op, access.getAccessedArray(), value, offset, isa<StoreOp>(op)});
    slices.emplace_back();
    collectBodySlice(domain, value, slices.back());
  }
}

SmallVector<SmallVector<int64_t>> GatherEmitter::getOffsets() const {
  SmallVector<SmallVector<int64_t>> offsets;
  for (const Statement &stmt : stmts)
    offsets.push_back(stmt.offset);
  return offsets;
}

NestBounds GatherEmitter::getNestBounds(const GatherNest &nest,
                                        std::optional<unsigned> onlyDim) const {
  MLIRContext *ctx = bounds.lower.front().getContext();
  unsigned numSymbols = bounds.operands.size();
  auto toMap = [&](ArrayRef<GatherBound> list, unsigned k) {
    SmallVector<AffineExpr> exprs;
    for (const GatherBound &b : list)
      exprs.push_back((b.upper ? bounds.upperExpr(k) : bounds.lowerExpr(k)) +
                      b.offset);
    return AffineMap::get(0, numSymbols, exprs, ctx);
  };
  NestBounds box;
  box.operands = bounds.operands;
  for (auto [i, range] : llvm::enumerate(nest.ranges)) {
    unsigned k = nest.depth + i;
    if (onlyDim && *onlyDim != k)
      continue;
    box.lower.push_back(toMap(range.lower, k));
    box.upper.push_back(toMap(range.upper, k));
  }
  return box;
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
  if (firstGuarded < rank && box.getRank() > 1 && splitSlabs) {
    emitSplitNest(builder, box, subset, firstGuarded, prefix, parallel);
    return;
  }
  Location loc = domain.getLoc();
  unsigned numSymbols = bounds.operands.size();
  MLIRContext *ctx = builder.getContext();
  buildLoopNest(builder, loc, box, parallel,
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
                    // valid_s(q): lower_k + o_k <= q_k < upper_k + o_k, k >=
                    // first.
                    SmallVector<AffineExpr> constraints;
                    for (unsigned k = firstGuarded; k < rank; ++k) {
                      AffineExpr q = getAffineDimExpr(k, ctx);
                      constraints.push_back(q - validLower(s, k));
                      constraints.push_back(validUpper(s, k) - q - 1);
                    }
                    IntegerSet set = IntegerSet::get(
                        rank, numSymbols, constraints,
                        SmallVector<bool>(constraints.size(), false));
                    auto guard =
                        affine::AffineIfOp::create(b, loc, set, operands,
                                                   /*withElseRegion=*/false);
                    OpBuilder::InsertionGuard insertion(b);
                    b.setInsertionPointToStart(guard.getThenBlock());
                    emitFusedBody(b, ivs, {s});
                  }
                });
}

/// `map`'s results (a max for a lower bound, a min for an upper one) with
/// `expr` added; a result that differs from another by a constant is
/// dropped when it can never be the bound.
static AffineMap addBound(AffineMap map, AffineExpr expr, bool lower) {
  SmallVector<AffineExpr> exprs;
  bool keepNew = true;
  for (AffineExpr r : map.getResults()) {
    auto diff = dyn_cast<AffineConstantExpr>(simplifyAffineExpr(
        expr - r, map.getNumDims(), map.getNumSymbols()));
    if (!diff) {
      exprs.push_back(r);
      continue;
    }
    // lower: the larger wins; upper: the smaller.
    bool newWins = lower ? diff.getValue() > 0 : diff.getValue() < 0;
    if (!newWins)
      exprs.push_back(r);
    keepNew &= newWins;
  }
  if (keepNew)
    exprs.push_back(expr);
  return AffineMap::get(map.getNumDims(), map.getNumSymbols(), exprs,
                        map.getContext());
}

NestBounds GatherEmitter::clipToValid(const NestBounds &box, unsigned s,
                                      unsigned firstDim,
                                      unsigned firstGuarded) const {
  NestBounds clipped = box;
  for (unsigned i = 0; i < box.getRank(); ++i) {
    unsigned k = firstDim + i;
    if (k < firstGuarded)
      continue;
    clipped.lower[i] = addBound(box.lower[i], validLower(s, k), true);
    clipped.upper[i] = addBound(box.upper[i], validUpper(s, k), false);
  }
  return clipped;
}

void GatherEmitter::emitSplitNest(OpBuilder &builder, const NestBounds &box,
                                  ArrayRef<unsigned> subset,
                                  unsigned firstGuarded, ValueRange prefix,
                                  bool parallel) {
  // The outer dimension stays one loop (parallel or not); inside it each
  // statement runs over the rest of the box clipped to where it is valid:
  // unguarded loops that vectorize without masks. Each point receives the
  // statements' updates in program order, as under guards.
  Location loc = domain.getLoc();
  MLIRContext *ctx = domain.getContext();
  unsigned outer = prefix.size(), numSymbols = bounds.operands.size();
  NestBounds outerBox, rest;
  outerBox.operands = rest.operands = box.operands;
  outerBox.lower = {box.lower.front()};
  outerBox.upper = {box.upper.front()};
  rest.lower.assign(box.lower.begin() + 1, box.lower.end());
  rest.upper.assign(box.upper.begin() + 1, box.upper.end());
  buildLoopNest(
      builder, loc, outerBox, parallel,
      [&](OpBuilder &b, Location loc, ValueRange q) {
        SmallVector<Value> head(prefix.begin(), prefix.end());
        head.push_back(q.front());
        for (unsigned s : subset) {
          OpBuilder::InsertionGuard insertion(b);
          if (outer >= firstGuarded) {
            AffineExpr d0 = getAffineDimExpr(0, ctx);
            SmallVector<AffineExpr> constraints{d0 - validLower(s, outer),
                                                validUpper(s, outer) - d0 - 1};
            SmallVector<Value> operands{q.front()};
            llvm::append_range(operands, bounds.operands);
            auto guard = affine::AffineIfOp::create(
                b, loc,
                IntegerSet::get(1, numSymbols, constraints, {false, false}),
                operands, /*withElseRegion=*/false);
            b.setInsertionPointToStart(guard.getThenBlock());
          }
          buildLoopNest(b, loc, clipToValid(rest, s, outer + 1, firstGuarded),
                        /*parallel=*/false,
                        [&](OpBuilder &b2, Location, ValueRange inner) {
                          SmallVector<Value> ivs(head);
                          llvm::append_range(ivs, inner);
                          emitFusedBody(b2, ivs, {s});
                        });
        }
      });
}

GatherEmitter::CompactNests
GatherEmitter::classify(ArrayRef<GatherNest> nests) const {
  // In emission order: the lower slabs, the core (ranges over all
  // dimensions, nothing guarded), the upper slabs.
  CompactNests result;
  result.lower.assign(rank, nullptr);
  result.upper.assign(rank, nullptr);
  for (const GatherNest &nest : nests) {
    if (nest.firstGuarded == rank)
      result.core = &nest;
    else
      (result.core ? result.upper : result.lower)[nest.depth] = &nest;
  }
  return result;
}

void GatherEmitter::emitPeeled(OpBuilder &builder, unsigned k,
                               SmallVector<Value> &prefix, bool parallel,
                               const CompactNests &nests) {
  if (k == rank) {
    emitFusedBody(builder, prefix, nests.core->statements);
    return;
  }
  auto slab = [&](const GatherNest *nest) {
    if (nest)
      emitNest(builder, getNestBounds(*nest), nest->statements,
               nest->firstGuarded, prefix, parallel);
  };
  slab(nests.lower[k]);
  // Core of dimension k, recursing into the next dimension.
  if (k == 0 && reset) {
    emitBlockedCore(builder, prefix, nests);
    slab(nests.upper[k]);
    emitResetRemainder(builder);
    return;
  }
  NestBounds core = getNestBounds(*nests.core, k);
  bool stillParallel = parallel && core.getConstantExtent(0) == 1;
  buildLoopNest(builder, domain.getLoc(), core, parallel,
                [&](OpBuilder &b, Location, ValueRange iv) {
                  prefix.push_back(iv.front());
                  emitPeeled(b, k + 1, prefix, stillParallel, nests);
                  prefix.pop_back();
                  if (k == 1 && rowResetPlane)
                    emitResetRowBehind(b, iv.front());
                });
  slab(nests.upper[k]);
}

AffineExpr GatherEmitter::blockStart() const {
  MLIRContext *ctx = bounds.lower.front().getContext();
  return bounds.lowerExpr(0) + reset->maxOffset +
         getAffineDimExpr(0, ctx) * reset->block;
}

AffineExpr GatherEmitter::coreEnd() const {
  return bounds.upperExpr(0) + reset->minOffset;
}

NestBounds GatherEmitter::getBlockRange() const {
  MLIRContext *ctx = bounds.lower.front().getContext();
  unsigned numSymbols = bounds.operands.size();
  AffineExpr coreStart = bounds.lowerExpr(0) + reset->maxOffset;
  NestBounds blocks;
  blocks.operands = bounds.operands;
  blocks.lower.push_back(symbolMap(getAffineConstantExpr(0, ctx), numSymbols));
  blocks.upper.push_back(
      symbolMap((coreEnd() - coreStart).ceilDiv(reset->block), numSymbols));
  return blocks;
}

affine::AffineForOp GatherEmitter::buildBlockLoop(OpBuilder &builder,
                                                  Value block,
                                                  ArrayRef<AffineExpr> from,
                                                  ArrayRef<AffineExpr> to) {
  MLIRContext *ctx = domain.getContext();
  unsigned numSymbols = bounds.operands.size();
  SmallVector<Value> operands{block};
  llvm::append_range(operands, bounds.operands);
  return affine::AffineForOp::create(builder, domain.getLoc(), operands,
                                     AffineMap::get(1, numSymbols, from, ctx),
                                     operands,
                                     AffineMap::get(1, numSymbols, to, ctx));
}

NestBounds GatherEmitter::getTrailingBounds(unsigned from) const {
  NestBounds rest;
  rest.operands = bounds.operands;
  rest.lower.assign(bounds.lower.begin() + from, bounds.lower.end());
  rest.upper.assign(bounds.upper.begin() + from, bounds.upper.end());
  return rest;
}

void GatherEmitter::emitResetNest(OpBuilder &builder, ValueRange fixed,
                                  const NestBounds &rest) {
  MLIRContext *ctx = domain.getContext();
  auto store = [&](OpBuilder &b, Location loc, ValueRange inner) {
    SmallVector<Value> ivs(fixed.begin(), fixed.end());
    llvm::append_range(ivs, inner);
    affine::AffineStoreOp::create(b, loc, resetValue, resetArray,
                                  AffineMap::getMultiDimIdentityMap(rank, ctx),
                                  ivs);
  };
  if (rest.getRank() == 0)
    store(builder, domain.getLoc(), {});
  else
    buildLoopNest(builder, domain.getLoc(), rest, /*parallel=*/false, store);
}

void GatherEmitter::emitResetPlane(OpBuilder &builder, Value p) {
  emitResetNest(builder, p, getTrailingBounds(1));
}

void GatherEmitter::emitResetRowBehind(OpBuilder &builder, Value j) {
  MLIRContext *ctx = domain.getContext();
  AffineMap behind =
      AffineMap::get(1, 0, getAffineDimExpr(0, ctx) - *reset->rowOffset);
  Value r = affine::AffineApplyOp::create(builder, domain.getLoc(), behind, j);
  emitResetNest(builder, {rowResetPlane, r}, getTrailingBounds(2));
}

void GatherEmitter::emitResetRowsLeft(OpBuilder &builder, Value p,
                                      const GatherNest &core) {
  // The core rows [cl, cu) reset rows [cl - m, max(cl, cu) - m), which lie
  // in the domain's [lower, upper) when the core is not empty; the rest are
  // [lower, min(cl - m, upper)) and [max(cl, cu) - m, upper).
  MLIRContext *ctx = domain.getContext();
  unsigned numSymbols = bounds.operands.size();
  NestBounds coreRows = getNestBounds(core, 1);
  AffineExpr cl = coreRows.lowerExpr(0) - *reset->rowOffset;
  AffineExpr cu = coreRows.upperExpr(0) - *reset->rowOffset;
  auto map = [&](ArrayRef<AffineExpr> exprs) {
    return AffineMap::get(0, numSymbols, exprs, ctx);
  };
  NestBounds below = getTrailingBounds(1), above = getTrailingBounds(1);
  below.upper[0] = map({cl, bounds.upperExpr(1)});
  above.lower[0] = map({cl, cu});
  emitResetNest(builder, p, below);
  emitResetNest(builder, p, above);
}

void GatherEmitter::emitBlockedCore(OpBuilder &builder,
                                    SmallVector<Value> &prefix,
                                    const CompactNests &nests) {
  MLIRContext *ctx = domain.getContext();
  AffineExpr start = blockStart(), end = coreEnd();
  int64_t lag = reset->lag(), size = reset->block;
  buildLoopNest(builder, domain.getLoc(), getBlockRange(), /*parallel=*/true,
                [&](OpBuilder &b, Location loc, ValueRange block) {
                  auto run = [&](ArrayRef<AffineExpr> from,
                                 ArrayRef<AffineExpr> to, bool resetBehind) {
                    auto loop = buildBlockLoop(b, block.front(), from, to);
                    OpBuilder::InsertionGuard guard(b);
                    b.setInsertionPoint(loop.getBody()->getTerminator());
                    Value q = loop.getInductionVar();
                    // Every reader of plane q - max o runs in this block, up to
                    // q.
                    Value p;
                    if (resetBehind) {
                      AffineMap behind = AffineMap::get(
                          1, 0, getAffineDimExpr(0, ctx) - reset->maxOffset);
                      p = affine::AffineApplyOp::create(b, loc, behind, q);
                    }
                    bool rows = resetBehind && reset->rowOffset;
                    rowResetPlane = rows ? p : Value();
                    prefix.push_back(q);
                    emitPeeled(b, 1, prefix, /*parallel=*/false, nests);
                    prefix.pop_back();
                    rowResetPlane = Value();
                    if (rows)
                      emitResetRowsLeft(b, p, *nests.core);
                    else if (resetBehind)
                      emitResetPlane(b, p);
                  };
                  // The first `lag` iterations (fewer than `size`): planes read
                  // also by the block before.
                  if (lag > 0)
                    run({start}, {start + lag, end}, false);
                  run({start + lag}, {start + size, end}, true);
                });
}

void GatherEmitter::emitResetRemainder(OpBuilder &builder) {
  MLIRContext *ctx = domain.getContext();
  unsigned numSymbols = bounds.operands.size();
  int64_t lag = reset->lag();
  Location loc = domain.getLoc();
  // The last `lag` planes of the domain (all of it when the core is
  // empty): their gather iterations lie beyond the core.
  NestBounds tail;
  tail.operands = bounds.operands;
  tail.lower.push_back(AffineMap::get(
      0, numSymbols, {bounds.upperExpr(0) - lag, bounds.lowerExpr(0)}, ctx));
  tail.upper.push_back(bounds.upper[0]);
  buildLoopNest(builder, loc, tail, /*parallel=*/true,
                [&](OpBuilder &b, Location, ValueRange p) {
                  emitResetPlane(b, p.front());
                });
  if (lag == 0)
    return;
  // The planes behind each block's first `lag` iterations.
  AffineExpr start = blockStart(), end = coreEnd();
  buildLoopNest(builder, loc, getBlockRange(), /*parallel=*/true,
                [&](OpBuilder &b, Location, ValueRange block) {
                  int64_t back = reset->maxOffset;
                  auto loop = buildBlockLoop(b, block.front(), {start - back},
                                             {start + lag - back, end - back});
                  OpBuilder::InsertionGuard guard(b);
                  b.setInsertionPoint(loop.getBody()->getTerminator());
                  emitResetPlane(b, loop.getInductionVar());
                });
}

void GatherEmitter::emitCompact(OpBuilder &builder,
                                ArrayRef<GatherNest> nests) {
  // The slabs of an inner dimension sit inside the core loops of the outer
  // ones, next to the rows and planes they border, instead of being
  // separate sweeps over the arrays.
  SmallVector<Value> prefix;
  emitPeeled(builder, 0, prefix, /*parallel=*/true, classify(nests));
}

void GatherEmitter::emitExact(OpBuilder &builder, const GatherPlan &plan) {
  // The boxes are ordered only on domains at least as large as the offset
  // span in each split dimension; smaller ones take the compact fallback.
  SmallVector<AffineExpr> conditions;
  for (auto [k, span] : plan.sizeConditions)
    conditions.push_back(bounds.upperExpr(k) - bounds.lowerExpr(k) - span);
  auto check = affine::AffineIfOp::create(
      builder, domain.getLoc(),
      IntegerSet::get(0, bounds.operands.size(), conditions,
                      SmallVector<bool>(conditions.size(), false)),
      bounds.operands, /*withElseRegion=*/true);
  {
    OpBuilder::InsertionGuard guard(builder);
    builder.setInsertionPointToStart(check.getElseBlock());
    emitCompact(builder, plan.fallback);
  }
  OpBuilder::InsertionGuard guard(builder);
  builder.setInsertionPointToStart(check.getThenBlock());
  for (const GatherNest &box : plan.nests)
    emitNest(builder, getNestBounds(box), box.statements, box.firstGuarded);
}

uint64_t GatherEmitter::estimateClonedOps(uint64_t nests) const {
  uint64_t perNest = 0;
  for (const llvm::DenseSet<Operation *> &slice : slices)
    perNest += slice.size() + 1;
  if (nests != 0 && perNest > std::numeric_limits<uint64_t>::max() / nests)
    return std::numeric_limits<uint64_t>::max();
  return perNest * nests;
}

void GatherEmitter::emit(OpBuilder &builder, const GatherPlan &plan,
                         Value resetArray, TypedAttr resetValue) {
  reset = plan.reset;
  splitSlabs = plan.splitSlabs;
  this->resetArray = resetArray;
  if (reset)
    this->resetValue =
        arith::ConstantOp::create(builder, domain.getLoc(), resetValue);
  if (plan.sizeConditions.empty())
    emitCompact(builder, plan.nests);
  else
    emitExact(builder, plan);
}

/// Splits the results off a scatter domain: a copy without writes computes
/// the results, `domain` keeps the writes and loses its results. Returns the
/// domain that remains to convert.
static DomainOp splitResults(RewriterBase &rewriter, DomainOp domain) {
  if (domain.getNumResults() == 0)
    return domain;
  rewriter.setInsertionPoint(domain);
  auto reduction = cast<DomainOp>(rewriter.clone(*domain));
  for (Operation &op : llvm::make_early_inc_range(*reduction.getBodyBlock())) {
    auto access = dyn_cast<AccessOpInterface>(&op);
    if (access && access.isWrite())
      rewriter.eraseOp(&op);
  }
  rewriter.replaceAllUsesWith(domain.getResults(), reduction.getResults());
  auto writes =
      DomainOp::create(rewriter, domain.getLoc(), domain.getLowerBounds(),
                       domain.getUpperBounds(), domain.getBoundOperands());
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
/// A reset domain that can be fused into the gather sweep before it.
struct FusableReset {
  DomainOp domain;
  Value array;
  TypedAttr value;
};
} // namespace

/// The reset domain that follows `scatter` if it can be fused into its
/// gather sweep: the next domain, with the same bounds, that only stores a
/// constant into an array at the centre, which `scatter` reads only at the
/// centre and never writes.
static std::optional<FusableReset> matchFusableReset(DomainOp scatter) {
  // Skip ops without memory effects (the reset value's constant).
  Operation *op = scatter->getNextNode();
  while (op && !isa<DomainOp>(op) && isMemoryEffectFree(op))
    op = op->getNextNode();
  auto next = dyn_cast_or_null<DomainOp>(op);
  if (!next || next.getNumResults() != 0 ||
      next.getLowerBounds() != scatter.getLowerBounds() ||
      next.getUpperBounds() != scatter.getUpperBounds() ||
      next.getBoundOperands() != scatter.getBoundOperands())
    return std::nullopt;
  // One store; anything else is free of effects (the constant).
  StoreOp store;
  for (Operation &bodyOp : next.getBodyBlock()->without_terminator()) {
    if (auto s = dyn_cast<StoreOp>(bodyOp); s && !store)
      store = s;
    else if (!isMemoryEffectFree(&bodyOp))
      return std::nullopt;
  }
  unsigned rank = next.getRank();
  SmallVector<int64_t> centre(rank, 0);
  auto atCentre = [&](Operation *op) {
    auto access = cast<AccessOpInterface>(op);
    return getAccessMap(access, rank, centre).isIdentity();
  };
  TypedAttr value;
  if (!store || !matchPattern(store.getValue(), m_Constant(&value)) ||
      !atCentre(store))
    return std::nullopt;
  Value array = store.getArray();
  WalkResult walk = scatter.getBody().walk([&](Operation *op) {
    auto access = dyn_cast<AccessOpInterface>(op);
    if (access && access.getAccessedArray() == array &&
        (access.isWrite() || !atCentre(op)))
      return WalkResult::interrupt();
    return WalkResult::advance();
  });
  if (walk.wasInterrupted())
    return std::nullopt;
  return FusableReset{next, array, value};
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
    SmallVector<SmallVector<int64_t>> offsets = emitter.getOffsets();
    unsigned rank = domain.getRank();
    uint64_t compactNests = getCompactNestCount(offsets, rank);
    if (boundary == BoundaryStrategy::Exact) {
      // The boxes plus the compact fallback for small domains.
      uint64_t boxes = getExactBoxCount(offsets, rank);
      uint64_t ops = emitter.estimateClonedOps(
          boxes > maxExactNests ? boxes : boxes + compactNests);
      if (boxes <= maxExactNests && ops <= maxGatherOps)
        return BoundaryStrategy::Exact;
      InFlightDiagnostic remark = domain.emitRemark();
      if (boxes > maxExactNests)
        remark << "boundary=exact would split this domain into up to " << boxes
               << " boxes, more than max-exact-nests=" << maxExactNests;
      else
        remark << "boundary=exact would clone about " << ops
               << " body ops, more than max-gather-ops=" << maxGatherOps;
      remark << "; using boundary=compact (" << compactNests << " nests)";
    }
    uint64_t ops = emitter.estimateClonedOps(compactNests);
    if (ops <= maxGatherOps)
      return BoundaryStrategy::Compact;
    domain.emitOpError()
        << "has a gather form that would clone about " << ops << " body ops ("
        << compactNests
        << " nests, each recomputing every shifted statement), more than "
           "max-gather-ops="
        << maxGatherOps
        << "; a nonlinear body grows with the square of the number of taps. "
           "Lower it with scatter=serial or scatter=atomic, or raise "
           "max-gather-ops";
    return failure();
  }

  /// The `report-nests` remarks: the counts in words, and the whole plan as
  /// JSON for tools (bench/run.py).
  static void reportPlan(DomainOp domain, const GatherPlan &plan) {
    domain.emitRemark() << "gather form: " << plan.count(GatherNest::Kind::Core)
                        << " core, " << plan.count(GatherNest::Kind::Boundary)
                        << " boundary and "
                        << plan.count(GatherNest::Kind::Fallback)
                        << " fallback nests";
    std::string json;
    llvm::raw_string_ostream os(json);
    plan.printJSON(os);
    domain.emitRemark() << "gather plan: " << json;
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
      GatherPlan plan =
          planGather(emitter.getOffsets(), writes.getRank(), *strategy);
      plan.splitSlabs = splitSlabs;
      std::optional<FusableReset> reset;
      if (fuseReset)
        reset = matchFusableReset(writes);
      if (reset &&
          !planFusedReset(plan, emitter.getOffsets(), resetBlock, resetRows))
        reset.reset();
      emitNonEmptyGuard(rewriter, writes.getLoc(), getDomainBounds(writes));
      if (reset)
        emitter.emit(rewriter, plan, reset->array, reset->value);
      else
        emitter.emit(rewriter, plan);
      if (reportNests)
        reportPlan(writes, plan);
      if (reset)
        rewriter.eraseOp(reset->domain);
      rewriter.eraseOp(writes);
    }
  }
};
} // namespace
