//===- GatherEmitter.cpp - Nests of a gather plan ---------------*- C++ -*-===//
//
// This file implements the nest emission of GatherEmitter (GatherEmitter.h):
// statements evaluated at shifted points, the compact peeling with its
// slabs, and the boxes of the exact split.
//
//===----------------------------------------------------------------------===//

#include "GatherEmitter.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/IntegerSet.h"
#include "llvm/ADT/MapVector.h"
#include "llvm/Support/SaveAndRestore.h"

#include <map>

using namespace mlir;
using namespace mlir::stencil;

GatherEmitter::GatherEmitter(DomainOp domain, DomainOp init)
    : domain(domain), rank(domain.getRank()), bounds(getDomainBounds(domain)),
      rectangular(domain.isRectangular()) {
  for (DomainOp source : {init, domain}) {
    if (!source)
      continue;
    for (Operation &op : source.getBodyBlock()->without_terminator()) {
      auto access = dyn_cast<AccessOpInterface>(op);
      if (!access || !access.isWrite())
        continue;
      // Writes index with a permutation (verifier), so the offset exists.
      SmallVector<int64_t> offset = *getIterationOffset(access, rank);
      Value value = isa<StoreOp>(op) ? cast<StoreOp>(op).getValue()
                                     : cast<AccumulateOp>(op).getValue();
      stmts.push_back({source, &op, access.getAccessedArray(), value, offset,
                       isa<StoreOp>(op)});
      slices.emplace_back();
      collectBodySlice(source, value, slices.back());
    }
  }
}

bool GatherEmitter::appendPointReset(DomainOp reset, Value array) {
  auto readsArray = [&](Operation *op) {
    return op
        ->walk([&](GatherOp read) {
          return read.getArray() == array ? WalkResult::interrupt()
                                          : WalkResult::advance();
        })
        .wasInterrupted();
  };
  for (auto [stmt, slice] : llvm::zip(stmts, slices))
    if (llvm::any_of(stmt.offset, [](int64_t o) { return o != 0; }) &&
        llvm::any_of(slice, readsArray))
      return false;
  auto stores = reset.getBodyBlock()->getOps<StoreOp>();
  if (!llvm::hasSingleElement(stores))
    return false;
  StoreOp store = *stores.begin();
  // A constant defined between the two domains goes before this one.
  Operation *def = store.getValue().getDefiningOp();
  if (def && def->getBlock() == domain->getBlock() &&
      domain->isBeforeInBlock(def))
    def->moveBefore(domain);
  stmts.push_back({reset, store, array, store.getValue(),
                   SmallVector<int64_t>(rank, 0), /*isStore=*/true});
  slices.emplace_back();
  collectBodySlice(reset, store.getValue(), slices.back());
  return true;
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
  emitBodyValues(builder, stmts[s].source, ivs, shift, mapping, &slices[s]);
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
    // The additions summed first, then added to the fused first store's
    // value: the same arithmetic as that store followed by the update.
    ArrayRef<unsigned> adds(indices);
    if (first.isStore)
      adds = adds.drop_front();
    Value sum;
    for (unsigned index : adds)
      sum = sum ? arith::AddFOp::create(builder, loc, sum, values[index])
                : values[index];
    if (!first.isStore) {
      emitAccumulate(builder, loc, sum, array, map, ivs);
      continue;
    }
    Value total = values[indices.front()];
    if (sum)
      total = arith::AddFOp::create(builder, loc, total, sum);
    affine::AffineStoreOp::create(builder, loc, total, array, map, ivs);
  }
}

IntegerSet GatherEmitter::getValidSet(unsigned s, unsigned firstGuarded) const {
  if (!rectangular)
    return getShiftedDomainSet(s);
  // valid_s(q): lower_k + o_k <= q_k < upper_k + o_k, k >= firstGuarded.
  MLIRContext *ctx = bounds.lower.front().getContext();
  SmallVector<AffineExpr> constraints;
  for (unsigned k = firstGuarded; k < rank; ++k) {
    AffineExpr q = getAffineDimExpr(k, ctx);
    constraints.push_back(q - validLower(s, k));
    constraints.push_back(validUpper(s, k) - q - 1);
  }
  return IntegerSet::get(rank, bounds.operands.size(), constraints,
                         SmallVector<bool>(constraints.size(), false));
}

IntegerSet GatherEmitter::getCoreSet(ArrayRef<unsigned> subset,
                                     unsigned firstGuarded) const {
  // Every s in subset valid: lower_k + max o_k <= q_k < upper_k + min o_k.
  MLIRContext *ctx = bounds.lower.front().getContext();
  SmallVector<AffineExpr> constraints;
  for (unsigned k = firstGuarded; k < rank; ++k) {
    int64_t maxOffset = stmts[subset.front()].offset[k];
    int64_t minOffset = maxOffset;
    for (unsigned s : subset) {
      maxOffset = std::max(maxOffset, stmts[s].offset[k]);
      minOffset = std::min(minOffset, stmts[s].offset[k]);
    }
    AffineExpr q = getAffineDimExpr(k, ctx);
    constraints.push_back(q - (bounds.lowerExpr(k) + maxOffset));
    constraints.push_back(bounds.upperExpr(k) + minOffset - q - 1);
  }
  return IntegerSet::get(rank, bounds.operands.size(), constraints,
                         SmallVector<bool>(constraints.size(), false));
}

SmallVector<Value> GatherEmitter::getGuardOperands(ValueRange ivs) const {
  SmallVector<Value> operands(ivs.begin(), ivs.end());
  llvm::append_range(operands, bounds.operands);
  return operands;
}

std::pair<Value, Value> GatherEmitter::emitGuardedTerm(OpBuilder &builder,
                                                       ValueRange ivs,
                                                       unsigned s,
                                                       unsigned firstGuarded,
                                                       Value sum, Value has) {
  Location loc = domain.getLoc();
  Type i1 = builder.getI1Type();
  if (alwaysValid.contains(s)) {
    IRMapping mapping;
    Value value = evaluate(builder, ivs, s, mapping);
    Value added = arith::AddFOp::create(builder, loc, sum, value);
    return {arith::SelectOp::create(builder, loc, has, added, value),
            arith::ConstantIntOp::create(builder, loc, i1, 1)};
  }
  auto guard = affine::AffineIfOp::create(
      builder, loc, TypeRange{sum.getType(), i1}, getValidSet(s, firstGuarded),
      getGuardOperands(ivs), /*withElseRegion=*/true);
  OpBuilder::InsertionGuard insertion(builder);
  builder.setInsertionPointToStart(guard.getThenBlock());
  IRMapping mapping;
  Value value = evaluate(builder, ivs, s, mapping);
  Value added = arith::AddFOp::create(builder, loc, sum, value);
  Value next = arith::SelectOp::create(builder, loc, has, added, value);
  Value yes = arith::ConstantIntOp::create(builder, loc, i1, 1);
  affine::AffineYieldOp::create(builder, loc, ValueRange{next, yes});
  builder.setInsertionPointToStart(guard.getElseBlock());
  affine::AffineYieldOp::create(builder, loc, ValueRange{sum, has});
  return {guard.getResult(0), guard.getResult(1)};
}

void GatherEmitter::emitGuardedSums(OpBuilder &builder, ValueRange ivs,
                                    ArrayRef<unsigned> subset,
                                    unsigned firstGuarded) {
  Location loc = domain.getLoc();
  Type i1 = builder.getI1Type();
  llvm::MapVector<Value, SmallVector<unsigned>> byArray;
  for (unsigned s : subset)
    byArray[stmts[s].array].push_back(s);
  for (auto &[array, list] : byArray) {
    // The valid contributions summed in program order, starting from the
    // first one (not from zero), then one update: at a point where every
    // statement is valid, the arithmetic of the unguarded core nest. A
    // fused first store (the first statement) is stored, plus that sum,
    // where it is valid; elsewhere the sum is added to the array.
    const Statement &first = stmts[list.front()];
    Type type = first.value.getType();
    Value zero = arith::ConstantOp::create(builder, loc, type,
                                           builder.getFloatAttr(type, 0.0));
    Value no = arith::ConstantIntOp::create(builder, loc, i1, 0);
    ArrayRef<unsigned> adds = list;
    Value stored, storeValid;
    if (first.isStore) {
      std::tie(stored, storeValid) =
          emitGuardedTerm(builder, ivs, list.front(), firstGuarded, zero, no);
      adds = adds.drop_front();
    }
    Value sum = zero, has = no;
    for (unsigned s : adds)
      std::tie(sum, has) =
          emitGuardedTerm(builder, ivs, s, firstGuarded, sum, has);
    SmallVector<int64_t> shift;
    for (int64_t o : first.offset)
      shift.push_back(-o);
    AffineMap map =
        getAccessMap(cast<AccessOpInterface>(first.op), rank, shift);
    OpBuilder::InsertionGuard insertion(builder);
    if (storeValid) {
      auto ifStore = scf::IfOp::create(builder, loc, storeValid,
                                       /*withElseRegion=*/true);
      builder.setInsertionPointToStart(ifStore.thenBlock());
      Value total = arith::AddFOp::create(builder, loc, stored, sum);
      total = arith::SelectOp::create(builder, loc, has, total, stored);
      affine::AffineStoreOp::create(builder, loc, total, array, map, ivs);
      builder.setInsertionPointToStart(ifStore.elseBlock());
    }
    if (adds.empty())
      continue;
    auto write = scf::IfOp::create(builder, loc, has, /*withElse=*/false);
    builder.setInsertionPointToStart(write.thenBlock());
    emitAccumulate(builder, loc, sum, array, map, ivs);
  }
}

void GatherEmitter::emitNest(OpBuilder &builder, const NestBounds &box,
                             ArrayRef<unsigned> subset, unsigned firstGuarded,
                             bool split, ValueRange prefix, bool parallel) {
  if (split) {
    emitSplitNest(builder, box, subset, firstGuarded, prefix, parallel);
    return;
  }
  Location loc = domain.getLoc();
  auto body = [&](OpBuilder &b, Location loc, ValueRange inner) {
    SmallVector<Value> ivs(prefix.begin(), prefix.end());
    llvm::append_range(ivs, inner);
    if (firstGuarded == rank) {
      emitFusedBody(b, ivs, subset);
      return;
    }
    if (guardedSums) {
      emitGuardedSums(b, ivs, subset, firstGuarded);
      return;
    }
    if (allParallel && !subset.empty()) {
      // Points where every statement is valid (all but the boundary
      // layers) take the unguarded core body: whole GPU warps branch the
      // same way, and the core's loads are issued without guards between
      // them. Same sums either way (the guarded ones start from the first
      // valid value).
      auto core = affine::AffineIfOp::create(
          b, loc, getCoreSet(subset, firstGuarded), getGuardOperands(ivs),
          /*withElseRegion=*/true);
      OpBuilder::InsertionGuard insertion(b);
      b.setInsertionPointToStart(core.getThenBlock());
      emitFusedBody(b, ivs, subset);
      b.setInsertionPointToStart(core.getElseBlock());
      emitGuardedSums(b, ivs, subset, firstGuarded);
      return;
    }
    for (unsigned s : subset) {
      auto guard = affine::AffineIfOp::create(
          b, loc, getValidSet(s, firstGuarded), getGuardOperands(ivs),
          /*withElseRegion=*/false);
      OpBuilder::InsertionGuard insertion(b);
      b.setInsertionPointToStart(guard.getThenBlock());
      emitFusedBody(b, ivs, {s});
    }
  };
  if (allParallel)
    buildParallelNest(builder, loc, box, body);
  else
    buildLoopNest(builder, loc, box, parallel, body);
}

/// `map`'s results (a max for a lower bound, a min for an upper one) with
/// `expr` added; a result that differs from another by a constant is
/// dropped when it can never be the bound.
static AffineMap addBound(AffineMap map, AffineExpr expr, bool lower) {
  SmallVector<AffineExpr> exprs;
  bool keepNew = true;
  for (AffineExpr r : map.getResults()) {
    auto diff = dyn_cast<AffineConstantExpr>(
        simplifyAffineExpr(expr - r, map.getNumDims(), map.getNumSymbols()));
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
  // statement runs over the rest of the box clipped to where it is valid.
  NestBounds outerBox, rest;
  outerBox.operands = rest.operands = box.operands;
  outerBox.lower = {box.lower.front()};
  outerBox.upper = {box.upper.front()};
  rest.lower.assign(box.lower.begin() + 1, box.lower.end());
  rest.upper.assign(box.upper.begin() + 1, box.upper.end());
  buildLoopNest(builder, domain.getLoc(), outerBox, parallel,
                [&](OpBuilder &b, Location, ValueRange q) {
                  SmallVector<Value> head(prefix.begin(), prefix.end());
                  head.push_back(q.front());
                  emitSplitSlice(b, head, subset, firstGuarded, rest);
                });
}

void GatherEmitter::emitSplitSlice(OpBuilder &builder, ValueRange head,
                                   ArrayRef<unsigned> subset,
                                   unsigned firstGuarded,
                                   const NestBounds &rest) {
  // Unguarded loops that vectorize without masks. Each point receives the
  // statements' updates in program order, as under guards.
  Location loc = domain.getLoc();
  unsigned outer = head.size() - 1;
  for (unsigned s : subset) {
    OpBuilder::InsertionGuard insertion(builder);
    if (outer >= firstGuarded)
      builder.setInsertionPointToStart(
          buildRangeIf(builder, head.back(), validLower(s, outer),
                       validUpper(s, outer))
              .getThenBlock());
    buildLoopNest(builder, loc, clipToValid(rest, s, outer + 1, firstGuarded),
                  /*parallel=*/false,
                  [&](OpBuilder &b, Location, ValueRange inner) {
                    SmallVector<Value> ivs(head.begin(), head.end());
                    llvm::append_range(ivs, inner);
                    emitFusedBody(b, ivs, {s});
                  });
  }
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

/// The statements of `list` that are also in `subset` (both in program
/// order).
static SmallVector<unsigned> restrictTo(ArrayRef<unsigned> list,
                                        ArrayRef<unsigned> subset) {
  SmallVector<unsigned> result;
  for (unsigned s : list)
    if (llvm::is_contained(subset, s))
      result.push_back(s);
  return result;
}

void GatherEmitter::emitSlab(OpBuilder &builder, const GatherNest *nest,
                             ValueRange prefix, bool parallel,
                             ArrayRef<unsigned> subset) {
  if (!nest)
    return;
  SmallVector<unsigned> statements = restrictTo(nest->statements, subset);
  if (statements.empty())
    return;
  bool sums = sumsLikePoints(*nest);
  llvm::SaveAndRestore<bool> restore(guardedSums, sums);
  emitNest(builder, getNestBounds(*nest), statements, nest->firstGuarded,
           nest->split && !sums, prefix, parallel);
}

bool GatherEmitter::sumsLikePoints(const GatherNest &nest) const {
  // A slab of a dimension that runs as points where the extents allow sums
  // its statements as the points do where they do not (the guarded sums,
  // one update per array), not one update per statement: the results then
  // do not depend on which branch ran (a rank's block against the whole
  // domain, bitwise).
  return plan && plan->getPeeled(nest.depth);
}

void GatherEmitter::emitPeeled(OpBuilder &builder, unsigned k,
                               SmallVector<Value> &prefix, bool parallel,
                               const CompactNests &nests,
                               ArrayRef<unsigned> subset) {
  if (subset.empty())
    return;
  if (k == rank) {
    emitFusedBody(builder, prefix, subset);
    return;
  }
  if (k == 0 && outerInOneLoop && !reset) {
    emitOuterInOneLoop(builder, nests);
    return;
  }
  if (k == 0 && reset) {
    // The slabs join the first and the last block where the block count is
    // known at run time (one block per thread); else they are loops apart.
    emitBalancedBlocks(builder);
    bool slabsInBlocks = outerInOneLoop && blockCount;
    if (!slabsInBlocks)
      emitDim0Slab(builder, nests, /*upper=*/false, parallel);
    emitBlockedCore(builder, prefix, nests, slabsInBlocks);
    if (!slabsInBlocks)
      emitDim0Slab(builder, nests, /*upper=*/true, parallel);
    emitResetRemainder(builder, slabsInBlocks);
    return;
  }
  if (k == 1 && !pointsActive && plan && !plan->peeled.empty()) {
    emitIfWide(builder, [&](OpBuilder &b) {
      emitPeeled(b, k, prefix, parallel, nests, subset);
    });
    return;
  }
  if (k >= 1 && plan && plan->getPeeled(k) &&
      pointsActive.value_or(false)) {
    emitPeeledPoints(builder, k, prefix, parallel, nests, subset);
    return;
  }
  if (k == 0) {
    emitDim0Slab(builder, nests, /*upper=*/false, parallel);
    emitCoreLoop(builder, k, prefix, parallel, nests, subset);
    emitDim0Slab(builder, nests, /*upper=*/true, parallel);
    return;
  }
  emitSlab(builder, nests.lower[k], prefix, parallel, subset);
  emitCoreLoop(builder, k, prefix, parallel, nests, subset);
  emitSlab(builder, nests.upper[k], prefix, parallel, subset);
}

void GatherEmitter::emitCoreLoop(OpBuilder &builder, unsigned k,
                                 SmallVector<Value> &prefix, bool parallel,
                                 const CompactNests &nests,
                                 ArrayRef<unsigned> subset) {
  // Core of dimension k, recursing into the next dimension.
  NestBounds core = getNestBounds(*nests.core, k);
  bool stillParallel = parallel && core.getConstantExtent(0) == 1;
  buildLoopNest(builder, domain.getLoc(), core, parallel,
                [&](OpBuilder &b, Location, ValueRange iv) {
                  prefix.push_back(iv.front());
                  emitPeeled(b, k + 1, prefix, stillParallel, nests, subset);
                  prefix.pop_back();
                  if (k == 1 && rowResetPlane)
                    emitResetRowBehind(b, iv.front());
                });
}

affine::AffineIfOp GatherEmitter::buildExtentIf(
    OpBuilder &builder, ArrayRef<std::pair<unsigned, int64_t>> spans) {
  SmallVector<AffineExpr> conditions;
  for (auto [k, span] : spans)
    conditions.push_back(bounds.upperExpr(k) - bounds.lowerExpr(k) - span);
  return affine::AffineIfOp::create(
      builder, domain.getLoc(),
      IntegerSet::get(0, bounds.operands.size(), conditions,
                      SmallVector<bool>(conditions.size(), false)),
      bounds.operands, /*withElseRegion=*/true);
}

void GatherEmitter::emitIfWide(OpBuilder &builder,
                               function_ref<void(OpBuilder &)> emitPart) {
  // One test on symbols: every peeled dimension's extent is at least its
  // span. The points where it holds, the slabs as nests where it does not.
  SmallVector<std::pair<unsigned, int64_t>> spans;
  for (unsigned k = 0; k < rank; ++k)
    if (const PeeledDim *dim = plan->getPeeled(k))
      spans.emplace_back(k, dim->span);
  auto wide = buildExtentIf(builder, spans);
  OpBuilder::InsertionGuard guard(builder);
  for (bool points : {true, false}) {
    builder.setInsertionPointToStart(points ? wide.getThenBlock()
                                            : wide.getElseBlock());
    pointsActive = points;
    emitPart(builder);
  }
  pointsActive.reset();
}

void GatherEmitter::emitPoint(OpBuilder &builder, unsigned k,
                              const PeeledPoint &point, Value at,
                              SmallVector<Value> &prefix, bool parallel,
                              const CompactNests &nests,
                              ArrayRef<unsigned> subset) {
  SmallVector<unsigned> statements = restrictTo(point.statements, subset);
  if (statements.empty())
    return;
  prefix.push_back(at);
  emitPeeled(builder, k + 1, prefix, parallel, nests, statements);
  prefix.pop_back();
}

void GatherEmitter::emitPeeledPoints(OpBuilder &builder, unsigned k,
                                     SmallVector<Value> &prefix, bool parallel,
                                     const CompactNests &nests,
                                     ArrayRef<unsigned> subset) {
  // The extent is at least the span of the offsets (emitIfWide checked),
  // so the slabs are disjoint and which statements hold at each of their
  // points is known from the point's offset to the bound: straight-line
  // code, each point running the dimensions inside over those statements,
  // fused like the core (one update per array), no guards.
  Location loc = domain.getLoc();
  MLIRContext *ctx = domain.getContext();
  unsigned numSymbols = bounds.operands.size();
  auto points = [&](bool upper) {
    for (const PeeledPoint &point : plan->getPeeled(k)->points) {
      if (point.upper != upper)
        continue;
      AffineExpr at =
          (upper ? bounds.upperExpr(k) : bounds.lowerExpr(k)) + point.offset;
      Value q = affine::AffineApplyOp::create(
          builder, loc, AffineMap::get(0, numSymbols, at, ctx),
          bounds.operands);
      emitPoint(builder, k, point, q, prefix, parallel, nests, subset);
    }
  };
  points(/*upper=*/false);
  emitCoreLoop(builder, k, prefix, parallel, nests, subset);
  points(/*upper=*/true);
}

affine::AffineIfOp GatherEmitter::buildRangeIf(OpBuilder &builder, Value q,
                                               ArrayRef<AffineExpr> lower,
                                               ArrayRef<AffineExpr> upper) {
  AffineExpr d0 = getAffineDimExpr(0, domain.getContext());
  SmallVector<AffineExpr> constraints;
  for (AffineExpr e : lower)
    constraints.push_back(d0 - e);
  for (AffineExpr e : upper)
    constraints.push_back(e - d0 - 1);
  SmallVector<Value> operands{q};
  llvm::append_range(operands, bounds.operands);
  return affine::AffineIfOp::create(
      builder, domain.getLoc(),
      IntegerSet::get(1, bounds.operands.size(), constraints,
                      SmallVector<bool>(constraints.size(), false)),
      operands, /*withElseRegion=*/false);
}

void GatherEmitter::enterRange(OpBuilder &builder, Value q,
                               const GatherNest &nest) {
  NestBounds dim0 = getNestBounds(nest, 0);
  builder.setInsertionPointToStart(
      buildRangeIf(builder, q, dim0.lower[0].getResults(),
                   dim0.upper[0].getResults())
          .getThenBlock());
}

void GatherEmitter::emitSlabPlane(OpBuilder &builder, Value q,
                                  const GatherNest *nest) {
  if (!nest)
    return;
  OpBuilder::InsertionGuard insertion(builder);
  enterRange(builder, q, *nest);
  NestBounds rest = getNestBounds(*nest);
  rest.lower.erase(rest.lower.begin());
  rest.upper.erase(rest.upper.begin());
  bool sums = sumsLikePoints(*nest);
  llvm::SaveAndRestore<bool> restore(guardedSums, sums);
  if (nest->split && !sums)
    emitSplitSlice(builder, q, nest->statements, nest->firstGuarded, rest);
  else
    emitNest(builder, rest, nest->statements, nest->firstGuarded,
             /*split=*/false, q, /*parallel=*/false);
}

void GatherEmitter::emitPointPlanes(OpBuilder &builder, Value q, bool upper,
                                    const CompactNests &nests) {
  // Plane q, if it is one of the side's points, over the statements valid
  // there.
  for (const PeeledPoint &p : plan->getPeeled(0)->points) {
    if (p.upper != upper)
      continue;
    OpBuilder::InsertionGuard insertion(builder);
    AffineExpr at = (p.upper ? bounds.upperExpr(0) : bounds.lowerExpr(0)) +
                    p.offset;
    builder.setInsertionPointToStart(
        buildRangeIf(builder, q, at, at + 1).getThenBlock());
    SmallVector<Value> prefix;
    emitPoint(builder, 0, p, q, prefix, /*parallel=*/false, nests,
              nests.core->statements);
  }
}

void GatherEmitter::emitSlabOrPoints(OpBuilder &builder, Value q, bool upper,
                                     const CompactNests &nests) {
  // Inside emitIfWide where dimension 0 is peeled: its points where every
  // peeled dimension is wide enough, else the slab.
  if (pointsActive.value_or(false) && plan->getPeeled(0))
    emitPointPlanes(builder, q, upper, nests);
  else
    emitSlabPlane(builder, q, upper ? nests.upper[0] : nests.lower[0]);
}

void GatherEmitter::emitDim0Slab(OpBuilder &builder, const CompactNests &nests,
                                 bool upper, bool parallel) {
  // A loop over the slab's planes, each its points (or the slab where an
  // extent is too small), as in the one loop of emitOuterInOneLoop: the
  // same sums at every point whichever path runs the slab.
  const GatherNest *nest = upper ? nests.upper[0] : nests.lower[0];
  if (!plan || !plan->getPeeled(0)) {
    emitSlab(builder, nest, /*prefix=*/{}, parallel, nests.core->statements);
    return;
  }
  if (!nest)
    return;
  buildLoopNest(builder, domain.getLoc(), getNestBounds(*nest, 0), parallel,
                [&](OpBuilder &b, Location, ValueRange iv) {
                  Value q = iv.front();
                  emitIfWide(b, [&](OpBuilder &b2) {
                    emitSlabOrPoints(b2, q, upper, nests);
                  });
                });
}

void GatherEmitter::emitOuterInOneLoop(OpBuilder &builder,
                                       const CompactNests &nests) {
  // One parallel loop over the union of dimension 0's lower slab, core and
  // upper slab; each iteration runs the part its plane belongs to. One
  // worksharing loop and one barrier instead of three, and a static
  // schedule that splits the slab planes with the core ones: the threads
  // that would take the light outermost planes of a slab no longer wait
  // at its barrier for those that take the heavy ones.
  Location loc = domain.getLoc();
  NestBounds range = getNestBounds(*nests.core, 0);
  if (nests.lower[0])
    range.lower[0] = getNestBounds(*nests.lower[0], 0).lower[0];
  if (nests.upper[0])
    range.upper[0] = getNestBounds(*nests.upper[0], 0).upper[0];
  auto plane = [&](OpBuilder &b, Value q) {
    emitSlabOrPoints(b, q, /*upper=*/false, nests);
    {
      OpBuilder::InsertionGuard insertion(b);
      enterRange(b, q, *nests.core);
      SmallVector<Value> prefix{q};
      emitPeeled(b, 1, prefix, /*parallel=*/false, nests,
                 nests.core->statements);
    }
    emitSlabOrPoints(b, q, /*upper=*/true, nests);
  };
  buildLoopNest(builder, loc, range, /*parallel=*/true,
                [&](OpBuilder &b, Location, ValueRange iv) {
                  Value q = iv.front();
                  if (!plan || plan->peeled.empty()) {
                    pointsActive = false;
                    plane(b, q);
                    pointsActive.reset();
                    return;
                  }
                  emitIfWide(b, [&](OpBuilder &b2) { plane(b2, q); });
                });
}

void GatherEmitter::emitCompact(OpBuilder &builder,
                                ArrayRef<GatherNest> nests) {
  // The slabs of an inner dimension sit inside the core loops of the outer
  // ones, next to the rows and planes they border, instead of being
  // separate sweeps over the arrays.
  SmallVector<Value> prefix;
  CompactNests roles = classify(nests);
  emitPeeled(builder, 0, prefix, /*parallel=*/true, roles,
             roles.core->statements);
}

void GatherEmitter::emitExact(OpBuilder &builder, const GatherPlan &plan) {
  // The boxes are ordered only on domains at least as large as the offset
  // span in each split dimension; smaller ones take the compact fallback.
  auto check = buildExtentIf(builder, plan.sizeConditions);
  {
    OpBuilder::InsertionGuard guard(builder);
    builder.setInsertionPointToStart(check.getElseBlock());
    emitCompact(builder, plan.fallback);
  }
  OpBuilder::InsertionGuard guard(builder);
  builder.setInsertionPointToStart(check.getThenBlock());
  for (const GatherNest &box : plan.nests)
    emitNest(builder, getNestBounds(box), box.statements, box.firstGuarded,
             box.split);
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
  outerInOneLoop = plan.outerInOneLoop;
  this->plan = &plan;
  this->resetArray = resetArray;
  if (reset)
    this->resetValue =
        arith::ConstantOp::create(builder, domain.getLoc(), resetValue);
  if (plan.strategy == BoundaryStrategy::Guarded) {
    // One nest, every dimension parallel.
    allParallel = true;
    const GatherNest &nest = plan.nests.front();
    emitNest(builder, getNestBounds(nest), nest.statements, nest.firstGuarded,
             /*split=*/false);
    allParallel = false;
  } else if (plan.sizeConditions.empty())
    emitCompact(builder, plan.nests);
  else
    emitExact(builder, plan);
}
