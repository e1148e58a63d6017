//===- StencilInterfaces.cpp - Stencil op interfaces ------------*- C++ -*-===//
//
// This file implements the access op interface and its helpers.
//
//===----------------------------------------------------------------------===//

#include "Stencil/Dialect/StencilInterfaces.h"

using namespace mlir;
using namespace mlir::stencil;

#include "Stencil/Dialect/StencilInterfaces.cpp.inc"

FailureOr<SmallVector<int64_t>>
mlir::stencil::getIterationOffset(AccessOpInterface access, unsigned rank) {
  SmallVector<int64_t> dims = access.getIterationDims();
  SmallVector<int64_t> arrayOffset = access.getArrayOffset();
  if (dims.size() != rank)
    return failure();
  SmallVector<int64_t> offset(rank, 0);
  SmallVector<bool> seen(rank, false);
  for (auto [dim, off] : llvm::zip_equal(dims, arrayOffset)) {
    if (dim < 0 || dim >= static_cast<int64_t>(rank) || seen[dim])
      return failure();
    seen[dim] = true;
    offset[dim] = off;
  }
  return offset;
}

SmallVector<int64_t>
mlir::stencil::getUsedIterationDims(AccessOpInterface access) {
  SmallVector<int64_t> used;
  for (int64_t dim : access.getIterationDims())
    if (dim != kFixedDim && !llvm::is_contained(used, dim))
      used.push_back(dim);
  llvm::sort(used);
  return used;
}
