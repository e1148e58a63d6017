//===- ArrayReductions.h - Reductions into arrays ------------------*- C++ -*-===//
//
// The lowering of reductions: accumulates whose `dims` is not a permutation
// of the iteration dimensions (a selection, a repetition, a fixed element,
// a rank-0 array), so that several points update one element. They are
// summed in an order fixed by the sizes and the compiled code alone, never
// by the threads: each slice of the parallel dimension sums its points in
// lexicographic order, into partial sums of its own where other slices
// could touch the same elements, and the slices' partial sums are then
// added in index order. The plan is plain data; emission follows it.
//
//===----------------------------------------------------------------------===//

#ifndef STENCIL_CONVERSION_STENCILTOAFFINE_ARRAYREDUCTIONS_H
#define STENCIL_CONVERSION_STENCILTOAFFINE_ARRAYREDUCTIONS_H

#include "Stencil/Conversion/AffineEmitter.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/Support/raw_ostream.h"

namespace mlir::stencil {

/// Emits `body` once: in place on the host, or with `onDevice` (the GPU
/// form) in a parallel loop of two iterations of which the first works, a
/// kernel of its own (canonicalization would inline a loop of one into the
/// host code).
void emitOnce(OpBuilder &builder, Location loc, bool onDevice,
              function_ref<void(OpBuilder &)> body);

/// How each reduction of a domain is summed.
struct ArrayReductionPlan {
  struct Entry {
    /// Position of the accumulate among the domain body's ops.
    unsigned op;
    /// In place: every element it updates belongs to one slice of the
    /// parallel dimension (which it uses, at the same offset as every other
    /// accumulate into its array), so slices never share an element.
    bool direct;
    /// Fully reduced (a fixed element, a rank-0 array) and not in place:
    /// summed like a domain result and in its order, in a value carried
    /// through the slice's loops, one partial sum per slice.
    bool carried = false;
    /// The iteration dimensions that index its partial sums, besides the
    /// slice (buffered entries only): those the access uses.
    SmallVector<int64_t> used;
  };
  /// The parallel dimension whose slices sum separately (the first of
  /// non-constant-1 extent).
  int64_t sliceDim = 0;
  SmallVector<Entry> entries;

  void printJSON(raw_ostream &os) const;
};

/// Plans the reductions of `domain` over `bounds`; `parallel` is false
/// for a serial nest (then every entry is in place). `sliceDim`, if given,
/// is the slice dimension (a distributed domain's, chosen on its global
/// bounds); otherwise the first of non-constant-1 extent.
ArrayReductionPlan
planArrayReductions(DomainOp domain, const NestBounds &bounds, bool parallel,
                    std::optional<int64_t> sliceDim = std::nullopt);

/// Where the updates of a domain's reductions go instead of their arrays.
class ReductionSink {
public:
  virtual ~ReductionSink() = default;
  /// Emits the update of reduction `acc` by `value` at point `ivs` and
  /// returns true, or returns false to leave it to the plain accumulate.
  virtual bool emitUpdate(OpBuilder &builder, AccumulateOp acc, Value value,
                          ValueRange ivs) const = 0;
};

/// The partial-sum buffers of the buffered entries of a plan, by op.
class ReductionBuffers final : public ReductionSink {
public:
  /// Allocates the buffers at the builder's insertion point.
  ReductionBuffers(OpBuilder &builder, DomainOp domain,
                   const NestBounds &bounds, const ArrayReductionPlan &plan);

  /// Zeroes this slice's partial sums; `ivs` holds the outer coordinates
  /// up to the slice dimension.
  void emitZero(OpBuilder &builder, ValueRange outerIvs) const;

  /// If `acc` is buffered, adds `value` to its partial sum at point `ivs`
  /// and returns true; returns true without emitting anything for a
  /// carried one.
  bool emitUpdate(OpBuilder &builder, AccumulateOp acc, Value value,
                  ValueRange ivs) const override;

  /// Adds the partial sums into the arrays, entry after entry, slices in
  /// index order, and frees the buffers.
  void emitFold(OpBuilder &builder) const;

  /// The carried entries, in plan order.
  ArrayRef<AccumulateOp> getCarried() const { return carried; }

  /// Adds the total `sum` of carried entry `acc` into its element.
  /// `onDevice`: the GPU form (a kernel of one working iteration).
  static void emitCarriedUpdate(OpBuilder &builder, AccumulateOp acc,
                                Value sum, bool onDevice);

  /// The types of the domain's sums: its results', then the carried
  /// entries'.
  SmallVector<Type> getSumTypes() const;
  /// The terms of the domain's sums at the point whose values `mapping`
  /// holds, in the order of getSumTypes.
  SmallVector<Value> getSumTerms(IRMapping &mapping) const;
  /// Adds the carried entries' totals (after the results' in `sums`) into
  /// their elements and returns the results' sums.
  SmallVector<Value> emitCarriedUpdates(OpBuilder &builder,
                                        ArrayRef<Value> sums,
                                        bool onDevice) const;

private:
  struct Buffer {
    mutable AccumulateOp acc;
    ArrayReductionPlan::Entry entry;
    Value memref;
    /// Extent of each buffer dimension: slice (if reduced), used.
    SmallVector<Value> extents;
    /// The iteration dimension behind each buffer dimension.
    SmallVector<int64_t> iterDims;
  };
  AffineMap indexMap(const Buffer &buffer) const;

  mutable DomainOp domain;
  const NestBounds &bounds;
  int64_t sliceDim;
  SmallVector<Buffer> buffers;
  llvm::DenseMap<Operation *, unsigned> byOp;
  SmallVector<AccumulateOp> carried;
};

} // namespace mlir::stencil

#endif // STENCIL_CONVERSION_STENCILTOAFFINE_ARRAYREDUCTIONS_H
