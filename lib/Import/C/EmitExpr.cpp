//===- EmitExpr.cpp - C expressions as arith and math ops ------------------===//
//
// Float expressions become arith/math ops of their C type (C's implicit
// conversions are explicit in the AST: extf, truncf, sitofp); array reads
// become stencil.gather; integer expressions of counters and sizes are
// `index` arithmetic. Calls are the math.h functions with adjoint rules.
//
//===----------------------------------------------------------------------===//

#include "Emitter.h"

#include "Stencil/Dialect/StencilOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "llvm/ADT/StringSwitch.h"

using namespace mlir;
using namespace mlir::stencil;
using namespace mlir::stencil::importc;
using namespace clang;

FailureOr<Value> Emitter::emitFloat(const Expr *e) {
  e = e->IgnoreParens();
  if (!floatType(e->getType()))
    return a.locator.error(e) << "'" << a.locator.source(e)
                              << "' is not a double or float expression";
  if (const auto *lit = dyn_cast<FloatingLiteral>(e)) {
    mlir::Type type = floatType(e->getType());
    return Value(arith::ConstantOp::create(
        b, loc(e), b.getFloatAttr(type, lit->getValueAsApproximateDouble())));
  }
  if (const auto *cast = dyn_cast<CastExpr>(e))
    return emitCast(cast);
  if (isa<ArraySubscriptExpr>(e) ||
      (isa<UnaryOperator>(e) &&
       cast<UnaryOperator>(e)->getOpcode() == UO_Deref))
    return emitRead(e);
  if (const auto *ref = dyn_cast<DeclRefExpr>(e))
    return emitVar(ref);
  if (const auto *u = dyn_cast<UnaryOperator>(e)) {
    if (u->getOpcode() == UO_Plus)
      return emitFloat(u->getSubExpr());
    if (u->getOpcode() == UO_Minus) {
      FailureOr<Value> v = emitFloat(u->getSubExpr());
      if (failed(v))
        return failure();
      return Value(arith::NegFOp::create(b, loc(e), *v));
    }
  }
  if (const auto *op = dyn_cast<BinaryOperator>(e))
    return emitBinary(op);
  if (const auto *call = dyn_cast<CallExpr>(e))
    return emitCall(call);
  if (const auto *c = dyn_cast<ConditionalOperator>(e))
    return emitTernary(c);
  return a.locator.error(e) << "cannot import the expression '"
                            << a.locator.source(e) << "' into a stencil loop";
}

FailureOr<Value> Emitter::convert(Value v, mlir::Type to, const Expr *e) {
  mlir::Type from = v.getType();
  if (from == to)
    return v;
  Location l = loc(e);
  if (isa<IndexType>(from)) {
    Value wide = arith::IndexCastOp::create(b, l, b.getI64Type(), v);
    return Value(arith::SIToFPOp::create(b, l, to, wide));
  }
  if (from.getIntOrFloatBitWidth() < to.getIntOrFloatBitWidth())
    return Value(arith::ExtFOp::create(b, l, to, v));
  return Value(arith::TruncFOp::create(b, l, to, v));
}

FailureOr<Value> Emitter::emitCast(const CastExpr *c) {
  const Expr *sub = c->getSubExpr();
  mlir::Type to = floatType(c->getType());
  switch (c->getCastKind()) {
  case CK_LValueToRValue:
  case CK_NoOp:
    return emitFloat(sub);
  case CK_FloatingCast: {
    FailureOr<Value> v = emitFloat(sub);
    return failed(v) ? v : convert(*v, to, c);
  }
  case CK_IntegralToFloating: {
    // The literal's own signedness: 4294967295U is not -1.
    if (const auto *lit = dyn_cast<IntegerLiteral>(sub->IgnoreParens()))
      return Value(arith::ConstantOp::create(
          b, loc(c),
          b.getFloatAttr(to, lit->getValue().roundToDouble(
                                 lit->getType()->isSignedIntegerType()))));
    FailureOr<Value> v = emitIndex(sub);
    return failed(v) ? v : convert(*v, to, c);
  }
  default:
    return a.locator.error(c) << "cannot import the conversion '"
                              << a.locator.source(c) << "'";
  }
}

FailureOr<Value> Emitter::emitVar(const DeclRefExpr *ref) {
  Value v = values.lookup(ref->getDecl());
  if (!v)
    return a.locator.error(ref)
           << "'" << ref->getDecl()->getName()
           << "' has no value here: a stencil loop reads parameters, "
              "counters and locals it has assigned";
  return v;
}

FailureOr<Value> Emitter::emitRead(const Expr *e) {
  auto it = a.ast.accessOf.find(e);
  if (nest < 0 && inStep)
    return emitStepRead(e);
  if (nest < 0 || it == a.ast.accessOf.end())
    return a.locator.error(e) << "'" << a.locator.source(e)
                              << "': arrays are read inside loop nests only";
  const AccessPlan &access = a.plan.nests[nest].accesses[it->second.second];
  std::vector<int64_t> key = {access.param};
  llvm::append_range(key, access.dims);
  llvm::append_range(key, access.offsets);
  Value &cached = gathers[key];
  if (cached)
    return cached;
  OpBuilder::InsertionGuard guard(b);
  if (anchor)
    b.setInsertionPoint(anchor);
  bool identity = access.dims.size() == a.plan.nests[nest].counters.size();
  for (auto [i, d] : llvm::enumerate(access.dims))
    identity &= d == int64_t(i);
  DenseI64ArrayAttr dims =
      identity ? nullptr : b.getDenseI64ArrayAttr(access.dims);
  Value array = this->array(access.param);
  mlir::Type element = cast<MemRefType>(array.getType()).getElementType();
  cached = GatherOp::create(b, access.loc, element, array, access.offsets, dims);
  return cached;
}

FailureOr<Value> Emitter::emitStepRead(const Expr *e) {
  SmallVector<const Expr *> indices;
  const Expr *base = subscriptChain(e, indices);
  const auto *ref = dyn_cast<DeclRefExpr>(base);
  const ParamPlan *param = ref ? a.paramOf(ref->getDecl()) : nullptr;
  if (!param || param->kind != ParamKind::Array || param->linearized ||
      param->shape.size() != indices.size())
    return a.locator.error(e)
           << "'" << a.locator.source(e)
           << "': a time step reads its arrays outside the nests at "
              "integer indices in each dimension ('w[t]', 'd[t][r]')";
  SmallVector<Value> at;
  for (const Expr *index : indices) {
    FailureOr<Value> v = emitIndex(index);
    if (failed(v))
      return failure();
    at.push_back(*v);
  }
  return Value(memref::LoadOp::create(b, loc(e), values.lookup(ref->getDecl()),
                                      at));
}

FailureOr<Value> Emitter::emitBinary(const BinaryOperator *op) {
  if (op->isAssignmentOp() || op->isCommaOp())
    return a.locator.error(op->getOperatorLoc())
           << "'" << op->getOpcodeStr()
           << "' inside an expression: write one statement per assignment";
  FailureOr<Value> lhs = emitFloat(op->getLHS());
  if (failed(lhs))
    return failure();
  FailureOr<Value> rhs = emitFloat(op->getRHS());
  if (failed(rhs))
    return failure();
  Location l = loc(op);
  switch (op->getOpcode()) {
  case BO_Add:
    return Value(arith::AddFOp::create(b, l, *lhs, *rhs));
  case BO_Sub:
    return Value(arith::SubFOp::create(b, l, *lhs, *rhs));
  case BO_Mul:
    return Value(arith::MulFOp::create(b, l, *lhs, *rhs));
  case BO_Div:
    return Value(arith::DivFOp::create(b, l, *lhs, *rhs));
  default:
    return a.locator.error(op->getOperatorLoc())
           << "'" << op->getOpcodeStr() << "' on floats is not imported";
  }
}

/// Why the C value of the integer expression `e` (an operation or a cast)
/// can differ from its import, signed 64-bit `index` arithmetic: C's
/// unsigned arithmetic wraps around, below zero or at its width, and a
/// conversion to an unsigned or narrower type changes values. Empty when
/// the two agree wherever C's signed arithmetic does not overflow.
static StringRef wrapsInC(const Expr *e, const ASTContext &ctx) {
  QualType type = e->getType();
  if (const auto *cast = dyn_cast<CStyleCastExpr>(e)) {
    QualType from = cast->getSubExpr()->getType();
    if (!from->isIntegerType())
      return {};
    if (type->isUnsignedIntegerType() && from->isSignedIntegerType())
      return "converts a signed value to an unsigned type, which wraps "
             "negative values around";
    if (ctx.getTypeSize(type) < ctx.getTypeSize(from))
      return "converts to a narrower integer type, which wraps values "
             "around";
    return {};
  }
  if (!type->isUnsignedIntegerType() ||
      !(isa<BinaryOperator>(e) || isa<UnaryOperator>(e)))
    return {};
  if (ctx.getTypeSize(type) < 64)
    return "is unsigned arithmetic narrower than 64 bits, which wraps "
           "around at its width";
  const auto *op = dyn_cast<BinaryOperator>(e);
  if (isa<UnaryOperator>(e) || op->getOpcode() == BO_Sub)
    return "is an unsigned subtraction or negation, which wraps around "
           "below zero";
  return {};
}

FailureOr<Value> Emitter::emitIndex(const Expr *e) {
  e = e->IgnoreParenImpCasts();
  Location l = loc(e);
  if (StringRef why = wrapsInC(e, a.locator.getAST()); !why.empty())
    return a.locator.error(e)
           << "the integer expression '" << a.locator.source(e) << "' " << why
           << " in C; a stencil loop computes integers as signed 64-bit "
              "values (use signed operands: int or long)";
  if (const auto *lit = dyn_cast<IntegerLiteral>(e))
    return Value(arith::ConstantIndexOp::create(
        b, l, lit->getValue().getSExtValue()));
  if (const auto *cast = dyn_cast<CStyleCastExpr>(e);
      cast && cast->getType()->isIntegerType()) {
    if (cast->getSubExpr()->getType()->isRealFloatingType())
      return a.locator.error(cast)
             << "the conversion '" << a.locator.source(cast)
             << "' of a float to an integer is not imported: it is not "
                "differentiable";
    return emitIndex(cast->getSubExpr());
  }
  if (const auto *ref = dyn_cast<DeclRefExpr>(e)) {
    Value v = values.lookup(ref->getDecl());
    if (v && isa<IndexType>(v.getType()))
      return v;
  }
  if (const auto *u = dyn_cast<UnaryOperator>(e); u && u->getOpcode() == UO_Minus) {
    FailureOr<Value> v = emitIndex(u->getSubExpr());
    if (failed(v))
      return failure();
    Value zero = arith::ConstantIndexOp::create(b, l, 0);
    return Value(arith::SubIOp::create(b, l, zero, *v));
  }
  if (const auto *op = dyn_cast<BinaryOperator>(e);
      op && (op->getOpcode() == BO_Add || op->getOpcode() == BO_Sub ||
             op->getOpcode() == BO_Mul)) {
    FailureOr<Value> lhs = emitIndex(op->getLHS());
    if (failed(lhs))
      return failure();
    FailureOr<Value> rhs = emitIndex(op->getRHS());
    if (failed(rhs))
      return failure();
    if (op->getOpcode() == BO_Add)
      return Value(arith::AddIOp::create(b, l, *lhs, *rhs));
    if (op->getOpcode() == BO_Sub)
      return Value(arith::SubIOp::create(b, l, *lhs, *rhs));
    return Value(arith::MulIOp::create(b, l, *lhs, *rhs));
  }
  return a.locator.error(e)
         << "the integer expression '" << a.locator.source(e)
         << "' is not imported: integers in a stencil loop are sums, "
            "differences and products of counters, sizes and constants";
}

static std::optional<arith::CmpFPredicate> floatPredicate(BinaryOperatorKind k) {
  switch (k) {
  case BO_LT:
    return arith::CmpFPredicate::OLT;
  case BO_LE:
    return arith::CmpFPredicate::OLE;
  case BO_GT:
    return arith::CmpFPredicate::OGT;
  case BO_GE:
    return arith::CmpFPredicate::OGE;
  case BO_EQ:
    return arith::CmpFPredicate::OEQ;
  case BO_NE:
    return arith::CmpFPredicate::UNE;
  default:
    return std::nullopt;
  }
}

static std::optional<arith::CmpIPredicate> intPredicate(BinaryOperatorKind k,
                                                        bool isUnsigned) {
  using P = arith::CmpIPredicate;
  switch (k) {
  case BO_LT:
    return isUnsigned ? P::ult : P::slt;
  case BO_LE:
    return isUnsigned ? P::ule : P::sle;
  case BO_GT:
    return isUnsigned ? P::ugt : P::sgt;
  case BO_GE:
    return isUnsigned ? P::uge : P::sge;
  case BO_EQ:
    return arith::CmpIPredicate::eq;
  case BO_NE:
    return arith::CmpIPredicate::ne;
  default:
    return std::nullopt;
  }
}

FailureOr<Value> Emitter::emitCond(const Expr *e) {
  e = e->IgnoreParenImpCasts();
  Location l = loc(e);
  if (const auto *u = dyn_cast<UnaryOperator>(e); u && u->getOpcode() == UO_LNot) {
    FailureOr<Value> v = emitCond(u->getSubExpr());
    if (failed(v))
      return failure();
    Value one = arith::ConstantIntOp::create(b, l, 1, 1);
    return Value(arith::XOrIOp::create(b, l, *v, one));
  }
  const auto *op = dyn_cast<BinaryOperator>(e);
  if (op && (op->getOpcode() == BO_LAnd || op->getOpcode() == BO_LOr)) {
    FailureOr<Value> lhs = emitCond(op->getLHS());
    if (failed(lhs))
      return failure();
    FailureOr<Value> rhs = emitCond(op->getRHS());
    if (failed(rhs))
      return failure();
    if (op->getOpcode() == BO_LAnd)
      return Value(arith::AndIOp::create(b, l, *lhs, *rhs));
    return Value(arith::OrIOp::create(b, l, *lhs, *rhs));
  }
  if (op && op->isComparisonOp()) {
    const Expr *lhsExpr = op->getLHS(), *rhsExpr = op->getRHS();
    if (lhsExpr->getType()->isRealFloatingType()) {
      FailureOr<Value> lhs = emitFloat(lhsExpr);
      if (failed(lhs))
        return failure();
      FailureOr<Value> rhs = emitFloat(rhsExpr);
      if (failed(rhs))
        return failure();
      return Value(arith::CmpFOp::create(b, l, *floatPredicate(op->getOpcode()),
                                         *lhs, *rhs));
    }
    FailureOr<Value> lhs = emitIndex(lhsExpr);
    if (failed(lhs))
      return failure();
    FailureOr<Value> rhs = emitIndex(rhsExpr);
    if (failed(rhs))
      return failure();
    // C compares in the operands' common type (lhsExpr's, after its
    // implicit conversion): an unsigned one compares the values modulo
    // 2^width, which the 64-bit index values give for 64 bits only.
    QualType common = lhsExpr->getType();
    if (common->isUnsignedIntegerType()) {
      if (a.locator.getAST().getTypeSize(common) < 64)
        return a.locator.error(op->getOperatorLoc())
               << "the comparison '" << a.locator.source(op)
               << "' is unsigned and narrower than 64 bits in C; a stencil "
                  "loop compares integers as 64-bit values (use signed "
                  "operands: int or long)";
    }
    return Value(arith::CmpIOp::create(
        b, l, *intPredicate(op->getOpcode(), common->isUnsignedIntegerType()),
        *lhs, *rhs));
  }
  return a.locator.error(e) << "the condition '" << a.locator.source(e)
                            << "' is not a comparison of floats or of "
                               "counters and sizes";
}

namespace {
enum class MathFn {
  None, Sqrt, Exp, Log, Log10, Log2, Log1p, Expm1, Exp2, Sin, Cos, Tan, Sinh,
  Cosh, Tanh, Atan, Cbrt, Fabs, Floor, Ceil, Pow, Atan2, Copysign, Fmax, Fmin
};
} // namespace

/// The math.h function `name` (or its float variant `namef`).
static MathFn mathFunction(StringRef name, bool isFloat) {
  if (isFloat) {
    if (!name.consume_back("f"))
      return MathFn::None;
  }
  return llvm::StringSwitch<MathFn>(name)
      .Case("sqrt", MathFn::Sqrt).Case("exp", MathFn::Exp)
      .Case("log", MathFn::Log).Case("log10", MathFn::Log10)
      .Case("log2", MathFn::Log2).Case("log1p", MathFn::Log1p)
      .Case("expm1", MathFn::Expm1).Case("exp2", MathFn::Exp2)
      .Case("sin", MathFn::Sin).Case("cos", MathFn::Cos)
      .Case("tan", MathFn::Tan).Case("sinh", MathFn::Sinh)
      .Case("cosh", MathFn::Cosh).Case("tanh", MathFn::Tanh)
      .Case("atan", MathFn::Atan).Case("cbrt", MathFn::Cbrt)
      .Case("fabs", MathFn::Fabs).Case("floor", MathFn::Floor)
      .Case("ceil", MathFn::Ceil).Case("pow", MathFn::Pow)
      .Case("atan2", MathFn::Atan2).Case("copysign", MathFn::Copysign)
      .Case("fmax", MathFn::Fmax).Case("fmin", MathFn::Fmin)
      .Default(MathFn::None);
}

static Value buildUnary(OpBuilder &b, Location l, MathFn fn, Value x) {
  switch (fn) {
  case MathFn::Sqrt: return math::SqrtOp::create(b, l, x);
  case MathFn::Exp: return math::ExpOp::create(b, l, x);
  case MathFn::Log: return math::LogOp::create(b, l, x);
  case MathFn::Log10: return math::Log10Op::create(b, l, x);
  case MathFn::Log2: return math::Log2Op::create(b, l, x);
  case MathFn::Log1p: return math::Log1pOp::create(b, l, x);
  case MathFn::Expm1: return math::ExpM1Op::create(b, l, x);
  case MathFn::Exp2: return math::Exp2Op::create(b, l, x);
  case MathFn::Sin: return math::SinOp::create(b, l, x);
  case MathFn::Cos: return math::CosOp::create(b, l, x);
  case MathFn::Tan: return math::TanOp::create(b, l, x);
  case MathFn::Sinh: return math::SinhOp::create(b, l, x);
  case MathFn::Cosh: return math::CoshOp::create(b, l, x);
  case MathFn::Tanh: return math::TanhOp::create(b, l, x);
  case MathFn::Atan: return math::AtanOp::create(b, l, x);
  case MathFn::Cbrt: return math::CbrtOp::create(b, l, x);
  case MathFn::Fabs: return math::AbsFOp::create(b, l, x);
  case MathFn::Floor: return math::FloorOp::create(b, l, x);
  case MathFn::Ceil: return math::CeilOp::create(b, l, x);
  default: return nullptr;
  }
}

static Value buildBinary(OpBuilder &b, Location l, MathFn fn, Value x,
                         Value y) {
  switch (fn) {
  case MathFn::Pow: return math::PowFOp::create(b, l, x, y);
  case MathFn::Atan2: return math::Atan2Op::create(b, l, x, y);
  case MathFn::Copysign: return math::CopySignOp::create(b, l, x, y);
  case MathFn::Fmax: return arith::MaxNumFOp::create(b, l, x, y);
  case MathFn::Fmin: return arith::MinNumFOp::create(b, l, x, y);
  default: return nullptr;
  }
}

FailureOr<Value> Emitter::emitCall(const CallExpr *call) {
  const FunctionDecl *callee = call->getDirectCallee();
  mlir::Type type = floatType(call->getType());
  MathFn fn = MathFn::None;
  if (callee && !callee->hasBody() && type)
    fn = mathFunction(callee->getName(), type.isF32());
  if (fn == MathFn::None)
    return a.locator.error(call)
           << "the call '" << a.locator.source(call)
           << "' has no adjoint rule: a stencil loop calls the math.h "
              "functions listed in docs/ImportC.md; write other functions "
              "as expressions or macros";
  SmallVector<Value> args;
  for (const Expr *arg : call->arguments()) {
    FailureOr<Value> v = emitFloat(arg);
    if (failed(v))
      return failure();
    FailureOr<Value> c = convert(*v, type, arg);
    if (failed(c))
      return failure();
    args.push_back(*c);
  }
  Location l = loc(call);
  Value result = args.size() == 1   ? buildUnary(b, l, fn, args[0])
                 : args.size() == 2 ? buildBinary(b, l, fn, args[0], args[1])
                                    : Value();
  if (!result)
    return a.locator.error(call) << "'" << callee->getName() << "' takes "
                                 << (args.size() == 1 ? 2 : 1) << " arguments";
  return result;
}
