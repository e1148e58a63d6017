//===- MathToC99.cpp - Math ops as calls of C99's <math.h> ----------------===//
//
// This file implements the math patterns of --stencil-convert-to-emitc:
// each math op that has a C99 function of the same meaning becomes a call
// of it (`sqrt`, or `sqrtf` on f32). Upstream's MathToEmitC covers only
// some of them (not sqrt or log); this is the one list the C route uses.
//
//===----------------------------------------------------------------------===//

#include "MathToC99.h"

#include "mlir/Dialect/EmitC/IR/EmitC.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Transforms/DialectConversion.h"

using namespace mlir;

namespace {
/// `Op` on f32 or f64 scalars as a call of the C99 function `name`
/// (`name` + "f" on f32).
template <typename Op>
struct MathCall : public OpConversionPattern<Op> {
  MathCall(const TypeConverter &converter, MLIRContext *context,
           StringRef name)
      : OpConversionPattern<Op>(converter, context), name(name) {}

  LogicalResult
  matchAndRewrite(Op op, typename Op::Adaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Type type = op.getType();
    if (!type.isF32() && !type.isF64())
      return rewriter.notifyMatchFailure(op, "not an f32 or f64 scalar");
    std::string callee = name + (type.isF32() ? "f" : "");
    rewriter.replaceOpWithNewOp<emitc::CallOpaqueOp>(
        op, TypeRange(type), callee, adaptor.getOperands());
    return success();
  }

  std::string name;
};

/// math.rsqrt as `1.0 / sqrt(x)`, as the object route computes it
/// (MathToLLVM: a division of 1 by llvm.sqrt).
struct RsqrtCall : public OpConversionPattern<math::RsqrtOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(math::RsqrtOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Type type = op.getType();
    if (!type.isF32() && !type.isF64())
      return rewriter.notifyMatchFailure(op, "not an f32 or f64 scalar");
    Location loc = op.getLoc();
    Value root = emitc::CallOpaqueOp::create(
                     rewriter, loc, TypeRange(type),
                     type.isF32() ? "sqrtf" : "sqrt", adaptor.getOperands())
                     .getResult(0);
    Value one = emitc::ConstantOp::create(rewriter, loc, type,
                                          rewriter.getFloatAttr(type, 1.0));
    rewriter.replaceOpWithNewOp<emitc::DivOp>(op, type, one, root);
    return success();
  }
};
} // namespace

void mlir::stencil::populateMathToC99Patterns(
    const TypeConverter &converter, RewritePatternSet &patterns) {
  MLIRContext *context = patterns.getContext();
  // The ops whose C99 function has the same meaning (math.round: halves
  // away from zero, as C's round).
  patterns.add<MathCall<math::AbsFOp>>(converter, context, "fabs");
  patterns.add<MathCall<math::AcosOp>>(converter, context, "acos");
  patterns.add<MathCall<math::AcoshOp>>(converter, context, "acosh");
  patterns.add<MathCall<math::AsinOp>>(converter, context, "asin");
  patterns.add<MathCall<math::AsinhOp>>(converter, context, "asinh");
  patterns.add<MathCall<math::Atan2Op>>(converter, context, "atan2");
  patterns.add<MathCall<math::AtanOp>>(converter, context, "atan");
  patterns.add<MathCall<math::AtanhOp>>(converter, context, "atanh");
  patterns.add<MathCall<math::CbrtOp>>(converter, context, "cbrt");
  patterns.add<MathCall<math::CeilOp>>(converter, context, "ceil");
  patterns.add<MathCall<math::CopySignOp>>(converter, context, "copysign");
  patterns.add<MathCall<math::CosOp>>(converter, context, "cos");
  patterns.add<MathCall<math::CoshOp>>(converter, context, "cosh");
  patterns.add<MathCall<math::ErfOp>>(converter, context, "erf");
  patterns.add<MathCall<math::ErfcOp>>(converter, context, "erfc");
  patterns.add<MathCall<math::Exp2Op>>(converter, context, "exp2");
  patterns.add<MathCall<math::ExpM1Op>>(converter, context, "expm1");
  patterns.add<MathCall<math::ExpOp>>(converter, context, "exp");
  patterns.add<MathCall<math::FloorOp>>(converter, context, "floor");
  patterns.add<MathCall<math::FmaOp>>(converter, context, "fma");
  patterns.add<MathCall<math::Log10Op>>(converter, context, "log10");
  patterns.add<MathCall<math::Log1pOp>>(converter, context, "log1p");
  patterns.add<MathCall<math::Log2Op>>(converter, context, "log2");
  patterns.add<MathCall<math::LogOp>>(converter, context, "log");
  patterns.add<MathCall<math::PowFOp>>(converter, context, "pow");
  patterns.add<MathCall<math::RoundOp>>(converter, context, "round");
  patterns.add<MathCall<math::SinOp>>(converter, context, "sin");
  patterns.add<MathCall<math::SinhOp>>(converter, context, "sinh");
  patterns.add<MathCall<math::SqrtOp>>(converter, context, "sqrt");
  patterns.add<MathCall<math::TanOp>>(converter, context, "tan");
  patterns.add<MathCall<math::TanhOp>>(converter, context, "tanh");
  patterns.add<MathCall<math::TruncOp>>(converter, context, "trunc");
  patterns.add<RsqrtCall>(converter, context);
}
