//===- Emit.cpp - The function and its domains -----------------------------===//

#include "Emitter.h"

#include "Stencil/Dialect/StencilOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
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
  for (const ParamPlan &p : a.plan.params)
    types.push_back(argType(p, ctx));
  b.setInsertionPointToEnd(module.getBody());
  func = func::FuncOp::create(b, a.plan.loc, a.plan.name,
                              FunctionType::get(ctx, types, {}));
  for (auto [idx, p] : llvm::enumerate(a.plan.params))
    if (p.active)
      func.setArgAttr(idx, StencilDialect::ActiveAttrHelper::getNameStr(),
                      UnitAttr::get(ctx));
  Block *entry = func.addEntryBlock();
  for (auto [decl, idx] : a.ast.paramIndex)
    values[decl] = entry->getArgument(idx);
  // Named after the C parameters and counters (printed as SSA names with
  // --mlir-use-nameloc-as-prefix, as stencil-import-c does).
  for (auto [idx, p] : llvm::enumerate(a.plan.params))
    entry->getArgument(idx).setLoc(
        NameLoc::get(b.getStringAttr(p.name), Location(p.loc)));
  b.setInsertionPointToEnd(entry);
  const auto *body = cast<CompoundStmt>(a.ast.decl->getBody());
  unsigned next = 0;
  for (const Stmt *s : body->body()) {
    if (asForLoop(s)) {
      b.setInsertionPointToEnd(entry);
      if (failed(emitNest(next++)))
        return failure();
      continue;
    }
    if (const auto *decl = dyn_cast<DeclStmt>(s))
      for (const Decl *d : decl->decls())
        if (const auto *var = dyn_cast<VarDecl>(d);
            var && var->getType()->isRealFloatingType()) {
          b.setInsertionPointToEnd(entry);
          if (failed(emitLocal(var)))
            return failure();
        }
  }
  b.setInsertionPointToEnd(entry);
  func::ReturnOp::create(b, a.locator.loc(body->getRBracLoc()));
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
  Value array = func.getArgument(access.param);
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
