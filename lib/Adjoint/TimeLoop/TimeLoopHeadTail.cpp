//===- TimeLoopHeadTail.cpp - Head and tail of a time loop --*- C++ -*-===//
//
// The domains before and after a time loop (docs/TimeLoops.md, sections 1.1
// and 1.2) become private functions of what they capture, differentiated by
// the straight-line differentiator like the step.
//
// The head (before the loop) computes what the loop starts from or reads (a
// first step, a coefficient from a parameter). It runs before the
// schedule, on the caller's arrays; its adjoint runs after the schedule,
// when the shadows are bound as the caller passed them, and may not need
// the values of arrays the loop writes (the schedule leaves them as work
// space).
//
// The tail (after the loop) reads the final state and sums floats, such as
// the misfit of the final state against data. Its adjoint runs before any
// step's:
//
// - where it reads nothing of the state (a linear objective), or the steps'
//   adjoints read nothing of it (so no schedule advances the state), it
//   runs before the schedule, after a sweep of the T primal steps in the
//   second case;
// - otherwise the schedule reverses T + 1 steps, and "step T" is the tail:
//   Revolve reverses the last step first, right after advancing the working
//   state to it, so the tail reads the final state where the steps left it,
//   at the cost of the few forward steps one more step adds to the optimum.
//
//===----------------------------------------------------------------------===//

#include "TimeLoopDifferentiator.h"

#include "Stencil/Dialect/StencilDialect.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/SymbolTable.h"

using namespace mlir;
using namespace mlir::stencil;
using namespace mlir::stencil::ad;

/// Whether `value` is a constant, cloned into the head or the tail rather
/// than passed.
static bool isConstant(Value value) {
  Operation *def = value.getDefiningOp();
  return def && def->hasTrait<OpTrait::ConstantLike>();
}

/// Outlines `domains` (in order) into a private function `name` next to
/// `primal`, of the non-constant `captures` (constants are cloned in),
/// returning the domains' sums; the captures `isActive` says are active
/// arguments. Null, reported, if the name is taken.
static func::FuncOp outlineDomains(OpBuilder &builder, func::FuncOp primal,
                                   ArrayRef<DomainOp> domains,
                                   const llvm::SetVector<Value> &captures,
                                   StringRef name,
                                   function_ref<bool(Value)> isActive) {
  SmallVector<Type> types, results;
  for (Value capture : captures)
    if (!isConstant(capture))
      types.push_back(capture.getType());
  for (DomainOp domain : domains)
    llvm::append_range(results, domain->getResultTypes());
  auto module = primal->getParentOfType<ModuleOp>();
  if (SymbolTable::lookupSymbolIn(module, name)) {
    primal.emitOpError() << "cannot outline the domains before or after its "
                            "time loop: a symbol named '"
                         << name << "' already exists";
    return {};
  }
  DomainOp first = domains.front();
  Location loc = first.getLoc();
  OpBuilder::InsertionGuard guard(builder);
  builder.setInsertionPointAfter(primal);
  auto func = func::FuncOp::create(builder, loc, name,
                                   builder.getFunctionType(types, results));
  func.setPrivate();
  Block *entry = func.addEntryBlock();
  builder.setInsertionPointToStart(entry);
  IRMapping mapping;
  unsigned index = 0;
  for (Value capture : captures) {
    if (isConstant(capture)) {
      mapping.map(capture,
                  builder.clone(*capture.getDefiningOp())->getResult(0));
      continue;
    }
    mapping.map(capture, entry->getArgument(index));
    if (isActive(capture))
      func.setArgAttr(index, kActiveAttr, builder.getUnitAttr());
    ++index;
  }
  SmallVector<Value> returned;
  for (DomainOp domain : domains)
    llvm::append_range(returned, builder.clone(*domain, mapping)->getResults());
  func::ReturnOp::create(builder, loc, returned);
  return func;
}

/// Whether `value` is one of the array results of `loop` (a final state;
/// its other results are clocks, passive).
static bool isFinalArray(Value value, scf::ForOp loop) {
  return value.getDefiningOp() == loop.getOperation() &&
         isa<MemRefType>(value.getType());
}

LogicalResult TimeLoopDifferentiator::outlineOutside(bool after) {
  ArrayRef<DomainOp> domains = after ? plan.tail : plan.head;
  if (domains.empty())
    return success();
  auto isActive = [&](Value capture) {
    auto arg = dyn_cast<BlockArgument>(capture);
    return isFinalArray(capture, loop) || (arg && isActiveArg(primal, arg));
  };
  const llvm::SetVector<Value> &captures =
      after ? plan.tailCaptures : plan.headCaptures;
  // Without an active capture (a constant term of the objective) there is
  // nothing to differentiate, and nothing to run: what the head writes is
  // active.
  if (llvm::none_of(captures, isActive))
    return success();
  std::string name = (primal.getName() + (after ? "_tail" : "_head")).str();
  func::FuncOp func =
      outlineDomains(builder, primal, domains, captures, name, isActive);
  if (!func)
    return failure();
  (after ? tail : head) = func;
  FailureOr<func::FuncOp> differentiated =
      differentiateStraightLine(func, name + "_adjoint", resetOutputs);
  if (failed(differentiated))
    return failure();
  (after ? tailAdjoint : headAdjoint) = *differentiated;
  // Distinct arrays, as for the step: the plan refuses arguments that the
  // loop rotates in the tail, so a final array is never also read as an
  // argument, and the head's arrays are the function's.
  for (func::FuncOp f : {func, *differentiated})
    f->setAttr(StencilDialect::NoaliasAttrHelper::getNameStr(),
               builder.getUnitAttr());
  return after ? success() : checkHeadReads();
}

LogicalResult TimeLoopDifferentiator::checkHeadReads() {
  // The head's adjoint runs after the schedule, which leaves the state
  // arrays as work space: it may not read them.
  Block &entry = headAdjoint.getBody().front();
  unsigned index = 0;
  llvm::SmallDenseSet<Value> state(plan.writtenCaptures.begin(),
                                   plan.writtenCaptures.end());
  for (unsigned position : plan.arrays)
    state.insert(loop.getInitArgs()[position]);
  for (Value capture : plan.headCaptures) {
    if (isConstant(capture))
      continue;
    BlockArgument arg = entry.getArgument(index++);
    if (!state.contains(capture) || !readsStateContents(arg))
      continue;
    Operation *user = firstUserIn(capture, plan.head);
    return user->emitOpError()
           << "reads argument #" << cast<BlockArgument>(capture).getArgNumber()
           << " before the time loop in a way whose adjoint needs its value, "
              "which the loop overwrites; not supported yet (the adjoint "
              "of the domains before the loop may read only arrays the loop "
              "does not write)";
  }
  return success();
}

void TimeLoopDifferentiator::placeOutsideResults(
    SmallVectorImpl<Operation *> &placeholders) {
  // The sums of the head and the tail have no value here either: only their
  // adjoints count.
  for (DomainOp domain : llvm::concat<const DomainOp>(plan.head, plan.tail))
    for (Value result : domain->getResults()) {
      auto placeholder = UnrealizedConversionCastOp::create(
          builder, result.getLoc(), result.getType(), ValueRange());
      placeholders.push_back(placeholder);
      top.primal.map(result, placeholder.getResult(0));
      top.active.insert(result);
    }
}

LogicalResult
TimeLoopDifferentiator::seedOutside(ArrayRef<Operation *> placeholders) {
  unsigned k = 0;
  for (DomainOp domain : llvm::concat<const DomainOp>(plan.head, plan.tail))
    for (Value result : domain->getResults()) {
      Operation *placeholder = placeholders[k++];
      if (!placeholder->use_empty()) {
        Operation *user = *placeholder->getUsers().begin();
        return user->emitOpError()
               << "needs the value of a sum computed before or after the "
                  "time loop in the adjoint (it is used nonlinearly); not "
                  "supported yet";
      }
      placeholder->erase();
      bool isTail = llvm::is_contained(plan.tail, domain);
      (isTail ? tailSeeds : headSeeds)
          .push_back(getAdjointOrZero(builder, result.getLoc(), top, result));
    }
  return success();
}

void TimeLoopDifferentiator::findTailReads() {
  if (!tailAdjoint)
    return;
  Block &entry = tailAdjoint.getBody().front();
  unsigned index = 0;
  for (Value capture : plan.tailCaptures) {
    if (isConstant(capture))
      continue;
    BlockArgument arg = entry.getArgument(index++);
    bool isState = isFinalArray(capture, loop) ||
                   llvm::is_contained(plan.writtenCaptures, capture);
    if (isState && readsStateContents(arg))
      tailReadsState = true;
  }
}

bool TimeLoopDifferentiator::tailIsScheduled() const {
  return tailAdjoint && tailReadsState && !stateless;
}

Value TimeLoopDifferentiator::scheduledSteps(Value steps) {
  if (!tailIsScheduled())
    return steps;
  Value one = arith::ConstantIndexOp::create(builder, loop.getLoc(), 1);
  return arith::AddIOp::create(builder, loop.getLoc(), steps, one);
}

void TimeLoopDifferentiator::emitTailAdjointCall(ValueRange binding,
                                                 ValueRange shadows) {
  // The final array of each loop result: rotated array k is result
  // plan.arrays[k].
  auto finalArray = [&](Value capture, ValueRange arrays) -> Value {
    unsigned position = cast<OpResult>(capture).getResultNumber();
    return arrays[llvm::find(plan.arrays, position) - plan.arrays.begin()];
  };
  SmallVector<Value> operands, shadowOperands;
  for (Value capture : plan.tailCaptures) {
    if (isConstant(capture))
      continue;
    bool isFinal = isFinalArray(capture, loop);
    operands.push_back(isFinal ? finalArray(capture, binding)
                               : top.primal.lookupOrDefault(capture));
    if (isFinal)
      shadowOperands.push_back(finalArray(capture, shadows));
    else if (auto arg = dyn_cast<BlockArgument>(capture);
             arg && isActiveArg(primal, arg))
      shadowOperands.push_back(argShadows.lookup(capture));
  }
  llvm::append_range(operands, shadowOperands);
  llvm::append_range(operands, tailSeeds);
  func::CallOp::create(builder, loop.getLoc(), tailAdjoint, operands);
}

void TimeLoopDifferentiator::emitUnscheduledTail(ValueRange initial,
                                                 ValueRange shadows,
                                                 Value steps) {
  if (!tailAdjoint || tailIsScheduled())
    return;
  // Steps whose adjoints read no state: no schedule brings the working
  // state to the end, so a sweep does where the tail reads it.
  // The arrays and shadows as bound after the last step: rotated T times.
  Value zero = arith::ConstantIndexOp::create(builder, loop.getLoc(), 0);
  SmallVector<Value> final =
      emitStepLoop(zero, steps, initial, shadows, tailReadsState);
  ValueRange all(final);
  emitTailAdjointCall(all.take_front(initial.size()),
                      all.drop_front(initial.size()));
}

SmallVector<Value>
TimeLoopDifferentiator::emitReverseOrTail(ValueRange binding,
                                          ValueRange shadows) {
  if (!tailIsScheduled()) {
    emitReverse(binding, shadows);
    return rotate(shadows, plan.inverse());
  }
  // "Step T" is the tail, reversed first, from the working state (the
  // schedule advances to it and reverses it on the spot): the shadows as
  // bound after the last step, rotated once more than during it (none
  // when there are no steps).
  Location loc = loop.getLoc();
  auto compare = [&](arith::CmpIPredicate predicate, Value a, Value b) {
    return arith::CmpIOp::create(builder, loc, predicate, a, b).getResult();
  };
  Value index = callIndex(builder, loc, runtime.actionStep, schedule);
  // Blocks without terminators, whether or not there are shadows (a state
  // written in place rotates none): both branches yield themselves.
  auto ifTail = scf::IfOp::create(
      builder, loc, ValueRange(shadows).getTypes(),
      compare(arith::CmpIPredicate::eq, index, tripCount),
      /*addThenBlock=*/true, /*addElseBlock=*/true);
  OpBuilder::InsertionGuard guard(builder);
  builder.setInsertionPointToStart(ifTail.thenBlock());
  SmallVector<Value> after;
  if (!shadows.empty()) {
    Value zero = arith::ConstantIndexOp::create(builder, loc, 0);
    Value none = compare(arith::CmpIPredicate::eq, tripCount, zero);
    for (auto [now, next] :
         llvm::zip_equal(shadows, rotate(shadows, plan.rotation)))
      after.push_back(arith::SelectOp::create(builder, loc, none, now, next));
  }
  emitTailAdjointCall(binding, after);
  scf::YieldOp::create(builder, loc, shadows);
  builder.setInsertionPointToStart(ifTail.elseBlock());
  emitReverse(binding, shadows);
  scf::YieldOp::create(builder, loc, rotate(shadows, plan.inverse()));
  return ifTail.getResults();
}

/// The operands of a call of `func` (the head or the tail, or their
/// adjoints) for the values `captures` of the primal, where `valueOf` maps
/// each non-constant capture to its value here.
static SmallVector<Value>
outsideOperands(const llvm::SetVector<Value> &captures,
                function_ref<Value(Value)> valueOf) {
  SmallVector<Value> operands;
  for (Value capture : captures)
    if (!isConstant(capture))
      operands.push_back(valueOf(capture));
  return operands;
}

void TimeLoopDifferentiator::emitHead() {
  if (!head)
    return;
  // Runs before the schedule, on the arrays the caller passed: what the
  // loop starts from and reads.
  func::CallOp::create(builder, loop.getLoc(), head,
                       outsideOperands(plan.headCaptures, [&](Value v) {
                         return top.primal.lookupOrDefault(v);
                       }));
}

void TimeLoopDifferentiator::emitHeadAdjoint() {
  if (!headAdjoint)
    return;
  // After the schedule, the shadows are bound as the caller passed them:
  // those of what the loop starts from hold its gradients, which the head's
  // adjoint turns into those of the head's inputs.
  SmallVector<Value> operands = outsideOperands(
      plan.headCaptures,
      [&](Value v) { return top.primal.lookupOrDefault(v); });
  for (Value capture : plan.headCaptures)
    if (auto arg = dyn_cast<BlockArgument>(capture);
        arg && !isConstant(capture) && isActiveArg(primal, arg))
      operands.push_back(argShadows.lookup(capture));
  llvm::append_range(operands, headSeeds);
  func::CallOp::create(builder, loop.getLoc(), headAdjoint, operands);
}
