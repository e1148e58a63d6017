//===- CutEmitter.h - IR of a cut plan --------------------------*- C++ -*-===//
//
// This file declares the two emitters of --stencil-cut-shared (private to
// lib/Conversion): the cut kept as a scatter domain for
// --stencil-scatter-to-gather (CutShared.cpp), and the padded gather form
// that replaces the scatter domain (CutPadded.cpp).
//
//===----------------------------------------------------------------------===//

#ifndef STENCIL_LIB_GATHER_CUTEMITTER_H
#define STENCIL_LIB_GATHER_CUTEMITTER_H

#include "CutPlan.h"

#include "mlir/IR/PatternMatch.h"

namespace mlir::stencil {

/// Allocates one temporary per cut value of `plan`, of extents `sizes`
/// (one per dimension), 64-byte aligned for the vector loads.
SmallVector<Value> allocTemporaries(OpBuilder &builder, Location loc,
                                    const CutPlan &plan, ValueRange sizes);

/// Stores the cut values of `domain` into temporaries (allocated before it,
/// freed at the end of its block) in a fill domain before it, and makes it
/// read them back with centre gathers.
void emitCut(RewriterBase &rewriter, DomainOp domain, const CutPlan &plan);

/// Replaces `domain` by the padded gather form of `plan.padded`, guarded by
/// the domain being non-empty: zero-bordered temporaries, the domain that
/// fills them, and one gather domain per accumulated array.
void emitPaddedGather(RewriterBase &rewriter, DomainOp domain,
                      const CutPlan &plan);

} // namespace mlir::stencil

#endif // STENCIL_LIB_GATHER_CUTEMITTER_H
