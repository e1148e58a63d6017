//===- Passes.h - Stencil lowering passes -------------------------*- C++ -*-===//
//
// This file declares the lowering passes of the stencil project and the
// registration hook generated from Passes.td.
//
//===----------------------------------------------------------------------===//

#ifndef STENCIL_CONVERSION_PASSES_H
#define STENCIL_CONVERSION_PASSES_H

#include "mlir/Pass/Pass.h"

namespace mlir {
namespace affine {
class AffineDialect;
} // namespace affine
namespace arith {
class ArithDialect;
} // namespace arith
namespace memref {
class MemRefDialect;
} // namespace memref
namespace scf {
class SCFDialect;
} // namespace scf
namespace LLVM {
class LLVMDialect;
} // namespace LLVM
namespace omp {
class OpenMPDialect;
} // namespace omp
} // namespace mlir

namespace mlir::stencil {

/// How a domain that scatters runs when it is lowered as written.
enum class ScatterMode {
  /// Serial loops: the conventional (Tapenade-like) adjoint.
  Serial,
  /// Parallel loops, every scattered update an atomic add.
  Atomic,
};

/// How the scatter-to-gather conversion covers points outside the core.
enum class BoundaryStrategy {
  /// Per-dimension peeling with guarded statements: at most 2d + 1 nests.
  Compact,
  /// PerforAD's disjoint split into boxes of unguarded statements.
  Exact,
};

/// Default work limits of the scatter-to-gather conversion (pass and
/// pipeline options `max-exact-nests` and `max-gather-ops`).
constexpr uint64_t kDefaultMaxExactNests = 256;
constexpr uint64_t kDefaultMaxGatherOps = 50000;

#define GEN_PASS_DECL
#include "Stencil/Conversion/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "Stencil/Conversion/Passes.h.inc"

} // namespace mlir::stencil

#endif // STENCIL_CONVERSION_PASSES_H
