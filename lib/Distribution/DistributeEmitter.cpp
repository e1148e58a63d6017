//===- DistributeEmitter.cpp - IR of a distributed function --------------===//
//
// This file builds a distributed function from its plan: the rank's block
// of each dimension (lib/Runtime/Distributed.c decides it, so that callers
// and the compiled code share one formula), run-time checks with the
// function's location, views of the blocks indexed in global coordinates,
// `shard.update_halo` before the domains that read beyond the block, and
// domain bounds clipped to what the rank computes.
//
//===----------------------------------------------------------------------===//

#include "DistributeEmitter.h"
#include "RuntimeCalls.h"
#include "Stencil/Dialect/StencilDialect.h"
#include "Stencil/Support/Declare.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/Shard/IR/ShardDialect.h"
#include "mlir/Dialect/Shard/IR/ShardOps.h"
#include "mlir/IR/Builders.h"

using namespace mlir;
using namespace mlir::stencil;

void mlir::stencil::emitGrid(ModuleOp module, ArrayRef<int64_t> grid) {
  OpBuilder b = OpBuilder::atBlockBegin(module.getBody());
  SmallVector<int64_t> shape;
  for (int64_t p : grid)
    shape.push_back(p == kRunTimeExtent ? ShapedType::kDynamic : p);
  auto op = shard::GridOp::create(b, module.getLoc(), kGridName, shape);
  op.setPrivate();
  markRuntimeSymbol(op);
}

namespace {
class FunctionEmitter {
public:
  FunctionEmitter(DistributedFunction &dist, ArrayRef<int64_t> grid,
                  int64_t halo)
      : dist(dist), grid(grid), halo(halo), b(dist.func.getContext()),
        loc(dist.func.getLoc()), rank(grid.size()) {}

  void emit() {
    initShape();
    extents = markDistributed(dist.func, grid, halo);
    b.setInsertionPointToStart(&dist.func.getBody().front());
    emitBlock();
    emitChecks();
    SmallVector<Value> origin;
    for (unsigned k = 0; k < rank; ++k)
      origin.push_back(sub(starts[k], constant(halo)));
    // Views of the arguments once, of the loop's states every iteration,
    // of its results after it.
    for (Value array : dist.arrays) {
      OpBuilder::InsertionGuard guard(b);
      if (auto state = dyn_cast<BlockArgument>(array);
          state && state.getOwner() != &dist.func.getBody().front())
        b.setInsertionPointToStart(state.getOwner());
      else if (!isa<BlockArgument>(array))
        b.setInsertionPointAfter(dist.loop);
      views.push_back(makeView(array, origin));
    }
    // In program order: the head's domains, the exchanges before the loop,
    // its body's and the tail's domains. The tail reads arguments through
    // their views from before the loop (those the body exchanges are
    // defined inside it), and exchanges them again where it needs halos.
    SmallVector<Value> beforeLoop;
    for (unsigned i = 0; i < dist.domains.size(); ++i) {
      if (dist.loop && i == dist.head) {
        b.setInsertionPoint(dist.loop);
        for (const HaloExchange &exchange : dist.plan.entry)
          emitExchange(exchange);
        beforeLoop = views;
      }
      if (dist.loop && i == dist.head + dist.body)
        for (auto [a, array] : llvm::enumerate(dist.arrays))
          if (isa<BlockArgument>(array) &&
              cast<BlockArgument>(array).getOwner() ==
                  &dist.func.getBody().front())
            views[a] = beforeLoop[a];
      b.setInsertionPoint(dist.domains[i]);
      for (const HaloExchange &exchange : dist.plan.domains[i].exchanges)
        emitExchange(exchange);
      clipDomain(i);
    }
  }

private:
  Value constant(int64_t value) {
    return arith::ConstantIndexOp::create(b, loc, value);
  }
  Value add(Value x, Value y) { return arith::AddIOp::create(b, loc, x, y); }
  Value sub(Value x, Value y) { return arith::SubIOp::create(b, loc, x, y); }
  Value toI64(Value index) {
    return arith::IndexCastOp::create(b, loc, b.getI64Type(), index);
  }
  Value i64(int64_t value) {
    return arith::ConstantIntOp::create(b, loc, b.getI64Type(), value);
  }
  /// A pointer to a NUL-terminated copy of `text` in global `name`.
  Value cString(const std::string &name, std::string text) {
    text.push_back('\0');
    Value address = LLVM::createGlobalString(loc, b, name, text,
                                             LLVM::Linkage::Internal);
    markRuntimeSymbol(
        SymbolTable::lookupNearestSymbolFrom(dist.func, b.getStringAttr(name)));
    return address;
  }
  Value call(func::FuncOp callee, ValueRange args) {
    auto op = func::CallOp::create(b, loc, callee, args);
    if (op.getNumResults() == 0)
      return {};
    return arith::IndexCastOp::create(b, loc, b.getIndexType(),
                                      op.getResult(0));
  }

  void initShape();
  Value call(dist::Call callee, ValueRange args) {
    return call(dist::declare(dist.func->getParentOfType<ModuleOp>(), callee),
                args);
  }
  /// The grid's spec, as the run-time library reads it.
  Value spec() {
    return dist::globalString(b, loc, dist::specGlobalName(kGridName),
                              dist::gridSpec(shape));
  }
  void emitBlock();
  void emitChecks();
  Value makeView(Value memref, ArrayRef<Value> origin);
  void emitExchange(const HaloExchange &exchange);
  void clipDomain(unsigned i);

  DistributedFunction &dist;
  ArrayRef<int64_t> grid;
  int64_t halo;
  OpBuilder b;
  Location loc;
  unsigned rank;
  SmallVector<int64_t> shape;
  Value where;
  SmallVector<Value> extents, starts, counts, ends;
  /// Per array, the view the next domain accesses it through.
  SmallVector<Value> views;
  unsigned numExchanges = 0;
};
} // namespace

/// The grid's shape, `?` extents dynamic.
void FunctionEmitter::initShape() {
  for (int64_t p : grid)
    shape.push_back(p == kRunTimeExtent ? ShapedType::kDynamic : p);
}

void FunctionEmitter::emitBlock() {
  where = cString(("stencil_dist_where_" + dist.func.getSymName()).str(),
                  describeForRuntime(dist.func));
  call(dist::Call::CheckGrid, {where, spec()});
  SmallVector<Type> indices(rank, b.getIndexType());
  auto coords =
      shard::ProcessMultiIndexOp::create(b, loc, indices, kGridName);
  auto parts = shard::GridShapeOp::create(b, loc, indices, kGridName);
  for (unsigned k = 0; k < rank; ++k) {
    SmallVector<Value> args = {toI64(extents[k]), toI64(parts->getResult(k)),
                               toI64(coords->getResult(k))};
    starts.push_back(call(dist::Call::BlockStart, args));
    counts.push_back(call(dist::Call::BlockCount, args));
    ends.push_back(add(starts[k], counts[k]));
  }
}

/// The arguments whose extents a distributed function checks: its arrays,
/// and the arguments its time loop's states (and so its results) start
/// from.
SmallVector<BlockArgument>
mlir::stencil::getBlockArguments(DistributedFunction &dist) {
  SmallVector<BlockArgument> args;
  for (Value array : dist.arrays) {
    if (auto result = dyn_cast<OpResult>(array))
      array = dist.loop.getInitArgs()[result.getResultNumber()];
    else if (cast<BlockArgument>(array).getOwner() !=
             &dist.func.getBody().front())
      array = dist.loop.getTiedLoopInit(cast<BlockArgument>(array))->get();
    auto arg = cast<BlockArgument>(array);
    if (!llvm::is_contained(args, arg))
      args.push_back(arg);
  }
  return args;
}

void FunctionEmitter::emitChecks() {
  for (BlockArgument array : getBlockArguments(dist)) {
    std::string name = "argument " + std::to_string(array.getArgNumber());
    if (auto named = dyn_cast<NameLoc>(array.getLoc()))
      name = "'" + named.getName().str() + "'";
    Value what = cString(("stencil_dist_arg_" + dist.func.getSymName() + "_" +
                          std::to_string(array.getArgNumber()))
                             .str(),
                         name);
    for (unsigned k = 0; k < rank; ++k) {
      Value extent = memref::DimOp::create(b, loc, array, k);
      // halo <= 2^40 (checkOptions).
      Value expected = add(counts[k], constant(2 * halo));
      call(dist::Call::CheckExtent,
           {where, what, i64(k), toI64(extent), toI64(expected)});
    }
  }
  SmallVector<int64_t> widest = dist.plan.maxExchange();
  for (unsigned k = 0; k < rank; ++k)
    if (grid[k] != 1 && widest[k] > 0)
      call(dist::Call::CheckBlock,
           {where, spec(), i64(k), toI64(counts[k]), i64(widest[k])});
}

/// A view of `memref` (a block, or part of one) whose index i in dimension
/// k is global index i - origin[k] of the block: sizes are the global
/// extents, strides the block's.
Value FunctionEmitter::makeView(Value memref, ArrayRef<Value> origin) {
  auto meta = memref::ExtractStridedMetadataOp::create(b, loc, memref);
  Value offset = meta.getOffset();
  for (unsigned k = 0; k < rank; ++k)
    offset = sub(offset, arith::MulIOp::create(b, loc, origin[k],
                                               meta.getStrides()[k]));
  SmallVector<OpFoldResult> sizes(extents.begin(), extents.end());
  SmallVector<OpFoldResult> strides;
  SmallVector<int64_t> staticStrides;
  for (unsigned k = 0; k + 1 < rank; ++k) {
    strides.push_back(meta.getStrides()[k]);
    staticStrides.push_back(ShapedType::kDynamic);
  }
  strides.push_back(b.getIndexAttr(1));
  staticStrides.push_back(1);
  auto type = cast<MemRefType>(memref.getType());
  auto viewType = MemRefType::get(
      SmallVector<int64_t>(rank, ShapedType::kDynamic), type.getElementType(),
      StridedLayoutAttr::get(b.getContext(), ShapedType::kDynamic,
                             staticStrides));
  return memref::ReinterpretCastOp::create(b, loc, viewType,
                                           meta.getBaseBuffer(), offset, sizes,
                                           strides);
}

void FunctionEmitter::emitExchange(const HaloExchange &exchange) {
  Value array = dist.arrays[exchange.array];
  SmallVector<OpFoldResult> offsets, sizes, strides;
  SmallVector<shard::GridAxesAttr> axes;
  SmallVector<int64_t> halos;
  SmallVector<Value> origin;
  for (unsigned k = 0; k < rank; ++k) {
    int64_t lo = exchange.widths.lower[k], hi = exchange.widths.upper[k];
    bool split = grid[k] != 1 && (lo > 0 || hi > 0);
    if (!split)
      lo = hi = 0;
    offsets.push_back(b.getIndexAttr(halo - lo));
    sizes.push_back(add(counts[k], constant(lo + hi)));
    strides.push_back(b.getIndexAttr(1));
    origin.push_back(sub(starts[k], constant(lo)));
    axes.push_back(b.getDenseI16ArrayAttr(
        split ? SmallVector<int16_t>{int16_t(k)} : SmallVector<int16_t>{}));
    if (split)
      llvm::append_range(halos, SmallVector<int64_t>{lo, hi});
  }
  if (halos.empty())
    return;
  auto block = memref::SubViewOp::create(b, loc, array, offsets, sizes, strides);
  auto update = shard::UpdateHaloOp::create(
      b, loc, block.getType(), block, kGridName,
      shard::GridAxesArrayAttr::get(b.getContext(), axes), ValueRange{},
      halos);
  // Exchanges are Pure: a distinct tag keeps CSE from merging the
  // exchange of an array after a write with the one before it.
  update->setAttr("exchange", b.getI64IntegerAttr(numExchanges++));
  views[exchange.array] = makeView(update.getResult(), origin);
}

void FunctionEmitter::clipDomain(unsigned i) {
  DomainOp domain = dist.domains[i];
  const HaloWidths &reach = dist.plan.domains[i].reach;
  SmallVector<Value> lower, upper;
  // Only the split dimensions: the others keep their bounds as they are
  // (the lowering reads constant extents from them).
  AffineMap lowerMap = domain.getLowerBounds(),
            upperMap = domain.getUpperBounds();
  SmallVector<Value> operands(domain.getBoundOperands());
  SmallVector<AffineExpr> lowerExprs, upperExprs;
  for (unsigned k = 0; k < rank; ++k) {
    if (grid[k] == 1) {
      lowerExprs.push_back(lowerMap.getResult(k));
      upperExprs.push_back(upperMap.getResult(k));
      continue;
    }
    Value lo = affine::AffineApplyOp::create(b, loc, lowerMap.getSubMap({k}),
                                             domain.getBoundOperands());
    Value hi = affine::AffineApplyOp::create(b, loc, upperMap.getSubMap({k}),
                                             domain.getBoundOperands());
    operands.push_back(arith::MaxSIOp::create(
        b, loc, lo, sub(starts[k], constant(reach.lower[k]))));
    lowerExprs.push_back(b.getAffineSymbolExpr(operands.size() - 1));
    operands.push_back(arith::MinSIOp::create(
        b, loc, hi, add(ends[k], constant(reach.upper[k]))));
    upperExprs.push_back(b.getAffineSymbolExpr(operands.size() - 1));
  }
  MLIRContext *ctx = b.getContext();
  domain.setLowerBoundsAttr(AffineMapAttr::get(
      AffineMap::get(0, operands.size(), lowerExprs, ctx)));
  domain.setUpperBoundsAttr(AffineMapAttr::get(
      AffineMap::get(0, operands.size(), upperExprs, ctx)));
  domain.getBoundOperandsMutable().assign(operands);
  for (Operation &op : domain.getBodyBlock()->getOperations())
    for (OpOperand &use : op.getOpOperands()) {
      auto *it = llvm::find(dist.arrays, use.get());
      if (it != dist.arrays.end())
        use.set(views[it - dist.arrays.begin()]);
    }
}

SmallVector<Value> mlir::stencil::markDistributed(func::FuncOp func,
                                                  ArrayRef<int64_t> grid,
                                                  int64_t halo) {
  MLIRContext *ctx = func.getContext();
  Builder b(ctx);
  func->setAttr(StencilDialect::DistributionAttrHelper::getNameStr(),
                b.getDictionaryAttr(
                    {b.getNamedAttr("grid", b.getDenseI64ArrayAttr(grid)),
                     b.getNamedAttr("halo", b.getI64IntegerAttr(halo))}));
  unsigned rank = grid.size();
  auto attrName = StencilDialect::ExtraArgsAttrHelper::getNameStr();
  SmallVector<Attribute> extras;
  if (auto existing = func->getAttrOfType<ArrayAttr>(attrName))
    llvm::append_range(extras, existing.getValue());
  SmallVector<Value> extents;
  for (unsigned k = 0; k < rank; ++k) {
    std::string name = dist::globalExtentName(k);
    (void)func.insertArgument(
        func.getNumArguments(), IndexType::get(ctx), {},
        NameLoc::get(StringAttr::get(ctx, name), func.getLoc()));
    extents.push_back(func.getArguments().back());
    extras.push_back(StringAttr::get(ctx, name));
  }
  func->setAttr(attrName, ArrayAttr::get(ctx, extras));
  return extents;
}

void mlir::stencil::setBlockArguments(func::FuncOp func,
                                      ArrayRef<int64_t> blocks) {
  auto name = StencilDialect::DistributionAttrHelper::getNameStr();
  auto dict = func->getAttrOfType<DictionaryAttr>(name);
  NamedAttrList entries(dict);
  Builder b(func.getContext());
  SmallVector<int64_t> sorted(blocks);
  llvm::sort(sorted);
  sorted.erase(std::unique(sorted.begin(), sorted.end()), sorted.end());
  entries.set("blocks", b.getDenseI64ArrayAttr(sorted));
  func->setAttr(name, entries.getDictionary(func.getContext()));
}

void mlir::stencil::emitDistributedFunction(DistributedFunction &dist,
                                            ArrayRef<int64_t> grid,
                                            int64_t halo) {
  FunctionEmitter(dist, grid, halo).emit();
}

LogicalResult mlir::stencil::localizeGlobalIndices(func::FuncOp func,
                                                   ArrayRef<int64_t> grid,
                                                   int64_t halo) {
  auto name = StencilDialect::GlobalIndexAttrHelper::getNameStr();
  SmallVector<Operation *> marked;
  func.walk([&](Operation *op) {
    if (op->hasAttr(name))
      marked.push_back(op);
  });
  if (marked.empty())
    return success();
  unsigned rank = grid.size();
  for (Operation *op : marked) {
    int64_t dim = op->getAttrOfType<IntegerAttr>(name).getInt();
    if (dim >= int64_t(rank))
      return op->emitOpError()
             << "marks a global index of dimension " << dim
             << ", which a grid of rank " << rank
             << " does not split; distributing it is not supported";
  }
  auto module = func->getParentOfType<ModuleOp>();
  func::FuncOp blockStart = dist::declare(module, dist::Call::BlockStart);
  func::FuncOp blockCount = dist::declare(module, dist::Call::BlockCount);
  Location loc = func.getLoc();
  OpBuilder b = OpBuilder::atBlockBegin(&func.getBody().front());
  SmallVector<Type> indices(rank, b.getIndexType());
  auto coords = shard::ProcessMultiIndexOp::create(b, loc, indices, kGridName);
  auto parts = shard::GridShapeOp::create(b, loc, indices, kGridName);
  auto toI64 = [&](Value index) -> Value {
    return arith::IndexCastOp::create(b, loc, b.getI64Type(), index);
  };
  auto callIndex = [&](func::FuncOp callee, ValueRange args) -> Value {
    Value result = func::CallOp::create(b, loc, callee, args).getResult(0);
    return arith::IndexCastOp::create(b, loc, b.getIndexType(), result);
  };
  ValueRange extents = func.getArguments().take_back(rank);
  // Index i of dimension k is local index i - start + halo; the rank owns
  // local [halo, halo + count).
  SmallVector<Value> shifts, ends;
  Value width = arith::ConstantIndexOp::create(b, loc, halo);
  for (unsigned k = 0; k < rank; ++k) {
    SmallVector<Value> args = {toI64(extents[k]), toI64(parts->getResult(k)),
                               toI64(coords->getResult(k))};
    Value start = callIndex(blockStart, args);
    Value count = callIndex(blockCount, args);
    shifts.push_back(arith::SubIOp::create(b, loc, width, start));
    ends.push_back(arith::AddIOp::create(b, loc, width, count));
  }
  for (Operation *op : marked) {
    int64_t dim = op->getAttrOfType<IntegerAttr>(name).getInt();
    op->removeAttr(name);
    b.setInsertionPointAfter(op);
    Value global = op->getResult(0);
    Value shifted = arith::AddIOp::create(b, loc, global, shifts[dim]);
    Value local = arith::MinSIOp::create(
        b, loc, arith::MaxSIOp::create(b, loc, shifted, width), ends[dim]);
    global.replaceAllUsesExcept(local, shifted.getDefiningOp());
  }
  return success();
}
