//===- GatherEmitter.h - IR of a gather plan --------------------*- C++ -*-===//
//
// This file declares the emitter of --stencil-scatter-to-gather (private to
// lib/Conversion): it builds the nests a GatherPlan lists, with the fused
// reset of the output adjoint. GatherEmitter.cpp builds the nests,
// GatherReset.cpp the blocked core and the reset sweeps.
//
//===----------------------------------------------------------------------===//

#ifndef STENCIL_LIB_GATHER_GATHEREMITTER_H
#define STENCIL_LIB_GATHER_GATHEREMITTER_H

#include "Stencil/Conversion/AffineEmitter.h"
#include "GatherPlan.h"
#include "PolyPlan.h"
#include "Stencil/Dialect/StencilOps.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/IR/IntegerSet.h"
#include "llvm/ADT/DenseSet.h"

namespace mlir::stencil {

/// One write of the domain body, seen as a statement `out[p + o] op= v(p)`
/// with iteration offset `o` (zero for stores and centre accumulates).
struct Statement {
  /// The domain whose body computes the value (the scatter domain, or the
  /// fused first store's domain).
  DomainOp source;
  Operation *op;
  Value array;
  Value value;
  SmallVector<int64_t> offset;
  bool isStore;
};

/// Builds the IR of a GatherPlan for one scatter domain: the nests the plan
/// lists, each evaluating its statements at shifted points.
class GatherEmitter {
public:
  /// With `init` (a domain with the same bounds that only stores at the
  /// centre, fused as the first contribution), its store is the first
  /// statement.
  explicit GatherEmitter(DomainOp domain, DomainOp init = {});

  /// Appends the single store of `reset` (a domain with the same bounds
  /// that only stores a constant into `array` at the centre) as the last
  /// statement, where every statement that reads `array` reads it at
  /// iteration offset zero: each point then resets its own element after
  /// its last read, in every nest, with no lag and no blocks. Returns false
  /// (and appends nothing) otherwise.
  bool appendPointReset(DomainOp reset, Value array);

  /// The iteration offsets of the writes, in program order: the planner's
  /// input.
  SmallVector<SmallVector<int64_t>> getOffsets() const;
  /// Returns the number of body ops that `nests` nests evaluating every
  /// statement would clone: each statement recomputes its slice of the body.
  uint64_t estimateClonedOps(uint64_t nests) const;

  /// Emits the nests of `plan` at the builder's insertion point. With a
  /// fused reset in the plan, they also store `resetValue` into
  /// `resetArray` over the domain.
  void emit(OpBuilder &builder, const GatherPlan &plan, Value resetArray = {},
            TypedAttr resetValue = {});
  /// Emits the pieces of the polyhedral plan of a nonrectangular domain at
  /// the builder's insertion point (PolyGather.cpp).
  void emitPoly(OpBuilder &builder, const PolyGatherPlan &plan);

private:
  /// The compact nests of a plan, by role.
  struct CompactNests {
    const GatherNest *core = nullptr;
    SmallVector<const GatherNest *> lower, upper;
  };
  CompactNests classify(ArrayRef<GatherNest> nests) const;

  /// Per-dimension lower/upper bound of the statement `s`'s valid output
  /// points: `[lower_k + o_k, upper_k + o_k)`.
  AffineExpr validLower(unsigned s, unsigned k) const {
    return bounds.lowerExpr(k) + stmts[s].offset[k];
  }
  AffineExpr validUpper(unsigned s, unsigned k) const {
    return bounds.upperExpr(k) + stmts[s].offset[k];
  }
  /// The affine bounds of `nest`'s dimensions from `nest.depth` on (all of
  /// them when `onlyDim` is unset; else only that one).
  NestBounds getNestBounds(const GatherNest &nest,
                           std::optional<unsigned> onlyDim = {}) const;

  void emitCompact(OpBuilder &builder, ArrayRef<GatherNest> nests);
  void emitExact(OpBuilder &builder, const GatherPlan &plan);

  /// Emits a nest over `box`, which spans the dimensions after the fixed
  /// coordinates `prefix` (all of them when `prefix` is empty), running
  /// statements `subset`. Statements are guarded by their validity in
  /// dimensions `>= firstGuarded` (none if `firstGuarded == rank`); with
  /// `split`, a guarded nest runs as emitSplitNest does.
  void emitNest(OpBuilder &builder, const NestBounds &box,
                ArrayRef<unsigned> subset, unsigned firstGuarded, bool split,
                ValueRange prefix = {}, bool parallel = true);
  /// A guarded nest of two or more dimensions as one loop over its outer
  /// dimension and, inside it, one unguarded nest per statement over the
  /// rest of `box` clipped to where the statement is valid (`split-slabs`).
  void emitSplitNest(OpBuilder &builder, const NestBounds &box,
                     ArrayRef<unsigned> subset, unsigned firstGuarded,
                     ValueRange prefix, bool parallel);
  /// The statements of a split nest at the fixed leading coordinates
  /// `head` (the last one the nest's outer dimension): one unguarded nest
  /// per statement over `rest` clipped to where it is valid.
  void emitSplitSlice(OpBuilder &builder, ValueRange head,
                      ArrayRef<unsigned> subset, unsigned firstGuarded,
                      const NestBounds &rest);
  /// An affine.if that holds where `q` lies in `[max(lower), min(upper))`,
  /// the bounds over the domain's bound operands.
  affine::AffineIfOp buildRangeIf(OpBuilder &builder, Value q,
                                  ArrayRef<AffineExpr> lower,
                                  ArrayRef<AffineExpr> upper);
  /// Moves the insertion point into an affine.if that holds where plane `q`
  /// lies in `nest`'s range of dimension 0.
  void enterRange(OpBuilder &builder, Value q, const GatherNest &nest);
  /// Plane `q` of dimension 0's slab `nest` (if any), where it lies in it.
  void emitSlabPlane(OpBuilder &builder, Value q, const GatherNest *nest);
  /// Plane `q` where it is one of dimension 0's lower (or `upper`) points.
  void emitPointPlanes(OpBuilder &builder, Value q, bool upper,
                       const CompactNests &nests);
  /// Plane `q` of dimension 0's lower (or `upper`) slab: its points inside
  /// emitIfWide's first branch where dimension 0 is peeled, else the slab.
  void emitSlabOrPoints(OpBuilder &builder, Value q, bool upper,
                        const CompactNests &nests);
  /// Dimension 0's lower (or `upper`) slab as a loop over its planes
  /// (parallel or not), each as emitSlabOrPoints runs it.
  void emitDim0Slab(OpBuilder &builder, const CompactNests &nests, bool upper,
                    bool parallel);
  /// The compact form's lower slab, core and upper slab of dimension 0 as
  /// one parallel loop (GatherPlan::outerInOneLoop).
  void emitOuterInOneLoop(OpBuilder &builder, const CompactNests &nests);
  /// `box` (dimensions firstDim..) intersected in dimensions >= firstGuarded
  /// with statement `s`'s valid output points.
  NestBounds clipToValid(const NestBounds &box, unsigned s, unsigned firstDim,
                         unsigned firstGuarded) const;
  /// Emits dimensions `k..rank-1` of the compact form at fixed coordinates
  /// `prefix` of the dimensions before `k`, where every statement of
  /// `subset` is valid: the lower slab of dimension `k` (or its points),
  /// its core (recursing into `k+1`) and the upper slab (or its points),
  /// each over the statements of `subset` valid there. Only the outermost
  /// loop may be parallel.
  void emitPeeled(OpBuilder &builder, unsigned k, SmallVector<Value> &prefix,
                  bool parallel, const CompactNests &nests,
                  ArrayRef<unsigned> subset);
  /// The slab `nest` (if any) at fixed coordinates `prefix`, over its
  /// statements that are in `subset`; guarded with sums where
  /// sumsLikePoints.
  void emitSlab(OpBuilder &builder, const GatherNest *nest, ValueRange prefix,
                bool parallel, ArrayRef<unsigned> subset);
  /// The core loop of dimension `k` over `nests.core`'s range, recursing
  /// into dimension k + 1 in its body.
  void emitCoreLoop(OpBuilder &builder, unsigned k, SmallVector<Value> &prefix,
                    bool parallel, const CompactNests &nests,
                    ArrayRef<unsigned> subset);
  /// Dimension `k` (>= 1) with its slabs as the plan's points (its extent
  /// is at least their span): the points around the core loop, each
  /// recursing into k + 1 over the statements valid there.
  void emitPeeledPoints(OpBuilder &builder, unsigned k,
                        SmallVector<Value> &prefix, bool parallel,
                        const CompactNests &nests, ArrayRef<unsigned> subset);
  /// Point `point` of dimension `k`, at coordinate `at`: dimensions k + 1..
  /// over the statements of `subset` valid there.
  void emitPoint(OpBuilder &builder, unsigned k, const PeeledPoint &point,
                 Value at, SmallVector<Value> &prefix, bool parallel,
                 const CompactNests &nests, ArrayRef<unsigned> subset);
  /// Whether slab `nest` belongs to a dimension whose slabs run as points
  /// where the extents allow: then, where they do not, it runs guarded
  /// with the points' sums (emitGuardedSums), not split.
  bool sumsLikePoints(const GatherNest &nest) const;
  /// An affine.if (with an else region) that holds where the extent of
  /// each dimension k of `spans` is at least its span.
  affine::AffineIfOp
  buildExtentIf(OpBuilder &builder,
                ArrayRef<std::pair<unsigned, int64_t>> spans);
  /// An affine.if on whether every peeled dimension's extent is at least
  /// the span of its points, with `emitPart` emitting each branch: with
  /// pointsActive set in the first, unset in the second.
  void emitIfWide(OpBuilder &builder,
                  function_ref<void(OpBuilder &)> emitPart);
  /// The core loop of dimension 0 with the reset fused (GatherPlan.h,
  /// FusedReset): parallel blocks, each running its iterations in order.
  /// With `slabsInBlocks`, the first block starts with dimension 0's lower
  /// slab and the last one ends with its upper slab.
  void emitBlockedCore(OpBuilder &builder, SmallVector<Value> &prefix,
                       const CompactNests &nests, bool slabsInBlocks);
  /// In block `block` of the blocked core: runs dimension 0's lower slab
  /// (if any) whole in the first block or, with `last`, its upper slab in
  /// the last one (emitDim0Slab).
  void emitSlabInBlock(OpBuilder &builder, Value block,
                       const CompactNests &nests, bool last);
  /// An affine.if that holds in block 0 of the blocked core or, with
  /// `last`, in its last block.
  affine::AffineIfOp buildIfBlock(OpBuilder &builder, Value block, bool last);
  /// The second sweep of the fused reset: the planes the blocks left. With
  /// `tailInLastBlock`, the last block of that sweep also resets the
  /// domain's last planes (one parallel loop instead of two).
  void emitResetRemainder(OpBuilder &builder, bool tailInLastBlock);
  /// Builds a loop over `[max(from), min(to))` of dimension 0 whose bounds
  /// use the block index `block` (dimension d0 of the expressions).
  affine::AffineForOp buildBlockLoop(OpBuilder &builder, Value block,
                                     ArrayRef<AffineExpr> from,
                                     ArrayRef<AffineExpr> to);
  /// The first iteration of block `d0` of the core of dimension 0, and the
  /// core's end.
  AffineExpr blockStart() const;
  AffineExpr coreEnd() const;
  /// The block indices: `[0, ceil(core extent / block))`.
  NestBounds getBlockRange() const;
  /// With a balanced reset at the top level of a function: computes the
  /// block size and count at the builder's insertion point (blockSize,
  /// blockCount), from the core's extent and omp_get_max_threads(). With
  /// outerInOneLoop there is at least one block, which runs the slabs when
  /// the core is empty.
  void emitBalancedBlocks(OpBuilder &builder);
  /// The symbols of the block expressions: the domain's bound operands,
  /// then blockSize and blockCount when they are set.
  SmallVector<Value> getBlockSymbols() const;
  /// The block size as an expression over getBlockSymbols().
  AffineExpr blockSizeExpr() const;
  /// Stores the reset value into plane `p` of dimension 0 of the reset
  /// array, over the domain in the other dimensions.
  void emitResetPlane(OpBuilder &builder, Value p);
  /// Stores the reset value at the fixed leading coordinates `fixed` of the
  /// reset array, over `rest` in the dimensions after them.
  void emitResetNest(OpBuilder &builder, ValueRange fixed,
                     const NestBounds &rest);
  /// The domain's bounds in dimensions `from` .. rank-1.
  NestBounds getTrailingBounds(unsigned from) const;
  /// With row resets: resets row `j - rowOffset` of plane `rowResetPlane`
  /// after core row `j` of dimension 1.
  void emitResetRowBehind(OpBuilder &builder, Value j);
  /// With row resets: the rows of plane `p` that no core row of dimension 1
  /// reset (below and above the core's rows shifted by -rowOffset).
  void emitResetRowsLeft(OpBuilder &builder, Value p, const GatherNest &core);
  /// The constraints under which statement `s` is valid at a point, in
  /// dimensions >= firstGuarded, over (point, bound operands).
  IntegerSet getValidSet(unsigned s, unsigned firstGuarded) const;
  /// The points where statement `s` is valid in a nonrectangular domain:
  /// those whose shift by -o_s lies in it, over (point, bound operands).
  IntegerSet getShiftedDomainSet(unsigned s) const;
  SmallVector<Value> getGuardOperands(ValueRange ivs) const;
  /// The constraints under which every statement of `subset` is valid, in
  /// dimensions >= firstGuarded: the core of the guarded form's nest.
  IntegerSet getCoreSet(ArrayRef<unsigned> subset,
                        unsigned firstGuarded) const;
  /// The body of the guarded form's nest: per array, the valid statements'
  /// values summed in program order from the first valid one, then one
  /// update where any was valid.
  void emitGuardedSums(OpBuilder &builder, ValueRange ivs,
                       ArrayRef<unsigned> subset, unsigned firstGuarded);
  /// Statement `s` under its validity guard, added to the running `sum`
  /// (`has`: whether any term is in it): the new sum and flag.
  std::pair<Value, Value> emitGuardedTerm(OpBuilder &builder, ValueRange ivs,
                                          unsigned s, unsigned firstGuarded,
                                          Value sum, Value has);
  /// The body of an unguarded nest: all statements evaluated first, then one
  /// update per array.
  void emitFusedBody(OpBuilder &builder, ValueRange ivs,
                     ArrayRef<unsigned> subset);
  /// Evaluates statement `s` at output point `ivs` (the body at ivs - o)
  /// with `mapping` caching the values of that shift.
  Value evaluate(OpBuilder &builder, ValueRange ivs, unsigned s,
                 IRMapping &mapping);

  DomainOp domain;
  unsigned rank;
  NestBounds bounds;
  /// Whether the domain is a box (its bounds single symbol expressions).
  bool rectangular;
  std::optional<FusedReset> reset;
  Value resetArray;
  /// Set while the nest of a guarded plan is emitted: one affine.parallel
  /// over every dimension instead of a parallel outer loop.
  bool allParallel = false;
  /// Set while a slab that sums like the points is emitted
  /// (sumsLikePoints): guarded statements summed, one update per array.
  bool guardedSums = false;
  /// Copied from the plan: dimension 0's slabs and core in one loop.
  bool outerInOneLoop = false;
  /// The plan being emitted: the dimensions whose slabs run as points.
  const GatherPlan *plan = nullptr;
  /// While a plane is emitted (inside emitIfWide): whether every peeled
  /// dimension is wide enough there, so that slabs run as the plan's
  /// points. Unset outside.
  std::optional<bool> pointsActive;
  /// Set while the rows of a blocked plane are emitted with row resets: the
  /// plane behind, whose rows the core rows of dimension 1 reset.
  Value rowResetPlane;
  /// The constant the reset stores, created once before the nests.
  Value resetValue;
  /// The run-time block size and count of a balanced reset (null: the
  /// plan's constant block).
  Value blockSize, blockCount;
  /// Set while a piece of a nonrectangular domain's plan is emitted: the
  /// statements valid at every point of it, which emitGuardedSums adds
  /// without a guard.
  llvm::SmallDenseSet<unsigned, 8> alwaysValid;
  SmallVector<Statement> stmts;
  SmallVector<llvm::DenseSet<Operation *>> slices;
};

} // namespace mlir::stencil

#endif // STENCIL_LIB_GATHER_GATHEREMITTER_H
