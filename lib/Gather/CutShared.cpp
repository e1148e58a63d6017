//===- CutShared.cpp - Store values shared by shifted statements -*- C++ -*-===//
//
// This file implements --stencil-cut-shared: in each scatter domain, the
// values that CutPlan chooses are computed once per point by a new domain
// into temporary arrays, and the scatter domain reads them back. The gather
// form then clones one load per shift instead of the value's whole slice.
//
//===----------------------------------------------------------------------===//

#include "Stencil/Conversion/AffineEmitter.h"
#include "CutEmitter.h"
#include "FusableReset.h"
#include "SplitReductions.h"
#include "Stencil/Gather/Passes.h"
#include "Stencil/Dialect/StencilDialect.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "llvm/ADT/DenseSet.h"

namespace mlir::stencil {
#define GEN_PASS_DEF_STENCILCUTSHAREDPASS
#include "Stencil/Gather/Passes.h.inc"
} // namespace mlir::stencil

using namespace mlir;
using namespace mlir::stencil;

/// Temporaries are indexed by the domain's coordinates. With lower bounds
/// that are constants >= 0, each is an array from index 0 (the padded and
/// ring forms need that); else (the bounds of a distributed domain are the
/// rank's) a buffer of the domain's extents seen through a view that
/// starts at the lower bounds (emitOffsetViews).
static bool hasNonNegativeConstantLowerBounds(DomainOp domain) {
  return llvm::all_of(domain.getLowerBounds().getResults(), [](AffineExpr e) {
    auto c = dyn_cast<AffineConstantExpr>(e);
    return c && c.getValue() >= 0;
  });
}

/// The extents of a temporary covering `domain`: max(upper_k, 0) per
/// dimension, emitted before `domain`.
static SmallVector<Value> emitTemporarySizes(OpBuilder &builder,
                                             DomainOp domain) {
  AffineMap upper = domain.getUpperBounds();
  SmallVector<Value> sizes;
  for (AffineExpr e : upper.getResults()) {
    AffineMap map =
        AffineMap::get(0, upper.getNumSymbols(),
                       {e, getAffineConstantExpr(0, builder.getContext())},
                       builder.getContext());
    sizes.push_back(affine::AffineMaxOp::create(
        builder, domain.getLoc(), map, domain.getBoundOperands()));
  }
  return sizes;
}

/// The extents of `domain`, max(upper_k - lower_k, 0) per dimension,
/// emitted before it.
static SmallVector<Value> emitDomainExtents(OpBuilder &builder,
                                           DomainOp domain) {
  AffineMap lower = domain.getLowerBounds(), upper = domain.getUpperBounds();
  MLIRContext *ctx = builder.getContext();
  SmallVector<Value> sizes;
  for (unsigned k = 0; k < domain.getRank(); ++k) {
    AffineMap map = AffineMap::get(
        upper.getNumDims(), upper.getNumSymbols(),
        {upper.getResult(k) - lower.getResult(k),
         getAffineConstantExpr(0, ctx)},
        ctx);
    sizes.push_back(affine::AffineMaxOp::create(builder, domain.getLoc(), map,
                                                domain.getBoundOperands()));
  }
  return sizes;
}

/// Views of `buffers` (of the extents of `domain`) whose index i in
/// dimension k is element i - lower_k: indexed by the domain's coordinates.
static SmallVector<Value> emitOffsetViews(OpBuilder &builder, DomainOp domain,
                                          ValueRange buffers,
                                          ValueRange extents) {
  Location loc = domain.getLoc();
  AffineMap lower = domain.getLowerBounds();
  unsigned rank = domain.getRank();
  SmallVector<Value> origin;
  for (unsigned k = 0; k < rank; ++k)
    origin.push_back(affine::AffineApplyOp::create(
        builder, loc, lower.getSubMap({k}), domain.getBoundOperands()));
  SmallVector<Value> views;
  for (Value buffer : buffers) {
    auto meta = memref::ExtractStridedMetadataOp::create(builder, loc, buffer);
    Value offset = arith::ConstantIndexOp::create(builder, loc, 0);
    SmallVector<OpFoldResult> sizes, strides;
    SmallVector<int64_t> staticStrides;
    for (unsigned k = 0; k < rank; ++k) {
      Value stride = meta.getStrides()[k];
      offset = arith::SubIOp::create(
          builder, loc, offset,
          arith::MulIOp::create(builder, loc, origin[k], stride));
      sizes.push_back(
          arith::AddIOp::create(builder, loc, origin[k], extents[k])
              .getResult());
      bool last = k + 1 == rank;
      strides.push_back(last ? OpFoldResult(builder.getIndexAttr(1))
                             : OpFoldResult(stride));
      staticStrides.push_back(last ? 1 : ShapedType::kDynamic);
    }
    auto type = cast<MemRefType>(buffer.getType());
    auto viewType = MemRefType::get(
        type.getShape(), type.getElementType(),
        StridedLayoutAttr::get(builder.getContext(), ShapedType::kDynamic,
                               staticStrides));
    views.push_back(memref::ReinterpretCastOp::create(
        builder, loc, viewType, meta.getBaseBuffer(), offset, sizes,
        strides));
  }
  return views;
}

/// Emits, before `domain`, a domain with its bounds that computes each cut
/// value and stores it into its temporary in `temps`.
static void emitFillDomain(OpBuilder &builder, DomainOp domain,
                           const CutPlan &plan, ArrayRef<Value> temps) {
  SmallVector<Value> roots;
  for (const CutValue &cut : plan.cuts)
    roots.push_back(cut.op->getResult(0));
  llvm::DenseSet<Operation *> slice;
  collectBodySlice(domain, roots, slice);
  auto fill =
      DomainOp::create(builder, domain.getLoc(), domain.getLowerBounds(),
                       domain.getUpperBounds(), domain.getBoundOperands());
  IRMapping mapping;
  mapping.map(domain.getInductionVars(), fill.getInductionVars());
  OpBuilder::InsertionGuard guard(builder);
  builder.setInsertionPoint(fill.getYield());
  for (Operation &op : domain.getBodyBlock()->without_terminator())
    if (slice.contains(&op))
      builder.clone(op, mapping);
  for (auto [root, temp] : llvm::zip_equal(roots, temps))
    StoreOp::create(builder, root.getLoc(), mapping.lookup(root), temp,
                    /*dims=*/nullptr);
}

/// Replaces each cut value in `domain` by a gather of its temporary at the
/// centre, and erases what no longer has a use.
static void readBackCuts(RewriterBase &rewriter, DomainOp domain,
                         const CutPlan &plan, ArrayRef<Value> temps) {
  SmallVector<int64_t> centre(domain.getRank(), 0);
  for (auto [cut, temp] : llvm::zip_equal(plan.cuts, temps)) {
    Value value = cut.op->getResult(0);
    rewriter.setInsertionPointAfter(cut.op);
    auto read = GatherOp::create(rewriter, cut.op->getLoc(), value.getType(),
                                 temp, centre, /*dims=*/nullptr);
    rewriter.replaceAllUsesWith(value, read);
  }
  // Users before their operands, so that whole dead slices go.
  SmallVector<Operation *> ops;
  for (Operation &op : domain.getBodyBlock()->without_terminator())
    ops.push_back(&op);
  for (Operation *op : llvm::reverse(ops))
    if (isOpTriviallyDead(op))
      rewriter.eraseOp(op);
}

SmallVector<Value> mlir::stencil::allocTemporaries(OpBuilder &builder,
                                                   Location loc,
                                                   const CutPlan &plan,
                                                   ValueRange sizes) {
  SmallVector<Value> temps;
  SmallVector<int64_t> shape(sizes.size(), ShapedType::kDynamic);
  for (const CutValue &cut : plan.cuts) {
    auto type = MemRefType::get(shape, cut.op->getResult(0).getType());
    auto alloc = memref::AllocOp::create(builder, loc, type, sizes,
                                         builder.getI64IntegerAttr(64));
    if (plan.ringPlanes > 0)
      StencilDialect::RingAttrHelper(builder.getContext())
          .setAttr(alloc, builder.getUnitAttr());
    temps.push_back(alloc);
  }
  return temps;
}

/// Where the fill domain of `domain`'s cut goes: right before `domain`, or
/// before the domain that initialises an array right before it (a centre
/// store the gather conversion fuses into the sweep as its first
/// contribution, --stencil-scatter-to-gather's `fuse-init`), so that the
/// fill does not separate the two. Only where that domain has the same
/// bounds, writes no array the fill reads, and the bounds are defined
/// before it.
static Operation *getFillPosition(DomainOp domain, const CutPlan &plan) {
  Operation *op = domain->getPrevNode();
  while (op && !isa<DomainOp>(op) && isMemoryEffectFree(op))
    op = op->getPrevNode();
  auto init = dyn_cast_or_null<DomainOp>(op);
  if (!init || init.getNumResults() != 0 || !init.hasSameBounds(domain))
    return domain;
  for (Value operand : domain.getBoundOperands())
    if (Operation *def = operand.getDefiningOp();
        def && def->getBlock() == init->getBlock() &&
        !def->isBeforeInBlock(init))
      return domain;
  SmallVector<Value> roots;
  for (const CutValue &cut : plan.cuts)
    roots.push_back(cut.op->getResult(0));
  llvm::DenseSet<Operation *> slice;
  collectBodySlice(domain, roots, slice);
  llvm::DenseSet<Value> fillReads;
  for (Operation *sliceOp : slice)
    if (auto gather = dyn_cast<GatherOp>(sliceOp))
      fillReads.insert(gather.getArray());
  WalkResult walk = init.getBody().walk([&](Operation *bodyOp) {
    auto access = dyn_cast<AccessOpInterface>(bodyOp);
    if (access && access.isWrite() &&
        fillReads.contains(access.getAccessedArray()))
      return WalkResult::interrupt();
    return WalkResult::advance();
  });
  return walk.wasInterrupted() ? domain.getOperation() : init.getOperation();
}

void mlir::stencil::emitCut(RewriterBase &rewriter, DomainOp domain,
                            const CutPlan &plan) {
  Location loc = domain.getLoc();
  rewriter.setInsertionPoint(getFillPosition(domain, plan));
  bool fromZero = hasNonNegativeConstantLowerBounds(domain);
  SmallVector<Value> sizes = fromZero ? emitTemporarySizes(rewriter, domain)
                                      : emitDomainExtents(rewriter, domain);
  SmallVector<Value> buffers = allocTemporaries(rewriter, loc, plan, sizes);
  SmallVector<Value> temps =
      fromZero ? buffers : emitOffsetViews(rewriter, domain, buffers, sizes);
  emitFillDomain(rewriter, domain, plan, temps);
  Block *block = domain->getBlock();
  if (block->mightHaveTerminator())
    rewriter.setInsertionPoint(block->getTerminator());
  else
    rewriter.setInsertionPointToEnd(block);
  for (Value buffer : buffers)
    memref::DeallocOp::create(rewriter, loc, buffer);
  readBackCuts(rewriter, domain, plan, temps);
}

namespace {
struct StencilCutSharedPass
    : public mlir::stencil::impl::StencilCutSharedPassBase<
          StencilCutSharedPass> {
  using Base::Base;

  /// The plan under ring-min-gain, if --stencil-ring-cut can keep its
  /// temporaries as rings of planes (the pass description); else none.
  CutPlan planRingCuts(DomainOp domain) {
    CutPlan plan = planCuts(domain, ringMinGain);
    if (plan.cuts.empty() || planRingPlanes(domain) == 0)
      return {};
    std::optional<FusableReset> reset = matchFusableReset(domain);
    if (reset && readsOffCentre(domain, plan, reset->array))
      return {};
    plan.ring = true;
    return plan;
  }

  void runOnOperation() override {
    IRRewriter rewriter(&getContext());
    for (DomainOp domain : getScatterDomains(getOperation())) {
      // Reductions are not scatters: they go to a domain of their own (as
      // --stencil-split-reductions does), which the lowering sums.
      splitReductionsOut(rewriter, domain);
      if (!domain.isRectangular()) {
        if (report)
          domain.emitRemark() << "cut plan: none (the cut supports "
                                 "rectangular domains only)";
        continue;
      }
      // Temporaries start at the lower bounds: constants, if they are.
      domain.foldConstantBounds();
      // Rings and padded temporaries start at index 0; other domains (e.g.
      // distributed ones) get the plain cut over views.
      bool fromZero = hasNonNegativeConstantLowerBounds(domain);
      CutPlan plan = planCuts(domain, minGain);
      if (fromZero && plan.cuts.empty() && ringMinGain > 0 &&
          ringMinGain < minGain)
        plan = planRingCuts(domain);
      if (fromZero && padded && !plan.ring)
        planPaddedGather(domain, plan);
      if (!plan.cuts.empty())
        plan.ringPlanes = planRingPlanes(domain);
      if (report) {
        std::string json;
        llvm::raw_string_ostream os(json);
        plan.printJSON(os);
        domain.emitRemark() << "cut plan: " << json;
      }
      if (plan.padded)
        emitPaddedGather(rewriter, domain, plan);
      else if (!plan.cuts.empty())
        emitCut(rewriter, domain, plan);
    }
  }
};
} // namespace
