//===- TimeLoopSnapshots.cpp - Snapshots of a reversed time loop -*- C++ -*-===//
//
// This file implements TimeLoopSnapshots.h.
//
//===----------------------------------------------------------------------===//

#include "TimeLoopSnapshots.h"
#include "Differentiate.h"

#include "Stencil/Dialect/StencilOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

using namespace mlir;
using namespace mlir::stencil;
using namespace mlir::stencil::ad;

/// The bytes of an array of type `type` with the dynamic extents `sizes`,
/// rounded up to a multiple of 64 (the next array starts on a cache line).
static Value arrayBytes(OpBuilder &builder, Location loc, MemRefType type,
                        ValueRange sizes) {
  int64_t known = type.getElementTypeBitWidth() / 8;
  for (int64_t k = 0; k < type.getRank(); ++k)
    if (!type.isDynamicDim(k))
      known *= type.getDimSize(k);
  Value bytes = arith::ConstantIndexOp::create(builder, loc, known);
  for (Value size : sizes)
    bytes = arith::MulIOp::create(builder, loc, bytes, size);
  Value line = arith::ConstantIndexOp::create(builder, loc, 64);
  Value up = arith::CeilDivUIOp::create(builder, loc, bytes, line);
  return arith::MulIOp::create(builder, loc, up, line);
}

SnapshotLayout::SnapshotLayout(OpBuilder &builder, Location loc,
                               ArrayRef<MemRefType> types,
                               ArrayRef<SmallVector<Value>> sizes,
                               ArrayRef<bool> read, Value storeAll)
    : types(types), sizes(sizes), read(read), storeAll(storeAll) {
  // The offsets of the whole state, and of the arrays store-all keeps.
  Value zero = arith::ConstantIndexOp::create(builder, loc, 0);
  Value whole = zero, kept = zero;
  SmallVector<Value> wholeOffsets, keptOffsets;
  for (auto [type, extents, isRead] : llvm::zip_equal(types, sizes, read)) {
    Value bytes = arrayBytes(builder, loc, type, extents);
    wholeOffsets.push_back(whole);
    keptOffsets.push_back(kept);
    whole = arith::AddIOp::create(builder, loc, whole, bytes);
    if (isRead)
      kept = arith::AddIOp::create(builder, loc, kept, bytes);
  }
  if (!llvm::is_contained(read, false)) {
    offsets = wholeOffsets;
    stride = whole;
    return;
  }
  auto select = [&](Value ifStoreAll, Value otherwise) -> Value {
    return arith::SelectOp::create(builder, loc, storeAll, ifStoreAll,
                                   otherwise);
  };
  for (auto [wholeOffset, keptOffset] :
       llvm::zip_equal(wholeOffsets, keptOffsets))
    offsets.push_back(select(keptOffset, wholeOffset));
  stride = select(kept, whole);
}

bool SnapshotLayout::leftOutOfStoreAll(unsigned array) const {
  return !read[array];
}

Value SnapshotLayout::view(OpBuilder &builder, Location loc, Value slot,
                           unsigned array) const {
  Value start = arith::AddIOp::create(
      builder, loc, arith::MulIOp::create(builder, loc, slot, stride),
      offsets[array]);
  MemRefType type = types[array];
  auto viewType = MemRefType::get(type.getShape(), type.getElementType());
  return memref::ViewOp::create(builder, loc, viewType, workspace, start,
                                sizes[array]);
}

bool SnapshotLayout::snapshotsCanStandIn() const {
  return llvm::all_of(types, [](MemRefType type) {
    return type.getLayout().isIdentity();
  });
}

void SnapshotLayout::emitCopies(OpBuilder &builder, Location loc, Value slot,
                                ValueRange arrays, bool restore) const {
  for (auto [index, array] : llvm::enumerate(arrays)) {
    OpBuilder::InsertionGuard guard(builder);
    if (leftOutOfStoreAll(index)) {
      // Only where the schedule is not store-all.
      Value one = arith::ConstantIntOp::create(builder, loc, 1, 1);
      Value other = arith::XOrIOp::create(builder, loc, storeAll, one);
      auto ifOther = scf::IfOp::create(builder, loc, other);
      builder.setInsertionPoint(ifOther.thenBlock()->getTerminator());
    }
    MemRefType type = types[index];
    Value snapshot = view(builder, loc, slot, index);
    Value from = restore ? snapshot : array, to = restore ? array : snapshot;
    DomainOp copy = createFullDomain(builder, loc, type, sizes[index]);
    builder.setInsertionPoint(copy.getYield());
    SmallVector<int64_t> zero(type.getRank(), 0);
    Value value = GatherOp::create(builder, loc, type.getElementType(), from,
                                   zero, nullptr);
    StoreOp::create(builder, loc, value, to, nullptr);
  }
}

SmallVector<Value> SnapshotLayout::reversedFrom(OpBuilder &builder,
                                                Location loc, Value slot,
                                                ValueRange working) const {
  SmallVector<Value> state;
  for (auto [index, array] : llvm::enumerate(working))
    state.push_back(read[index] ? view(builder, loc, slot, index) : array);
  return state;
}
