//===- TimeLoopPlan.h - The reversal of a time loop, as data ----*- C++ -*-===//
//
// Everything the reversal of a time loop decides (docs/TimeLoops.md), as
// plain data: which iter_args rotate, sum or tick, what a snapshot of the
// state keeps, which shadows the rotation hands over, what runs before and
// after the loop, and what the schedule counts. TimeLoopPlanner.cpp computes
// it, and reports every refusal, before any IR of the user's module changes;
// TimeLoopEmitter builds from it (the IR it clones from is in
// TimeLoopBindings.h); `--stencil-adjoint=report=1` prints it as JSON.
//
//===----------------------------------------------------------------------===//

#ifndef STENCIL_LIB_ADJOINT_TIMELOOPPLAN_H
#define STENCIL_LIB_ADJOINT_TIMELOOPPLAN_H

#include "llvm/ADT/SmallVector.h"
#include "llvm/Support/JSON.h"

#include <optional>
#include <string>

namespace mlir::stencil::ad {

/// How the loop's iter_args are carried, by position.
struct LoopShape {
  /// Positions (among the loop's iter_args) of the rotated arrays.
  llvm::SmallVector<unsigned> arrays;
  /// The rotation: after a step, rotated array k is the one that was
  /// rotated array `rotation[k]` during it (scf.yield %a_rotation[0], ...).
  llvm::SmallVector<unsigned> rotation;
  /// Positions of the float iter_args that sum a term per step
  /// (`scf.yield ..., %acc + %term`).
  llvm::SmallVector<unsigned> accumulators;
  /// Positions of the scalar iter_args the loop carries passively (a
  /// simulated time `t + dt`, a counter), computed for every step before
  /// any is run (TimeLoopClocks.cpp).
  llvm::SmallVector<unsigned> clocks;

  /// The inverse rotation: rotated array k during a step was rotated array
  /// `inverse()[k]` after it.
  llvm::SmallVector<unsigned> inverse() const;
};

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
  llvm::SmallVector<StepBound> lower, upper;
};

/// One array of the state a snapshot holds, in snapshot order: the rotated
/// arrays, then the captured arrays the step writes.
struct StateArrayPlan {
  /// Its index among the rotated arrays, or -1 for a written capture.
  int64_t rotated = -1;
  /// The step argument it is passed as (its captures come first).
  unsigned stepArgument = 0;
  /// Whether the step's adjoint reads its contents.
  bool read = false;
  /// The box the step overwrites before reading it, with bounds the driver
  /// has (constants, loop-invariant index captures); none without one or
  /// under snapshot-borders=0.
  std::optional<OverwrittenBox> box;

  /// Whether snapshots outside store-all keep only its border.
  bool border() const { return box && !read; }
};

/// A reset the rotation makes unnecessary (ShadowHandOver.cpp): the
/// shadow of rotated array `from` goes to array `to` instead of being
/// zeroed; `deferred` when the next step reversed stores the value. The
/// arguments are those of the step's adjoint: the shadows of `from`, `to`,
/// and of the array `to`'s shadow is handed to.
struct HandOverPlan {
  unsigned from = 0, to = 0;
  bool deferred = false;
  unsigned fromArg = 0, toArg = 0, receiverArg = 0;
};

/// The domains before (head) or after (tail) the loop.
struct OutsidePlan {
  unsigned domains = 0;
  /// The private function they become and its adjoint; empty when they have
  /// no active capture (nothing to differentiate or run).
  std::string function, adjoint;
};

struct TimeLoopPlan {
  /// The primal, its adjoint, the step function and the step's adjoint.
  std::string function, adjoint, step, stepAdjoint;
  /// The type of the induction variable ("index", "i32", ...).
  std::string inductionType;
  LoopShape shape;
  /// How many captures the step takes as arguments (constants are cloned
  /// into it), and how many of them are active arguments of the primal.
  unsigned stepCaptures = 0, activeStepCaptures = 0;
  llvm::SmallVector<StateArrayPlan> state;
  /// No state array is read by the step's adjoint: no snapshots, no
  /// forward steps; the schedule only reverses.
  bool stateless = false;
  llvm::SmallVector<HandOverPlan> handOvers;
  /// With hand-overs: the step's adjoint for the steady steps, the one that
  /// also receives what the step before deferred (with a deferred one), the
  /// resets after step 0, and the stores the last step deferred.
  std::string steadyAdjoint, receivingAdjoint, handOverReset, handOverFlush;
  OutsidePlan head, tail;
  /// Whether the tail's adjoint reads the final state.
  bool tailReadsState = false;

  /// Whether any hand-over is deferred.
  bool anyDeferred() const;
  /// Whether the schedule reverses the tail as a step T (it reads the
  /// final state, which only a schedule that advances provides).
  bool tailIsScheduled() const {
    return !tail.adjoint.empty() && tailReadsState && !stateless;
  }
  /// The plan as JSON (`--stencil-adjoint=report=1`).
  llvm::json::Value toJSON() const;
};

} // namespace mlir::stencil::ad

#endif // STENCIL_LIB_ADJOINT_TIMELOOPPLAN_H
