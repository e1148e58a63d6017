//===- NarrowArithmetic.cpp - 32-bit loop index arithmetic -------*- C++ -*-===//
//
// This file implements IndexArithmetic32 (NarrowArithmetic.h). Every copy
// carries a bound on its magnitude, derived from its operands': constants,
// outside values (checked on the host), loop indices (from their loop's
// bounds). An op is copied only if its result's bound stays below 2^31, so
// the copy computes exactly what the index op computes.
//
//===----------------------------------------------------------------------===//

#include "NarrowArithmetic.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace mlir::stencil;

static constexpr int64_t kLimit = int64_t(1) << 31;
/// Constants larger than this are left in 64 bits.
static constexpr int64_t kConstantBound = int64_t(1) << 24;

static bool isOutside(scf::ParallelOp root, Value v) {
  return !root.getRegion().isAncestor(v.getParentRegion());
}

SmallVector<Value> IndexArithmetic32::getOutsideValues(scf::ParallelOp root) {
  llvm::SetVector<Value> values;
  root->walk([&](Operation *op) {
    for (Value v : op->getOperands())
      if (v.getType().isIndex() && isOutside(root, v) &&
          !getConstantIntValue(v))
        values.insert(v);
  });
  return values.takeVector();
}

FailureOr<int64_t> IndexArithmetic32::getBound(Value v) {
  if (std::optional<int64_t> c = getConstantIntValue(v))
    return *c > -kConstantBound && *c < kConstantBound ? std::abs(*c)
                                                       : FailureOr<int64_t>();
  if (isOutside(root, v))
    return kOutsideBound;
  auto it = narrowed.find(v);
  if (it == narrowed.end())
    return failure();
  return it->second.bound;
}

FailureOr<IndexArithmetic32::Narrow> IndexArithmetic32::get(Value v,
                                                           OpBuilder &b) {
  Type i32 = b.getI32Type();
  if (auto it = narrowed.find(v); it != narrowed.end())
    return it->second;
  if (std::optional<int64_t> c = getConstantIntValue(v)) {
    FailureOr<int64_t> bound = getBound(v);
    if (failed(bound))
      return failure();
    Value c32 = arith::ConstantIntOp::create(b, v.getLoc(), i32, *c);
    return Narrow{c32, *bound};
  }
  OpBuilder atDef(b.getContext());
  int64_t bound;
  if (isOutside(root, v)) {
    atDef.setInsertionPointToStart(root.getBody());
    bound = kOutsideBound;
  } else if (auto arg = dyn_cast<BlockArgument>(v)) {
    // A loop index: |i| <= max(|lower|, |upper|) + |step|.
    Operation *owner = arg.getOwner()->getParentOp();
    unsigned d = arg.getArgNumber();
    FailureOr<int64_t> lower = failure(), upper = failure(), step = failure();
    if (auto loop = dyn_cast<scf::ParallelOp>(owner)) {
      lower = getBound(loop.getLowerBound()[d]);
      upper = getBound(loop.getUpperBound()[d]);
      step = getBound(loop.getStep()[d]);
    } else if (auto loop = dyn_cast<scf::ForOp>(owner);
               loop && d == 0 && v.getType().isIndex()) {
      lower = getBound(loop.getLowerBound());
      upper = getBound(loop.getUpperBound());
      step = getBound(loop.getStep());
    }
    if (failed(lower) || failed(upper) || failed(step))
      return failure();
    bound = std::max(*lower, *upper) + *step;
    atDef.setInsertionPointToStart(arg.getOwner());
  } else {
    return failure();
  }
  if (bound >= kLimit)
    return failure();
  Value cast = arith::IndexCastOp::create(atDef, v.getLoc(), i32, v);
  narrowed[v] = {cast, bound};
  return narrowed[v];
}

Value IndexArithmetic32::lookup(Value v) const {
  auto it = narrowed.find(v);
  return it == narrowed.end() ? Value() : it->second.value;
}

/// The bound of `op`'s result from its operands' bounds, or failure if the
/// op is not one the copy handles.
static FailureOr<int64_t> getResultBound(Operation *op,
                                         ArrayRef<int64_t> bounds) {
  auto divisorIsPositive = [&]() {
    std::optional<int64_t> c = getConstantIntValue(op->getOperand(1));
    return c && *c > 0;
  };
  return llvm::TypeSwitch<Operation *, FailureOr<int64_t>>(op)
      .Case<arith::AddIOp, arith::SubIOp>(
          [&](auto) { return bounds[0] + bounds[1]; })
      .Case<arith::MulIOp>([&](arith::MulIOp mul) -> FailureOr<int64_t> {
        // Only by a constant (lower-affine's negation, a coarsening
        // factor), whose bound is below 2^24: the product fits in int64.
        for (Value operand : mul->getOperands())
          if (getConstantIntValue(operand))
            return bounds[0] * bounds[1];
        return failure();
      })
      .Case<arith::MaxSIOp, arith::MinSIOp>(
          [&](auto) { return std::max(bounds[0], bounds[1]); })
      .Case<arith::DivSIOp, arith::RemSIOp, arith::FloorDivSIOp,
            arith::CeilDivSIOp>([&](auto) -> FailureOr<int64_t> {
        if (!divisorIsPositive())
          return failure();
        return bounds[0] + 1;
      })
      .Default([](Operation *) { return failure(); });
}

void IndexArithmetic32::narrowOp(Operation *op) {
  bool compare = isa<arith::CmpIOp>(op);
  bool select = isa<arith::SelectOp>(op);
  if (!compare && (op->getNumResults() != 1 ||
                   !op->getResult(0).getType().isIndex()))
    return;
  if (compare && !op->getOperand(0).getType().isIndex())
    return;
  OpBuilder b(op);
  b.setInsertionPointAfter(op);
  // A select's condition stays i1; its two values are narrowed.
  unsigned first = select ? 1 : 0;
  SmallVector<Value> operands;
  SmallVector<int64_t> bounds;
  if (select)
    operands.push_back(op->getOperand(0));
  for (Value operand : op->getOperands().drop_front(first)) {
    FailureOr<Narrow> n = get(operand, b);
    if (failed(n))
      return;
    operands.push_back(n->value);
    bounds.push_back(n->bound);
  }
  if (compare) {
    auto cmp = cast<arith::CmpIOp>(op);
    Value copy = arith::CmpIOp::create(b, op->getLoc(), cmp.getPredicate(),
                                       operands[0], operands[1]);
    op->getResult(0).replaceAllUsesWith(copy);
    op->erase();
    return;
  }
  FailureOr<int64_t> bound =
      select ? FailureOr<int64_t>(std::max(bounds[0], bounds[1]))
             : getResultBound(op, bounds);
  if (failed(bound) || *bound >= kLimit)
    return;
  OperationState state(op->getLoc(), op->getName(), operands,
                       {b.getI32Type()}, op->getAttrs());
  Operation *copy = b.create(state);
  narrowed[op->getResult(0)] = {copy->getResult(0), *bound};
}

void IndexArithmetic32::run(scf::ParallelOp nest) {
  root = nest;
  SmallVector<Operation *> ops;
  root.getBody()->walk<WalkOrder::PreOrder>([&](Operation *op) {
    if (isa_and_nonnull<arith::ArithDialect>(op->getDialect()))
      ops.push_back(op);
  });
  for (Operation *op : ops)
    narrowOp(op);
}
