//===- Nests.cpp - C loop nests as iteration domains -----------------------===//
//
// A function body is a sequence of perfect `for` nests (unit steps, `<` or
// `<=` bounds affine in the integer parameters), declarations of their
// counters and of scalar locals. Each nest becomes one domain.
//
//===----------------------------------------------------------------------===//

#include "Analysis.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/StmtOpenMP.h"

#include "Stencil/Dialect/StencilOps.h"

#include "mlir/IR/AffineExpr.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/MathExtras.h"

using namespace mlir;
using namespace mlir::stencil::importc;
using mlir::stencil::kMaxIndexConstant;
using namespace clang;

namespace {
struct LoopHeader {
  const VarDecl *counter = nullptr;
  const Expr *lower = nullptr;
  const Expr *upper = nullptr;
  bool inclusive = false;
};
} // namespace

static const VarDecl *varOf(const Expr *e) {
  if (const auto *ref = dyn_cast<DeclRefExpr>(e->IgnoreParenImpCasts()))
    return dyn_cast<VarDecl>(ref->getDecl());
  return nullptr;
}

static bool isIntegerLiteral(const Expr *e, int64_t value) {
  const auto *lit = dyn_cast<IntegerLiteral>(e->IgnoreParenImpCasts());
  return lit && lit->getValue() == value;
}

static LogicalResult parseInit(const ForStmt *f, const Locator &loc,
                               LoopHeader &h) {
  const Stmt *init = f->getInit();
  if (const auto *decl = dyn_cast_or_null<DeclStmt>(init)) {
    const auto *var = decl->isSingleDecl()
                          ? dyn_cast<VarDecl>(decl->getSingleDecl())
                          : nullptr;
    if (var && var->getInit()) {
      h.counter = var;
      h.lower = var->getInit();
    }
  } else if (const auto *assign = dyn_cast_or_null<BinaryOperator>(init)) {
    if (assign->getOpcode() == BO_Assign && varOf(assign->getLHS())) {
      h.counter = varOf(assign->getLHS());
      h.lower = assign->getRHS();
    }
  }
  if (!h.counter)
    return loc.error(init ? init->getBeginLoc() : f->getForLoc())
           << "a loop of a stencil nest starts its counter: "
              "'for (int i = lo; i < hi; i++)'";
  if (!h.counter->getType()->isIntegerType())
    return loc.error(init) << "the loop counter '" << h.counter->getName()
                           << "' is not an integer";
  return success();
}

static LogicalResult parseCond(const ForStmt *f, const Locator &loc,
                               LoopHeader &h) {
  const auto *cmp =
      dyn_cast_or_null<BinaryOperator>(f->getCond() ? f->getCond()->IgnoreParens()
                                                    : nullptr);
  if (cmp) {
    BinaryOperatorKind op = cmp->getOpcode();
    if ((op == BO_LT || op == BO_LE) && varOf(cmp->getLHS()) == h.counter) {
      h.upper = cmp->getRHS();
      h.inclusive = op == BO_LE;
      return success();
    }
    if ((op == BO_GT || op == BO_GE) && varOf(cmp->getRHS()) == h.counter) {
      h.upper = cmp->getLHS();
      h.inclusive = op == BO_GE;
      return success();
    }
  }
  return loc.error(f->getCond() ? f->getCond()->getBeginLoc() : f->getForLoc())
         << "the condition of a stencil loop is 'i < hi' or 'i <= hi' on its "
            "counter '"
         << h.counter->getName() << "'";
}

static LogicalResult parseInc(const ForStmt *f, const Locator &loc,
                              LoopHeader &h) {
  const Expr *inc = f->getInc() ? f->getInc()->IgnoreParens() : nullptr;
  bool unit = false;
  if (const auto *u = dyn_cast_or_null<UnaryOperator>(inc))
    unit = u->isIncrementOp() && varOf(u->getSubExpr()) == h.counter;
  else if (const auto *c = dyn_cast_or_null<CompoundAssignOperator>(inc))
    unit = c->getOpcode() == BO_AddAssign && varOf(c->getLHS()) == h.counter &&
           isIntegerLiteral(c->getRHS(), 1);
  else if (const auto *b = dyn_cast_or_null<BinaryOperator>(inc))
    if (b->getOpcode() == BO_Assign && varOf(b->getLHS()) == h.counter)
      if (const auto *sum =
              dyn_cast<BinaryOperator>(b->getRHS()->IgnoreParens()))
        unit = sum->getOpcode() == BO_Add &&
               varOf(sum->getLHS()) == h.counter &&
               isIntegerLiteral(sum->getRHS(), 1);
  if (!unit)
    return loc.error(inc ? inc->getBeginLoc() : f->getForLoc())
           << "a stencil loop steps its counter by one ('"
           << h.counter->getName() << "++'): other steps are not supported";
  return success();
}

namespace {
/// Converts bound expressions to affine expressions of the size symbols
/// and, in a nest, of the counters of its enclosing loops (dimensions).
struct BoundBuilder {
  Analysis &a;
  ArrayRef<LoopHeader> outer;

  FailureOr<AffineExpr> build(const Expr *e) {
    MLIRContext *ctx = a.locator.getContext();
    e = e->IgnoreParenImpCasts();
    if (const auto *lit = dyn_cast<IntegerLiteral>(e)) {
      if (lit->getValue().ugt(kMaxIndexConstant))
        return tooLarge(e);
      return getAffineConstantExpr(lit->getValue().getSExtValue(), ctx);
    }
    if (const auto *cast = dyn_cast<CStyleCastExpr>(e))
      if (cast->getType()->isIntegerType())
        return build(cast->getSubExpr());
    if (const auto *ref = dyn_cast<DeclRefExpr>(e))
      return symbol(ref);
    if (const auto *u = dyn_cast<UnaryOperator>(e)) {
      if (u->getOpcode() == UO_Minus) {
        auto inner = build(u->getSubExpr());
        return failed(inner) ? inner : FailureOr<AffineExpr>(-*inner);
      }
      if (u->getOpcode() == UO_Plus)
        return build(u->getSubExpr());
    }
    if (const auto *b = dyn_cast<BinaryOperator>(e))
      return binary(b);
    return notAffine(e);
  }

  FailureOr<AffineExpr> symbol(const DeclRefExpr *ref) {
    const ValueDecl *decl = ref->getDecl();
    // The counter of an enclosing loop of the nest: a coordinate of the
    // domain, which makes it nonrectangular (docs/Dialect.md).
    for (auto [k, h] : llvm::enumerate(outer))
      if (h.counter == decl)
        return getAffineDimExpr(k, a.locator.getContext());
    auto it = a.ast.paramIndex.find(decl);
    if (it == a.ast.paramIndex.end() ||
        a.plan.params[it->second].kind != ParamKind::Size)
      return a.locator.error(ref)
             << "the bound uses '" << decl->getName()
             << "', which is not an integer parameter of the function";
    SmallVector<unsigned> sizes = a.plan.sizeParams();
    unsigned k = llvm::find(sizes, it->second) - sizes.begin();
    return getAffineSymbolExpr(k, a.locator.getContext());
  }

  FailureOr<AffineExpr> binary(const BinaryOperator *b) {
    auto lhs = build(b->getLHS());
    if (failed(lhs))
      return failure();
    auto rhs = build(b->getRHS());
    if (failed(rhs))
      return failure();
    switch (b->getOpcode()) {
    case BO_Add:
      return checked(*lhs + *rhs, b);
    case BO_Sub:
      return checked(*lhs - *rhs, b);
    case BO_Mul:
      if (isa<AffineConstantExpr>(*lhs) || isa<AffineConstantExpr>(*rhs)) {
        // The product's constants are products of the factors' constants:
        // bounded before AffineExpr folds them (in 64 bits, unchecked).
        int64_t bound;
        if (llvm::MulOverflow(maxConstant(*lhs), maxConstant(*rhs), bound) ||
            bound > kMaxIndexConstant)
          return tooLarge(b);
        return checked(*lhs * *rhs, b);
      }
      return a.locator.error(b)
             << "the bound '" << a.locator.source(b)
             << "' is a product of parameters or counters: loop bounds must "
                "be affine in the integer parameters and the enclosing "
                "counters";
    default:
      return notAffine(b);
    }
  }

  /// The largest magnitude of a constant (or coefficient) in `e`.
  static int64_t maxConstant(AffineExpr e) {
    int64_t result = 0;
    e.walk([&](AffineExpr x) {
      if (auto c = dyn_cast<AffineConstantExpr>(x))
        result = std::max(result, c.getValue() < 0 ? -c.getValue()
                                                   : c.getValue());
    });
    return result;
  }

  /// `e`, or an error at `at` if a constant of it is outside the dialect's
  /// bounds (kMaxIndexConstant), which every operand's constants are inside.
  FailureOr<AffineExpr> checked(AffineExpr e, const Expr *at) {
    if (maxConstant(e) > kMaxIndexConstant)
      return tooLarge(at);
    return e;
  }

  FailureOr<AffineExpr> tooLarge(const Expr *e) {
    return a.locator.error(e)
           << "the bound '" << a.locator.source(e)
           << "' has a constant larger than 2^40: bounds and offsets must "
              "lie in [-2^40, 2^40]";
  }

  FailureOr<AffineExpr> notAffine(const Expr *e) {
    return a.locator.error(e)
           << "the bound '" << a.locator.source(e)
           << "' is not affine in the integer parameters and the enclosing "
              "counters (sums, differences and multiples of them and of "
              "constants)";
  }
};
} // namespace

const ForStmt *mlir::stencil::importc::asForLoop(const Stmt *s) {
  while (const auto *omp = dyn_cast_or_null<OMPLoopDirective>(s))
    s = omp->getInnermostCapturedStmt()->getCapturedStmt();
  return dyn_cast_or_null<ForStmt>(s);
}

/// The lower and the exclusive upper bound of a loop inside `outer`.
static FailureOr<std::pair<AffineExpr, AffineExpr>>
boundsOf(Analysis &a, const LoopHeader &h, ArrayRef<LoopHeader> outer) {
  BoundBuilder bounds{a, outer};
  auto lo = bounds.build(h.lower);
  if (failed(lo))
    return failure();
  auto hi = bounds.build(h.upper);
  if (failed(hi))
    return failure();
  if (h.inclusive)
    hi = bounds.checked(*hi + 1, h.upper);
  if (failed(hi))
    return failure();
  return std::make_pair(*lo, *hi);
}

/// Walks a perfect nest from `outer` down; fills the headers and the body.
static LogicalResult walkNest(const ForStmt *outer, const Locator &loc,
                              SmallVectorImpl<LoopHeader> &headers,
                              const Stmt *&body);

static bool containsLoop(const Stmt *s) {
  if (!s)
    return false;
  if (isa<ForStmt, WhileStmt, DoStmt>(s))
    return true;
  return llvm::any_of(s->children(), containsLoop);
}

static LogicalResult walkNest(const ForStmt *outer, const Locator &loc,
                              SmallVectorImpl<LoopHeader> &headers,
                              const Stmt *&body) {
  const ForStmt *f = outer;
  while (true) {
    LoopHeader h;
    if (failed(parseInit(f, loc, h)) || failed(parseCond(f, loc, h)) ||
        failed(parseInc(f, loc, h)))
      return failure();
    for (const LoopHeader &o : headers)
      if (o.counter == h.counter)
        return loc.error(f->getForLoc())
               << "the counter '" << h.counter->getName()
               << "' is already the counter of an enclosing loop";
    headers.push_back(h);
    const Stmt *s = f->getBody();
    while (const auto *block = dyn_cast<CompoundStmt>(s)) {
      if (block->size() != 1)
        break;
      s = block->body_front();
    }
    if (const ForStmt *inner = asForLoop(s)) {
      f = inner;
      continue;
    }
    if (const auto *block = dyn_cast<CompoundStmt>(s)) {
      unsigned loops = llvm::count_if(block->body(), containsLoop);
      if (loops && loops < block->size())
        for (const Stmt *x : block->body())
          if (!containsLoop(x))
            return loc.error(x->getBeginLoc())
                   << "this statement is outside the innermost loop: a "
                      "stencil nest has statements only in its innermost "
                      "loop, and a time step only loop nests and pointer "
                      "rotations";
      if (loops)
        return loc.error(f->getForLoc())
               << "a loop inside a nest whose body holds several loop nests: "
                  "a time loop is the outermost loop of the function";
    } else if (containsLoop(s)) {
      return loc.error(s->getBeginLoc())
             << "only 'for' loops with a counter make a stencil nest";
    }
    body = s;
    return success();
  }
}

LogicalResult mlir::stencil::importc::analyzeNest(Analysis &a,
                                                  const ForStmt *outer) {
  SmallVector<LoopHeader> headers;
  const Stmt *body = nullptr;
  if (failed(walkNest(outer, a.locator, headers, body)))
    return failure();
  MLIRContext *ctx = a.locator.getContext();
  SmallVector<AffineExpr> lower, upper;
  FunctionAST::Nest astNest{outer, {}, body, {}, {}};
  NestPlan nest{a.locator.loc(outer->getForLoc()), {}, {}, {}, {}};
  for (auto [d, h] : llvm::enumerate(headers)) {
    auto range = boundsOf(a, h, ArrayRef(headers).take_front(d));
    if (failed(range))
      return failure();
    lower.push_back(range->first);
    upper.push_back(range->second);
    nest.counters.push_back(h.counter->getName().str());
    astNest.counters.push_back(h.counter);
  }
  // Bounds over the outer counters make a nonrectangular domain, whose
  // maps are over its coordinates; a box's are over the sizes only.
  auto usesCounter = [](AffineExpr e) { return !e.isSymbolicOrConstant(); };
  unsigned dims = llvm::any_of(lower, usesCounter) ||
                          llvm::any_of(upper, usesCounter)
                      ? headers.size()
                      : 0;
  unsigned symbols = a.plan.sizeParams().size();
  nest.lower = AffineMap::get(dims, symbols, lower, ctx);
  nest.upper = AffineMap::get(dims, symbols, upper, ctx);
  a.plan.nests.push_back(std::move(nest));
  a.ast.nests.push_back(astNest);
  return analyzeAccesses(a, a.plan.nests.size() - 1);
}

FailureOr<LoopBounds>
mlir::stencil::importc::analyzeLoopHeader(Analysis &a, const ForStmt *f) {
  LoopHeader h;
  if (failed(parseInit(f, a.locator, h)) || failed(parseCond(f, a.locator, h)) ||
      failed(parseInc(f, a.locator, h)))
    return failure();
  auto range = boundsOf(a, h, {});
  if (failed(range))
    return failure();
  unsigned symbols = a.plan.sizeParams().size();
  MLIRContext *ctx = a.locator.getContext();
  return LoopBounds{h.counter, AffineMap::get(0, symbols, range->first, ctx),
                    AffineMap::get(0, symbols, range->second, ctx)};
}

FailureOr<AffineExpr> mlir::stencil::importc::analyzeSizeExpr(Analysis &a,
                                                              const Expr *e) {
  return BoundBuilder{a, {}}.build(e);
}

bool mlir::stencil::importc::isLoopCounter(const Analysis &a, unsigned nest,
                                           const VarDecl *v) {
  return llvm::is_contained(a.ast.nests[nest].counters, v);
}

/// `double *cur = u1;`: a pointer local that starts as an array (and may
/// be rotated by a time loop). It is an array of the plan, after the
/// parameters.
static LogicalResult declarePointer(Analysis &a, const VarDecl *var) {
  const Expr *init = var->getInit() ? var->getInit()->IgnoreParenImpCasts()
                                    : nullptr;
  const auto *ref = dyn_cast_or_null<DeclRefExpr>(init);
  auto it = ref ? a.ast.paramIndex.find(ref->getDecl()) : a.ast.paramIndex.end();
  if (it == a.ast.paramIndex.end() ||
      a.plan.params[it->second].kind != ParamKind::Array)
    return a.locator.error(var->getLocation())
           << "the pointer '" << var->getName()
           << "' starts as an array parameter or another such pointer "
              "('double *cur = u1;')";
  ParamPlan local = a.plan.params[it->second];
  local.name = var->getName().str();
  local.loc = a.locator.loc(var->getLocation());
  local.initial = it->second;
  local.active = false;
  local.written = local.used = false;
  a.ast.paramIndex[var] = a.plan.params.size();
  a.ast.declOf.push_back(var);
  a.plan.params.push_back(std::move(local));
  return success();
}

LogicalResult mlir::stencil::importc::declareLocals(Analysis &a,
                                                    const DeclStmt *decl) {
  for (const Decl *d : decl->decls()) {
    const auto *var = dyn_cast<VarDecl>(d);
    if (!var)
      continue;
    QualType type = var->getType();
    if (type->isIntegerType() && !var->getInit())
      continue;
    if (type->isRealFloatingType() && var->getInit())
      continue;
    if (type->isPointerType()) {
      if (failed(declarePointer(a, var)))
        return failure();
      continue;
    }
    return a.locator.error(var->getLocation())
           << "'" << var->getName()
           << "': outside the loop nests, a stencil function declares only "
              "loop counters, float scalars with an initial value and "
              "pointers to its arrays";
  }
  return success();
}

LogicalResult mlir::stencil::importc::analyzeBody(Analysis &a) {
  const auto *body = dyn_cast<CompoundStmt>(a.ast.decl->getBody());
  for (const Stmt *s : body->body()) {
    if (const ForStmt *f = asForLoop(s)) {
      if (failed(isTimeLoop(f) ? analyzeTimeLoop(a, f) : analyzeNest(a, f)))
        return failure();
      continue;
    }
    if (const auto *decl = dyn_cast<DeclStmt>(s)) {
      if (failed(declareLocals(a, decl)))
        return failure();
      continue;
    }
    if (isa<NullStmt>(s))
      continue;
    if (const auto *ret = dyn_cast<ReturnStmt>(s); ret && !ret->getRetValue() &&
                                                   s == body->body_back())
      continue;
    if (isa<WhileStmt, DoStmt>(s))
      return a.locator.error(s->getBeginLoc())
             << "a 'while' loop is not a stencil nest: write 'for (int i = "
                "lo; i < hi; i++)'";
    return a.locator.error(s->getBeginLoc())
           << "a stencil function is a sequence of loop nests: this statement "
              "is outside any loop";
  }
  return success();
}
