//===- BlockArguments.cpp - The block arguments of distributed functions -===//
//
// The `blocks` of each distributed function's `stencil.distribution`: the
// arguments that are the process's blocks (with halos), for callers that
// check them per process (the ABI JSON, stencilad).
//
//===----------------------------------------------------------------------===//

#include "DistributeEmitter.h"
#include "Stencil/Dialect/StencilDialect.h"

#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Interfaces/ViewLikeInterface.h"

using namespace mlir;
using namespace mlir::stencil;

/// The arguments of `func` that `value` may be, through loop-carried
/// values, branches and views (a time loop's adjoint hands its states
/// around through `scf.for` and `scf.if`).
static SmallVector<BlockArgument> getArgumentOrigins(func::FuncOp func,
                                                     Value value) {
  SmallVector<BlockArgument> origins;
  SmallVector<Value> todo = {value};
  DenseSet<Value> seen;
  auto yielded = [](Operation *terminator, unsigned i) {
    return terminator->getOperand(i);
  };
  while (!todo.empty()) {
    Value v = todo.pop_back_val();
    if (!seen.insert(v).second)
      continue;
    if (auto arg = dyn_cast<BlockArgument>(v)) {
      if (arg.getOwner() == &func.getBody().front()) {
        origins.push_back(arg);
      } else if (auto loop = dyn_cast<scf::ForOp>(arg.getOwner()->getParentOp());
                 loop && arg.getArgNumber() > 0) {
        unsigned i = arg.getArgNumber() - 1;
        todo.push_back(loop.getInitArgs()[i]);
        todo.push_back(yielded(loop.getBody()->getTerminator(), i));
      } else if (auto loop =
                     dyn_cast<scf::WhileOp>(arg.getOwner()->getParentOp())) {
        unsigned i = arg.getArgNumber();
        if (arg.getOwner() == loop.getBeforeBody()) {
          todo.push_back(loop.getInits()[i]);
          todo.push_back(loop.getYieldOp().getOperand(i));
        } else {
          todo.push_back(loop.getConditionOp().getArgs()[i]);
        }
      }
      continue;
    }
    Operation *op = v.getDefiningOp();
    unsigned i = cast<OpResult>(v).getResultNumber();
    if (auto loop = dyn_cast<scf::ForOp>(op)) {
      todo.push_back(loop.getInitArgs()[i]);
      todo.push_back(yielded(loop.getBody()->getTerminator(), i));
    } else if (auto loop = dyn_cast<scf::WhileOp>(op)) {
      todo.push_back(loop.getConditionOp().getArgs()[i]);
    } else if (auto branch = dyn_cast<scf::IfOp>(op)) {
      todo.push_back(yielded(branch.thenBlock()->getTerminator(), i));
      if (branch.elseBlock())
        todo.push_back(yielded(branch.elseBlock()->getTerminator(), i));
    } else if (auto view = dyn_cast<ViewLikeOpInterface>(op)) {
      todo.push_back(view.getViewSource());
    }
  }
  return origins;
}

/// An adjoint takes its primal's arguments as the primal does, also those
/// it does not access (a linear adjoint's copy of the primal's state), and
/// a shadow per `stencil.shadows_of` entry after them: those of blocks are
/// blocks. Returns whether `blocks` grew.
static bool inheritBlocks(ModuleOp module,
                          const DenseSet<Operation *> &distributed,
                          BlockArgumentSets &blocks) {
  bool changed = false;
  for (auto func : module.getOps<func::FuncOp>()) {
    auto primalName = func->getAttrOfType<FlatSymbolRefAttr>(
        StencilDialect::AdjointOfAttrHelper::getNameStr());
    auto shadows = func->getAttrOfType<DenseI64ArrayAttr>(
        StencilDialect::ShadowsOfAttrHelper::getNameStr());
    auto primal = primalName
                      ? module.lookupSymbol<func::FuncOp>(primalName.getAttr())
                      : func::FuncOp();
    if (!distributed.contains(func) || !primal || !shadows ||
        !blocks.count(primal))
      continue;
    SmallVector<int64_t> of(blocks[primal].getArrayRef());
    // Both have the global extents last: the primal's own arguments come
    // first in each.
    int64_t first = primal.getNumArguments();
    if (auto extras = primal->getAttrOfType<ArrayAttr>(
            StencilDialect::ExtraArgsAttrHelper::getNameStr()))
      first -= int64_t(extras.size());
    for (int64_t k : of)
      if (k < first)
        changed |= blocks[func].insert(k);
    for (auto [j, shadowOf] : llvm::enumerate(shadows.asArrayRef()))
      if (llvm::is_contained(of, shadowOf) &&
          first + int64_t(j) < int64_t(func.getNumArguments()))
        changed |= blocks[func].insert(first + int64_t(j));
  }
  return changed;
}

/// Records in each distributed function's `stencil.distribution` which of
/// its arguments are blocks: those of the functions with domains, in an
/// adjoint those of its primal (inheritBlocks), and in a caller (a time
/// loop's adjoint) the arguments it passes where a callee takes a block.
void mlir::stencil::recordBlockArguments(
    ModuleOp module, const DenseSet<Operation *> &distributed,
    BlockArgumentSets &blocks) {
  for (bool changed = true; changed;) {
    changed = inheritBlocks(module, distributed, blocks);
    module.walk([&](func::CallOp call) {
      Operation *callee = module.lookupSymbol(call.getCalleeAttr());
      auto caller = call->getParentOfType<func::FuncOp>();
      if (!distributed.contains(callee) || !blocks.count(callee))
        return;
      for (int64_t i : SmallVector<int64_t>(blocks[callee].getArrayRef()))
        for (BlockArgument arg : getArgumentOrigins(caller, call.getOperand(i)))
          changed |= blocks[caller].insert(arg.getArgNumber());
    });
  }
  for (auto func : module.getOps<func::FuncOp>())
    if (distributed.contains(func))
      setBlockArguments(func, blocks.lookup(func).getArrayRef());
}

