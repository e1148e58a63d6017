//===- ReservedNames.cpp - Symbols of the generated code and runtimes -----===//
//
// This file implements the list of reserved symbol names and the check
// that keeps user symbols out of them (Stencil/Dialect/ReservedNames.h).
//
//===----------------------------------------------------------------------===//

#include "Stencil/Dialect/ReservedNames.h"
#include "Stencil/Dialect/StencilDialect.h"
#include "Stencil/Runtime/Checkpoint.h"

#include "mlir/IR/SymbolTable.h"

using namespace mlir;
using namespace mlir::stencil;

ArrayRef<ReservedName> mlir::stencil::getReservedNames() {
  static const ReservedName names[] = {
      {STENCIL_CKPT_PREFIX, true,
       "the checkpointing library (lib/Runtime/Checkpoint.c)"},
      {"stencil_dist_", true,
       "the distributed library (lib/Runtime/Distributed.c) and the "
       "messages --stencil-distribute adds"},
      {kGridName, false, "the process grid of --stencil-distribute"},
      {"stencil_gpu_", true, "the GPU library (lib/Runtime/GPURuntime.c)"},
      {"mgpu", true, "the GPU library that the GPU lowering calls"},
      {"__kmpc_", true, "the OpenMP runtime"},
      {"omp_", true, "the OpenMP runtime"},
      {"MPI_", true, "MPI"},
      {"_mlir_", true,
       "the C entry points and helpers the lowering generates"},
      {"malloc", false, "the allocator the lowering calls"},
      {"aligned_alloc", false, "the allocator the lowering calls"},
      {"free", false, "the allocator the lowering calls"},
  };
  return names;
}

const ReservedName *mlir::stencil::findReservedName(StringRef symbol) {
  for (const ReservedName &entry : getReservedNames())
    if (entry.prefix ? symbol.starts_with(entry.name) : symbol == entry.name)
      return &entry;
  return nullptr;
}

void mlir::stencil::markRuntimeSymbol(Operation *op) {
  op->setAttr(StencilDialect::RuntimeAttrHelper::getNameStr(),
              UnitAttr::get(op->getContext()));
}

bool mlir::stencil::isRuntimeSymbol(Operation *op) {
  return op->hasAttr(StencilDialect::RuntimeAttrHelper::getNameStr());
}

LogicalResult mlir::stencil::checkReservedSymbols(ModuleOp module) {
  bool clean = true;
  for (Operation &op : module.getBody()->getOperations()) {
    StringAttr name = SymbolTable::getSymbolName(&op);
    if (!name || isRuntimeSymbol(&op))
      continue;
    const ReservedName *reserved = findReservedName(name.getValue());
    if (!reserved)
      continue;
    op.emitOpError() << "is named @" << name.getValue() << ", "
                     << (reserved->prefix ? "in the namespace `" : "the name `")
                     << reserved->name << (reserved->prefix ? "*`" : "`")
                     << " reserved for " << reserved->owner
                     << ", which the generated code calls or defines: "
                        "rename it";
    clean = false;
  }
  return success(clean);
}
