//===- Pipelines.cpp - stencil-fuzz: the pipelines an input runs ----------===//
//
// Every input runs `stencil-adjoint,convert-to-omp` and some of the other
// pipelines of kFixed. Besides:
//   - the distribution (docs/Distributed.md) of the primal and, after
//     --stencil-adjoint, of the adjoint, over a process grid of each rank
//     its domains have;
//   - with a loop around domains (a time loop, docs/TimeLoops.md), its
//     adjoint with an option that changes the reversal, lowered with the
//     checkpointing schedule, undistributed and distributed;
//   - the pipelines named by the --stencil-adjoint, --stencil-distribute,
//     --convert-to-omp and --convert-to-gpu flags of its comment lines
//     (lit's RUN lines in the seeds), with their options, which the
//     fuzzer mutates like the IR.
// Running every variant on every input would take a 3-D input past the
// 20 s that scripts/fuzz.sh allows it under the sanitizers (the GPU route
// alone takes seconds): an input runs a few of each group, picked from a
// hash of its text, so that the corpus as a whole runs them all.
//
//===----------------------------------------------------------------------===//

#include "Pipelines.h"

#include "Stencil/Dialect/StencilOps.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallSet.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/xxhash.h"

#include <algorithm>

using namespace mlir;
using stencil_fuzz::Pipeline;

/// The pipelines of the straight-line adjoint: every input runs the first
/// and kFixedPerInput of the others.
static const char *const kFixed[] = {
    "stencil-adjoint,convert-to-omp",
    "stencil-adjoint,convert-to-omp{boundary=exact}",
    // Every shared value cut, so that small inputs reach both forms of
    // --stencil-cut-shared (the default min-gain leaves them uncut).
    "stencil-adjoint,convert-to-omp{cut-min-gain=1}",
    "stencil-adjoint,convert-to-omp{cut-min-gain=1 cut-padded=0}",
    "stencil-adjoint,convert-to-omp{scatter=serial}",
    ("stencil-adjoint{reset-output-adjoints=false},"
     "convert-to-omp{scatter=atomic}"),
    // The GPU route (docs/GPU.md) to PTX: the check, the guarded gather
    // form, the block mapping, upstream's GPU lowering and serialization;
    // the second with the options that are off by default (aligned
    // innermost loops, FMA).
    "stencil-adjoint,convert-to-gpu{format=isa}",
    ("stencil-adjoint,convert-to-gpu{format=isa scatter=atomic "
     "block=16,4,2 align=32 fp-contract=1}"),
};

/// The adjoint options that change how a time loop is reversed.
static const char *const kTimeLoopAdjoints[] = {
    "stencil-adjoint{snapshot-borders=false}",
    "stencil-adjoint{defer-hand-overs=0}",
};

static constexpr unsigned kFixedPerInput = 2;

/// Process grids: each extent in {1, 2, 3, ?} (a dimension left whole,
/// halved, cut in three so that a block has neighbours on both sides, or
/// left to run time), ranks 1 to kMaxGridRank: 4, 16, 64 or 256 shapes per
/// rank. An input runs one of them per rank for the primal and one for the
/// adjoint.
static constexpr unsigned kMaxGridRank = 4;
static constexpr const char *kGridExtents[] = {"1", "2", "3", "?"};

/// At most this many pipelines come from an input's comments.
static constexpr unsigned kMaxCommentPipelines = 2;

/// A well-mixed 64-bit value from the input's hash and a salt, so that the
/// choices of different groups are independent.
static uint64_t mix(uint64_t hash, uint64_t salt) {
  uint64_t x = hash + 0x9E3779B97F4A7C15ull * (salt + 1);
  x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
  x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
  return x ^ (x >> 31);
}

/// The grid shape of rank `rank` numbered `choice` modulo their count (its
/// base-4 digits), as the `grid` option spells it.
static std::string pickGrid(unsigned rank, uint64_t choice) {
  constexpr uint64_t kChoices = std::size(kGridExtents);
  SmallVector<std::string> extents;
  for (unsigned d = 0; d < rank; ++d) {
    extents.push_back(kGridExtents[choice % kChoices]);
    choice /= kChoices;
  }
  return llvm::join(extents, ",");
}

namespace {
/// What decides an input's pipelines.
struct InputFacts {
  /// The ranks of its domains (up to kMaxGridRank).
  llvm::SmallSet<unsigned, 4> ranks;
  /// The ranks of the domains inside loops of functions (time loops).
  llvm::SmallSet<unsigned, 4> loopRanks;
};
} // namespace

static InputFacts getFacts(ModuleOp module) {
  InputFacts facts;
  module.walk([&](stencil::DomainOp domain) {
    unsigned rank = domain.getRank();
    if (rank == 0 || rank > kMaxGridRank)
      return;
    facts.ranks.insert(rank);
    if (domain->getParentOfType<scf::ForOp>())
      facts.loopRanks.insert(rank);
  });
  return facts;
}

/// Splits a comment line into words as a shell would: whitespace
/// separates them, quotes group and are dropped.
static SmallVector<std::string> shellWords(StringRef line) {
  SmallVector<std::string> words;
  std::string word;
  bool inWord = false;
  char quote = 0;
  for (char c : line) {
    if (quote) {
      if (c == quote)
        quote = 0;
      else
        word += c;
    } else if (c == '"' || c == '\'') {
      quote = c;
      inWord = true;
    } else if (llvm::isSpace(c)) {
      if (inWord)
        words.push_back(word);
      word.clear();
      inWord = false;
    } else {
      word += c;
      inWord = true;
    }
  }
  if (inWord)
    words.push_back(word);
  return words;
}

/// The pipeline of the user-facing passes a comment line names
/// (`--stencil-distribute="grid=2 halo=1"` -> `stencil-distribute{grid=2
/// halo=1}`), or "" if none. Other passes are left out; options that could
/// close the brace and name other passes are not taken.
static std::string pipelineOfComment(StringRef line) {
  static const char *const kPasses[] = {"stencil-adjoint",
                                        "stencil-distribute",
                                        "convert-to-omp", "convert-to-gpu"};
  SmallVector<std::string> passes;
  for (const std::string &word : shellWords(line)) {
    StringRef flag(word);
    if (!flag.consume_front("--"))
      continue;
    auto [name, options] = flag.split('=');
    if (!llvm::is_contained(kPasses, name) ||
        options.find_first_of("{}()\n") != StringRef::npos)
      continue;
    passes.push_back(options.empty() && !flag.contains('=')
                         ? name.str()
                         : (name + "{" + options + "}").str());
  }
  return llvm::join(passes, ",");
}

static void addCommentPipelines(StringRef text,
                                std::vector<Pipeline> &pipelines) {
  unsigned added = 0;
  SmallVector<StringRef> lines;
  text.split(lines, '\n');
  for (StringRef line : lines) {
    StringRef trimmed = line.ltrim();
    if (!trimmed.consume_front("//"))
      continue;
    std::string pipeline = pipelineOfComment(trimmed);
    if (pipeline.empty() ||
        llvm::any_of(pipelines, [&](const Pipeline &other) {
          return other.passes == pipeline;
        }))
      continue;
    pipelines.push_back({pipeline, /*fromInput=*/true});
    if (++added == kMaxCommentPipelines)
      return;
  }
}

std::vector<Pipeline> stencil_fuzz::getPipelines(ModuleOp module,
                                                 StringRef text) {
  uint64_t hash = llvm::xxh3_64bits(text);
  std::vector<Pipeline> pipelines = {{kFixed[0]}};
  // kFixedPerInput of the others, evenly spread.
  constexpr size_t others = std::size(kFixed) - 1;
  uint64_t first = mix(hash, 0) % others;
  for (unsigned k = 0; k < kFixedPerInput; ++k)
    pipelines.push_back(
        {kFixed[1 + (first + k * others / kFixedPerInput) % others]});
  InputFacts facts = getFacts(module);
  for (unsigned rank : facts.ranks) {
    pipelines.push_back({"stencil-distribute{grid=" +
                             pickGrid(rank, mix(hash, 2 * rank)) +
                             "},convert-to-omp",
                         false, rank});
    pipelines.push_back({"stencil-adjoint,stencil-distribute{grid=" +
                             pickGrid(rank, mix(hash, 2 * rank + 1)) +
                             "},convert-to-omp",
                         false, rank});
  }
  // Time loops: an option that changes the reversal, with the checkpointing
  // lowering of convert-to-omp, then distributed over a grid of each rank
  // of the loops' domains.
  if (!facts.loopRanks.empty()) {
    uint64_t choice = mix(hash, 100);
    pipelines.push_back(
        {std::string(kTimeLoopAdjoints[choice % 2]) + ",convert-to-omp"});
  }
  for (unsigned rank : facts.loopRanks) {
    uint64_t choice = mix(hash, 100 + rank);
    pipelines.push_back({std::string(kTimeLoopAdjoints[choice % 2]) +
                             ",stencil-distribute{grid=" +
                             pickGrid(rank, choice >> 1) + "},convert-to-omp",
                         false, rank});
  }
  addCommentPipelines(text, pipelines);
  // The caller may stop early (its time budget): after the first, start
  // at a pipeline picked from the hash, so that no group always comes last.
  std::rotate(pipelines.begin() + 1,
              pipelines.begin() + 1 + mix(hash, 200) % (pipelines.size() - 1),
              pipelines.end());
  return pipelines;
}
