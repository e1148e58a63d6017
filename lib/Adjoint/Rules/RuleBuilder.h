//===- RuleBuilder.h - Helpers for writing derivative rules -------*- C++ -*-===//
//
// This file declares the small vocabulary that the arith, math and func
// derivative rules are written in: a base model that fetches the result
// adjoint, and a builder of float arithmetic on primal values.
//
//===----------------------------------------------------------------------===//

#ifndef STENCIL_LIB_ADJOINT_ADJOINT_RULEBUILDER_H
#define STENCIL_LIB_ADJOINT_ADJOINT_RULEBUILDER_H

#include "Stencil/Adjoint/AdjointOpInterface.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"

namespace mlir::stencil::rules {

/// What a single-result float rule works with: the builder, the state and
/// the adjoint `adj` of the op's result.
///
/// Every helper below creates an op at the insertion point. C++ leaves the
/// evaluation order of function arguments unspecified (GCC evaluates them
/// right to left, Clang left to right), so never pass two op-creating calls
/// as arguments of one call, as in `rb.add(rb.cst(z, 1.0), rb.mul(z, z))`:
/// bind them to locals first, in the order the ops should appear, so that
/// the emitted IR does not depend on the compiler.
class RuleBuilder {
public:
  RuleBuilder(OpBuilder &builder, Location loc, AdjointState &state,
              Value adj)
      : b(builder), loc(loc), state(state), adj(adj) {}

  /// The primal value of `v` in the adjoint code.
  Value primal(Value v) const { return state.getPrimal(v); }
  /// A float constant of the type of `like`.
  Value cst(Value like, double value) const {
    return arith::ConstantOp::create(b, loc, like.getType(),
                                     b.getFloatAttr(like.getType(), value));
  }
  Value add(Value x, Value y) const { return arith::AddFOp::create(b, loc, x, y); }
  Value sub(Value x, Value y) const { return arith::SubFOp::create(b, loc, x, y); }
  Value mul(Value x, Value y) const { return arith::MulFOp::create(b, loc, x, y); }
  Value div(Value x, Value y) const { return arith::DivFOp::create(b, loc, x, y); }
  Value neg(Value x) const { return arith::NegFOp::create(b, loc, x); }
  Value cmp(arith::CmpFPredicate pred, Value x, Value y) const {
    return arith::CmpFOp::create(b, loc, pred, x, y);
  }
  Value select(Value cond, Value x, Value y) const {
    return arith::SelectOp::create(b, loc, cond, x, y);
  }

  /// If `operand` is active, adds `adj * partial()` to its adjoint; the
  /// partial is only built when needed.
  void chain(Value operand, function_ref<Value()> partial) const {
    if (state.isActive(operand))
      state.addAdjoint(b, loc, operand, mul(adj, partial()));
  }
  /// If `operand` is active, adds `contribution()` to its adjoint.
  void accumulate(Value operand, function_ref<Value()> contribution) const {
    if (state.isActive(operand))
      state.addAdjoint(b, loc, operand, contribution());
  }

  OpBuilder &b;
  Location loc;
  AdjointState &state;
  /// The adjoint of the op's (single) result.
  Value adj;
};

/// Base of the rules of single-result float ops. `Concrete::propagate(op,
/// rb)` is called only when the result has a non-zero adjoint.
template <typename Concrete, typename OpTy>
struct FloatRule
    : public AdjointOpInterface::ExternalModel<Concrete, OpTy> {
  LogicalResult emitAdjoint(Operation *op, OpBuilder &builder,
                            AdjointState &state) const {
    Value adj = state.getAdjoint(op->getResult(0));
    if (!adj)
      return success();
    RuleBuilder rb(builder, op->getLoc(), state, adj);
    return static_cast<const Concrete *>(this)->propagate(cast<OpTy>(op), rb);
  }
};

/// Rule of ops whose result has a zero derivative (constants, comparisons,
/// floor, ceil): nothing to propagate.
template <typename OpTy>
struct ZeroRule
    : public AdjointOpInterface::ExternalModel<ZeroRule<OpTy>, OpTy> {
  LogicalResult emitAdjoint(Operation *, OpBuilder &, AdjointState &) const {
    return success();
  }
};

} // namespace mlir::stencil::rules

#endif // STENCIL_LIB_ADJOINT_ADJOINT_RULEBUILDER_H
