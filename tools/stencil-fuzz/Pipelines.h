//===- Pipelines.h - stencil-fuzz: the pipelines an input runs ----*- C++ -*-===//
//
// Which pass pipelines the fuzz target runs on one input: a fixed set that
// every input runs, the distribution over process grids of the ranks of
// its domains, the time-loop variants when it has a loop, and the
// pipelines its comments name (so that the fuzzer mutates pass options
// too).
//
//===----------------------------------------------------------------------===//

#ifndef STENCIL_FUZZ_PIPELINES_H
#define STENCIL_FUZZ_PIPELINES_H

#include "mlir/IR/BuiltinOps.h"
#include "mlir/Support/LLVM.h"

#include <string>
#include <vector>

namespace stencil_fuzz {

/// A list of module passes (`stencil-adjoint,convert-to-omp`).
struct Pipeline {
  std::string passes;
  /// Named by the input's comments, so its options may be wrong.
  bool fromInput = false;
  /// For the distribution over a grid of this rank: functions with domains
  /// of other ranks, which --stencil-distribute refuses (and with them the
  /// module), are left out of the copy it runs on where nothing calls them.
  unsigned gridRank = 0;
};

/// The pipelines to run on `module`, parsed from `text`. The caller adds
/// each to a module's pass manager as it is (wrapped in `builtin.module(...)`,
/// they would run on the modules nested in it, of which inputs have none).
/// Where an input would run more pipelines than fit its time (-timeout),
/// the subset is chosen from a hash of `text`, so that it is the same on
/// every run of that input and the whole set runs across the corpus. The
/// first is always `stencil-adjoint,convert-to-omp`; the order of the rest
/// is rotated by the hash too, for callers that stop early.
std::vector<Pipeline> getPipelines(mlir::ModuleOp module,
                                   llvm::StringRef text);

} // namespace stencil_fuzz

#endif // STENCIL_FUZZ_PIPELINES_H
