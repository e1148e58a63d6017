//===- BenchThreads.h - Thread counts and rounds of a bench binary -*- C++ -*-===//
//
// STENCIL_BENCH_THREADS ("1,2"; defaults to 1 .. the number of processors)
// and STENCIL_BENCH_ROUNDS (default 1), shared by stencil-bench and
// stencil-bench-timeloop. With R > 1 rounds a binary registers each of its
// benchmarks R times, named `<name>/round:<r>`, round after round, each
// round in its own shuffled order (roundOrder); run with
// --benchmark_repetitions=1 and no random interleaving, every round times
// each benchmark once, close in time to the others, and bench/rounds.py
// takes ratios within a round.
//
//===----------------------------------------------------------------------===//

#ifndef STENCIL_BENCH_BENCHTHREADS_H
#define STENCIL_BENCH_BENCHTHREADS_H

#include "BenchSupport.h"

#include <benchmark/benchmark.h>

#include <algorithm>
#include <cstdlib>
#include <functional>
#include <random>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

namespace stencil::bench {

/// Parses STENCIL_BENCH_THREADS ("1,2"); defaults to 1 .. number of procs.
inline std::vector<int> threadList() {
  std::vector<int> threads;
  if (const char *env = std::getenv("STENCIL_BENCH_THREADS")) {
    std::stringstream ss(env);
    std::string item;
    while (std::getline(ss, item, ','))
      if (int t = std::atoi(item.c_str()); t > 0)
        threads.push_back(t);
  }
  if (threads.empty())
    for (int t = 1; t <= bench_num_procs(); ++t)
      threads.push_back(t);
  return threads;
}

/// STENCIL_BENCH_ROUNDS, at least 1.
inline int roundCount() {
  const char *env = std::getenv("STENCIL_BENCH_ROUNDS");
  return std::max(env ? std::atoi(env) : 1, 1);
}

/// The name of round `round` of benchmark `name`: `name` alone when there
/// is one round.
inline std::string roundName(const std::string &name, int round,
                             int rounds) {
  return rounds > 1 ? name + "/round:" + std::to_string(round) : name;
}

/// Shuffles `items` for round `round` (seeded by it), so that no
/// benchmark always runs right after the same one; one round keeps the
/// order.
template <typename T>
void roundOrder(std::vector<T> &items, int round, int rounds) {
  if (rounds < 2)
    return;
  std::mt19937 rng(static_cast<unsigned>(round));
  std::shuffle(items.begin(), items.end(), rng);
}

/// A benchmark not yet registered: its name and its body.
using PendingBenchmark =
    std::pair<std::string, std::function<void(benchmark::State &)>>;

/// Registers every benchmark of `benchmarks` once per round of `rounds`,
/// round after round, each round in its own order (roundOrder), timed in
/// real time and reported in milliseconds.
inline void registerInRounds(std::vector<PendingBenchmark> &benchmarks,
                             int rounds) {
  for (int round = 0; round < rounds; ++round) {
    roundOrder(benchmarks, round, rounds);
    for (auto &[name, body] : benchmarks)
      benchmark::RegisterBenchmark(roundName(name, round, rounds).c_str(),
                                   body)
          ->UseRealTime()
          ->Unit(benchmark::kMillisecond);
  }
}

} // namespace stencil::bench

#endif // STENCIL_BENCH_BENCHTHREADS_H
