//===- LowerHaloExchange.cpp - shard.update_halo to mpi.send/recv ---------===//
//
// This file implements --stencil-lower-halo-exchange, the smallest lowering
// that fills the gaps of MLIR 22's --convert-shard-to-mpi for halo
// exchanges on dynamically shaped memrefs (docs/Distributed.md): slabs are
// packed into 1-D buffers (the MPI-to-LLVM lowering counts only the first
// extent of a buffer), and ranks pair up by the parity of their grid
// coordinate, so that each side of each dimension takes two rounds of
// blocking messages however many ranks the axis has.
//
//===----------------------------------------------------------------------===//

#include "Stencil/Distribution/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MPI/IR/MPI.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Shard/IR/ShardDialect.h"
#include "mlir/Dialect/Shard/IR/ShardOps.h"
#include "mlir/AsmParser/AsmParser.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/SymbolTable.h"

namespace mlir::stencil {
#define GEN_PASS_DEF_STENCILLOWERHALOEXCHANGEPASS
#include "Stencil/Distribution/Passes.h.inc"
} // namespace mlir::stencil

using namespace mlir;
using namespace mlir::stencil;

namespace {
/// Builds the MPI code of one op: this process's rank and grid coordinates.
class RankBuilder {
public:
  RankBuilder(Operation *op, shard::GridOp grid)
      : b(op), loc(op->getLoc()), shape(grid.getShape()) {
    MLIRContext *ctx = op->getContext();
    comm = mpi::CommWorldOp::create(b, loc, mpi::CommType::get(ctx));
    auto rankOp = mpi::CommRankOp::create(b, loc, Type(), b.getI32Type(), comm);
    rank = arith::IndexCastOp::create(b, loc, b.getIndexType(),
                                      rankOp.getRank());
  }

  Value constant(int64_t value) {
    return arith::ConstantIndexOp::create(b, loc, value);
  }
  /// Row-major: the last grid axis varies fastest.
  int64_t stride(unsigned axis) const {
    int64_t s = 1;
    for (unsigned g = axis + 1; g < shape.size(); ++g)
      s *= shape[g];
    return s;
  }
  Value coordinate(unsigned axis) {
    Value q = arith::DivUIOp::create(b, loc, rank, constant(stride(axis)));
    return arith::RemUIOp::create(b, loc, q, constant(shape[axis]));
  }

  void exchangeDimension(Value array, unsigned dim, unsigned axis, int64_t lo,
                         int64_t hi);

  OpBuilder b;
  Location loc;
  ArrayRef<int64_t> shape;
  Value comm, rank;

private:
  void exchangeSide(Value array, unsigned dim, Value sendStart,
                    Value recvStart, int64_t width, Value dest, Value source,
                    Value even, int32_t tag);
  void copySlab(Value array, unsigned dim, Value start, int64_t width,
                Value buffer, bool pack);
};
} // namespace

/// Copies the slab [start, start + width) of dimension `dim` of `array`
/// (all of the other dimensions) into `buffer` (pack) or back.
void RankBuilder::copySlab(Value array, unsigned dim, Value start,
                           int64_t width, Value buffer, bool pack) {
  auto type = cast<MemRefType>(array.getType());
  SmallVector<Value> lbs, ubs, steps, extents;
  for (unsigned k = 0; k < type.getRank(); ++k) {
    Value extent = k == dim ? constant(width)
                            : memref::DimOp::create(b, loc, array, k).getResult();
    Value lb = k == dim ? start : constant(0);
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

void RankBuilder::exchangeSide(Value array, unsigned dim, Value sendStart,
                               Value recvStart, int64_t width, Value dest,
                               Value source, Value even, int32_t tag) {
  auto type = cast<MemRefType>(array.getType());
  Value volume = constant(width);
  for (unsigned k = 0; k < type.getRank(); ++k)
    if (k != dim)
      volume = arith::MulIOp::create(
          b, loc, volume, memref::DimOp::create(b, loc, array, k));
  auto bufferType =
      MemRefType::get({ShapedType::kDynamic}, type.getElementType());
  Value sendBuffer = memref::AllocOp::create(b, loc, bufferType, volume);
  Value recvBuffer = memref::AllocOp::create(b, loc, bufferType, volume);
  Value tagValue = arith::ConstantIntOp::create(b, loc, b.getI32Type(), tag);
  Value none = constant(-1);
  auto toI32 = [&](Value index) {
    return arith::IndexCastOp::create(b, loc, b.getI32Type(), index);
  };
  auto send = [&] {
    Value has = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ne, dest,
                                      none);
    auto ifOp = scf::IfOp::create(b, loc, has, /*withElse=*/false);
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(ifOp.thenBlock());
    copySlab(array, dim, sendStart, width, sendBuffer, /*pack=*/true);
    mpi::SendOp::create(b, loc, Type(), sendBuffer, tagValue, toI32(dest),
                        comm);
  };
  auto receive = [&] {
    Value has = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ne,
                                      source, none);
    auto ifOp = scf::IfOp::create(b, loc, has, /*withElse=*/false);
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(ifOp.thenBlock());
    mpi::RecvOp::create(b, loc, Type(), recvBuffer, tagValue, toI32(source),
                        comm);
    copySlab(array, dim, recvStart, width, recvBuffer, /*pack=*/false);
  };
  auto order = scf::IfOp::create(b, loc, even, /*withElse=*/true);
  {
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(order.thenBlock());
    send();
    receive();
    b.setInsertionPointToStart(order.elseBlock());
    receive();
    send();
  }
  memref::DeallocOp::create(b, loc, sendBuffer);
  memref::DeallocOp::create(b, loc, recvBuffer);
}

/// Fills the halo of width `lo` below and `hi` above the owned part of
/// dimension `dim` from the neighbours along grid axis `axis`.
void RankBuilder::exchangeDimension(Value array, unsigned dim, unsigned axis,
                                    int64_t lo, int64_t hi) {
  Value c = coordinate(axis);
  Value step = constant(stride(axis));
  Value none = constant(-1);
  Value hasLower = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::sgt, c,
                                         constant(0));
  Value hasUpper = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::slt, c,
                                         constant(shape[axis] - 1));
  Value lower = arith::SelectOp::create(
      b, loc, hasLower, arith::SubIOp::create(b, loc, rank, step), none);
  Value upper = arith::SelectOp::create(
      b, loc, hasUpper, arith::AddIOp::create(b, loc, rank, step), none);
  Value parity = arith::RemUIOp::create(b, loc, c, constant(2));
  Value even = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::eq, parity,
                                     constant(0));
  Value extent = memref::DimOp::create(b, loc, array, dim);
  int32_t tag = 0x5100 + 2 * int32_t(dim);
  if (lo > 0) // My top owned rows are the upper neighbour's lower halo.
    exchangeSide(array, dim,
                 arith::SubIOp::create(b, loc, extent, constant(hi + lo)),
                 constant(0), lo, upper, lower, even, tag);
  if (hi > 0) // My bottom owned rows are the lower neighbour's upper halo.
    exchangeSide(array, dim, constant(lo),
                 arith::SubIOp::create(b, loc, extent, constant(hi)), hi,
                 lower, upper, even, tag + 1);
}

static LogicalResult lowerUpdateHalo(shard::UpdateHaloOp op,
                                     shard::GridOp grid) {
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
  RankBuilder builder(op, grid);
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
    builder.exchangeDimension(op.getDestination(), dim, dimAxes[0],
                              halos[2 * next], halos[2 * next + 1]);
    ++next;
  }
  op.getResult().replaceAllUsesWith(op.getDestination());
  op.erase();
  return success();
}

static LogicalResult lowerMultiIndex(shard::ProcessMultiIndexOp op,
                                     shard::GridOp grid) {
  if (!op.getAxes().empty() ||
      op->getNumResults() != grid.getShape().size())
    return op.emitOpError()
           << "is lowered only over all grid axes, one result each";
  RankBuilder builder(op, grid);
  for (unsigned axis = 0; axis < op.getNumResults(); ++axis)
    op->getResult(axis).replaceAllUsesWith(builder.coordinate(axis));
  op.erase();
  return success();
}

namespace {
struct StencilLowerHaloExchangePass
    : public mlir::stencil::impl::StencilLowerHaloExchangePassBase<
          StencilLowerHaloExchangePass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    SymbolTableCollection symbols;
    auto gridOf = [&](Operation *op, FlatSymbolRefAttr name) {
      auto grid = symbols.lookupNearestSymbolFrom<shard::GridOp>(op, name);
      if (!grid || llvm::any_of(grid.getShape(), [](int64_t p) { return ShapedType::isDynamic(p); })) {
        op->emitOpError() << "needs a grid of static shape";
        return shard::GridOp();
      }
      return grid;
    };
    WalkResult result = module.walk([&](Operation *op) {
      if (auto halo = dyn_cast<shard::UpdateHaloOp>(op)) {
        shard::GridOp grid = gridOf(op, halo.getGridAttr());
        if (!grid || failed(lowerUpdateHalo(halo, grid)))
          return WalkResult::interrupt();
        return WalkResult::skip();
      }
      if (auto index = dyn_cast<shard::ProcessMultiIndexOp>(op)) {
        shard::GridOp grid = gridOf(op, index.getGridAttr());
        if (!grid || failed(lowerMultiIndex(index, grid)))
          return WalkResult::interrupt();
        return WalkResult::skip();
      }
      return WalkResult::advance();
    });
    if (result.wasInterrupted())
      return signalPassFailure();
    for (auto grid : llvm::make_early_inc_range(module.getOps<shard::GridOp>()))
      if (SymbolTable::symbolKnownUseEmpty(grid, module))
        grid.erase();
    // The MPI-to-LLVM lowering reads the implementation from the module; a
    // module with MPI ops and no choice gets MPICH's, the one the project
    // installs (--stencil-distribute sets the same).
    bool usesMPI = false;
    module.walk([&](Operation *op) {
      usesMPI |= isa_and_nonnull<mpi::MPIDialect>(op->getDialect());
    });
    if (usesMPI && !module->hasAttr("dlti.map"))
      module->setAttr("dlti.map",
                      parseAttribute(
                          "#dlti.map<\"MPI:Implementation\" = \"MPICH\">",
                          module.getContext()));
  }
};
} // namespace
