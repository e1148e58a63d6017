//===- NarrowIndices.cpp - 32-bit index arithmetic in GPU nests -*- C++ -*-===//
//
// This file implements --stencil-narrow-gpu-indices. Each GPU-mapped nest
// whose arrays are only loaded, stored or updated atomically is cloned
// into a version that addresses every array through a flat view with a
// 32-bit linear index (offset + sum of index * stride, `nsw`), and the
// host picks that version when every array's extent fits in 31 bits and
// arrays of one rank have one layout with a contiguous innermost dimension
// (they then share the linear index), the original 64-bit one otherwise. A GPU does 64-bit integer multiplies in
// several instructions; the kernels of small-element sweeps (f32) were
// bound by their index arithmetic.
//
//===----------------------------------------------------------------------===//

#include "NarrowArithmetic.h"
#include "Nests.h"
#include "Stencil/GPU/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/IR/BuiltinOps.h"
#include "llvm/ADT/SetVector.h"
#include "llvm/Support/JSON.h"

namespace mlir::stencil {
#define GEN_PASS_DEF_STENCILNARROWGPUINDICESPASS
#include "Stencil/GPU/Passes.h.inc"
} // namespace mlir::stencil

using namespace mlir;
using namespace mlir::stencil;

namespace {
/// What the pass does with one nest: the arrays (memrefs defined outside
/// it) whose accesses become 32-bit, or why the nest stays as it is.
struct NarrowPlan {
  SmallVector<Value> arrays;
  std::string reason;
};

/// The flat view of one array and its 32-bit layout, on the host.
struct FlatArray {
  Value view;
  /// In i32, for the kernel.
  Value offset;
  SmallVector<Value> strides;
  /// In index: offset, then strides (those of the first array of the rank).
  SmallVector<Value> layout;
};
} // namespace

/// The array `op` loads, stores or updates, if it is one of those.
static Value getAccessedArray(Operation *op) {
  if (auto load = dyn_cast<memref::LoadOp>(op))
    return load.getMemRef();
  if (auto store = dyn_cast<memref::StoreOp>(op))
    return store.getMemRef();
  if (auto rmw = dyn_cast<memref::AtomicRMWOp>(op))
    return rmw.getMemref();
  return Value();
}

static NarrowPlan planNest(scf::ParallelOp root) {
  NarrowPlan plan;
  llvm::SetVector<Value> arrays;
  root.walk([&](Operation *op) {
    for (Value v : op->getOperands()) {
      auto type = dyn_cast<MemRefType>(v.getType());
      if (!type || root.getRegion().isAncestor(v.getParentRegion()))
        continue;
      if (getAccessedArray(op) != v) {
        plan.reason = "'" + op->getName().getStringRef().str() +
                      "' takes an array";
        continue;
      }
      if (type.getRank() > 0 && type.isStrided())
        arrays.insert(v);
      else if (type.getRank() > 0)
        plan.reason = "an array has no strided layout";
    }
  });
  if (plan.reason.empty())
    plan.arrays = arrays.takeVector();
  return plan;
}

static void printPlan(raw_ostream &os, const NarrowPlan &plan) {
  llvm::json::Object object{{"narrow", plan.reason.empty()},
                            {"arrays", int64_t(plan.arrays.size())}};
  if (!plan.reason.empty())
    object["reason"] = plan.reason;
  os << llvm::json::Value(std::move(object));
}

/// Ands `lhs pred rhs` into the host condition `fits`.
static void andCompare(OpBuilder &b, Location loc, Value &fits,
                       arith::CmpIPredicate pred, Value lhs, Value rhs) {
  Value c = arith::CmpIOp::create(b, loc, pred, lhs, rhs);
  fits = arith::AndIOp::create(b, loc, fits, c);
}

/// Builds, before the nest, the flat view of `array` and its 32-bit offset
/// and strides, and ands into `fits` the run-time condition under which
/// every in-bounds linear index and every partial sum of it fits in 31
/// bits: offset, sizes and strides below 2^31 and
/// offset + sum((size - 1) * stride) below 2^31. If `shared` (an array of
/// the same rank built before) is given, its offset and strides are
/// reused, on the condition that `array`'s are equal: arrays of one shape
/// then share one linear index in the kernel. The first array of a rank
/// must also have a unit innermost stride, which the kernel then knows.
static FlatArray buildFlatArray(OpBuilder &b, Location loc, Value array,
                                const FlatArray *shared, Value &fits) {
  auto type = cast<MemRefType>(array.getType());
  auto meta = memref::ExtractStridedMetadataOp::create(b, loc, array);
  Type i32 = b.getI32Type();
  Value one = arith::ConstantIndexOp::create(b, loc, 1);
  Value limit = arith::ConstantIndexOp::create(b, loc, int64_t(1) << 31);
  using Pred = arith::CmpIPredicate;
  FlatArray flat;
  SmallVector<Value> layout = {meta.getOffset()};
  llvm::append_range(layout, meta.getStrides());
  Value extent = meta.getOffset();
  andCompare(b, loc, fits, Pred::ult, extent, limit);
  for (auto [size, stride] : llvm::zip(meta.getSizes(), meta.getStrides())) {
    andCompare(b, loc, fits, Pred::ult, size, limit);
    andCompare(b, loc, fits, Pred::ult, stride, limit);
    Value last = arith::SubIOp::create(b, loc, size, one);
    Value span = arith::MulIOp::create(b, loc, last, stride);
    extent = arith::AddIOp::create(b, loc, extent, span);
  }
  andCompare(b, loc, fits, Pred::slt, extent, limit);
  if (shared) {
    flat.offset = shared->offset;
    flat.strides = shared->strides;
    flat.layout = shared->layout;
    for (auto [mine, theirs] : llvm::zip(layout, shared->layout))
      andCompare(b, loc, fits, Pred::eq, mine, theirs);
  } else {
    // The innermost dimension is required contiguous (a stride of 1), so
    // that the kernel's neighbours along it are constant address offsets.
    andCompare(b, loc, fits, Pred::eq, layout.back(), one);
    layout.back() = one;
    flat.layout = layout;
    flat.offset = arith::IndexCastOp::create(b, loc, i32, layout.front());
    for (Value stride : ArrayRef(layout).drop_front().drop_back())
      flat.strides.push_back(arith::IndexCastOp::create(b, loc, i32, stride));
    flat.strides.push_back(arith::ConstantIntOp::create(b, loc, i32, 1));
  }
  Value zero = arith::ConstantIndexOp::create(b, loc, 0);
  Value length = arith::MaxSIOp::create(
      b, loc, arith::AddIOp::create(b, loc, extent, one), zero);
  auto flatType =
      MemRefType::get({ShapedType::kDynamic}, type.getElementType(),
                      MemRefLayoutAttrInterface(), type.getMemorySpace());
  flat.view = memref::ReinterpretCastOp::create(
      b, loc, flatType, meta.getBaseBuffer(), OpFoldResult(b.getIndexAttr(0)),
      {OpFoldResult(length)}, {OpFoldResult(b.getIndexAttr(1))});
  return flat;
}

/// Points `access` at the flat view, with the 32-bit linear index.
static void narrowAccess(Operation *access, const FlatArray &flat,
                         const IndexArithmetic32 &arithmetic) {
  OpBuilder b(access);
  Location loc = access->getLoc();
  auto nsw = arith::IntegerOverflowFlagsAttr::get(
      b.getContext(), arith::IntegerOverflowFlags::nsw);
  Type i32 = b.getI32Type();
  auto narrow = [&](auto op) {
    Value linear = flat.offset;
    for (auto [index, stride] : llvm::zip(op.getIndices(), flat.strides)) {
      Value term = arithmetic.lookup(index);
      if (!term)
        term = arith::IndexCastOp::create(b, loc, i32, index);
      // A unit stride is known in the kernel (no argument, no multiply).
      if (getConstantIntValue(stride) != 1)
        term = arith::MulIOp::create(b, loc, i32, term, stride, nsw);
      linear = arith::AddIOp::create(b, loc, i32, linear, term, nsw);
    }
    Value index = arith::IndexCastOp::create(b, loc, b.getIndexType(), linear);
    op.getMemrefMutable().assign(flat.view);
    op.getIndicesMutable().assign(index);
  };
  if (auto load = dyn_cast<memref::LoadOp>(access))
    narrow(load);
  else if (auto store = dyn_cast<memref::StoreOp>(access))
    narrow(store);
  else
    narrow(cast<memref::AtomicRMWOp>(access));
}

/// Ands into `fits` that every index value from outside the nest lies in
/// (-2^28, 2^28), the bound IndexArithmetic32 assumes.
static void andOutsideBounded(OpBuilder &b, Location loc, Value &fits,
                              scf::ParallelOp root) {
  int64_t bound = IndexArithmetic32::kOutsideBound;
  Value shift = arith::ConstantIndexOp::create(b, loc, bound);
  Value width = arith::ConstantIndexOp::create(b, loc, 2 * bound);
  for (Value v : IndexArithmetic32::getOutsideValues(root)) {
    Value shifted = arith::AddIOp::create(b, loc, v, shift);
    andCompare(b, loc, fits, arith::CmpIPredicate::ult, shifted, width);
  }
}

/// `if (fits) { narrowed clone } else { root }`.
static void narrowNest(scf::ParallelOp root, const NarrowPlan &plan,
                       bool loopIndices) {
  OpBuilder b(root);
  Location loc = root.getLoc();
  Value fits = arith::ConstantIntOp::create(b, loc, 1, 1);
  DenseMap<Value, FlatArray> flat;
  DenseMap<int64_t, Value> firstOfRank;
  for (Value array : plan.arrays) {
    int64_t rank = cast<MemRefType>(array.getType()).getRank();
    auto [it, first] = firstOfRank.try_emplace(rank, array);
    const FlatArray *shared = first ? nullptr : &flat[it->second];
    FlatArray built = buildFlatArray(b, loc, array, shared, fits);
    flat[array] = std::move(built);
  }
  if (loopIndices)
    andOutsideBounded(b, loc, fits, root);
  auto branch = scf::IfOp::create(b, loc, fits, /*withElseRegion=*/true);
  b.setInsertionPoint(branch.thenBlock()->getTerminator());
  auto narrowed = cast<scf::ParallelOp>(b.clone(*root));
  root->moveBefore(branch.elseBlock()->getTerminator());
  IndexArithmetic32 arithmetic;
  if (loopIndices)
    arithmetic.run(narrowed);
  SmallVector<Operation *> accesses;
  narrowed->walk([&](Operation *op) {
    if (Value array = getAccessedArray(op); array && flat.count(array))
      accesses.push_back(op);
  });
  for (Operation *access : accesses)
    narrowAccess(access, flat[getAccessedArray(access)], arithmetic);
}

namespace {
struct StencilNarrowGPUIndicesPass
    : public mlir::stencil::impl::StencilNarrowGPUIndicesPassBase<
          StencilNarrowGPUIndicesPass> {
  using Base::Base;

  void runOnOperation() override {
    for (scf::ParallelOp root : getOutermostParallelNests(getOperation())) {
      NarrowPlan plan = planNest(root);
      if (report) {
        std::string json;
        llvm::raw_string_ostream os(json);
        printPlan(os, plan);
        root.emitRemark() << "32-bit index plan: " << json;
      }
      if (plan.reason.empty() && !plan.arrays.empty())
        narrowNest(root, plan, loopIndices);
    }
  }
};
} // namespace
