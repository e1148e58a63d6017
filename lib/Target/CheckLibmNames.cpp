//===- CheckLibmNames.cpp - Keep libm calls from user functions -*- C++ -*-===//
//
// This file implements --stencil-check-libm-names. Upstream
// convert-math-to-libm turns a math op into a call to the module symbol with
// the libm name (`cbrt`, `tanf`, ...) and reuses that symbol if the module
// already has one, so a user function of that name would silently replace
// libm. The pass asks the upstream patterns themselves which names they
// would call, on a scratch module, so it follows upstream's list.
//
//===----------------------------------------------------------------------===//

#include "Stencil/Target/Passes.h"

#include "mlir/Conversion/MathToLibm/MathToLibm.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/BuiltinDialect.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Transforms/DialectConversion.h"

namespace mlir::stencil {
#define GEN_PASS_DEF_STENCILCHECKLIBMNAMESPASS
#include "Stencil/Target/Passes.h.inc"
} // namespace mlir::stencil

using namespace mlir;

/// Returns the function that convert-math-to-libm would make `op` call, or
/// an empty string if it leaves `op` alone. The op is converted alone, as a
/// clone in a scratch module, so the user's module is not touched.
static std::string getLibmCallee(Operation *op) {
  OpBuilder builder(op->getContext());
  OwningOpRef<ModuleOp> scratch = ModuleOp::create(op->getLoc());
  builder.setInsertionPointToStart(scratch->getBody());
  auto probe = func::FuncOp::create(
      builder, op->getLoc(), "probe",
      builder.getFunctionType(op->getOperandTypes(), {}));
  Block *entry = probe.addEntryBlock();
  builder.setInsertionPointToStart(entry);
  IRMapping mapping;
  mapping.map(op->getOperands(), entry->getArguments());
  builder.clone(*op, mapping);
  func::ReturnOp::create(builder, op->getLoc());

  RewritePatternSet patterns(op->getContext());
  populateMathToLibmConversionPatterns(patterns);
  ConversionTarget target(*op->getContext());
  target.addLegalDialect<arith::ArithDialect, BuiltinDialect,
                         func::FuncDialect, vector::VectorDialect>();
  target.addIllegalDialect<math::MathDialect>();
  if (failed(applyPartialConversion(*scratch, target, std::move(patterns))))
    return "";
  std::string callee;
  scratch->walk([&](func::CallOp call) { callee = call.getCallee().str(); });
  return callee;
}

namespace {
struct StencilCheckLibmNamesPass
    : public mlir::stencil::impl::StencilCheckLibmNamesPassBase<
          StencilCheckLibmNamesPass> {
  using Base::Base;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    SymbolTable symbols(module);
    // One probe per kind of op and types: modules repeat the same few.
    llvm::StringMap<std::string> callees;
    WalkResult result = module.walk([&](Operation *op) {
      if (!isa_and_nonnull<math::MathDialect>(op->getDialect()))
        return WalkResult::advance();
      std::string key;
      llvm::raw_string_ostream os(key);
      os << op->getName() << op->getOperandTypes() << op->getResultTypes();
      auto [it, inserted] = callees.try_emplace(key);
      if (inserted)
        it->second = getLibmCallee(op);
      if (it->second.empty() || !clashes(symbols, op, it->second))
        return WalkResult::advance();
      op->emitOpError() << "would call libm's '" << it->second
                        << "', but the module defines a symbol of that name; "
                           "rename the module's '@"
                        << it->second << "'";
      return WalkResult::interrupt();
    });
    if (result.wasInterrupted())
      signalPassFailure();
  }

  /// A module symbol `name` stands in for libm unless it is a bodiless
  /// declaration with the signature of `op`: that one is libm's function.
  static bool clashes(SymbolTable &symbols, Operation *op, StringRef name) {
    Operation *symbol = symbols.lookup(name);
    if (!symbol)
      return false;
    auto func = dyn_cast<func::FuncOp>(symbol);
    return !func || !func.isExternal() ||
           func.getFunctionType() !=
               FunctionType::get(op->getContext(), op->getOperandTypes(),
                                 op->getResultTypes());
  }
};
} // namespace
