//===- DomainBounds.h - Bound maps of stencil.domain ------------*- C++ -*-===//
//
// A helper shared by the ops (StencilOps.cpp) and their custom assembly
// (DomainSyntax.cpp): the results of a bound map that one dimension takes.
//
//===----------------------------------------------------------------------===//

#ifndef STENCIL_LIB_DIALECT_DOMAINBOUNDS_H
#define STENCIL_LIB_DIALECT_DOMAINBOUNDS_H

#include "mlir/IR/AffineMap.h"

#include <optional>

namespace mlir::stencil {

/// The results of `map` that dimension `k` takes: `counts[k]` of them after
/// those of the dimensions before it (one each without counts).
ArrayRef<AffineExpr> getBoundGroup(AffineMap map,
                                   std::optional<ArrayRef<int32_t>> counts,
                                   unsigned k);

} // namespace mlir::stencil

#endif // STENCIL_LIB_DIALECT_DOMAINBOUNDS_H
