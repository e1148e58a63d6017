//===- Emit.cpp - The function and its domains -----------------------------===//

#include "Emitter.h"

#include "Stencil/Dialect/StencilOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/BuiltinTypes.h"

using namespace mlir;
using namespace mlir::stencil;
using namespace mlir::stencil::importc;
using namespace clang;

mlir::Type Emitter::floatType(QualType type) const {
  MLIRContext *ctx = a.locator.getContext();
  type = type.getCanonicalType().getUnqualifiedType();
  if (type->isSpecificBuiltinType(BuiltinType::Double))
    return Float64Type::get(ctx);
  if (type->isSpecificBuiltinType(BuiltinType::Float))
    return Float32Type::get(ctx);
  return nullptr;
}

static mlir::Type argType(const ParamPlan &p, MLIRContext *ctx) {
  switch (p.kind) {
  case ParamKind::Array:
    return MemRefType::get(p.shape, p.element);
  case ParamKind::Size:
    return IndexType::get(ctx);
  case ParamKind::Scalar:
    return p.element;
  }
  return nullptr;
}

LogicalResult Emitter::emitFunction(ModuleOp module) {
  MLIRContext *ctx = a.locator.getContext();
  SmallVector<mlir::Type> types;
  unsigned numArgs = a.plan.numArgs();
  for (const ParamPlan &p : ArrayRef(a.plan.params).take_front(numArgs))
    types.push_back(argType(p, ctx));
  b.setInsertionPointToEnd(module.getBody());
  func = func::FuncOp::create(b, a.plan.loc, a.plan.name,
                              FunctionType::get(ctx, types, {}));
  Block *entry = func.addEntryBlock();
  // Named after the C parameters and counters (printed as SSA names with
  // --mlir-use-nameloc-as-prefix, as stencil-import-c does).
  for (unsigned idx = 0; idx < numArgs; ++idx) {
    const ParamPlan &p = a.plan.params[idx];
    if (p.active)
      func.setArgAttr(idx, StencilDialect::ActiveAttrHelper::getNameStr(),
                      UnitAttr::get(ctx));
    BlockArgument arg = entry->getArgument(idx);
    arg.setLoc(NameLoc::get(b.getStringAttr(p.name), Location(p.loc)));
    values[a.ast.declOf[idx]] = arg;
  }
  b.setInsertionPointToEnd(entry);
  const auto *body = cast<CompoundStmt>(a.ast.decl->getBody());
  unsigned nextNest = 0, nextLoop = 0;
  for (const Stmt *s : body->body())
    if (failed(emitTopLevel(s, nextNest, nextLoop)))
      return failure();
  func::ReturnOp::create(b, a.locator.loc(body->getRBracLoc()));
  return success();
}

Value Emitter::array(unsigned param) const {
  return values.lookup(a.ast.declOf[param]);
}

/// Declarations, nests and time loops of the function, or of a time step.
LogicalResult Emitter::emitTopLevel(const Stmt *s, unsigned &nextNest,
                                    unsigned &nextLoop) {
  if (const ForStmt *f = asForLoop(s)) {
    if (nextLoop < a.ast.timeLoops.size() && a.ast.timeLoops[nextLoop] == f)
      return emitTimeLoop(nextLoop++, nextNest);
    return emitNest(nextNest++);
  }
  if (const auto *decl = dyn_cast<DeclStmt>(s)) {
    for (const Decl *d : decl->decls()) {
      const auto *var = dyn_cast<VarDecl>(d);
      if (!var || !var->getInit())
        continue;
      if (var->getType()->isPointerType()) {
        const auto *from = cast<DeclRefExpr>(var->getInit()->IgnoreParenImpCasts());
        values[var] = values.lookup(from->getDecl());
      } else if (failed(emitLocal(var))) {
        return failure();
      }
    }
    return success();
  }
  if (const auto *update = dyn_cast<CompoundAssignOperator>(s))
    return emitPoint(nextNest++, update);
  if (const auto *assign = dyn_cast<BinaryOperator>(s)) { // a rotation
    const auto *lhs = cast<DeclRefExpr>(assign->getLHS()->IgnoreParenImpCasts());
    const auto *rhs = cast<DeclRefExpr>(assign->getRHS()->IgnoreParenImpCasts());
    values[lhs->getDecl()] = values.lookup(rhs->getDecl());
  }
  return success();
}

/// Emits a value of the symbol-only affine expression `expr` over the size
/// arguments.
static Value emitAffine(OpBuilder &b, Location loc, AffineExpr expr,
                        ArrayRef<Value> symbols) {
  if (auto c = dyn_cast<AffineConstantExpr>(expr))
    return arith::ConstantIndexOp::create(b, loc, c.getValue());
  if (auto s = dyn_cast<AffineSymbolExpr>(expr))
    return symbols[s.getPosition()];
  auto bin = cast<AffineBinaryOpExpr>(expr);
  Value lhs = emitAffine(b, loc, bin.getLHS(), symbols);
  Value rhs = emitAffine(b, loc, bin.getRHS(), symbols);
  if (bin.getKind() == AffineExprKind::Add)
    return arith::AddIOp::create(b, loc, lhs, rhs);
  return arith::MulIOp::create(b, loc, lhs, rhs);
}

/// `next[sx] += e` in a time step: `e` computed in the step (loads of
/// per-step arrays included), added in a domain of one point.
LogicalResult Emitter::emitPoint(unsigned index,
                                 const CompoundAssignOperator *update) {
  const NestPlan &plan = a.plan.nests[index];
  FailureOr<Value> value = emitFloat(update->getRHS());
  if (failed(value))
    return failure();
  Value v = *value;
  if (update->getOpcode() == BO_SubAssign)
    v = arith::NegFOp::create(b, loc(update), v);
  const AccessPlan &access = plan.accesses.front();
  mlir::Type element = a.plan.params[access.param].element;
  if (v.getType() != element)
    v = *convert(v, element, update->getRHS());
  SmallVector<Value> symbols;
  for (unsigned idx : a.plan.sizeParams())
    symbols.push_back(func.getArgument(idx));
  auto domain = DomainOp::create(b, plan.loc, plan.lower, plan.upper, symbols);
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPoint(domain.getBodyBlock()->getTerminator());
  AccumulateOp::create(b, access.loc, v, array(access.param), access.offsets,
                       /*dims=*/nullptr);
  return success();
}

/// A step ends with its pointers holding the arrays they held at its start,
/// permuted: two pointers left at one array (`next = prev; prev = cur;
/// cur = next;`) make the next step update that array in place, and a
/// pointer set to a parameter starts every step from it.
LogicalResult Emitter::checkRotation(const TimeLoopPlan &plan, scf::ForOp loop,
                                     ArrayRef<Value> yields) {
  SmallVector<Value> args(loop.getRegionIterArgs());
  for (auto [k, value] : llvm::enumerate(yields)) {
    const auto *start = llvm::find(args, value);
    if (start != args.end() && !llvm::is_contained(yields.take_front(k), value))
      continue;
    return emitError(plan.loc)
           << "after a step of this time loop, '"
           << a.plan.params[plan.states[k]].name
           << "' does not point at an array of its own among those the step "
              "started with: a time step rotates its pointers (a "
              "permutation, 'tmp = prev; prev = cur; cur = next; next = "
              "tmp;')";
  }
  return success();
}

LogicalResult Emitter::emitTimeLoop(unsigned index, unsigned &nextNest) {
  const TimeLoopPlan &plan = a.plan.timeLoops[index];
  const ForStmt *f = a.ast.timeLoops[index];
  Location l = plan.loc;
  SmallVector<Value> symbols;
  for (unsigned idx : a.plan.sizeParams())
    symbols.push_back(func.getArgument(idx));
  Value lower = emitAffine(b, l, plan.lower.getResult(0), symbols);
  Value upper = emitAffine(b, l, plan.upper.getResult(0), symbols);
  Value step = arith::ConstantIndexOp::create(b, l, 1);
  SmallVector<Value> inits;
  for (unsigned s : plan.states)
    inits.push_back(array(s));
  auto loop = scf::ForOp::create(b, l, lower, upper, step, inits);
  const VarDecl *counter = nullptr;
  if (const auto *decl = dyn_cast<DeclStmt>(f->getInit()))
    counter = cast<VarDecl>(decl->getSingleDecl());
  else
    counter = cast<VarDecl>(
        cast<DeclRefExpr>(cast<BinaryOperator>(f->getInit())->getLHS()
                              ->IgnoreParenImpCasts())
            ->getDecl());
  Block *body = loop.getBody();
  values[counter] = loop.getInductionVar();
  loop.getInductionVar().setLoc(NameLoc::get(
      b.getStringAttr(counter->getName()), a.locator.loc(counter->getLocation())));
  for (auto [s, arg] : llvm::zip(plan.states, loop.getRegionIterArgs()))
    values[a.ast.declOf[s]] = arg;
  {
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToEnd(body);
    if (!body->empty())
      b.setInsertionPoint(body->getTerminator());
    unsigned noLoops = a.ast.timeLoops.size();
    inStep = true;
    for (const Stmt *s : cast<CompoundStmt>(f->getBody())->body())
      if (failed(emitTopLevel(s, nextNest, noLoops))) {
        inStep = false;
        return failure();
      }
    inStep = false;
    SmallVector<Value> yields;
    for (unsigned s : plan.states)
      yields.push_back(array(s));
    if (failed(checkRotation(plan, loop, yields)))
      return failure();
    if (!body->empty() && isa<scf::YieldOp>(body->back()))
      body->back().erase();
    b.setInsertionPointToEnd(body);
    scf::YieldOp::create(b, l, yields);
  }
  for (auto [s, result] : llvm::zip(plan.states, loop.getResults()))
    values[a.ast.declOf[s]] = result;
  return success();
}

LogicalResult Emitter::emitLocal(const VarDecl *var) {
  if (!floatType(var->getType()))
    return a.locator.error(var->getLocation())
           << "the local '" << var->getName()
           << "' is not a float: a loop body declares double and float "
              "scalars only";
  if (nest >= 0)
    bodyLocals.insert(var);
  if (!var->getInit()) {
    values.erase(var);
    return success();
  }
  FailureOr<Value> init = emitFloat(var->getInit());
  if (failed(init))
    return failure();
  values[var] = *init;
  return success();
}

LogicalResult Emitter::emitNest(unsigned index) {
  const NestPlan &plan = a.plan.nests[index];
  const FunctionAST::Nest &ast = a.ast.nests[index];
  SmallVector<Value> symbols;
  for (unsigned idx : a.plan.sizeParams())
    symbols.push_back(func.getArgument(idx));
  // Pointers that hold the same array here (halfway through a rotation).
  for (auto [k, write] : llvm::enumerate(plan.accesses)) {
    if (write.kind == AccessPlan::Kind::Read)
      continue;
    for (auto [j, other] : llvm::enumerate(plan.accesses))
      if (other.param != write.param &&
          array(other.param) == array(write.param))
        return a.locator.error(ast.exprs[j])
               << "'" << a.plan.params[other.param].name << "' and '"
               << a.plan.params[write.param].name
               << "' hold the same array here, and this loop nest writes "
                  "it: a stencil loop keeps the arrays it reads apart from "
                  "those it writes";
  }
  auto domain = DomainOp::create(b, plan.loc, plan.lower, plan.upper, symbols);
  Block *body = domain.getBodyBlock();
  for (auto [counter, iv] : llvm::zip(ast.counters, body->getArguments())) {
    values[counter] = iv;
    iv.setLoc(NameLoc::get(b.getStringAttr(counter->getName()),
                           a.locator.loc(counter->getLocation())));
  }
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPoint(body->getTerminator());
  nest = index;
  bodyLocals.clear();
  gathers.clear();
  auto saved = values;
  LogicalResult result = emitStmt(ast.body);
  values = std::move(saved);
  nest = -1;
  return result;
}

void Emitter::emitEffect(const Effect &effect) {
  if (pending) {
    pending->push_back(effect);
    return;
  }
  const AccessPlan &access = a.plan.nests[nest].accesses[effect.access];
  Value array = this->array(access.param);
  DenseI64ArrayAttr dims = nullptr;
  bool identity = access.dims.size() == a.plan.nests[nest].counters.size();
  for (auto [i, d] : llvm::enumerate(access.dims))
    identity &= d == int64_t(i);
  if (!identity)
    dims = b.getDenseI64ArrayAttr(access.dims);
  if (access.kind == AccessPlan::Kind::Store)
    StoreOp::create(b, access.loc, effect.value, array, dims);
  else
    AccumulateOp::create(b, access.loc, effect.value, array, access.offsets,
                         dims);
}
