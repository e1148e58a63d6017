//===- PolyGather.h - Gather form of nonrectangular domains ----*- C++ -*-===//
//
// This file declares the gather conversion of a nonrectangular scatter
// domain: its polyhedral plan (PolyPlan.h) from the domain's bounds and its
// writes' offsets, then the plan's pieces as affine nests (GatherEmitter).
//
//===----------------------------------------------------------------------===//

#ifndef STENCIL_LIB_GATHER_POLYGATHER_H
#define STENCIL_LIB_GATHER_POLYGATHER_H

#include "Stencil/Dialect/StencilOps.h"
#include "Stencil/Gather/Passes.h"

#include "mlir/IR/PatternMatch.h"

namespace mlir::stencil {

/// The options of --stencil-scatter-to-gather that a nonrectangular domain
/// uses.
struct PolyGatherOptions {
  BoundaryStrategy boundary = BoundaryStrategy::Compact;
  /// At most this many pieces in the exact form, else the compact one.
  uint64_t maxPieces = 0;
  /// At most this many body ops cloned into the pieces, else an error.
  uint64_t maxGatherOps = 0;
  /// Report the plan as remarks (`report-nests`).
  bool report = false;
};

/// Replaces the nonrectangular scatter domain `writes` (with `init`, a
/// fusable first store over the same domain, or null) by the pieces of its
/// gather form at the rewriter's insertion point and erases both. Reports
/// a located error and fails where the domain is beyond the polyhedral
/// plan (boundary=guarded, floor divisions of coordinates, too many body
/// ops).
LogicalResult convertNonrectangular(RewriterBase &rewriter, DomainOp writes,
                                    DomainOp init,
                                    const PolyGatherOptions &options);

} // namespace mlir::stencil

#endif // STENCIL_LIB_GATHER_POLYGATHER_H
