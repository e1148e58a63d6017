//===- StencilInterfaces.h - Stencil op interfaces ----------------*- C++ -*-===//
//
// This file declares the access op interface and helpers built on it.
//
//===----------------------------------------------------------------------===//

#ifndef STENCIL_DIALECT_STENCILINTERFACES_H
#define STENCIL_DIALECT_STENCILINTERFACES_H

#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/OpDefinition.h"

#include "Stencil/Dialect/StencilInterfaces.h.inc"

namespace mlir::stencil {

/// Returns the offset of an access in iteration space: entry `k` is the
/// offset added to iteration dimension `k`. Returns failure if the access
/// does not index the array with a permutation of `rank` iteration
/// dimensions (then no such offset exists).
FailureOr<SmallVector<int64_t>> getIterationOffset(AccessOpInterface access,
                                                   unsigned rank);

} // namespace mlir::stencil

#endif // STENCIL_DIALECT_STENCILINTERFACES_H
