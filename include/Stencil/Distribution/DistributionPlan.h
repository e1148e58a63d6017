//===- DistributionPlan.h - Halos and exchanges of a block decomposition -===//
//
// This file declares the plan of --stencil-distribute: for one function,
// from the offsets its domains read and write alone, how far each domain's
// iteration box reaches beyond a rank's block, the halo each array needs,
// and where the (forward) halo exchanges go. The plan holds no IR;
// Distribute.cpp builds IR from it and `report` prints it as JSON.
//
// A rank owns a block [s, e) of the global index space in each dimension.
// A domain whose writes are at offsets W runs, on that rank, the points p
// of its global box with p + w in [s, e) for some w: p in
// [s - max W, e - min W). Points it writes outside the block are scratch
// (they are some other rank's, which computes them itself), so no
// contribution travels backwards: the gather form of an adjoint, whose
// writes are all at the centre, reaches nothing beyond the block, and a
// scatter domain computes its neighbours' contributions redundantly.
//
//===----------------------------------------------------------------------===//

#ifndef STENCIL_DISTRIBUTION_DISTRIBUTIONPLAN_H
#define STENCIL_DISTRIBUTION_DISTRIBUTIONPLAN_H

#include "mlir/Support/LLVM.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdint>
#include <vector>

namespace mlir::stencil {

/// A grid extent chosen at run time (`?` in the `grid` option, 0 in the
/// `stencil.distribution` attribute and the ABI JSON, as MPI_Dims_create
/// marks a free dimension).
inline constexpr int64_t kRunTimeExtent = 0;

/// One access of a domain: array number, whether it writes, its offset.
struct DistAccess {
  unsigned array;
  bool write;
  SmallVector<int64_t> offset;
};

/// Per dimension, a width below and above the block.
struct HaloWidths {
  SmallVector<int64_t> lower, upper;

  explicit HaloWidths(unsigned rank = 0) : lower(rank, 0), upper(rank, 0) {}
  bool empty() const;
  /// Raises each width to at least `other`'s.
  void widen(const HaloWidths &other);
  int64_t max() const;
};

/// A halo exchange of one array before one domain.
struct HaloExchange {
  unsigned array;
  HaloWidths widths;
};

/// What one domain does on a rank.
struct DistDomain {
  /// The domain's points run where p + w meets the block for a write
  /// offset w: [s - reach.lower, e + reach.upper) intersected with its box.
  HaloWidths reach;
  /// Exchanges that run right before the domain, in array order.
  SmallVector<HaloExchange> exchanges;
};

/// The plan of one function.
struct DistributionPlan {
  unsigned rank = 0;
  /// Whether the domains are a time loop's body (planLoopDistribution),
  /// with `head` domains before it and `tail` after it
  /// (planTimeLoopDistribution).
  bool loop = false;
  unsigned head = 0, tail = 0;
  /// Exchanges that run once before the time loop, in array order.
  SmallVector<HaloExchange> entry;
  std::vector<DistDomain> domains;
  /// Per array, the widths it needs around the block: what exchanges fill
  /// and what domains write beyond the block.
  SmallVector<HaloWidths> halos;

  /// The widest halo of any array on any side.
  int64_t maxHalo() const;
  /// Per dimension, the widest exchange (a block must be at least this
  /// wide, or a neighbour's halo would reach past it).
  SmallVector<int64_t> maxExchange() const;
  void printJSON(raw_ostream &os) const;
};

/// Plans a function of `numArrays` distributed arrays whose domains, in
/// program order, make the accesses `domains` (offsets of `rank` entries).
/// Halos are not trusted on entry: the first read beyond the block of
/// each array, and the first after each write to it, is preceded by an
/// exchange as wide as every read until the next write needs.
DistributionPlan planDistribution(ArrayRef<SmallVector<DistAccess>> domains,
                                  unsigned numArrays, unsigned rank);

/// Plans the body of a time loop whose domains, in program order, make the
/// accesses `domains`. Arrays with `invariant` set (function arguments the
/// body never writes) are exchanged once, before the loop, as wide as
/// every read of the body; the others (states the loop rotates, arrays it
/// writes) are not trusted at the start of an iteration and are exchanged
/// inside the body as planDistribution does: one exchange per array per
/// write, so one per step for a state written once per step.
DistributionPlan planLoopDistribution(ArrayRef<SmallVector<DistAccess>> domains,
                                      unsigned numArrays, unsigned rank,
                                      ArrayRef<bool> invariant);

/// Plans a function with a time loop: `domains` in program order are
/// `head` domains before the loop, then its body's, then `tail` domains
/// after it. Each part is planned on its own, trusting no halo on entry
/// (planDistribution before and after the loop, planLoopDistribution for
/// the body), so an array written before or inside the loop is exchanged
/// again where the next part reads it beyond the block.
DistributionPlan
planTimeLoopDistribution(ArrayRef<SmallVector<DistAccess>> domains,
                         unsigned head, unsigned tail, unsigned numArrays,
                         unsigned rank, ArrayRef<bool> invariant);

} // namespace mlir::stencil

#endif // STENCIL_DISTRIBUTION_DISTRIBUTIONPLAN_H
