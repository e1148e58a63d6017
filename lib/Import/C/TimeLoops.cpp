//===- TimeLoops.cpp - C time loops as scf.for over rotated arrays ---------===//
//
// A loop over time steps whose body holds loop nests and pointer rotations:
//
//   double *prev = u0, *cur = u1, *next = u2;
//   for (int t = 0; t < steps; t++) {
//     for (...) next[i] = 2.0 * cur[i] - prev[i] + ...;   // nests
//     double *tmp = prev; prev = cur; cur = next; next = tmp;
//   }
//
// becomes the time-loop form of docs/TimeLoops.md: an scf.for whose
// iteration arguments are the pointers the step assigns (its states).
//
//===----------------------------------------------------------------------===//

#include "Analysis.h"

#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/SmallBitVector.h"
#include "llvm/ADT/STLExtras.h"

using namespace mlir;
using namespace mlir::stencil::importc;
using namespace clang;

/// `p = q` between pointers.
static const BinaryOperator *pointerAssignment(const Stmt *s) {
  const auto *b = dyn_cast<BinaryOperator>(s);
  if (!b || b->getOpcode() != BO_Assign ||
      !b->getLHS()->getType()->isPointerType())
    return nullptr;
  return isa<DeclRefExpr>(b->getLHS()->IgnoreParenImpCasts()) ? b : nullptr;
}

/// `u[sx][sy] += e` (or `-=`): an update of one point.
static const BinaryOperator *pointUpdate(const Stmt *s) {
  const auto *b = dyn_cast<BinaryOperator>(s);
  if (!b || (b->getOpcode() != BO_AddAssign && b->getOpcode() != BO_SubAssign))
    return nullptr;
  return isa<ArraySubscriptExpr>(b->getLHS()->IgnoreParens()) ? b : nullptr;
}

/// Pointers, and float scalars with a value.
static bool isStepDecl(const Stmt *s) {
  const auto *decl = dyn_cast<DeclStmt>(s);
  return decl && llvm::all_of(decl->decls(), [](const Decl *d) {
           const auto *var = dyn_cast<VarDecl>(d);
           return var && (var->getType()->isPointerType() ||
                          (var->getType()->isRealFloatingType() &&
                           var->getInit()));
         });
}

bool mlir::stencil::importc::isTimeLoop(const ForStmt *f) {
  const auto *body = dyn_cast<CompoundStmt>(f->getBody());
  if (!body || body->size() < 2)
    return false;
  bool nests = false;
  for (const Stmt *s : body->body()) {
    if (asForLoop(s))
      nests = true;
    else if (!isStepDecl(s) && !pointerAssignment(s) && !pointUpdate(s) &&
             !isa<NullStmt>(s))
      return false;
  }
  return nests;
}

/// `prev = cur`: both are arrays of the plan, the left one a pointer local.
static LogicalResult rotation(Analysis &a, const BinaryOperator *assign,
                              const llvm::DenseSet<const ValueDecl *> &inStep,
                              TimeLoopPlan &loop) {
  const auto *lhs = cast<DeclRefExpr>(assign->getLHS()->IgnoreParenImpCasts());
  const auto *rhs = dyn_cast<DeclRefExpr>(assign->getRHS()->IgnoreParenImpCasts());
  auto l = a.ast.paramIndex.find(lhs->getDecl());
  auto r = rhs ? a.ast.paramIndex.find(rhs->getDecl()) : a.ast.paramIndex.end();
  if (l == a.ast.paramIndex.end() || a.plan.params[l->second].initial < 0 ||
      r == a.ast.paramIndex.end())
    return a.locator.error(assign->getOperatorLoc())
           << "a time step rotates pointer locals among its arrays "
              "('tmp = prev; prev = cur;'): '"
           << a.locator.source(assign) << "' is not such a rotation";
  if (a.plan.params[l->second].shape != a.plan.params[r->second].shape)
    return a.locator.error(assign->getOperatorLoc())
           << "'" << a.locator.source(assign)
           << "' rotates arrays of different shapes";
  if (!inStep.contains(lhs->getDecl()) &&
      !llvm::is_contained(loop.states, l->second))
    loop.states.push_back(l->second);
  return success();
}

/// `next[sx] += w[t]`: a domain of one point at indices affine in the
/// sizes, whose value the step computes before it.
static LogicalResult pointSource(Analysis &a, const BinaryOperator *update) {
  SmallVector<const Expr *> indices;
  const Expr *base = subscriptChain(update->getLHS(), indices);
  const auto *ref = dyn_cast<DeclRefExpr>(base);
  auto it = ref ? a.ast.paramIndex.find(ref->getDecl()) : a.ast.paramIndex.end();
  if (it == a.ast.paramIndex.end() ||
      a.plan.params[it->second].kind != ParamKind::Array ||
      a.plan.params[it->second].linearized ||
      a.plan.params[it->second].shape.size() != indices.size())
    return a.locator.error(update->getLHS())
           << "a point update of a time step ('next[sx][sy] += w[t]') "
              "subscripts one of the function's arrays in each dimension";
  SmallVector<AffineExpr> lower, upper;
  for (const Expr *index : indices) {
    FailureOr<AffineExpr> at = analyzeSizeExpr(a, index);
    if (failed(at))
      return failure();
    lower.push_back(*at);
    upper.push_back(*at + 1);
  }
  MLIRContext *ctx = a.locator.getContext();
  unsigned symbols = a.plan.sizeParams().size();
  NestPlan nest;
  nest.loc = a.locator.loc(update->getOperatorLoc());
  nest.lower = AffineMap::get(0, symbols, lower, ctx);
  nest.upper = AffineMap::get(0, symbols, upper, ctx);
  AccessPlan access;
  access.param = it->second;
  access.kind = AccessPlan::Kind::Accumulate;
  access.loc = a.locator.loc(update->getLHS());
  for (unsigned d = 0; d < indices.size(); ++d) {
    access.dims.push_back(d);
    access.offsets.push_back(0);
  }
  ParamPlan &param = a.plan.params[it->second];
  param.used = param.written = true;
  unsigned index = a.plan.nests.size();
  a.ast.accessOf[update->getLHS()->IgnoreParens()] = {index, 0};
  nest.accesses.push_back(std::move(access));
  a.plan.nests.push_back(std::move(nest));
  FunctionAST::Nest astNest;
  astNest.body = update;
  astNest.exprs.push_back(update->getLHS()->IgnoreParens());
  astNest.arms.emplace_back();
  a.ast.nests.push_back(std::move(astNest));
  return success();
}

LogicalResult mlir::stencil::importc::analyzeTimeLoop(Analysis &a,
                                                      const ForStmt *f) {
  FailureOr<LoopBounds> bounds = analyzeLoopHeader(a, f);
  if (failed(bounds))
    return failure();
  TimeLoopPlan loop;
  loop.loc = a.locator.loc(f->getForLoc());
  loop.counter = bounds->counter->getName().str();
  loop.lower = bounds->lower;
  loop.upper = bounds->upper;
  loop.firstNest = a.plan.nests.size();
  llvm::DenseSet<const ValueDecl *> inStep;
  for (const Stmt *s : cast<CompoundStmt>(f->getBody())->body()) {
    if (const ForStmt *nest = asForLoop(s)) {
      if (isTimeLoop(nest))
        return a.locator.error(nest->getForLoc())
               << "a time loop inside a time loop is not supported";
      if (failed(analyzeNest(a, nest)))
        return failure();
    } else if (const auto *decl = dyn_cast<DeclStmt>(s)) {
      if (failed(declareLocals(a, decl)))
        return failure();
      for (const Decl *d : decl->decls())
        inStep.insert(cast<ValueDecl>(d));
    } else if (const auto *assign = pointerAssignment(s)) {
      if (failed(rotation(a, assign, inStep, loop)))
        return failure();
    } else if (const auto *update = pointUpdate(s)) {
      if (failed(pointSource(a, update)))
        return failure();
    }
  }
  loop.numNests = a.plan.nests.size() - loop.firstNest;
  llvm::sort(loop.states);
  a.plan.timeLoops.push_back(std::move(loop));
  a.ast.timeLoops.push_back(f);
  return success();
}

/// The parameters each array of the plan may point to: itself for a
/// parameter; for a pointer local, what it starts as and, for the states of
/// a time loop, what any state of that loop starts as (they rotate).
static std::vector<llvm::SmallBitVector> pointsTo(const FunctionPlan &plan) {
  size_t count = plan.params.size();
  std::vector<llvm::SmallBitVector> roots(count, llvm::SmallBitVector(count));
  for (size_t i = 0; i < count; ++i) {
    int start = plan.params[i].initial;
    if (start < 0)
      roots[i].set(i);
    else
      roots[i] |= roots[start]; // locals follow what they start as
  }
  for (const TimeLoopPlan &loop : plan.timeLoops) {
    llvm::SmallBitVector all(count);
    for (unsigned s : loop.states)
      all |= roots[s];
    for (size_t i = 0; i < count; ++i) // the states and what starts as one
      if (roots[i].anyCommon(all) && plan.params[i].initial >= 0)
        roots[i] |= all;
  }
  return roots;
}

LogicalResult mlir::stencil::importc::checkRotatedAliases(Analysis &a) {
  const FunctionPlan &plan = a.plan;
  std::vector<llvm::SmallBitVector> roots = pointsTo(plan);
  for (auto [n, nest] : llvm::enumerate(plan.nests)) {
    for (const AccessPlan &write : nest.accesses) {
      if (write.kind == AccessPlan::Kind::Read)
        continue;
      for (auto [k, other] : llvm::enumerate(nest.accesses)) {
        // Two pointer locals are told apart where the IR is built, where
        // what each holds is known (Emitter::emitNest).
        bool locals = plan.params[other.param].initial >= 0 &&
                      plan.params[write.param].initial >= 0;
        if (other.param == write.param || locals ||
            !roots[other.param].anyCommon(roots[write.param]))
          continue;
        return a.locator.error(a.ast.nests[n].exprs[k])
               << "'" << plan.params[other.param].name << "' and '"
               << plan.params[write.param].name
               << "' may be the same array here (a pointer starts as, or "
                  "is rotated through, the other), and this loop nest "
                  "writes '"
               << plan.params[write.param].name
               << "': a stencil loop keeps the arrays it reads apart from "
                  "those it writes";
      }
    }
  }
  return success();
}
