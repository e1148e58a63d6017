//===- SplitReductions.h - Reductions into domains of their own -*- C++ -*-===//
//
// The split that --stencil-split-reductions applies, also used by the cut
// and the gather conversion so that they only see permutation writes.
//
//===----------------------------------------------------------------------===//

#ifndef STENCIL_LIB_GATHER_SPLITREDUCTIONS_H
#define STENCIL_LIB_GATHER_SPLITREDUCTIONS_H

#include "Stencil/Dialect/StencilOps.h"

#include "mlir/IR/PatternMatch.h"

namespace mlir::stencil {

/// Moves the reductions of `domain` (accumulates whose `dims` is not a
/// permutation) into a new domain with the same bounds before it, if
/// `domain` also writes through a permutation or has results. Returns true
/// if it split.
bool splitReductionsOut(RewriterBase &rewriter, DomainOp domain);

} // namespace mlir::stencil

#endif // STENCIL_LIB_GATHER_SPLITREDUCTIONS_H
