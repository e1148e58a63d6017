//===- SnapshotBorders.cpp - What a step overwrites before reading -*- C++
//-*-===//
//
// This file implements planOverwrittenBox (TimeLoopPlan.h): the box of an
// array that a time step stores into before anything reads the array. A
// snapshot of the state the step starts from then keeps only the rest of
// the array, its border (`next` of a leapfrog: the step recomputes its
// interior, and later steps read its faces). materializeBox
// (TimeLoopSnapshots.h) states the box in the driver's values, where the
// planner has checked that it has them (TimeLoopPlanner.cpp).
//
//===----------------------------------------------------------------------===//

#include "TimeLoopBindings.h"
#include "TimeLoopSnapshots.h"

#include "Stencil/Dialect/StencilInterfaces.h"
#include "Stencil/Dialect/StencilOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/Matchers.h"

using namespace mlir;
using namespace mlir::stencil;
using namespace mlir::stencil::ad;

/// Bound `result` of `map` (a domain's lower or upper bounds) in the step's
/// terms: a constant, or an argument of the step's entry block (or a
/// constant op) plus a constant.
static std::optional<StepBound> stepBound(DomainOp domain, AffineMap map,
                                          unsigned result) {
  AffineExpr expr = map.getResult(result);
  int64_t constant = 0;
  if (auto sum = dyn_cast<AffineBinaryOpExpr>(expr);
      sum && sum.getKind() == AffineExprKind::Add) {
    auto rhs = dyn_cast<AffineConstantExpr>(sum.getRHS());
    if (!rhs)
      return std::nullopt;
    constant = rhs.getValue();
    expr = sum.getLHS();
  }
  if (auto value = dyn_cast<AffineConstantExpr>(expr))
    return StepBound{-1, constant + value.getValue()};
  Value operand;
  if (auto dim = dyn_cast<AffineDimExpr>(expr))
    operand = domain.getBoundOperands()[dim.getPosition()];
  else if (auto symbol = dyn_cast<AffineSymbolExpr>(expr))
    operand =
        domain.getBoundOperands()[map.getNumDims() + symbol.getPosition()];
  else
    return std::nullopt;
  APInt value;
  if (matchPattern(operand, m_ConstantInt(&value)))
    return StepBound{-1, constant + value.getSExtValue()};
  auto arg = dyn_cast<BlockArgument>(operand);
  if (!arg || !arg.getOwner()->isEntryBlock() ||
      !isa<func::FuncOp>(arg.getOwner()->getParentOp()))
    return std::nullopt;
  return StepBound{static_cast<int64_t>(arg.getArgNumber()), constant};
}

/// The top-level op of `body` that first uses the contents of `array`
/// (taking its extents does not count); null if none does.
static Operation *firstContentUser(Block &body, Value array) {
  Operation *first = nullptr;
  for (Operation *user : array.getUsers()) {
    Operation *top = body.findAncestorOpInBlock(*user);
    if (!top || isa<memref::DimOp>(top))
      continue;
    if (!first || top->isBeforeInBlock(first))
      first = top;
  }
  return first;
}

std::optional<OverwrittenBox> ad::planOverwrittenBox(func::FuncOp step,
                                                     BlockArgument array) {
  Block &body = step.getBody().front();
  auto domain = dyn_cast_or_null<DomainOp>(firstContentUser(body, array));
  // A nonrectangular domain overwrites no box: the snapshot keeps it all.
  if (!domain || !domain.isRectangular())
    return std::nullopt;
  // The domain's one use of the array: a store at every point, not under
  // any condition.
  StoreOp store;
  for (Operation *user : array.getUsers()) {
    if (!domain->isAncestor(user))
      continue;
    auto asStore = dyn_cast<StoreOp>(user);
    if (store || !asStore || asStore->getBlock() != domain.getBodyBlock())
      return std::nullopt;
    store = asStore;
  }
  auto type = cast<MemRefType>(array.getType());
  if (!store || domain.getRank() != type.getRank())
    return std::nullopt;
  SmallVector<int64_t> dims =
      cast<AccessOpInterface>(store.getOperation()).getIterationDims();
  OverwrittenBox box;
  for (int64_t dim : dims) {
    std::optional<StepBound> lower =
        stepBound(domain, domain.getLowerBounds(), dim);
    std::optional<StepBound> upper =
        stepBound(domain, domain.getUpperBounds(), dim);
    if (!lower || !upper)
      return std::nullopt;
    box.lower.push_back(*lower);
    box.upper.push_back(*upper);
  }
  return box;
}

SnapshotBox ad::materializeBox(OpBuilder &builder, Location loc,
                               const OverwrittenBox &box,
                               function_ref<Value(int64_t)> argumentValue) {
  // Each bound is a global index of its dimension: marked so, so that
  // --stencil-distribute can make it a rank's local one.
  StencilDialect::GlobalIndexAttrHelper mark(builder.getContext());
  auto inDriver = [&](StepBound bound, int64_t dim) -> Value {
    Value constant =
        arith::ConstantIndexOp::create(builder, loc, bound.constant);
    Value value = constant;
    if (bound.argument >= 0)
      value = arith::AddIOp::create(builder, loc,
                                    argumentValue(bound.argument), constant);
    mark.setAttr(value.getDefiningOp(), builder.getI64IntegerAttr(dim));
    return value;
  };
  SnapshotBox result;
  for (auto [dim, bounds] :
       llvm::enumerate(llvm::zip_equal(box.lower, box.upper))) {
    result.lower.push_back(inDriver(std::get<0>(bounds), dim));
    result.upper.push_back(inDriver(std::get<1>(bounds), dim));
  }
  return result;
}
