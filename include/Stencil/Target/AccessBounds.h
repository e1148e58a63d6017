//===- AccessBounds.h - What a function accesses of its arrays ----*- C++ -*-===//
//
// This file declares the plan of the index ranges a stencil function reads
// and writes of each array argument, as affine expressions of its integer
// arguments. Callers that cannot trust their caller (the Python package)
// evaluate it before a call, so that an out-of-bounds access is refused
// instead of made. It is computed on the input IR, before any lowering, and
// written into the C interface's JSON (docs/ABI.md, "Bounds").
//
//===----------------------------------------------------------------------===//

#ifndef STENCIL_TARGET_ACCESSBOUNDS_H
#define STENCIL_TARGET_ACCESSBOUNDS_H

#include "mlir/IR/BuiltinOps.h"
#include "mlir/Support/LLVM.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/Support/JSON.h"

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace mlir::stencil {

/// `constant + sum of coefficient * argument`, over integer (index)
/// arguments of the function, by argument number.
struct IndexExpr {
  int64_t constant = 0;
  SmallVector<std::pair<unsigned, int64_t>> terms;

  static IndexExpr ofConstant(int64_t c) { return IndexExpr{c, {}}; }
  static IndexExpr ofArgument(unsigned argument);
  /// `a + scale * b`, with terms merged and zero terms dropped; nullopt on
  /// overflow.
  static std::optional<IndexExpr> combine(const IndexExpr &a, int64_t scale,
                                          const IndexExpr &b);
  llvm::json::Value toJSON() const;
};

/// The index range [lo, hi] (inclusive) of one dimension of one array that
/// an access may touch, and when it happens: only if `lb < ub` for every
/// pair of `nonEmpty` (the loops and domains around it).
struct AccessBound {
  unsigned argument;
  unsigned dim;
  IndexExpr lo, hi;
  SmallVector<std::pair<IndexExpr, IndexExpr>> nonEmpty;
  bool writes;
};

/// An integer value the function computes (an `arith` result, a loop's
/// next induction value, a loop's span `ub - lb`), somewhere in [lo, hi]
/// when every pair of `nonEmpty` is non-empty. The compiled arithmetic
/// wraps at `bits`: it equals the plan's exact arithmetic only when every
/// such value fits a signed `bits`-bit integer, which a caller checks.
struct ValueFit {
  IndexExpr lo, hi;
  unsigned bits;
  SmallVector<std::pair<IndexExpr, IndexExpr>> nonEmpty;
  llvm::json::Value toJSON() const;
};

/// What one function accesses of its array arguments.
struct FunctionAccessBounds {
  std::vector<AccessBound> bounds;
  /// The values whose wrapping would make the bounds wrong.
  std::vector<ValueFit> fits;
  /// Groups of array arguments that must have equal shapes (arrays a time
  /// loop rotates take each other's places).
  SmallVector<SmallVector<unsigned>> sameShape;
  /// Set when some access could not be bounded: why, and where.
  std::string unsupported;

  llvm::json::Value toJSON() const;
};

/// Plans the access bounds of every function with a body in `module`, by
/// symbol. Emits nothing: a function the plan cannot bound gets
/// `unsupported` set.
llvm::StringMap<FunctionAccessBounds> planAccessBounds(ModuleOp module);

} // namespace mlir::stencil

#endif // STENCIL_TARGET_ACCESSBOUNDS_H
