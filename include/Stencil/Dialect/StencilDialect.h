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

#include <optional>

#include "Stencil/Dialect/StencilOpsDialect.h.inc"

namespace mlir::stencil {
/// Whether `memref` is an allocation marked `stencil.host_memory`: memory
/// that only host code uses, which the GPU pipeline keeps on the host.
bool isHostMemory(Value memref);

/// What `stencil.distributed_sum` says of a distributed domain with
/// results: the dimension one process takes its sums' slices along, and
/// whether each rank holds whole slices (the grid splits that dimension
/// only, so its slices' partial sums are enough) or a box of the domain
/// (whose terms the slices' owners fold).
struct DistributedSum {
  unsigned dim = 0;
  bool wholeSlices = true;
};
/// Marks `domain` with `sum`.
void setDistributedSum(Operation *domain, DistributedSum sum);
/// The mark of `domain`, if it has one.
std::optional<DistributedSum> getDistributedSum(Operation *domain);
} // namespace mlir::stencil

#endif // STENCIL_DIALECT_STENCILDIALECT_H
