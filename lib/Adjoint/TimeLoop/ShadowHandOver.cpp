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
// Where the value stored depends on the handed-over shadow alone (`-next_b`
// of a leapfrog), even that store can go: the shadow it reads is left as it
// is, so the next step reversed, to which the rotation hands both, computes
// the value itself as the first contribution to the shadow it updates. The
// gather conversion fuses that first store into the update's sweep
// (ScatterToGather.cpp), so a reversed step writes one shadow, not two.
//
//===----------------------------------------------------------------------===//

#include "TimeLoopBindings.h"
#include "TimeLoopEmitter.h"

#include "Stencil/Dialect/StencilOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

using namespace mlir;
using namespace mlir::stencil;
using namespace mlir::stencil::ad;

namespace {
/// A hand-over with its ops, as the functions below work on it.
struct ShadowHandOver {
  unsigned from, to;
  StoreOp reset;
  AccumulateOp accumulate;
  bool deferred = false;
  unsigned fromArg = 0, toArg = 0, receiverArg = 0;
};
} // namespace

/// The hand-overs of `plan` with their `ops` (same index).
static SmallVector<ShadowHandOver> join(ArrayRef<HandOverPlan> plan,
                                        ArrayRef<HandOverOps> ops) {
  SmallVector<ShadowHandOver> joined;
  for (auto [h, o] : llvm::zip_equal(plan, ops))
    joined.push_back({h.from, h.to, o.reset, o.accumulate, h.deferred,
                      h.fromArg, h.toArg, h.receiverArg});
  return joined;
}

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
/// in a top-level domain (neither a scatter nor a reduction, which sums
/// several points into one element).
static AccumulateOp findSoleCentreAccumulate(func::FuncOp func,
                                             Value shadow) {
  if (!shadow.hasOneUse())
    return nullptr;
  auto acc = dyn_cast<AccumulateOp>(*shadow.getUsers().begin());
  if (!acc || acc.isScatter() || acc.isReduction() || !isa<DomainOp>(acc->getParentOp()) ||
      acc->getParentOp()->getParentOp() != func.getOperation())
    return nullptr;
  return acc;
}

/// Whether the domains of `a` and `b` run over the same points.
static bool sameDomain(Operation *a, Operation *b) {
  return cast<DomainOp>(a->getParentOp())
      .hasSameBounds(cast<DomainOp>(b->getParentOp()));
}

/// Whether `value`, used in `domain`'s body, depends only on the domain's
/// points, constants and gathers of `source`.
static bool dependsOnlyOn(DomainOp domain, Value value, Value source) {
  SmallVector<Value> worklist{value};
  llvm::SmallPtrSet<Operation *, 16> seen;
  while (!worklist.empty()) {
    Value v = worklist.pop_back_val();
    if (auto arg = dyn_cast<BlockArgument>(v)) {
      if (arg.getOwner() != domain.getBodyBlock())
        return false;
      continue;
    }
    Operation *def = v.getDefiningOp();
    if (!seen.insert(def).second)
      continue;
    if (!domain->isProperAncestor(def)) {
      if (!matchPattern(v, m_Constant()))
        return false;
      continue;
    }
    if (auto gather = dyn_cast<GatherOp>(def)) {
      if (gather.getArray() != source)
        return false;
      continue;
    }
    if (def->getNumRegions() != 0 || !isMemoryEffectFree(def))
      return false;
    llvm::append_range(worklist, def->getOperands());
  }
  return true;
}

/// Whether the bounds of `domain`, at the top level of `func`, are the same
/// in every step: computed without memory reads from constants and index
/// arguments other than those of `perStep`.
static bool hasStepInvariantBounds(func::FuncOp func, DomainOp domain,
                                   ArrayRef<BlockArgument> perStep) {
  SmallVector<Value> worklist(domain.getBoundOperands());
  while (!worklist.empty()) {
    Value v = worklist.pop_back_val();
    if (auto arg = dyn_cast<BlockArgument>(v)) {
      if (llvm::is_contained(perStep, arg) || !arg.getType().isIndex() ||
          arg.getOwner() != &func.getBody().front())
        return false;
      continue;
    }
    Operation *def = v.getDefiningOp();
    if (def->getParentOp() != func.getOperation() ||
        def->getNumRegions() != 0 || !isMemoryEffectFree(def))
      return false;
    llvm::append_range(worklist, def->getOperands());
  }
  return true;
}

/// Marks the hand-overs whose value the next step reversed can compute: it
/// depends on the shadow handed over alone, over step-invariant bounds, and
/// the shadow it then goes to plays no other part in a hand-over.
static void planDeferrals(func::FuncOp stepAdjoint,
                          MutableArrayRef<ShadowHandOver> plan,
                          ArrayRef<BlockArgument> perStep) {
  llvm::SmallDenseSet<unsigned> involved;
  for (const ShadowHandOver &h : plan) {
    involved.insert(h.fromArg);
    involved.insert(h.toArg);
  }
  Block &entry = stepAdjoint.getBody().front();
  for (ShadowHandOver &h : plan) {
    auto domain = cast<DomainOp>(h.accumulate->getParentOp());
    h.deferred = !involved.contains(h.receiverArg) &&
                 dependsOnlyOn(domain, h.accumulate.getValue(),
                               entry.getArgument(h.fromArg)) &&
                 hasStepInvariantBounds(stepAdjoint, domain, perStep);
  }
}

void mlir::stencil::ad::planShadowHandOvers(
    func::FuncOp stepAdjoint, ArrayRef<BlockArgument> shadows,
    ArrayRef<unsigned> handedTo, ArrayRef<BlockArgument> perStep,
    SmallVectorImpl<HandOverPlan> &planned, SmallVectorImpl<HandOverOps> &ops) {
  SmallVector<ShadowHandOver> plan;
  for (auto [from, to] : llvm::enumerate(handedTo)) {
    if (to == from)
      continue;
    StoreOp reset = findReset(stepAdjoint, shadows[from]);
    AccumulateOp acc = findSoleCentreAccumulate(stepAdjoint, shadows[to]);
    if (!reset || !acc || !sameDomain(reset, acc) ||
        reset.getDimsAttr() != acc.getDimsAttr())
      continue;
    ShadowHandOver h{unsigned(from), to, reset, acc};
    h.fromArg = shadows[from].getArgNumber();
    h.toArg = shadows[to].getArgNumber();
    h.receiverArg = shadows[handedTo[to]].getArgNumber();
    plan.push_back(h);
  }
  planDeferrals(stepAdjoint, plan, perStep);
  for (const ShadowHandOver &h : plan) {
    planned.push_back(
        {h.from, h.to, h.deferred, h.fromArg, h.toArg, h.receiverArg});
    ops.push_back({h.reset, h.accumulate});
  }
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

/// Erases the ops of `block` that nothing uses and that only read memory,
/// last to first.
static void eraseDeadOps(Block &block) {
  Operation *op = block.mightHaveTerminator() ? block.getTerminator()
                                              : nullptr;
  op = op ? op->getPrevNode() : (block.empty() ? nullptr : &block.back());
  while (op) {
    Operation *prev = op->getPrevNode();
    if (op->use_empty() && wouldOpBeTriviallyDead(op))
      op->erase();
    op = prev;
  }
}

/// Clones, at `builder`'s insertion point in `func`, the domain of
/// `handOver`'s accumulate (with the top-level ops it uses) reduced to that
/// one write, turned into a store into `target`. `mapping` maps `func`'s
/// arguments as the copy is to see them.
static void cloneHandOverStore(OpBuilder &builder, func::FuncOp func,
                               const ShadowHandOver &handOver, Value target,
                               IRMapping &mapping) {
  AccumulateOp acc = handOver.accumulate;
  Operation *domain = acc->getParentOp();
  cloneWithDefinitions(builder, func, domain, mapping);
  auto copy = cast<DomainOp>(mapping.lookup(domain));
  auto accCopy = cast<AccumulateOp>(mapping.lookup(acc.getOperation()));
  for (Operation &op : llvm::make_early_inc_range(*copy.getBodyBlock())) {
    auto access = dyn_cast<AccessOpInterface>(op);
    if (access && access.isWrite() && &op != accCopy.getOperation())
      op.erase();
  }
  OpBuilder inBody(accCopy);
  StoreOp::create(inBody, accCopy.getLoc(), accCopy.getValue(), target,
                  accCopy.getDimsAttr());
  accCopy.erase();
  eraseDeadOps(*copy.getBodyBlock());
}

/// In `steady`, a copy of the step's adjoint: stores, before anything uses
/// the receiver's shadow, the value `handOver` deferred in the step reversed
/// before, computed from the shadow it left in `to`'s place.
static void emitReceive(func::FuncOp steady, const ShadowHandOver &handOver) {
  Block &entry = steady.getBody().front();
  BlockArgument receiver = entry.getArgument(handOver.receiverArg);
  Operation *firstUse = entry.getTerminator();
  for (Operation *user : receiver.getUsers()) {
    Operation *top = entry.findAncestorOpInBlock(*user);
    if (top->isBeforeInBlock(firstUse))
      firstUse = top;
  }
  OpBuilder builder(firstUse);
  IRMapping mapping;
  mapping.map(entry.getArgument(handOver.fromArg),
              entry.getArgument(handOver.toArg));
  cloneHandOverStore(builder, steady, handOver, receiver, mapping);
}

func::FuncOp mlir::stencil::ad::createSteadyStepAdjoint(
    func::FuncOp stepAdjoint, ArrayRef<HandOverPlan> planned,
    ArrayRef<HandOverOps> ops, StringRef name, bool receive) {
  SmallVector<ShadowHandOver> plan = join(planned, ops);
  func::FuncOp steady =
      createLike(stepAdjoint, name, stepAdjoint.getResultTypes());
  IRMapping mapping;
  stepAdjoint.getBody().cloneInto(&steady.getBody(), mapping);
  for (ShadowHandOver handOver : plan) {
    auto acc = cast<AccumulateOp>(
        mapping.lookup(handOver.accumulate.getOperation()));
    if (handOver.deferred) {
      // The next step reversed computes the value (emitReceive).
      if (receive) {
        handOver.accumulate = acc;
        emitReceive(steady, handOver);
      }
      acc.erase();
    } else {
      // The shadow handed over is overwritten, not added to.
      OpBuilder builder(acc);
      StoreOp::create(builder, acc.getLoc(), acc.getValue(), acc.getArray(),
                      acc.getDimsAttr());
      acc.erase();
    }
    // The shadow that is handed over is not reset.
    Operation *reset = mapping.lookup(handOver.reset.getOperation());
    auto domain = cast<DomainOp>(reset->getParentOp());
    reset->erase();
    if (domain.getBody().getOps<StoreOp>().empty() &&
        domain.getBody().getOps<AccumulateOp>().empty())
      domain.erase();
  }
  for (Operation &op : steady.getBody().front().without_terminator())
    if (auto domain = dyn_cast<DomainOp>(op))
      eraseDeadOps(*domain.getBodyBlock());
  return steady;
}

func::FuncOp mlir::stencil::ad::createHandOverFlush(
    func::FuncOp stepAdjoint, ArrayRef<HandOverPlan> planned,
    ArrayRef<HandOverOps> ops, StringRef name) {
  SmallVector<ShadowHandOver> plan = join(planned, ops);
  func::FuncOp flush = createLike(stepAdjoint, name, {});
  Block *entry = flush.addEntryBlock();
  OpBuilder builder = OpBuilder::atBlockEnd(entry);
  for (const ShadowHandOver &handOver : plan) {
    if (!handOver.deferred)
      continue;
    IRMapping mapping;
    mapping.map(stepAdjoint.getArguments(), entry->getArguments());
    cloneHandOverStore(builder, stepAdjoint, handOver,
                       entry->getArgument(handOver.toArg), mapping);
  }
  func::ReturnOp::create(builder, stepAdjoint.getLoc());
  return flush;
}

func::FuncOp mlir::stencil::ad::createHandOverReset(
    func::FuncOp stepAdjoint, ArrayRef<HandOverPlan> planned,
    ArrayRef<HandOverOps> ops, StringRef name) {
  SmallVector<ShadowHandOver> plan = join(planned, ops);
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
