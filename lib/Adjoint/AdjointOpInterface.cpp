//===- AdjointOpInterface.cpp - Reverse-mode AD rules -----------*- C++ -*-===//
//
// This file implements AdjointState and includes the generated interface
// definitions.
//
//===----------------------------------------------------------------------===//

#include "Stencil/Adjoint/AdjointOpInterface.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Interfaces/CallInterfaces.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

using namespace mlir;
using namespace mlir::stencil;

#include "Stencil/Adjoint/AdjointOpInterface.cpp.inc"

Value AdjointState::getPrimal(Value value) const {
  return primal.lookupOrDefault(value);
}

void AdjointState::addAdjoint(OpBuilder &builder, Location loc, Value value,
                              Value contribution) {
  if (!isActive(value) || !contribution)
    return;
  Value &adjoint = adjoints[value];
  if (!adjoint) {
    adjoint = contribution;
    return;
  }
  adjoint = arith::AddFOp::create(builder, loc, adjoint, contribution);
}

InFlightDiagnostic mlir::stencil::emitNoAdjointRule(Operation *op) {
  InFlightDiagnostic diag = op->emitOpError("has no adjoint rule");
  if (op->getNumRegions() != 0)
    diag << "; of the ops with regions only scf.if with results is "
            "differentiated: write a choice as arith.select where both "
            "values are defined at every point, or as scf.if yielding the "
            "value where one may not be (sqrt, log or a division where the "
            "condition excludes it)";
  return diag;
}

/// Whether `op` and the ops it holds only compute values or read arrays.
static bool isRemovable(Operation *op) {
  WalkResult walk = op->walk([](Operation *nested) {
    bool pure = isa<GatherOp, CallOpInterface>(nested) ||
                (nested->hasTrait<OpTrait::HasRecursiveMemoryEffects>() &&
                 !isa<MemoryEffectOpInterface>(nested)) ||
                isMemoryEffectFree(nested);
    return pure ? WalkResult::advance() : WalkResult::interrupt();
  });
  return !walk.wasInterrupted();
}

void mlir::stencil::eraseDeadBodyOps(Block &block) {
  for (Operation &op : llvm::make_early_inc_range(llvm::reverse(block))) {
    if (op.hasTrait<OpTrait::IsTerminator>() || !op.use_empty())
      continue;
    if (isRemovable(&op))
      op.erase();
  }
}
