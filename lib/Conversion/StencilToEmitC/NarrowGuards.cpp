//===- NarrowGuards.cpp - 128-bit guard arithmetic to 64 bits -------------===//
//
// This file implements --stencil-narrow-guards: the exact 128-bit
// arithmetic of the domains' non-empty guards (emitNonEmptyGuard) becomes
// 64-bit arithmetic, which C99 has (int64_t). The C source route runs it;
// the limit on the sizes is in the pass's description.
//
//===----------------------------------------------------------------------===//

#include "Stencil/Conversion/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/BuiltinOps.h"

namespace mlir::stencil {
#define GEN_PASS_DEF_STENCILNARROWGUARDSPASS
#include "Stencil/Conversion/Passes.h.inc"
} // namespace mlir::stencil

using namespace mlir;
using namespace mlir::stencil;

static bool isWide(Type type) { return type.isInteger(128); }

/// Rewrites `op`, one of the guards' ops on 128-bit integers, to 64 bits in
/// place; reports any other op that has 128-bit operands or results.
static LogicalResult narrow(Operation *op, IntegerType i64) {
  bool wide = llvm::any_of(op->getResultTypes(), isWide) ||
              llvm::any_of(op->getOperandTypes(), isWide);
  if (!wide)
    return success();
  if (auto constant = dyn_cast<arith::ConstantOp>(op)) {
    APInt value = cast<IntegerAttr>(constant.getValue()).getValue();
    if (!value.isSignedIntN(64))
      return op->emitError("a domain guard's constant does not fit in 64 "
                           "bits, which the C source route needs");
    constant.setValueAttr(IntegerAttr::get(i64, value.trunc(64)));
    constant.getResult().setType(i64);
    return success();
  }
  if (isa<arith::IndexCastOp, arith::AddIOp, arith::SubIOp, arith::MulIOp,
          arith::FloorDivSIOp, arith::CeilDivSIOp>(op)) {
    op->getResult(0).setType(i64);
    // addi/subi/muli may carry overflow flags; in 64 bits they would no
    // longer hold for every size, so they go.
    auto none = arith::IntegerOverflowFlags::none;
    if (auto add = dyn_cast<arith::AddIOp>(op))
      add.setOverflowFlags(none);
    else if (auto sub = dyn_cast<arith::SubIOp>(op))
      sub.setOverflowFlags(none);
    else if (auto mul = dyn_cast<arith::MulIOp>(op))
      mul.setOverflowFlags(none);
    return success();
  }
  if (isa<arith::CmpIOp>(op))
    return success();
  return op->emitOpError("uses 128-bit integers, which C99 has not: the C "
                       "source route narrows only the domains' guards");
}

namespace {
struct StencilNarrowGuardsPass
    : public stencil::impl::StencilNarrowGuardsPassBase<
          StencilNarrowGuardsPass> {
  using Base::Base;

  void runOnOperation() override {
    IntegerType i64 = IntegerType::get(&getContext(), 64);
    WalkResult result = getOperation()->walk([&](Operation *op) {
      return failed(narrow(op, i64)) ? WalkResult::interrupt()
                                     : WalkResult::advance();
    });
    if (result.wasInterrupted())
      signalPassFailure();
  }
};
} // namespace
