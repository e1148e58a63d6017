//===- TimeLoopEmitter.h - Building the reversal of a time loop -*- C++ -*-===//
//
// The emitter of the reversal of one time loop (docs/TimeLoops.md) from its
// plan (TimeLoopPlan.h, TimeLoopPlanner.cpp), shared by TimeLoopAdjoint.cpp
// (the schedule's driver), TimeLoopClocks.cpp and TimeLoopHeadTail.cpp (the
// domains before and after the loop). Private to lib/Adjoint.
//
//===----------------------------------------------------------------------===//

#ifndef STENCIL_LIB_ADJOINT_TIMELOOPEMITTER_H
#define STENCIL_LIB_ADJOINT_TIMELOOPEMITTER_H

#include "../Differentiate.h"
#include "TimeLoopBindings.h"
#include "TimeLoopSnapshots.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/IRMapping.h"

namespace mlir::stencil::ad {

/// The functions of the run-time library that the adjoint calls.
struct RuntimeCalls {
  func::FuncOp start, workspace, stepAction, actionStep, actionEnd,
      actionSlot, finish;
};

/// Builds the adjoint of a time loop from its complete plan: moves the
/// functions the planner outlined next to the primal, builds the variants
/// of the step's adjoint the hand-overs need, and the adjoint function that
/// drives them by the run-time library's schedule. Nothing it does can be
/// refused: the planner has checked every name and run every rule.
class TimeLoopEmitter {
public:
  TimeLoopEmitter(func::FuncOp primal, const TimeLoopPlan &plan,
                  TimeLoopBindings &ir)
      : primal(primal), plan(plan), ir(ir), loop(ir.loop),
        builder(primal.getContext()) {}

  /// Builds the adjoint and returns it.
  func::FuncOp emit();
  /// For the planner: reverses the scalar ops before and after the loop
  /// into a probe function in the scratch module, which it then erases;
  /// reports what their rules cannot do (a sum the adjoint would need the
  /// value of, an op without a rule).
  LogicalResult probeScalars();

private:
  void collectActiveArgs();
  void installFunctions();
  void createHandOverFunctions();
  void createAdjoint(func::FuncOp func);
  LogicalResult reverseEpilogue();
  void declareRuntime();
  void emitDriver();
  scf::WhileOp emitActionLoop(ValueRange initial, ValueRange shadows);
  void emitDispatch(Value kind, ValueRange carried);
  /// A bound of the loop (lower, upper, step) in the driver, as an index.
  Value boundAsIndex(Value bound);
  Value emitTripCount();
  SmallVector<Value> initialBinding();
  SmallVector<std::optional<SnapshotBox>> materializeBoxes();
  void emitStepAdjointCall(Value index, ValueRange operands);
  /// An scf.for over steps [begin, end) that rotates `arrays` and
  /// `shadows` as the loop does, running the primal step on `arrays` if
  /// `advance`; returns both as bound after it.
  SmallVector<Value> emitStepLoop(Value begin, Value end, ValueRange arrays,
                                  ValueRange shadows, bool advance);
  SmallVector<Value> emitAdvance(ValueRange binding);
  SmallVector<Value> emitReversedState(Value slot, ValueRange binding);
  void emitReverse(ValueRange binding, ValueRange shadows);
  /// The induction variable's value at step `index`, in its type.
  Value stepTime(Value index);
  /// The step function's operands for step `index` (counted from 0).
  SmallVector<Value> stepOperands(ValueRange binding, Value index,
                                  ValueRange written = {});
  // The clocks (TimeLoopClocks.cpp): their values for every step, computed
  // before anything else, and read back per step.
  void emitClocks();
  SmallVector<Value> clockValues(Value index);
  LogicalResult finishScalars();

  // The head and the tail (TimeLoopHeadTail.cpp): the domains before and
  // after the loop, outlined and differentiated by the planner; the tail is
  // reversed first, on the final state, the head last.
  void placeOutsideResults(SmallVectorImpl<Operation *> &placeholders);
  LogicalResult seedOutside(ArrayRef<Operation *> placeholders);
  void emitHead();
  void emitHeadAdjoint();
  Value scheduledSteps(Value steps);
  void emitTailAdjointCall(ValueRange binding, ValueRange shadows);
  void emitUnscheduledTail(ValueRange initial, ValueRange shadows,
                           Value steps);
  SmallVector<Value> emitReverseOrTail(ValueRange binding,
                                       ValueRange shadows);

  func::FuncOp primal;
  const TimeLoopPlan &plan;
  TimeLoopBindings &ir;
  scf::ForOp loop;
  OpBuilder builder;

  SmallVector<unsigned> activeArgs;
  /// The variants of the step's adjoint for the hand-overs (TimeLoopPlan).
  func::FuncOp steadyAdjoint, receivingAdjoint, handOverReset, handOverFlush;
  Value tripCount;
  /// Per clock, its value before each step and after the last (T + 1).
  SmallVector<Value> clockBuffers;
  func::FuncOp adjoint;
  RuntimeCalls runtime;
  /// The primal mapping, adjoints and activity of the function level.
  AdjointState top;
  /// The shadow argument of each active argument (arrays and scalars).
  llvm::DenseMap<Value, Value> argShadows;
  /// The adjoint of each accumulator's result, seeding every step's term.
  SmallVector<Value> termSeeds;
  /// The schedule and the snapshots in its workspace.
  Value schedule;
  std::optional<SnapshotLayout> snapshots;
  /// The dynamic extents of each state array (rotated arrays have the
  /// extents of the argument they start from), taken before the schedule.
  SmallVector<SmallVector<Value>> stateSizes;
  /// The adjoints of the tail's and the head's results.
  SmallVector<Value> tailSeeds, headSeeds;
};

/// The adjoint of a step whose hand-overs' shadows hold nothing to keep:
/// each accumulate of `plan` (with its `ops`) stores, or, when deferred, is
/// gone; its reset is gone. With `receive`, it first stores what the step
/// reversed before it deferred (all steps but the first two reversed).
func::FuncOp createSteadyStepAdjoint(func::FuncOp stepAdjoint,
                                     ArrayRef<HandOverPlan> plan,
                                     ArrayRef<HandOverOps> ops, StringRef name,
                                     bool receive);

/// A function with the arguments of `stepAdjoint` that does the resets of
/// `plan` alone.
func::FuncOp createHandOverReset(func::FuncOp stepAdjoint,
                                 ArrayRef<HandOverPlan> plan,
                                 ArrayRef<HandOverOps> ops, StringRef name);

/// A function with the arguments of `stepAdjoint` that stores what the last
/// step reversed deferred (after step 0, when it was not also the first).
func::FuncOp createHandOverFlush(func::FuncOp stepAdjoint,
                                 ArrayRef<HandOverPlan> plan,
                                 ArrayRef<HandOverOps> ops, StringRef name);

/// Returns `binding` rotated by `rotation` (entry k of the result is entry
/// rotation[k] of `binding`).
SmallVector<Value> rotate(ValueRange binding, ArrayRef<unsigned> rotation);

/// Calls `callee` with `args` and returns its result as an index, if any.
Value callIndex(OpBuilder &builder, Location loc, func::FuncOp callee,
                ValueRange args);

/// Returns true if the function argument `arg` is marked active.
bool isActiveArg(func::FuncOp func, BlockArgument arg);

} // namespace mlir::stencil::ad

#endif // STENCIL_LIB_ADJOINT_TIMELOOPEMITTER_H
