//===- OMPPragmas.cpp - OpenMP pragmas before parallel loops --------------===//
//
// This file implements --stencil-omp-pragmas: `#pragma omp parallel for`
// right before each outermost scf.parallel without results, which
// --scf-parallel-for-to-nested-fors then turns into the C loop the pragma
// applies to.
//
//===----------------------------------------------------------------------===//

#include "Stencil/Conversion/Passes.h"

#include "mlir/Dialect/EmitC/IR/EmitC.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/BuiltinOps.h"

namespace mlir::stencil {
#define GEN_PASS_DEF_STENCILOMPPRAGMASPASS
#include "Stencil/Conversion/Passes.h.inc"
} // namespace mlir::stencil

using namespace mlir;
using namespace mlir::stencil;

namespace {
struct StencilOMPPragmasPass
    : public stencil::impl::StencilOMPPragmasPassBase<StencilOMPPragmasPass> {
  using Base::Base;

  void runOnOperation() override {
    getOperation()->walk([](scf::ParallelOp loop) {
      if (loop->getParentOfType<scf::ParallelOp>() || loop.getNumResults())
        return;
      std::string pragma = "#pragma omp parallel for";
      if (unsigned rank = loop.getNumLoops(); rank > 1)
        pragma += " collapse(" + std::to_string(rank) + ")";
      OpBuilder builder(loop);
      auto verbatim = emitc::VerbatimOp::create(builder, loop.getLoc(), pragma);
      verbatim->setAttr(kOMPPragmaAttrName, builder.getUnitAttr());
    });
  }
};
} // namespace
