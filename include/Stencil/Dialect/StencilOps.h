//===- StencilOps.h - Stencil dialect ops -------------------------*- C++ -*-===//
//
// This file declares the ops of the `stencil` dialect.
//
//===----------------------------------------------------------------------===//

#ifndef STENCIL_DIALECT_STENCILOPS_H
#define STENCIL_DIALECT_STENCILOPS_H

#include "Stencil/Dialect/StencilDialect.h"
#include "Stencil/Dialect/StencilInterfaces.h"

#include "mlir/Bytecode/BytecodeOpInterface.h"
#include "mlir/IR/AffineMap.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/OpDefinition.h"
#include "mlir/IR/OpImplementation.h"
#include "mlir/Interfaces/ControlFlowInterfaces.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

namespace mlir::stencil {
/// The largest magnitude of an access offset and of a constant in a domain
/// bound (2^40). Within it, every index the passes derive (shifted offsets,
/// offset spans, bounds plus offsets) fits in int64, and the exact 128-bit
/// emptiness test of a domain cannot overflow.
constexpr int64_t kMaxIndexConstant = int64_t(1) << 40;
} // namespace mlir::stencil

#define GET_OP_CLASSES
#include "Stencil/Dialect/StencilOps.h.inc"

namespace mlir {
class RewriterBase;
} // namespace mlir

namespace mlir::stencil {
/// Whether `op` writes an array other than as a reduction: a store, or an
/// accumulate whose `dims` are a permutation.
bool isPermutationWrite(Operation &op);

/// Erases the ops of `domain`'s body that nothing uses and that only read.
void eraseDeadBodyOps(RewriterBase &rewriter, DomainOp domain);

/// Splits the sums off a domain that writes: a copy computes the results
/// and the reductions (accumulates whose `dims` are not a permutation), and
/// `domain` is replaced by a domain with the other writes, no results and
/// no reductions, which is returned (`domain` itself when it has neither
/// results nor reductions). The scatter-to-gather conversion converts the
/// writes; a distributed function clips them and the sums differently.
DomainOp splitDomainResults(RewriterBase &rewriter, DomainOp domain);
} // namespace mlir::stencil

#endif // STENCIL_DIALECT_STENCILOPS_H
