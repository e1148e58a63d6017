//===- ArithRules.cpp - Derivative rules of the arith dialect ---*- C++ -*-===//
//
// This file attaches AdjointOpInterface to the arith float ops. Conventions
// at non-differentiable points (see docs/Adjoint.md): max/min send the whole
// adjoint to the first operand on ties; comparisons and constants carry no
// derivative.
//
//===----------------------------------------------------------------------===//

#include "RuleBuilder.h"

#include "Stencil/Adjoint/AdjointRules.h"

#include "mlir/IR/DialectRegistry.h"

using namespace mlir;
using namespace mlir::stencil;
using namespace mlir::stencil::rules;

namespace {

/// z = a + b: a_b += z_b, b_b += z_b.
struct AddFRule : FloatRule<AddFRule, arith::AddFOp> {
  LogicalResult propagate(arith::AddFOp op, RuleBuilder &rb) const {
    rb.accumulate(op.getLhs(), [&] { return rb.adj; });
    rb.accumulate(op.getRhs(), [&] { return rb.adj; });
    return success();
  }
};

/// z = a - b: a_b += z_b, b_b -= z_b.
struct SubFRule : FloatRule<SubFRule, arith::SubFOp> {
  LogicalResult propagate(arith::SubFOp op, RuleBuilder &rb) const {
    rb.accumulate(op.getLhs(), [&] { return rb.adj; });
    rb.accumulate(op.getRhs(), [&] { return rb.neg(rb.adj); });
    return success();
  }
};

/// z = a * b: a_b += z_b * b, b_b += z_b * a.
struct MulFRule : FloatRule<MulFRule, arith::MulFOp> {
  LogicalResult propagate(arith::MulFOp op, RuleBuilder &rb) const {
    rb.chain(op.getLhs(), [&] { return rb.primal(op.getRhs()); });
    rb.chain(op.getRhs(), [&] { return rb.primal(op.getLhs()); });
    return success();
  }
};

/// z = a / b: a_b += z_b / b, b_b -= z_b * z / b.
struct DivFRule : FloatRule<DivFRule, arith::DivFOp> {
  LogicalResult propagate(arith::DivFOp op, RuleBuilder &rb) const {
    Value b = rb.primal(op.getRhs());
    rb.accumulate(op.getLhs(), [&] { return rb.div(rb.adj, b); });
    rb.chain(op.getRhs(), [&] {
      return rb.neg(rb.div(rb.primal(op.getResult()), b));
    });
    return success();
  }
};

/// z = -a: a_b -= z_b.
struct NegFRule : FloatRule<NegFRule, arith::NegFOp> {
  LogicalResult propagate(arith::NegFOp op, RuleBuilder &rb) const {
    rb.accumulate(op.getOperand(), [&] { return rb.neg(rb.adj); });
    return success();
  }
};

/// z = a - trunc(a / b) * b: a_b += z_b, b_b -= z_b * trunc(a / b).
struct RemFRule : FloatRule<RemFRule, arith::RemFOp> {
  LogicalResult propagate(arith::RemFOp op, RuleBuilder &rb) const {
    rb.accumulate(op.getLhs(), [&] { return rb.adj; });
    rb.chain(op.getRhs(), [&] {
      Value quotient = rb.div(rb.primal(op.getLhs()), rb.primal(op.getRhs()));
      return rb.neg(math::TruncOp::create(rb.b, rb.loc, quotient));
    });
    return success();
  }
};

/// z = max(a, b) or min(a, b): the adjoint goes to the operand that was
/// selected; on ties (a == b) to the first operand.
template <typename OpTy, arith::CmpFPredicate FirstWins>
struct SelectLikeRule : FloatRule<SelectLikeRule<OpTy, FirstWins>, OpTy> {
  LogicalResult propagate(OpTy op, RuleBuilder &rb) const {
    Value first = rb.cmp(FirstWins, rb.primal(op.getLhs()),
                         rb.primal(op.getRhs()));
    Value zero = rb.cst(rb.adj, 0.0);
    rb.accumulate(op.getLhs(), [&] { return rb.select(first, rb.adj, zero); });
    rb.accumulate(op.getRhs(), [&] { return rb.select(first, zero, rb.adj); });
    return success();
  }
};

/// z = select(c, a, b): a_b += c ? z_b : 0, b_b += c ? 0 : z_b.
struct SelectRule : FloatRule<SelectRule, arith::SelectOp> {
  LogicalResult propagate(arith::SelectOp op, RuleBuilder &rb) const {
    Value cond = rb.primal(op.getCondition());
    Value zero = rb.cst(rb.adj, 0.0);
    rb.accumulate(op.getTrueValue(),
                  [&] { return rb.select(cond, rb.adj, zero); });
    rb.accumulate(op.getFalseValue(),
                  [&] { return rb.select(cond, zero, rb.adj); });
    return success();
  }
};

/// z = extf(a): a_b += truncf(z_b).
struct ExtFRule : FloatRule<ExtFRule, arith::ExtFOp> {
  LogicalResult propagate(arith::ExtFOp op, RuleBuilder &rb) const {
    rb.accumulate(op.getIn(), [&] {
      return arith::TruncFOp::create(rb.b, rb.loc, op.getIn().getType(),
                                     rb.adj);
    });
    return success();
  }
};

/// z = truncf(a): a_b += extf(z_b).
struct TruncFRule : FloatRule<TruncFRule, arith::TruncFOp> {
  LogicalResult propagate(arith::TruncFOp op, RuleBuilder &rb) const {
    rb.accumulate(op.getIn(), [&] {
      return arith::ExtFOp::create(rb.b, rb.loc, op.getIn().getType(),
                                   rb.adj);
    });
    return success();
  }
};

} // namespace

void mlir::stencil::registerArithAdjointRules(DialectRegistry &registry) {
  registry.addExtension(+[](MLIRContext *ctx, arith::ArithDialect *) {
    using Pred = arith::CmpFPredicate;
    arith::AddFOp::attachInterface<AddFRule>(*ctx);
    arith::SubFOp::attachInterface<SubFRule>(*ctx);
    arith::MulFOp::attachInterface<MulFRule>(*ctx);
    arith::DivFOp::attachInterface<DivFRule>(*ctx);
    arith::NegFOp::attachInterface<NegFRule>(*ctx);
    arith::RemFOp::attachInterface<RemFRule>(*ctx);
    arith::MaximumFOp::attachInterface<
        SelectLikeRule<arith::MaximumFOp, Pred::OGE>>(*ctx);
    arith::MaxNumFOp::attachInterface<
        SelectLikeRule<arith::MaxNumFOp, Pred::OGE>>(*ctx);
    arith::MinimumFOp::attachInterface<
        SelectLikeRule<arith::MinimumFOp, Pred::OLE>>(*ctx);
    arith::MinNumFOp::attachInterface<
        SelectLikeRule<arith::MinNumFOp, Pred::OLE>>(*ctx);
    arith::SelectOp::attachInterface<SelectRule>(*ctx);
    arith::ExtFOp::attachInterface<ExtFRule>(*ctx);
    arith::TruncFOp::attachInterface<TruncFRule>(*ctx);
    arith::ConstantOp::attachInterface<ZeroRule<arith::ConstantOp>>(*ctx);
    arith::CmpFOp::attachInterface<ZeroRule<arith::CmpFOp>>(*ctx);
  });
}
