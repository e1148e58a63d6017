//===- Passes.h - Distributed-memory passes -----------------------*- C++ -*-===//
//
// This file declares --stencil-distribute and --stencil-lower-halo-exchange
// and the registration hook generated from Passes.td.
//
//===----------------------------------------------------------------------===//

#ifndef STENCIL_DISTRIBUTION_PASSES_H
#define STENCIL_DISTRIBUTION_PASSES_H

#include "mlir/Pass/Pass.h"

namespace mlir {
class DLTIDialect;
namespace affine {
class AffineDialect;
} // namespace affine
namespace arith {
class ArithDialect;
} // namespace arith
namespace func {
class FuncDialect;
} // namespace func
namespace LLVM {
class LLVMDialect;
} // namespace LLVM
namespace memref {
class MemRefDialect;
} // namespace memref
namespace mpi {
class MPIDialect;
} // namespace mpi
namespace scf {
class SCFDialect;
} // namespace scf
namespace shard {
class ShardDialect;
} // namespace shard
} // namespace mlir

namespace mlir::stencil {

#define GEN_PASS_DECL
#include "Stencil/Distribution/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "Stencil/Distribution/Passes.h.inc"

} // namespace mlir::stencil

#endif // STENCIL_DISTRIBUTION_PASSES_H
