//===- GatherReset.cpp - The fused reset of the output adjoint --*- C++ -*-===//
//
// This file implements the blocked core sweep of dimension 0 and the reset
// stores of GatherEmitter (GatherEmitter.h; the plan is FusedReset in
// GatherPlan.h): planes, or rows right after their last reader, reset in
// the block that read them, and the second sweep over what the blocks left.
//
//===----------------------------------------------------------------------===//

#include "GatherEmitter.h"
#include "Stencil/Support/Declare.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/IntegerSet.h"
#include "llvm/ADT/MapVector.h"

#include <map>

using namespace mlir;
using namespace mlir::stencil;

SmallVector<Value> GatherEmitter::getBlockSymbols() const {
  SmallVector<Value> symbols(bounds.operands);
  if (blockSize)
    llvm::append_range(symbols, SmallVector<Value>{blockSize, blockCount});
  return symbols;
}

AffineExpr GatherEmitter::blockSizeExpr() const {
  MLIRContext *ctx = bounds.lower.front().getContext();
  if (blockSize)
    return getAffineSymbolExpr(bounds.operands.size(), ctx);
  return getAffineConstantExpr(reset->block, ctx);
}

AffineExpr GatherEmitter::blockStart() const {
  MLIRContext *ctx = bounds.lower.front().getContext();
  // With a run-time size, d0 * s is semi-affine: lower-affine expands it.
  return bounds.lowerExpr(0) + reset->maxOffset +
         getAffineDimExpr(0, ctx) * blockSizeExpr();
}

AffineExpr GatherEmitter::coreEnd() const {
  return bounds.upperExpr(0) + reset->minOffset;
}

NestBounds GatherEmitter::getBlockRange() const {
  MLIRContext *ctx = bounds.lower.front().getContext();
  SmallVector<Value> symbols = getBlockSymbols();
  AffineExpr coreStart = bounds.lowerExpr(0) + reset->maxOffset;
  NestBounds blocks;
  blocks.operands = symbols;
  blocks.lower.push_back(
      symbolMap(getAffineConstantExpr(0, ctx), symbols.size()));
  AffineExpr count =
      blockCount ? getAffineSymbolExpr(bounds.operands.size() + 1, ctx)
                 : (coreEnd() - coreStart).ceilDiv(reset->block);
  blocks.upper.push_back(symbolMap(count, symbols.size()));
  return blocks;
}

void GatherEmitter::emitBalancedBlocks(OpBuilder &builder) {
  blockSize = blockCount = Value();
  if (!reset->balanced)
    return;
  // Affine symbols: computed at the top level of the function (before the
  // non-empty guard around the nests), after the domain's bound operands,
  // which must be defined there too; else the blocks stay constant.
  Block *top = builder.getInsertionBlock();
  Block::iterator point = builder.getInsertionPoint();
  while (top && !top->getParentOp()->hasTrait<OpTrait::AffineScope>()) {
    point = top->getParentOp()->getIterator();
    top = top->getParentOp()->getBlock();
  }
  auto availableAtPoint = [&](Value value) {
    if (auto arg = dyn_cast<BlockArgument>(value))
      return arg.getOwner() == top;
    Operation *def = value.getDefiningOp();
    return def->getBlock() == top &&
           (point == top->end() || def->isBeforeInBlock(&*point));
  };
  if (!top || !llvm::all_of(bounds.operands, availableAtPoint))
    return;
  OpBuilder::InsertionGuard guard(builder);
  builder.setInsertionPoint(top, point);
  Location loc = domain.getLoc();
  func::FuncOp callee =
      lookupOrDeclareFunction(domain->getParentOfType<ModuleOp>(),
                              "omp_get_max_threads", {}, builder.getI32Type());
  Value threads = arith::IndexCastOp::create(
      builder, loc, builder.getIndexType(),
      func::CallOp::create(builder, loc, callee, ValueRange{}).getResult(0));
  AffineExpr coreStart = bounds.lowerExpr(0) + reset->maxOffset;
  Value extent = affine::AffineApplyOp::create(
      builder, loc, symbolMap(coreEnd() - coreStart, bounds.operands.size()),
      bounds.operands);
  Value least = arith::ConstantIndexOp::create(builder, loc, reset->block);
  Value share = arith::CeilDivSIOp::create(builder, loc, extent, threads);
  blockSize = arith::MaxSIOp::create(builder, loc, share, least);
  blockCount = arith::CeilDivSIOp::create(builder, loc, extent, blockSize);
  if (outerInOneLoop)
    blockCount = arith::MaxSIOp::create(
        builder, loc, blockCount,
        arith::ConstantIndexOp::create(builder, loc, 1));
}

affine::AffineForOp GatherEmitter::buildBlockLoop(OpBuilder &builder,
                                                  Value block,
                                                  ArrayRef<AffineExpr> from,
                                                  ArrayRef<AffineExpr> to) {
  MLIRContext *ctx = domain.getContext();
  SmallVector<Value> symbols = getBlockSymbols();
  SmallVector<Value> operands{block};
  llvm::append_range(operands, symbols);
  return affine::AffineForOp::create(
      builder, domain.getLoc(), operands,
      AffineMap::get(1, symbols.size(), from, ctx), operands,
      AffineMap::get(1, symbols.size(), to, ctx));
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

affine::AffineIfOp GatherEmitter::buildIfBlock(OpBuilder &builder,
                                               Value block, bool last) {
  // Block 0, or the last block: d0 + 1 >= count (d0 < count in the loop).
  MLIRContext *ctx = domain.getContext();
  SmallVector<Value> symbols = getBlockSymbols();
  AffineExpr d0 = getAffineDimExpr(0, ctx);
  AffineExpr count = getBlockRange().upperExpr(0);
  SmallVector<Value> operands{block};
  llvm::append_range(operands, symbols);
  return affine::AffineIfOp::create(
      builder, domain.getLoc(),
      IntegerSet::get(1, symbols.size(), {last ? d0 + 1 - count : d0},
                      {!last}),
      operands, /*withElseRegion=*/false);
}

void GatherEmitter::emitSlabInBlock(OpBuilder &builder, Value block,
                                    const CompactNests &nests, bool last) {
  if (!(last ? nests.upper[0] : nests.lower[0]))
    return;
  OpBuilder::InsertionGuard insertion(builder);
  builder.setInsertionPointToStart(
      buildIfBlock(builder, block, last).getThenBlock());
  emitDim0Slab(builder, nests, /*upper=*/last, /*parallel=*/false);
}

void GatherEmitter::emitBlockedCore(OpBuilder &builder,
                                    SmallVector<Value> &prefix,
                                    const CompactNests &nests,
                                    bool slabsInBlocks) {
  MLIRContext *ctx = domain.getContext();
  AffineExpr start = blockStart(), end = coreEnd(), size = blockSizeExpr();
  int64_t lag = reset->lag();
  buildLoopNest(builder, domain.getLoc(), getBlockRange(), /*parallel=*/true,
                [&](OpBuilder &b, Location loc, ValueRange block) {
                  if (slabsInBlocks)
                    emitSlabInBlock(b, block.front(), nests,
                                    /*last=*/false);
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
                    emitPeeled(b, 1, prefix, /*parallel=*/false, nests,
                               nests.core->statements);
                    prefix.pop_back();
                    rowResetPlane = Value();
                    if (rows)
                      emitResetRowsLeft(b, p, *nests.core);
                    else if (resetBehind)
                      emitResetPlane(b, p);
                  };
                  // The first `lag` iterations (fewer than a block's):
                  // planes read also by the block before.
                  if (lag > 0)
                    run({start}, {start + lag, end}, false);
                  run({start + lag}, {start + size, end}, true);
                  if (slabsInBlocks)
                    emitSlabInBlock(b, block.front(), nests,
                                    /*last=*/true);
                });
}

void GatherEmitter::emitResetRemainder(OpBuilder &builder,
                                       bool tailInLastBlock) {
  MLIRContext *ctx = domain.getContext();
  unsigned numSymbols = bounds.operands.size();
  int64_t lag = reset->lag();
  Location loc = domain.getLoc();
  // The last `lag` planes of the domain (all of it when the core is
  // empty): their gather iterations lie beyond the core. They lie above
  // every block's planes below.
  auto resetTail = [&](OpBuilder &b, bool parallel) {
    NestBounds tail;
    tail.operands = bounds.operands;
    tail.lower.push_back(AffineMap::get(
        0, numSymbols, {bounds.upperExpr(0) - lag, bounds.lowerExpr(0)}, ctx));
    tail.upper.push_back(bounds.upper[0]);
    buildLoopNest(b, loc, tail, parallel,
                  [&](OpBuilder &b2, Location, ValueRange p) {
                    emitResetPlane(b2, p.front());
                  });
  };
  tailInLastBlock &= lag > 0;
  if (!tailInLastBlock)
    resetTail(builder, /*parallel=*/true);
  if (lag == 0)
    return;
  // The planes behind each block's first `lag` iterations.
  AffineExpr start = blockStart(), end = coreEnd();
  buildLoopNest(
      builder, loc, getBlockRange(), /*parallel=*/true,
      [&](OpBuilder &b, Location, ValueRange block) {
        int64_t back = reset->maxOffset;
        {
          auto loop = buildBlockLoop(b, block.front(), {start - back},
                                     {start + lag - back, end - back});
          OpBuilder::InsertionGuard guard(b);
          b.setInsertionPoint(loop.getBody()->getTerminator());
          emitResetPlane(b, loop.getInductionVar());
        }
        if (!tailInLastBlock)
          return;
        OpBuilder::InsertionGuard guard(b);
        b.setInsertionPointToStart(
            buildIfBlock(b, block.front(), /*last=*/true).getThenBlock());
        resetTail(b, /*parallel=*/false);
      });
}
