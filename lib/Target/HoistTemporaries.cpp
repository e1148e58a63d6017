//===- HoistTemporaries.cpp - Temporaries of called functions, once -------===//
//
// This file implements --stencil-hoist-temporaries. A private function that
// allocates a temporary array for the length of each call (the cut's arrays
// in the step functions of a reversed time loop) takes it as an argument
// instead; a caller that calls it inside loops allocates it once, before the
// outermost loop its sizes allow leaving, and frees it after. Each call
// checks that the buffer has the sizes the callee would have allocated and
// allocates for itself otherwise, so the result never depends on the sizes
// staying the same from one iteration to the next.
//
// The pass first computes a plain plan (HoistPlan: which temporaries, and
// where each call's buffers live), then rewrites the IR from it.
//
//===----------------------------------------------------------------------===//

#include "Stencil/Target/Passes.h"
#include "Stencil/Dialect/StencilDialect.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

namespace mlir::stencil {
#define GEN_PASS_DEF_STENCILHOISTTEMPORARIESPASS
#include "Stencil/Target/Passes.h.inc"
} // namespace mlir::stencil

using namespace mlir;
using namespace mlir::stencil;

namespace {
/// A temporary of a private function: allocated and freed in its entry
/// block, used in between only by accesses that cannot let it escape.
struct Temporary {
  memref::AllocOp alloc;
  memref::DeallocOp dealloc;
  /// The ops that compute its sizes from the function's arguments and
  /// constants, in the order of the block.
  SmallVector<Operation *> sizeOps;
};

/// A private function whose temporaries its callers provide.
struct CalleePlan {
  func::FuncOp callee;
  SmallVector<Temporary> temporaries;
  /// The arguments the sizes of the temporaries are computed from.
  llvm::SmallSetVector<unsigned, 4> sizeArgs;
};

/// Where one call's buffers live: allocated before `anchor` and freed after
/// it. The anchor is the outermost loop around the call that the sizes
/// allow leaving.
struct CallPlan {
  func::CallOp call;
  unsigned callee; ///< Index into HoistPlan::callees.
  Operation *anchor = nullptr;
  /// What the callee's `sizeArgs` are before the anchor, in their order.
  SmallVector<Value> sizeArgsAtAnchor;
};

struct HoistPlan {
  SmallVector<CalleePlan> callees;
  SmallVector<CallPlan> calls;
};
} // namespace

//===----------------------------------------------------------------------===//
// The plan
//===----------------------------------------------------------------------===//

/// True if `user` accesses the temporary `temp` without letting it escape:
/// the stencil dialect's ops, loads, stores into it, and its extents.
static bool isContainedUse(Operation *user, Value temp) {
  if (isa_and_nonnull<StencilDialect>(user->getDialect()))
    return true;
  if (isa<memref::DimOp, memref::LoadOp, affine::AffineLoadOp>(user))
    return true;
  if (auto store = dyn_cast<memref::StoreOp>(user))
    return store.getValueToStore() != temp;
  if (auto store = dyn_cast<affine::AffineStoreOp>(user))
    return store.getValueToStore() != temp;
  return false;
}

/// Collects into `ops` the ops of `block` that compute `value` from the
/// block's arguments and constants, and into `args` the arguments they
/// read. Fails on anything with side effects or regions.
static LogicalResult collectSizeSlice(Value value, Block *block,
                                      llvm::SetVector<Operation *> &ops,
                                      llvm::SmallSetVector<unsigned, 4> &args) {
  if (auto arg = dyn_cast<BlockArgument>(value)) {
    if (arg.getOwner() != block)
      return failure();
    args.insert(arg.getArgNumber());
    return success();
  }
  Operation *def = value.getDefiningOp();
  if (def->getBlock() != block || def->getNumRegions() != 0 ||
      !isMemoryEffectFree(def))
    return failure();
  for (Value operand : def->getOperands())
    if (failed(collectSizeSlice(operand, block, ops, args)))
      return failure();
  ops.insert(def);
  return success();
}

/// The temporary `alloc` of `entry`, if it is one.
static std::optional<Temporary>
planTemporary(memref::AllocOp alloc, Block *entry,
              llvm::SmallSetVector<unsigned, 4> &sizeArgs) {
  if (alloc->getBlock() != entry || !alloc.getSymbolOperands().empty() ||
      isHostMemory(alloc.getResult()))
    return std::nullopt;
  Temporary temp{alloc, {}, {}};
  for (Operation *user : alloc->getUsers()) {
    if (auto dealloc = dyn_cast<memref::DeallocOp>(user)) {
      if (temp.dealloc || dealloc->getBlock() != entry)
        return std::nullopt;
      temp.dealloc = dealloc;
    } else if (!isContainedUse(user, alloc.getResult())) {
      return std::nullopt;
    }
  }
  if (!temp.dealloc)
    return std::nullopt;
  llvm::SetVector<Operation *> ops;
  llvm::SmallSetVector<unsigned, 4> args;
  for (Value size : alloc.getDynamicSizes())
    if (failed(collectSizeSlice(size, entry, ops, args)))
      return std::nullopt;
  temp.sizeOps.assign(ops.begin(), ops.end());
  llvm::sort(temp.sizeOps, [](Operation *a, Operation *b) {
    return a->isBeforeInBlock(b);
  });
  sizeArgs.insert(args.begin(), args.end());
  return temp;
}

/// The temporaries of `callee`, if it is private and only called.
static std::optional<CalleePlan> planCallee(func::FuncOp callee,
                                            ModuleOp module) {
  if (!callee.isPrivate() || callee.isExternal())
    return std::nullopt;
  std::optional<SymbolTable::UseRange> uses = callee.getSymbolUses(module);
  if (!uses || uses->empty())
    return std::nullopt;
  for (const SymbolTable::SymbolUse &use : *uses)
    if (!isa<func::CallOp>(use.getUser()))
      return std::nullopt;
  CalleePlan plan{callee, {}, {}};
  Block *entry = &callee.getBody().front();
  for (auto alloc : entry->getOps<memref::AllocOp>())
    if (std::optional<Temporary> temp =
            planTemporary(alloc, entry, plan.sizeArgs))
      plan.temporaries.push_back(std::move(*temp));
  if (plan.temporaries.empty())
    return std::nullopt;
  return plan;
}

/// `value` as seen before the loop `loop` (scf.for or scf.while): itself if
/// defined outside it, the initial value of the iter_arg it is, or null.
static Value valueBefore(Value value, Operation *loop) {
  if (!loop->isAncestor(value.getParentRegion()->getParentOp()))
    return value;
  auto arg = dyn_cast<BlockArgument>(value);
  if (!arg || arg.getOwner()->getParentOp() != loop)
    return Value();
  if (auto forOp = dyn_cast<scf::ForOp>(loop)) {
    OpOperand *init = forOp.getTiedLoopInit(arg);
    return init ? init->get() : Value();
  }
  auto whileOp = cast<scf::WhileOp>(loop);
  if (arg.getOwner() == whileOp.getAfterBody()) {
    // What the condition forwards: an argument of the before region?
    Value forwarded =
        whileOp.getConditionOp().getArgs()[arg.getArgNumber()];
    arg = dyn_cast<BlockArgument>(forwarded);
    if (!arg || arg.getOwner() != whileOp.getBeforeBody())
      return Value();
  }
  return whileOp.getInits()[arg.getArgNumber()];
}

/// The outermost loop around `call` out of which the sizes of `callee`'s
/// temporaries can be computed, going up through loops and conditionals.
static std::optional<CallPlan> planCall(func::CallOp call, unsigned index,
                                        CalleePlan &callee) {
  SmallVector<Value> values;
  for (unsigned arg : callee.sizeArgs)
    values.push_back(call.getOperand(arg));
  std::optional<CallPlan> plan;
  Operation *parent = call->getParentOp();
  for (; !isa<func::FuncOp>(parent); parent = parent->getParentOp()) {
    if (isa<scf::IfOp, scf::IndexSwitchOp, scf::ExecuteRegionOp>(parent))
      continue; // Values defined in their regions stop the walk below.
    if (!isa<scf::ForOp, scf::WhileOp>(parent))
      break;
    Operation *loop = parent;
    SmallVector<Value> before;
    for (Value value : values)
      before.push_back(valueBefore(value, loop));
    if (llvm::is_contained(before, Value()))
      break;
    values = before;
    plan = CallPlan{call, index, loop, values};
  }
  return plan;
}

static HoistPlan planHoisting(ModuleOp module) {
  HoistPlan plan;
  for (auto callee : module.getOps<func::FuncOp>())
    if (std::optional<CalleePlan> p = planCallee(callee, module))
      plan.callees.push_back(std::move(*p));
  SmallVector<CalleePlan> hoisted;
  for (CalleePlan &callee : plan.callees) {
    SmallVector<CallPlan> calls;
    std::optional<SymbolTable::UseRange> uses =
        callee.callee.getSymbolUses(module);
    for (const SymbolTable::SymbolUse &use : *uses) {
      auto call = cast<func::CallOp>(use.getUser());
      if (std::optional<CallPlan> p = planCall(call, hoisted.size(), callee))
        calls.push_back(std::move(*p));
      else
        calls.push_back(CallPlan{call, unsigned(hoisted.size()), {}, {}});
    }
    // Only worth it where some call leaves a loop behind.
    if (llvm::none_of(calls, [](const CallPlan &c) { return c.anchor; }))
      continue;
    hoisted.push_back(std::move(callee));
    plan.calls.append(calls.begin(), calls.end());
  }
  plan.callees = std::move(hoisted);
  return plan;
}

//===----------------------------------------------------------------------===//
// The rewrite
//===----------------------------------------------------------------------===//

namespace {
/// The buffers allocated before one anchor, shared by the calls inside it
/// (which run one after the other) where type and sizes agree.
struct AnchorPool {
  SmallVector<Operation *> sizeOps;
  SmallVector<memref::AllocOp> buffers;
};

class HoistEmitter {
public:
  explicit HoistEmitter(MLIRContext *ctx) : rewriter(ctx) {}
  void emit(HoistPlan &plan);

private:
  SmallVector<Value> cloneSizes(Temporary &temp, IRMapping &mapping,
                                AnchorPool *pool);
  memref::AllocOp findOrCreateBuffer(Temporary &temp, CallPlan &call,
                                     CalleePlan &callee,
                                     ArrayRef<memref::AllocOp> taken);
  Value bufferForCall(Temporary &temp, memref::AllocOp buffer,
                      func::CallOp call, CalleePlan &callee,
                      SmallVectorImpl<Value> &fresh);
  void rewriteCall(CallPlan &call, CalleePlan &callee);
  void rewriteCallee(CalleePlan &callee);

  IRRewriter rewriter;
  llvm::DenseMap<Operation *, AnchorPool> pools;
};
} // namespace

/// `temp`'s allocation, with its attributes, of extents `sizes`, at `b`'s
/// insertion point.
static memref::AllocOp cloneAlloc(OpBuilder &b, Temporary &temp,
                                  ValueRange sizes) {
  auto alloc = cast<memref::AllocOp>(b.clone(*temp.alloc));
  alloc.getDynamicSizesMutable().assign(sizes);
  return alloc;
}

/// Clones the sizes of `temp` at the rewriter's insertion point, the
/// callee's arguments as `mapping` says; with `pool`, reuses ops already
/// cloned there.
SmallVector<Value> HoistEmitter::cloneSizes(Temporary &temp,
                                            IRMapping &mapping,
                                            AnchorPool *pool) {
  for (Operation *op : temp.sizeOps) {
    Operation *clone = rewriter.clone(*op, mapping);
    if (!pool)
      continue;
    auto same = llvm::find_if(pool->sizeOps, [&](Operation *earlier) {
      return OperationEquivalence::isEquivalentTo(
          clone, earlier, OperationEquivalence::IgnoreLocations);
    });
    if (same == pool->sizeOps.end()) {
      pool->sizeOps.push_back(clone);
      continue;
    }
    mapping.map(op->getResults(), (*same)->getResults());
    rewriter.eraseOp(clone);
  }
  return llvm::map_to_vector(temp.alloc.getDynamicSizes(),
                             [&](Value v) { return mapping.lookup(v); });
}

/// A buffer before `call.anchor` for `temp`, of its type and sizes, that
/// this call does not use for another temporary (`taken`).
memref::AllocOp
HoistEmitter::findOrCreateBuffer(Temporary &temp, CallPlan &call,
                                 CalleePlan &callee,
                                 ArrayRef<memref::AllocOp> taken) {
  AnchorPool &pool = pools[call.anchor];
  IRMapping mapping;
  for (auto [arg, value] :
       llvm::zip_equal(callee.sizeArgs, call.sizeArgsAtAnchor))
    mapping.map(callee.callee.getArgument(arg), value);
  rewriter.setInsertionPoint(call.anchor);
  SmallVector<Value> sizes = cloneSizes(temp, mapping, &pool);
  for (memref::AllocOp buffer : pool.buffers)
    if (buffer.getType() == temp.alloc.getType() &&
        llvm::equal(buffer.getDynamicSizes(), sizes) &&
        buffer->getAttrDictionary() == temp.alloc->getAttrDictionary() &&
        !llvm::is_contained(taken, buffer))
      return buffer;
  memref::AllocOp buffer = cloneAlloc(rewriter, temp, sizes);
  rewriter.setInsertionPointAfter(call.anchor);
  memref::DeallocOp::create(rewriter, temp.dealloc.getLoc(), buffer);
  pool.buffers.push_back(buffer);
  return buffer;
}

/// The array `call` passes for `temp`: `buffer` where its sizes are those
/// the callee would have allocated, else a fresh allocation, recorded in
/// `fresh` to be freed after the call (with the condition that chose it).
Value HoistEmitter::bufferForCall(Temporary &temp,
                                  memref::AllocOp buffer, func::CallOp call,
                                  CalleePlan &callee,
                                  SmallVectorImpl<Value> &fresh) {
  Location loc = call.getLoc();
  rewriter.setInsertionPoint(call);
  IRMapping mapping;
  mapping.map(callee.callee.getArguments(), call.getOperands());
  SmallVector<Value> sizes = cloneSizes(temp, mapping, nullptr);
  if (sizes.empty())
    return buffer.getResult();
  Value same;
  for (auto [size, bufferSize] :
       llvm::zip_equal(sizes, buffer.getDynamicSizes())) {
    Value eq = arith::CmpIOp::create(rewriter, loc, arith::CmpIPredicate::eq,
                                     size, bufferSize);
    same = same ? arith::AndIOp::create(rewriter, loc, same, eq) : eq;
  }
  auto choice = scf::IfOp::create(
      rewriter, loc, same,
      [&](OpBuilder &b, Location l) {
        scf::YieldOp::create(b, l, buffer.getResult());
      },
      [&](OpBuilder &b, Location l) {
        scf::YieldOp::create(b, l,
                             cloneAlloc(b, temp, sizes).getResult());
      });
  fresh.push_back(same);
  fresh.push_back(choice.getResult(0));
  return choice.getResult(0);
}

void HoistEmitter::rewriteCall(CallPlan &call, CalleePlan &callee) {
  SmallVector<Value> operands;
  SmallVector<Value> fresh; // (condition, array) pairs.
  SmallVector<memref::AllocOp> taken;
  for (Temporary &temp : callee.temporaries) {
    if (!call.anchor) {
      // Not in a loop: allocated and freed around the call, as before.
      rewriter.setInsertionPoint(call.call);
      IRMapping mapping;
      mapping.map(callee.callee.getArguments(), call.call.getOperands());
      SmallVector<Value> sizes = cloneSizes(temp, mapping, nullptr);
      memref::AllocOp own = cloneAlloc(rewriter, temp, sizes);
      rewriter.setInsertionPointAfter(call.call);
      memref::DeallocOp::create(rewriter, temp.dealloc.getLoc(), own);
      operands.push_back(own);
      continue;
    }
    memref::AllocOp buffer = findOrCreateBuffer(temp, call, callee, taken);
    taken.push_back(buffer);
    operands.push_back(
        bufferForCall(temp, buffer, call.call, callee, fresh));
  }
  call.call.getOperandsMutable().append(operands);
  rewriter.setInsertionPointAfter(call.call);
  Location loc = call.call.getLoc();
  for (unsigned i = 0; i < fresh.size(); i += 2) {
    Value own = arith::XOrIOp::create(
        rewriter, loc, fresh[i],
        arith::ConstantIntOp::create(rewriter, loc, 1, 1));
    scf::IfOp::create(rewriter, loc, own, [&](OpBuilder &b, Location l) {
      memref::DeallocOp::create(b, l, fresh[i + 1]);
      scf::YieldOp::create(b, l);
    });
  }
}

/// The temporaries of the callee become its last arguments.
void HoistEmitter::rewriteCallee(CalleePlan &callee) {
  for (Temporary &temp : callee.temporaries) {
    unsigned index = callee.callee.getNumArguments();
    (void)callee.callee.insertArgument(index, temp.alloc.getType(), {},
                                       temp.alloc.getLoc());
    rewriter.replaceAllUsesWith(temp.alloc.getResult(),
                                callee.callee.getArgument(index));
    rewriter.eraseOp(temp.dealloc);
    rewriter.eraseOp(temp.alloc);
  }
}

void HoistEmitter::emit(HoistPlan &plan) {
  for (CallPlan &call : plan.calls)
    rewriteCall(call, plan.callees[call.callee]);
  for (CalleePlan &callee : plan.callees)
    rewriteCallee(callee);
}

namespace {
struct StencilHoistTemporariesPass
    : public mlir::stencil::impl::StencilHoistTemporariesPassBase<
          StencilHoistTemporariesPass> {
  void runOnOperation() override {
    HoistPlan plan = planHoisting(getOperation());
    HoistEmitter(&getContext()).emit(plan);
  }
};
} // namespace
