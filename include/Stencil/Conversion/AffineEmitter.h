//===- AffineEmitter.h - Emit stencil bodies as affine code -------*- C++ -*-===//
//
// This file declares the helpers shared by the lowering to affine loops and
// the scatter-to-gather conversion: loop nests over symbolic bounds, and the
// evaluation of a domain body at a (shifted) point with affine loads.
//
//===----------------------------------------------------------------------===//

#ifndef STENCIL_CONVERSION_AFFINEEMITTER_H
#define STENCIL_CONVERSION_AFFINEEMITTER_H

#include "Stencil/Dialect/StencilOps.h"

#include "mlir/Dialect/SCF/IR/SCF.h"

#include "mlir/IR/AffineMap.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/IRMapping.h"
#include "llvm/ADT/DenseSet.h"

namespace mlir::stencil {

/// The bounds of a loop nest. Dimension `k` runs over
/// `[max(lower[k]), min(upper[k]))`; every map has `operands` as its
/// symbols and either no dimension or `k` of them, the coordinates of the
/// dimensions before `k` (a nonrectangular nest). A map with several
/// results denotes the max (lower) or min (upper) of its results, as in
/// `affine.for`.
struct NestBounds {
  SmallVector<AffineMap> lower;
  SmallVector<AffineMap> upper;
  SmallVector<Value> operands;

  /// Returns the number of dimensions.
  unsigned getRank() const { return lower.size(); }
  /// Returns true if no map uses a coordinate.
  bool isRectangular() const;
  /// Returns the operands of `map` (a bound of this nest) at the
  /// coordinates `ivs` of the outer dimensions: the coordinates it uses,
  /// then `operands`.
  SmallVector<Value> getMapOperands(AffineMap map, ValueRange ivs) const;
  /// Returns the symbol expressions of dimension `k`'s single-result lower
  /// or upper bound.
  AffineExpr lowerExpr(unsigned k) const { return lower[k].getResult(0); }
  AffineExpr upperExpr(unsigned k) const { return upper[k].getResult(0); }
  /// Returns the extent of dimension `k` if both bounds are single
  /// expressions whose difference is a constant.
  std::optional<int64_t> getConstantExtent(unsigned k) const;
};

/// Whether the bound operands of `domain` are valid affine symbols where it
/// stands, so that its bounds can become affine loop bounds.
bool hasAffineSymbolBounds(DomainOp domain);

/// Checks hasAffineSymbolBounds; reports a located error otherwise.
LogicalResult checkBoundsAreAffineSymbols(DomainOp domain);

/// Returns the bounds of `domain`: for a rectangular one, one single-result
/// symbol-only map per dimension.
NestBounds getDomainBounds(DomainOp domain);

/// Emits, at the builder's insertion point, an `scf.if` that runs its then
/// block only if `bounds` are non-empty in exact arithmetic, and moves the
/// builder into that block. Bounds are evaluated in 128 bits, where they
/// cannot overflow (bound constants are at most 2^40 in magnitude), so a
/// domain that is empty runs nothing even where its bounds or the bounds
/// derived from them wrap around in 64 bits. Only the dimensions whose
/// bounds use no coordinate are checked: the loops of the others run no
/// iteration where they are empty. With `elseValues`, the `scf.if`
/// returns values of their types, its else block yields them, and the
/// caller terminates the then block with an `scf.yield`. Emits nothing and returns null when every bound is a constant:
/// the emptiness is then known statically and nothing wraps.
scf::IfOp emitNonEmptyGuard(OpBuilder &builder, Location loc,
                            const NestBounds &bounds,
                            ValueRange elseValues = {});

/// Returns a symbol-only single-result map `()[s...] -> (expr)` over
/// `numSymbols` symbols.
AffineMap symbolMap(AffineExpr expr, unsigned numSymbols);

/// Returns `map` over `operands` with unused symbols dropped and the map
/// simplified, as the canonicalizer would leave it: the form in which loop
/// bounds are emitted.
std::pair<AffineMap, SmallVector<Value>>
canonicalBound(AffineMap map, ArrayRef<Value> operands);

/// `max(upper_k - lower_k, 0)` of a rectangular nest's dimension `k`, over
/// the bound operands.
Value buildExtent(OpBuilder &builder, Location loc, const NestBounds &bounds,
                  unsigned k);

/// The coordinate of dimension `k` of `bounds`, whose extent is the
/// constant 1 and which gets no loop: its lower bound at the coordinates
/// `ivs` of the outer dimensions, folded where it can be.
Value buildUnitDimValue(OpBuilder &builder, Location loc,
                        const NestBounds &bounds, unsigned k, ValueRange ivs);

/// Builds a loop nest over `bounds` at the builder's insertion point and
/// calls `bodyFn` in the innermost body with one induction value per
/// dimension. Dimensions of constant extent 1 get no loop (their value is
/// an `affine.apply` of the lower bound); if `parallel`, the outermost
/// remaining dimension is an `affine.parallel`, the others `affine.for`.
void buildLoopNest(
    OpBuilder &builder, Location loc, const NestBounds &bounds, bool parallel,
    function_ref<void(OpBuilder &, Location, ValueRange)> bodyFn);

/// Builds one `affine.parallel` over every dimension of rectangular
/// `bounds` whose extent is not the constant 1 (the points of a domain are independent),
/// and calls `bodyFn` in it: the form that maps onto GPU blocks and
/// threads. Without such a dimension the body is emitted once.
void buildParallelNest(
    OpBuilder &builder, Location loc, const NestBounds &bounds,
    function_ref<void(OpBuilder &, Location, ValueRange)> bodyFn);

/// Returns the map that indexes the array of `access` when the body is
/// evaluated at point `ivs + shift` of a rank-`rank` nest: array dimension
/// `a` gets `d_{dims[a]} + shift[dims[a]] + offset[a]`.
AffineMap getAccessMap(AccessOpInterface access, unsigned rank,
                       ArrayRef<int64_t> shift);

/// Collects into `slice` the ops of `domain`'s body that the values `roots`
/// depend on, transitively and including the defining ops of the roots.
/// Ops in `leaves`, when given, are collected but what they depend on is
/// not followed.
void collectBodySlice(DomainOp domain, ValueRange roots,
                      llvm::DenseSet<Operation *> &slice,
                      const llvm::DenseSet<Operation *> *leaves = nullptr);

/// The domains under `root` that scatter, in walk order.
SmallVector<DomainOp> getScatterDomains(Operation *root);

/// Maps each induction variable of `domain` that the body uses to the
/// coordinate `ivs[k] + shift[k]` in `mapping` (an `affine.apply` where the
/// shift is non-zero), unless `mapping` already holds it.
void mapInductionVars(OpBuilder &builder, DomainOp domain, ValueRange ivs,
                      ArrayRef<int64_t> shift, IRMapping &mapping);

/// Evaluates the body of `domain` at point `ivs + shift`: clones every op
/// that is neither a write nor the terminator (only those in `slice` when
/// it is non-null), turning gathers into `affine.load` and the induction
/// variables into the coordinates of that point. Results are recorded
/// in `mapping`; ops whose results `mapping` already holds are not cloned
/// again, so calls sharing a mapping (same point) share their work.
void emitBodyValues(OpBuilder &builder, DomainOp domain, ValueRange ivs,
                    ArrayRef<int64_t> shift, IRMapping &mapping,
                    const llvm::DenseSet<Operation *> *slice = nullptr);

/// Emits `array[map(ivs)] += value` as an affine load, add and store.
void emitAccumulate(OpBuilder &builder, Location loc, Value value,
                    Value array, AffineMap map, ValueRange ivs);

} // namespace mlir::stencil

#endif // STENCIL_CONVERSION_AFFINEEMITTER_H
