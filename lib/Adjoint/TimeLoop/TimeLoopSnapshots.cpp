//===- TimeLoopSnapshots.cpp - Snapshots of a reversed time loop -*- C++ -*-===//
//
// This file implements TimeLoopSnapshots.h.
//
//===----------------------------------------------------------------------===//

#include "TimeLoopSnapshots.h"
#include "../Differentiate.h"

#include "Stencil/Dialect/StencilOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

using namespace mlir;
using namespace mlir::stencil;
using namespace mlir::stencil::ad;

/// Rounds `bytes` up to a multiple of 64 (the next array starts on a cache
/// line).
static Value roundToLine(OpBuilder &builder, Location loc, Value bytes) {
  Value line = arith::ConstantIndexOp::create(builder, loc, 64);
  Value up = arith::CeilDivUIOp::create(builder, loc, bytes, line);
  return arith::MulIOp::create(builder, loc, up, line);
}

/// The bytes of an array of type `type` with the dynamic extents `sizes`,
/// rounded up to a line.
static Value arrayBytes(OpBuilder &builder, Location loc, MemRefType type,
                        ValueRange sizes) {
  int64_t known = type.getElementTypeBitWidth() / 8;
  for (int64_t k = 0; k < type.getRank(); ++k)
    if (!type.isDynamicDim(k))
      known *= type.getDimSize(k);
  Value bytes = arith::ConstantIndexOp::create(builder, loc, known);
  for (Value size : sizes)
    bytes = arith::MulIOp::create(builder, loc, bytes, size);
  return roundToLine(builder, loc, bytes);
}

/// Every extent of an array of type `type` with the dynamic extents `sizes`.
static SmallVector<Value> allExtents(OpBuilder &builder, Location loc,
                                     MemRefType type, ValueRange sizes) {
  SmallVector<Value> extents;
  unsigned next = 0;
  for (int64_t k = 0; k < type.getRank(); ++k)
    extents.push_back(type.isDynamicDim(k)
                          ? sizes[next++]
                          : arith::ConstantIndexOp::create(
                                builder, loc, type.getDimSize(k)));
  return extents;
}

/// The border of an array with extents `extents` around `box` (clamped to
/// the array): for each dimension d, the parts below and above the box in
/// d, within it in the dimensions before d, whole in those after. The
/// parts are disjoint and cover every element outside the box; all of
/// them, where the box is empty.
static BorderParts planBorder(OpBuilder &builder, Location loc,
                              ArrayRef<Value> extents, const SnapshotBox &box) {
  auto add = [&](Value a, Value b) -> Value {
    return arith::AddIOp::create(builder, loc, a, b);
  };
  auto sub = [&](Value a, Value b) -> Value {
    return arith::SubIOp::create(builder, loc, a, b);
  };
  auto clamp = [&](Value v, Value low, Value high) -> Value {
    return arith::MinSIOp::create(
        builder, loc, arith::MaxSIOp::create(builder, loc, v, low), high);
  };
  Value zero = arith::ConstantIndexOp::create(builder, loc, 0);
  SmallVector<Value> lower, upper;
  for (auto [k, extent] : llvm::enumerate(extents)) {
    lower.push_back(clamp(box.lower[k], zero, extent));
    upper.push_back(clamp(box.upper[k], lower.back(), extent));
  }
  BorderParts parts;
  Value count = zero;
  for (size_t d = 0; d < extents.size(); ++d) {
    for (bool above : {false, true}) {
      SmallVector<Value> offsets, sizes;
      for (size_t k = 0; k < extents.size(); ++k) {
        if (k < d) {
          offsets.push_back(lower[k]);
          sizes.push_back(sub(upper[k], lower[k]));
        } else if (k == d) {
          offsets.push_back(above ? upper[k] : zero);
          sizes.push_back(above ? sub(extents[k], upper[k]) : lower[k]);
        } else {
          offsets.push_back(zero);
          sizes.push_back(extents[k]);
        }
      }
      Value volume = arith::ConstantIndexOp::create(builder, loc, 1);
      for (Value size : sizes)
        volume = arith::MulIOp::create(builder, loc, volume, size);
      parts.offsets.push_back(offsets);
      parts.sizes.push_back(sizes);
      parts.starts.push_back(count);
      count = add(count, volume);
    }
  }
  parts.elements = count;
  return parts;
}

Value SnapshotLayout::slotPartBytes(OpBuilder &builder, Location loc,
                                    unsigned array, Value bytes) {
  MemRefType type = types[array];
  if (!borders[array])
    return bytes;
  Value element = arith::ConstantIndexOp::create(
      builder, loc, type.getElementTypeBitWidth() / 8);
  Value border = roundToLine(
      builder, loc,
      arith::MulIOp::create(builder, loc, borders[array]->elements, element));
  return arith::SelectOp::create(builder, loc, bordersFlag, border, bytes);
}

SnapshotLayout::SnapshotLayout(OpBuilder &builder, Location loc,
                               ArrayRef<MemRefType> types,
                               ArrayRef<SmallVector<Value>> sizes,
                               ArrayRef<StateArrayPlan> state,
                               ArrayRef<std::optional<SnapshotBox>> boxes,
                               Value storeAll)
    : types(types), sizes(sizes), storeAll(storeAll) {
  for (const StateArrayPlan &array : state)
    read.push_back(array.read);
  for (auto [k, box] : llvm::enumerate(boxes)) {
    // A slot holds an array the step's adjoint reads whole: it stands in
    // for the array there (the plan's border()).
    if (!state[k].border()) {
      borders.push_back(std::nullopt);
      continue;
    }
    if (!bordersFlag) {
      auto flag = arith::ConstantOp::create(builder, loc,
                                            builder.getBoolAttr(true));
      StencilDialect::SnapshotBordersAttrHelper(builder.getContext())
          .setAttr(flag, builder.getUnitAttr());
      bordersFlag = flag;
    }
    borders.push_back(planBorder(
        builder, loc, allExtents(builder, loc, types[k], sizes[k]), *box));
  }
  // The offsets of the whole state, and of the arrays store-all keeps.
  Value zero = arith::ConstantIndexOp::create(builder, loc, 0);
  Value whole = zero, kept = zero;
  SmallVector<Value> wholeOffsets, keptOffsets;
  for (unsigned k = 0; k < types.size(); ++k) {
    wholeOffsets.push_back(whole);
    keptOffsets.push_back(kept);
    Value bytes = arrayBytes(builder, loc, types[k], sizes[k]);
    whole = arith::AddIOp::create(builder, loc, whole,
                                  slotPartBytes(builder, loc, k, bytes));
    if (read[k])
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

Value SnapshotLayout::partStart(OpBuilder &builder, Location loc, Value slot,
                                unsigned array) const {
  return arith::AddIOp::create(
      builder, loc, arith::MulIOp::create(builder, loc, slot, stride),
      offsets[array]);
}

Value SnapshotLayout::view(OpBuilder &builder, Location loc, Value slot,
                           unsigned array) const {
  Value start = partStart(builder, loc, slot, array);
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

/// Copies `from` to `to` (arrays of one shape; `sizes`, the dynamic
/// extents of `type`) point by point, in a domain over the whole shape.
static void emitDomainCopy(OpBuilder &builder, Location loc, MemRefType type,
                           ValueRange sizes, Value from, Value to) {
  OpBuilder::InsertionGuard guard(builder);
  DomainOp copy = createFullDomain(builder, loc, type, sizes);
  builder.setInsertionPoint(copy.getYield());
  SmallVector<int64_t> zero(type.getRank(), 0);
  Value value = GatherOp::create(builder, loc, type.getElementType(), from,
                                 zero, nullptr);
  StoreOp::create(builder, loc, value, to, nullptr);
}

void SnapshotLayout::emitWholeCopy(OpBuilder &builder, Location loc,
                                   Value slot, unsigned array, Value working,
                                   bool restore) const {
  Value snapshot = view(builder, loc, slot, array);
  emitDomainCopy(builder, loc, types[array], sizes[array],
                 restore ? snapshot : working, restore ? working : snapshot);
}

void SnapshotLayout::emitBorderCopy(OpBuilder &builder, Location loc,
                                    Value slot, unsigned array, Value working,
                                    bool restore) const {
  const BorderParts &parts = *borders[array];
  MemRefType type = types[array];
  Value element = arith::ConstantIndexOp::create(
      builder, loc, type.getElementTypeBitWidth() / 8);
  Value base = partStart(builder, loc, slot, array);
  SmallVector<int64_t> dynamic(type.getRank(), ShapedType::kDynamic);
  auto packedType = MemRefType::get(dynamic, type.getElementType());
  SmallVector<OpFoldResult> ones(type.getRank(), builder.getIndexAttr(1));
  for (auto [partOffsets, partSizes, start] :
       llvm::zip_equal(parts.offsets, parts.sizes, parts.starts)) {
    Value bytes = arith::AddIOp::create(
        builder, loc, base,
        arith::MulIOp::create(builder, loc, start, element));
    Value packed = memref::ViewOp::create(builder, loc, packedType, workspace,
                                          bytes, partSizes);
    SmallVector<OpFoldResult> at(partOffsets.begin(), partOffsets.end());
    SmallVector<OpFoldResult> extent(partSizes.begin(), partSizes.end());
    Value window =
        memref::SubViewOp::create(builder, loc, working, at, extent, ones);
    emitDomainCopy(builder, loc, packedType, partSizes,
                   restore ? packed : window, restore ? window : packed);
  }
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
    if (!borders[index]) {
      emitWholeCopy(builder, loc, slot, index, array, restore);
      continue;
    }
    auto ifBorders = scf::IfOp::create(builder, loc, bordersFlag,
                                       /*withElseRegion=*/true);
    builder.setInsertionPoint(ifBorders.thenBlock()->getTerminator());
    emitBorderCopy(builder, loc, slot, index, array, restore);
    builder.setInsertionPoint(ifBorders.elseBlock()->getTerminator());
    emitWholeCopy(builder, loc, slot, index, array, restore);
  }
}

SmallVector<Value> SnapshotLayout::reversedFrom(OpBuilder &builder,
                                                Location loc, Value slot,
                                                ValueRange working) const {
  // Arrays kept as borders are not read: they are never passed as views.
  SmallVector<Value> state;
  for (auto [index, array] : llvm::enumerate(working))
    state.push_back(read[index] ? view(builder, loc, slot, index) : array);
  return state;
}
