//===- TimeLoopDifferentiator.h - Reversal of a time loop -------*- C++ -*-===//
//
// The state of the reversal of one time loop (docs/TimeLoops.md), shared by
// TimeLoopAdjoint.cpp (the step, the schedule's driver) and TimeLoopHeadTail.cpp
// (the domains after the loop). Private to lib/Adjoint.
//
//===----------------------------------------------------------------------===//

#ifndef STENCIL_LIB_ADJOINT_TIMELOOPDIFFERENTIATOR_H
#define STENCIL_LIB_ADJOINT_TIMELOOPDIFFERENTIATOR_H

#include "../Differentiate.h"
#include "TimeLoopPlan.h"
#include "TimeLoopSnapshots.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/IRMapping.h"

namespace mlir::stencil::ad {

/// The functions of the run-time library that the adjoint calls.
struct RuntimeCalls {
  func::FuncOp start, workspace, stepAction, actionStep, actionEnd,
      actionSlot, finish;
};

class TimeLoopDifferentiator {
public:
  TimeLoopDifferentiator(func::FuncOp primal, const TimeLoopPlan &plan,
                         StringRef name, const TimeLoopOptions &options)
      : primal(primal), plan(plan), loop(plan.loop), adjointName(name),
        resetOutputs(options.resetOutputs),
        snapshotBorders(options.snapshotBorders),
        deferHandOvers(options.deferHandOvers),
        builder(primal.getContext()) {}

  FailureOr<func::FuncOp> run();

private:
  LogicalResult outlineStep();
  LogicalResult createAdjoint();
  LogicalResult reverseEpilogue();
  void declareRuntime();
  LogicalResult emitDriver();
  scf::WhileOp emitActionLoop(ValueRange initial, ValueRange shadows);
  void emitDispatch(Value kind, ValueRange carried);
  /// A bound of the loop (lower, upper, step) in the driver, as an index.
  Value boundAsIndex(Value bound);
  Value emitTripCount();
  SmallVector<Value> initialBinding();
  SmallVector<BlockArgument> stateArguments(func::FuncOp func);
  void findStateReads();
  SmallVector<std::optional<SnapshotBox>> planSnapshotBoxes();
  void planHandOvers();
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
  void cleanup();

  // The head and the tail (TimeLoopHeadTail.cpp): the domains before and
  // after the loop, outlined and differentiated; the tail is reversed
  // first, on the final state, the head last.
  LogicalResult outlineOutside(bool after);
  LogicalResult checkHeadReads();
  void placeOutsideResults(SmallVectorImpl<Operation *> &placeholders);
  LogicalResult seedOutside(ArrayRef<Operation *> placeholders);
  void emitHead();
  void emitHeadAdjoint();
  void findTailReads();
  bool tailIsScheduled() const;
  Value scheduledSteps(Value steps);
  void emitTailAdjointCall(ValueRange binding, ValueRange shadows);
  void emitUnscheduledTail(ValueRange initial, ValueRange shadows,
                           Value steps);
  SmallVector<Value> emitReverseOrTail(ValueRange binding,
                                       ValueRange shadows);

  func::FuncOp primal;
  const TimeLoopPlan &plan;
  scf::ForOp loop;
  std::string adjointName;
  bool resetOutputs, snapshotBorders, deferHandOvers;
  OpBuilder builder;

  SmallVector<unsigned> activeArgs;
  /// The step function, its adjoint, and which captures it receives as
  /// arguments (constants are cloned into it instead).
  func::FuncOp step, stepAdjoint;
  /// Where the rotation makes resets unnecessary: the step's adjoint for
  /// the steps between the last and the first (whose handed-over shadows
  /// hold nothing to keep), and the resets alone, for after step 0. With
  /// deferred hand-overs, the steady variant that also stores what the step
  /// reversed before deferred (all but the first two steps reversed), and
  /// the stores the last one deferred.
  SmallVector<ShadowHandOver> handOvers;
  func::FuncOp steadyAdjoint, receivingAdjoint, handOverReset, handOverFlush;
  Value tripCount;
  /// Per clock, its value before each step and after the last (T + 1).
  SmallVector<Value> clockBuffers;
  SmallVector<Value> stepCaptures;
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
  /// Which state arrays the step's adjoint reads; none: no snapshots, no
  /// forward steps.
  SmallVector<bool> stateRead;
  bool stateless = false;
  /// The dynamic extents of each state array (rotated arrays have the
  /// extents of the argument they start from), taken before the schedule.
  SmallVector<SmallVector<Value>> stateSizes;
  /// The tail as a function of its captures (the loop's final arrays among
  /// them), its adjoint, the adjoints of its results, and whether that
  /// adjoint reads the final state.
  func::FuncOp tail, tailAdjoint;
  SmallVector<Value> tailSeeds;
  /// The head as a function of its captures, its adjoint, and the adjoints
  /// of its sums.
  func::FuncOp head, headAdjoint;
  SmallVector<Value> headSeeds;
  bool tailReadsState = false;
};


/// Returns `binding` rotated by `rotation` (entry k of the result is entry
/// rotation[k] of `binding`).
SmallVector<Value> rotate(ValueRange binding, ArrayRef<unsigned> rotation);

/// Calls `callee` with `args` and returns its result as an index, if any.
Value callIndex(OpBuilder &builder, Location loc, func::FuncOp callee,
                ValueRange args);

/// Returns true if the function argument `arg` is marked active.
bool isActiveArg(func::FuncOp func, BlockArgument arg);

} // namespace mlir::stencil::ad

#endif // STENCIL_LIB_ADJOINT_TIMELOOPDIFFERENTIATOR_H
