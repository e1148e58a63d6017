//===- StepState.cpp - What a step's adjoint does with the state -*- C++ -*-===//
//
// The reversal of a time loop (TimeLoopAdjoint.cpp) gives each step's
// adjoint the state before the step: from the working arrays or from a
// snapshot, which are work space afterwards. The straight-line
// differentiator recomputes a step's forward domains in its adjoint, also
// those whose values the reverse sweep never reads (a linear step's);
// pruneUnreadStores removes them, and readsStateContents then tells whether
// the reversal needs the states at all.
//
//===----------------------------------------------------------------------===//

#include "TimeLoopBindings.h"

#include "Stencil/Dialect/StencilOps.h"

#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"

using namespace mlir;
using namespace mlir::stencil;
using namespace mlir::stencil::ad;

/// Whether `op` only writes arrays of `state` that are not in `used`, and
/// does nothing else with a visible effect.
static bool onlyWritesUnused(Operation *op,
                             const llvm::SmallPtrSetImpl<Value> &state,
                             const llvm::SmallPtrSetImpl<Value> &used) {
  if (op->getNumResults() != 0 || !isa<DomainOp>(op))
    return false;
  std::optional<SmallVector<MemoryEffects::EffectInstance>> effects =
      getEffectsRecursively(op);
  if (!effects)
    return false;
  bool writes = false;
  for (const MemoryEffects::EffectInstance &effect : *effects) {
    if (isa<MemoryEffects::Read>(effect.getEffect()))
      continue;
    Value array = effect.getValue();
    if (!isa<MemoryEffects::Write>(effect.getEffect()) || !array ||
        !state.contains(array) || used.contains(array))
      return false;
    writes = true;
  }
  return writes;
}

void mlir::stencil::ad::pruneUnreadStores(func::FuncOp func,
                                      ArrayRef<BlockArgument> state) {
  llvm::SmallPtrSet<Value, 8> stateSet(state.begin(), state.end());
  // The values the ops after the current one use, anywhere inside them.
  llvm::SmallPtrSet<Value, 16> used;
  Block &body = func.getBody().front();
  for (Operation &op : llvm::make_early_inc_range(llvm::reverse(body))) {
    if (onlyWritesUnused(&op, stateSet, used)) {
      op.erase();
      continue;
    }
    op.walk([&](Operation *nested) {
      for (Value operand : nested->getOperands())
        used.insert(operand);
    });
  }
}

bool mlir::stencil::ad::readsStateContents(BlockArgument arg) {
  // Extents are not contents: the arrays the state is read from have the
  // state's extents.
  return llvm::any_of(arg.getUsers(), [](Operation *user) {
    return !isa<memref::DimOp>(user);
  });
}
