//===- ShadowHandOver.cpp - Resets the rotation makes unnecessary -*- C++ -*-===//
//
// A step's adjoint zeroes the shadow of the array the step assigns (`next`
// of a leapfrog) after reading it; the reversed rotation then hands that
// shadow to another array (`prev`), whose shadow the step before only
// accumulates into, at the centre, over the same points. Between those two
// steps the zeros are written and read back for nothing: in the steps
// where the shadow handed over needs not keep what it holds, the
// accumulate can be a store and the reset can go (one read and one write
// of a shadow per step fewer). The plan finds such hand-overs; the steady
// variant of the step's adjoint and the function that resets alone are
// built from it (TimeLoopAdjoint.cpp chooses between them per step).
//
//===----------------------------------------------------------------------===//

#include "TimeLoopPlan.h"

#include "Stencil/Dialect/StencilOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/SymbolTable.h"

using namespace mlir;
using namespace mlir::stencil;
using namespace mlir::stencil::ad;

/// The store of +0.0 into `shadow` by a top-level domain of `func` that
/// nothing after it uses `shadow` in, if any.
static StoreOp findReset(func::FuncOp func, Value shadow) {
  for (Operation *user : shadow.getUsers()) {
    auto store = dyn_cast<StoreOp>(user);
    auto domain = store ? dyn_cast<DomainOp>(store->getParentOp()) : nullptr;
    if (!domain || domain->getParentOp() != func.getOperation() ||
        !matchPattern(store.getValue(), m_PosZeroFloat()))
      continue;
    bool usedAfter = llvm::any_of(shadow.getUsers(), [&](Operation *other) {
      Operation *top = func.getBody().front().findAncestorOpInBlock(*other);
      return top && domain->isBeforeInBlock(top);
    });
    if (!usedAfter)
      return store;
  }
  return nullptr;
}

/// The one use of `shadow` in `func` if it is an accumulate at the centre
/// in a top-level domain.
static AccumulateOp findSoleCentreAccumulate(func::FuncOp func,
                                             Value shadow) {
  if (!shadow.hasOneUse())
    return nullptr;
  auto acc = dyn_cast<AccumulateOp>(*shadow.getUsers().begin());
  if (!acc || acc.isScatter() || !isa<DomainOp>(acc->getParentOp()) ||
      acc->getParentOp()->getParentOp() != func.getOperation())
    return nullptr;
  return acc;
}

/// Whether the domains of `a` and `b` run over the same points.
static bool sameDomain(Operation *a, Operation *b) {
  auto da = cast<DomainOp>(a->getParentOp());
  auto db = cast<DomainOp>(b->getParentOp());
  return da.getLowerBounds() == db.getLowerBounds() &&
         da.getUpperBounds() == db.getUpperBounds() &&
         da.getBoundOperands() == db.getBoundOperands();
}

SmallVector<ShadowHandOver>
mlir::stencil::ad::planShadowHandOvers(func::FuncOp stepAdjoint,
                                       ArrayRef<BlockArgument> shadows,
                                       ArrayRef<unsigned> handedTo) {
  SmallVector<ShadowHandOver> plan;
  for (auto [from, to] : llvm::enumerate(handedTo)) {
    if (to == from)
      continue;
    StoreOp reset = findReset(stepAdjoint, shadows[from]);
    AccumulateOp acc = findSoleCentreAccumulate(stepAdjoint, shadows[to]);
    if (!reset || !acc || !sameDomain(reset, acc) ||
        reset.getDimsAttr() != acc.getDimsAttr())
      continue;
    plan.push_back({unsigned(from), to, reset, acc});
  }
  return plan;
}

/// Creates an empty private function like `like`, named `name`, after it.
static func::FuncOp createLike(func::FuncOp like, StringRef name,
                               TypeRange results) {
  OpBuilder builder(like);
  builder.setInsertionPointAfter(like);
  auto func = func::FuncOp::create(
      builder, like.getLoc(), name,
      builder.getFunctionType(like.getArgumentTypes(), results));
  func.setPrivate();
  func->setDiscardableAttrs(like->getDiscardableAttrDictionary());
  return func;
}

func::FuncOp
mlir::stencil::ad::createSteadyStepAdjoint(func::FuncOp stepAdjoint,
                                           ArrayRef<ShadowHandOver> plan,
                                           StringRef name) {
  func::FuncOp steady =
      createLike(stepAdjoint, name, stepAdjoint.getResultTypes());
  IRMapping mapping;
  stepAdjoint.getBody().cloneInto(&steady.getBody(), mapping);
  for (ShadowHandOver handOver : plan) {
    // The shadow handed over is overwritten, not added to.
    auto acc = cast<AccumulateOp>(
        mapping.lookup(handOver.accumulate.getOperation()));
    OpBuilder builder(acc);
    StoreOp::create(builder, acc.getLoc(), acc.getValue(), acc.getArray(),
                    acc.getDimsAttr());
    acc.erase();
    // The shadow that is handed over is not reset.
    Operation *reset = mapping.lookup(handOver.reset.getOperation());
    auto domain = cast<DomainOp>(reset->getParentOp());
    reset->erase();
    if (domain.getBody().getOps<StoreOp>().empty() &&
        domain.getBody().getOps<AccumulateOp>().empty())
      domain.erase();
  }
  return steady;
}

/// Clones into `builder`'s block the top-level ops of `func` that `op` (a
/// top-level op) uses, with their own, then `op`.
static void cloneWithDefinitions(OpBuilder &builder, func::FuncOp func,
                                 Operation *op, IRMapping &mapping) {
  if (mapping.contains(op))
    return;
  op->walk([&](Operation *nested) {
    for (Value operand : nested->getOperands()) {
      Operation *def = operand.getDefiningOp();
      if (def && def->getParentOp() == func.getOperation())
        cloneWithDefinitions(builder, func, def, mapping);
    }
  });
  builder.clone(*op, mapping);
}

func::FuncOp
mlir::stencil::ad::createHandOverReset(func::FuncOp stepAdjoint,
                                       ArrayRef<ShadowHandOver> plan,
                                       StringRef name) {
  func::FuncOp resets = createLike(stepAdjoint, name, {});
  Block *entry = resets.addEntryBlock();
  IRMapping mapping;
  mapping.map(stepAdjoint.getArguments(), entry->getArguments());
  OpBuilder builder = OpBuilder::atBlockEnd(entry);
  llvm::SmallPtrSet<Operation *, 4> kept;
  for (ShadowHandOver handOver : plan)
    kept.insert(handOver.reset);
  for (ShadowHandOver handOver : plan) {
    auto domain = cast<DomainOp>(handOver.reset->getParentOp());
    if (mapping.contains(domain))
      continue;
    cloneWithDefinitions(builder, stepAdjoint, domain, mapping);
    // Only the stores of the plan: the domain may reset other shadows.
    for (StoreOp store : domain.getBody().getOps<StoreOp>())
      if (!kept.contains(store))
        mapping.lookup(store.getOperation())->erase();
  }
  func::ReturnOp::create(builder, stepAdjoint.getLoc());
  return resets;
}
