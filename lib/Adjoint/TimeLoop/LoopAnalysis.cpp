//===- LoopAnalysis.cpp - The shape of a time loop and its IR ---*- C++ -*-===//
//
// This file implements analyzeTimeLoop: it sorts the loop's iter_args into
// rotated arrays and summed scalars, collects what the step reads from
// above, and reports the inputs the reversal does not handle yet.
//
//===----------------------------------------------------------------------===//

#include "TimeLoopBindings.h"

#include "../Differentiate.h"

#include "Stencil/Dialect/StencilInterfaces.h"
#include "Stencil/Dialect/StencilOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

using namespace mlir;
using namespace mlir::stencil;
using namespace mlir::stencil::ad;

/// Whether `value` is an argument of `func`.
static bool isArgumentOf(Value value, func::FuncOp func) {
  auto arg = dyn_cast<BlockArgument>(value);
  return arg && arg.getOwner()->getParentOp() == func.getOperation();
}

/// Checks a domain after the loop: it may only read arrays and sum floats.
static LogicalResult checkTailDomain(DomainOp domain) {
  for (Operation &op : domain.getBodyBlock()->getOperations())
    if (auto access = dyn_cast<AccessOpInterface>(op);
        access && access.isWrite())
      return op.emitOpError(
          "writes an array after the time loop of a function to "
          "differentiate; not supported yet (domains after the loop may "
          "only read arrays and sum floats, e.g. a misfit of the final "
          "state)");
  return success();
}

/// Whether `user` is one of `domains` or inside one.
static bool isInDomains(Operation *user, ArrayRef<DomainOp> domains) {
  return llvm::any_of(
      domains, [&](DomainOp domain) { return domain->isAncestor(user); });
}

Operation *ad::firstUserIn(Value value, ArrayRef<DomainOp> domains) {
  return *llvm::find_if(value.getUsers(), [&](Operation *user) {
    return isInDomains(user, domains);
  });
}

/// Checks the ops before and after the loop: scalar computations, and after
/// it domains that read the final state (the tail).
static LogicalResult checkOutsideOps(TimeLoopBindings &ir, func::FuncOp func) {
  bool after = false;
  for (Operation &op : func.getBody().front()) {
    if (&op == ir.loop.getOperation()) {
      after = true;
      continue;
    }
    if (isa<func::ReturnOp>(op))
      continue;
    if (isa<scf::ForOp>(op))
      return op.emitOpError("is a second time loop in a function to "
                            "differentiate; only one is supported yet");
    if (auto domain = dyn_cast<DomainOp>(op)) {
      if (after && failed(checkTailDomain(domain)))
        return failure();
      (after ? ir.tail : ir.head).push_back(domain);
      continue;
    }
    if (op.getNumRegions() != 0 || !isMemoryEffectFree(&op))
      return op.emitOpError()
             << "is not supported yet " << (after ? "after" : "before")
             << " the time loop of a function to differentiate (expected "
                "side-effect free scalar ops and domains)";
    (after ? ir.epilogue : ir.prologue).push_back(&op);
  }
  for (Value result : ir.loop.getResults())
    for (Operation *user : result.getUsers()) {
      if (!isa<MemRefType>(result.getType()) || isInDomains(user, ir.tail))
        continue;
      return ir.loop.emitOpError(
          "has an array result that is used other than read in a domain "
          "after the loop; not supported yet (the final state is in the "
          "arrays the loop was given)");
    }
  return success();
}

/// Recognises `scf.yield ..., %acc + %term` for the float iter_arg at
/// `position`.
static LogicalResult planAccumulator(TimeLoopBindings &ir, LoopShape &shape,
                                     unsigned position) {
  scf::ForOp loop = ir.loop;
  BlockArgument acc = loop.getRegionIterArgs()[position];
  Value yielded = loop.getYieldedValues()[position];
  auto add = yielded.getDefiningOp<arith::AddFOp>();
  auto fail = [&]() {
    return loop.emitOpError()
           << "carries the scalar #" << position
           << " in a way not supported yet: a loop-carried float must be a "
              "sum of per-step terms (scf.yield ..., %acc + %term, %acc used "
              "nowhere else) or computed from itself, the step's index, "
              "constants and passive arguments alone (a simulated time "
              "%t + %dt)";
  };
  if (!add || add->getParentOp() != loop.getOperation() || !add->hasOneUse() ||
      !acc.hasOneUse())
    return fail();
  Value term = add.getLhs() == acc ? add.getRhs() : add.getLhs();
  if (term == acc || (add.getLhs() != acc && add.getRhs() != acc))
    return fail();
  shape.accumulators.push_back(position);
  ir.terms.push_back(term);
  ir.additions.push_back(add);
  return success();
}

/// The floats that the active arguments of `func` (and `alsoActive`) are,
/// and that the ops `ops` (in order) compute from them.
static llvm::SmallDenseSet<Value>
activeFloats(func::FuncOp func, ArrayRef<Operation *> ops,
             function_ref<bool(BlockArgument)> isActive,
             ValueRange alsoActive = {}) {
  llvm::SmallDenseSet<Value> active(alsoActive.begin(), alsoActive.end());
  for (BlockArgument arg : func.getArguments())
    if (isActive(arg) && isStencilFloat(arg.getType()))
      active.insert(arg);
  for (Operation *op : ops)
    if (llvm::any_of(op->getOperands(),
                     [&](Value v) { return active.contains(v); }))
      for (Value result : op->getResults())
        active.insert(result);
  return active;
}

/// The floats before the loop that depend on active values: the active
/// arguments, what the prologue computes from them, and the head's sums.
static llvm::SmallDenseSet<Value>
activeAboveLoop(const TimeLoopBindings &ir, func::FuncOp func,
                function_ref<bool(BlockArgument)> isActive) {
  SmallVector<Value> headResults;
  for (DomainOp domain : ir.head)
    llvm::append_range(headResults, domain->getResults());
  return activeFloats(func, ir.prologue, isActive, headResults);
}

namespace {
/// What a clock may read from above the loop: the loop's IR and shape,
/// which arguments are active, and activeAboveLoop, computed once.
struct ClockContext {
  TimeLoopBindings &ir;
  LoopShape &shape;
  func::FuncOp func;
  function_ref<bool(BlockArgument)> isActive;
  llvm::SmallDenseSet<Value> activeAbove;
};
} // namespace

/// Whether `value`, defined above the loop, is passive: not an active
/// argument (a float, or an array a clock loads from), not computed from
/// one before the loop, not a sum of the head.
static bool isPassiveAbove(Value value, const ClockContext &ctx) {
  if (auto arg = dyn_cast<BlockArgument>(value))
    return isArgumentOf(arg, ctx.func) && !ctx.isActive(arg);
  return !isa<DomainOp>(value.getDefiningOp()) &&
         !ctx.activeAbove.contains(value);
}

/// Whether `op`, in the loop's body, may compute a clock: a side-effect
/// free scalar op, or a load from a passive argument (a table of time
/// steps).
static bool isClockOp(Operation *op, const ClockContext &ctx) {
  scf::ForOp loop = ctx.ir.loop;
  if (op->getBlock() != loop.getBody() || op->getNumRegions() != 0 ||
      isa<DomainOp, scf::YieldOp>(op))
    return false;
  if (auto load = dyn_cast<memref::LoadOp>(op))
    return load.getMemRef().getParentRegion() != &loop.getRegion() &&
           isPassiveAbove(load.getMemRef(), ctx);
  return isMemoryEffectFree(op);
}

/// Recognises a clock at `position`: it starts from a passive value, and
/// the value it yields is computed from itself, the step's index, constants
/// and passive values above the loop, by ops of the body that isClockOp
/// accepts. Adds them to the ir.
static bool planClock(const ClockContext &ctx, unsigned position) {
  TimeLoopBindings &ir = ctx.ir;
  LoopShape &shape = ctx.shape;
  scf::ForOp loop = ir.loop;
  if (!isPassiveAbove(loop.getInitArgs()[position], ctx))
    return false;
  BlockArgument self = loop.getRegionIterArgs()[position];
  llvm::SetVector<Operation *> ops;
  SmallVector<Value> worklist = {loop.getYieldedValues()[position]};
  while (!worklist.empty()) {
    Value v = worklist.pop_back_val();
    if (v == self || v == loop.getInductionVar())
      continue;
    if (!loop.getRegion().isAncestor(v.getParentRegion())) {
      if (!isPassiveAbove(v, ctx))
        return false;
      continue;
    }
    Operation *def = v.getDefiningOp();
    if (!def || !isClockOp(def, ctx))
      return false;
    if (ops.insert(def))
      llvm::append_range(worklist, def->getOperands());
  }
  shape.clocks.push_back(position);
  for (Operation &op : *loop.getBody())
    if (ops.contains(&op) && !llvm::is_contained(ir.clockOps, &op))
      ir.clockOps.push_back(&op);
  return true;
}

/// Sorts the iter_args: rotated arrays (checked to be a permutation of
/// distinct active arguments), clocks and summed floats.
static LogicalResult planIterArgs(TimeLoopBindings &ir, LoopShape &shape,
                                  function_ref<bool(BlockArgument)> isActive) {
  scf::ForOp loop = ir.loop;
  auto func = loop->getParentOfType<func::FuncOp>();
  ClockContext clocks{ir, shape, func, isActive,
                      activeAboveLoop(ir, func, isActive)};
  llvm::SmallDenseMap<Value, unsigned> arrayIndex;
  for (auto [position, arg] : llvm::enumerate(loop.getRegionIterArgs())) {
    Type type = arg.getType();
    bool scalar = isa<IntegerType, IndexType, FloatType>(type);
    if (scalar && planClock(clocks, position))
      continue;
    if (isStencilFloat(type)) {
      if (failed(planAccumulator(ir, shape, position)))
        return failure();
      continue;
    }
    auto memref = dyn_cast<MemRefType>(type);
    if (!memref || memref.getRank() == 0)
      return loop.emitOpError()
             << "carries a value of type " << type << " (iter_arg #" << position
             << ") that is not supported yet: the loop may carry arrays of "
                "rank >= 1, f32/f64 sums of per-step terms, and scalars it "
                "computes from themselves, the step's index, constants and "
                "passive arguments alone";
    auto init = dyn_cast<BlockArgument>(loop.getInitArgs()[position]);
    if (!init || init.getOwner()->getParentOp() != loop->getParentOp() ||
        !isActive(init))
      return loop.emitOpError()
             << "starts the rotated array #" << position
             << " from a value that is not an argument marked "
                "stencil.active; the arrays a time loop carries need shadows";
    arrayIndex[arg] = shape.arrays.size();
    shape.arrays.push_back(position);
  }
  llvm::SmallDenseSet<Value> inits;
  for (unsigned position : shape.arrays)
    if (!inits.insert(loop.getInitArgs()[position]).second)
      return loop.emitOpError("starts two rotated arrays from the same "
                              "argument; they must be distinct arrays");
  llvm::SmallDenseSet<unsigned> seen;
  for (unsigned position : shape.arrays) {
    Value yielded = loop.getYieldedValues()[position];
    auto it = arrayIndex.find(yielded);
    if (it == arrayIndex.end() || !seen.insert(it->second).second)
      return loop.emitOpError()
             << "must yield its arrays as a rotation of its array iter_args "
                "(scf.yield %cur, %next, %prev); yielded value #"
             << position << " is not";
    shape.rotation.push_back(it->second);
  }
  return success();
}

/// Whether `op` writes the contents of `array`.
static bool writesArray(Operation *op, Value array) {
  if (auto access = dyn_cast<AccessOpInterface>(op))
    return access.isWrite() && access.getAccessedArray() == array;
  if (auto store = dyn_cast<memref::StoreOp>(op))
    return store.getMemRef() == array;
  return false;
}

/// Reports the first op of `loop` that uses `arg`, the first value of a
/// rotated iter_arg, directly (one that writes it if any does): in the
/// steps where the iter_arg is bound to another array, it would use that
/// array's former contents, or clobber them.
static LogicalResult reportDirectUse(scf::ForOp loop, BlockArgument arg) {
  Operation *reader = nullptr, *writer = nullptr;
  loop.getBody()->walk<WalkOrder::PreOrder>([&](Operation *op) {
    if (!llvm::is_contained(op->getOperands(), arg))
      return;
    if (!writer && writesArray(op, arg))
      writer = op;
    else if (!reader)
      reader = op;
  });
  Operation *user = writer ? writer : reader;
  InFlightDiagnostic diag = user->emitOpError()
                            << (writer ? "writes" : "reads") << " argument #"
                            << arg.getArgNumber()
                            << " directly in a time loop that rotates it as "
                               "an iter_arg; "
                            << (writer ? "store into" : "read")
                            << " the iter_arg instead";
  diag.attachNote(loop.getLoc()) << "the time loop that rotates it";
  return diag;
}

/// Collects what the body reads from above and checks it.
static LogicalResult planCaptures(TimeLoopBindings &ir, const LoopShape &shape,
                                  func::FuncOp func,
                                  function_ref<bool(BlockArgument)> isActive) {
  scf::ForOp loop = ir.loop;
  Region &body = loop.getRegion();
  llvm::SmallDenseSet<Value> written;
  for (Operation &op : loop.getBody()->getOperations()) {
    auto domain = dyn_cast<DomainOp>(op);
    if (!domain)
      continue;
    for (Operation &inner : domain.getBodyBlock()->getOperations())
      if (auto access = dyn_cast<AccessOpInterface>(inner))
        if (access.isWrite())
          written.insert(access.getAccessedArray());
  }
  loop.getBody()->walk([&](Operation *op) {
    for (Value operand : op->getOperands())
      if (!body.isAncestor(operand.getParentRegion()))
        ir.captures.insert(operand);
  });
  llvm::SmallDenseSet<Value> inits;
  for (unsigned position : shape.arrays)
    inits.insert(loop.getInitArgs()[position]);
  llvm::SmallDenseSet<Value> activeAbove = activeAboveLoop(ir, func, isActive);

  for (Value capture : ir.captures) {
    auto arg = dyn_cast<BlockArgument>(capture);
    bool isArg = isArgumentOf(capture, func);
    if (isa<MemRefType>(capture.getType())) {
      if (!isArg)
        return loop.emitOpError("reads an array that is not an argument of "
                                "the function; not supported yet");
      if (inits.contains(capture))
        return reportDirectUse(loop, arg);
      if (written.contains(capture)) {
        if (!isActive(arg))
          return loop.emitOpError()
                 << "writes argument #" << arg.getArgNumber()
                 << ", which is not marked stencil.active; the state a time "
                    "loop carries needs a shadow";
        ir.writtenCaptures.push_back(capture);
      }
      continue;
    }
    if (activeAbove.contains(capture) && !isArg)
      return loop.emitOpError(
          "reads a float computed before the loop from active arguments; "
          "not supported yet (pass it as an argument)");
  }
  return success();
}

/// The values defined outside each of `domains` that it uses, in first-use
/// order.
static llvm::SetVector<Value> collectCaptures(ArrayRef<DomainOp> domains) {
  llvm::SetVector<Value> captures;
  for (DomainOp domain : domains)
    domain->walk([&](Operation *op) {
      for (Value operand : op->getOperands())
        if (!domain.getRegion().isAncestor(operand.getParentRegion()))
          captures.insert(operand);
    });
  return captures;
}

/// Collects what the tail reads from outside it and checks it: arrays are
/// arguments or the loop's final arrays, floats are not computed from
/// active values (other than active arguments themselves).
static LogicalResult
planTailCaptures(TimeLoopBindings &ir, const LoopShape &shape,
                 func::FuncOp func,
                 function_ref<bool(BlockArgument)> isActive) {
  if (ir.tail.empty())
    return success();
  scf::ForOp loop = ir.loop;
  llvm::SmallDenseSet<Value> rotatedInits;
  for (unsigned position : shape.arrays)
    rotatedInits.insert(loop.getInitArgs()[position]);
  SmallVector<Operation *> above(ir.prologue);
  llvm::append_range(above, ir.epilogue);
  // The loop's sums and arrays and the tail's results are active too; its
  // clocks are not.
  SmallVector<Value> results;
  for (OpResult result : loop->getResults())
    if (!llvm::is_contained(shape.clocks, result.getResultNumber()))
      results.push_back(result);
  for (DomainOp domain : llvm::concat<DomainOp>(ir.head, ir.tail))
    llvm::append_range(results, domain->getResults());
  llvm::SmallDenseSet<Value> active =
      activeFloats(func, above, isActive, results);
  ir.tailCaptures = collectCaptures(ir.tail);
  for (Value capture : ir.tailCaptures) {
    Operation *user = firstUserIn(capture, ir.tail);
    auto arg = dyn_cast<BlockArgument>(capture);
    bool isArg = isArgumentOf(capture, func);
    if (capture.getDefiningOp() == loop.getOperation()) {
      unsigned position = cast<OpResult>(capture).getResultNumber();
      if (!isa<MemRefType>(capture.getType()) &&
          !llvm::is_contained(shape.clocks, position))
        return user->emitOpError(
            "reads the sum of the time loop in a domain after it; not "
            "supported yet");
      continue;
    }
    if (isa<MemRefType>(capture.getType())) {
      if (!isArg)
        return user->emitOpError(
            "reads an array after the time loop that is neither an argument "
            "nor a result of the loop; not supported yet");
      if (rotatedInits.contains(capture))
        return user->emitOpError()
               << "reads argument #" << arg.getArgNumber()
               << " after the time loop, which rotates it; read the loop's "
                  "result instead";
      continue;
    }
    if (!isArg && active.contains(capture))
      return user->emitOpError(
          "reads a float computed from active values outside the domains "
          "after the time loop; not supported yet (pass it as an argument)");
  }
  return success();
}

/// Checks what the head's adjoint relies on: no domain of the head
/// overwrites an array that one before it reads (the adjoint runs on the
/// arrays as the head left them), and its sums are used after the loop
/// only (their adjoints are taken when the epilogue is reversed).
static LogicalResult checkHeadOrder(TimeLoopBindings &ir, func::FuncOp func) {
  llvm::SmallDenseSet<Value> read;
  for (DomainOp domain : ir.head) {
    for (Operation &op : domain.getBodyBlock()->getOperations()) {
      auto access = dyn_cast<AccessOpInterface>(op);
      if (!access || !access.isWrite() ||
          !read.contains(access.getAccessedArray()))
        continue;
      return op.emitOpError(
          "overwrites, before the time loop, an array that a domain before "
          "it reads; not supported yet (the adjoint would need its former "
          "values)");
    }
    for (Operation &op : domain.getBodyBlock()->getOperations())
      if (auto access = dyn_cast<AccessOpInterface>(op);
          access && !access.isWrite())
        read.insert(access.getAccessedArray());
  }
  Block &body = func.getBody().front();
  for (DomainOp domain : ir.head)
    for (Value result : domain->getResults())
      for (Operation *user : result.getUsers()) {
        Operation *top = body.findAncestorOpInBlock(*user);
        if (top && ir.loop->isBeforeInBlock(top))
          continue;
        return user->emitOpError(
            "uses a sum computed before the time loop before the loop has "
            "run; not supported yet (use it after the loop)");
      }
  return success();
}

/// Collects what the head (the domains before the loop) reads and writes
/// and checks it: it writes active arguments and reads arguments, and its
/// floats come from active arguments only directly.
static LogicalResult
planHeadCaptures(TimeLoopBindings &ir, func::FuncOp func,
                 function_ref<bool(BlockArgument)> isActive) {
  if (ir.head.empty())
    return success();
  for (DomainOp domain : ir.head)
    for (Operation &op : domain.getBodyBlock()->getOperations()) {
      auto access = dyn_cast<AccessOpInterface>(op);
      if (!access || !access.isWrite())
        continue;
      auto arg = dyn_cast<BlockArgument>(access.getAccessedArray());
      if (!arg || arg.getOwner()->getParentOp() != func.getOperation())
        return op.emitOpError(
            "writes an array before the time loop that is not an argument "
            "of the function; not supported yet");
      if (!isActive(arg))
        return op.emitOpError()
               << "writes argument #" << arg.getArgNumber()
               << " before the time loop, which is not marked stencil.active; "
                  "what the loop starts from needs a shadow";
    }
  if (failed(checkHeadOrder(ir, func)))
    return failure();
  llvm::SmallDenseSet<Value> active = activeAboveLoop(ir, func, isActive);
  ir.headCaptures = collectCaptures(ir.head);
  for (Value capture : ir.headCaptures) {
    Operation *user = firstUserIn(capture, ir.head);
    bool isArg = isArgumentOf(capture, func);
    if (isa<MemRefType>(capture.getType()) && !isArg)
      return user->emitOpError(
          "reads an array before the time loop that is not an argument of "
          "the function; not supported yet");
    if (!isArg && active.contains(capture))
      return user->emitOpError(
          "reads a float computed from active values outside the domains "
          "before the time loop; not supported yet (pass it as an argument)");
  }
  return success();
}

LogicalResult ad::analyzeTimeLoop(func::FuncOp func, scf::ForOp loop,
                                  function_ref<bool(BlockArgument)> isActiveArg,
                                  LoopShape &shape, TimeLoopBindings &ir) {
  ir.loop = loop;
  if (loop.getUnsignedCmp())
    return loop.emitOpError(
        "compares its induction variable unsigned; not supported yet in a "
        "function to differentiate (the reversal counts steps signed)");
  if (failed(checkOutsideOps(ir, func)) ||
      failed(planIterArgs(ir, shape, isActiveArg)) ||
      failed(planCaptures(ir, shape, func, isActiveArg)) ||
      failed(planTailCaptures(ir, shape, func, isActiveArg)) ||
      failed(planHeadCaptures(ir, func, isActiveArg)))
    return failure();
  if (shape.arrays.empty() && ir.writtenCaptures.empty())
    return loop.emitOpError(
        "carries no state (it rotates no array through iter_args and writes "
        "no array); a time loop to differentiate must advance a state");
  return success();
}
