//===- StencilToAffine.cpp - Lower stencil domains to affine ----*- C++ -*-===//
//
// This file implements --convert-stencil-to-affine: every stencil.domain
// becomes an affine loop nest whose outermost non-unit dimension is an
// affine.parallel, with gathers and writes as affine loads and stores.
//
//===----------------------------------------------------------------------===//

#include "ArrayReductions.h"
#include "DistributedSums.h"
#include "Stencil/Conversion/AffineEmitter.h"
#include "Stencil/Conversion/Passes.h"
#include "Stencil/Conversion/StencilToAffine.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/IR/IntegerSet.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/PatternMatch.h"

namespace mlir::stencil {
#define GEN_PASS_DEF_CONVERTSTENCILTOAFFINEPASS
#include "Stencil/Conversion/Passes.h.inc"
} // namespace mlir::stencil

using namespace mlir;
using namespace mlir::stencil;

//===----------------------------------------------------------------------===//
// Writes
//===----------------------------------------------------------------------===//

/// Emits the writes of the domain body at point `ivs`, reading the written
/// values from `mapping` (values defined above the domain map to
/// themselves). When `atomic` is set every accumulate becomes an atomic
/// read-modify-write: a centre update races with the scatters of
/// neighbouring points into the same array just as much as they do.
/// Reductions that `reductions` takes go there (to partial sums, or terms).
static void emitWrites(OpBuilder &builder, DomainOp domain, ValueRange ivs,
                       IRMapping &mapping, bool atomic,
                       const ReductionSink *reductions = nullptr) {
  unsigned rank = domain.getRank();
  SmallVector<int64_t> noShift(rank, 0);
  for (Operation &op : domain.getBodyBlock()->without_terminator()) {
    if (auto store = dyn_cast<StoreOp>(op)) {
      affine::AffineStoreOp::create(
          builder, store.getLoc(), mapping.lookupOrDefault(store.getValue()),
          store.getArray(), getAccessMap(store, rank, noShift), ivs);
      continue;
    }
    auto acc = dyn_cast<AccumulateOp>(op);
    if (!acc)
      continue;
    AffineMap map = getAccessMap(acc, rank, noShift);
    Value value = mapping.lookupOrDefault(acc.getValue());
    if (reductions && reductions->emitUpdate(builder, acc, value, ivs))
      continue;
    if (!atomic) {
      emitAccumulate(builder, acc.getLoc(), value, acc.getArray(), map, ivs);
      continue;
    }
    SmallVector<Value> indices;
    for (unsigned a = 0, e = map.getNumResults(); a < e; ++a)
      indices.push_back(affine::AffineApplyOp::create(
          builder, acc.getLoc(), map.getSubMap({a}), ivs));
    memref::AtomicRMWOp::create(builder, acc.getLoc(),
                                arith::AtomicRMWKind::addf, value,
                                acc.getArray(), indices);
  }
}

//===----------------------------------------------------------------------===//
// Reductions
//===----------------------------------------------------------------------===//

/// Emits the serial sum of `buffers` (each of `size` partial sums), in index
/// order. With `onDevice` (the GPU form) the sum runs in a parallel loop of
/// which one iteration works, a kernel of its own, into one-element buffers
/// that the host then reads: the partial sums stay in device memory.
static SmallVector<Value> sumPartials(OpBuilder &builder, Location loc,
                                      ValueRange buffers, Value size,
                                      ValueRange zeros, bool onDevice) {
  MLIRContext *ctx = builder.getContext();
  AffineMap zeroMap = AffineMap::get(0, 0, getAffineConstantExpr(0, ctx));
  AffineMap sizeIdMap = AffineMap::get(0, 1, getAffineSymbolExpr(0, ctx));
  auto emitLoop = [&](OpBuilder &b) {
    auto total = affine::AffineForOp::create(b, loc, ValueRange(), zeroMap,
                                             ValueRange{size}, sizeIdMap, 1,
                                             zeros);
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(total.getBody());
    SmallVector<Value> next;
    for (auto [acc, buffer] :
         llvm::zip_equal(total.getRegionIterArgs(), buffers)) {
      Value part = affine::AffineLoadOp::create(b, loc, buffer,
                                                total.getInductionVar());
      next.push_back(arith::AddFOp::create(b, loc, acc, part));
    }
    affine::AffineYieldOp::create(b, loc, next);
    return SmallVector<Value>(total.getResults());
  };
  if (!onDevice)
    return emitLoop(builder);
  SmallVector<Value> cells;
  for (Value zero : zeros)
    cells.push_back(memref::AllocOp::create(
        builder, loc, MemRefType::get({1}, zero.getType())));
  emitOnce(builder, loc, /*onDevice=*/true, [&](OpBuilder &b) {
    for (auto [sum, cell] : llvm::zip_equal(emitLoop(b), cells))
      affine::AffineStoreOp::create(b, loc, sum, cell, zeroMap, ValueRange());
  });
  SmallVector<Value> sums;
  for (Value cell : cells) {
    sums.push_back(
        affine::AffineLoadOp::create(builder, loc, cell, zeroMap, ValueRange()));
    memref::DeallocOp::create(builder, loc, cell);
  }
  return sums;
}

/// Lowers a domain with results (sums over its points) or reductions
/// (ArrayReductions.h). The summation order is fixed: the first non-unit
/// dimension `p` runs in parallel; each of its indices sums its slice
/// serially, in lexicographic order, into a buffer; the buffer is then
/// summed serially (sumPartials). The result is independent of the number
/// of threads, and on the GPU of the block shape.
static SmallVector<Value> lowerReduction(OpBuilder &builder, DomainOp domain,
                                         const NestBounds &bounds,
                                         bool parallel, bool atomic,
                                         bool onDevice) {
  Location loc = domain.getLoc();
  unsigned rank = bounds.getRank();
  unsigned numSymbols = bounds.operands.size();
  MLIRContext *ctx = builder.getContext();
  ArrayReductionPlan plan = planArrayReductions(domain, bounds, parallel);
  unsigned p = plan.sliceDim;

  // size = max(upper_p - lower_p, 0)
  AffineMap sizeMap = AffineMap::get(
      0, numSymbols,
      {bounds.upperExpr(p) - bounds.lowerExpr(p), getAffineConstantExpr(0, ctx)},
      ctx);
  Value size = affine::AffineMaxOp::create(builder, loc, sizeMap,
                                           bounds.operands);
  ReductionBuffers reductions(builder, domain, bounds, plan);
  // The sums carried through the slice's loops: the results, then the
  // fully reduced reductions.
  SmallVector<Type> types = reductions.getSumTypes();
  SmallVector<Value> buffers;
  for (Type type : types)
    buffers.push_back(memref::AllocOp::create(
        builder, loc, MemRefType::get({ShapedType::kDynamic}, type), size));
  SmallVector<Value> zeros;
  for (Type type : types)
    zeros.push_back(arith::ConstantOp::create(builder, loc, type,
                                              builder.getFloatAttr(type, 0.0)));

  // Outer nest: dimensions up to and including p.
  NestBounds outer;
  outer.operands = bounds.operands;
  for (unsigned k = 0; k <= p; ++k) {
    outer.lower.push_back(bounds.lower[k]);
    outer.upper.push_back(bounds.upper[k]);
  }
  buildLoopNest(
      builder, loc, outer, parallel,
      [&](OpBuilder &b, Location loc, ValueRange outerIvs) {
        // Inner dimensions p+1 .. rank-1: serial loops carrying the sums.
        SmallVector<Value> ivs(outerIvs.begin(), outerIvs.end());
        reductions.emitZero(b, outerIvs);
        std::function<SmallVector<Value>(unsigned, ValueRange)> inner =
            [&](unsigned k, ValueRange accs) -> SmallVector<Value> {
          if (k == rank) {
            IRMapping mapping;
            emitBodyValues(b, domain, ivs, SmallVector<int64_t>(rank, 0),
                           mapping);
            emitWrites(b, domain, ivs, mapping, atomic, &reductions);
            SmallVector<Value> terms = reductions.getSumTerms(mapping);
            SmallVector<Value> next;
            for (auto [acc, term] : llvm::zip_equal(accs, terms))
              next.push_back(arith::AddFOp::create(b, loc, acc, term));
            return next;
          }
          if (bounds.getConstantExtent(k) == 1) {
            // One point: the body runs once, no loop.
            ivs.push_back(buildUnitDimValue(b, loc, bounds, k, ivs));
            SmallVector<Value> result = inner(k + 1, accs);
            ivs.pop_back();
            return result;
          }
          auto [lbMap, lbOperands] = canonicalBound(
              bounds.lower[k], bounds.getMapOperands(bounds.lower[k], ivs));
          auto [ubMap, ubOperands] = canonicalBound(
              bounds.upper[k], bounds.getMapOperands(bounds.upper[k], ivs));
          auto loop = affine::AffineForOp::create(b, loc, lbOperands, lbMap,
                                                  ubOperands, ubMap,
                                                  /*step=*/1, accs);
          OpBuilder::InsertionGuard guard(b);
          // Without sums to carry the builder has terminated the body.
          if (accs.empty())
            b.setInsertionPoint(loop.getBody()->getTerminator());
          else
            b.setInsertionPointToStart(loop.getBody());
          ivs.push_back(loop.getInductionVar());
          SmallVector<Value> next = inner(k + 1, loop.getRegionIterArgs());
          ivs.pop_back();
          if (!accs.empty())
            affine::AffineYieldOp::create(b, loc, next);
          return SmallVector<Value>(loop.getResults());
        };
        SmallVector<Value> sums = inner(p + 1, zeros);
        // buffer[iv_p - lower_p] = sum
        AffineMap index = AffineMap::get(
            1, numSymbols,
            getAffineDimExpr(0, ctx) - bounds.lowerExpr(p).shiftDims(0, 1),
            ctx);
        SmallVector<Value> operands = {ivs[p]};
        llvm::append_range(operands, bounds.operands);
        for (auto [sum, buffer] : llvm::zip_equal(sums, buffers))
          affine::AffineStoreOp::create(b, loc, sum, buffer, index, operands);
      });

  reductions.emitFold(builder);
  if (types.empty())
    return {};
  SmallVector<Value> sums;
  if (getDistributedSum(domain)) {
    sums = sumSlicesAcrossRanks(builder, domain, buffers, types, size);
  } else {
    sums = sumPartials(builder, loc, buffers, size, zeros, onDevice);
    for (Value buffer : buffers)
      memref::DeallocOp::create(builder, loc, buffer);
  }
  return reductions.emitCarriedUpdates(builder, sums, onDevice);
}

/// Lowers a domain with sums whose ranks hold boxes of it: every point's
/// terms (its results, then its sums into fixed elements) go to the
/// run-time library, which adds every rank's in the order of one process;
/// each rank then adds the same totals into its copies of the elements.
/// Its reductions through some dimensions go there too, by their own
/// buffers (DistributedReductions), summed along the same dimension `dim`.
static SmallVector<Value> lowerBoxesSums(OpBuilder &builder, DomainOp domain,
                                         const NestBounds &bounds,
                                         bool parallel, bool atomic,
                                         const ArrayReductionPlan &plan) {
  ArrayReductionPlan carried = plan;
  llvm::erase_if(carried.entries, [](const ArrayReductionPlan::Entry &entry) {
    return !entry.carried;
  });
  ReductionBuffers sums(builder, domain, bounds, carried);
  DistributedReductions reductions(builder, domain, bounds, plan, sums);
  auto emitPoint = [&](OpBuilder &b, ValueRange ivs) {
    IRMapping mapping;
    emitBodyValues(b, domain, ivs, SmallVector<int64_t>(domain.getRank(), 0),
                   mapping);
    emitWrites(b, domain, ivs, mapping, atomic, &reductions);
    return sums.getSumTerms(mapping);
  };
  SmallVector<Value> totals = sumBoxesAcrossRanks(
      builder, domain, bounds, parallel, plan.sliceDim, sums.getSumTypes(),
      emitPoint, [&](OpBuilder &b, Value box) { reductions.emitFold(b, box); });
  return sums.emitCarriedUpdates(builder, totals, /*onDevice=*/false);
}

//===----------------------------------------------------------------------===//
// Domain lowering
//===----------------------------------------------------------------------===//

/// Checks what the lowering of a nonrectangular domain supports: its sums
/// (results and reductions into fixed elements) run in slices of the first
/// dimension of more than one point, which must then be a single range of
/// the symbols; a reduction into an array through some of the dimensions
/// (buffered per slice) and the GPU form (one affine.parallel over every
/// dimension) need a box.
static LogicalResult checkNonrectangular(DomainOp domain,
                                         const NestBounds &bounds,
                                         bool parallel, bool allParallel) {
  if (domain.isRectangular())
    return success();
  if (allParallel && parallel)
    return domain.requireRectangular(
        "the GPU form (one affine.parallel over every dimension)");
  if (domain.getNumResults() == 0 && !domain.hasReduction())
    return success();
  ArrayReductionPlan plan = planArrayReductions(domain, bounds, parallel);
  unsigned p = plan.sliceDim;
  auto isRange = [](AffineMap map) {
    return map.getNumDims() == 0 && map.getNumResults() == 1;
  };
  bool buffered =
      llvm::any_of(plan.entries, [](const ArrayReductionPlan::Entry &entry) {
        return !entry.direct && !entry.carried;
      });
  if (isRange(bounds.lower[p]) && isRange(bounds.upper[p]) && !buffered)
    return success();
  return domain.requireRectangular(
      buffered ? "a reduction into an array through some of its dimensions"
               : "a sum whose first dimension takes a max/min");
}

LogicalResult mlir::stencil::lowerDomainToAffine(RewriterBase &rewriter,
                                                 DomainOp domain,
                                                 ScatterLowering scatter,
                                                 bool allParallel) {
  if (failed(checkBoundsAreAffineSymbols(domain)))
    return failure();
  // Dimensions of constant extent 1 get no loop: fold constant operands.
  domain.foldConstantBounds();

  bool scatters = domain.hasScatter();
  if (scatters && scatter == ScatterLowering::Gather)
    return domain.emitOpError()
           << "scatters, but scatter=gather expects "
              "--stencil-scatter-to-gather to have turned every scatter into "
              "gather nests";
  bool atomic = scatters && scatter == ScatterLowering::Atomic;
  bool parallel = !scatters || atomic;
  NestBounds bounds = getDomainBounds(domain);
  if (failed(checkNonrectangular(domain, bounds, parallel, allParallel)))
    return failure();

  OpBuilder::InsertionGuard guard(rewriter);
  rewriter.setInsertionPoint(domain);
  Location loc = domain.getLoc();
  std::optional<DistributedSum> distributed = getDistributedSum(domain);
  bool reduces = domain.hasReduction();
  // Across ranks, reductions through some dimensions always go through
  // the boxes' terms; fully reduced sums (results, fixed elements) through
  // whole slices where the grid splits only the summation dimension.
  ArrayReductionPlan plan;
  if (distributed)
    plan = planArrayReductions(domain, bounds, parallel, distributed->dim);
  bool throughSome =
      llvm::any_of(plan.entries, [](const ArrayReductionPlan::Entry &entry) {
        return !entry.carried;
      });
  if (distributed && (!distributed->wholeSlices || throughSome)) {
    if (!domain.isRectangular())
      return domain.emitOpError()
             << "sums across ranks from boxes of the domain, which is "
                "supported only for a rectangular domain";
    if (failed(DistributedReductions::check(domain, plan)))
      return failure();
    rewriter.replaceOp(domain, lowerBoxesSums(rewriter, domain, bounds,
                                              parallel, atomic, plan));
    return success();
  }
  if (distributed) {
    // Every rank takes part in the sums, with no slices if its part of the
    // domain is empty (its bounds are clipped, never wrapped).
    rewriter.replaceOp(domain, lowerReduction(rewriter, domain, bounds,
                                              parallel, atomic, allParallel));
    return success();
  }
  if (domain.getNumResults() == 0 && reduces) {
    // An empty domain adds nothing.
    emitNonEmptyGuard(rewriter, loc, bounds);
    lowerReduction(rewriter, domain, bounds, parallel, atomic, allParallel);
    rewriter.eraseOp(domain);
    return success();
  }
  if (domain.getNumResults() != 0) {
    // An empty domain sums to zero.
    SmallVector<Value> zeros;
    for (Type type : domain.getResultTypes())
      zeros.push_back(arith::ConstantOp::create(
          rewriter, loc, type, rewriter.getFloatAttr(type, 0.0)));
    scf::IfOp nonEmpty = emitNonEmptyGuard(rewriter, loc, bounds, zeros);
    SmallVector<Value> sums = lowerReduction(rewriter, domain, bounds,
                                             parallel, atomic, allParallel);
    if (nonEmpty) {
      scf::YieldOp::create(rewriter, loc, sums);
      sums.assign(nonEmpty.getResults().begin(), nonEmpty.getResults().end());
    }
    rewriter.replaceOp(domain, sums);
    return success();
  }
  emitNonEmptyGuard(rewriter, loc, bounds);
  auto body = [&](OpBuilder &b, Location, ValueRange ivs) {
    IRMapping mapping;
    emitBodyValues(b, domain, ivs, SmallVector<int64_t>(domain.getRank(), 0),
                   mapping);
    emitWrites(b, domain, ivs, mapping, atomic);
  };
  if (allParallel && parallel)
    buildParallelNest(rewriter, domain.getLoc(), bounds, body);
  else
    buildLoopNest(rewriter, domain.getLoc(), bounds, parallel, body);
  rewriter.eraseOp(domain);
  return success();
}

namespace {
/// Rewrites one stencil.domain into an affine loop nest.
struct DomainToAffinePattern : public OpRewritePattern<DomainOp> {
  DomainToAffinePattern(MLIRContext *ctx, ScatterLowering scatter)
      : OpRewritePattern<DomainOp>(ctx), scatter(scatter) {}

  LogicalResult matchAndRewrite(DomainOp domain,
                                PatternRewriter &rewriter) const override {
    return lowerDomainToAffine(rewriter, domain, scatter);
  }

  ScatterLowering scatter;
};

struct ConvertStencilToAffinePass
    : public mlir::stencil::impl::ConvertStencilToAffinePassBase<
          ConvertStencilToAffinePass> {
  using Base::Base;

  /// Prints the plan of the domain's reductions, if it has any, as the
  /// lowering will make it.
  void reportReductions(DomainOp domain) {
    if (!domain.hasReduction())
      return;
    domain.foldConstantBounds();
    bool parallel = !domain.hasScatter() || scatter == ScatterLowering::Atomic;
    std::string json;
    llvm::raw_string_ostream os(json);
    std::optional<int64_t> sliceDim;
    if (std::optional<DistributedSum> sum = getDistributedSum(domain))
      sliceDim = sum->dim;
    planArrayReductions(domain, getDomainBounds(domain), parallel, sliceDim)
        .printJSON(os);
    domain.emitRemark() << "reduction plan: " << json;
  }

  void runOnOperation() override {
    // Domains are independent and never nested: a plain walk suffices, and
    // unlike a greedy driver it reports the first failure where it happens.
    IRRewriter rewriter(&getContext());
    SmallVector<DomainOp> domains;
    getOperation()->walk([&](DomainOp domain) { domains.push_back(domain); });
    for (DomainOp domain : domains) {
      if (report)
        reportReductions(domain);
      if (failed(lowerDomainToAffine(rewriter, domain, scatter, allParallel)))
        return signalPassFailure();
    }
    // The marks that --stencil-distribute reads are settled: global
    // indices that no distribution made local are what they say on one
    // process, and the snapshot-borders flag is the constant it holds.
    // Below the stencil level they mean nothing, and no lowered op may
    // carry them.
    StringRef globalIndex = StencilDialect::GlobalIndexAttrHelper::getNameStr();
    StringRef borders = StencilDialect::SnapshotBordersAttrHelper::getNameStr();
    getOperation()->walk([&](Operation *op) {
      op->removeAttr(globalIndex);
      op->removeAttr(borders);
    });
  }
};
} // namespace

void mlir::stencil::populateStencilToAffinePatterns(
    RewritePatternSet &patterns, ScatterLowering scatter) {
  patterns.add<DomainToAffinePattern>(patterns.getContext(), scatter);
}
