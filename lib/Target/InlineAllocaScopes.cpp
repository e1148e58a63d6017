//===- InlineAllocaScopes.cpp - Drop alloca scopes without allocas -*- C++ -*-===//
//
// This file implements --stencil-inline-alloca-scopes: memref.alloca_scope
// regions that contain no alloca of their own are inlined into their
// parent, so that guarded statements inside them can become control flow.
//
//===----------------------------------------------------------------------===//

#include "Stencil/Target/Passes.h"

#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/PatternMatch.h"

namespace mlir::stencil {
#define GEN_PASS_DEF_STENCILINLINEALLOCASCOPESPASS
#include "Stencil/Target/Passes.h.inc"
} // namespace mlir::stencil

using namespace mlir;

/// Returns true if `scope` allocates on the stack itself: a memref.alloca in
/// its region that is not inside a nested allocation scope.
static bool allocates(memref::AllocaScopeOp scope) {
  WalkResult result = scope.getBodyRegion().walk<WalkOrder::PreOrder>(
      [&](Operation *op) -> WalkResult {
        if (isa<memref::AllocaOp>(op))
          return WalkResult::interrupt();
        if (op != scope.getOperation() &&
            op->hasTrait<OpTrait::AutomaticAllocationScope>())
          return WalkResult::skip();
        return WalkResult::advance();
      });
  return result.wasInterrupted();
}

namespace {
struct StencilInlineAllocaScopesPass
    : public mlir::stencil::impl::StencilInlineAllocaScopesPassBase<
          StencilInlineAllocaScopesPass> {
  using Base::Base;

  void runOnOperation() override {
    SmallVector<memref::AllocaScopeOp> scopes;
    getOperation()->walk(
        [&](memref::AllocaScopeOp scope) { scopes.push_back(scope); });
    IRRewriter rewriter(&getContext());
    for (memref::AllocaScopeOp scope : scopes) {
      if (allocates(scope) || !scope.getBodyRegion().hasOneBlock())
        continue;
      Block &body = scope.getBodyRegion().front();
      Operation *ret = body.getTerminator();
      SmallVector<Value> results(ret->getOperands());
      rewriter.eraseOp(ret);
      rewriter.inlineBlockBefore(&body, scope);
      rewriter.replaceOp(scope, results);
    }
  }
};
} // namespace
