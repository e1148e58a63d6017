//===- TimeLoopTail.cpp - Domains after a reversed time loop ----*- C++ -*-===//
//
// The tail of a time loop (docs/TimeLoops.md, section 1): domains after the
// loop that read its final state and sum floats, such as the misfit of the
// final state against data. It becomes a private function of its captures
// (the loop's final arrays among them), differentiated by the straight-line
// differentiator, and its adjoint runs before any step's:
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

/// Whether `value` is a constant, cloned into the tail rather than passed.
static bool isConstant(Value value) {
  Operation *def = value.getDefiningOp();
  return def && def->hasTrait<OpTrait::ConstantLike>();
}

LogicalResult TimeLoopDifferentiator::outlineTail() {
  if (plan.tail.empty())
    return success();
  SmallVector<Type> types, results;
  for (Value capture : plan.tailCaptures)
    if (!isConstant(capture))
      types.push_back(capture.getType());
  for (DomainOp domain : ArrayRef<DomainOp>(plan.tail))
    llvm::append_range(results, domain->getResultTypes());
  std::string name = (primal.getName() + "_tail").str();
  auto module = primal->getParentOfType<ModuleOp>();
  if (SymbolTable::lookupSymbolIn(module, name))
    return primal.emitOpError()
           << "cannot outline the domains after its time loop: a symbol "
              "named '"
           << name << "' already exists";
  DomainOp first = plan.tail.front();
  Location loc = first.getLoc();
  builder.setInsertionPointAfter(primal);
  tail = func::FuncOp::create(builder, loc, name,
                              builder.getFunctionType(types, results));
  tail.setPrivate();
  Block *entry = tail.addEntryBlock();
  builder.setInsertionPointToStart(entry);
  IRMapping mapping;
  MLIRContext *ctx = primal.getContext();
  unsigned index = 0;
  for (Value capture : plan.tailCaptures) {
    if (isConstant(capture)) {
      mapping.map(capture, builder.clone(*capture.getDefiningOp())->getResult(0));
      continue;
    }
    BlockArgument arg = entry->getArgument(index);
    mapping.map(capture, arg);
    auto funcArg = dyn_cast<BlockArgument>(capture);
    if (capture.getDefiningOp() == loop.getOperation() ||
        (funcArg && isActiveArg(primal, funcArg)))
      tail.setArgAttr(index, kActiveAttr, UnitAttr::get(ctx));
    ++index;
  }
  SmallVector<Value> returned;
  for (DomainOp domain : ArrayRef<DomainOp>(plan.tail))
    llvm::append_range(returned, builder.clone(*domain, mapping)->getResults());
  func::ReturnOp::create(builder, loc, returned);

  FailureOr<func::FuncOp> differentiated =
      differentiateStraightLine(tail, name + "_adjoint", resetOutputs);
  if (failed(differentiated))
    return failure();
  tailAdjoint = *differentiated;
  // Distinct arrays, as for the step: the plan refuses arguments that the
  // loop rotates, so a final array is never also read as an argument.
  for (func::FuncOp func : {tail, tailAdjoint})
    func->setAttr(StencilDialect::NoaliasAttrHelper::getNameStr(),
                  UnitAttr::get(ctx));
  return success();
}

void TimeLoopDifferentiator::placeTailResults(
    SmallVectorImpl<Operation *> &placeholders) {
  // The tail's sums have no value here either: only their adjoints count.
  for (DomainOp domain : ArrayRef<DomainOp>(plan.tail))
    for (Value result : domain->getResults()) {
      auto placeholder = UnrealizedConversionCastOp::create(
          builder, domain.getLoc(), result.getType(), ValueRange());
      placeholders.push_back(placeholder);
      top.primal.map(result, placeholder.getResult(0));
      top.active.insert(result);
    }
}

LogicalResult
TimeLoopDifferentiator::seedTail(ArrayRef<Operation *> placeholders) {
  unsigned k = 0;
  for (DomainOp domain : ArrayRef<DomainOp>(plan.tail))
    for (Value result : domain->getResults()) {
      Operation *placeholder = placeholders[k++];
      if (!placeholder->use_empty()) {
        Operation *user = *placeholder->getUsers().begin();
        return user->emitOpError()
               << "needs the value of a sum computed after the time loop in "
                  "the adjoint (it is used nonlinearly); not supported yet";
      }
      placeholder->erase();
      tailSeeds.push_back(getAdjointOrZero(builder, domain.getLoc(), top,
                                           result));
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
    bool isState = capture.getDefiningOp() == loop.getOperation() ||
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
    bool isFinal = capture.getDefiningOp() == loop.getOperation();
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

SmallVector<Value> TimeLoopDifferentiator::emitBeforeTail(ValueRange binding,
                                                          ValueRange shadows,
                                                          Value steps,
                                                          bool advance) {
  // The arrays and shadows as bound after the last step: rotated T times,
  // the state advanced by the T primal steps if `advance`.
  Location loc = loop.getLoc();
  SmallVector<Value> carried(binding);
  llvm::append_range(carried, shadows);
  Value zero = arith::ConstantIndexOp::create(builder, loc, 0);
  Value one = arith::ConstantIndexOp::create(builder, loc, 1);
  unsigned numArrays = binding.size();
  auto sweep = scf::ForOp::create(
      builder, loc, zero, steps, one, carried,
      [&](OpBuilder &b, Location l, Value i, ValueRange current) {
        OpBuilder::InsertionGuard guard(builder);
        builder.setInsertionPoint(b.getInsertionBlock(),
                                  b.getInsertionPoint());
        ValueRange arrays = current.take_front(numArrays);
        if (advance)
          func::CallOp::create(builder, l, step,
                               stepOperands(arrays, stepTime(i)));
        SmallVector<Value> next = rotate(arrays, plan.rotation);
        llvm::append_range(
            next, rotate(current.drop_front(numArrays), plan.rotation));
        scf::YieldOp::create(builder, l, next);
      });
  return sweep.getResults();
}

void TimeLoopDifferentiator::emitUnscheduledTail(ValueRange initial,
                                                 ValueRange shadows,
                                                 Value steps) {
  if (!tailAdjoint || tailIsScheduled())
    return;
  // Steps whose adjoints read no state: no schedule brings the working
  // state to the end, so a sweep does where the tail reads it.
  SmallVector<Value> final =
      emitBeforeTail(initial, shadows, steps, tailReadsState);
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
  auto ifTail = scf::IfOp::create(
      builder, loc, ValueRange(shadows).getTypes(),
      compare(arith::CmpIPredicate::eq, index, tripCount),
      /*withElseRegion=*/true);
  OpBuilder::InsertionGuard guard(builder);
  builder.setInsertionPointToStart(ifTail.thenBlock());
  Value zero = arith::ConstantIndexOp::create(builder, loc, 0);
  Value none = compare(arith::CmpIPredicate::eq, tripCount, zero);
  SmallVector<Value> after;
  for (auto [now, next] :
       llvm::zip_equal(shadows, rotate(shadows, plan.rotation)))
    after.push_back(arith::SelectOp::create(builder, loc, none, now, next));
  emitTailAdjointCall(binding, after);
  scf::YieldOp::create(builder, loc, shadows);
  builder.setInsertionPointToStart(ifTail.elseBlock());
  emitReverse(binding, shadows);
  scf::YieldOp::create(builder, loc, rotate(shadows, plan.inverse()));
  return ifTail.getResults();
}
