//===- IndexOffset.h - Accesses at a loop's index plus a constant -*- C++ -*-===//
//
// How the loop passes on lowered nests (the ring cut, the overlap of halo
// exchanges) read an affine access: the constant by which one of its
// indices follows a loop's induction variable.
//
//===----------------------------------------------------------------------===//

#ifndef STENCIL_SUPPORT_INDEXOFFSET_H
#define STENCIL_SUPPORT_INDEXOFFSET_H

#include "mlir/IR/AffineExpr.h"
#include "mlir/IR/AffineMap.h"
#include "mlir/IR/Value.h"
#include "llvm/ADT/STLExtras.h"

#include <optional>

namespace mlir::stencil {

/// The constant `c` with result `result` of `map` = `iv` + c, where `iv`
/// is one of `operands` (once, as a dimension); nullopt otherwise.
inline std::optional<int64_t> getIndexOffset(AffineMap map,
                                             ValueRange operands,
                                             unsigned result, Value iv) {
  if (result >= map.getNumResults() || llvm::count(operands, iv) != 1)
    return std::nullopt;
  unsigned index = llvm::find(operands, iv) - operands.begin();
  if (index >= map.getNumDims())
    return std::nullopt;
  AffineExpr rest =
      map.getResult(result) - getAffineDimExpr(index, map.getContext());
  rest = simplifyAffineExpr(rest, map.getNumDims(), map.getNumSymbols());
  if (auto c = dyn_cast<AffineConstantExpr>(rest))
    return c.getValue();
  return std::nullopt;
}

} // namespace mlir::stencil

#endif // STENCIL_SUPPORT_INDEXOFFSET_H
