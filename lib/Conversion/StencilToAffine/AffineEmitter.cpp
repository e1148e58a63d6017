//===- AffineEmitter.cpp - Emit stencil bodies as affine code ---*- C++ -*-===//
//
// This file implements the loop nest builder and the body evaluation shared
// by the lowering to affine loops and the scatter-to-gather conversion.
//
//===----------------------------------------------------------------------===//

#include "Stencil/Conversion/AffineEmitter.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Arith/Utils/Utils.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"


using namespace mlir;
using namespace mlir::stencil;

bool NestBounds::isRectangular() const {
  auto noDims = [](AffineMap map) { return map.getNumDims() == 0; };
  return llvm::all_of(lower, noDims) && llvm::all_of(upper, noDims);
}

SmallVector<Value> NestBounds::getMapOperands(AffineMap map,
                                              ValueRange ivs) const {
  SmallVector<Value> result(ivs.take_front(map.getNumDims()));
  llvm::append_range(result, operands);
  return result;
}

std::optional<int64_t> NestBounds::getConstantExtent(unsigned k) const {
  if (lower[k].getNumResults() != 1 || upper[k].getNumResults() != 1)
    return std::nullopt;
  unsigned numDims =
      std::max(lower[k].getNumDims(), upper[k].getNumDims());
  AffineExpr extent = simplifyAffineExpr(upperExpr(k) - lowerExpr(k), numDims,
                                         operands.size());
  if (auto cst = dyn_cast<AffineConstantExpr>(extent))
    return cst.getValue();
  return std::nullopt;
}

bool mlir::stencil::hasAffineSymbolBounds(DomainOp domain) {
  Region *scope = affine::getAffineScope(domain);
  return llvm::all_of(domain.getBoundOperands(), [&](Value operand) {
    return affine::isValidSymbol(operand, scope);
  });
}

LogicalResult mlir::stencil::checkBoundsAreAffineSymbols(DomainOp domain) {
  if (hasAffineSymbolBounds(domain))
    return success();
  return domain.emitOpError(
      "has a bound operand that is not a valid affine symbol here; define "
      "bounds from function arguments or values computed at the function's "
      "top level");
}

NestBounds mlir::stencil::getDomainBounds(DomainOp domain) {
  NestBounds bounds;
  for (unsigned k = 0, e = domain.getRank(); k < e; ++k) {
    bounds.lower.push_back(domain.getLowerBoundMap(k));
    bounds.upper.push_back(domain.getUpperBoundMap(k));
  }
  bounds.operands = llvm::to_vector(domain.getBoundOperands());
  return bounds;
}

/// Emits `expr` over the index values `symbols` as 128-bit integer
/// arithmetic. Divisors are positive constants (domain verifier).
static Value emitExact(OpBuilder &builder, Location loc, AffineExpr expr,
                       ValueRange symbols) {
  Type i128 = builder.getIntegerType(128);
  auto constant = [&](int64_t value) -> Value {
    return arith::ConstantOp::create(
        builder, loc, i128,
        builder.getIntegerAttr(i128, APInt(128, value, /*isSigned=*/true)));
  };
  if (auto cst = dyn_cast<AffineConstantExpr>(expr))
    return constant(cst.getValue());
  if (auto sym = dyn_cast<AffineSymbolExpr>(expr))
    return arith::IndexCastOp::create(builder, loc, i128,
                                      symbols[sym.getPosition()]);
  auto binary = cast<AffineBinaryOpExpr>(expr);
  Value lhs = emitExact(builder, loc, binary.getLHS(), symbols);
  Value rhs = emitExact(builder, loc, binary.getRHS(), symbols);
  switch (binary.getKind()) {
  case AffineExprKind::Add:
    return arith::AddIOp::create(builder, loc, lhs, rhs);
  case AffineExprKind::Mul:
    return arith::MulIOp::create(builder, loc, lhs, rhs);
  case AffineExprKind::FloorDiv:
    return arith::FloorDivSIOp::create(builder, loc, lhs, rhs);
  case AffineExprKind::CeilDiv:
    return arith::CeilDivSIOp::create(builder, loc, lhs, rhs);
  default: {
    // mod with a positive divisor: lhs - floordiv(lhs, rhs) * rhs >= 0.
    Value quotient = arith::FloorDivSIOp::create(builder, loc, lhs, rhs);
    Value product = arith::MulIOp::create(builder, loc, quotient, rhs);
    return arith::SubIOp::create(builder, loc, lhs, product);
  }
  }
}

scf::IfOp mlir::stencil::emitNonEmptyGuard(OpBuilder &builder, Location loc,
                                           const NestBounds &bounds,
                                           ValueRange elseValues) {
  auto isConstant = [](AffineMap map) {
    return llvm::all_of(map.getResults(), llvm::IsaPred<AffineConstantExpr>);
  };
  if (llvm::all_of(bounds.lower, isConstant) &&
      llvm::all_of(bounds.upper, isConstant))
    return nullptr;
  Value nonEmpty;
  auto require = [&](AffineExpr lowerExpr, AffineExpr upperExpr) {
    auto lowerCst = dyn_cast<AffineConstantExpr>(lowerExpr);
    auto upperCst = dyn_cast<AffineConstantExpr>(upperExpr);
    if (lowerCst && upperCst && lowerCst.getValue() < upperCst.getValue())
      return;
    Value lower = emitExact(builder, loc, lowerExpr, bounds.operands);
    Value upper = emitExact(builder, loc, upperExpr, bounds.operands);
    Value less = arith::CmpIOp::create(builder, loc, arith::CmpIPredicate::slt,
                                       lower, upper);
    nonEmpty = nonEmpty ? arith::AndIOp::create(builder, loc, nonEmpty, less)
                        : less;
  };
  // Every lower expression must lie below every upper one for a row to
  // run; where both are of the sizes alone (in a nonrectangular domain
  // too), that is checked here, in exact arithmetic. Expressions of a
  // coordinate are left to the loops.
  for (unsigned k = 0, e = bounds.getRank(); k < e; ++k)
    for (AffineExpr lowerExpr : bounds.lower[k].getResults())
      for (AffineExpr upperExpr : bounds.upper[k].getResults())
        if (lowerExpr.isSymbolicOrConstant() &&
            upperExpr.isSymbolicOrConstant())
          require(lowerExpr, upperExpr);
  if (!nonEmpty)
    return nullptr;
  if (elseValues.empty()) {
    // Without results the builder terminates the then block itself.
    auto guard = scf::IfOp::create(builder, loc, nonEmpty,
                                   /*withElseRegion=*/false);
    builder.setInsertionPoint(guard.thenBlock()->getTerminator());
    return guard;
  }
  auto guard = scf::IfOp::create(builder, loc, TypeRange(elseValues),
                                 nonEmpty, /*addThenBlock=*/true,
                                 /*addElseBlock=*/true);
  builder.setInsertionPointToStart(guard.elseBlock());
  scf::YieldOp::create(builder, loc, elseValues);
  builder.setInsertionPointToStart(guard.thenBlock());
  return guard;
}

AffineMap mlir::stencil::symbolMap(AffineExpr expr, unsigned numSymbols) {
  return AffineMap::get(0, numSymbols, expr);
}

std::pair<AffineMap, SmallVector<Value>>
mlir::stencil::canonicalBound(AffineMap map, ArrayRef<Value> operands) {
  SmallVector<Value> used(operands.begin(), operands.end());
  affine::canonicalizeMapAndOperands(&map, &used);
  return {map, used};
}

/// The coordinate of dimension `k` of `bounds`, whose extent is the constant
/// 1 and which gets no loop: its lower bound, folded where it can be.
Value mlir::stencil::buildUnitDimValue(OpBuilder &builder, Location loc,
                                      const NestBounds &bounds, unsigned k,
                                      ValueRange ivs) {
  auto [lbMap, lbOperands] = canonicalBound(
      bounds.lower[k], bounds.getMapOperands(bounds.lower[k], ivs));
  OpFoldResult iv = affine::makeComposedFoldedAffineApply(
      builder, loc, lbMap, getAsOpFoldResult(ValueRange(lbOperands)));
  return getValueOrCreateConstantIndexOp(builder, loc, iv);
}

Value mlir::stencil::buildExtent(OpBuilder &builder, Location loc,
                                 const NestBounds &bounds, unsigned k) {
  MLIRContext *ctx = builder.getContext();
  AffineMap map = AffineMap::get(
      0, bounds.operands.size(),
      {bounds.upperExpr(k) - bounds.lowerExpr(k), getAffineConstantExpr(0, ctx)},
      ctx);
  return affine::AffineMaxOp::create(builder, loc, map, bounds.operands);
}

void mlir::stencil::buildLoopNest(
    OpBuilder &builder, Location loc, const NestBounds &bounds, bool parallel,
    function_ref<void(OpBuilder &, Location, ValueRange)> bodyFn) {
  OpBuilder::InsertionGuard guard(builder);
  unsigned rank = bounds.getRank();
  SmallVector<Value> ivs(rank);
  bool parallelEmitted = false;
  for (unsigned k = 0; k < rank; ++k) {
    if (bounds.getConstantExtent(k) == 1) {
      ivs[k] = buildUnitDimValue(builder, loc, bounds, k, ivs);
      continue;
    }
    auto [lbMap, lbOperands] = canonicalBound(
        bounds.lower[k], bounds.getMapOperands(bounds.lower[k], ivs));
    auto [ubMap, ubOperands] = canonicalBound(
        bounds.upper[k], bounds.getMapOperands(bounds.upper[k], ivs));
    if (parallel && !parallelEmitted) {
      parallelEmitted = true;
      auto loop = affine::AffineParallelOp::create(
          builder, loc, TypeRange(), ArrayRef<arith::AtomicRMWKind>(),
          ArrayRef<AffineMap>(lbMap), lbOperands, ArrayRef<AffineMap>(ubMap),
          ubOperands, ArrayRef<int64_t>(1));
      ivs[k] = loop.getIVs()[0];
      builder.setInsertionPoint(loop.getBody()->getTerminator());
      continue;
    }
    auto loop = affine::AffineForOp::create(builder, loc, lbOperands, lbMap,
                                            ubOperands, ubMap);
    ivs[k] = loop.getInductionVar();
    builder.setInsertionPoint(loop.getBody()->getTerminator());
  }
  bodyFn(builder, loc, ivs);
}

void mlir::stencil::buildParallelNest(
    OpBuilder &builder, Location loc, const NestBounds &bounds,
    function_ref<void(OpBuilder &, Location, ValueRange)> bodyFn) {
  assert(bounds.isRectangular() && "one affine.parallel needs a box");
  OpBuilder::InsertionGuard guard(builder);
  unsigned rank = bounds.getRank();
  SmallVector<Value> ivs(rank);
  SmallVector<unsigned> loopDims;
  SmallVector<AffineMap> lbMaps, ubMaps;
  for (unsigned k = 0; k < rank; ++k) {
    if (bounds.getConstantExtent(k) == 1) {
      ivs[k] = buildUnitDimValue(builder, loc, bounds, k, ivs);
      continue;
    }
    // affine.parallel takes one operand list for all dimensions: the maps
    // stay over every bound operand.
    loopDims.push_back(k);
    lbMaps.push_back(bounds.lower[k]);
    ubMaps.push_back(bounds.upper[k]);
  }
  if (!loopDims.empty()) {
    auto loop = affine::AffineParallelOp::create(
        builder, loc, TypeRange(), ArrayRef<arith::AtomicRMWKind>(), lbMaps,
        bounds.operands, ubMaps, bounds.operands,
        SmallVector<int64_t>(loopDims.size(), 1));
    for (auto [index, k] : llvm::enumerate(loopDims))
      ivs[k] = loop.getIVs()[index];
    builder.setInsertionPoint(loop.getBody()->getTerminator());
  }
  bodyFn(builder, loc, ivs);
}

AffineMap mlir::stencil::getAccessMap(AccessOpInterface access, unsigned rank,
                                      ArrayRef<int64_t> shift) {
  MLIRContext *ctx = access->getContext();
  SmallVector<AffineExpr> results;
  for (auto [dim, offset] :
       llvm::zip_equal(access.getIterationDims(), access.getArrayOffset()))
    results.push_back(dim == kFixedDim
                          ? getAffineConstantExpr(offset, ctx)
                          : getAffineDimExpr(dim, ctx) + shift[dim] + offset);
  return AffineMap::get(rank, 0, results, ctx);
}

void mlir::stencil::collectBodySlice(
    DomainOp domain, ValueRange roots, llvm::DenseSet<Operation *> &slice,
    const llvm::DenseSet<Operation *> *leaves) {
  Block *body = domain.getBodyBlock();
  SmallVector<Value> worklist(roots.begin(), roots.end());
  while (!worklist.empty()) {
    Value value = worklist.pop_back_val();
    Operation *def = value.getDefiningOp();
    if (!def || def->getBlock() != body || !slice.insert(def).second ||
        (leaves && leaves->contains(def)))
      continue;
    // Operands of nested ops (regions of scf.if, ...) count as well.
    def->walk([&](Operation *nested) {
      llvm::append_range(worklist, nested->getOperands());
    });
  }
}

SmallVector<DomainOp> mlir::stencil::getScatterDomains(Operation *root) {
  SmallVector<DomainOp> domains;
  root->walk([&](DomainOp domain) {
    if (domain.hasScatter())
      domains.push_back(domain);
  });
  return domains;
}

void mlir::stencil::mapInductionVars(OpBuilder &builder, DomainOp domain,
                                     ValueRange ivs, ArrayRef<int64_t> shift,
                                     IRMapping &mapping) {
  for (auto [k, iv] : llvm::enumerate(domain.getInductionVars())) {
    if (iv.use_empty() || mapping.contains(iv))
      continue;
    Value point = ivs[k];
    if (shift[k] != 0) {
      AffineMap map = AffineMap::get(
          1, 0, getAffineDimExpr(0, builder.getContext()) + shift[k]);
      point = affine::AffineApplyOp::create(builder, domain.getLoc(), map,
                                            ValueRange{ivs[k]});
    }
    mapping.map(iv, point);
  }
}

void mlir::stencil::emitBodyValues(OpBuilder &builder, DomainOp domain,
                                   ValueRange ivs, ArrayRef<int64_t> shift,
                                   IRMapping &mapping,
                                   const llvm::DenseSet<Operation *> *slice) {
  unsigned rank = domain.getRank();
  mapInductionVars(builder, domain, ivs, shift, mapping);
  for (Operation &op : domain.getBodyBlock()->without_terminator()) {
    if (slice && !slice->contains(&op))
      continue;
    // Already evaluated at this point by an earlier call sharing `mapping`.
    if (op.getNumResults() != 0 && mapping.contains(op.getResult(0)))
      continue;
    if (auto gather = dyn_cast<GatherOp>(op)) {
      AffineMap map = getAccessMap(gather, rank, shift);
      Value load = affine::AffineLoadOp::create(builder, gather.getLoc(),
                                                gather.getArray(), map, ivs);
      mapping.map(gather.getResult(), load);
      continue;
    }
    if (auto access = dyn_cast<AccessOpInterface>(op); access &&
                                                       access.isWrite())
      continue;
    builder.clone(op, mapping);
  }
}

void mlir::stencil::emitAccumulate(OpBuilder &builder, Location loc,
                                   Value value, Value array, AffineMap map,
                                   ValueRange ivs) {
  Value old = affine::AffineLoadOp::create(builder, loc, array, map, ivs);
  Value sum = arith::AddFOp::create(builder, loc, old, value);
  affine::AffineStoreOp::create(builder, loc, sum, array, map, ivs);
}
