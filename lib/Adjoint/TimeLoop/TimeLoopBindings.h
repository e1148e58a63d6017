//===- TimeLoopBindings.h - The IR a time loop's plan refers to -*- C++ -*-===//
//
// The reversal of a time loop is planned as data (TimeLoopPlan.h); this
// header holds the IR that data refers to by index and name, which the
// emitter clones from or calls: the loop and the values and ops around it
// (analyzeTimeLoop, LoopAnalysis.cpp), and the functions the planner
// outlined and differentiated in its scratch module (TimeLoopPlanner.cpp),
// with the analyses of those functions that the plan records.
//
//===----------------------------------------------------------------------===//

#ifndef STENCIL_LIB_ADJOINT_TIMELOOPBINDINGS_H
#define STENCIL_LIB_ADJOINT_TIMELOOPBINDINGS_H

#include "TimeLoopPlan.h"

#include "Stencil/Dialect/StencilOps.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/OwningOpRef.h"
#include "llvm/ADT/SetVector.h"

namespace mlir::stencil::ad {

/// The ops of a hand-over (HandOverPlan, same index): the reset of `from`'s
/// shadow and the accumulate into `to`'s, in the step's adjoint.
struct HandOverOps {
  StoreOp reset;
  AccumulateOp accumulate;
};

struct TimeLoopBindings {
  scf::ForOp loop;
  /// The terms of the accumulators (LoopShape::accumulators, same index)
  /// and the additions that sum them.
  SmallVector<Value> terms;
  SmallVector<Operation *> additions;
  /// The top-level ops of the body that compute the clocks, in order.
  SmallVector<Operation *> clockOps;
  /// Values defined above the loop that its body uses, in first-use order.
  llvm::SetVector<Value> captures;
  /// Captured arrays that the body writes: state that does not rotate.
  SmallVector<Value> writtenCaptures;
  /// Top-level ops before and after the loop: scalar ops; before it the
  /// `head`, domains that compute what the loop starts from or reads (a
  /// first step, a model from its parameters); after it the `tail`,
  /// domains that read the final state and only sum floats (a final-state
  /// objective such as `1/2 sum (u_T - d)^2`).
  SmallVector<Operation *> prologue, epilogue;
  SmallVector<DomainOp> head, tail;
  /// Values defined outside the head and the tail that they use, in
  /// first-use order.
  llvm::SetVector<Value> headCaptures, tailCaptures;

  /// The captures the step takes as arguments (TimeLoopPlan::stepCaptures).
  SmallVector<Value> stepCaptures;
  /// The functions of the plan's names, outlined and differentiated in
  /// `scratch` until the emitter moves them next to the primal; null where
  /// the plan's name is empty.
  OwningOpRef<ModuleOp> scratch;
  func::FuncOp step, stepAdjoint, headFunction, headAdjoint, tailFunction,
      tailAdjoint;
  SmallVector<HandOverOps> handOvers;
};

/// The first user of `value` that is one of `domains` or inside one (there
/// must be one): where to report what those domains do with it.
Operation *firstUserIn(Value value, ArrayRef<DomainOp> domains);

/// Sorts the iter_args of `loop`, the time loop at the top level of `func`
/// whose active arguments are `isActiveArg`, into `shape`, and collects the
/// IR around it into `ir`. Reports what cannot be reversed (yet) at the op
/// concerned.
LogicalResult analyzeTimeLoop(func::FuncOp func, scf::ForOp loop,
                              function_ref<bool(BlockArgument)> isActiveArg,
                              LoopShape &shape, TimeLoopBindings &ir);

/// Removes the top-level domains of `func`, a step's adjoint, that only
/// store into arrays of `state` (its arguments the caller treats as work
/// space) which no later op uses: forward values the step's adjoint
/// recomputes but does not read.
void pruneUnreadStores(func::FuncOp func, ArrayRef<BlockArgument> state);

/// Whether any op reads the contents of `arg` (taking its extents does not
/// count).
bool readsStateContents(BlockArgument arg);

/// The hand-overs of `stepAdjoint` (ShadowHandOver.cpp), whose rotated
/// arrays have the shadow arguments `shadows`, when the reversal hands the
/// shadow of rotated array k to array handedTo[k]; `perStep` are the
/// arguments that change from step to step (its index, the values of the
/// clocks). Fills `plan` and `ops` (same index).
void planShadowHandOvers(func::FuncOp stepAdjoint,
                         ArrayRef<BlockArgument> shadows,
                         ArrayRef<unsigned> handedTo,
                         ArrayRef<BlockArgument> perStep,
                         SmallVectorImpl<HandOverPlan> &plan,
                         SmallVectorImpl<HandOverOps> &ops);

/// The box of `array`, an argument of the step function `step`, if the
/// first op of `step` that uses its contents is a domain that stores into
/// it at every point (directly in its body) with bounds that are constants
/// or arguments of `step` plus constants; none otherwise.
std::optional<OverwrittenBox> planOverwrittenBox(func::FuncOp step,
                                                 BlockArgument array);

/// Whether `value` is a constant, cloned into the step, the head or the
/// tail rather than passed.
inline bool isConstant(Value value) {
  Operation *def = value.getDefiningOp();
  return def && def->hasTrait<OpTrait::ConstantLike>();
}

/// Whether `value` is one of the array results of `loop` (a final state;
/// its other results are clocks, passive).
inline bool isFinalArray(Value value, scf::ForOp loop) {
  return value.getDefiningOp() == loop.getOperation() &&
         isa<MemRefType>(value.getType());
}

} // namespace mlir::stencil::ad

#endif // STENCIL_LIB_ADJOINT_TIMELOOPBINDINGS_H
