//===- StencilDialect.h - Stencil dialect -------------------------*- C++ -*-===//
//
// This file declares the `stencil` dialect class.
//
//===----------------------------------------------------------------------===//

#ifndef STENCIL_DIALECT_STENCILDIALECT_H
#define STENCIL_DIALECT_STENCILDIALECT_H

#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/Dialect.h"
#include "mlir/IR/Operation.h"

#include "Stencil/Dialect/StencilOpsDialect.h.inc"

namespace mlir::stencil {
/// Whether `memref` is an allocation marked `stencil.host_memory`: memory
/// that only host code uses, which the GPU pipeline keeps on the host.
bool isHostMemory(Value memref);
} // namespace mlir::stencil

#endif // STENCIL_DIALECT_STENCILDIALECT_H
