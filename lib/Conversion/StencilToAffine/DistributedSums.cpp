//===- DistributedSums.cpp - Sums of distributed domains ------------------===//
//
// The calls of the run-time library's sums (Stencil/Runtime/Distributed.h,
// "Sums"), declared here where the lowering first needs them, and the
// buffers they read.
//
//===----------------------------------------------------------------------===//

#include "DistributedSums.h"

#include "Stencil/Runtime/DistributedLayout.h"
#include "Stencil/Support/Declare.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/Affine/Utils.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

using namespace mlir;
using namespace mlir::stencil;

/// The run-time sum of `type` values: of slices' partial sums
/// `(partials, count)`, or of a box's terms `(terms, rank, dim, box)`.
static func::FuncOp declareSum(DomainOp domain, Type type, bool boxes) {
  auto module = domain->getParentOfType<ModuleOp>();
  MLIRContext *ctx = domain.getContext();
  Type ptr = LLVM::LLVMPointerType::get(ctx);
  Type i64 = IntegerType::get(ctx, 64);
  std::string name = boxes ? "stencil_dist_sum_terms_" : "stencil_dist_sum_";
  name += type.isF64() ? "f64" : "f32";
  SmallVector<Type> args = {ptr, i64};
  if (boxes)
    args.append({i64, ptr});
  return lookupOrDeclareFunction(module, name, args, {type});
}

static Value toI64(OpBuilder &builder, Location loc, Value index) {
  return arith::IndexCastOp::create(builder, loc, builder.getI64Type(), index);
}

SmallVector<Value> mlir::stencil::sumSlicesAcrossRanks(OpBuilder &builder,
                                                       DomainOp domain,
                                                       ArrayRef<Value> buffers,
                                                       TypeRange types,
                                                       Value size) {
  Location loc = domain.getLoc();
  Value count = toI64(builder, loc, size);
  SmallVector<Value> sums;
  for (auto [buffer, type] : llvm::zip_equal(buffers, types)) {
    auto call = func::CallOp::create(
        builder, loc, declareSum(domain, type, /*boxes=*/false),
        ValueRange{getRuntimePointer(builder, loc, buffer), count});
    sums.push_back(call.getResult(0));
  }
  for (Value buffer : buffers)
    memref::DeallocOp::create(builder, loc, buffer);
  return sums;
}

/// An array of the box's lower corner and extents, as i64 (allocated on the
/// heap: on the stack, one per step of a time loop would pile up).
static Value makeBox(OpBuilder &builder, Location loc, const NestBounds &bounds,
                     ArrayRef<Value> extents) {
  unsigned rank = bounds.getRank();
  auto box = memref::AllocOp::create(
      builder, loc, MemRefType::get({2 * int64_t(rank)}, builder.getI64Type()));
  auto store = [&](Value value, unsigned at) {
    Value index = arith::ConstantIndexOp::create(builder, loc, at);
    memref::StoreOp::create(builder, loc, toI64(builder, loc, value), box,
                            index);
  };
  for (unsigned k = 0; k < rank; ++k) {
    AffineMap lower =
        AffineMap::get(0, bounds.operands.size(), bounds.lowerExpr(k));
    store(affine::AffineApplyOp::create(builder, loc, lower, bounds.operands),
          k);
    store(extents[k], rank + k);
  }
  return box;
}

/// The extents of this rank's box, clipped (never negative).
static SmallVector<Value> buildBoxExtents(OpBuilder &builder, Location loc,
                                          const NestBounds &bounds) {
  SmallVector<Value> extents;
  for (unsigned k = 0, rank = bounds.getRank(); k < rank; ++k)
    extents.push_back(buildExtent(builder, loc, bounds, k));
  return extents;
}

/// A buffer of `type` over this rank's box, row-major.
static Value allocBoxBuffer(OpBuilder &builder, Location loc, Type type,
                            ArrayRef<Value> extents) {
  return memref::AllocOp::create(
      builder, loc,
      MemRefType::get(SmallVector<int64_t>(extents.size(), ShapedType::kDynamic),
                      type),
      extents);
}

/// The position of point ivs in a buffer over the box: ivs - lower.
static AffineMap boxIndexMap(const NestBounds &bounds, MLIRContext *ctx) {
  unsigned rank = bounds.getRank();
  SmallVector<AffineExpr> offsets;
  for (unsigned k = 0; k < rank; ++k)
    offsets.push_back(getAffineDimExpr(k, ctx) - bounds.lowerExpr(k));
  return AffineMap::get(rank, bounds.operands.size(), offsets, ctx);
}

/// Stores `value` to the box buffer `buffer` at point `ivs`, and at
/// `position` of its innermost dimension if it has one more.
static void storeAtPoint(OpBuilder &builder, Location loc,
                         const NestBounds &bounds, Value value, Value buffer,
                         ValueRange ivs,
                         std::optional<int64_t> position = std::nullopt) {
  MLIRContext *ctx = builder.getContext();
  AffineMap map = boxIndexMap(bounds, ctx);
  if (position)
    map = map.insertResult(getAffineConstantExpr(*position, ctx),
                           map.getNumResults());
  SmallVector<Value> operands(ivs);
  llvm::append_range(operands, bounds.operands);
  affine::AffineStoreOp::create(builder, loc, value, buffer, map, operands);
}

static Value i64Constant(OpBuilder &builder, Location loc, int64_t value) {
  return arith::ConstantIntOp::create(builder, loc, builder.getI64Type(),
                                      value);
}

SmallVector<Value> mlir::stencil::sumBoxesAcrossRanks(
    OpBuilder &builder, DomainOp domain, const NestBounds &bounds,
    bool parallel, unsigned dim, TypeRange types, PointEmitter emitPoint,
    BoxEmitter afterNest) {
  Location loc = domain.getLoc();
  unsigned rank = bounds.getRank();
  SmallVector<Value> extents = buildBoxExtents(builder, loc, bounds);
  SmallVector<Value> buffers;
  for (Type type : types)
    buffers.push_back(allocBoxBuffer(builder, loc, type, extents));
  buildLoopNest(builder, loc, bounds, parallel,
                [&](OpBuilder &b, Location loc, ValueRange ivs) {
                  for (auto [value, buffer] :
                       llvm::zip_equal(emitPoint(b, ivs), buffers))
                    storeAtPoint(b, loc, bounds, value, buffer, ivs);
                });
  Value box = makeBox(builder, loc, bounds, extents);
  afterNest(builder, box);
  Value boxPointer = getRuntimePointer(builder, loc, box);
  Value rankValue = i64Constant(builder, loc, rank);
  Value dimValue = i64Constant(builder, loc, dim);
  SmallVector<Value> sums;
  for (auto [buffer, type] : llvm::zip_equal(buffers, types)) {
    auto call = func::CallOp::create(
        builder, loc, declareSum(domain, type, /*boxes=*/true),
        ValueRange{getRuntimePointer(builder, loc, buffer), rankValue, dimValue,
                   boxPointer});
    sums.push_back(call.getResult(0));
    memref::DeallocOp::create(builder, loc, buffer);
  }
  memref::DeallocOp::create(builder, loc, box);
  return sums;
}

//===----------------------------------------------------------------------===//
// Reductions through some dimensions
//===----------------------------------------------------------------------===//

/// stencil_dist_terms_domain(rank, box, domain) and
/// stencil_dist_reduce_terms_<type>(terms, rank, dim, box, kept, partials).
static func::FuncOp declareDomainBox(DomainOp domain) {
  auto module = domain->getParentOfType<ModuleOp>();
  Type ptr = LLVM::LLVMPointerType::get(domain.getContext());
  Type i64 = IntegerType::get(domain.getContext(), 64);
  return lookupOrDeclareFunction(module, "stencil_dist_terms_domain",
                                 {i64, ptr, ptr}, {});
}

static func::FuncOp declareReduce(DomainOp domain, Type type) {
  auto module = domain->getParentOfType<ModuleOp>();
  Type ptr = LLVM::LLVMPointerType::get(domain.getContext());
  Type i64 = IntegerType::get(domain.getContext(), 64);
  std::string name = "stencil_dist_reduce_terms_";
  name += type.isF64() ? "f64" : "f32";
  return lookupOrDeclareFunction(module, name, {ptr, i64, i64, ptr, i64, ptr},
                                 {});
}

/// Whether two accumulates index their array alike.
static bool sameAccess(AccumulateOp a, AccumulateOp b) {
  auto x = cast<AccessOpInterface>(a.getOperation());
  auto y = cast<AccessOpInterface>(b.getOperation());
  return x.getIterationDims() == y.getIterationDims() &&
         x.getArrayOffset() == y.getArrayOffset();
}

LogicalResult
DistributedReductions::check(DomainOp domain, const ArrayReductionPlan &plan) {
  SmallVector<Operation *> ops = llvm::to_vector(llvm::make_pointer_range(
      domain.getBodyBlock()->without_terminator()));
  for (const ArrayReductionPlan::Entry &entry : plan.entries) {
    if (entry.carried || !entry.direct)
      continue;
    auto acc = cast<AccumulateOp>(ops[entry.op]);
    if (!llvm::is_contained(getUsedIterationDims(acc), plan.sliceDim))
      return acc.emitOpError()
             << "sums into an array in a serial nest across ranks, which is "
                "not supported yet";
    unsigned count = 0;
    for (AccumulateOp other : domain.getBodyBlock()->getOps<AccumulateOp>()) {
      if (other.getArray() != acc.getArray())
        continue;
      if (!sameAccess(acc, other))
        return acc.emitOpError()
               << "is one of several accumulates into an array that each "
                  "slice of the domain sums in place, at different elements; "
                  "across ranks this is not supported yet";
      ++count;
    }
    // Several interleave their terms in one more dimension.
    if (count > 1 && domain.getRank() + 1 > STENCIL_DIST_MAX_DIMS)
      return acc.emitOpError()
             << "is one of several accumulates in place into one element in a "
                "domain of rank "
             << domain.getRank() << "; across ranks their terms need "
             << domain.getRank() + 1 << " dimensions, more than the "
             << STENCIL_DIST_MAX_DIMS << " the run-time library supports";
  }
  return success();
}

DistributedReductions::DistributedReductions(OpBuilder &builder,
                                             DomainOp domain,
                                             const NestBounds &bounds,
                                             const ArrayReductionPlan &plan,
                                             const ReductionSink &next)
    : domain(domain), bounds(bounds), dim(plan.sliceDim), next(next) {
  SmallVector<Operation *> ops = llvm::to_vector(llvm::make_pointer_range(
      domain.getBodyBlock()->without_terminator()));
  Location loc = domain.getLoc();
  SmallVector<Value> extents;
  llvm::DenseMap<Value, unsigned> inPlace;
  for (const ArrayReductionPlan::Entry &planned : plan.entries) {
    if (planned.carried)
      continue;
    auto acc = cast<AccumulateOp>(ops[planned.op]);
    if (planned.direct) {
      auto [it, added] = inPlace.try_emplace(acc.getArray(), entries.size());
      if (!added) {
        entries[it->second].accs.push_back(acc);
        continue;
      }
    }
    Entry entry;
    entry.accs = {acc};
    entry.direct = planned.direct;
    entry.used = getUsedIterationDims(acc);
    entries.push_back(std::move(entry));
  }
  if (!entries.empty())
    extents = buildBoxExtents(builder, loc, bounds);
  for (Entry &entry : entries) {
    SmallVector<Value> shape(extents);
    if (entry.accs.size() > 1)
      shape.push_back(
          arith::ConstantIndexOp::create(builder, loc, entry.accs.size()));
    entry.terms = allocBoxBuffer(
        builder, loc, entry.accs.front().getValue().getType(), shape);
  }
}

bool DistributedReductions::emitUpdate(OpBuilder &builder, AccumulateOp acc,
                                       Value value, ValueRange ivs) const {
  for (const Entry &entry : entries) {
    auto *it = llvm::find(entry.accs, acc);
    if (it == entry.accs.end())
      continue;
    std::optional<int64_t> position;
    if (entry.accs.size() > 1)
      position = it - entry.accs.begin();
    storeAtPoint(builder, acc.getLoc(), bounds, value, entry.terms, ivs,
                 position);
    return true;
  }
  return next.emitUpdate(builder, acc, value, ivs);
}

/// For an entry of several accumulates, the box with one more dimension
/// (lower 0, one position per accumulate), freed by the caller; else
/// `box` itself.
Value DistributedReductions::emitEntryBox(OpBuilder &builder,
                                          const Entry &entry,
                                          Value box) const {
  if (entry.accs.size() == 1)
    return box;
  Location loc = domain.getLoc();
  int64_t rank = bounds.getRank();
  auto wider = memref::AllocOp::create(
      builder, loc, MemRefType::get({2 * (rank + 1)}, builder.getI64Type()));
  auto copy = [&](Value value, int64_t at) {
    memref::StoreOp::create(builder, loc, value, wider,
                            arith::ConstantIndexOp::create(builder, loc, at)
                                .getResult());
  };
  for (int64_t k = 0; k < 2 * rank; ++k)
    copy(memref::LoadOp::create(
             builder, loc, box,
             arith::ConstantIndexOp::create(builder, loc, k).getResult()),
         k < rank ? k : k + 1);
  copy(i64Constant(builder, loc, 0), rank);
  copy(i64Constant(builder, loc, entry.accs.size()), 2 * rank + 1);
  return wider;
}

/// Emits a nest of scf.for loops over [0, extents) and calls `body` with
/// its induction variables (once, with none, if `extents` is empty).
static void buildIndexNest(OpBuilder &builder, Location loc,
                           ArrayRef<Value> extents,
                           function_ref<void(OpBuilder &, ValueRange)> body,
                           SmallVector<Value> ivs = {}) {
  if (ivs.size() == extents.size()) {
    body(builder, ivs);
    return;
  }
  Value c0 = arith::ConstantIndexOp::create(builder, loc, 0);
  Value c1 = arith::ConstantIndexOp::create(builder, loc, 1);
  auto loop = scf::ForOp::create(builder, loc, c0, extents[ivs.size()], c1);
  OpBuilder::InsertionGuard guard(builder);
  builder.setInsertionPoint(loop.getBody()->getTerminator());
  ivs.push_back(loop.getInductionVar());
  buildIndexNest(builder, loc, extents, body, ivs);
}

void DistributedReductions::emitFold(OpBuilder &builder, Value box) const {
  if (entries.empty())
    return;
  Location loc = domain.getLoc();
  int64_t rank = bounds.getRank();
  Value rankValue = i64Constant(builder, loc, rank);
  // The domain's union box, as index values.
  auto global = memref::AllocOp::create(
      builder, loc, MemRefType::get({2 * rank}, builder.getI64Type()));
  func::CallOp::create(builder, loc, declareDomainBox(domain),
                       ValueRange{rankValue,
                                  getRuntimePointer(builder, loc, box),
                                  getRuntimePointer(builder, loc, global)});
  SmallVector<Value> lower, extent;
  for (int64_t k = 0; k < 2 * rank; ++k) {
    Value at = arith::ConstantIndexOp::create(builder, loc, k);
    Value value = memref::LoadOp::create(builder, loc, global, at);
    (k < rank ? lower : extent)
        .push_back(arith::IndexCastOp::create(builder, loc,
                                              builder.getIndexType(), value));
  }
  memref::DeallocOp::create(builder, loc, global);
  for (const Entry &entry : entries) {
    emitEntryFold(builder, entry, box, lower, extent);
    memref::DeallocOp::create(builder, loc, entry.terms);
  }
}

void DistributedReductions::emitEntryFold(OpBuilder &builder,
                                          const Entry &entry, Value box,
                                          ArrayRef<Value> lower,
                                          ArrayRef<Value> extent) const {
  AccumulateOp acc = entry.accs.front();
  Location loc = acc.getLoc();
  int64_t rank = bounds.getRank();
  Type type = acc.getValue().getType();
  Value array = acc.getArray();
  // The partial sums: [slice][kept dimensions, those after the slice's].
  SmallVector<int64_t> kept;
  int64_t mask = 0;
  for (int64_t k : entry.used)
    if (k > dim) {
      kept.push_back(k);
      mask |= int64_t(1) << k;
    }
  SmallVector<Value> shape = {extent[dim]}, keptShape;
  for (int64_t k : kept)
    keptShape.push_back(extent[k]);
  llvm::append_range(shape, keptShape);
  Value partials = allocBoxBuffer(builder, loc, type, shape);
  Value zero = arith::ConstantOp::create(builder, loc, type,
                                         builder.getFloatAttr(type, 0.0));
  // The element that partial sum (slice, kept...) belongs to: the used
  // dimensions before the slice's have one point.
  auto element = [&](OpBuilder &b, Value slice, ValueRange keptIndex) {
    Value c0 = arith::ConstantIndexOp::create(b, loc, 0);
    SmallVector<Value> ivs(rank, c0);
    for (int64_t k : entry.used)
      if (k < dim)
        ivs[k] = lower[k];
    ivs[dim] = arith::AddIOp::create(b, loc, lower[dim], slice);
    for (auto [k, index] : llvm::zip_equal(kept, keptIndex))
      ivs[k] = arith::AddIOp::create(b, loc, lower[k], index);
    AffineMap map = getAccessMap(acc, rank, SmallVector<int64_t>(rank, 0));
    return *affine::expandAffineMap(b, loc, map, ivs);
  };
  // Each partial sum starts from zero, or in place from its element.
  buildIndexNest(builder, loc, shape, [&](OpBuilder &b, ValueRange index) {
    Value initial = entry.direct
                        ? memref::LoadOp::create(
                              b, loc, array,
                              element(b, index[0], index.drop_front()))
                              .getResult()
                        : zero;
    memref::StoreOp::create(b, loc, initial, partials, index);
  });
  Value termsBox = emitEntryBox(builder, entry, box);
  int64_t termsRank = rank + (termsBox != box);
  func::CallOp::create(
      builder, loc, declareReduce(domain, type),
      ValueRange{getRuntimePointer(builder, loc, entry.terms),
                 i64Constant(builder, loc, termsRank),
                 i64Constant(builder, loc, dim),
                 getRuntimePointer(builder, loc, termsBox),
                 i64Constant(builder, loc, mask),
                 getRuntimePointer(builder, loc, partials)});
  if (termsBox != box)
    memref::DeallocOp::create(builder, loc, termsBox);
  bool perSlice = llvm::is_contained(entry.used, dim);
  buildIndexNest(
      builder, loc, perSlice ? ArrayRef<Value>(shape) : keptShape,
      [&](OpBuilder &b, ValueRange index) {
        Value slice = perSlice ? index[0]
                               : arith::ConstantIndexOp::create(b, loc, 0);
        ValueRange keptIndex = perSlice ? index.drop_front() : index;
        SmallVector<Value> at = element(b, slice, keptIndex);
        if (entry.direct) {
          Value sum = memref::LoadOp::create(b, loc, partials, index);
          memref::StoreOp::create(b, loc, sum, array, at);
          return;
        }
        // The element's partial sums over the slices, from zero, then
        // added into it (ReductionBuffers::emitFold).
        Value total = zero;
        if (perSlice) {
          total = arith::AddFOp::create(
              b, loc, zero, memref::LoadOp::create(b, loc, partials, index));
        } else {
          Value c0 = arith::ConstantIndexOp::create(b, loc, 0);
          Value c1 = arith::ConstantIndexOp::create(b, loc, 1);
          auto loop = scf::ForOp::create(b, loc, c0, extent[dim], c1,
                                         ValueRange{zero});
          OpBuilder::InsertionGuard guard(b);
          b.setInsertionPointToStart(loop.getBody());
          SmallVector<Value> position = {loop.getInductionVar()};
          llvm::append_range(position, keptIndex);
          Value part = memref::LoadOp::create(b, loc, partials, position);
          scf::YieldOp::create(
              b, loc,
              ValueRange{arith::AddFOp::create(
                  b, loc, loop.getRegionIterArgs()[0], part)});
          total = loop.getResult(0);
        }
        Value old = memref::LoadOp::create(b, loc, array, at);
        memref::StoreOp::create(b, loc, arith::AddFOp::create(b, loc, old, total),
                                array, at);
      });
  memref::DeallocOp::create(builder, loc, partials);
}
