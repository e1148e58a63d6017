//===- Linearized.cpp - Linearized subscripts of pointers ------------------===//
//
// `w[(i*ny + j)*nz + k + 1]` on a `double *w` (directly or through a macro)
// is the access w[i][j][k+1] of a 3-D array. Before the loop nests are
// analyzed, planLinearized() reads every subscript of each one-dimensional
// array parameter, expands the indices into polynomials over the loop
// counters and size parameters, and fixes the array's layout from all of
// them, or from `--extents` (Delinearize.h); the array becomes a memref of
// that rank. Each access is then decomposed against the layout as the nests
// are analyzed (analyzeLinearized), and its subscripts are checked to stay
// in their rows over the loop bounds.
//
//===----------------------------------------------------------------------===//

#include "Analysis.h"
#include "Delinearize.h"

#include "Stencil/Dialect/StencilInterfaces.h"

#include "clang/AST/Decl.h"
#include "clang/AST/Expr.h"
#include "clang/AST/Stmt.h"
#include "mlir/IR/AffineExpr.h"
#include "mlir/IR/BuiltinTypes.h"

#include <algorithm>
#include <functional>

using namespace mlir;
using namespace mlir::stencil;
using namespace mlir::stencil::importc;
using namespace clang;

/// The atoms of one function: size parameters and loop counters, by decl.
struct mlir::stencil::importc::LinearizedState {
  AtomTable atoms;
  llvm::DenseMap<const ValueDecl *, unsigned> ids;
  /// The layout of each linearized parameter, by parameter index.
  llvm::DenseMap<unsigned, LinearLayout> layouts;

  unsigned atomOf(const ValueDecl *decl, bool counter) {
    auto [it, inserted] = ids.try_emplace(decl, 0);
    if (inserted)
      it->second = counter ? atoms.addCounter(decl->getName())
                           : atoms.addSize(decl->getName());
    return it->second;
  }
};

namespace {
/// Deeper index expressions are refused (and never recursed into).
constexpr unsigned kMaxIndexDepth = 256;
/// The dialect's bound on offsets.
constexpr int64_t kMaxOffset = int64_t(1) << 40;

/// A C integer expression as a Polynomial over the function's atoms.
struct Expander {
  Expander(const Analysis &a, LinearizedState &state,
           function_ref<bool(const VarDecl *)> isCounter)
      : a(a), state(state), isCounter(isCounter) {}

  const Analysis &a;
  LinearizedState &state;
  function_ref<bool(const VarDecl *)> isCounter;
  /// Where and why the expansion failed.
  const Expr *bad = nullptr;
  std::string reason;

  std::optional<Polynomial> fail(const Expr *e, const Twine &why) {
    bad = e;
    reason = why.str();
    return std::nullopt;
  }
  std::optional<Polynomial> expand(const Expr *e, unsigned depth = 0);
};
} // namespace

std::optional<Polynomial> Expander::expand(const Expr *e, unsigned depth) {
  if (depth > kMaxIndexDepth)
    return fail(e, "it is nested too deeply");
  e = e->IgnoreParenImpCasts();
  const ASTContext &ast = a.locator.getAST();
  if (isa<ArraySubscriptExpr>(e) ||
      (isa<UnaryOperator>(e) &&
       cast<UnaryOperator>(e)->getOpcode() == UO_Deref))
    return fail(e, "it reads '" + a.locator.source(e) +
                       "': a data-dependent (indirect) index is not a "
                       "stencil access");
  if (!e->getType()->isIntegerType())
    return fail(e, "'" + a.locator.source(e) + "' is not an integer");
  if (const auto *ref = dyn_cast<DeclRefExpr>(e)) {
    const ValueDecl *decl = ref->getDecl();
    if (const auto *var = dyn_cast<VarDecl>(decl); var && isCounter(var))
      return Polynomial::atom(state.atomOf(var, /*counter=*/true));
    const ParamPlan *param = a.paramOf(decl);
    if (param && param->kind == ParamKind::Size)
      return Polynomial::atom(state.atomOf(decl, /*counter=*/false));
  }
  if (const auto *cast = dyn_cast<CStyleCastExpr>(e);
      cast && cast->getType()->isIntegerType())
    return expand(cast->getSubExpr(), depth + 1);
  if (const auto *u = dyn_cast<UnaryOperator>(e)) {
    if (u->getOpcode() == UO_Plus)
      return expand(u->getSubExpr(), depth + 1);
    if (u->getOpcode() == UO_Minus) {
      std::optional<Polynomial> sub = expand(u->getSubExpr(), depth + 1);
      return sub ? std::optional<Polynomial>(-*sub) : std::nullopt;
    }
  }
  if (const auto *b = dyn_cast<BinaryOperator>(e);
      b && (b->getOpcode() == BO_Add || b->getOpcode() == BO_Sub ||
            b->getOpcode() == BO_Mul)) {
    std::optional<Polynomial> lhs = expand(b->getLHS(), depth + 1);
    if (!lhs)
      return std::nullopt;
    std::optional<Polynomial> rhs = expand(b->getRHS(), depth + 1);
    if (!rhs)
      return std::nullopt;
    switch (b->getOpcode()) {
    case BO_Add:
      return *lhs + *rhs;
    case BO_Sub:
      return *lhs - *rhs;
    default:
      return *lhs * *rhs;
    }
  }
  // Integer constants, also `N/2` or an enumerator.
  Expr::EvalResult value;
  if (e->getType()->isIntegerType() && !e->HasSideEffects(ast) &&
      e->EvaluateAsInt(value, ast)) {
    const llvm::APSInt &v = value.Val.getInt();
    // An unsigned constant is its value, not its bits read as signed
    // (18446744073709551615ULL is not -1).
    if ((v.isUnsigned() ? v.getActiveBits() : v.getSignificantBits()) > 63)
      return fail(e, "the constant is too large");
    return Polynomial::constant(v.getExtValue());
  }
  if (const auto *ref = dyn_cast<DeclRefExpr>(e))
    return fail(e, "it depends on '" + ref->getDecl()->getName() +
                       "', which is neither a loop counter nor an integer "
                       "parameter: a data-dependent index is not a stencil "
                       "access");
  if (const auto *b = dyn_cast<BinaryOperator>(e))
    return fail(e, "it uses '" + b->getOpcodeStr() +
                       "': a linearized index is built from loop counters "
                       "and integer parameters with '+', '-' and '*'");
  return fail(e, "'" + a.locator.source(e) +
                     "' is not a loop counter, an integer parameter or a "
                     "constant");
}

/// Why an expanded polynomial is unusable (overflow, size), or empty.
static std::string invalidReason(const Polynomial &p) {
  switch (p.getState()) {
  case Polynomial::State::Overflow:
    return "it overflows 64-bit integer arithmetic";
  case Polynomial::State::TooLarge:
    return ("it has more than " + Twine(Polynomial::kMaxTerms) +
            " terms or a term of degree above " +
            Twine(Polynomial::kMaxDegree) + " once expanded")
        .str();
  case Polynomial::State::Valid:
    break;
  }
  return "";
}

//===----------------------------------------------------------------------===//
// Before the nests: the layouts
//===----------------------------------------------------------------------===//

namespace {
/// The subscripts of one-dimensional array parameters and the counters of
/// every `for` in a function body, found without recursion (an index may be
/// a very long chain of '+').
struct BodyScan {
  llvm::SmallPtrSet<const VarDecl *, 8> counters;
  /// Per parameter index: its subscripts `p[index]`, in source order.
  llvm::DenseMap<unsigned, SmallVector<const ArraySubscriptExpr *>> subscripts;

  void run(const Analysis &a, const Stmt *body);
};
} // namespace

/// The counter a `for` header initializes (`int i = 0` or `i = 0`).
static const VarDecl *counterOf(const ForStmt *f) {
  const Stmt *init = f->getInit();
  if (const auto *decl = dyn_cast_or_null<DeclStmt>(init);
      decl && decl->isSingleDecl())
    return dyn_cast<VarDecl>(decl->getSingleDecl());
  if (const auto *assign = dyn_cast_or_null<BinaryOperator>(init);
      assign && assign->getOpcode() == BO_Assign)
    if (const auto *ref =
            dyn_cast<DeclRefExpr>(assign->getLHS()->IgnoreParenImpCasts()))
      return dyn_cast<VarDecl>(ref->getDecl());
  return nullptr;
}

void BodyScan::run(const Analysis &a, const Stmt *body) {
  SmallVector<const Stmt *> work{body};
  while (!work.empty()) {
    const Stmt *s = work.pop_back_val();
    if (!s)
      continue;
    if (const auto *f = dyn_cast<ForStmt>(s))
      if (const VarDecl *counter = counterOf(f))
        counters.insert(counter);
    if (const auto *sub = dyn_cast<ArraySubscriptExpr>(s)) {
      const auto *ref =
          dyn_cast<DeclRefExpr>(sub->getBase()->IgnoreParenImpCasts());
      auto it = ref ? a.ast.paramIndex.find(ref->getDecl())
                    : a.ast.paramIndex.end();
      if (it != a.ast.paramIndex.end()) {
        const ParamPlan &p = a.plan.params[it->second];
        if (p.kind == ParamKind::Array && p.shape.size() == 1)
          subscripts[it->second].push_back(sub);
      }
    }
    // Children in reverse, so that subscripts come out in source order.
    size_t first = work.size();
    for (const Stmt *child : s->children())
      work.push_back(child);
    std::reverse(work.begin() + first, work.end());
  }
}

/// The array's plan for `layout`: rank, static inner extents, C text.
static void applyLayout(ParamPlan &param, const LinearLayout &layout,
                        const AtomTable &atoms, StringRef outer) {
  param.linearized = true;
  param.shape.assign(1, ShapedType::kDynamic);
  param.extents.assign(1, outer.str());
  param.strides.clear();
  for (unsigned d = 1; d < layout.rank(); ++d) {
    std::optional<Polynomial> extent = layout.extent(d);
    std::optional<int64_t> value = extent ? extent->constantValue() : std::nullopt;
    param.shape.push_back(value && *value > 0 ? *value : ShapedType::kDynamic);
    param.extents.push_back(extent ? extent->str(atoms) : "?");
  }
  for (const Polynomial &stride : layout.strides)
    param.strides.push_back(stride.str(atoms));
}

/// The layout `--extents=name:e0,e1,...` declares for `param` (empty when
/// the option does not name it), and the outermost extent as written.
static LogicalResult declaredLayout(Analysis &a, LinearizedState &state,
                                    const ParamPlan &param,
                                    LinearLayout &layout, std::string &outer) {
  auto sizeAtom = [&](StringRef name) -> std::optional<unsigned> {
    for (auto [decl, index] : a.ast.paramIndex)
      if (a.plan.params[index].kind == ParamKind::Size &&
          a.plan.params[index].name == name)
        return state.atomOf(decl, /*counter=*/false);
    return std::nullopt;
  };
  bool seen = false;
  for (const std::string &entry : a.options.extents) {
    auto [name, list] = StringRef(entry).split(':');
    if (name.trim() != param.name)
      continue;
    auto refuse = [&](const Twine &why) {
      return emitError(param.loc) << "--extents=" << entry << ": " << why;
    };
    if (seen)
      return refuse("'" + param.name + "' has extents already");
    seen = true;
    if (param.kind != ParamKind::Array || param.shape.size() != 1)
      return refuse("'" + param.name +
                    "' is not a pointer or a one-dimensional array");
    SmallVector<StringRef> texts;
    list.split(texts, ',');
    SmallVector<Polynomial> extents;
    std::string why;
    for (StringRef text : texts) {
      FailureOr<Polynomial> extent = parsePolynomial(text, sizeAtom, why);
      if (failed(extent))
        return refuse("in '" + text.trim() + "': " + why);
      extents.push_back(*extent);
    }
    FailureOr<LinearLayout> declared =
        layoutFromExtents(extents, state.atoms, why);
    if (failed(declared))
      return refuse(why);
    layout = std::move(*declared);
    outer = texts.front().trim().str();
  }
  return success();
}

/// The layout of parameter `index`: declared by `--extents`, or from its
/// subscripts; rank 1 when no subscript shows a second dimension (the array
/// is then not linearized).
static LogicalResult planParam(Analysis &a, LinearizedState &state,
                               const BodyScan &scan, unsigned index,
                               ArrayRef<const ArraySubscriptExpr *> subs) {
  ParamPlan &param = a.plan.params[index];
  LinearLayout layout;
  std::string outer = "?";
  if (failed(declaredLayout(a, state, param, layout, outer)))
    return failure();
  bool declared = layout.rank() > 0;
  const ArraySubscriptExpr *widest = nullptr;
  for (const ArraySubscriptExpr *sub : subs) {
    auto isCounter = [&](const VarDecl *v) {
      return scan.counters.contains(v);
    };
    Expander expander(a, state, isCounter);
    std::optional<Polynomial> p = expander.expand(sub->getIdx());
    // Indices that do not expand are reported where the nest is analyzed.
    if (!p || !p->isValid())
      continue;
    std::string why;
    FailureOr<LinearLayout> strides = inferLayout(*p, state.atoms, why);
    if (failed(strides))
      continue; // reported by analyzeLinearized, with the nest's counters
    if (failed(mergeLayouts(layout, *strides, declared, param.name,
                            state.atoms, why)))
      return a.locator.error(sub->getIdx())
             << "cannot delinearize '" << a.locator.source(sub) << "': " << why;
    if (strides->rank() > 1 || !widest)
      widest = sub;
  }
  if (layout.rank() < 2) {
    if (declared)
      param.extents.assign(1, outer);
    return success();
  }
  std::string why;
  if (failed(completeLayout(layout, param.name, state.atoms, why)))
    return a.locator.error(widest->getIdx())
           << "cannot delinearize '" << a.locator.source(widest)
           << "': " << why;
  applyLayout(param, layout, state.atoms, outer);
  state.layouts[index] = std::move(layout);
  return success();
}

LogicalResult mlir::stencil::importc::planLinearized(Analysis &a) {
  a.linearized = std::make_shared<LinearizedState>();
  // Sizes first, in parameter order: products print as `ny*nz`.
  for (const ParmVarDecl *p : a.ast.decl->parameters())
    if (const ParamPlan *param = a.paramOf(p);
        param && param->kind == ParamKind::Size)
      a.linearized->atomOf(p, /*counter=*/false);
  BodyScan scan;
  scan.run(a, a.ast.decl->getBody());
  for (auto [index, param] : llvm::enumerate(a.plan.params)) {
    auto it = scan.subscripts.find(index);
    ArrayRef<const ArraySubscriptExpr *> subs;
    if (it != scan.subscripts.end())
      subs = it->second;
    if (failed(planParam(a, *a.linearized, scan, index, subs)))
      return failure();
  }
  return success();
}

//===----------------------------------------------------------------------===//
// In a nest: one access
//===----------------------------------------------------------------------===//

/// An affine bound over the size parameters as a polynomial (nullopt for
/// divisions and modulo): its smallest value, or its largest with
/// `largest`, where it uses outer counters (dimensions), whose extreme
/// values `dim` gives.
static std::optional<Polynomial>
boundPolynomial(AffineExpr expr, ArrayRef<unsigned> symbols,
                LinearizedState &state, const Analysis &a,
                function_ref<std::optional<Polynomial>(unsigned, bool)> dim,
                bool largest) {
  if (auto c = dyn_cast<AffineConstantExpr>(expr))
    return Polynomial::constant(c.getValue());
  if (auto s = dyn_cast<AffineSymbolExpr>(expr)) {
    if (s.getPosition() >= symbols.size())
      return std::nullopt;
    unsigned param = symbols[s.getPosition()];
    for (auto [decl, index] : a.ast.paramIndex)
      if (index == param)
        return Polynomial::atom(state.atomOf(decl, /*counter=*/false));
    return std::nullopt;
  }
  if (auto d = dyn_cast<AffineDimExpr>(expr))
    return dim ? dim(d.getPosition(), largest) : std::nullopt;
  auto bin = dyn_cast<AffineBinaryOpExpr>(expr);
  if (!bin || (bin.getKind() != AffineExprKind::Add &&
               bin.getKind() != AffineExprKind::Mul))
    return std::nullopt;
  // A negative factor turns the largest value of its operand into the
  // smallest of the product.
  bool flip = false;
  if (auto c = dyn_cast<AffineConstantExpr>(bin.getRHS()))
    flip = bin.getKind() == AffineExprKind::Mul && c.getValue() < 0;
  std::optional<Polynomial> lhs =
      boundPolynomial(bin.getLHS(), symbols, state, a, dim, largest != flip);
  std::optional<Polynomial> rhs =
      boundPolynomial(bin.getRHS(), symbols, state, a, dim, largest);
  if (!lhs || !rhs)
    return std::nullopt;
  return bin.getKind() == AffineExprKind::Add ? *lhs + *rhs : *lhs * *rhs;
}

LogicalResult mlir::stencil::importc::analyzeLinearized(Analysis &a,
                                                        unsigned nest,
                                                        const Expr *index,
                                                        unsigned paramIndex,
                                                        AccessPlan &access) {
  LinearizedState &state = *a.linearized;
  const ParamPlan &param = a.plan.params[paramIndex];
  const auto &counters = a.ast.nests[nest].counters;
  std::optional<Polynomial> p = Polynomial::constant(0); // `*w`
  std::string text = index ? param.name + "[" + a.locator.source(index) + "]"
                           : "*" + param.name;
  if (index) {
    auto isCounter = [&](const VarDecl *v) {
      return isLoopCounter(a, nest, v);
    };
    Expander expander(a, state, isCounter);
    p = expander.expand(index);
    if (!p)
      return a.locator.error(expander.bad)
             << "'" << text << "' is not a stencil access: "
             << expander.reason;
    if (!p->isValid())
      return a.locator.error(index) << "cannot delinearize '" << text
                                    << "': " << invalidReason(*p);
  }
  auto found = state.layouts.find(paramIndex);
  LinearLayout layout = found != state.layouts.end()
                            ? found->second
                            : LinearLayout{{Polynomial::constant(1)}};
  auto fail = [&](const std::string &why) {
    return (index ? a.locator.error(index) : emitError(access.loc))
           << "cannot delinearize '" << text << "': " << why;
  };
  std::string why;
  // The access's own strides first: their message says more than
  // decompose's when they are not a layout at all.
  if (failed(inferLayout(*p, state.atoms, why)))
    return fail(why);
  FailureOr<DelinearizedAccess> parts =
      decompose(*p, layout, param.name, state.atoms, why);
  if (failed(parts))
    return fail(why);

  // The counters' ranges, from the nest's bounds.
  const NestPlan &plan = a.plan.nests[nest];
  SmallVector<unsigned> symbols = a.plan.sizeParams();
  // In a nonrectangular nest a bound uses the outer counters: each is
  // replaced by its own smallest or largest value, whichever makes the
  // bound's smallest (lower) or largest (upper) value, so that the range
  // holds every row's.
  std::function<std::optional<Polynomial>(unsigned, bool)> extreme =
      [&](unsigned d, bool largest) -> std::optional<Polynomial> {
    if (!largest)
      return boundPolynomial(plan.lower.getResult(d), symbols, state, a,
                             extreme, false);
    std::optional<Polynomial> end = boundPolynomial(
        plan.upper.getResult(d), symbols, state, a, extreme, true);
    if (!end)
      return std::nullopt;
    return *end + Polynomial::constant(-1);
  };
  auto range = [&](unsigned atom) -> std::optional<CounterRange> {
    for (auto [d, var] : llvm::enumerate(counters)) {
      auto it = state.ids.find(var);
      if (it == state.ids.end() || it->second != atom)
        continue;
      std::optional<Polynomial> lo = boundPolynomial(
          plan.lower.getResult(d), symbols, state, a, extreme, false);
      std::optional<Polynomial> hi = boundPolynomial(
          plan.upper.getResult(d), symbols, state, a, extreme, true);
      if (!lo || !hi)
        return std::nullopt;
      return CounterRange{*lo, *hi};
    }
    return std::nullopt;
  };
  if (failed(checkWithinExtents(*parts, layout, range, param.name,
                                state.atoms, why)))
    return fail(why);

  for (auto [counter, offset] : llvm::zip(parts->counter, parts->offset)) {
    if (offset < -kMaxOffset || offset > kMaxOffset)
      return fail(("the offset " + Twine(offset) +
                   " is too large: offsets lie in [-2^40, 2^40]")
                      .str());
    int64_t dim = kFixedDim;
    for (auto [d, var] : llvm::enumerate(counters)) {
      auto it = state.ids.find(var);
      if (counter && it != state.ids.end() && it->second == *counter)
        dim = d;
    }
    access.dims.push_back(dim);
    access.offsets.push_back(offset);
  }
  return success();
}
