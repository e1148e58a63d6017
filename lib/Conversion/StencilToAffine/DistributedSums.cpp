//===- DistributedSums.cpp - Sums of distributed domains ------------------===//
//
// The calls of the run-time library's sums (Stencil/Runtime/Distributed.h,
// "Sums"), declared here where the lowering first needs them, and the
// buffers they read.
//
//===----------------------------------------------------------------------===//

#include "DistributedSums.h"

#include "Stencil/Support/Declare.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"

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

SmallVector<Value>
mlir::stencil::sumBoxesAcrossRanks(OpBuilder &builder, DomainOp domain,
                                   const NestBounds &bounds, bool parallel,
                                   unsigned dim, TypeRange types,
                                   PointEmitter emitPoint) {
  Location loc = domain.getLoc();
  MLIRContext *ctx = builder.getContext();
  unsigned rank = bounds.getRank();
  // The box's extents, clipped to this rank (never negative).
  SmallVector<Value> extents;
  for (unsigned k = 0; k < rank; ++k)
    extents.push_back(buildExtent(builder, loc, bounds, k));
  SmallVector<Value> buffers;
  for (Type type : types)
    buffers.push_back(memref::AllocOp::create(
        builder, loc,
        MemRefType::get(SmallVector<int64_t>(rank, ShapedType::kDynamic), type),
        extents));
  // The term of point ivs goes to buffer[ivs - lower], row-major.
  SmallVector<AffineExpr> offsets;
  for (unsigned k = 0; k < rank; ++k)
    offsets.push_back(getAffineDimExpr(k, ctx) - bounds.lowerExpr(k));
  AffineMap index = AffineMap::get(rank, bounds.operands.size(), offsets, ctx);
  buildLoopNest(
      builder, loc, bounds, parallel,
      [&](OpBuilder &b, Location loc, ValueRange ivs) {
        SmallVector<Value> operands(ivs);
        llvm::append_range(operands, bounds.operands);
        for (auto [value, buffer] : llvm::zip_equal(emitPoint(b, ivs), buffers))
          affine::AffineStoreOp::create(b, loc, value, buffer, index, operands);
      });
  Value box = makeBox(builder, loc, bounds, extents);
  Value boxPointer = getRuntimePointer(builder, loc, box);
  Value rankValue =
      arith::ConstantIntOp::create(builder, loc, builder.getI64Type(), rank);
  Value dimValue =
      arith::ConstantIntOp::create(builder, loc, builder.getI64Type(), dim);
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
