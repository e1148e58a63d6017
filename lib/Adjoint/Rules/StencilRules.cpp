//===- StencilRules.cpp - Derivative rules of the stencil ops ---*- C++ -*-===//
//
// This file attaches AdjointOpInterface to the stencil ops. A gather of an
// active array becomes a scatter into its shadow; a store or accumulate
// seeds the adjoint of its value from the shadow of its array; a yield
// seeds its operands from the seeds of the domain results.
//
//===----------------------------------------------------------------------===//

#include "Stencil/Adjoint/AdjointOpInterface.h"
#include "Stencil/Adjoint/AdjointRules.h"

#include "Stencil/Dialect/StencilOps.h"

#include "mlir/IR/DialectRegistry.h"

using namespace mlir;
using namespace mlir::stencil;

namespace {

/// `x = in[p + o]`  =>  `in_b[p + o] += x_b`, with the gather's `dims`.
struct GatherOpAdjoint
    : public AdjointOpInterface::ExternalModel<GatherOpAdjoint, GatherOp> {
  LogicalResult emitAdjoint(Operation *op, OpBuilder &builder,
                            AdjointState &state) const {
    auto gather = cast<GatherOp>(op);
    Value shadow = state.getShadow(gather.getArray());
    Value adjoint = state.getAdjoint(gather.getResult());
    if (!shadow || !adjoint)
      return success();
    // Where the read is not a permutation (a selection, a repetition, a
    // fixed element, a rank-0 array), the update is a reduction over the
    // points that read the same element.
    AccumulateOp::create(builder, gather.getLoc(), adjoint, shadow,
                         gather.getOffsetAttr(), gather.getDimsAttr());
    return success();
  }
};

/// `out[p] = v`  =>  `v_b += out_b[p]`, then `out_b[p] = 0` after the
/// domain (the reset is registered with the state).
struct StoreOpAdjoint
    : public AdjointOpInterface::ExternalModel<StoreOpAdjoint, StoreOp> {
  LogicalResult emitAdjoint(Operation *op, OpBuilder &builder,
                            AdjointState &state) const {
    auto store = cast<StoreOp>(op);
    Value shadow = state.getShadow(store.getArray());
    if (!shadow)
      return success();
    state.addReset(store);
    if (!state.isActive(store.getValue()))
      return success();
    auto rank = cast<MemRefType>(shadow.getType()).getRank();
    Value seed = GatherOp::create(builder, store.getLoc(),
                                  store.getValue().getType(), shadow,
                                  builder.getDenseI64ArrayAttr(
                                      SmallVector<int64_t>(rank, 0)),
                                  store.getDimsAttr());
    state.addAdjoint(builder, store.getLoc(), store.getValue(), seed);
    return success();
  }
};

/// `out[p + o] += v`  =>  `v_b += out_b[p + o]` (out_b is only read).
struct AccumulateOpAdjoint
    : public AdjointOpInterface::ExternalModel<AccumulateOpAdjoint,
                                               AccumulateOp> {
  LogicalResult emitAdjoint(Operation *op, OpBuilder &builder,
                            AdjointState &state) const {
    auto acc = cast<AccumulateOp>(op);
    Value shadow = state.getShadow(acc.getArray());
    if (!shadow || !state.isActive(acc.getValue()))
      return success();
    Value seed =
        GatherOp::create(builder, acc.getLoc(), acc.getValue().getType(),
                         shadow, acc.getOffsetAttr(), acc.getDimsAttr());
    state.addAdjoint(builder, acc.getLoc(), acc.getValue(), seed);
    return success();
  }
};

/// `s = sum_p v(p)`  =>  `v_b(p) += s_b` at every point.
struct YieldOpAdjoint
    : public AdjointOpInterface::ExternalModel<YieldOpAdjoint, YieldOp> {
  LogicalResult emitAdjoint(Operation *op, OpBuilder &builder,
                            AdjointState &state) const {
    for (auto [index, value] : llvm::enumerate(op->getOperands()))
      state.addAdjoint(builder, op->getLoc(), value,
                       state.getResultSeed(index));
    return success();
  }
};

} // namespace

void mlir::stencil::registerStencilAdjointRules(DialectRegistry &registry) {
  registry.addExtension(+[](MLIRContext *ctx, StencilDialect *) {
    GatherOp::attachInterface<GatherOpAdjoint>(*ctx);
    StoreOp::attachInterface<StoreOpAdjoint>(*ctx);
    AccumulateOp::attachInterface<AccumulateOpAdjoint>(*ctx);
    YieldOp::attachInterface<YieldOpAdjoint>(*ctx);
  });
}
