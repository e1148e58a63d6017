//===- TimeLoopAdjoint.cpp - Reverse-mode AD of time loops ------*- C++ -*-===//
//
// This file implements the emitter of the reversal of a time loop
// (docs/TimeLoops.md) from its plan (TimeLoopPlanner.cpp). The loop's body
// has become a private step function, which the straight-line
// differentiator has differentiated like any other; the adjoint function
// drives both by the checkpointing schedule of the run-time library
// (Stencil/Runtime/Checkpoint.h): store, restore, advance and reverse
// actions on one working state, with the snapshots allocated once.
//
//===----------------------------------------------------------------------===//

#include "TimeLoopEmitter.h"

#include "Stencil/Runtime/Checkpoint.h"
#include "Stencil/Support/Declare.h"
#include "Stencil/Adjoint/AdjointOpInterface.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

using namespace mlir;
using namespace mlir::stencil;
using namespace mlir::stencil::ad;


bool ad::isActiveArg(func::FuncOp func, BlockArgument arg) {
  if (arg.getOwner()->getParentOp() != func.getOperation())
    return false;
  return static_cast<bool>(func.getArgAttr(arg.getArgNumber(), kActiveAttr));
}

/// What the planner's probe accepted (TimeLoopEmitter::probeScalars): the
/// same rules, run again on the same ops, cannot refuse it now.
static void mustSucceed(LogicalResult result) {
  if (failed(result))
    llvm::reportFatalInternalError(
        "the reversal of a time loop refused what its plan accepted");
}

void TimeLoopEmitter::installFunctions() {
  // Next to the primal, in this order, before the functions after it.
  Operation *after = primal;
  for (func::FuncOp func : {ir.headFunction, ir.headAdjoint, ir.tailFunction,
                            ir.tailAdjoint, ir.step, ir.stepAdjoint})
    if (func) {
      func->moveAfter(after);
      after = func;
    }
}

void TimeLoopEmitter::createHandOverFunctions() {
  if (plan.handOvers.empty())
    return;
  steadyAdjoint =
      createSteadyStepAdjoint(ir.stepAdjoint, plan.handOvers, ir.handOvers,
                              plan.steadyAdjoint, /*receive=*/false);
  handOverReset = createHandOverReset(ir.stepAdjoint, plan.handOvers,
                                      ir.handOvers, plan.handOverReset);
  if (!plan.anyDeferred())
    return;
  receivingAdjoint =
      createSteadyStepAdjoint(ir.stepAdjoint, plan.handOvers, ir.handOvers,
                              plan.receivingAdjoint, /*receive=*/true);
  handOverFlush = createHandOverFlush(ir.stepAdjoint, plan.handOvers,
                                      ir.handOvers, plan.handOverFlush);
}

/// The extra argument of a time loop's adjoint: the number of snapshots.
static SmallVector<std::pair<Type, StringRef>> extraArguments(Builder &b) {
  return {{b.getIndexType(), "snapshots"}};
}

void TimeLoopEmitter::createAdjoint(func::FuncOp func) {
  adjoint = func;
  Block *entry = &adjoint.getBody().front();
  builder.setInsertionPointToStart(entry);
  mapAdjointArguments(primal, entry, activeArgs, top);
  unsigned numArgs = primal.getNumArguments();
  for (auto [k, index] : llvm::enumerate(activeArgs)) {
    Value arg = primal.getArgument(index);
    argShadows[arg] = entry->getArgument(numArgs + k);
    if (!isa<MemRefType>(arg.getType()))
      top.active.insert(arg);
  }
}

/// Marks the float results of `op` active if an operand is.
static void propagateActivity(Operation *op, AdjointState &state) {
  if (llvm::none_of(op->getOperands(),
                    [&](Value v) { return state.isActive(v); }))
    return;
  for (Value result : op->getResults())
    if (isStencilFloat(result.getType()))
      state.active.insert(result);
}

LogicalResult TimeLoopEmitter::reverseEpilogue() {
  Location loc = loop.getLoc();
  for (Operation *op : ir.prologue) {
    builder.clone(*op, top.primal);
    propagateActivity(op, top);
  }
  emitClocks();
  // The loop's sums have no value here (computing them would cost a
  // forward sweep): placeholders stand in, and must be unused once the
  // epilogue is reversed.
  SmallVector<Operation *> placeholders;
  for (unsigned position : plan.shape.accumulators) {
    Value result = loop.getResult(position);
    auto placeholder = UnrealizedConversionCastOp::create(
        builder, loc, result.getType(), ValueRange());
    placeholders.push_back(placeholder);
    top.primal.map(result, placeholder.getResult(0));
    top.active.insert(result);
  }
  SmallVector<Operation *> outsidePlaceholders;
  placeOutsideResults(outsidePlaceholders);
  SmallVector<Operation *> clones;
  for (Operation *op : ir.epilogue) {
    clones.push_back(builder.clone(*op, top.primal));
    propagateActivity(op, top);
  }
  Block &entry = adjoint.getBody().front();
  unsigned firstSeed = primal.getNumArguments() + activeArgs.size();
  auto ret = cast<func::ReturnOp>(primal.getBody().front().getTerminator());
  for (auto [i, operand] : llvm::enumerate(ret.getOperands()))
    top.addAdjoint(builder, ret.getLoc(), operand,
                   entry.getArgument(firstSeed + i));
  for (Operation *op : llvm::reverse(ir.epilogue))
    if (failed(reverseScalarOp(builder, op, top)))
      return failure();
  // Values after the loop that the tail captures (its bounds) stay for
  // its adjoint's call.
  for (auto [op, clone] : llvm::reverse(llvm::zip_equal(ir.epilogue, clones)))
    if (clone->use_empty() && isMemoryEffectFree(clone) &&
        llvm::none_of(op->getResults(), [&](Value result) {
          return ir.tailCaptures.contains(result);
        }))
      clone->erase();
  for (auto [k, position] : llvm::enumerate(plan.shape.accumulators)) {
    Value result = loop.getResult(position);
    if (!placeholders[k]->use_empty()) {
      Operation *user = *placeholders[k]->getUsers().begin();
      return user->emitOpError()
             << "needs the value of the time loop's sum #" << position
             << " in the adjoint (the sum is used nonlinearly after the "
                "loop); not supported yet";
    }
    placeholders[k]->erase();
    termSeeds.push_back(getAdjointOrZero(builder, loc, top, result));
  }
  return seedOutside(outsidePlaceholders);
}

void TimeLoopEmitter::declareRuntime() {
  auto module = primal->getParentOfType<ModuleOp>();
  MLIRContext *ctx = module.getContext();
  Type ptr = LLVM::LLVMPointerType::get(ctx);
  Type i64 = builder.getI64Type();
  auto declare = [&](StringRef name, TypeRange args, TypeRange results) {
    return lookupOrDeclareFunction(module, name, args, results);
  };
  // The names and signatures of Stencil/Runtime/Checkpoint.h.
  runtime.start = declare(STENCIL_CKPT_START_NAME, {i64, i64, i64}, {ptr});
  // The snapshots' memory, kept by the library between calls: a memref
  // returned through the C interface.
  runtime.workspace = declare(STENCIL_CKPT_WORKSPACE_NAME, {ptr},
                              {MemRefType::get({ShapedType::kDynamic},
                                               builder.getI8Type())});
  runtime.workspace->setAttr("llvm.emit_c_interface", UnitAttr::get(ctx));
  runtime.stepAction = declare("stencil_ckpt_step_action", {ptr}, {i64});
  runtime.actionStep = declare("stencil_ckpt_action_step", {ptr}, {i64});
  runtime.actionEnd = declare("stencil_ckpt_action_end", {ptr}, {i64});
  runtime.actionSlot = declare("stencil_ckpt_action_slot", {ptr}, {i64});
  runtime.finish = declare("stencil_ckpt_finish", {ptr}, {});
}

Value ad::callIndex(OpBuilder &builder, Location loc, func::FuncOp callee,
                       ValueRange args) {
  auto call = func::CallOp::create(builder, loc, callee, args);
  if (call.getNumResults() == 0)
    return {};
  return arith::IndexCastOp::create(builder, loc, builder.getIndexType(),
                                    call.getResult(0));
}

Value TimeLoopEmitter::boundAsIndex(Value bound) {
  Value value = top.primal.lookupOrDefault(bound);
  if (value.getType().isIndex())
    return value;
  // An integer induction variable: its bounds are signed (the plan refuses
  // unsigned comparisons), and index is at least as wide.
  return arith::IndexCastOp::create(builder, loop.getLoc(),
                                    builder.getIndexType(), value);
}

Value TimeLoopEmitter::emitTripCount() {
  Location loc = loop.getLoc();
  Value lb = boundAsIndex(loop.getLowerBound());
  Value ub = boundAsIndex(loop.getUpperBound());
  Value st = boundAsIndex(loop.getStep());
  Value span = arith::SubIOp::create(builder, loc, ub, lb);
  Value zero = arith::ConstantIndexOp::create(builder, loc, 0);
  Value one = arith::ConstantIndexOp::create(builder, loc, 1);
  // scf.for needs a positive step; a step <= 0 counts as no steps here
  // rather than dividing by zero.
  Value positive =
      arith::CmpIOp::create(builder, loc, arith::CmpIPredicate::sgt, st, zero);
  Value divisor = arith::SelectOp::create(builder, loc, positive, st, one);
  Value count = arith::CeilDivSIOp::create(builder, loc, span, divisor);
  count = arith::MaxSIOp::create(builder, loc, count, zero);
  return arith::SelectOp::create(builder, loc, positive, count, zero);
}

Value TimeLoopEmitter::stepTime(Value index) {
  Location loc = loop.getLoc();
  Value lb = boundAsIndex(loop.getLowerBound());
  Value st = boundAsIndex(loop.getStep());
  Value offset = arith::MulIOp::create(builder, loc, index, st);
  Value time = arith::AddIOp::create(builder, loc, lb, offset);
  // The value the induction variable had: below the upper bound, so it
  // fits its type.
  Type type = loop.getInductionVar().getType();
  if (type.isIndex())
    return time;
  return arith::IndexCastOp::create(builder, loc, type, time);
}

/// The arrays that make up the state, in snapshot order: the rotated arrays
/// as bound now, then the written captures.
static SmallVector<Value> stateArrays(ValueRange binding,
                                      ArrayRef<Value> writtenCaptures,
                                      const IRMapping &primal) {
  SmallVector<Value> arrays(binding.begin(), binding.end());
  for (Value capture : writtenCaptures)
    arrays.push_back(primal.lookupOrDefault(capture));
  return arrays;
}

SmallVector<std::optional<SnapshotBox>> TimeLoopEmitter::materializeBoxes() {
  // Every box of the plan, also those of arrays the step's adjoint reads,
  // which keep their whole contents (their bounds stay unused). The bounds
  // may use the step's captures of index type (the plan has checked that
  // they use no more), as the driver passes them.
  auto argumentValue = [&](int64_t k) {
    return top.primal.lookupOrDefault(ir.stepCaptures[k]);
  };
  SmallVector<std::optional<SnapshotBox>> boxes;
  for (const StateArrayPlan &array : plan.state)
    if (array.box)
      boxes.push_back(
          materializeBox(builder, loop.getLoc(), *array.box, argumentValue));
    else
      boxes.push_back(std::nullopt);
  return boxes;
}

SmallVector<Value> TimeLoopEmitter::initialBinding() {
  SmallVector<Value> initial;
  for (unsigned position : plan.shape.arrays)
    initial.push_back(top.primal.lookupOrDefault(loop.getInitArgs()[position]));
  return initial;
}

SmallVector<Value> ad::rotate(ValueRange binding,
                              ArrayRef<unsigned> rotation) {
  SmallVector<Value> result;
  for (unsigned from : rotation)
    result.push_back(binding[from]);
  return result;
}

SmallVector<Value> TimeLoopEmitter::stepOperands(ValueRange binding,
                                                 Value index,
                                                 ValueRange written) {
  SmallVector<Value> operands;
  for (Value capture : ir.stepCaptures) {
    // The written captures are state: `written` overrides them.
    auto *it = llvm::find(ir.writtenCaptures, capture);
    if (!written.empty() && it != ir.writtenCaptures.end())
      operands.push_back(written[it - ir.writtenCaptures.begin()]);
    else
      operands.push_back(top.primal.lookupOrDefault(capture));
  }
  llvm::append_range(operands, binding);
  operands.push_back(stepTime(index));
  llvm::append_range(operands, clockValues(index));
  return operands;
}

SmallVector<Value> TimeLoopEmitter::emitStepLoop(Value begin, Value end,
                                                 ValueRange arrays,
                                                 ValueRange shadows,
                                                 bool advance) {
  Location loc = loop.getLoc();
  SmallVector<Value> carried(arrays);
  llvm::append_range(carried, shadows);
  Value one = arith::ConstantIndexOp::create(builder, loc, 1);
  unsigned numArrays = arrays.size();
  auto steps = scf::ForOp::create(
      builder, loc, begin, end, one, carried,
      [&](OpBuilder &b, Location l, Value i, ValueRange current) {
        OpBuilder::InsertionGuard guard(builder);
        builder.setInsertionPoint(b.getInsertionBlock(),
                                  b.getInsertionPoint());
        // Either part may be empty: only a part carried rotates.
        ValueRange now = current.take_front(numArrays);
        ValueRange shadowsNow = current.drop_front(numArrays);
        if (advance)
          func::CallOp::create(builder, l, ir.step, stepOperands(now, i));
        SmallVector<Value> next;
        if (!now.empty())
          next = rotate(now, plan.shape.rotation);
        if (!shadowsNow.empty())
          llvm::append_range(next, rotate(shadowsNow, plan.shape.rotation));
        scf::YieldOp::create(builder, l, next);
      });
  return steps.getResults();
}

SmallVector<Value> TimeLoopEmitter::emitAdvance(ValueRange binding) {
  Location loc = loop.getLoc();
  Value begin = callIndex(builder, loc, runtime.actionStep, schedule);
  Value end = callIndex(builder, loc, runtime.actionEnd, schedule);
  return emitStepLoop(begin, end, binding, {}, /*advance=*/true);
}

SmallVector<Value> TimeLoopEmitter::emitReversedState(Value slot,
                                                      ValueRange binding) {
  Location loc = loop.getLoc();
  SmallVector<Value> working =
      stateArrays(binding, ir.writtenCaptures, top.primal);
  Value zero = arith::ConstantIndexOp::create(builder, loc, 0);
  Value fromSlot = arith::CmpIOp::create(builder, loc, arith::CmpIPredicate::sge,
                                         slot, zero);
  auto choice =
      scf::IfOp::create(builder, loc, ValueRange(working).getTypes(), fromSlot,
                        /*addThenBlock=*/true, /*addElseBlock=*/true);
  OpBuilder::InsertionGuard guard(builder);
  builder.setInsertionPointToStart(choice.thenBlock());
  if (snapshots->snapshotsCanStandIn()) {
    // The slot's last use: the step's adjoint reads it in place.
    scf::YieldOp::create(builder, loc,
                         snapshots->reversedFrom(builder, loc, slot, working));
  } else {
    snapshots->emitCopies(builder, loc, slot, working, /*restore=*/true);
    scf::YieldOp::create(builder, loc, working);
  }
  builder.setInsertionPointToStart(choice.elseBlock());
  scf::YieldOp::create(builder, loc, working);
  return choice.getResults();
}

void TimeLoopEmitter::emitReverse(ValueRange binding, ValueRange shadows) {
  Location loc = loop.getLoc();
  Value index = callIndex(builder, loc, runtime.actionStep, schedule);
  SmallVector<Value> state =
      stateArrays(binding, ir.writtenCaptures, top.primal);
  if (!plan.stateless)
    state = emitReversedState(
        callIndex(builder, loc, runtime.actionSlot, schedule), binding);
  unsigned rotated = binding.size();
  SmallVector<Value> operands =
      stepOperands(ValueRange(state).take_front(rotated), index,
                   ValueRange(state).drop_front(rotated));
  // The shadows of the step's active arguments, in argument order.
  for (Value capture : ir.stepCaptures)
    if (auto arg = dyn_cast<BlockArgument>(capture))
      if (arg.getOwner()->getParentOp() == primal.getOperation() &&
          isActiveArg(primal, arg))
        operands.push_back(argShadows.lookup(capture));
  llvm::append_range(operands, shadows);
  llvm::append_range(operands, termSeeds);
  emitStepAdjointCall(index, operands);
}

void TimeLoopEmitter::emitStepAdjointCall(Value index, ValueRange operands) {
  Location loc = loop.getLoc();
  if (plan.handOvers.empty()) {
    func::CallOp::create(builder, loc, ir.stepAdjoint, operands);
    return;
  }
  // The first step reversed (T - 1) adds to the seeds the caller passed;
  // the others overwrite what the step after handed over, and do not reset
  // what they hand over, but after step 0 the shadows go back to the
  // caller, reset. What a step defers, the next one stores (from T - 3 on),
  // and after step 0, unless it was the first, the flush.
  Value one = arith::ConstantIndexOp::create(builder, loc, 1);
  Value zero = arith::ConstantIndexOp::create(builder, loc, 0);
  Value last = arith::SubIOp::create(builder, loc, tripCount, one);
  auto compare = [&](arith::CmpIPredicate predicate, Value a, Value b) {
    return arith::CmpIOp::create(builder, loc, predicate, a, b).getResult();
  };
  Value isFirst = compare(arith::CmpIPredicate::eq, index, last);
  auto ifFirst = scf::IfOp::create(builder, loc, isFirst,
                                   /*withElseRegion=*/true);
  OpBuilder::InsertionGuard guard(builder);
  builder.setInsertionPoint(ifFirst.thenBlock()->getTerminator());
  func::CallOp::create(builder, loc, ir.stepAdjoint, operands);
  builder.setInsertionPoint(ifFirst.elseBlock()->getTerminator());
  if (receivingAdjoint) {
    Value second = arith::SubIOp::create(builder, loc, last, one);
    auto ifSecond = scf::IfOp::create(
        builder, loc, compare(arith::CmpIPredicate::eq, index, second),
        /*withElseRegion=*/true);
    builder.setInsertionPoint(ifSecond.thenBlock()->getTerminator());
    func::CallOp::create(builder, loc, steadyAdjoint, operands);
    builder.setInsertionPoint(ifSecond.elseBlock()->getTerminator());
    func::CallOp::create(builder, loc, receivingAdjoint, operands);
    builder.setInsertionPointAfter(ifSecond);
  } else {
    func::CallOp::create(builder, loc, steadyAdjoint, operands);
  }
  builder.setInsertionPointAfter(ifFirst);
  auto ifZero = scf::IfOp::create(
      builder, loc, compare(arith::CmpIPredicate::eq, index, zero));
  builder.setInsertionPoint(ifZero.thenBlock()->getTerminator());
  if (handOverFlush) {
    auto ifFlush = scf::IfOp::create(
        builder, loc, compare(arith::CmpIPredicate::ne, index, last));
    builder.setInsertionPoint(ifFlush.thenBlock()->getTerminator());
    func::CallOp::create(builder, loc, handOverFlush, operands);
    builder.setInsertionPointAfter(ifFlush);
  }
  func::CallOp::create(builder, loc, handOverReset, operands);
}

/// Creates the case regions of `op`, each with an empty block.
static SmallVector<Block *> createCaseBlocks(scf::IndexSwitchOp op) {
  SmallVector<Block *> blocks;
  for (Region &region : op.getCaseRegions())
    blocks.push_back(&region.emplaceBlock());
  blocks.push_back(&op.getDefaultRegion().emplaceBlock());
  return blocks;
}

void TimeLoopEmitter::emitDriver() {
  Location loc = loop.getLoc();
  Block &entry = adjoint.getBody().front();
  Value snapshotCount = entry.getArguments().back();
  // The clocks may have taken the trip count already.
  Value steps = tripCount ? tripCount : emitTripCount();
  tripCount = steps;
  Type i64 = builder.getI64Type();
  auto toI64 = [&](Value v) {
    return arith::IndexCastOp::create(builder, loc, i64, v).getResult();
  };
  SmallVector<Value> initial = initialBinding(), shadows;
  for (Value array : stateArrays(initial, ir.writtenCaptures, top.primal))
    stateSizes.push_back(getDynamicSizes(builder, loc, array));
  Value scheduled = scheduledSteps(steps);
  Value bytes = arith::ConstantIndexOp::create(builder, loc, 0);
  if (!plan.stateless) {
    SmallVector<MemRefType> types;
    for (Value array : stateArrays(initial, ir.writtenCaptures, top.primal))
      types.push_back(cast<MemRefType>(array.getType()));
    // The library stores every state when the count allows it.
    Value storeAll = arith::CmpIOp::create(
        builder, loc, arith::CmpIPredicate::sge, snapshotCount, scheduled);
    snapshots.emplace(builder, loc, types, stateSizes, plan.state,
                      materializeBoxes(), storeAll);
    bytes = snapshots->slotBytes();
  }
  schedule = func::CallOp::create(
                 builder, loc, runtime.start,
                 ValueRange{toI64(scheduled), toI64(snapshotCount),
                            toI64(bytes)})
                 .getResult(0);
  Value null = LLVM::ZeroOp::create(builder, loc, schedule.getType());
  Value started = LLVM::ICmpOp::create(builder, loc, LLVM::ICmpPredicate::ne,
                                       schedule, null);
  // Without a schedule (a bad snapshot count, reported by the library)
  // nothing is computed.
  auto ifStarted = scf::IfOp::create(builder, loc, started);
  builder.setInsertionPoint(ifStarted.thenBlock()->getTerminator());
  emitHead();

  for (unsigned position : plan.shape.arrays)
    shadows.push_back(top.shadows.lookup(loop.getInitArgs()[position]));
  if (!plan.stateless)
    snapshots->setWorkspace(
        func::CallOp::create(builder, loc, runtime.workspace, schedule)
            .getResult(0));
  // The shadows as bound during the last step: rotated T - 1 times.
  Value zero = arith::ConstantIndexOp::create(builder, loc, 0);
  Value one = arith::ConstantIndexOp::create(builder, loc, 1);
  Value last = arith::MaxSIOp::create(
      builder, loc, arith::SubIOp::create(builder, loc, steps, one), zero);
  SmallVector<Value> lastShadows =
      emitStepLoop(zero, last, {}, shadows, /*advance=*/false);

  emitUnscheduledTail(initial, shadows, steps);
  scf::WhileOp actions = emitActionLoop(initial, lastShadows);
  builder.setInsertionPointAfter(actions);
  func::CallOp::create(builder, loc, runtime.finish, schedule);
  emitHeadAdjoint();
  mustSucceed(finishScalars());
  builder.setInsertionPointAfter(ifStarted);
  for (Value buffer : clockBuffers)
    memref::DeallocOp::create(builder, loc, buffer);
  func::ReturnOp::create(builder, primal.getLoc());
}

scf::WhileOp TimeLoopEmitter::emitActionLoop(ValueRange initial,
                                             ValueRange shadows) {
  // The schedule's actions, until DONE: (kind, working state, shadows).
  Location loc = loop.getLoc();
  SmallVector<Value> carried(initial);
  llvm::append_range(carried, shadows);
  SmallVector<Type> carriedTypes(ValueRange(carried).getTypes());
  SmallVector<Type> afterTypes = {builder.getIndexType()};
  llvm::append_range(afterTypes, carriedTypes);
  auto actions = scf::WhileOp::create(builder, loc, afterTypes, carried);
  SmallVector<Location> locs(carriedTypes.size(), loc);
  Block *before = builder.createBlock(&actions.getBefore(), {}, carriedTypes,
                                      locs);
  Value kind = callIndex(builder, loc, runtime.stepAction, schedule);
  Value done = arith::ConstantIndexOp::create(builder, loc, STENCIL_CKPT_DONE);
  Value more = arith::CmpIOp::create(builder, loc, arith::CmpIPredicate::ne,
                                     kind, done);
  SmallVector<Value> forwarded = {kind};
  llvm::append_range(forwarded, before->getArguments());
  scf::ConditionOp::create(builder, loc, more, forwarded);
  locs.push_back(loc);
  Block *after =
      builder.createBlock(&actions.getAfter(), {}, afterTypes, locs);
  emitDispatch(after->getArgument(0), after->getArguments().drop_front());
  return actions;
}

void TimeLoopEmitter::emitDispatch(Value kind, ValueRange carried) {
  Location loc = loop.getLoc();
  unsigned numArrays = plan.shape.arrays.size();
  ValueRange binding = carried.take_front(numArrays);
  ValueRange shadowBinding = carried.drop_front(numArrays);
  // A plan.stateless schedule only reverses.
  SmallVector<int64_t> kinds = {STENCIL_CKPT_REVERSE};
  if (!plan.stateless)
    kinds = {STENCIL_CKPT_STORE, STENCIL_CKPT_RESTORE, STENCIL_CKPT_ADVANCE,
             STENCIL_CKPT_REVERSE};
  auto dispatch = scf::IndexSwitchOp::create(
      builder, loc, carried.getTypes(), kind, kinds, kinds.size());
  scf::YieldOp::create(builder, loc, dispatch.getResults());
  SmallVector<Block *> cases = createCaseBlocks(dispatch);
  auto yieldState = [&](ValueRange working, ValueRange shadowsNow) {
    SmallVector<Value> values(working);
    llvm::append_range(values, shadowsNow);
    scf::YieldOp::create(builder, loc, values);
  };
  builder.setInsertionPointToStart(cases[kinds.size() - 1]);
  yieldState(binding, emitReverseOrTail(binding, shadowBinding));
  builder.setInsertionPointToStart(cases.back());
  yieldState(binding, shadowBinding);
  if (plan.stateless)
    return;
  for (bool restore : {false, true}) {
    builder.setInsertionPointToStart(cases[restore ? 1 : 0]);
    Value slot = callIndex(builder, loc, runtime.actionSlot, schedule);
    snapshots->emitCopies(builder, loc, slot,
                          stateArrays(binding, ir.writtenCaptures, top.primal),
                          restore);
    yieldState(binding, shadowBinding);
  }
  builder.setInsertionPointToStart(cases[2]);
  yieldState(emitAdvance(binding), shadowBinding);
}

LogicalResult TimeLoopEmitter::finishScalars() {
  Location loc = primal.getLoc();
  for (auto [k, position] : llvm::enumerate(plan.shape.accumulators))
    top.addAdjoint(builder, loc, loop.getInitArgs()[position], termSeeds[k]);
  // The plan has checked that the loop reads no active value computed
  // before it, so only the epilogue and the sums' initial values reach the
  // prologue.
  for (Operation *op : llvm::reverse(ir.prologue))
    if (failed(reverseScalarOp(builder, op, top)))
      return failure();
  addScalarGradients(builder, primal, &adjoint.getBody().front(), activeArgs,
                     top);
  return success();
}

void TimeLoopEmitter::collectActiveArgs() {
  for (BlockArgument arg : primal.getArguments())
    if (isActiveArg(primal, arg))
      activeArgs.push_back(arg.getArgNumber());
}

func::FuncOp TimeLoopEmitter::emit() {
  installFunctions();
  createHandOverFunctions();
  collectActiveArgs();
  // The planner has checked that the name is free.
  createAdjoint(*createAdjointSignature(builder, primal, activeArgs,
                                        plan.adjoint, extraArguments(builder)));
  declareRuntime();
  mustSucceed(reverseEpilogue());
  emitDriver();
  return adjoint;
}

LogicalResult TimeLoopEmitter::probeScalars() {
  // A probe with the adjoint's signature, next to the scratch module's copy
  // of the primal: the same rules on the same ops as emit(), whose IR goes.
  auto copy = ir.scratch->lookupSymbol<func::FuncOp>(primal.getName());
  collectActiveArgs();
  FailureOr<func::FuncOp> probe = createAdjointSignature(
      builder, copy, activeArgs, plan.adjoint, extraArguments(builder));
  if (failed(probe))
    return failure();
  createAdjoint(*probe);
  LogicalResult result =
      success(succeeded(reverseEpilogue()) && succeeded(finishScalars()));
  probe->erase();
  return result;
}
