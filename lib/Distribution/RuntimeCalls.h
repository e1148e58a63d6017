//===- RuntimeCalls.h - Declarations of the distributed run-time -*- C++ -*-===//
//
// The one place the distribution's passes declare the functions of
// Stencil/Runtime/Distributed.h that compiled kernels call, with the
// signatures that header gives them (pointers as !llvm.ptr, int64_t as
// i64), and the process grid's spec string they take.
//
//===----------------------------------------------------------------------===//

#ifndef STENCIL_LIB_DISTRIBUTION_RUNTIMECALLS_H
#define STENCIL_LIB_DISTRIBUTION_RUNTIMECALLS_H

#include "Stencil/Support/Declare.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"

#include <string>

namespace mlir::stencil::dist {

enum class Call {
  CheckGrid,   // (where, spec)
  GridExtent,  // (spec, axis) -> i64
  GridCoord,   // (spec, axis) -> i64
  Neighbor,    // (spec, axis, direction) -> i64
  SendRecv,    // (send, dest, recv, source, bytes, tag)
  ISendRecv,   // (send, dest, recv, source, bytes, tag) -> i64 handle
  Wait,        // (handle)
  Progress,    // ()
  BlockStart,  // (n, parts, coord) -> i64
  BlockCount,  // (n, parts, coord) -> i64
  CheckExtent, // (where, argument, dim, actual, expected)
  CheckBlock,  // (where, spec, dim, count, width)
};

/// The declaration of `call` in `module` (added if missing).
func::FuncOp declare(ModuleOp module, Call call);

/// The grid's spec as Distributed.h reads it: extents separated by
/// commas, `?` for those chosen at run time ("?,1,1").
std::string gridSpec(ArrayRef<int64_t> shape);

/// The array `view` is a view of (through view-like ops and
/// memref.extract_strided_metadata).
Value getArrayRoot(Value view);

/// The name of a distributed function's argument (and `stencil.extra_args`
/// entry) that holds the global extent of dimension `dim`.
inline std::string globalExtentName(unsigned dim) {
  return "global_extent_" + std::to_string(dim);
}

/// The name of the global that holds the spec of grid `grid`.
inline std::string specGlobalName(StringRef grid) {
  return ("stencil_dist_grid_" + grid).str();
}

/// The address of a NUL-terminated `text` in the internal global `name` of
/// the module of the insertion point (created once, at the first call).
Value globalString(OpBuilder &b, Location loc, StringRef name,
                   StringRef text);

} // namespace mlir::stencil::dist

#endif // STENCIL_LIB_DISTRIBUTION_RUNTIMECALLS_H
