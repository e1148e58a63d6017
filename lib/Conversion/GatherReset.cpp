//===- GatherReset.cpp - The fused reset of the output adjoint --*- C++ -*-===//
//
// This file implements the blocked core sweep of dimension 0 and the reset
// stores of GatherEmitter (GatherEmitter.h; the plan is FusedReset in
// GatherPlan.h): planes, or rows right after their last reader, reset in
// the block that read them, and the second sweep over what the blocks left.
//
//===----------------------------------------------------------------------===//

#include "GatherEmitter.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/IntegerSet.h"
#include "llvm/ADT/MapVector.h"

#include <map>

using namespace mlir;
using namespace mlir::stencil;

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
