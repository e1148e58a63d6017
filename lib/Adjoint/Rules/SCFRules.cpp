//===- SCFRules.cpp - Derivative rule of scf.if -----------------*- C++ -*-===//
//
// This file attaches AdjointOpInterface to scf.if with results, the form of
// a choice whose untaken value may be undefined (`t > 0 ? sqrt(t) : 0`).
// Its adjoint is an scf.if on the same condition: each arm recomputes what
// its derivatives need, reverses its own ops and yields the cotangents of
// the active values it uses from above, which are added to their adjoints
// after the branch. Only the taken arm's derivatives are evaluated, so an
// arm that is undefined where it is not taken contributes nothing (an
// arith.select would multiply its NaN by zero). The arms hold no array
// accesses (the dialect's verifier keeps them in the domain body), so the
// accumulates of the adjoint stay outside the branch.
//
//===----------------------------------------------------------------------===//

#include "Stencil/Adjoint/AdjointOpInterface.h"
#include "Stencil/Adjoint/AdjointRules.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/DialectRegistry.h"
#include "llvm/ADT/SetVector.h"

using namespace mlir;
using namespace mlir::stencil;

/// Returns true if `type` is f32 or f64, the types that carry derivatives.
static bool isDifferentiable(Type type) { return type.isF32() || type.isF64(); }

/// Marks active, in `state`, the float results of the ops of `block` that
/// use an active value (in their nested regions too), in order.
static void markActive(Block &block, AdjointState &state) {
  for (Operation &op : block.without_terminator()) {
    bool uses = false;
    op.walk([&](Operation *nested) {
      uses |= llvm::any_of(nested->getOperands(), [&](Value operand) {
        return state.isActive(operand);
      });
    });
    if (!uses)
      continue;
    for (Value result : op.getResults())
      if (isDifferentiable(result.getType()))
        state.active.insert(result);
  }
}

/// Returns the active values that the arms of `op` use and that are
/// defined above it, in the order of their first use.
static SmallVector<Value> getActiveCaptures(scf::IfOp op,
                                            const AdjointState &state) {
  llvm::SetVector<Value> captures;
  op->walk([&](Operation *nested) {
    for (Value operand : nested->getOperands())
      if (state.isActive(operand) &&
          !op->isAncestor(operand.getParentRegion()->getParentOp()))
        captures.insert(operand);
  });
  return captures.takeVector();
}

/// Fills `block` (empty) with the reverse of the arm `arm`: recomputes its
/// ops from the primal values of `outer`, seeds the operands of its
/// `scf.yield` with `seeds` (the adjoints of the branch's results, null for
/// zero), reverses its ops by their rules and yields the cotangent of each
/// of `captures`.
static LogicalResult reverseArm(Block &arm, Block &block, Location loc,
                                ArrayRef<Value> seeds,
                                ArrayRef<Value> captures,
                                const AdjointState &outer) {
  AdjointState state;
  state.primal = outer.primal;
  state.active = outer.active;
  state.shadows = outer.shadows;
  markActive(arm, state);

  OpBuilder builder = OpBuilder::atBlockEnd(&block);
  for (Operation &op : arm.without_terminator())
    builder.clone(op, state.primal);
  for (auto [value, seed] :
       llvm::zip_equal(arm.getTerminator()->getOperands(), seeds))
    state.addAdjoint(builder, loc, value, seed);
  for (Operation &op : llvm::reverse(arm.without_terminator())) {
    if (llvm::none_of(op.getResults(),
                      [&](Value result) { return state.getAdjoint(result); }))
      continue;
    auto rule = dyn_cast<AdjointOpInterface>(op);
    if (!rule)
      return emitNoAdjointRule(&op);
    if (failed(rule.emitAdjoint(builder, state)))
      return failure();
  }

  SmallVector<Value> cotangents;
  for (Value capture : captures) {
    Value cotangent = state.getAdjoint(capture);
    if (!cotangent)
      cotangent = arith::ConstantOp::create(
          builder, loc, capture.getType(),
          builder.getFloatAttr(capture.getType(), 0.0));
    cotangents.push_back(cotangent);
  }
  scf::YieldOp::create(builder, loc, cotangents);
  eraseDeadBodyOps(block);
  return success();
}

namespace {

/// `x = c ? f(a) : g(a)` => `ab += c ? f'(a) xb : g'(a) xb`, with each
/// derivative evaluated only in its own arm.
struct IfRule : public AdjointOpInterface::ExternalModel<IfRule, scf::IfOp> {
  LogicalResult emitAdjoint(Operation *op, OpBuilder &builder,
                            AdjointState &state) const {
    auto branch = cast<scf::IfOp>(op);
    SmallVector<Value> seeds;
    for (Value result : branch.getResults())
      seeds.push_back(state.getAdjoint(result));
    if (llvm::none_of(seeds, [](Value seed) { return seed; }))
      return success();
    // A branch with results has an else arm.
    SmallVector<Value> captures = getActiveCaptures(branch, state);
    if (captures.empty())
      return success();

    Location loc = branch.getLoc();
    auto adjoint = scf::IfOp::create(
        builder, loc, ValueRange(captures).getTypes(),
        state.getPrimal(branch.getCondition()), /*addThenBlock=*/true,
        /*addElseBlock=*/true);
    if (failed(reverseArm(*branch.thenBlock(), *adjoint.thenBlock(), loc,
                          seeds, captures, state)) ||
        failed(reverseArm(*branch.elseBlock(), *adjoint.elseBlock(), loc,
                          seeds, captures, state))) {
      adjoint.erase();
      return failure();
    }
    for (auto [capture, cotangent] :
         llvm::zip_equal(captures, adjoint.getResults()))
      state.addAdjoint(builder, loc, capture, cotangent);
    return success();
  }
};

} // namespace

void mlir::stencil::registerSCFAdjointRules(DialectRegistry &registry) {
  registry.addExtension(+[](MLIRContext *ctx, scf::SCFDialect *) {
    scf::IfOp::attachInterface<IfRule>(*ctx);
  });
}
