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

#include "ArrayReductions.h"
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

/// Emits what follows the nest of a domain whose ranks hold boxes, given
/// the run-time array of this rank's box (its lower corner and extents).
using BoxEmitter = function_ref<void(OpBuilder &, Value box)>;

/// The sums of a domain whose ranks hold boxes: every point's terms (one
/// per type of `types`, as `emitPoint` returns them) go to a buffer over
/// this rank's box (in `parallel` loops), which the run-time library folds
/// with every rank's, slice by slice along `dim`. `afterNest` runs before
/// the sums are taken.
SmallVector<Value> sumBoxesAcrossRanks(OpBuilder &builder, DomainOp domain,
                                       const NestBounds &bounds, bool parallel,
                                       unsigned dim, TypeRange types,
                                       PointEmitter emitPoint,
                                       BoxEmitter afterNest);

/// The reductions of a distributed domain through some of its dimensions
/// (`vb[k] += t`; the plan's entries that are not carried): every point's
/// term goes to a buffer over this rank's box; after the nest the run-time
/// library folds every rank's terms into one partial sum per slice and
/// kept coordinate, in the order of one process, and every rank adds them
/// into its copy of the array (ArrayReductions.h gives the order).
class DistributedReductions final : public ReductionSink {
public:
  /// Checks that the entries are supported: one in place must use the
  /// slice dimension, and the accumulates into its array must all be in
  /// place at the same element (their terms are then interleaved in body
  /// order, as one process adds them).
  static LogicalResult check(DomainOp domain, const ArrayReductionPlan &plan);

  /// Allocates the terms' buffers; `next` takes the updates of the other
  /// reductions.
  DistributedReductions(OpBuilder &builder, DomainOp domain,
                        const NestBounds &bounds,
                        const ArrayReductionPlan &plan,
                        const ReductionSink &next);

  bool emitUpdate(OpBuilder &builder, AccumulateOp acc, Value value,
                  ValueRange ivs) const override;

  /// After the nest: adds every rank's terms into the arrays and frees the
  /// buffers; `box` is the run-time array of this rank's box.
  void emitFold(OpBuilder &builder, Value box) const;

private:
  /// A buffered reduction, or the accumulates in place into one array:
  /// their terms go to `terms` over the box and, for several in place, an
  /// innermost dimension of one position per accumulate.
  struct Entry {
    mutable SmallVector<AccumulateOp> accs;
    bool direct;
    SmallVector<int64_t> used;
    Value terms;
  };
  Value emitEntryBox(OpBuilder &builder, const Entry &entry, Value box) const;
  void emitEntryFold(OpBuilder &builder, const Entry &entry, Value box,
                     ArrayRef<Value> lower, ArrayRef<Value> extent) const;

  mutable DomainOp domain;
  const NestBounds &bounds;
  int64_t dim;
  const ReductionSink &next;
  SmallVector<Entry> entries;
};

} // namespace mlir::stencil

#endif // STENCIL_LIB_CONVERSION_STENCILTOAFFINE_DISTRIBUTEDSUMS_H
