//===- SplitReductions.cpp - Reductions into domains of their own -*- C++ -*-===//
//
// This file implements --stencil-split-reductions: a domain that writes
// through a permutation and also reduces (an accumulate whose `dims` is not
// a permutation) becomes two domains with the same bounds, one with the
// permutation writes and results, one with the reductions.
//
//===----------------------------------------------------------------------===//

#include "SplitReductions.h"
#include "Stencil/Gather/Passes.h"

#include "mlir/IR/IRMapping.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Transforms/RegionUtils.h"

namespace mlir::stencil {
#define GEN_PASS_DEF_STENCILSPLITREDUCTIONSPASS
#include "Stencil/Gather/Passes.h.inc"
} // namespace mlir::stencil

using namespace mlir;
using namespace mlir::stencil;

/// Whether `op` is a reduction (an accumulate through a non-permutation).
static bool isReductionOp(Operation &op) {
  auto acc = dyn_cast<AccumulateOp>(op);
  return acc && acc.isReduction();
}

/// Erases the ops of `domain`'s body that nothing uses and that only read.
static void eraseDeadOps(RewriterBase &rewriter, DomainOp domain) {
  Block *body = domain.getBodyBlock();
  for (Operation &op : llvm::make_early_inc_range(llvm::reverse(*body)))
    if (isOpTriviallyDead(&op))
      rewriter.eraseOp(&op);
}

/// Moves the reductions of `domain` into a new domain right after it.
static void splitReductions(RewriterBase &rewriter, DomainOp domain) {
  rewriter.setInsertionPointAfter(domain);
  auto reductions =
      DomainOp::create(rewriter, domain.getLoc(), domain.getLowerBounds(),
                       domain.getUpperBounds(), domain.getBoundOperands());
  IRMapping mapping;
  mapping.map(domain.getInductionVars(), reductions.getInductionVars());
  rewriter.setInsertionPoint(reductions.getYield());
  for (Operation &op : domain.getBodyBlock()->without_terminator()) {
    auto access = dyn_cast<AccessOpInterface>(op);
    if (access && access.isWrite() && !isReductionOp(op))
      continue;
    rewriter.clone(op, mapping);
  }
  for (Operation &op :
       llvm::make_early_inc_range(domain.getBodyBlock()->without_terminator()))
    if (isReductionOp(op))
      rewriter.eraseOp(&op);
  eraseDeadOps(rewriter, domain);
  eraseDeadOps(rewriter, reductions);
}

bool mlir::stencil::splitReductionsOut(RewriterBase &rewriter,
                                       DomainOp domain) {
  Block *body = domain.getBodyBlock();
  bool reduces = llvm::any_of(*body, isReductionOp);
  bool other = domain.getNumResults() != 0 ||
               llvm::any_of(*body, [](Operation &op) {
                 auto access = dyn_cast<AccessOpInterface>(op);
                 return access && access.isWrite() && !isReductionOp(op);
               });
  if (!reduces || !other)
    return false;
  splitReductions(rewriter, domain);
  return true;
}

namespace {
struct StencilSplitReductionsPass
    : public mlir::stencil::impl::StencilSplitReductionsPassBase<
          StencilSplitReductionsPass> {
  void runOnOperation() override {
    SmallVector<DomainOp> domains;
    getOperation()->walk([&](DomainOp domain) { domains.push_back(domain); });
    IRRewriter rewriter(&getContext());
    for (DomainOp domain : domains)
      splitReductionsOut(rewriter, domain);
  }
};
} // namespace
