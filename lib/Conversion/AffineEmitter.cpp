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

std::optional<int64_t> NestBounds::getConstantExtent(unsigned k) const {
  if (lower[k].getNumResults() != 1 || upper[k].getNumResults() != 1)
    return std::nullopt;
  AffineExpr extent = simplifyAffineExpr(upperExpr(k) - lowerExpr(k), 0,
                                         operands.size());
  if (auto cst = dyn_cast<AffineConstantExpr>(extent))
    return cst.getValue();
  return std::nullopt;
}

LogicalResult mlir::stencil::checkBoundsAreAffineSymbols(DomainOp domain) {
  Region *scope = affine::getAffineScope(domain);
  for (Value operand : domain.getBoundOperands())
    if (!affine::isValidSymbol(operand, scope))
      return domain.emitOpError(
          "has a bound operand that is not a valid affine symbol here; "
          "define bounds from function arguments or values computed at the "
          "function's top level");
  return success();
}

NestBounds mlir::stencil::getDomainBounds(DomainOp domain) {
  NestBounds bounds;
  unsigned numSymbols = domain.getBoundOperands().size();
  for (unsigned k = 0, e = domain.getRank(); k < e; ++k) {
    bounds.lower.push_back(
        symbolMap(domain.getLowerBounds().getResult(k), numSymbols));
    bounds.upper.push_back(
        symbolMap(domain.getUpperBounds().getResult(k), numSymbols));
  }
  bounds.operands = llvm::to_vector(domain.getBoundOperands());
  return bounds;
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

void mlir::stencil::buildLoopNest(
    OpBuilder &builder, Location loc, const NestBounds &bounds, bool parallel,
    function_ref<void(OpBuilder &, Location, ValueRange)> bodyFn) {
  OpBuilder::InsertionGuard guard(builder);
  unsigned rank = bounds.getRank();
  SmallVector<Value> ivs(rank);
  bool parallelEmitted = false;
  for (unsigned k = 0; k < rank; ++k) {
    auto [lbMap, lbOperands] = canonicalBound(bounds.lower[k], bounds.operands);
    auto [ubMap, ubOperands] = canonicalBound(bounds.upper[k], bounds.operands);
    if (bounds.getConstantExtent(k) == 1) {
      OpFoldResult iv = affine::makeComposedFoldedAffineApply(
          builder, loc, lbMap, getAsOpFoldResult(ValueRange(lbOperands)));
      ivs[k] = getValueOrCreateConstantIndexOp(builder, loc, iv);
      continue;
    }
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

AffineMap mlir::stencil::getAccessMap(AccessOpInterface access, unsigned rank,
                                      ArrayRef<int64_t> shift) {
  MLIRContext *ctx = access->getContext();
  SmallVector<AffineExpr> results;
  for (auto [dim, offset] :
       llvm::zip_equal(access.getIterationDims(), access.getArrayOffset()))
    results.push_back(getAffineDimExpr(dim, ctx) + shift[dim] + offset);
  return AffineMap::get(rank, 0, results, ctx);
}

void mlir::stencil::collectBodySlice(DomainOp domain, ValueRange roots,
                                     llvm::DenseSet<Operation *> &slice) {
  Block *body = domain.getBodyBlock();
  SmallVector<Value> worklist(roots.begin(), roots.end());
  while (!worklist.empty()) {
    Value value = worklist.pop_back_val();
    Operation *def = value.getDefiningOp();
    if (!def || def->getBlock() != body || !slice.insert(def).second)
      continue;
    // Operands of nested ops (regions of scf.if, ...) count as well.
    def->walk([&](Operation *nested) {
      llvm::append_range(worklist, nested->getOperands());
    });
  }
}

void mlir::stencil::emitBodyValues(OpBuilder &builder, DomainOp domain,
                                   ValueRange ivs, ArrayRef<int64_t> shift,
                                   IRMapping &mapping,
                                   const llvm::DenseSet<Operation *> *slice) {
  unsigned rank = domain.getRank();
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
