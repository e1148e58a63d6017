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

/// The `dims` entry (`_` in the custom syntax) of an array dimension that
/// follows no iteration dimension: the offset is then the absolute index.
constexpr int64_t kFixedDim = -1;

/// Returns the offset of an access in iteration space: entry `k` is the
/// offset added to iteration dimension `k`. Returns failure if the access
/// does not index the array with a permutation of `rank` iteration
/// dimensions (then no such offset exists).
FailureOr<SmallVector<int64_t>> getIterationOffset(AccessOpInterface access,
                                                   unsigned rank);

/// Whether `access` indexes its array with a permutation of the `rank`
/// iteration dimensions, so that distinct points touch distinct elements.
inline bool isPermutationAccess(AccessOpInterface access, unsigned rank) {
  return succeeded(getIterationOffset(access, rank));
}

/// The iteration dimensions that `access` uses, ascending and without
/// repetitions (fixed entries use none).
SmallVector<int64_t> getUsedIterationDims(AccessOpInterface access);

} // namespace mlir::stencil

#endif // STENCIL_DIALECT_STENCILINTERFACES_H
