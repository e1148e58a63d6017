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
#include "mlir/Interfaces/SideEffectInterfaces.h"
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

/// The arrays `domain` reads and those it writes.
static void collectArrays(DomainOp domain, llvm::SmallPtrSetImpl<Value> &reads,
                          llvm::SmallPtrSetImpl<Value> &writes) {
  domain.getBody().walk([&](AccessOpInterface access) {
    (access.isWrite() ? writes : reads).insert(access.getAccessedArray());
  });
}

/// Moves `reductions`, just created before its scatter domain, above the
/// domain before that one too if they are independent and everything the
/// reductions use is defined above it: the scatter domain then stays next
/// to a first contribution before it and to the reset after it, which the
/// gather form fuses into its sweep.
static void hoistPastPrevious(DomainOp reductions) {
  Operation *op = reductions->getPrevNode();
  while (op && !isa<DomainOp>(op) && isMemoryEffectFree(op))
    op = op->getPrevNode();
  auto previous = dyn_cast_or_null<DomainOp>(op);
  if (!previous)
    return;
  llvm::SmallPtrSet<Value, 8> reads, writes, prevReads, prevWrites;
  collectArrays(reductions, reads, writes);
  collectArrays(previous, prevReads, prevWrites);
  for (Value array : prevWrites)
    if (reads.contains(array) || writes.contains(array))
      return;
  for (Value array : prevReads)
    if (writes.contains(array))
      return;
  llvm::SetVector<Value> used;
  getUsedValuesDefinedAbove(reductions.getBody(), used);
  used.insert(reductions.getBoundOperands().begin(),
              reductions.getBoundOperands().end());
  for (Value value : used) {
    Operation *def = value.getDefiningOp();
    if (def && def->getBlock() == previous->getBlock() &&
        !def->isBeforeInBlock(previous))
      return;
  }
  reductions->moveBefore(previous);
}

/// Moves the reductions of `domain` into a new domain before it.
static void splitReductions(RewriterBase &rewriter, DomainOp domain) {
  rewriter.setInsertionPoint(domain);
  auto reductions =
      DomainOp::create(rewriter, domain.getLoc(), domain,
                       domain.getBoundOperands());
  IRMapping mapping;
  mapping.map(domain.getInductionVars(), reductions.getInductionVars());
  rewriter.setInsertionPoint(reductions.getYield());
  for (Operation &op : domain.getBodyBlock()->without_terminator()) {
    if (isPermutationWrite(op))
      continue;
    rewriter.clone(op, mapping);
  }
  for (Operation &op :
       llvm::make_early_inc_range(domain.getBodyBlock()->without_terminator()))
    if (isReductionOp(op))
      rewriter.eraseOp(&op);
  eraseDeadBodyOps(rewriter, domain);
  eraseDeadBodyOps(rewriter, reductions);
  // A distributed function's reductions are taken across ranks like its
  // results: the mark goes with them, and stays on the
  // domain only if it still has results.
  if (std::optional<DistributedSum> sum = getDistributedSum(domain)) {
    setDistributedSum(reductions, *sum);
    if (domain.getNumResults() == 0)
      domain->removeAttr(
          StencilDialect::DistributedSumAttrHelper::getNameStr());
  }
  hoistPastPrevious(reductions);
}

bool mlir::stencil::splitReductionsOut(RewriterBase &rewriter,
                                       DomainOp domain) {
  Block *body = domain.getBodyBlock();
  bool reduces = llvm::any_of(*body, isReductionOp);
  bool other = domain.getNumResults() != 0 ||
               llvm::any_of(*body, isPermutationWrite);
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
