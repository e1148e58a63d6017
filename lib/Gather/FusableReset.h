//===- FusableReset.h - The reset that follows a scatter domain -*- C++ -*-===//
//
// This file declares the match of the reset domain (`x_b = 0` after an
// adjoint's last read of `x_b`) that --stencil-scatter-to-gather fuses into
// the gather sweep, and that --stencil-cut-shared looks at to tell whether
// its cut keeps that reset at the centre (private to lib/Conversion).
//
//===----------------------------------------------------------------------===//

#ifndef STENCIL_LIB_GATHER_FUSABLERESET_H
#define STENCIL_LIB_GATHER_FUSABLERESET_H

#include "Stencil/Dialect/StencilOps.h"

#include <optional>

namespace mlir::stencil {

/// A reset domain that can be fused into the gather sweep before it.
struct FusableReset {
  DomainOp domain;
  Value array;
  TypedAttr value;
};

/// The reset domain that follows `scatter` if it can be fused into its
/// gather sweep: the next domain, with the same bounds, that only stores a
/// constant into an array at the centre, which `scatter` reads only at the
/// centre and never writes.
std::optional<FusableReset> matchFusableReset(DomainOp scatter);

} // namespace mlir::stencil

#endif // STENCIL_LIB_GATHER_FUSABLERESET_H
