//===- OutlineDomains.cpp - Domains whose bounds vary inside a loop -------===//
//
// This file implements --stencil-outline-domains: a domain whose bound
// operands are not affine symbols where it stands (computed per step inside
// a time loop) moves into a private function that takes them, and every
// other value it uses from outside, as arguments.
//
//===----------------------------------------------------------------------===//

#include "Stencil/Conversion/AffineEmitter.h"
#include "Stencil/Conversion/Passes.h"
#include "Stencil/Dialect/StencilOps.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Transforms/RegionUtils.h"

namespace mlir::stencil {
#define GEN_PASS_DEF_STENCILOUTLINEDOMAINSPASS
#include "Stencil/Conversion/Passes.h.inc"
} // namespace mlir::stencil

using namespace mlir;
using namespace mlir::stencil;

/// Moves `domain` into a new private function after `parent` and calls it
/// in its place.
static void outline(DomainOp domain, func::FuncOp parent,
                     SymbolTable &symbols) {
  llvm::SetVector<Value> captures(domain.getBoundOperands().begin(),
                                  domain.getBoundOperands().end());
  getUsedValuesDefinedAbove(domain.getRegion(), captures);
  SmallVector<Type> types;
  for (Value capture : captures)
    types.push_back(capture.getType());
  OpBuilder builder(parent);
  builder.setInsertionPointAfter(parent);
  Location loc = domain.getLoc();
  auto callee = func::FuncOp::create(
      builder, loc, (parent.getSymName() + "_domain").str(),
      builder.getFunctionType(types, domain.getResultTypes()));
  callee.setPrivate();
  symbols.insert(callee); // Renames it if the name is taken.
  Block *entry = callee.addEntryBlock();
  IRMapping mapping;
  for (auto [capture, arg] : llvm::zip(captures, entry->getArguments()))
    mapping.map(capture, arg);
  builder.setInsertionPointToStart(entry);
  Operation *clone = builder.clone(*domain, mapping);
  func::ReturnOp::create(builder, loc, clone->getResults());
  builder.setInsertionPoint(domain);
  auto call = func::CallOp::create(builder, loc, callee,
                                   SmallVector<Value>(captures.begin(),
                                                      captures.end()));
  domain->replaceAllUsesWith(call.getResults());
  domain.erase();
}

namespace {
struct StencilOutlineDomainsPass
    : public mlir::stencil::impl::StencilOutlineDomainsPassBase<
          StencilOutlineDomainsPass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    SymbolTable symbols(module);
    SmallVector<std::pair<DomainOp, func::FuncOp>> domains;
    module.walk([&](DomainOp domain) {
      if (!hasAffineSymbolBounds(domain))
        domains.push_back({domain, domain->getParentOfType<func::FuncOp>()});
    });
    for (auto [domain, parent] : domains)
      if (parent)
        outline(domain, parent, symbols);
  }
};
} // namespace
