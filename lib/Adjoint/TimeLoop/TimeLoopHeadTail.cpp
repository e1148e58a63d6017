//===- TimeLoopHeadTail.cpp - Head and tail of a time loop --*- C++ -*-===//
//
// The domains before and after a time loop (docs/TimeLoops.md, sections 1.1
// and 1.2) become private functions of what they capture, differentiated by
// the straight-line differentiator like the step (TimeLoopPlanner.cpp); this
// file calls them and their adjoints.
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

#include "TimeLoopEmitter.h"

#include "Stencil/Dialect/StencilDialect.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/SymbolTable.h"

using namespace mlir;
using namespace mlir::stencil;
using namespace mlir::stencil::ad;

void TimeLoopEmitter::placeOutsideResults(
    SmallVectorImpl<Operation *> &placeholders) {
  // The sums of the head and the tail have no value here either: only their
  // adjoints count.
  for (DomainOp domain : llvm::concat<const DomainOp>(ir.head, ir.tail))
    for (Value result : domain->getResults()) {
      auto placeholder = UnrealizedConversionCastOp::create(
          builder, result.getLoc(), result.getType(), ValueRange());
      placeholders.push_back(placeholder);
      top.primal.map(result, placeholder.getResult(0));
      top.active.insert(result);
    }
}

LogicalResult TimeLoopEmitter::seedOutside(ArrayRef<Operation *> placeholders) {
  unsigned k = 0;
  for (DomainOp domain : llvm::concat<const DomainOp>(ir.head, ir.tail))
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
      bool isTail = llvm::is_contained(ir.tail, domain);
      (isTail ? tailSeeds : headSeeds)
          .push_back(getAdjointOrZero(builder, result.getLoc(), top, result));
    }
  return success();
}

Value TimeLoopEmitter::scheduledSteps(Value steps) {
  if (!plan.tailIsScheduled())
    return steps;
  Value one = arith::ConstantIndexOp::create(builder, loop.getLoc(), 1);
  return arith::AddIOp::create(builder, loop.getLoc(), steps, one);
}

void TimeLoopEmitter::emitTailAdjointCall(ValueRange binding,
                                          ValueRange shadows) {
  // The final array of each loop result: rotated array k is result
  // plan.shape.arrays[k].
  auto finalArray = [&](Value capture, ValueRange arrays) -> Value {
    unsigned position = cast<OpResult>(capture).getResultNumber();
    return arrays[llvm::find(plan.shape.arrays, position) -
                  plan.shape.arrays.begin()];
  };
  SmallVector<Value> operands, shadowOperands;
  for (Value capture : ir.tailCaptures) {
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
  func::CallOp::create(builder, loop.getLoc(), ir.tailAdjoint, operands);
}

void TimeLoopEmitter::emitUnscheduledTail(ValueRange initial,
                                          ValueRange shadows, Value steps) {
  if (!ir.tailAdjoint || plan.tailIsScheduled())
    return;
  // Steps whose adjoints read no state: no schedule brings the working
  // state to the end, so a sweep does where the tail reads it.
  // The arrays and shadows as bound after the last step: rotated T times.
  Value zero = arith::ConstantIndexOp::create(builder, loop.getLoc(), 0);
  SmallVector<Value> final =
      emitStepLoop(zero, steps, initial, shadows, plan.tailReadsState);
  ValueRange all(final);
  emitTailAdjointCall(all.take_front(initial.size()),
                      all.drop_front(initial.size()));
}

SmallVector<Value> TimeLoopEmitter::emitReverseOrTail(ValueRange binding,
                                                      ValueRange shadows) {
  if (!plan.tailIsScheduled()) {
    emitReverse(binding, shadows);
    return rotate(shadows, plan.shape.inverse());
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
         llvm::zip_equal(shadows, rotate(shadows, plan.shape.rotation)))
      after.push_back(arith::SelectOp::create(builder, loc, none, now, next));
  }
  emitTailAdjointCall(binding, after);
  scf::YieldOp::create(builder, loc, shadows);
  builder.setInsertionPointToStart(ifTail.elseBlock());
  emitReverse(binding, shadows);
  scf::YieldOp::create(builder, loc, rotate(shadows, plan.shape.inverse()));
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

void TimeLoopEmitter::emitHead() {
  if (!ir.headFunction)
    return;
  // Runs before the schedule, on the arrays the caller passed: what the
  // loop starts from and reads.
  func::CallOp::create(builder, loop.getLoc(), ir.headFunction,
                       outsideOperands(ir.headCaptures, [&](Value v) {
                         return top.primal.lookupOrDefault(v);
                       }));
}

void TimeLoopEmitter::emitHeadAdjoint() {
  if (!ir.headAdjoint)
    return;
  // After the schedule, the shadows are bound as the caller passed them:
  // those of what the loop starts from hold its gradients, which the head's
  // adjoint turns into those of the head's inputs.
  SmallVector<Value> operands = outsideOperands(
      ir.headCaptures, [&](Value v) { return top.primal.lookupOrDefault(v); });
  for (Value capture : ir.headCaptures)
    if (auto arg = dyn_cast<BlockArgument>(capture);
        arg && !isConstant(capture) && isActiveArg(primal, arg))
      operands.push_back(argShadows.lookup(capture));
  llvm::append_range(operands, headSeeds);
  func::CallOp::create(builder, loop.getLoc(), ir.headAdjoint, operands);
}
