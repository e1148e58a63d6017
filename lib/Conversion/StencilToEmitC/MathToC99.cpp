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
#include "llvm/ADT/StringSet.h"

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

/// The math ops whose C99 function has the same meaning (math.round:
/// halves away from zero, as C's round), and that function's name.
#define STENCIL_C99_MATH_FUNCTIONS(X)                                          \
  X(AbsFOp, "fabs")                                                            \
  X(AcosOp, "acos")                                                            \
  X(AcoshOp, "acosh")                                                          \
  X(AsinOp, "asin")                                                            \
  X(AsinhOp, "asinh")                                                          \
  X(Atan2Op, "atan2")                                                          \
  X(AtanOp, "atan")                                                            \
  X(AtanhOp, "atanh")                                                          \
  X(CbrtOp, "cbrt")                                                            \
  X(CeilOp, "ceil")                                                            \
  X(CopySignOp, "copysign")                                                    \
  X(CosOp, "cos")                                                              \
  X(CoshOp, "cosh")                                                            \
  X(ErfOp, "erf")                                                              \
  X(ErfcOp, "erfc")                                                            \
  X(Exp2Op, "exp2")                                                            \
  X(ExpM1Op, "expm1")                                                          \
  X(ExpOp, "exp")                                                              \
  X(FloorOp, "floor")                                                          \
  X(FmaOp, "fma")                                                              \
  X(Log10Op, "log10")                                                          \
  X(Log1pOp, "log1p")                                                          \
  X(Log2Op, "log2")                                                            \
  X(LogOp, "log")                                                              \
  X(PowFOp, "pow")                                                             \
  X(RoundOp, "round")                                                          \
  X(SinOp, "sin")                                                              \
  X(SinhOp, "sinh")                                                            \
  X(SqrtOp, "sqrt")                                                            \
  X(TanOp, "tan")                                                              \
  X(TanhOp, "tanh")                                                            \
  X(TruncOp, "trunc")

void mlir::stencil::populateMathToC99Patterns(
    const TypeConverter &converter, RewritePatternSet &patterns) {
  MLIRContext *context = patterns.getContext();
#define STENCIL_ADD_CALL(OP, NAME)                                             \
  patterns.add<MathCall<math::OP>>(converter, context, NAME);
  STENCIL_C99_MATH_FUNCTIONS(STENCIL_ADD_CALL)
#undef STENCIL_ADD_CALL
  patterns.add<RsqrtCall>(converter, context);
}

bool mlir::stencil::isC99MathFunctionName(StringRef name) {
  static const llvm::StringSet<> names = [] {
    llvm::StringSet<> set;
#define STENCIL_ADD_NAME(OP, NAME)                                             \
  set.insert(NAME);                                                            \
  set.insert(NAME "f");
    STENCIL_C99_MATH_FUNCTIONS(STENCIL_ADD_NAME)
#undef STENCIL_ADD_NAME
    return set;
  }();
  return names.contains(name);
}
