//===- TimeLoopPlan.h - What reversing a time loop needs --------*- C++ -*-===//
//
// The plan of the reversal of a time loop (docs/TimeLoops.md): which values
// the loop carries and how, what its step reads from above, and which
// arrays make up the state that a snapshot must hold. Computed and checked
// before any IR is built; TimeLoopAdjoint.cpp emits from it.
//
//===----------------------------------------------------------------------===//

#ifndef STENCIL_LIB_ADJOINT_TIMELOOPPLAN_H
#define STENCIL_LIB_ADJOINT_TIMELOOPPLAN_H

#include "Stencil/Dialect/StencilOps.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "llvm/ADT/SetVector.h"

namespace mlir::stencil::ad {

struct TimeLoopPlan {
  scf::ForOp loop;
  /// Positions (among the loop's iter_args) of the rotated arrays.
  SmallVector<unsigned> arrays;
  /// The rotation: after a step, rotated array k is the one that was
  /// rotated array `rotation[k]` during it (scf.yield %a_rotation[0], ...).
  SmallVector<unsigned> rotation;
  /// Positions of the float iter_args that sum a term per step
  /// (`scf.yield ..., %acc + %term`), the terms, and the additions.
  SmallVector<unsigned> accumulators;
  SmallVector<Value> terms;
  SmallVector<Operation *> additions;
  /// Positions of the scalar iter_args the loop carries passively (a
  /// simulated time `t + dt`, a counter): each step computes the next
  /// value from the current one, the step's index, constants and passive
  /// arguments alone, by `clockOps` (top-level ops of the body, in order).
  /// The adjoint computes their values for every step before it runs one.
  SmallVector<unsigned> clocks;
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

  /// The inverse rotation: rotated array k during a step was rotated array
  /// `inverse()[k]` after it.
  SmallVector<unsigned> inverse() const;
};

/// The first user of `value` that is one of `domains` or inside one (there
/// must be one): where to report what those domains do with it.
Operation *firstUserIn(Value value, ArrayRef<DomainOp> domains);

/// Plans the reversal of `loop`, the time loop at the top level of `func`,
/// whose active arguments are `isActiveArg`. Reports what cannot be
/// reversed (yet) at the op concerned.
FailureOr<TimeLoopPlan>
planTimeLoop(func::FuncOp func, scf::ForOp loop,
             function_ref<bool(BlockArgument)> isActiveArg);

/// Removes the top-level domains of `func`, a step's adjoint, that only
/// store into arrays of `state` (its arguments the caller treats as work
/// space) which no later op uses: forward values the step's adjoint
/// recomputes but does not read.
void pruneUnreadStores(func::FuncOp func, ArrayRef<BlockArgument> state);

/// Whether any op reads the contents of `arg` (taking its extents does not
/// count).
bool readsStateContents(BlockArgument arg);

/// A reset the rotation makes unnecessary (ShadowHandOver.cpp): the step's
/// adjoint zeroes the shadow of rotated array `from` (`reset`, nothing
/// after it uses that shadow), and the reversal hands that shadow to array
/// `to`, whose shadow the step's adjoint only adds to once, at the centre
/// of a domain over the same points (`accumulate`).
///
/// The hand-over is `deferred` when the value added depends on nothing but
/// the shadow of `from` (at any offset), constants and the points, over
/// bounds that are the same in every step: the steps between the first and
/// the last reversed then leave `to`'s shadow alone, and the next step
/// reversed computes the value from that shadow, which then holds what
/// `from`'s held, as the first contribution to the array it hands `to`'s
/// shadow to (`receiver`). No step then writes a shadow only to have the
/// next one read it back.
struct ShadowHandOver {
  unsigned from, to;
  StoreOp reset;
  AccumulateOp accumulate;
  bool deferred = false;
  /// The shadow arguments of `from`, `to` and the array `to`'s shadow is
  /// handed to.
  unsigned fromArg = 0, toArg = 0, receiverArg = 0;
};

/// The hand-overs of `stepAdjoint`, whose rotated arrays have the shadow
/// arguments `shadows`, when the reversal hands the shadow of rotated array
/// k to array handedTo[k]; `perStep` are the arguments that change from
/// step to step (its index, the values of the clocks).
SmallVector<ShadowHandOver>
planShadowHandOvers(func::FuncOp stepAdjoint, ArrayRef<BlockArgument> shadows,
                    ArrayRef<unsigned> handedTo,
                    ArrayRef<BlockArgument> perStep);

/// Whether any hand-over of `plan` is deferred.
bool anyDeferred(ArrayRef<ShadowHandOver> plan);

/// The adjoint of a step whose hand-overs' shadows hold nothing to keep:
/// each accumulate of `plan` stores, or, when deferred, is gone; its reset
/// is gone. With `receive`, it first stores what the step reversed before
/// it deferred (all steps but the first two reversed).
func::FuncOp createSteadyStepAdjoint(func::FuncOp stepAdjoint,
                                     ArrayRef<ShadowHandOver> plan,
                                     StringRef name, bool receive);

/// A function with the arguments of `stepAdjoint` that does the resets of
/// `plan` alone.
func::FuncOp createHandOverReset(func::FuncOp stepAdjoint,
                                 ArrayRef<ShadowHandOver> plan,
                                 StringRef name);

/// A function with the arguments of `stepAdjoint` that stores what the last
/// step reversed deferred (after step 0, when it was not also the first).
func::FuncOp createHandOverFlush(func::FuncOp stepAdjoint,
                                 ArrayRef<ShadowHandOver> plan,
                                 StringRef name);

/// A bound of the box a step overwrites, in the step function's terms:
/// `constant` alone (`argument` < 0), or step argument `argument` plus
/// `constant`.
struct StepBound {
  int64_t argument = -1;
  int64_t constant = 0;
};

/// The box, per dimension of an array, [lower, upper), that a step stores
/// into before anything reads the array: what a snapshot of the state the
/// step starts from need not hold of it (docs/TimeLoops.md, section 4).
struct OverwrittenBox {
  SmallVector<StepBound> lower, upper;
};

/// The box of `array`, an argument of the step function `step`, if the
/// first op of `step` that uses its contents is a domain that stores into
/// it at every point (directly in its body) with bounds that are constants
/// or arguments of `step` plus constants; none otherwise.
std::optional<OverwrittenBox> planOverwrittenBox(func::FuncOp step,
                                                 BlockArgument array);

} // namespace mlir::stencil::ad

#endif // STENCIL_LIB_ADJOINT_TIMELOOPPLAN_H
