//===- CutPadded.cpp - Gather form over zero-bordered temporaries -*- C++ -*-===//
//
// This file implements emitPaddedGather (CutEmitter.h). A scatter domain
// over [lb, ub) whose writes are `A[p + o_s] += c_s * t_s(p)`, with t_s cut
// values and c_s constants, becomes, in coordinates shifted by the span
// h_k = max o_k - min o_k:
//
//   T_t = zeros over [0, ub + 2h)        (the border domains)
//   T_t[p + h] = t(p) for p in [lb, ub)  (the fill domain)
//   for q in [lb + min o^A, ub + max o^A):   (one domain per array A)
//     A[q] += sum over s writing A, in program order, of c_s * T_t[q - o_s + h]
//
// T_t[q - o_s + h] is t(q - o_s) where statement s is valid at q, zero
// elsewhere, and c_s * 0 adds nothing: each point gets the contributions
// the gather form gives it, in the same order, without boundary nests.
//
//===----------------------------------------------------------------------===//

#include "Stencil/Conversion/AffineEmitter.h"
#include "CutEmitter.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/IRMapping.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/MapVector.h"

using namespace mlir;
using namespace mlir::stencil;

namespace {
/// The symbol-only bounds of one emitted domain.
struct Box {
  SmallVector<AffineExpr> lower, upper;
};

/// Builds the IR of a padded gather for one domain.
class PaddedEmitter {
public:
  PaddedEmitter(DomainOp domain, const CutPlan &plan)
      : domain(domain), plan(plan), span(plan.padded->span),
        rank(domain.getRank()), bounds(getDomainBounds(domain)) {}

  void emit(OpBuilder &builder);

private:
  DomainOp createDomain(OpBuilder &builder, const Box &box);
  void emitBorders(OpBuilder &builder, ArrayRef<AffineExpr> extents);
  void emitFill(OpBuilder &builder);
  void emitGathers(OpBuilder &builder);
  Value emitStatement(OpBuilder &builder, AccumulateOp acc,
                      ArrayRef<int64_t> offset);

  DomainOp domain;
  const CutPlan &plan;
  ArrayRef<int64_t> span;
  unsigned rank;
  NestBounds bounds;
  /// The temporary of each cut op, and the cut ops.
  llvm::MapVector<Operation *, Value> temps;
  llvm::DenseSet<Operation *> cutOps;
};
} // namespace

DomainOp PaddedEmitter::createDomain(OpBuilder &builder, const Box &box) {
  MLIRContext *ctx = builder.getContext();
  unsigned numSymbols = bounds.operands.size();
  return DomainOp::create(
      builder, domain.getLoc(),
      AffineMap::get(0, numSymbols, box.lower, ctx),
      AffineMap::get(0, numSymbols, box.upper, ctx), bounds.operands);
}

/// Zeroes, in each dimension with a border, the points of the temporaries
/// below lb + h and from ub + h on, across the whole extent of the others.
void PaddedEmitter::emitBorders(OpBuilder &builder,
                                ArrayRef<AffineExpr> extents) {
  MLIRContext *ctx = builder.getContext();
  AffineExpr zero = getAffineConstantExpr(0, ctx);
  for (unsigned k = 0; k < rank; ++k) {
    if (span[k] == 0)
      continue;
    Box lower, upper;
    for (unsigned j = 0; j < rank; ++j) {
      lower.lower.push_back(zero);
      lower.upper.push_back(j == k ? bounds.lowerExpr(k) + span[k]
                                   : extents[j]);
      upper.lower.push_back(j == k ? bounds.upperExpr(k) + span[k] : zero);
      upper.upper.push_back(extents[j]);
    }
    for (const Box &box : {lower, upper}) {
      DomainOp border = createDomain(builder, box);
      OpBuilder::InsertionGuard guard(builder);
      builder.setInsertionPoint(border.getYield());
      for (auto [op, temp] : temps) {
        Type type = op->getResult(0).getType();
        Value value = arith::ConstantOp::create(
            builder, domain.getLoc(), type, builder.getFloatAttr(type, 0.0));
        StoreOp::create(builder, domain.getLoc(), value, temp,
                        /*dims=*/nullptr);
      }
    }
  }
}

/// The fill domain over [lb + h, ub + h): the cut values' slice evaluated
/// at p - h, stored into the temporaries at p.
void PaddedEmitter::emitFill(OpBuilder &builder) {
  SmallVector<Value> roots;
  for (auto [op, temp] : temps)
    roots.push_back(op->getResult(0));
  llvm::DenseSet<Operation *> slice;
  collectBodySlice(domain, roots, slice);
  Box box;
  for (unsigned k = 0; k < rank; ++k) {
    box.lower.push_back(bounds.lowerExpr(k) + span[k]);
    box.upper.push_back(bounds.upperExpr(k) + span[k]);
  }
  DomainOp fill = createDomain(builder, box);
  OpBuilder::InsertionGuard guard(builder);
  builder.setInsertionPoint(fill.getYield());
  IRMapping mapping;
  SmallVector<int64_t> shift;
  for (int64_t h : span)
    shift.push_back(-h);
  // The original coordinates, p - h, where the body uses them.
  for (auto [k, iv] : llvm::enumerate(domain.getInductionVars())) {
    if (iv.use_empty())
      continue;
    AffineMap map = AffineMap::get(
        1, 0, getAffineDimExpr(0, builder.getContext()) - span[k]);
    mapping.map(iv, affine::AffineApplyOp::create(
                        builder, domain.getLoc(), map,
                        ValueRange{fill.getInductionVars()[k]}));
  }
  for (Operation &op : domain.getBodyBlock()->without_terminator()) {
    if (!slice.contains(&op))
      continue;
    Operation *copy = builder.clone(op, mapping);
    if (auto gather = dyn_cast<GatherOp>(copy)) {
      // Array dimension a indexes iteration dimension dims[a]; a fixed
      // entry (`_`) follows none and keeps its absolute index.
      auto access = cast<AccessOpInterface>(gather.getOperation());
      SmallVector<int64_t> offset(gather.getOffset());
      for (auto [o, dim] : llvm::zip_equal(offset, access.getIterationDims()))
        if (dim != kFixedDim)
          o -= span[dim];
      gather.setOffset(offset);
    }
  }
  for (auto [op, temp] : temps)
    StoreOp::create(builder, op->getLoc(),
                    mapping.lookup(op->getResult(0)), temp, /*dims=*/nullptr);
}

/// Evaluates the value of `acc`, a cut value times constants, at the
/// centre of a gather domain, reading the cut value at `h - offset`.
Value PaddedEmitter::emitStatement(OpBuilder &builder, AccumulateOp acc,
                                   ArrayRef<int64_t> offset) {
  // The statement's ops down to the cut values (constants, mulf, negf).
  llvm::DenseSet<Operation *> slice;
  collectBodySlice(domain, acc.getValue(), slice, &cutOps);
  IRMapping mapping;
  SmallVector<int64_t> at;
  for (unsigned k = 0; k < rank; ++k)
    at.push_back(span[k] - offset[k]);
  for (Operation &op : domain.getBodyBlock()->without_terminator()) {
    if (!slice.contains(&op))
      continue;
    if (Value temp = temps.lookup(&op)) {
      Value read = GatherOp::create(builder, op.getLoc(),
                                    op.getResult(0).getType(), temp, at,
                                    /*dims=*/nullptr);
      mapping.map(op.getResult(0), read);
      continue;
    }
    builder.clone(op, mapping);
  }
  return mapping.lookup(acc.getValue());
}

/// One gather domain per accumulated array, over the box its statements
/// write, summing their values in program order.
void PaddedEmitter::emitGathers(OpBuilder &builder) {
  llvm::MapVector<Value, SmallVector<AccumulateOp>> byArray;
  for (Operation &op : domain.getBodyBlock()->without_terminator())
    if (auto acc = dyn_cast<AccumulateOp>(&op))
      byArray[acc.getArray()].push_back(acc);
  for (auto &[array, accs] : byArray) {
    SmallVector<SmallVector<int64_t>> offsets;
    for (AccumulateOp acc : accs)
      offsets.push_back(*getIterationOffset(
          cast<AccessOpInterface>(acc.getOperation()), rank));
    Box box;
    for (unsigned k = 0; k < rank; ++k) {
      int64_t lo = offsets.front()[k], hi = lo;
      for (ArrayRef<int64_t> o : offsets) {
        lo = std::min(lo, o[k]);
        hi = std::max(hi, o[k]);
      }
      box.lower.push_back(bounds.lowerExpr(k) + lo);
      box.upper.push_back(bounds.upperExpr(k) + hi);
    }
    DomainOp gather = createDomain(builder, box);
    OpBuilder::InsertionGuard guard(builder);
    builder.setInsertionPoint(gather.getYield());
    Value sum;
    for (auto [acc, offset] : llvm::zip_equal(accs, offsets)) {
      Value value = emitStatement(builder, acc, offset);
      sum = sum ? arith::AddFOp::create(builder, acc.getLoc(), sum, value)
                      .getResult()
                : value;
    }
    // The accumulate keeps the original's `dims` and a zero offset.
    AccumulateOp first = accs.front();
    auto write = cast<AccumulateOp>(builder.clone(*first));
    write.getValueMutable().assign(sum);
    write.setOffset(SmallVector<int64_t>(write.getOffset().size(), 0));
  }
}

void PaddedEmitter::emit(OpBuilder &builder) {
  Location loc = domain.getLoc();
  // Temporaries over [0, ub + 2h).
  SmallVector<AffineExpr> extents;
  SmallVector<Value> sizes;
  for (unsigned k = 0; k < rank; ++k) {
    extents.push_back(bounds.upperExpr(k) + 2 * span[k]);
    sizes.push_back(affine::AffineApplyOp::create(
        builder, loc, symbolMap(extents.back(), bounds.operands.size()),
        bounds.operands));
  }
  SmallVector<Value> allocated = allocTemporaries(builder, loc, plan, sizes);
  for (auto [cut, temp] : llvm::zip_equal(plan.cuts, allocated)) {
    temps[cut.op] = temp;
    cutOps.insert(cut.op);
  }
  emitBorders(builder, extents);
  emitFill(builder);
  emitGathers(builder);
  for (auto [op, temp] : temps)
    memref::DeallocOp::create(builder, loc, temp);
}

void mlir::stencil::emitPaddedGather(RewriterBase &rewriter, DomainOp domain,
                                     const CutPlan &plan) {
  rewriter.setInsertionPoint(domain);
  NestBounds bounds = getDomainBounds(domain);
  scf::IfOp guard = emitNonEmptyGuard(rewriter, domain.getLoc(), bounds);
  bool empty = false;
  if (!guard)
    for (unsigned k = 0; k < domain.getRank(); ++k)
      empty |= *bounds.getConstantExtent(k) <= 0;
  if (!empty)
    PaddedEmitter(domain, plan).emit(rewriter);
  rewriter.eraseOp(domain);
}
