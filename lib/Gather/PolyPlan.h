//===- PolyPlan.h - The polyhedral plan of a gather form -----*- C++ -*-===//
//
// This file declares the plan of the gather form of a nonrectangular
// scatter domain, computed with MLIR's Presburger library. Statement s of
// the domain D writes y = x + o_s from each point x of D, so it is valid at
// an output point y iff y lies in D + o_s. The plan covers the union U of
// all D + o_s with pairwise disjoint convex pieces: first the core (the
// intersection of all D + o_s, where every statement runs unguarded), then
// the remainder, either compact (piece_s = (D + o_s) minus the core and the
// earlier D + o_t, guarding the statements not valid everywhere in it) or
// exact (pieces split until each one's statements are valid everywhere in
// it). Each piece comes as a loop nest whose bounds are affine expressions,
// ready for affine.for / affine.if. The plan holds no IR.
//
//===----------------------------------------------------------------------===//

#ifndef STENCIL_LIB_GATHER_POLYPLAN_H
#define STENCIL_LIB_GATHER_POLYPLAN_H

#include "mlir/IR/AffineExpr.h"
#include "mlir/Support/LLVM.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/Support/LogicalResult.h"

#include <cstdint>
#include <string>
#include <vector>

namespace mlir::stencil {

/// A domain: in dimension k, the lower bound is the max of lower[k], the
/// (exclusive) upper bound the min of upper[k]. The expressions are over
/// (rank dims = the coordinates, numSymbols symbols); those of dimension k
/// use only dims < k. They are pure affine and may hold floordiv, ceildiv
/// and mod by positive constants of symbol-only operands.
struct PolyDomain {
  unsigned rank = 0;
  unsigned numSymbols = 0;
  SmallVector<SmallVector<AffineExpr>> lower, upper;
};

/// The range [max(lower), min(upper)) of one loop of a piece; its
/// expressions are over (rank dims, numSymbols symbols) and use only the
/// dims of the outer loops. They may hold ceildiv/floordiv by constants
/// (for a loop bound with a coefficient other than 1) and the domain's own
/// symbol-only divisions.
struct PolyRange {
  SmallVector<AffineExpr> lower, upper;
};

/// One convex piece of the gather form: the nest over `ranges`, inside an
/// affine.if on `conditions`.
struct PolyPiece {
  /// The intersection of all D + o_s: every statement, none guarded.
  bool core = false;
  /// Symbol-only expressions, each >= 0 wherever the piece is not empty,
  /// without those the loop bounds imply (then the loops just run zero
  /// times). Since every bound of a domain involves its own coordinate,
  /// that leaves none for the domains that PolyDomain describes; the field
  /// is kept for the general case.
  SmallVector<AffineExpr> conditions;
  /// One range per dimension, outermost first.
  SmallVector<PolyRange> ranges;
  /// The statements valid somewhere in the piece, ascending.
  SmallVector<unsigned> statements;
  /// Those of `statements` not valid everywhere in the piece, which the
  /// emitter guards; empty in an exact piece.
  SmallVector<unsigned> guarded;
};

/// The pieces of the gather form of one domain.
struct PolyGatherPlan {
  unsigned rank = 0;
  unsigned numSymbols = 0;
  /// Every piece is exact (has no guarded statement).
  bool exact = false;
  /// The exact plan was asked for but needed more than maxPieces pieces,
  /// so this is the compact plan.
  bool exactFellBack = false;
  /// Pairwise disjoint, their union is U; the core (if any) first.
  std::vector<PolyPiece> pieces;

  /// Prints the plan as one line of JSON, expressions as strings.
  void printJSON(raw_ostream &os) const;
};

/// Plans the gather form of `domain` whose statement s writes at
/// offsets[s] (each of domain.rank entries). With `exact`, refines the
/// compact pieces until none is guarded, unless that needs more than
/// `maxPieces` pieces (then returns the compact plan, exactFellBack set).
/// Fails with the reason in `whyNot` on a domain it cannot represent (a
/// division of a coordinate, a dimension without bounds).
FailureOr<PolyGatherPlan> planPolyGather(const PolyDomain &domain,
                                         ArrayRef<SmallVector<int64_t>> offsets,
                                         bool exact, unsigned maxPieces,
                                         std::string &whyNot);

} // namespace mlir::stencil

#endif // STENCIL_LIB_GATHER_POLYPLAN_H
