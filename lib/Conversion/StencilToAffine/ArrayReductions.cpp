//===- ArrayReductions.cpp - Reductions into arrays --------------*- C++ -*-===//
//
// This file plans and emits the reductions of a domain: accumulates whose
// `dims` is not a permutation. See ArrayReductions.h for the order.
//
//===----------------------------------------------------------------------===//

#include "ArrayReductions.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/IntegerSet.h"

using namespace mlir;
using namespace mlir::stencil;

//===----------------------------------------------------------------------===//
// Plan
//===----------------------------------------------------------------------===//

/// The offsets with which `acc` indexes the array through dimension `dim`,
/// or nullopt if it does not use that dimension.
static std::optional<SmallVector<int64_t>> offsetsAlong(AccumulateOp acc,
                                                        int64_t dim) {
  auto access = cast<AccessOpInterface>(acc.getOperation());
  SmallVector<int64_t> offsets;
  for (auto [d, o] :
       llvm::zip_equal(access.getIterationDims(), access.getArrayOffset()))
    if (d == dim)
      offsets.push_back(o);
  if (offsets.empty())
    return std::nullopt;
  return offsets;
}

ArrayReductionPlan
mlir::stencil::planArrayReductions(DomainOp domain, const NestBounds &bounds,
                                   bool parallel,
                                   std::optional<int64_t> sliceDim) {
  ArrayReductionPlan plan;
  int64_t rank = bounds.getRank();
  int64_t p = 0;
  if (sliceDim)
    p = *sliceDim;
  else
    while (p + 1 < rank && bounds.getConstantExtent(p) == 1)
      ++p;
  plan.sliceDim = p;
  Block *body = domain.getBodyBlock();
  for (auto [index, op] : llvm::enumerate(body->without_terminator())) {
    auto acc = dyn_cast<AccumulateOp>(&op);
    if (!acc || !acc.isReduction())
      continue;
    ArrayReductionPlan::Entry entry;
    entry.op = index;
    // In place when the slice owns every element it updates: the slice
    // dimension is used, with the same offsets by every accumulate into
    // the array.
    std::optional<SmallVector<int64_t>> mine = offsetsAlong(acc, p);
    entry.direct =
        !parallel ||
        (mine && llvm::all_of(body->getOps<AccumulateOp>(), [&](AccumulateOp
                                                                 other) {
           return other.getArray() != acc.getArray() ||
                  offsetsAlong(other, p) == mine;
         }));
    if (!entry.direct) {
      entry.used = getUsedIterationDims(acc);
      entry.carried = entry.used.empty();
    }
    plan.entries.push_back(entry);
  }
  return plan;
}

void ArrayReductionPlan::printJSON(raw_ostream &os) const {
  os << "{\"slice_dim\": " << sliceDim << ", \"entries\": [";
  llvm::interleaveComma(entries, os, [&](const Entry &entry) {
    os << "{\"op\": " << entry.op << ", \"direct\": "
       << (entry.direct ? "true" : "false") << ", \"carried\": "
       << (entry.carried ? "true" : "false") << ", \"used\": [";
    llvm::interleaveComma(entry.used, os);
    os << "]}";
  });
  os << "]}";
}

//===----------------------------------------------------------------------===//
// Emission
//===----------------------------------------------------------------------===//

/// `iv - lower_k` for the coordinate `iv` of dimension `k`.
static Value emitRelative(OpBuilder &builder, Location loc,
                          const NestBounds &bounds, int64_t k, Value iv) {
  unsigned numSymbols = bounds.operands.size();
  AffineMap map = AffineMap::get(
      1, numSymbols,
      getAffineDimExpr(0, builder.getContext()) -
          bounds.lowerExpr(k).shiftDims(0, 1),
      builder.getContext());
  SmallVector<Value> operands = {iv};
  llvm::append_range(operands, bounds.operands);
  return affine::AffineApplyOp::create(builder, loc, map, operands);
}

ReductionBuffers::ReductionBuffers(OpBuilder &builder, DomainOp domain,
                                   const NestBounds &bounds,
                                   const ArrayReductionPlan &plan)
    : domain(domain), bounds(bounds), sliceDim(plan.sliceDim) {
  SmallVector<Operation *> ops = llvm::to_vector(llvm::make_pointer_range(
      domain.getBodyBlock()->without_terminator()));
  Location loc = domain.getLoc();
  for (const ArrayReductionPlan::Entry &entry : plan.entries) {
    if (entry.direct)
      continue;
    if (entry.carried) {
      carried.push_back(cast<AccumulateOp>(ops[entry.op]));
      continue;
    }
    Buffer buffer;
    buffer.acc = cast<AccumulateOp>(ops[entry.op]);
    buffer.entry = entry;
    if (!llvm::is_contained(entry.used, sliceDim))
      buffer.iterDims.push_back(sliceDim);
    llvm::append_range(buffer.iterDims, entry.used);
    for (int64_t k : buffer.iterDims)
      buffer.extents.push_back(buildExtent(builder, loc, bounds, k));
    Type type = buffer.acc.getValue().getType();
    auto memrefType = MemRefType::get(
        SmallVector<int64_t>(buffer.extents.size(), ShapedType::kDynamic),
        type);
    buffer.memref =
        memref::AllocOp::create(builder, loc, memrefType, buffer.extents);
    byOp[buffer.acc] = buffers.size();
    buffers.push_back(std::move(buffer));
  }
}

AffineMap ReductionBuffers::indexMap(const Buffer &buffer) const {
  MLIRContext *ctx = domain.getContext();
  unsigned rank = bounds.getRank();
  SmallVector<AffineExpr> results;
  for (int64_t k : buffer.iterDims)
    results.push_back(getAffineDimExpr(k, ctx) -
                      bounds.lowerExpr(k).shiftDims(0, rank));
  return AffineMap::get(rank, bounds.operands.size(), results, ctx);
}

void ReductionBuffers::emitZero(OpBuilder &builder,
                                ValueRange outerIvs) const {
  Location loc = domain.getLoc();
  for (const Buffer &buffer : buffers) {
    Value zero = arith::ConstantOp::create(
        builder, loc, buffer.acc.getValue().getType(),
        builder.getFloatAttr(buffer.acc.getValue().getType(), 0.0));
    Value slice = emitRelative(builder, loc, bounds, sliceDim,
                               outerIvs[sliceDim]);
    SmallVector<Value> indices;
    std::function<void(OpBuilder &, unsigned)> fill = [&](OpBuilder &b,
                                                          unsigned pos) {
      if (pos == buffer.iterDims.size()) {
        memref::StoreOp::create(b, loc, zero, buffer.memref, indices);
        return;
      }
      if (buffer.iterDims[pos] == sliceDim) {
        indices.push_back(slice);
        fill(b, pos + 1);
        indices.pop_back();
        return;
      }
      Value c0 = arith::ConstantIndexOp::create(b, loc, 0);
      Value c1 = arith::ConstantIndexOp::create(b, loc, 1);
      auto loop = scf::ForOp::create(b, loc, c0, buffer.extents[pos], c1);
      OpBuilder::InsertionGuard guard(b);
      b.setInsertionPoint(loop.getBody()->getTerminator());
      indices.push_back(loop.getInductionVar());
      fill(b, pos + 1);
      indices.pop_back();
    };
    fill(builder, 0);
  }
}

bool ReductionBuffers::emitUpdate(OpBuilder &builder, AccumulateOp acc,
                                  Value value, ValueRange ivs) const {
  if (llvm::is_contained(carried, acc))
    return true;
  auto it = byOp.find(acc);
  if (it == byOp.end())
    return false;
  const Buffer &buffer = buffers[it->second];
  SmallVector<Value> operands(ivs.begin(), ivs.end());
  llvm::append_range(operands, bounds.operands);
  emitAccumulate(builder, acc.getLoc(), value, buffer.memref,
                 indexMap(buffer), operands);
  return true;
}

void mlir::stencil::emitOnce(OpBuilder &builder, Location loc, bool onDevice,
                             function_ref<void(OpBuilder &)> body) {
  if (!onDevice) {
    body(builder);
    return;
  }
  MLIRContext *ctx = builder.getContext();
  auto single = affine::AffineParallelOp::create(
      builder, loc, TypeRange(), ArrayRef<arith::AtomicRMWKind>(),
      ArrayRef<int64_t>{2});
  OpBuilder::InsertionGuard guard(builder);
  builder.setInsertionPointToStart(single.getBody());
  IntegerSet first = IntegerSet::get(1, 0, {getAffineDimExpr(0, ctx)},
                                     /*eqFlags=*/{true});
  auto onFirst = affine::AffineIfOp::create(builder, loc, first,
                                            ValueRange{single.getIVs()[0]},
                                            /*withElseRegion=*/false);
  builder.setInsertionPointToStart(onFirst.getThenBlock());
  body(builder);
}

void ReductionBuffers::emitCarriedUpdate(OpBuilder &builder, AccumulateOp acc,
                                         Value sum, bool onDevice) {
  unsigned rank = acc->getParentOfType<DomainOp>().getRank();
  Location loc = acc.getLoc();
  emitOnce(builder, loc, onDevice, [&](OpBuilder &b) {
    Value c0 = arith::ConstantIndexOp::create(b, loc, 0);
    AffineMap map = getAccessMap(acc, rank, SmallVector<int64_t>(rank, 0));
    emitAccumulate(b, loc, sum, acc.getArray(), map,
                   SmallVector<Value>(rank, c0));
  });
}

SmallVector<Type> ReductionBuffers::getSumTypes() const {
  SmallVector<Type> types(domain.getResultTypes());
  for (AccumulateOp acc : carried)
    types.push_back(acc.getValue().getType());
  return types;
}

SmallVector<Value> ReductionBuffers::getSumTerms(IRMapping &mapping) const {
  SmallVector<Value> terms;
  for (Value value : domain.getYield().getValues())
    terms.push_back(mapping.lookupOrDefault(value));
  for (AccumulateOp acc : carried)
    terms.push_back(mapping.lookupOrDefault(acc.getValue()));
  return terms;
}

SmallVector<Value>
ReductionBuffers::emitCarriedUpdates(OpBuilder &builder, ArrayRef<Value> sums,
                                     bool onDevice) const {
  unsigned numResults = domain.getNumResults();
  for (auto [acc, sum] : llvm::zip_equal(carried, sums.drop_front(numResults)))
    emitCarriedUpdate(builder, acc, sum, onDevice);
  return SmallVector<Value>(sums.take_front(numResults));
}

void ReductionBuffers::emitFold(OpBuilder &builder) const {
  Location loc = domain.getLoc();
  unsigned rank = bounds.getRank();
  for (const Buffer &buffer : buffers) {
    const SmallVector<int64_t> &used = buffer.entry.used;
    Type type = buffer.acc.getValue().getType();
    // Sums this element's partial sums over the slices if the access does
    // not use the slice dimension, in index order, and adds the total into
    // the array.
    auto fold = [&](OpBuilder &b, ValueRange usedIvs) {
      Value zero = arith::ConstantOp::create(b, loc, type,
                                             b.getFloatAttr(type, 0.0));
      SmallVector<Value> indices(buffer.iterDims.size());
      SmallVector<Value> ivs(rank);
      Value c0 = arith::ConstantIndexOp::create(b, loc, 0);
      for (Value &iv : ivs)
        iv = c0;
      for (auto [d, iv] : llvm::zip_equal(used, usedIvs)) {
        ivs[d] = iv;
        unsigned pos = llvm::find(buffer.iterDims, d) - buffer.iterDims.begin();
        indices[pos] = emitRelative(b, loc, bounds, d, iv);
      }
      std::function<Value(OpBuilder &, unsigned, Value)> sum =
          [&](OpBuilder &b, unsigned pos, Value acc) -> Value {
        if (pos == buffer.iterDims.size()) {
          Value part = memref::LoadOp::create(b, loc, buffer.memref, indices);
          return arith::AddFOp::create(b, loc, acc, part);
        }
        if (indices[pos] && llvm::is_contained(used, buffer.iterDims[pos]))
          return sum(b, pos + 1, acc);
        Value c1 = arith::ConstantIndexOp::create(b, loc, 1);
        auto loop = scf::ForOp::create(b, loc, c0, buffer.extents[pos], c1,
                                       ValueRange{acc});
        OpBuilder::InsertionGuard guard(b);
        b.setInsertionPointToStart(loop.getBody());
        indices[pos] = loop.getInductionVar();
        Value next = sum(b, pos + 1, loop.getRegionIterArgs()[0]);
        indices[pos] = Value();
        scf::YieldOp::create(b, loc, next);
        return loop.getResult(0);
      };
      Value total = sum(b, 0, zero);
      AffineMap map = getAccessMap(buffer.acc, rank,
                                   SmallVector<int64_t>(rank, 0));
      emitAccumulate(b, loc, total, buffer.acc.getArray(), map, ivs);
    };
    NestBounds box;
    box.operands = bounds.operands;
    for (int64_t d : used) {
      box.lower.push_back(bounds.lower[d]);
      box.upper.push_back(bounds.upper[d]);
    }
    // Distinct points of the box update distinct elements.
    buildLoopNest(builder, loc, box, /*parallel=*/true,
                  [&](OpBuilder &b, Location, ValueRange usedIvs) {
                    fold(b, usedIvs);
                  });
    memref::DeallocOp::create(builder, loc, buffer.memref);
  }
}
