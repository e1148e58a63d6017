//===- ActiveOutputs.cpp - Whether an adjoint can be non-zero ---*- C++ -*-===//
//
// This file implements warnIfNoActiveOutput (Differentiate.h). The gradient
// an adjoint computes flows back from the function's outputs: its float
// results (seeded) and the active arrays it writes (their shadows). A
// function with neither has an adjoint that computes nothing, every
// gradient 0, which is almost always an output array left unmarked: the
// warning names the arrays the function writes without them being active.
//
//===----------------------------------------------------------------------===//

#include "Differentiate.h"

#include "Stencil/Dialect/StencilInterfaces.h"

#include "mlir/Dialect/MemRef/IR/MemRef.h"

using namespace mlir;
using namespace mlir::stencil;
using namespace mlir::stencil::ad;

/// The argument of `func` that `array` is, following the iter_args of time
/// loops to their initial values; null for any other array (a temporary).
static BlockArgument argumentOf(func::FuncOp func, Value array) {
  while (auto arg = dyn_cast<BlockArgument>(array)) {
    Operation *owner = arg.getOwner()->getParentOp();
    if (owner == func.getOperation())
      return arg;
    auto loop = dyn_cast<scf::ForOp>(owner);
    if (!loop || arg == loop.getInductionVar())
      return {};
    array = loop.getTiedLoopInit(arg)->get();
  }
  return {};
}

/// The array `op` writes, if it writes one.
static Value writtenArray(Operation *op) {
  if (auto access = dyn_cast<AccessOpInterface>(op))
    return access.isWrite() ? access.getAccessedArray() : Value();
  if (auto store = dyn_cast<memref::StoreOp>(op))
    return store.getMemRef();
  return {};
}

void ad::warnIfNoActiveOutput(func::FuncOp func) {
  if (func.isExternal() || func.getNumResults() != 0)
    return;
  // The first write of each argument that is written but not active.
  llvm::MapVector<BlockArgument, Operation *> passiveWrites;
  bool activeWrite = false;
  func.walk([&](Operation *op) {
    Value array = writtenArray(op);
    BlockArgument arg = array ? argumentOf(func, array) : BlockArgument();
    if (!arg)
      return;
    if (func.getArgAttr(arg.getArgNumber(), kActiveAttr))
      activeWrite = true;
    else
      passiveWrites.insert({arg, op});
  });
  if (activeWrite)
    return;
  InFlightDiagnostic diag = func.emitWarning()
                            << "'" << func.getName()
                            << "' returns no value and writes no argument "
                               "marked "
                            << kActiveAttr
                            << ": nothing flows back into its adjoint, and "
                               "every gradient it computes is 0";
  if (passiveWrites.empty())
    return;
  diag << "; it writes ";
  llvm::interleave(
      passiveWrites, diag,
      [&](auto &entry) { diag << "argument #" << entry.first.getArgNumber(); },
      ", ");
  diag << ", not marked " << kActiveAttr
       << " (mark the outputs to differentiate through)";
  for (auto &[arg, op] : passiveWrites)
    diag.attachNote(op->getLoc())
        << "argument #" << arg.getArgNumber() << " is written here";
}
