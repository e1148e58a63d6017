//===- MathRules.cpp - Derivative rules of the math dialect -----*- C++ -*-===//
//
// This file attaches AdjointOpInterface to the math ops. Conventions at
// non-differentiable points (docs/Adjoint.md): |x|' = 0 at x = 0;
// d(a^b)/db = 0 where a <= 0; floor and ceil have zero derivative.
//
//===----------------------------------------------------------------------===//

#include "RuleBuilder.h"

#include "Stencil/Adjoint/AdjointRules.h"

#include "mlir/IR/DialectRegistry.h"

#include <cmath>

using namespace mlir;
using namespace mlir::stencil;
using namespace mlir::stencil::rules;

namespace {

/// Rule of a unary op `z = f(x)` whose derivative `Derivative(rb, x, z)` is
/// built from the primal operand and result.
template <typename OpTy, Value (*Derivative)(RuleBuilder &, Value, Value)>
struct UnaryRule : FloatRule<UnaryRule<OpTy, Derivative>, OpTy> {
  LogicalResult propagate(OpTy op, RuleBuilder &rb) const {
    rb.chain(op->getOperand(0), [&] {
      return Derivative(rb, rb.primal(op->getOperand(0)),
                        rb.primal(op->getResult(0)));
    });
    return success();
  }
};

Value dSin(RuleBuilder &rb, Value x, Value) {
  return math::CosOp::create(rb.b, rb.loc, x);
}
Value dCos(RuleBuilder &rb, Value x, Value) {
  return rb.neg(math::SinOp::create(rb.b, rb.loc, x));
}
Value dTan(RuleBuilder &rb, Value, Value z) {
  Value one = rb.cst(z, 1.0);
  Value z2 = rb.mul(z, z);
  return rb.add(one, z2);
}
Value dExp(RuleBuilder &, Value, Value z) { return z; }
Value dExp2(RuleBuilder &rb, Value, Value z) {
  return rb.mul(z, rb.cst(z, M_LN2));
}
Value dExpM1(RuleBuilder &rb, Value, Value z) {
  return rb.add(z, rb.cst(z, 1.0));
}
Value dLog(RuleBuilder &rb, Value x, Value) {
  return rb.div(rb.cst(x, 1.0), x);
}
Value dLog2(RuleBuilder &rb, Value x, Value) {
  Value num = rb.cst(x, 1.0);
  Value ln2 = rb.cst(x, M_LN2);
  Value den = rb.mul(x, ln2);
  return rb.div(num, den);
}
Value dLog10(RuleBuilder &rb, Value x, Value) {
  Value num = rb.cst(x, 1.0);
  Value ln10 = rb.cst(x, M_LN10);
  Value den = rb.mul(x, ln10);
  return rb.div(num, den);
}
Value dLog1p(RuleBuilder &rb, Value x, Value) {
  Value num = rb.cst(x, 1.0);
  Value one = rb.cst(x, 1.0);
  Value den = rb.add(one, x);
  return rb.div(num, den);
}
Value dSqrt(RuleBuilder &rb, Value, Value z) {
  return rb.div(rb.cst(z, 0.5), z);
}
Value dRsqrt(RuleBuilder &rb, Value x, Value z) {
  return rb.div(rb.mul(rb.cst(z, -0.5), z), x);
}
Value dCbrt(RuleBuilder &rb, Value x, Value z) {
  return rb.div(z, rb.mul(rb.cst(x, 3.0), x));
}
Value dTanh(RuleBuilder &rb, Value, Value z) {
  Value one = rb.cst(z, 1.0);
  Value z2 = rb.mul(z, z);
  return rb.sub(one, z2);
}
Value dSinh(RuleBuilder &rb, Value x, Value) {
  return math::CoshOp::create(rb.b, rb.loc, x);
}
Value dCosh(RuleBuilder &rb, Value x, Value) {
  return math::SinhOp::create(rb.b, rb.loc, x);
}
Value dAtan(RuleBuilder &rb, Value x, Value) {
  Value num = rb.cst(x, 1.0);
  Value one = rb.cst(x, 1.0);
  Value x2 = rb.mul(x, x);
  Value den = rb.add(one, x2);
  return rb.div(num, den);
}
/// sign(x), with 0 at x = 0 (and for NaN).
Value dAbs(RuleBuilder &rb, Value x, Value) {
  Value zero = rb.cst(x, 0.0);
  Value positive = rb.cmp(arith::CmpFPredicate::OGT, x, zero);
  Value negative = rb.cmp(arith::CmpFPredicate::OLT, x, zero);
  Value one = rb.cst(x, 1.0);
  Value minusOne = rb.cst(x, -1.0);
  Value nonPositive = rb.select(negative, minusOne, zero);
  return rb.select(positive, one, nonPositive);
}

/// z = atan2(y, x): y_b += z_b * x / (x^2 + y^2), x_b -= z_b * y / (x^2 + y^2).
struct Atan2Rule : FloatRule<Atan2Rule, math::Atan2Op> {
  LogicalResult propagate(math::Atan2Op op, RuleBuilder &rb) const {
    Value y = rb.primal(op.getLhs()), x = rb.primal(op.getRhs());
    Value x2 = rb.mul(x, x);
    Value y2 = rb.mul(y, y);
    Value norm = rb.add(x2, y2);
    rb.chain(op.getLhs(), [&] { return rb.div(x, norm); });
    rb.chain(op.getRhs(), [&] { return rb.neg(rb.div(y, norm)); });
    return success();
  }
};

/// z = a^b: a_b += z_b * b * a^(b-1); b_b += z_b * (a > 0 ? z * log(a) : 0).
struct PowFRule : FloatRule<PowFRule, math::PowFOp> {
  LogicalResult propagate(math::PowFOp op, RuleBuilder &rb) const {
    Value a = rb.primal(op.getLhs()), b = rb.primal(op.getRhs());
    rb.chain(op.getLhs(), [&] {
      Value pow = math::PowFOp::create(rb.b, rb.loc, a,
                                       rb.sub(b, rb.cst(b, 1.0)));
      return rb.mul(b, pow);
    });
    rb.chain(op.getRhs(), [&] {
      Value zero = rb.cst(a, 0.0);
      Value positive = rb.cmp(arith::CmpFPredicate::OGT, a, zero);
      Value safe = rb.select(positive, a, rb.cst(a, 1.0));
      Value log = math::LogOp::create(rb.b, rb.loc, safe);
      return rb.select(positive, rb.mul(rb.primal(op.getResult()), log),
                       zero);
    });
    return success();
  }
};

/// z = a^n (integer n): a_b += z_b * n * a^(n-1).
struct FPowIRule : FloatRule<FPowIRule, math::FPowIOp> {
  LogicalResult propagate(math::FPowIOp op, RuleBuilder &rb) const {
    rb.chain(op.getLhs(), [&] {
      Value a = rb.primal(op.getLhs()), n = rb.primal(op.getRhs());
      Value one = arith::ConstantOp::create(
          rb.b, rb.loc, n.getType(), rb.b.getIntegerAttr(n.getType(), 1));
      Value nm1 = arith::SubIOp::create(rb.b, rb.loc, n, one);
      Value pow = math::FPowIOp::create(rb.b, rb.loc, a, nm1);
      Value nf = arith::SIToFPOp::create(rb.b, rb.loc, a.getType(), n);
      return rb.mul(nf, pow);
    });
    return success();
  }
};

/// z = copysign(a, b) = |a| sign(b): a_b += z_b * sign(a) * sign(b), where
/// sign follows the sign bit; b gets nothing.
struct CopySignRule : FloatRule<CopySignRule, math::CopySignOp> {
  LogicalResult propagate(math::CopySignOp op, RuleBuilder &rb) const {
    rb.chain(op.getLhs(), [&] {
      Value a = rb.primal(op.getLhs()), b = rb.primal(op.getRhs());
      Value one = rb.cst(a, 1.0);
      Value signA = math::CopySignOp::create(rb.b, rb.loc, one, a);
      Value signB = math::CopySignOp::create(rb.b, rb.loc, one, b);
      return rb.mul(signA, signB);
    });
    return success();
  }
};

} // namespace

void mlir::stencil::registerMathAdjointRules(DialectRegistry &registry) {
  registry.addExtension(+[](MLIRContext *ctx, math::MathDialect *) {
    math::SinOp::attachInterface<UnaryRule<math::SinOp, dSin>>(*ctx);
    math::CosOp::attachInterface<UnaryRule<math::CosOp, dCos>>(*ctx);
    math::TanOp::attachInterface<UnaryRule<math::TanOp, dTan>>(*ctx);
    math::ExpOp::attachInterface<UnaryRule<math::ExpOp, dExp>>(*ctx);
    math::Exp2Op::attachInterface<UnaryRule<math::Exp2Op, dExp2>>(*ctx);
    math::ExpM1Op::attachInterface<UnaryRule<math::ExpM1Op, dExpM1>>(*ctx);
    math::LogOp::attachInterface<UnaryRule<math::LogOp, dLog>>(*ctx);
    math::Log2Op::attachInterface<UnaryRule<math::Log2Op, dLog2>>(*ctx);
    math::Log10Op::attachInterface<UnaryRule<math::Log10Op, dLog10>>(*ctx);
    math::Log1pOp::attachInterface<UnaryRule<math::Log1pOp, dLog1p>>(*ctx);
    math::SqrtOp::attachInterface<UnaryRule<math::SqrtOp, dSqrt>>(*ctx);
    math::RsqrtOp::attachInterface<UnaryRule<math::RsqrtOp, dRsqrt>>(*ctx);
    math::CbrtOp::attachInterface<UnaryRule<math::CbrtOp, dCbrt>>(*ctx);
    math::TanhOp::attachInterface<UnaryRule<math::TanhOp, dTanh>>(*ctx);
    math::SinhOp::attachInterface<UnaryRule<math::SinhOp, dSinh>>(*ctx);
    math::CoshOp::attachInterface<UnaryRule<math::CoshOp, dCosh>>(*ctx);
    math::AtanOp::attachInterface<UnaryRule<math::AtanOp, dAtan>>(*ctx);
    math::AbsFOp::attachInterface<UnaryRule<math::AbsFOp, dAbs>>(*ctx);
    math::Atan2Op::attachInterface<Atan2Rule>(*ctx);
    math::PowFOp::attachInterface<PowFRule>(*ctx);
    math::FPowIOp::attachInterface<FPowIRule>(*ctx);
    math::CopySignOp::attachInterface<CopySignRule>(*ctx);
    math::FloorOp::attachInterface<ZeroRule<math::FloorOp>>(*ctx);
    math::CeilOp::attachInterface<ZeroRule<math::CeilOp>>(*ctx);
  });
}
