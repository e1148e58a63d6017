//===- EmitStmt.cpp - Loop body statements and branches --------------------===//
//
// A body is straight-line code over scalar locals (SSA values) and array
// writes. A branch (`if`/`else`, `?:`) becomes an scf.if that yields what
// its arms assign; when both arms are safe to evaluate at every point (no
// division, no function with a restricted domain), it folds into
// arith.select, which vectorizes.
//
//===----------------------------------------------------------------------===//

#include "Emitter.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "llvm/ADT/MapVector.h"

using namespace mlir;
using namespace mlir::stencil::importc;
using namespace clang;

LogicalResult Emitter::emitStmt(const Stmt *s) {
  if (!s || isa<NullStmt>(s))
    return success();
  if (const auto *block = dyn_cast<CompoundStmt>(s)) {
    for (const Stmt *child : block->body())
      if (failed(emitStmt(child)))
        return failure();
    return success();
  }
  if (const auto *decl = dyn_cast<DeclStmt>(s)) {
    for (const Decl *d : decl->decls())
      if (const auto *var = dyn_cast<VarDecl>(d); !var || failed(emitLocal(var)))
        return var ? failure()
                   : LogicalResult(a.locator.error(d->getLocation())
                                   << "a loop body declares scalars only");
    return success();
  }
  if (const auto *ifStmt = dyn_cast<IfStmt>(s))
    return emitIf(ifStmt);
  if (const auto *assign = dyn_cast<BinaryOperator>(s);
      assign && assign->isAssignmentOp())
    return emitAssign(assign);
  if (isa<Expr>(s))
    return a.locator.error(s)
           << "the statement '" << a.locator.source(s)
           << "' has no effect a stencil loop can keep: a body assigns "
              "arrays and scalar locals";
  return a.locator.error(s->getBeginLoc())
         << "a '" << s->getStmtClassName()
         << "' statement cannot be imported into a stencil loop body";
}

LogicalResult Emitter::emitAssign(const BinaryOperator *assign) {
  const Expr *lhs = assign->getLHS()->IgnoreParens();
  FailureOr<Value> rhs = emitFloat(assign->getRHS());
  if (failed(rhs))
    return failure();
  BinaryOperatorKind op = assign->getOpcode();
  Location l = loc(assign);
  auto it = a.ast.accessOf.find(lhs);
  if (it != a.ast.accessOf.end() && int(it->second.first) == nest) {
    Value v = *rhs;
    if (op == BO_SubAssign)
      v = arith::NegFOp::create(b, l, v);
    emitEffect({it->second.second, v});
    return success();
  }
  const auto *ref = dyn_cast<DeclRefExpr>(lhs);
  const auto *var = ref ? dyn_cast<VarDecl>(ref->getDecl()) : nullptr;
  if (!var || !floatType(var->getType()) || a.paramOf(var))
    return a.locator.error(lhs) << "cannot assign to '" << a.locator.source(lhs)
                                << "' in a stencil loop body";
  if (nest >= 0 && !bodyLocals.contains(var))
    return a.locator.error(lhs)
           << "'" << var->getName()
           << "' is declared outside the loop nest: a scalar carried from "
              "one iteration to the next is a recurrence, not a stencil; "
              "declare it in the loop body, or sum into an array element "
              "('s[0] += ...')";
  if (op != BO_Assign && !values.count(var))
    return a.locator.error(lhs) << "'" << var->getName()
                                << "' is updated before it has a value";
  Value v = *rhs;
  if (op != BO_Assign) {
    Value old = values.lookup(var);
    switch (op) {
    case BO_AddAssign:
      v = arith::AddFOp::create(b, l, old, v);
      break;
    case BO_SubAssign:
      v = arith::SubFOp::create(b, l, old, v);
      break;
    case BO_MulAssign:
      v = arith::MulFOp::create(b, l, old, v);
      break;
    case BO_DivAssign:
      v = arith::DivFOp::create(b, l, old, v);
      break;
    default:
      return a.locator.error(assign->getOperatorLoc())
             << "'" << assign->getOpcodeStr() << "' on a float";
    }
  }
  values[var] = v;
  return success();
}

namespace {
/// What one arm of a branch leaves behind.
struct Arm {
  DenseMap<const ValueDecl *, Value> values;
  SmallVector<Effect> effects;
};
} // namespace

LogicalResult Emitter::emitIf(const IfStmt *s) {
  if (s->getInit() || s->getConditionVariable())
    return a.locator.error(s->getBeginLoc())
           << "an 'if' with a declaration in its condition";
  FailureOr<Value> cond = emitCond(s->getCond());
  if (failed(cond))
    return failure();
  Location l = loc(s);
  auto tmp = scf::IfOp::create(b, l, TypeRange{}, *cond, /*withElse=*/true);
  Operation *outerAnchor = anchor;
  if (!anchor)
    anchor = tmp;
  auto *outerPending = pending;
  auto before = values;
  Arm arms[2];
  for (int k = 0; k < 2; ++k) {
    OpBuilder::InsertionGuard guard(b);
    Block *block = k == 0 ? tmp.thenBlock() : tmp.elseBlock();
    b.setInsertionPoint(block->getTerminator());
    values = before;
    pending = &arms[k].effects;
    LogicalResult ok = emitStmt(k == 0 ? s->getThen() : s->getElse());
    arms[k].values = values;
    if (failed(ok)) {
      pending = outerPending;
      anchor = outerAnchor;
      return failure();
    }
  }
  pending = outerPending;
  anchor = outerAnchor;
  values = before;

  // What leaves the branch: the locals declared before it that an arm
  // assigned, the assignments of both arms, the updates of either.
  SmallVector<const ValueDecl *> locals;
  for (auto [var, old] : before)
    if (arms[0].values.lookup(var) != old || arms[1].values.lookup(var) != old)
      locals.push_back(var);
  // Locals declared before the branch without a value, assigned in both.
  for (auto [var, t] : arms[0].values)
    if (!before.count(var) && arms[1].values.count(var))
      locals.push_back(var);
  llvm::sort(locals, [](const ValueDecl *x, const ValueDecl *y) {
    return x->getLocation().getRawEncoding() <
           y->getLocation().getRawEncoding();
  });
  SmallVector<Value> yields[2];
  for (const ValueDecl *var : locals)
    for (int k = 0; k < 2; ++k)
      yields[k].push_back(arms[k].values.lookup(var));
  SmallVector<Effect> effects;
  const auto &accesses = a.plan.nests[nest].accesses;
  SmallVector<unsigned> matched;
  for (const Effect &t : arms[0].effects) {
    const AccessPlan &access = accesses[t.access];
    if (access.kind != AccessPlan::Kind::Store) {
      effects.push_back(t);
      yields[0].push_back(t.value);
      yields[1].push_back(nullptr);
      continue;
    }
    auto *e = llvm::find_if(arms[1].effects, [&](const Effect &x) {
      return accesses[x.access].param == access.param &&
             accesses[x.access].dims == access.dims;
    });
    if (e == arms[1].effects.end())
      return a.locator.error(a.ast.nests[nest].exprs[t.access])
             << "'" << a.plan.params[access.param].name
             << "' is assigned in one branch only: the other would keep its "
                "old value, which a stencil loop does not read; assign it in "
                "both branches, or write 'u[i] = c ? a : b'";
    matched.push_back(e - arms[1].effects.begin());
    effects.push_back(t);
    yields[0].push_back(t.value);
    yields[1].push_back(e->value);
  }
  for (auto [k, e] : llvm::enumerate(arms[1].effects)) {
    if (llvm::is_contained(matched, k))
      continue;
    if (accesses[e.access].kind == AccessPlan::Kind::Store)
      return a.locator.error(a.ast.nests[nest].exprs[e.access])
             << "'" << a.plan.params[accesses[e.access].param].name
             << "' is assigned in one branch only: the other would keep its "
                "old value, which a stencil loop does not read; assign it in "
                "both branches, or write 'u[i] = c ? a : b'";
    effects.push_back(e);
    yields[0].push_back(nullptr);
    yields[1].push_back(e.value);
  }
  for (auto [k, var] : llvm::enumerate(locals))
    if (!yields[0][k] || !yields[1][k])
      return a.locator.error(s->getBeginLoc())
             << "'" << var->getName()
             << "' is assigned in one branch only and has no value before it";
  SmallVector<Value> results = finishIf(tmp, yields[0], yields[1]);
  for (auto [k, var] : llvm::enumerate(locals))
    values[var] = results[k];
  for (auto [k, effect] : llvm::enumerate(effects))
    emitEffect({effect.access, results[locals.size() + k]});
  return success();
}

FailureOr<Value> Emitter::emitTernary(const ConditionalOperator *c) {
  FailureOr<Value> cond = emitCond(c->getCond());
  if (failed(cond))
    return failure();
  auto tmp =
      scf::IfOp::create(b, loc(c), TypeRange{}, *cond, /*withElse=*/true);
  Operation *outerAnchor = anchor;
  if (!anchor)
    anchor = tmp;
  Value arms[2];
  for (int k = 0; k < 2; ++k) {
    OpBuilder::InsertionGuard guard(b);
    Block *block = k == 0 ? tmp.thenBlock() : tmp.elseBlock();
    b.setInsertionPoint(block->getTerminator());
    FailureOr<Value> v = emitFloat(k == 0 ? c->getTrueExpr() : c->getFalseExpr());
    if (failed(v)) {
      anchor = outerAnchor;
      return failure();
    }
    arms[k] = *v;
  }
  anchor = outerAnchor;
  return finishIf(tmp, arms[0], arms[1]).front();
}

/// Ops that give a finite result wherever their operands are finite, and
/// so may run in the arm that is not taken.
static bool safeEverywhere(Operation *op) {
  if (!isPure(op) || op->getNumRegions())
    return false;
  if (isa<arith::DivFOp, arith::RemFOp, arith::DivSIOp, arith::DivUIOp,
          arith::RemSIOp, arith::RemUIOp, arith::CeilDivSIOp,
          arith::FloorDivSIOp>(op))
    return false;
  if (isa<arith::ArithDialect>(op->getDialect()))
    return true;
  return isa<math::AbsFOp, math::CopySignOp, math::FloorOp, math::CeilOp,
             math::FmaOp>(op);
}

SmallVector<Value> Emitter::finishIf(scf::IfOp tmp, ArrayRef<Value> thenValues,
                                     ArrayRef<Value> elseValues) {
  OpBuilder::InsertionGuard guard(b);
  Location l = tmp.getLoc();
  Block *blocks[2] = {tmp.thenBlock(), tmp.elseBlock()};
  SmallVector<Value> yields[2] = {SmallVector<Value>(thenValues),
                                  SmallVector<Value>(elseValues)};
  SmallVector<mlir::Type> types;
  for (auto [t, e] : llvm::zip(thenValues, elseValues))
    types.push_back(t ? t.getType() : e.getType());
  // An update in one arm only adds zero in the other.
  for (int k = 0; k < 2; ++k) {
    b.setInsertionPoint(blocks[k]->getTerminator());
    for (auto [v, type] : llvm::zip(yields[k], types))
      if (!v)
        v = arith::ConstantOp::create(b, l, b.getFloatAttr(type, 0.0));
  }
  bool safe = true;
  for (Block *block : blocks)
    for (Operation &op : block->without_terminator())
      safe &= safeEverywhere(&op);
  b.setInsertionPoint(tmp);
  if (safe) {
    for (Block *block : blocks)
      for (Operation &op : llvm::make_early_inc_range(block->without_terminator()))
        op.moveBefore(tmp);
    SmallVector<Value> results;
    for (auto [t, e] : llvm::zip(yields[0], yields[1]))
      results.push_back(
          t == e ? t : arith::SelectOp::create(b, l, tmp.getCondition(), t, e));
    tmp.erase();
    return results;
  }
  auto op = scf::IfOp::create(b, l, types, tmp.getCondition(), true);
  for (int k = 0; k < 2; ++k) {
    Region &to = k == 0 ? op.getThenRegion() : op.getElseRegion();
    Region &from = k == 0 ? tmp.getThenRegion() : tmp.getElseRegion();
    to.getBlocks().clear();
    to.takeBody(from);
    Block *block = &to.front();
    block->getTerminator()->erase();
    b.setInsertionPointToEnd(block);
    scf::YieldOp::create(b, l, yields[k]);
  }
  tmp.erase();
  return SmallVector<Value>(op.getResults());
}
