//===- ReportLoops.cpp - Loop nests and OpenMP ops as JSON ------*- C++ -*-===//
//
// This file implements --stencil-report-loops: one remark per function with
// its loop nests and OpenMP ops as JSON, for tools that describe generated
// code without parsing printed IR.
//
//===----------------------------------------------------------------------===//

#include "Stencil/Target/Passes.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/OpenMP/OpenMPDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "mlir/Interfaces/LoopLikeInterface.h"
#include "llvm/Support/JSON.h"

namespace mlir::stencil {
#define GEN_PASS_DEF_STENCILREPORTLOOPSPASS
#include "Stencil/Target/Passes.h.inc"
} // namespace mlir::stencil

using namespace mlir;

/// True if `op` lies in the else region of an `affine.if` or `scf.if`
/// inside `func`.
static bool inElseRegion(Operation *op, Operation *func) {
  for (Region *region = op->getParentRegion();
       region && region->getParentOp() != func;
       region = region->getParentOp()->getParentRegion())
    if (isa<affine::AffineIfOp, scf::IfOp>(region->getParentOp()) &&
        region->getRegionNumber() == 1)
      return true;
  return false;
}

/// The loop report of `func` as JSON.
static llvm::json::Object reportLoops(FunctionOpInterface func) {
  int64_t nests = 0, nestsInElse = 0, parallel = 0, wsloops = 0;
  func->walk([&](Operation *op) {
    if (isa<omp::ParallelOp>(op))
      ++parallel;
    if (isa<omp::WsloopOp>(op))
      ++wsloops;
    if (!isa<LoopLikeOpInterface>(op) ||
        op->getParentOfType<LoopLikeOpInterface>())
      return;
    ++nests;
    if (inElseRegion(op, func))
      ++nestsInElse;
  });
  return llvm::json::Object{{"function", func.getName()},
                            {"loop_nests", nests},
                            {"loop_nests_in_else", nestsInElse},
                            {"omp_parallel", parallel},
                            {"omp_wsloop", wsloops}};
}

namespace {
struct StencilReportLoopsPass
    : public mlir::stencil::impl::StencilReportLoopsPassBase<
          StencilReportLoopsPass> {
  using Base::Base;

  void runOnOperation() override {
    getOperation().walk([&](FunctionOpInterface func) {
      if (func.isExternal())
        return;
      std::string json;
      llvm::raw_string_ostream os(json);
      os << llvm::json::Value(reportLoops(func));
      func->emitRemark() << "loop report: " << json;
    });
    markAllAnalysesPreserved();
  }
};
} // namespace
