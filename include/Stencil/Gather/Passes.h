//===- Passes.h - Scatter-to-gather passes ------------------------*- C++ -*-===//
//
// This file declares the gather conversion of the stencil dialect (scatter
// domains to race-free gather nests) and the cut of shared values, the enum
// of the boundary option and the defaults of their work limits, and the
// registration hook generated from Passes.td.
//
//===----------------------------------------------------------------------===//

#ifndef STENCIL_GATHER_PASSES_H
#define STENCIL_GATHER_PASSES_H

#include "mlir/Pass/Pass.h"
#include "llvm/Support/CommandLine.h"

namespace mlir::stencil {

/// How the scatter-to-gather conversion covers points outside the core.
enum class BoundaryStrategy {
  /// Per-dimension peeling with guarded statements: at most 2d + 1 nests.
  Compact,
  /// PerforAD's disjoint split into boxes of unguarded statements.
  Exact,
  /// One nest over every written point, each statement guarded, every
  /// dimension parallel: for GPUs, where a guard costs less than a kernel
  /// launch per boundary nest.
  Guarded,
};

/// The command-line spellings of the enum, for every option that takes it
/// (pass and pipeline options alike).
inline llvm::cl::ValuesClass boundaryStrategyValues() {
  return llvm::cl::values(
      clEnumValN(BoundaryStrategy::Compact, "compact",
                 "per-dimension peeling, at most 2d+1 nests"),
      clEnumValN(BoundaryStrategy::Exact, "exact",
                 "PerforAD's disjoint split, guarded by a size check"),
      clEnumValN(BoundaryStrategy::Guarded, "guarded",
                 "one nest over all points, statements guarded, every "
                 "dimension parallel (GPUs)"));
}

/// Default work limits of the scatter-to-gather conversion (pass and
/// pipeline options `max-exact-nests` and `max-gather-ops`).
constexpr uint64_t kDefaultMaxExactNests = 256;
constexpr uint64_t kDefaultMaxGatherOps = 50000;
/// Default of `max-split-statements` (pass and pipeline): slabs with more
/// statements stay guarded.
constexpr unsigned kDefaultMaxSplitStatements = 32;
/// Default of the `min-gain` option of --stencil-cut-shared (and
/// `cut-min-gain` of the pipeline): ops per point and gather nest.
constexpr uint64_t kDefaultCutMinGain = 64;
/// Default of `cut-ring-min-gain` of the CPU pipeline (the `ring-min-gain`
/// option of --stencil-cut-shared, which is off by default): a cut kept in
/// rings of planes costs no memory traffic, so a smaller gain pays (wave3d
/// saves 24 ops per point, its time loop and FWI 18).
constexpr uint64_t kDefaultCutRingMinGain = 16;
/// The most planes of dimension 0 a ring may hold: --stencil-cut-shared
/// marks a cut's temporaries `stencil.ring` only if the gather nest reads
/// them within this many planes, and --stencil-ring-cut rings only marked
/// temporaries (a thread's ring must stay in its caches).
constexpr int64_t kMaxRingPlanes = 8;

#define GEN_PASS_DECL
#include "Stencil/Gather/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "Stencil/Gather/Passes.h.inc"

} // namespace mlir::stencil

#endif // STENCIL_GATHER_PASSES_H
