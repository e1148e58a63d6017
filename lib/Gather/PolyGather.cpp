//===- PolyGather.cpp - Gather form of nonrectangular domains --*- C++ -*-===//
//
// This file implements the gather conversion of nonrectangular scatter
// domains (PolyGather.h): the polyhedral plan of PolyPlan.h, then each of
// its pieces as an affine nest whose outermost dimension is parallel,
// running the statements valid there (guarded where a piece of the compact
// form holds only part of a statement's valid points).
//
//===----------------------------------------------------------------------===//

#include "PolyGather.h"
#include "GatherEmitter.h"
#include "PolyPlan.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/IR/IntegerSet.h"

using namespace mlir;
using namespace mlir::stencil;

/// The bounds of `domain` as the planner takes them.
static PolyDomain getPolyDomain(DomainOp domain) {
  PolyDomain result;
  result.rank = domain.getRank();
  result.numSymbols = domain.getBoundOperands().size();
  for (unsigned k = 0; k < result.rank; ++k) {
    result.lower.push_back(
        llvm::to_vector(domain.getLowerBoundMap(k).getResults()));
    result.upper.push_back(
        llvm::to_vector(domain.getUpperBoundMap(k).getResults()));
  }
  return result;
}

IntegerSet GatherEmitter::getShiftedDomainSet(unsigned s) const {
  // valid_s(q): q - o_s lies in the domain.
  MLIRContext *ctx = bounds.lower.front().getContext();
  SmallVector<AffineExpr> shifted;
  for (unsigned k = 0; k < rank; ++k)
    shifted.push_back(getAffineDimExpr(k, ctx) - stmts[s].offset[k]);
  SmallVector<AffineExpr> constraints;
  for (unsigned k = 0; k < rank; ++k) {
    for (AffineExpr lower : bounds.lower[k].getResults())
      constraints.push_back(shifted[k] - lower.replaceDims(shifted));
    for (AffineExpr upper : bounds.upper[k].getResults())
      constraints.push_back(upper.replaceDims(shifted) - shifted[k] - 1);
  }
  return IntegerSet::get(rank, bounds.operands.size(), constraints,
                         SmallVector<bool>(constraints.size(), false));
}

void GatherEmitter::emitPoly(OpBuilder &builder, const PolyGatherPlan &plan) {
  Location loc = domain.getLoc();
  MLIRContext *ctx = builder.getContext();
  unsigned numSymbols = bounds.operands.size();
  for (const PolyPiece &piece : plan.pieces) {
    OpBuilder::InsertionGuard guard(builder);
    if (!piece.conditions.empty()) {
      auto set = IntegerSet::get(
          0, numSymbols, piece.conditions,
          SmallVector<bool>(piece.conditions.size(), false));
      auto check = affine::AffineIfOp::create(builder, loc, set,
                                              bounds.operands,
                                              /*withElseRegion=*/false);
      builder.setInsertionPointToStart(check.getThenBlock());
    }
    NestBounds nest;
    nest.operands = bounds.operands;
    for (auto [k, range] : llvm::enumerate(piece.ranges)) {
      nest.lower.push_back(AffineMap::get(k, numSymbols, range.lower, ctx));
      nest.upper.push_back(AffineMap::get(k, numSymbols, range.upper, ctx));
    }
    // Distinct points of a piece write distinct elements, and the pieces
    // are disjoint: the outer loop is parallel.
    buildLoopNest(builder, loc, nest, /*parallel=*/true,
                  [&](OpBuilder &b, Location, ValueRange ivs) {
                    if (piece.guarded.empty()) {
                      emitFusedBody(b, ivs, piece.statements);
                      return;
                    }
                    for (unsigned s : piece.statements)
                      if (!llvm::is_contained(piece.guarded, s))
                        alwaysValid.insert(s);
                    emitGuardedSums(b, ivs, piece.statements,
                                    /*firstGuarded=*/0);
                    alwaysValid.clear();
                  });
  }
}

/// The `report-nests` remarks of a nonrectangular domain: the pieces in
/// words, and the plan as JSON.
static void reportPlan(DomainOp domain, const PolyGatherPlan &plan) {
  unsigned guarded = llvm::count_if(plan.pieces, [](const PolyPiece &piece) {
    return !piece.guarded.empty();
  });
  domain.emitRemark() << "gather form: " << plan.pieces.size()
                      << " polyhedral pieces (" << guarded
                      << " with guarded statements)";
  std::string json;
  llvm::raw_string_ostream os(json);
  plan.printJSON(os);
  domain.emitRemark() << "gather plan: " << json;
}

LogicalResult mlir::stencil::convertNonrectangular(
    RewriterBase &rewriter, DomainOp writes, DomainOp init,
    const PolyGatherOptions &options) {
  if (options.boundary == BoundaryStrategy::Guarded)
    return writes.requireRectangular(
        "boundary=guarded (the GPU form of the gather conversion)");
  GatherEmitter emitter(writes, init);
  std::string whyNot;
  FailureOr<PolyGatherPlan> plan = planPolyGather(
      getPolyDomain(writes), emitter.getOffsets(),
      options.boundary == BoundaryStrategy::Exact, options.maxPieces, whyNot);
  if (failed(plan))
    return writes.emitOpError()
           << "has no polyhedral gather form: " << whyNot;
  if (plan->exactFellBack)
    writes.emitRemark() << "boundary=exact would split this domain into "
                           "more than max-exact-nests="
                        << options.maxPieces
                        << " pieces; using boundary=compact ("
                        << plan->pieces.size() << " pieces)";
  uint64_t ops = emitter.estimateClonedOps(plan->pieces.size());
  if (ops > options.maxGatherOps)
    return writes.emitOpError()
           << "has a gather form that would clone about " << ops
           << " body ops (" << plan->pieces.size()
           << " polyhedral pieces, each recomputing its statements), more "
              "than max-gather-ops="
           << options.maxGatherOps
           << "; lower it with scatter=serial or scatter=atomic, or raise "
              "max-gather-ops";
  if (options.report)
    reportPlan(writes, *plan);
  emitNonEmptyGuard(rewriter, writes.getLoc(), getDomainBounds(writes));
  emitter.emitPoly(rewriter, *plan);
  if (init)
    rewriter.eraseOp(init);
  rewriter.eraseOp(writes);
  return success();
}
