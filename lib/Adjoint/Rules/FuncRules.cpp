//===- FuncRules.cpp - Derivative rule of func.call -------------*- C++ -*-===//
//
// This file attaches AdjointOpInterface to func.call for uninterpreted
// functions, as in the paper: the user names one partial-derivative
// function per operand in the `stencil.partials` attribute, and the adjoint
// calls them with the primal operands.
//
//===----------------------------------------------------------------------===//

#include "RuleBuilder.h"

#include "Stencil/Dialect/StencilDialect.h"
#include "Stencil/Adjoint/AdjointRules.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/IR/SymbolTable.h"

using namespace mlir;
using namespace mlir::stencil;
using namespace mlir::stencil::rules;

/// The attribute listing the partial derivatives of a call.
static constexpr StringLiteral kPartialsAttr =
    StencilDialect::PartialsAttrHelper::getNameStr();

namespace {

/// z = f(a, b, ...) with `stencil.partials = [@df_da, @df_db, ...]`:
/// a_b += z_b * df_da(a, b, ...), and so on.
struct CallRule : FloatRule<CallRule, func::CallOp> {
  LogicalResult propagate(func::CallOp call, RuleBuilder &rb) const {
    auto partials = call->getAttrOfType<ArrayAttr>(kPartialsAttr);
    if (!partials)
      return call.emitOpError()
             << "has no adjoint rule: name the partial derivative of @"
             << call.getCallee() << " with respect to each operand in a `"
             << kPartialsAttr << "` array of function symbols";
    // The dialect verifier has checked one result and one entry per operand.
    SmallVector<Value> operands;
    for (Value operand : call.getOperands())
      operands.push_back(rb.primal(operand));
    Type resultType = call.getResult(0).getType();
    for (auto [operand, entry] :
         llvm::zip_equal(call.getOperands(), partials)) {
      if (!rb.state.isActive(operand))
        continue;
      auto symbol = dyn_cast<FlatSymbolRefAttr>(entry);
      auto callee = symbol ? SymbolTable::lookupNearestSymbolFrom<func::FuncOp>(
                                 call, symbol)
                           : func::FuncOp();
      if (!callee || callee.getFunctionType().getInputs() !=
                         call.getCalleeType().getInputs() ||
          callee.getFunctionType().getResults() != ArrayRef<Type>(resultType))
        return call.emitOpError()
               << "partial derivative " << entry
               << " must name a function with the signature of @"
               << call.getCallee();
      rb.chain(operand, [&] {
        return func::CallOp::create(rb.b, rb.loc, callee, operands)
            .getResult(0);
      });
    }
    return success();
  }
};

} // namespace

void mlir::stencil::registerFuncAdjointRules(DialectRegistry &registry) {
  registry.addExtension(+[](MLIRContext *ctx, func::FuncDialect *) {
    func::CallOp::attachInterface<CallRule>(*ctx);
  });
}
