//===- CutPlan.h - Shared values a scatter domain stores once ---*- C++ -*-===//
//
// This file declares the plan of --stencil-cut-shared: which values of a
// scatter domain's body to compute once per point into a temporary array,
// because the gather form would otherwise recompute them at every shift.
// The plan reads the body and builds no IR; CutShared.cpp builds the
// temporaries and the domain that fills them, and `report` prints the plan
// as JSON.
//
//===----------------------------------------------------------------------===//

#ifndef STENCIL_LIB_GATHER_CUTPLAN_H
#define STENCIL_LIB_GATHER_CUTPLAN_H

#include "Stencil/Dialect/StencilOps.h"

#include "mlir/Support/LLVM.h"
#include "llvm/ADT/SmallVector.h"

#include <cstdint>

namespace mlir::stencil {

/// One value of the body that the plan stores in a temporary array.
struct CutValue {
  /// The body op defining it (one float result).
  Operation *op;
  /// The number of distinct statement offsets (shifts of the gather form)
  /// whose statements depend on it when it is chosen.
  unsigned shifts;
  /// The non-constant ops it depends on in the body, itself included, with
  /// the values chosen before it counting as one op each.
  uint64_t sliceOps;
  /// The ops per point and gather nest it saves: (shifts - 1) * sliceOps.
  uint64_t gain;
};

/// The gather form of a cut domain whose every write accumulates a cut
/// value times constants. Stored in temporaries with a zero border of
/// `span[k] = max o_k - min o_k` on both sides of each dimension k, the
/// cut values read back at any shift of the written box are either in the
/// domain or zero, so that every statement is valid at every written point:
/// one unguarded gather domain per accumulated array replaces the scatter
/// domain, with no boundary nests.
struct PaddedGather {
  SmallVector<int64_t> span;
};

/// The cut of one scatter domain.
struct CutPlan {
  /// The values to store, in the order they were chosen.
  SmallVector<CutValue> cuts;
  /// Set when the cut domain is written as padded gathers.
  std::optional<PaddedGather> padded;
  /// Non-constant body ops one gather nest evaluates per point (every shift
  /// recomputing the slice its statements need), before and after the cut;
  /// `after` counts each cut value as the one gather that reads it back.
  uint64_t opsBefore = 0, opsAfter = 0;
  /// Set when the cuts were chosen under `ring-min-gain`: the temporaries
  /// are expected to become rings of planes (--stencil-ring-cut).
  bool ring = false;
  /// The one decision of whether the temporaries may become rings of
  /// planes: the number of planes of dimension 0 the gather nest reads them
  /// at (the span of the domain's write offsets there), or 0 where
  /// --stencil-ring-cut must leave them whole (rank 1, a function without
  /// `stencil.noalias`, more than kMaxRingPlanes planes). The temporaries
  /// carry it as `stencil.ring`; --stencil-ring-cut reads only that mark.
  int64_t ringPlanes = 0;

  /// Writes the plan as one line of JSON.
  void printJSON(raw_ostream &os) const;
};

/// Chooses the values of `domain`'s body to cut, greedily: while some value
/// used at two or more shifts saves at least `minGain` ops per point and
/// nest, the one that saves most (the first in the body on ties). Candidates
/// are float results of pure, region-free ops other than gathers and
/// constants.
CutPlan planCuts(DomainOp domain, uint64_t minGain);

/// The `ringPlanes` of a cut of `domain` (CutPlan::ringPlanes).
int64_t planRingPlanes(DomainOp domain);

/// Whether a statement of `domain` at a non-zero offset reads `array`
/// once the values of `plan` are cut (read back, not recomputed): then a
/// reset of `array` fused into the gather sweep must lag behind its reads.
bool readsOffCentre(DomainOp domain, const CutPlan &plan, Value array);

/// Sets `plan.padded` when `domain` (cut by `plan`, which is not empty) has
/// no results and every write is an accumulate of a cut value times finite
/// constants (`mulf` by a constant, `negf`): zero in, zero out, so the
/// zero border stands for the points where a statement is not valid. The
/// accumulates into one array must also share their `dims`, which the
/// array's one gather domain writes through.
void planPaddedGather(DomainOp domain, CutPlan &plan);

} // namespace mlir::stencil

#endif // STENCIL_LIB_GATHER_CUTPLAN_H
