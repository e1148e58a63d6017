//===- LowerHaloExchange.cpp - shard ops to the distributed run-time ------===//
//
// This file implements --stencil-lower-halo-exchange: `shard.update_halo`
// on memrefs, `shard.process_multi_index` and `shard.grid_shape` become
// packing loops and calls to the distributed run-time library
// (Stencil/Runtime/Distributed.h). It stands in for upstream
// --convert-shard-to-mpi, which in MLIR 22 reads dynamic extents with
// `memref.dim` at index `kDynamic`, needs a grid of static shape, runs on
// MPI_COMM_WORLD only and chains blocking sends across an axis
// (docs/Distributed.md). The run-time library resolves the grid on the
// caller's communicator at run time, so one compiled function serves every
// rank count; each side of each split dimension packs its slab into a 1-D
// buffer and exchanges it with one MPI_Sendrecv.
//
//===----------------------------------------------------------------------===//

#include "RuntimeCalls.h"
#include "Stencil/Dialect/StencilDialect.h"
#include "Stencil/Distribution/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/SCF/Utils/Utils.h"
#include "mlir/Dialect/Shard/IR/ShardDialect.h"
#include "mlir/Dialect/Shard/IR/ShardOps.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

#include <functional>

namespace mlir::stencil {
#define GEN_PASS_DEF_STENCILLOWERHALOEXCHANGEPASS
#include "Stencil/Distribution/Passes.h.inc"
} // namespace mlir::stencil

using namespace mlir;
using namespace mlir::stencil;

namespace {
/// Builds the run-time calls of one op on grid `grid`.
class GridBuilder {
public:
  GridBuilder(Operation *op, shard::GridOp grid)
      : b(op), loc(op->getLoc()), shape(grid.getShape()),
        module(op->getParentOfType<ModuleOp>()),
        specName(dist::specGlobalName(grid.getSymName())) {
    spec = dist::globalString(b, loc, specName, dist::gridSpec(shape));
  }

  Value constant(int64_t value) {
    return arith::ConstantIndexOp::create(b, loc, value);
  }
  Value i64(int64_t value) {
    return arith::ConstantIntOp::create(b, loc, b.getI64Type(), value);
  }
  Value toI64(Value index) {
    return arith::IndexCastOp::create(b, loc, b.getI64Type(), index);
  }
  /// A call of the run-time library; its i64 result as an index.
  Value call(dist::Call callee, ValueRange args) {
    auto op = func::CallOp::create(b, loc, dist::declare(module, callee), args);
    if (op.getNumResults() == 0)
      return {};
    return arith::IndexCastOp::create(b, loc, b.getIndexType(),
                                      op.getResult(0));
  }
  /// Processes along `axis`: a constant where the grid fixes it.
  Value extent(unsigned axis) {
    if (!ShapedType::isDynamic(shape[axis]))
      return constant(shape[axis]);
    return call(dist::Call::GridExtent, {spec, i64(axis)});
  }
  Value coordinate(unsigned axis) {
    if (shape[axis] == 1)
      return constant(0);
    return call(dist::Call::GridCoord, {spec, i64(axis)});
  }

  /// Per dimension of an exchanged memref: the grid axis that splits it
  /// (-1: none) and the halo widths below and above the block.
  struct Split {
    int64_t axis = -1, lo = 0, hi = 0;
  };
  void exchange(Value array, ArrayRef<Split> splits, bool overlap);

private:
  /// The part of each dimension a slab covers: [start, start + extent).
  struct Range {
    Value start, extent;
  };
  SmallVector<Range> slabRanges(Value array, ArrayRef<Split> splits);
  /// What remains of a started exchange: waits and unpacking.
  using Finishes = SmallVector<std::function<void()>, 2>;
  void exchangeDimension(Value array, unsigned dim, ArrayRef<Split> splits,
                         ArrayRef<Range> ranges, Finishes *finishes);
  void startDimension(Value array, unsigned dim, ArrayRef<Split> splits,
                      ArrayRef<Range> ranges);
  Value pointer(Value buffer);
  void exchangeSide(Value array, unsigned dim, ArrayRef<Range> ranges,
                    Value sendStart, Value recvStart, int64_t width,
                    Value dest, Value source, int32_t tag,
                    Finishes *finishes);
  void copySlab(Value array, unsigned dim, ArrayRef<Range> ranges,
                Value start, int64_t width, Value buffer, bool pack);
  void ifNeighbor(Value rank, function_ref<void()> body);

  OpBuilder b;
  Location loc;
  ArrayRef<int64_t> shape;
  ModuleOp module;
  std::string specName;
  Value spec;
};
} // namespace

/// The part of each dimension of `array` a slab covers besides its own:
/// all of it, less the halos of a dimension whose axis has one process at
/// run time (nothing fills them, and nothing reads them).
SmallVector<GridBuilder::Range>
GridBuilder::slabRanges(Value array, ArrayRef<Split> splits) {
  SmallVector<Range> ranges;
  for (auto [k, split] : llvm::enumerate(splits)) {
    Value extent = memref::DimOp::create(b, loc, array, k);
    if (split.axis < 0 || !ShapedType::isDynamic(shape[split.axis])) {
      ranges.push_back({constant(0), extent});
      continue;
    }
    Value whole = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq,
                                        this->extent(split.axis), constant(1));
    Value start = arith::SelectOp::create(b, loc, whole, constant(split.lo),
                                          constant(0));
    Value trim = arith::SelectOp::create(
        b, loc, whole, constant(split.lo + split.hi), constant(0));
    ranges.push_back({start, arith::SubIOp::create(b, loc, extent, trim)});
  }
  return ranges;
}

/// Copies the slab [start, start + width) of dimension `dim` of `array`
/// (`ranges` of the other dimensions) into `buffer` (pack) or back.
void GridBuilder::copySlab(Value array, unsigned dim, ArrayRef<Range> ranges,
                           Value start, int64_t width, Value buffer,
                           bool pack) {
  auto type = cast<MemRefType>(array.getType());
  SmallVector<Value> lbs, ubs, steps, extents;
  for (unsigned k = 0; k < type.getRank(); ++k) {
    Value extent = k == dim ? constant(width) : ranges[k].extent;
    Value lb = k == dim ? start : ranges[k].start;
    lbs.push_back(lb);
    ubs.push_back(arith::AddIOp::create(b, loc, lb, extent));
    steps.push_back(constant(1));
    extents.push_back(extent);
  }
  scf::buildLoopNest(
      b, loc, lbs, ubs, steps,
      [&](OpBuilder &nested, Location loc, ValueRange ivs) {
        Value linear = arith::ConstantIndexOp::create(nested, loc, 0);
        for (unsigned k = 0; k < ivs.size(); ++k) {
          Value local = arith::SubIOp::create(nested, loc, ivs[k], lbs[k]);
          linear = arith::MulIOp::create(nested, loc, linear, extents[k]);
          linear = arith::AddIOp::create(nested, loc, linear, local);
        }
        if (pack) {
          Value v = memref::LoadOp::create(nested, loc, array, ivs);
          memref::StoreOp::create(nested, loc, v, buffer, linear);
        } else {
          Value v = memref::LoadOp::create(nested, loc, buffer, linear);
          memref::StoreOp::create(nested, loc, v, array, ivs);
        }
      });
}

/// The address of `buffer`'s first element, as the run-time takes it.
Value GridBuilder::pointer(Value buffer) {
  return getRuntimePointer(b, loc, buffer);
}

/// Runs `body` where `rank` names a process (not -1).
void GridBuilder::ifNeighbor(Value rank, function_ref<void()> body) {
  Value has = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ne, rank,
                                    constant(-1));
  auto ifOp = scf::IfOp::create(b, loc, has, /*withElse=*/false);
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(ifOp.thenBlock());
  body();
}

/// Exchanges one side's slab of dimension `dim`: at once, or (with
/// `finishes`) started here and finished by what it appends.
void GridBuilder::exchangeSide(Value array, unsigned dim,
                               ArrayRef<Range> ranges, Value sendStart,
                               Value recvStart, int64_t width, Value dest,
                               Value source, int32_t tag,
                               Finishes *finishes) {
  auto type = cast<MemRefType>(array.getType());
  Value volume = constant(width);
  for (unsigned k = 0; k < type.getRank(); ++k)
    if (k != dim)
      volume = arith::MulIOp::create(b, loc, volume, ranges[k].extent);
  auto bufferType =
      MemRefType::get({ShapedType::kDynamic}, type.getElementType());
  Value sendBuffer = memref::AllocOp::create(b, loc, bufferType, volume);
  Value recvBuffer = memref::AllocOp::create(b, loc, bufferType, volume);
  ifNeighbor(dest, [&] {
    copySlab(array, dim, ranges, sendStart, width, sendBuffer, /*pack=*/true);
  });
  Value bytes = arith::MulIOp::create(
      b, loc, volume,
      constant(type.getElementType().getIntOrFloatBitWidth() / 8));
  SmallVector<Value> args{pointer(sendBuffer), toI64(dest),
                          pointer(recvBuffer), toI64(source), toI64(bytes),
                          i64(tag)};
  Value handle;
  if (finishes)
    handle = func::CallOp::create(
                 b, loc, dist::declare(module, dist::Call::ISendRecv), args)
                 .getResult(0);
  else
    call(dist::Call::SendRecv, args);
  auto finish = [=] {
    if (handle)
      call(dist::Call::Wait, {handle});
    ifNeighbor(source, [&] {
      copySlab(array, dim, ranges, recvStart, width, recvBuffer,
               /*pack=*/false);
    });
    memref::DeallocOp::create(b, loc, sendBuffer);
    memref::DeallocOp::create(b, loc, recvBuffer);
  };
  if (finishes)
    finishes->push_back(finish);
  else
    finish();
}

/// Fills every split dimension's halos, one dimension after the other (the
/// corners ride along with the dimensions exchanged before). With
/// `overlap`, the first split dimension goes last and is only started:
/// its slabs carry the corners of the others, and what waits for it is an
/// `scf.execute_region` marked stencil.exchange_finish, which
/// --stencil-overlap-exchanges moves past the interior of the nests after
/// it (their parallel loops run over that dimension).
void GridBuilder::exchange(Value array, ArrayRef<Split> splits,
                           bool overlap) {
  SmallVector<Range> ranges = slabRanges(array, splits);
  int64_t deferred = -1;
  if (overlap)
    for (auto [dim, split] : llvm::enumerate(splits))
      if (split.axis >= 0) {
        deferred = dim;
        break;
      }
  for (auto [dim, split] : llvm::enumerate(splits))
    if (split.axis >= 0 && int64_t(dim) != deferred)
      exchangeDimension(array, dim, splits, ranges, nullptr);
  if (deferred >= 0)
    startDimension(array, deferred, splits, ranges);
}

/// Starts the exchange of dimension `dim` and wraps what finishes it in an
/// `scf.execute_region` marked with where it came from.
void GridBuilder::startDimension(Value array, unsigned dim,
                                 ArrayRef<Split> splits,
                                 ArrayRef<Range> ranges) {
  Finishes finishes;
  exchangeDimension(array, dim, splits, ranges, &finishes);
  auto region = scf::ExecuteRegionOp::create(b, loc, TypeRange{});
  Block *body = &region.getRegion().emplaceBlock();
  {
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(body);
    for (auto &finish : finishes)
      finish();
    scf::YieldOp::create(b, loc);
  }
  const Split &split = splits[dim];
  NamedAttrList fields;
  fields.append("dim", b.getI64IntegerAttr(dim));
  fields.append("axis", b.getI64IntegerAttr(split.axis));
  fields.append("lo", b.getI64IntegerAttr(split.lo));
  fields.append("hi", b.getI64IntegerAttr(split.hi));
  fields.append("spec", b.getStringAttr(specName));
  region->setAttr(StencilDialect::ExchangeFinishAttrHelper::getNameStr(),
                  fields.getDictionary(b.getContext()));
}

/// Fills the halo of width `lo` below and `hi` above the owned part of
/// dimension `dim` from the neighbours along its grid axis.
void GridBuilder::exchangeDimension(Value array, unsigned dim,
                                    ArrayRef<Split> splits,
                                    ArrayRef<Range> ranges,
                                    Finishes *finishes) {
  int64_t axis = splits[dim].axis, lo = splits[dim].lo, hi = splits[dim].hi;
  Value lower = call(dist::Call::Neighbor, {spec, i64(axis), i64(-1)});
  Value upper = call(dist::Call::Neighbor, {spec, i64(axis), i64(1)});
  Value extent = memref::DimOp::create(b, loc, array, dim);
  int32_t tag = 0x5100 + 2 * int32_t(dim);
  if (lo > 0) // My top owned rows are the upper neighbour's lower halo.
    exchangeSide(array, dim, ranges,
                 arith::SubIOp::create(b, loc, extent, constant(hi + lo)),
                 constant(0), lo, upper, lower, tag, finishes);
  if (hi > 0) // My bottom owned rows are the lower neighbour's upper halo.
    exchangeSide(array, dim, ranges, constant(lo),
                 arith::SubIOp::create(b, loc, extent, constant(hi)), hi,
                 lower, upper, tag + 1, finishes);
}

/// Whether `op` is the marked finish of a started exchange.
static bool isFinish(Operation *op) {
  return op->hasAttr(StencilDialect::ExchangeFinishAttrHelper::getNameStr());
}

/// Where the finish of `op`'s exchange goes: after the exchanges of other
/// arrays that follow it with only ops free of memory effects between
/// (their views), and after their finishes, so that all of them start
/// before any waits.
static Operation *getFinishPoint(shard::UpdateHaloOp op) {
  llvm::SmallPtrSet<Value, 4> roots{dist::getArrayRoot(op.getDestination())};
  Operation *next = op->getNextNode();
  for (; next; next = next->getNextNode()) {
    if (auto other = dyn_cast<shard::UpdateHaloOp>(next)) {
      if (!roots.insert(dist::getArrayRoot(other.getDestination())).second)
        break;
      continue;
    }
    bool free = next->getNumRegions() == 0 && isMemoryEffectFree(next);
    if (!free && !isFinish(next))
      break;
  }
  return next;
}

static LogicalResult lowerUpdateHalo(shard::UpdateHaloOp op,
                                     shard::GridOp grid, bool overlap) {
  if (!isa<MemRefType>(op.getDestination().getType()) ||
      !op.getHaloSizes().empty())
    return op.emitOpError()
           << "is lowered only on memrefs with static halo sizes";
  ArrayRef<shard::GridAxesAttr> axes = op.getSplitAxes().getAxes();
  ArrayRef<int64_t> halos = op.getStaticHaloSizes();
  auto type = cast<MemRefType>(op.getDestination().getType());
  if (int64_t(axes.size()) > type.getRank() ||
      llvm::any_of(halos, [](int64_t h) { return h < 0; }))
    return op.emitOpError()
           << "splits more dimensions than its memref has, or has a negative "
              "halo size";
  if (!type.getElementType().isIntOrFloat() ||
      type.getElementType().getIntOrFloatBitWidth() % 8 != 0)
    return op.emitOpError() << "exchanges elements of type "
                            << type.getElementType()
                            << "; only integers and floats of whole bytes are "
                               "lowered";
  SmallVector<GridBuilder::Split> splits(type.getRank());
  unsigned next = 0;
  for (unsigned dim = 0; dim < axes.size(); ++dim) {
    ArrayRef<int16_t> dimAxes = axes[dim].asArrayRef();
    if (dimAxes.empty())
      continue;
    if (dimAxes.size() != 1 || dimAxes[0] < 0 ||
        size_t(dimAxes[0]) >= grid.getShape().size() ||
        2 * next + 1 >= halos.size())
      return op.emitOpError()
             << "splits dimension " << dim
             << " over several grid axes or an axis the grid lacks, or has "
                "too few halo sizes; only one axis per dimension is lowered";
    splits[dim] = {dimAxes[0], halos[2 * next], halos[2 * next + 1]};
    ++next;
  }
  Operation *finishPoint = overlap ? getFinishPoint(op) : nullptr;
  GridBuilder builder(op, grid);
  builder.exchange(op.getDestination(), splits, overlap);
  Operation *finish = op->getPrevNode();
  if (finishPoint && finish && isFinish(finish))
    finish->moveBefore(finishPoint);
  op.getResult().replaceAllUsesWith(op.getDestination());
  op.erase();
  return success();
}

/// The grid axes `axes` (all of them if empty), checked against the grid.
static FailureOr<SmallVector<unsigned>>
getAxes(Operation *op, ArrayRef<int16_t> axes, shard::GridOp grid) {
  SmallVector<unsigned> result;
  for (unsigned axis = 0; axis < grid.getShape().size(); ++axis)
    result.push_back(axis);
  if (!axes.empty()) {
    result.clear();
    for (int16_t axis : axes) {
      if (axis < 0 || size_t(axis) >= grid.getShape().size())
        return op->emitOpError() << "names axis " << axis
                                 << ", which the grid lacks";
      result.push_back(axis);
    }
  }
  if (op->getNumResults() != result.size())
    return op->emitOpError() << "is lowered only with one result per axis";
  return result;
}

/// Replaces each result of `op` (one per axis) by `value(axis)`.
static LogicalResult lowerPerAxis(
    Operation *op, ArrayRef<int16_t> axes, shard::GridOp grid,
    function_ref<Value(GridBuilder &, unsigned)> value) {
  FailureOr<SmallVector<unsigned>> list = getAxes(op, axes, grid);
  if (failed(list))
    return failure();
  GridBuilder builder(op, grid);
  for (auto [result, axis] : llvm::zip_equal(op->getResults(), *list))
    result.replaceAllUsesWith(value(builder, axis));
  op->erase();
  return success();
}

namespace {
struct StencilLowerHaloExchangePass
    : public mlir::stencil::impl::StencilLowerHaloExchangePassBase<
          StencilLowerHaloExchangePass> {
  using Base::Base;

  LogicalResult lower(Operation *op, SymbolTableCollection &symbols) {
    auto gridOf = [&](FlatSymbolRefAttr name) {
      auto grid = symbols.lookupNearestSymbolFrom<shard::GridOp>(op, name);
      if (!grid)
        op->emitOpError() << "names no shard.grid";
      return grid;
    };
    if (auto halo = dyn_cast<shard::UpdateHaloOp>(op)) {
      shard::GridOp grid = gridOf(halo.getGridAttr());
      return success(grid && succeeded(lowerUpdateHalo(halo, grid, overlap)));
    }
    if (auto index = dyn_cast<shard::ProcessMultiIndexOp>(op)) {
      shard::GridOp grid = gridOf(index.getGridAttr());
      return success(grid && succeeded(lowerPerAxis(
                                 op, index.getAxes(), grid,
                                 [](GridBuilder &b, unsigned axis) {
                                   return b.coordinate(axis);
                                 })));
    }
    auto shape = cast<shard::GridShapeOp>(op);
    shard::GridOp grid = gridOf(shape.getGridAttr());
    return success(grid && succeeded(lowerPerAxis(
                               op, shape.getAxes(), grid,
                               [](GridBuilder &b, unsigned axis) {
                                 return b.extent(axis);
                               })));
  }

  void runOnOperation() override {
    ModuleOp module = getOperation();
    SymbolTableCollection symbols;
    SmallVector<Operation *> ops;
    module.walk([&](Operation *op) {
      if (isa<shard::UpdateHaloOp, shard::ProcessMultiIndexOp,
              shard::GridShapeOp>(op))
        ops.push_back(op);
    });
    for (Operation *op : ops)
      if (failed(lower(op, symbols)))
        return signalPassFailure();
    for (auto grid : llvm::make_early_inc_range(module.getOps<shard::GridOp>()))
      if (SymbolTable::symbolKnownUseEmpty(grid, module))
        grid.erase();
  }
};
} // namespace
