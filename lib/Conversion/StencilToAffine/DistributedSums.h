//===- DistributedSums.h - Sums of distributed domains ----------*- C++ -*-===//
//
// The lowering of the domains --stencil-distribute marks
// `stencil.distributed_sum`: their sums go to the run-time library
// (Stencil/Runtime/Distributed.h, "Sums"), which adds every rank's part in
// the order of one process.
//
//===----------------------------------------------------------------------===//

#ifndef STENCIL_LIB_CONVERSION_STENCILTOAFFINE_DISTRIBUTEDSUMS_H
#define STENCIL_LIB_CONVERSION_STENCILTOAFFINE_DISTRIBUTEDSUMS_H

#include "Stencil/Conversion/AffineEmitter.h"
#include "Stencil/Dialect/StencilOps.h"

#include "mlir/IR/Builders.h"

namespace mlir::stencil {

/// The sums of a domain whose ranks hold whole slices: this rank's partial
/// sums of its slices are in `buffers` (`size` each, one per type of
/// `types`, freed here); every rank takes part, also with none.
SmallVector<Value> sumSlicesAcrossRanks(OpBuilder &builder, DomainOp domain,
                                        ArrayRef<Value> buffers,
                                        TypeRange types, Value size);

/// Emits the body of a domain at point `ivs`, writes included, and returns
/// the values it yields.
using PointEmitter =
    function_ref<SmallVector<Value>(OpBuilder &, ValueRange ivs)>;

/// The sums of a domain whose ranks hold boxes: every point's terms (one
/// per type of `types`, as `emitPoint` returns them) go to a buffer over
/// this rank's box (in `parallel` loops), which the run-time library folds
/// with every rank's, slice by slice along `dim`.
SmallVector<Value> sumBoxesAcrossRanks(OpBuilder &builder, DomainOp domain,
                                       const NestBounds &bounds, bool parallel,
                                       unsigned dim, TypeRange types,
                                       PointEmitter emitPoint);

} // namespace mlir::stencil

#endif // STENCIL_LIB_CONVERSION_STENCILTOAFFINE_DISTRIBUTEDSUMS_H
