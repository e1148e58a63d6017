//===- TimeLoopClocks.cpp - Scalars a time loop carries passively ---------===//
//
// A time loop may carry scalars it computes from themselves, the step's
// index, constants and passive arguments alone (LoopShape::clocks):
// a simulated time `t + dt`, a counter. Their values do not depend on the
// state, so the adjoint computes them for every step once, before anything
// else (T + 1 values per clock: the loop's result is the last), and passes
// step i the value it had in the loop. Recomputing them from a snapshot
// would need them in every slot; a table costs a scalar per step. It is
// host memory (`stencil.host_memory`) under the GPU pipeline too.
//
//===----------------------------------------------------------------------===//

#include "TimeLoopEmitter.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"

using namespace mlir;
using namespace mlir::stencil;
using namespace mlir::stencil::ad;

void TimeLoopEmitter::emitClocks() {
  if (plan.shape.clocks.empty())
    return;
  Location loc = loop.getLoc();
  tripCount = emitTripCount();
  Value one = arith::ConstantIndexOp::create(builder, loc, 1);
  Value zero = arith::ConstantIndexOp::create(builder, loc, 0);
  Value size = arith::AddIOp::create(builder, loc, tripCount, one);
  SmallVector<Value> initial;
  for (unsigned position : plan.shape.clocks) {
    Type type = loop.getRegionIterArgs()[position].getType();
    auto table = memref::AllocOp::create(
        builder, loc, MemRefType::get({ShapedType::kDynamic}, type),
        ValueRange{size});
    table->setAttr(StencilDialect::HostMemoryAttrHelper::getNameStr(),
                   builder.getUnitAttr());
    clockBuffers.push_back(table);
    initial.push_back(top.primal.lookupOrDefault(loop.getInitArgs()[position]));
  }
  auto steps = scf::ForOp::create(
      builder, loc, zero, tripCount, one, initial,
      [&](OpBuilder &b, Location l, Value i, ValueRange values) {
        OpBuilder::InsertionGuard guard(builder);
        builder.setInsertionPoint(b.getInsertionBlock(), b.getInsertionPoint());
        IRMapping mapping = top.primal;
        mapping.map(loop.getInductionVar(), stepTime(i));
        for (auto [k, position] : llvm::enumerate(plan.shape.clocks)) {
          memref::StoreOp::create(builder, l, values[k], clockBuffers[k], i);
          mapping.map(loop.getRegionIterArgs()[position], values[k]);
        }
        for (Operation *op : ir.clockOps)
          builder.clone(*op, mapping);
        SmallVector<Value> next;
        for (unsigned position : plan.shape.clocks)
          next.push_back(
              mapping.lookupOrDefault(loop.getYieldedValues()[position]));
        scf::YieldOp::create(builder, l, next);
      });
  // The values after the last step: the loop's results, which the
  // epilogue and the tail may read.
  for (auto [k, position] : llvm::enumerate(plan.shape.clocks)) {
    memref::StoreOp::create(builder, loc, steps.getResult(k), clockBuffers[k],
                            tripCount);
    top.primal.map(loop.getResult(position), steps.getResult(k));
  }
}

SmallVector<Value> TimeLoopEmitter::clockValues(Value index) {
  SmallVector<Value> values;
  for (Value buffer : clockBuffers)
    values.push_back(
        memref::LoadOp::create(builder, loop.getLoc(), buffer, index));
  return values;
}
