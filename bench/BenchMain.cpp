//===- BenchMain.cpp - stencil-bench entry point ----------------*- C++ -*-===//
//
// This file implements the main program of stencil-bench: it registers a
// STREAM triad and every (kernel, variant) pair of the suite once per
// thread count, then hands over to Google Benchmark. Benchmarks are named
// `<kernel>/<variant>/omp:<threads>` (`stream/triad/omp:<threads>`) and
// report wall time, bytes_per_second (the bytes a sweep must move, see
// StencilKernel::bytesPerPoint) and the counters `omp_threads`,
// `bytes_per_sweep`, `write_allocate_bytes_per_sweep`,
// `reset_bytes_per_sweep` (the kernels' sweeps; bench/run.py derives each
// adjoint's bandwidth bound from them) and `points`. Nothing is checked:
// see test/ for that.
//
// Environment:
//   STENCIL_BENCH_THREADS  thread counts, e.g. "1,2" (default 1 .. #procs)
//   STENCIL_BENCH_SIZES    sizes, e.g. "wave3d=320:64,burgers1d=1e8,stream=1e8"
//                          (defaults: the kernels' defaultSize() and
//                          extraSizes(); stream 2^26 doubles per array).
//                          A kernel's sizes after the first are named
//                          `<kernel>_n<size>` (wave3d_n64/primal/omp:1).
//   STENCIL_BENCH_ROUNDS   rounds R (default 1; BenchThreads.h): every
//                          benchmark of a workload R times, named
//                          `.../round:<r>`, round by round, each round's
//                          (variant, threads) pairs shuffled.
//
// Typical use (bench/run.py does this, one kernel per process):
//   STENCIL_BENCH_ROUNDS=5 stencil-bench --benchmark_min_time=0.2
//                 --benchmark_out=out.json --benchmark_filter=^wave3d/
//
//===----------------------------------------------------------------------===//

#include "BenchHarness.h"
#include "BenchThreads.h"

#include <benchmark/benchmark.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <vector>

using namespace stencil::bench;

namespace {

//===----------------------------------------------------------------------===//
// Options from the environment
//===----------------------------------------------------------------------===//

/// Parses STENCIL_BENCH_SIZES ("wave3d=320:64,burgers1d=1e8") into a map.
std::map<std::string, std::vector<int64_t>> sizeOverrides() {
  std::map<std::string, std::vector<int64_t>> sizes;
  const char *env = std::getenv("STENCIL_BENCH_SIZES");
  if (!env)
    return sizes;
  std::stringstream ss(env);
  std::string item;
  while (std::getline(ss, item, ',')) {
    size_t eq = item.find('=');
    if (eq == std::string::npos)
      continue;
    std::stringstream list(item.substr(eq + 1));
    std::string size;
    while (std::getline(list, size, ':')) {
      // Accept 1e8 as well as 100000000.
      double value = std::strtod(size.c_str(), nullptr);
      if (value >= 1)
        sizes[item.substr(0, eq)].push_back(static_cast<int64_t>(value));
    }
  }
  return sizes;
}

//===----------------------------------------------------------------------===//
// One workload in memory at a time
//===----------------------------------------------------------------------===//

/// Name and tear-down of the workload whose arrays are allocated.
std::string activeName;
std::function<void()> activeTearDown;

/// Makes `name` the allocated workload: frees the previous one first, so
/// that only one kernel's arrays are in memory. Set-up runs before the timed
/// loop, so it is not measured.
void activate(const std::string &name, const std::function<void()> &setUp,
              std::function<void()> tearDown) {
  if (activeName == name)
    return;
  if (activeTearDown)
    activeTearDown();
  activeName.clear();
  setUp();
  activeName = name;
  activeTearDown = std::move(tearDown);
}

/// The fastest repetition: on a shared machine, the run least disturbed by
/// other processes. Reported next to Google Benchmark's mean, median and
/// stddev when the binary is run with --benchmark_repetitions (by hand:
/// bench/run.py runs rounds and computes its statistics itself). For rate
/// counters it is the smallest rate, so GB/s are recomputed from the time.
double minimum(const std::vector<double> &values) {
  return values.empty() ? 0.0 : *std::min_element(values.begin(), values.end());
}

/// Benchmarks that already had their untimed warm-up sweep (thread pool at
/// the new size, code and TLB warm). Google Benchmark calls a benchmark
/// function once per repetition; the warm-up runs only on the first call.
/// (benchmark::State::name() is 1.8+; Debian 12 has 1.7.1.)
std::set<std::string> warmedUp;

//===----------------------------------------------------------------------===//
// STREAM triad
//===----------------------------------------------------------------------===//

/// The three arrays of the triad, filled in parallel like the kernels'.
struct Stream {
  int64_t n = 0;
  Array a, b, c;
};
Stream stream;

void runTriad(benchmark::State &state, const std::string &name, int64_t n,
              int threads) {
  activate(
      "stream",
      [n] {
        stream.n = n;
        stream.a = Array(n, 1, 1, 0.0, 0.0);
        stream.b = Array(n, 1, 2, 1.0, 0.0);
        stream.c = Array(n, 1, 3, 1.0, 0.0);
      },
      [] { stream = Stream(); });
  bench_set_threads(threads);
  if (warmedUp.insert(name).second)
    bench_triad(stream.a.data(), stream.b.data(), stream.c.data(), 3.0, n);
  for (auto _ : state)
    bench_triad(stream.a.data(), stream.b.data(), stream.c.data(), 3.0, n);
  double bytes = 24.0 * static_cast<double>(n);
  state.SetBytesProcessed(static_cast<int64_t>(bytes) * state.iterations());
  state.counters["omp_threads"] = threads;
  state.counters["bytes_per_sweep"] = bytes;
  state.counters["points"] = static_cast<double>(n);
}

//===----------------------------------------------------------------------===//
// Kernels
//===----------------------------------------------------------------------===//

/// Runs `variant` of `kernel` at size `n`; `workload` names the kernel at
/// that size (`wave3d`, `wave3d_n64`).
void runKernel(benchmark::State &state, const std::string &name,
               const std::string &workload, StencilKernel *kernel, int64_t n,
               Variant variant, int threads) {
  activate(
      workload, [kernel, n] { kernel->setUp(n); },
      [kernel] { kernel->tearDown(); });
  bench_set_threads(threads);
  if (warmedUp.insert(name).second)
    kernel->run(variant);
  for (auto _ : state)
    kernel->run(variant);
  double bytes = kernel->bytesPerPoint(isAdjoint(variant)) * kernel->points();
  state.SetBytesProcessed(static_cast<int64_t>(bytes) * state.iterations());
  state.counters["omp_threads"] = threads;
  state.counters["bytes_per_sweep"] = bytes;
  bool adjoint = isAdjoint(variant);
  state.counters["write_allocate_bytes_per_sweep"] =
      kernel->writeAllocateBytesPerPoint(adjoint) * kernel->points();
  state.counters["reset_bytes_per_sweep"] =
      adjoint ? kernel->resetBytesPerPoint() * kernel->points() : 0.0;
  state.counters["points"] = kernel->points();
}

/// Registers every variant of `kernel` at size `n` under `workload`, once
/// per round (STENCIL_BENCH_ROUNDS): round by round, each round's
/// (variant, threads) pairs shuffled, so that no variant always runs right
/// after the same one.
void registerKernel(StencilKernel *kernel, int64_t n,
                    const std::string &workload,
                    const std::vector<int> &threads, int rounds) {
  benchmark::AddCustomContext("size_" + workload, std::to_string(n));
  std::vector<std::pair<Variant, int>> runs;
  for (Variant variant : kernel->variants())
    for (int t : threads)
      runs.push_back({variant, t});
  for (int round = 0; round < rounds; ++round) {
    roundOrder(runs, round, rounds);
    for (const auto &run : runs) {
      Variant variant = run.first;
      int t = run.second;
      // The warm-up sweep and the set-up go by this name, shared by the
      // rounds.
      std::string bench =
          workload + "/" + variantName(variant) + "/omp:" + std::to_string(t);
      benchmark::RegisterBenchmark(
          roundName(bench, round, rounds).c_str(),
          [bench, workload, kernel, n, variant, t](benchmark::State &state) {
            runKernel(state, bench, workload, kernel, n, variant, t);
          })
          ->UseRealTime()
          ->ComputeStatistics("min", minimum)
          ->Unit(benchmark::kMillisecond);
    }
  }
}

} // namespace

int main(int argc, char **argv) {
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv))
    return 1;

  std::vector<int> threads = threadList();
  int rounds = roundCount();
  std::map<std::string, std::vector<int64_t>> sizes = sizeOverrides();
  static std::vector<std::unique_ptr<StencilKernel>> kernels = makeKernels();

  std::string threadText;
  for (int t : threads)
    threadText += (threadText.empty() ? "" : ",") + std::to_string(t);
  benchmark::AddCustomContext("stencil_bench_threads", threadText);

  int64_t streamN =
      sizes.count("stream") ? sizes["stream"].front() : int64_t(1) << 26;
  benchmark::AddCustomContext("size_stream", std::to_string(streamN));
  for (int round = 0; round < rounds; ++round)
    for (int t : threads) {
      std::string bench = "stream/triad/omp:" + std::to_string(t);
      benchmark::RegisterBenchmark(roundName(bench, round, rounds).c_str(),
                                   [bench, streamN, t](benchmark::State &state) {
                                     runTriad(state, bench, streamN, t);
                                   })
          ->UseRealTime()
          ->ComputeStatistics("min", minimum)
          ->Unit(benchmark::kMillisecond);
    }

  for (auto &kernel : kernels) {
    std::string name = kernel->name();
    std::vector<int64_t> kernelSizes = {kernel->defaultSize()};
    for (int64_t extra : kernel->extraSizes())
      kernelSizes.push_back(extra);
    if (sizes.count(name))
      kernelSizes = sizes[name];
    for (size_t s = 0; s < kernelSizes.size(); ++s)
      registerKernel(kernel.get(), kernelSizes[s],
                     s == 0 ? name
                            : name + "_n" + std::to_string(kernelSizes[s]),
                     threads, rounds);
  }

  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  if (activeTearDown)
    activeTearDown();
  return 0;
}
