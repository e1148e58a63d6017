//===- Accesses.cpp - C subscripts as stencil accesses ---------------------===//
//
// A subscript of an array parameter in a loop body reads it at constant
// offsets from the loop counters (or at constant indices); an assignment
// writes it at the counters, `+=` and `-=` update it at any offsets. An
// array that the nest both reads and writes is an in-place update, which is
// not a stencil loop.
//
//===----------------------------------------------------------------------===//

#include "Analysis.h"

#include "Stencil/Dialect/StencilInterfaces.h"
#include "Stencil/Dialect/StencilOps.h"

#include "llvm/ADT/APSInt.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/MathExtras.h"

#include <optional>

using namespace mlir;
using namespace mlir::stencil;
using namespace mlir::stencil::importc;
using namespace clang;

namespace {
/// `sum(coef * counter) + constant`.
struct LinearIndex {
  SmallVector<std::pair<const VarDecl *, int64_t>> counters;
  int64_t constant = 0;
};

enum class IndexKind { Linear, NotLinear, Error };

struct AccessCollector {
  Analysis &a;
  unsigned nest;
  /// The branches around the statement being walked.
  SmallVector<std::pair<const Stmt *, int>, 2> arms;

  const Locator &loc() const { return a.locator; }

  LogicalResult walk(const Stmt *s);
  LogicalResult assignment(const BinaryOperator *b);
  LogicalResult record(const Expr *e, AccessPlan::Kind kind);
  LogicalResult subscript(const Expr *e, AccessPlan &access);
  IndexKind linearize(const Expr *e, int64_t scale, LinearIndex &out);
  LogicalResult classify(const Expr *index, const LinearIndex &lin,
                         AccessPlan &access);
  LogicalResult checkWrite(const Expr *e, const AccessPlan &access);
};
} // namespace

const Expr *mlir::stencil::importc::subscriptChain(
    const Expr *e, SmallVectorImpl<const Expr *> &indices) {
  const Expr *base = e->IgnoreParens();
  while (const auto *s = dyn_cast<ArraySubscriptExpr>(base)) {
    indices.push_back(s->getIdx());
    base = s->getBase()->IgnoreParenImpCasts();
  }
  std::reverse(indices.begin(), indices.end());
  return base;
}

static bool isAccess(const Expr *e) {
  e = e->IgnoreParens();
  if (isa<ArraySubscriptExpr>(e))
    return true;
  const auto *u = dyn_cast<UnaryOperator>(e);
  return u && u->getOpcode() == UO_Deref;
}

LogicalResult AccessCollector::walk(const Stmt *s) {
  if (!s)
    return success();
  if (const auto *e = dyn_cast<Expr>(s); e && isAccess(e))
    return record(e, AccessPlan::Kind::Read);
  if (const auto *b = dyn_cast<BinaryOperator>(s); b && b->isAssignmentOp())
    return assignment(b);
  if (const auto *branch = dyn_cast<IfStmt>(s)) {
    if (failed(walk(branch->getCond())))
      return failure();
    for (int k = 0; k < 2; ++k) {
      arms.push_back({branch, k});
      LogicalResult ok = walk(k == 0 ? branch->getThen() : branch->getElse());
      arms.pop_back();
      if (failed(ok))
        return failure();
    }
    return success();
  }
  if (const auto *u = dyn_cast<UnaryOperator>(s);
      u && u->isIncrementDecrementOp() && isAccess(u->getSubExpr()))
    return loc().error(u) << "'" << loc().source(u)
                          << "' updates the array in place: write '+= 1.0'";
  for (const Stmt *child : s->children())
    if (failed(walk(child)))
      return failure();
  return success();
}

LogicalResult AccessCollector::assignment(const BinaryOperator *b) {
  const Expr *lhs = b->getLHS()->IgnoreParens();
  if (isAccess(lhs)) {
    BinaryOperatorKind op = b->getOpcode();
    if (op != BO_Assign && op != BO_AddAssign && op != BO_SubAssign)
      return loc().error(b->getOperatorLoc())
             << "'" << b->getOpcodeStr()
             << "' reads and writes the array in place: a stencil loop "
                "assigns ('='), or updates with '+=' and '-='";
    if (failed(record(lhs, op == BO_Assign ? AccessPlan::Kind::Store
                                           : AccessPlan::Kind::Accumulate)))
      return failure();
  } else if (!isa<DeclRefExpr>(lhs)) {
    return loc().error(lhs) << "cannot import an assignment to '"
                            << loc().source(lhs) << "'";
  }
  return walk(b->getRHS());
}

LogicalResult AccessCollector::record(const Expr *e, AccessPlan::Kind kind) {
  AccessPlan access;
  access.kind = kind;
  access.loc = loc().loc(e);
  if (failed(subscript(e, access)))
    return failure();
  if (kind != AccessPlan::Kind::Read && failed(checkWrite(e, access)))
    return failure();
  ParamPlan &param = a.plan.params[access.param];
  param.used = true;
  param.written |= kind != AccessPlan::Kind::Read;
  auto &accesses = a.plan.nests[nest].accesses;
  a.ast.accessOf[e] = {nest, unsigned(accesses.size())};
  accesses.push_back(std::move(access));
  a.ast.nests[nest].arms.push_back(arms);
  a.ast.nests[nest].exprs.push_back(e);
  return success();
}

/// Finds the array and the indices of `u[a][b]`, `*u`, then classifies each.
LogicalResult AccessCollector::subscript(const Expr *e, AccessPlan &access) {
  SmallVector<const Expr *> indices;
  const Expr *base = e->IgnoreParens();
  if (const auto *u = dyn_cast<UnaryOperator>(base)) {
    base = u->getSubExpr();
  } else {
    base = subscriptChain(base, indices);
  }
  const auto *ref = dyn_cast<DeclRefExpr>(base->IgnoreParenImpCasts());
  auto it = ref ? a.ast.paramIndex.find(ref->getDecl()) : a.ast.paramIndex.end();
  if (it == a.ast.paramIndex.end() ||
      a.plan.params[it->second].kind != ParamKind::Array)
    return loc().error(e) << "'" << loc().source(e)
                          << "': only the function's array parameters are "
                             "subscripted in a stencil loop";
  access.param = it->second;
  const ParamPlan &param = a.plan.params[it->second];
  if (param.linearized) { // w[(i*ny + j)*nz + k], *w
    if (indices.size() > 1)
      return loc().error(e) << "'" << param.name << "' is a pointer, '"
                            << loc().source(e) << "' subscripts it "
                            << indices.size() << " times";
    return analyzeLinearized(a, nest, indices.empty() ? nullptr : indices[0],
                             access.param, access);
  }
  if (indices.empty()) { // *u
    if (param.shape.size() != 1)
      return loc().error(e) << "'" << loc().source(e)
                            << "' is not an element of '" << param.name << "'";
    access.dims.push_back(kFixedDim);
    access.offsets.push_back(0);
    return success();
  }
  if (indices.size() != param.shape.size())
    return loc().error(e) << "'" << param.name << "' has "
                          << param.shape.size() << " dimensions, '"
                          << loc().source(e) << "' subscripts "
                          << indices.size();
  for (const Expr *index : indices) {
    LinearIndex lin;
    IndexKind kind = linearize(index, 1, lin);
    if (kind == IndexKind::Error)
      return failure();
    if (kind == IndexKind::NotLinear || param.linearized) {
      if (indices.size() != 1)
        return loc().error(index)
               << "the index '" << loc().source(index)
               << "' is not a loop counter plus a constant";
      return analyzeLinearized(a, nest, index, access.param, access);
    }
    if (failed(classify(index, lin, access)))
      return failure();
  }
  return success();
}

/// `scale * factor` if it lies within the dialect's offsets
/// (kMaxIndexConstant), so that sums of such terms cannot overflow either.
static std::optional<int64_t> scaled(int64_t scale, const llvm::APSInt &factor) {
  int64_t product;
  if (!factor.isRepresentableByInt64() ||
      llvm::MulOverflow(scale, factor.getExtValue(), product) ||
      product > kMaxIndexConstant || product < -kMaxIndexConstant)
    return std::nullopt;
  return product;
}

static InFlightDiagnostic indexTooLarge(const Locator &loc, const Expr *e) {
  return loc.error(e) << "the index '" << loc.source(e)
                      << "' has a constant larger than 2^40: offsets must "
                         "lie in [-2^40, 2^40]";
}

IndexKind AccessCollector::linearize(const Expr *e, int64_t scale,
                                     LinearIndex &out) {
  e = e->IgnoreParenImpCasts();
  if (const auto *lit = dyn_cast<IntegerLiteral>(e)) {
    std::optional<int64_t> term =
        scaled(scale, llvm::APSInt(lit->getValue(), /*isUnsigned=*/true));
    if (!term) {
      std::ignore = indexTooLarge(loc(), e);
      return IndexKind::Error;
    }
    out.constant += *term;
    return IndexKind::Linear;
  }
  if (const auto *cast = dyn_cast<CStyleCastExpr>(e);
      cast && cast->getType()->isIntegerType())
    return linearize(cast->getSubExpr(), scale, out);
  if (const auto *ref = dyn_cast<DeclRefExpr>(e)) {
    const auto *var = dyn_cast<VarDecl>(ref->getDecl());
    if (var && isLoopCounter(a, nest, var)) {
      out.counters.push_back({var, scale});
      return IndexKind::Linear;
    }
    const ParamPlan *param = a.paramOf(ref->getDecl());
    if (param && param->kind == ParamKind::Size)
      return IndexKind::NotLinear;
    std::ignore = loc().error(e) << "the index depends on '"
                         << ref->getDecl()->getName()
                         << "', which is not a loop counter: a "
                            "data-dependent index is not a stencil access";
    return IndexKind::Error;
  }
  if (const auto *u = dyn_cast<UnaryOperator>(e)) {
    if (u->getOpcode() == UO_Minus)
      return linearize(u->getSubExpr(), -scale, out);
    if (u->getOpcode() == UO_Plus)
      return linearize(u->getSubExpr(), scale, out);
  }
  if (const auto *b = dyn_cast<BinaryOperator>(e)) {
    BinaryOperatorKind op = b->getOpcode();
    if (op == BO_Add || op == BO_Sub) {
      IndexKind lhs = linearize(b->getLHS(), scale, out);
      if (lhs != IndexKind::Linear)
        return lhs;
      return linearize(b->getRHS(), op == BO_Add ? scale : -scale, out);
    }
    if (op == BO_Mul) {
      Expr::EvalResult value;
      const ASTContext &ast = loc().getAST();
      const Expr *other = nullptr;
      if (b->getLHS()->EvaluateAsInt(value, ast))
        other = b->getRHS();
      else if (b->getRHS()->EvaluateAsInt(value, ast))
        other = b->getLHS();
      else
        return IndexKind::NotLinear;
      std::optional<int64_t> factor = scaled(scale, value.Val.getInt());
      if (!factor) {
        std::ignore = indexTooLarge(loc(), e);
        return IndexKind::Error;
      }
      return linearize(other, *factor, out);
    }
  }
  if (isAccess(e))
    std::ignore = loc().error(e) << "the index reads '" << loc().source(e)
                         << "': a data-dependent (indirect) index is not a "
                            "stencil access";
  else
    std::ignore = loc().error(e->getBeginLoc()) << "the index '" << loc().source(e)
                         << "' is not a loop counter plus a constant";
  return IndexKind::Error;
}

LogicalResult AccessCollector::classify(const Expr *index,
                                        const LinearIndex &lin,
                                        AccessPlan &access) {
  // Sum the coefficients of each counter (`i + i` is 2*i).
  SmallVector<std::pair<const VarDecl *, int64_t>> terms;
  for (const auto &term : lin.counters) {
    const VarDecl *var = term.first;
    int64_t coef = term.second;
    auto *it = llvm::find_if(terms, [&](auto &t) { return t.first == var; });
    if (it == terms.end())
      terms.push_back({var, coef});
    else
      it->second += coef;
  }
  llvm::erase_if(terms, [](auto &t) { return t.second == 0; });
  if (lin.constant > kMaxIndexConstant || lin.constant < -kMaxIndexConstant)
    return indexTooLarge(loc(), index);
  if (terms.empty()) {
    access.dims.push_back(kFixedDim);
    access.offsets.push_back(lin.constant);
    return success();
  }
  if (terms.size() > 1 || terms.front().second != 1)
    return loc().error(index->getBeginLoc())
           << "the index '" << loc().source(index)
           << "' is not a loop counter plus a constant";
  const auto &counters = a.ast.nests[nest].counters;
  access.dims.push_back(llvm::find(counters, terms.front().first) -
                        counters.begin());
  access.offsets.push_back(lin.constant);
  return success();
}

/// An assignment writes each element once: at the counters, all of them.
LogicalResult AccessCollector::checkWrite(const Expr *e,
                                          const AccessPlan &access) {
  if (access.kind != AccessPlan::Kind::Store)
    return success();
  unsigned rank = a.ast.nests[nest].counters.size();
  SmallVector<int64_t> sorted(access.dims);
  llvm::sort(sorted);
  bool permutation = sorted.size() == rank;
  for (auto [i, d] : llvm::enumerate(sorted))
    permutation &= d == int64_t(i);
  if (!permutation)
    return loc().error(e)
           << "'" << loc().source(e)
           << "' does not assign one element per loop iteration: an "
              "assignment writes at the loop counters (all of them); sum "
              "with '+=' into a zeroed array instead";
  if (llvm::any_of(access.offsets, [](int64_t o) { return o != 0; }))
    return loc().error(e)
           << "'" << loc().source(e)
           << "' assigns at an offset from the loop counters: shift the "
              "loop bounds, or sum with '+=' into a zeroed array";
  return success();
}

/// True if `x` and `y` are in different arms of one branch.
static bool exclusive(ArrayRef<std::pair<const Stmt *, int>> x,
                      ArrayRef<std::pair<const Stmt *, int>> y) {
  for (auto [p, q] : llvm::zip(x, y)) {
    if (p.first != q.first)
      return false;
    if (p.second != q.second)
      return true;
  }
  return false;
}

/// True if `read` reads the element `write` writes, at every point.
static bool atPoint(const AccessPlan &read, const AccessPlan &write) {
  return read.dims == write.dims && read.offsets == write.offsets;
}

/// An array is read or written in one nest, not both; assigned at most
/// once on each path through the body, and not both assigned and updated.
static LogicalResult checkInPlace(Analysis &a, unsigned nest) {
  const auto &accesses = a.plan.nests[nest].accesses;
  const auto &arms = a.ast.nests[nest].arms;
  auto at = [&](const AccessPlan &access) {
    return a.locator.error(a.ast.nests[nest].exprs[&access - accesses.data()]);
  };
  for (const AccessPlan &write : accesses) {
    if (write.kind == AccessPlan::Kind::Read)
      continue;
    const std::string &name = a.plan.params[write.param].name;
    for (const AccessPlan &other : accesses) {
      if (&other == &write || other.param != write.param)
        continue;
      if (other.kind == AccessPlan::Kind::Read && atPoint(other, write))
        return at(other)
               << "'" << name
               << "' is read here at the point it is written: a stencil "
                  "loop keeps the arrays it reads apart from those it "
                  "writes; write the result to another array, or, if the "
                  "update adds to the old value, write '" << name
               << "[...] += ...'";
      if (other.kind == AccessPlan::Kind::Read)
        return at(other)
               << "'" << name
               << "' is read here and written in the same loop nest: an "
                  "in-place update (Gauss-Seidel) is not a stencil loop, "
                  "whose points may run in any order; write the result to "
                  "another array"
               << (write.kind == AccessPlan::Kind::Store
                       ? " (or update with '+=')"
                       : "");
      bool assigned = write.kind == AccessPlan::Kind::Store ||
                      other.kind == AccessPlan::Kind::Store;
      if (assigned && &other > &write &&
          !exclusive(arms[&write - accesses.data()],
                     arms[&other - accesses.data()]))
        return at(other)
               << "'" << name << "' is assigned in this loop nest already: "
                  "assign each array once per nest";
    }
  }
  return success();
}

LogicalResult mlir::stencil::importc::analyzeAccesses(Analysis &a,
                                                      unsigned nest) {
  AccessCollector collector{a, nest, {}};
  if (failed(collector.walk(a.ast.nests[nest].body)))
    return failure();
  return checkInPlace(a, nest);
}
