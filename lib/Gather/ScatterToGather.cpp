//===- ScatterToGather.cpp - Scatter domains to gather nests ----*- C++ -*-===//
//
// This file implements --stencil-scatter-to-gather: every domain that
// scatters becomes a core gather nest plus boundary nests (compact peeling
// or PerforAD's exact split), each iteration writing only its own point.
//
//===----------------------------------------------------------------------===//

#include "FusableReset.h"
#include "SplitReductions.h"
#include "GatherEmitter.h"
#include "PolyGather.h"
#include "Stencil/Gather/Passes.h"

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
#include "Stencil/Gather/Passes.h.inc"
} // namespace mlir::stencil

using namespace mlir;
using namespace mlir::stencil;

/// The widest span of offsets in a dimension whose slabs `peel-innermost`
/// and `peel-outer` run as points (2 x span bodies per row).
static constexpr int64_t kMaxPeeledSpan = 8;
/// The most bodies `peel-outer` lets a plane have (the product of 2 x span
/// + 1 over the peeled dimensions): radius 1 in three dimensions.
static constexpr int64_t kMaxPeeledBodies = 125;

/// The domain before `scatter` if it is a first contribution that can be
/// fused into its gather sweep: the previous domain (past ops without
/// memory effects), with the same bounds, whose body only stores one value
/// at the centre into an array that `scatter` only accumulates into, and
/// reads nothing that `scatter` writes or the array itself.
static DomainOp matchFusableInit(DomainOp scatter) {
  Operation *op = scatter->getPrevNode();
  while (op && !isa<DomainOp>(op) && isMemoryEffectFree(op))
    op = op->getPrevNode();
  auto init = dyn_cast_or_null<DomainOp>(op);
  if (!init || init.getNumResults() != 0 || !init.hasSameBounds(scatter))
    return {};
  StoreOp store;
  SmallVector<Value> reads;
  for (Operation &bodyOp : init.getBodyBlock()->without_terminator()) {
    if (auto s = dyn_cast<StoreOp>(bodyOp); s && !store)
      store = s;
    else if (auto gather = dyn_cast<GatherOp>(bodyOp))
      reads.push_back(gather.getArray());
    else if (!isMemoryEffectFree(&bodyOp))
      return {};
  }
  unsigned rank = init.getRank();
  if (!store ||
      !getAccessMap(cast<AccessOpInterface>(store.getOperation()), rank,
                    SmallVector<int64_t>(rank, 0))
           .isIdentity())
    return {};
  Value array = store.getArray();
  if (llvm::is_contained(reads, array))
    return {};
  bool accumulates = false;
  WalkResult walk = scatter.getBody().walk([&](Operation *op) {
    auto access = dyn_cast<AccessOpInterface>(op);
    if (!access)
      return WalkResult::advance();
    Value accessed = access.getAccessedArray();
    if (accessed == array && !isa<AccumulateOp>(op))
      return WalkResult::interrupt();
    accumulates |= accessed == array;
    if (access.isWrite() && llvm::is_contained(reads, accessed))
      return WalkResult::interrupt();
    return WalkResult::advance();
  });
  if (walk.wasInterrupted() || !accumulates)
    return {};
  return init;
}

/// Whether `init`'s body reads `array`.
static bool reads(DomainOp init, Value array) {
  return llvm::any_of(init.getBodyBlock()->getOps<GatherOp>(),
                      [&](GatherOp g) { return g.getArray() == array; });
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
    if (boundary == BoundaryStrategy::Guarded) {
      uint64_t ops = emitter.estimateClonedOps(1);
      if (ops <= maxGatherOps)
        return BoundaryStrategy::Guarded;
      domain.emitOpError()
          << "has a guarded gather form that would clone about " << ops
          << " body ops, more than max-gather-ops=" << maxGatherOps
          << "; --stencil-cut-shared (the pipeline's `cut`) stores the "
             "values its statements share";
      return failure();
    }
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
        << "; a nonlinear body grows with the square of the number of taps "
           "unless --stencil-cut-shared (the pipeline's `cut`) first stores "
           "the values its statements share. Lower it with a smaller "
           "cut-min-gain, with scatter=serial or scatter=atomic, or raise "
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
    for (DomainOp domain : getScatterDomains(getOperation())) {
      // Reductions are not scatters: they go to a domain of their own (as
      // --stencil-split-reductions does), which the lowering sums.
      splitReductionsOut(rewriter, domain);
      if (failed(checkBoundsAreAffineSymbols(domain)))
        return signalPassFailure();
      // Constant extents choose the nests: fold constant operands first.
      domain.foldConstantBounds();
      DomainOp writes = splitDomainResults(rewriter, domain);
      rewriter.setInsertionPoint(writes);
      DomainOp init = fuseInit ? matchFusableInit(writes) : DomainOp();
      if (!writes.isRectangular()) {
        // Polyhedral pieces; the output's reset stays a domain of its own.
        PolyGatherOptions options{boundary, maxExactNests, maxGatherOps,
                                  reportNests};
        if (failed(convertNonrectangular(rewriter, writes, init, options)))
          return signalPassFailure();
        continue;
      }
      GatherEmitter emitter(writes, init);
      std::optional<FusableReset> reset;
      if (fuseReset)
        reset = matchFusableReset(writes);
      if (reset && init && reads(init, reset->array))
        reset.reset();
      // Read only at offset zero (e.g. after a cut): each point resets its
      // own element, a statement like the others.
      bool pointReset =
          reset && emitter.appendPointReset(reset->domain, reset->array);
      FailureOr<BoundaryStrategy> strategy = chooseStrategy(writes, emitter);
      if (failed(strategy))
        return signalPassFailure();
      GatherPlan plan =
          planGather(emitter.getOffsets(), writes.getRank(), *strategy);
      planSplitSlabs(plan, splitSlabs, maxSplitStatements);
      if (reset && !pointReset &&
          !planFusedReset(plan, emitter.getOffsets(), resetBlock, resetRows))
        reset.reset();
      planOuterLoop(plan, oneOuterLoop);
      planPeeledPoints(plan, emitter.getOffsets(), peelInnermost, peelOuter,
                       kMaxPeeledSpan, maxSplitStatements, kMaxPeeledBodies);
      emitNonEmptyGuard(rewriter, writes.getLoc(), getDomainBounds(writes));
      if (reset && !pointReset)
        emitter.emit(rewriter, plan, reset->array, reset->value);
      else
        emitter.emit(rewriter, plan);
      if (reportNests)
        reportPlan(writes, plan);
      if (reset)
        rewriter.eraseOp(reset->domain);
      if (init)
        rewriter.eraseOp(init);
      rewriter.eraseOp(writes);
    }
  }
};
} // namespace
