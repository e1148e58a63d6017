//===- AdjointOpInterface.h - Reverse-mode AD rules ---------------*- C++ -*-===//
//
// This file declares AdjointState, the object through which derivative
// rules read primal values and accumulate adjoints, and the
// AdjointOpInterface that rules implement.
//
//===----------------------------------------------------------------------===//

#ifndef STENCIL_ADJOINT_ADJOINTOPINTERFACE_H
#define STENCIL_ADJOINT_ADJOINTOPINTERFACE_H

#include "Stencil/Dialect/StencilOps.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/OpDefinition.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"

namespace mlir::stencil {

/// What a derivative rule may see and do while --stencil-adjoint reverses
/// one region: either the body of a domain (rules then emit into the body
/// of the adjoint domain) or the top level of a function.
class AdjointState {
public:
  virtual ~AdjointState() = default;

  /// Returns the primal value of `value` usable at the builder's insertion
  /// point (a recomputed copy inside an adjoint domain, the forward-sweep
  /// copy at function level).
  Value getPrimal(Value value) const;

  /// Returns true if `value` carries a derivative (it depends on an active
  /// argument and has a float type).
  bool isActive(Value value) const { return active.contains(value); }

  /// Returns the adjoint accumulated so far for `value`, or null if it is
  /// (still) zero.
  Value getAdjoint(Value value) const { return adjoints.lookup(value); }

  /// Adds `contribution` to the adjoint of the active value `value`. Does
  /// nothing if `value` is not active.
  void addAdjoint(OpBuilder &builder, Location loc, Value value,
                  Value contribution);

  /// Returns the shadow (adjoint) array of the primal array `array`, or null
  /// if the array is passive.
  Value getShadow(Value array) const { return shadows.lookup(array); }

  /// Records that the shadow of the array `store` assigns must be reset to
  /// zero on the domain once the adjoint domain has consumed it.
  void addReset(StoreOp store) { resets.push_back(store); }

  /// Returns the seed of result `index` of the domain being reversed (the
  /// adjoint of the sum it computes), or null if it is zero.
  Value getResultSeed(unsigned index) const {
    return index < resultSeeds.size() ? resultSeeds[index] : Value();
  }

  //===--------------------------------------------------------------------===//
  // Driver side
  //===--------------------------------------------------------------------===//

  /// Maps primal values to the values that rules see through getPrimal.
  IRMapping primal;
  /// Active primal values.
  llvm::DenseSet<Value> active;
  /// Accumulated adjoints of primal values.
  llvm::DenseMap<Value, Value> adjoints;
  /// Shadow arrays, keyed by the primal array as rules see it.
  llvm::DenseMap<Value, Value> shadows;
  /// Stores whose shadow must be reset after the adjoint domain.
  SmallVector<StoreOp> resets;
  /// Seeds of the results of the domain being reversed.
  SmallVector<Value> resultSeeds;
};

/// Erases the ops of `block` whose results are unused and that have no
/// effect other than reading memory (in their regions too), so that the
/// recomputed primal keeps only what the derivatives need. Calls count as
/// pure: the dialect requires callees in a domain to be pure functions of
/// their operands.
void eraseDeadBodyOps(Block &block);

/// Reports at `op` that it has no adjoint rule; for an op with regions, the
/// message says which choice ops are differentiated (arith.select, scf.if).
InFlightDiagnostic emitNoAdjointRule(Operation *op);

} // namespace mlir::stencil

#include "Stencil/Adjoint/AdjointOpInterface.h.inc"

#endif // STENCIL_ADJOINT_ADJOINTOPINTERFACE_H
