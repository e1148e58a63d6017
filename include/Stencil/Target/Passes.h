//===- Passes.h - Stencil target and ABI passes -------------------*- C++ -*-===//
//
// This file declares the passes that follow the conversions: the OpenMP and
// LLVM clean-ups, the C ABI passes and the checks at the end of the
// pipeline, and the registration hook generated from Passes.td.
//
//===----------------------------------------------------------------------===//

#ifndef STENCIL_TARGET_PASSES_H
#define STENCIL_TARGET_PASSES_H

#include "mlir/Pass/Pass.h"

namespace mlir {
namespace memref {
class MemRefDialect;
} // namespace memref
namespace LLVM {
class LLVMDialect;
} // namespace LLVM
namespace arith {
class ArithDialect;
} // namespace arith
namespace scf {
class SCFDialect;
} // namespace scf
namespace omp {
class OpenMPDialect;
} // namespace omp
} // namespace mlir

namespace mlir::stencil {

#define GEN_PASS_DECL
#include "Stencil/Target/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "Stencil/Target/Passes.h.inc"

} // namespace mlir::stencil

#endif // STENCIL_TARGET_PASSES_H
