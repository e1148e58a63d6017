//===- StencilToAffine.h - Lower stencil domains to affine --------*- C++ -*-===//
//
// This file declares the lowering of stencil domains to affine loop nests,
// as a function and as patterns for embedding compilers.
//
//===----------------------------------------------------------------------===//

#ifndef STENCIL_CONVERSION_STENCILTOAFFINE_H
#define STENCIL_CONVERSION_STENCILTOAFFINE_H

#include "Stencil/Conversion/Passes.h"
#include "Stencil/Dialect/StencilOps.h"

#include "mlir/IR/PatternMatch.h"

namespace mlir::stencil {

/// Replaces `domain` by an affine loop nest (see --convert-stencil-to-affine).
/// Fails with a diagnostic on `domain` if its bounds are not valid affine
/// symbols where it stands, or if it scatters and `scatter` is Gather. With
/// `allParallel`, a domain without results that runs in parallel becomes
/// one `affine.parallel` over all its dimensions (the GPU form).
LogicalResult lowerDomainToAffine(RewriterBase &rewriter, DomainOp domain,
                                  ScatterLowering scatter,
                                  bool allParallel = false);

/// Adds a pattern that lowers every stencil.domain to affine loops.
void populateStencilToAffinePatterns(RewritePatternSet &patterns,
                                     ScatterLowering scatter);

} // namespace mlir::stencil

#endif // STENCIL_CONVERSION_STENCILTOAFFINE_H
