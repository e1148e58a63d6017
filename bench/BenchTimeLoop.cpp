//===- BenchTimeLoop.cpp - Reversed time loops, timed -------------*- C++ -*-===//
//
// stencil-bench-timeloop: the cost of the gradient of a whole time loop
// (docs/TimeLoops.md) against the primal loop, for two kernels:
//   wave3d  bench/kernels/wave3d_loop.mlir: wave3d's leapfrog steps, the
//           coefficient passive (the gradient of the final state with
//           respect to the initial one);
//   fwi     examples/fwi/fwi.mlir: the same wave with the model m active, a
//           point source and a receiver plane (the gradient of the misfit
//           with respect to m).
// For each kernel and (n, T, threads):
//
//   <k>/primal            the primal loop, T steps
//   <k>/storeall          the adjoint with T snapshots (no recomputation)
//   <k>/revolve_s<S>      the adjoint with S snapshots
//   <k>/revolve_<build>_s<S>  the same, built with other options: each
//                         "timeloop_variants" entry of bench/variants.json
//                         that runs on the kernel (whole_snapshots,
//                         slab_loops, handovers_stored, ...; what each
//                         changes is written there)
//   <k>/copies            what store-all's snapshots cost alone: as many
//                         copies of as many state arrays as its STOREs
//                         copy (stencil_ckpt_last_stats of an untimed
//                         store-all adjoint: the adjoint keeps only what
//                         its steps' adjoints read, and none of wave3d's)
//                         into a buffer kept between calls (as the runtime
//                         keeps the adjoint's workspace)
//   <k>/step_primal       one step (T = 1) and one step's adjoint (T = 1: no
//   <k>/step_adjoint      snapshot, no copy), the ratio of a step
//
// Counters: forward_steps (the primal steps the schedule recomputed),
// slots, slot_bytes. Ratios are taken within the rounds of one run
// (STENCIL_BENCH_ROUNDS, BenchThreads.h; bench/timeloop_ratios.py).
// Nothing is checked here: fwi-example.test and time-loops.test check the
// gradients.
//
// Environment: STENCIL_BENCH_THREADS ("1,2"), STENCIL_BENCH_ROUNDS (5),
// STENCIL_TIMELOOP_CASES
// ("n:T:S,..."; default "128:16:4,256:4:2,48:1000:20": store-all at
// n = 256 holds T states of 400 MB).
//
//===----------------------------------------------------------------------===//

#include "BenchSupport.h"
#include "BenchThreads.h"
#include "Stencil/ABI/StencilABI.h"
#include "Stencil/Runtime/Checkpoint.h"
#include "fwi.h"
#include "timeloop_variants.h"
#include "wave3d_loop.h"

#include <benchmark/benchmark.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <sstream>
#include <string>
#include <vector>

using stencil::bench::registerInRounds;
using stencil::bench::roundCount;
using stencil::bench::threadList;

namespace {

struct Case {
  int64_t n, steps, snapshots;
};

/// A build of a kernel's adjoint beside the default, timed as
/// revolve_<name>_s<S>: the "timeloop_variants" of bench/variants.json
/// (timeloop_variants.h, generated from it).
template <typename Gradient> struct Build {
  const char *name;
  Gradient gradient;
};
using Wave3dGradient = decltype(&_mlir_ciface_wave3d_loop_adjoint);
using FwiGradient = decltype(&_mlir_ciface_fwi_adjoint);
#define STENCIL_BENCH_BUILD(NAME, ENTRY) {NAME, ENTRY},
const Build<Wave3dGradient> kWave3dBuilds[] = {
    STENCIL_BENCH_TIMELOOP_wave3d_loop(STENCIL_BENCH_BUILD)};
const Build<FwiGradient> kFwiBuilds[] = {
    STENCIL_BENCH_TIMELOOP_fwi(STENCIL_BENCH_BUILD)};
#undef STENCIL_BENCH_BUILD

/// The gradient of the build named `name` in `builds`, `fallback` for "".
template <typename Gradient, size_t N>
Gradient lookUp(const Build<Gradient> (&builds)[N], const std::string &name,
                Gradient fallback) {
  for (const Build<Gradient> &build : builds)
    if (name == build.name)
      return build.gradient;
  if (!name.empty()) {
    std::fprintf(stderr, "stencil-bench-timeloop: no build %s\n",
                 name.c_str());
    std::abort();
  }
  return fallback;
}

/// The arrays of one problem, first-touched in parallel.
struct Problem {
  explicit Problem(int64_t n, int64_t steps) : n(n), steps(steps) {
    size_t cells = size_t(n) * n * n;
    for (int k = 0; k < 3; ++k) {
      u[k] = bench_alloc(cells);
      ub[k] = bench_alloc(cells);
    }
    m = bench_alloc(cells);
    mb = bench_alloc(cells);
    w = bench_alloc(size_t(steps));
    d = bench_alloc(size_t(steps) * n * n);
    bench_fill(m, n, n * n, 7, 0.0, 0.09);
    bench_fill(w, 1, steps, 8, 1.0, -0.5);
    bench_fill(d, steps, n * n, 9, 1e-3, 0.0);
    reset();
  }
  ~Problem() {
    for (double *p : {u[0], u[1], u[2], ub[0], ub[1], ub[2], m, mb, w, d})
      bench_free(p);
    if (slots)
      bench_free(slots);
  }
  /// The initial state and zero shadows (part of every timed call: the
  /// primal clobbers its state, the adjoint its shadows).
  void reset() {
    for (int k = 0; k < 3; ++k) {
      bench_fill(u[k], n, n * n, 10 + k, 0.0, 0.0);
      bench_fill(ub[k], n, n * n, 20 + k, 0.0, 0.0);
    }
    bench_fill(mb, n, n * n, 30, 0.0, 0.0);
  }
  StencilMemRef3D_f64 grid(double *p) const {
    return stencil_memref3d_f64(p, n, n, n);
  }
  double primal() {
    if (wave3d) {
      auto a = grid(u[0]), b = grid(u[1]), c = grid(u[2]), md = grid(m);
      _mlir_ciface_wave3d_loop(&a, &b, &c, &md, n, steps);
      return 0;
    }
    auto a = grid(u[0]), b = grid(u[1]), c = grid(u[2]), md = grid(m);
    auto wd = stencil_memref1d_f64(w, steps);
    auto dd = stencil_memref3d_f64(d, steps, n, n);
    return _mlir_ciface_fwi(&a, &b, &c, &md, &wd, &dd, n, n / 2, n / 2, n - 4,
                            3, steps);
  }
  /// Runs the adjoint build named `build` (bench/variants.json,
  /// "timeloop_variants"; "": the default).
  void adjoint(int64_t snapshots, const std::string &build = "") {
    auto a = grid(u[0]), b = grid(u[1]), c = grid(u[2]), md = grid(m);
    auto ab = grid(ub[0]), bb = grid(ub[1]), cb = grid(ub[2]), mbd = grid(mb);
    if (wave3d) {
      auto *gradient = lookUp(kWave3dBuilds, build,
                              _mlir_ciface_wave3d_loop_adjoint);
      gradient(&a, &b, &c, &md, n, steps, &ab, &bb, &cb, snapshots);
      return;
    }
    auto wd = stencil_memref1d_f64(w, steps);
    auto dd = stencil_memref3d_f64(d, steps, n, n);
    auto *gradient = lookUp(kFwiBuilds, build, _mlir_ciface_fwi_adjoint);
    gradient(&a, &b, &c, &md, &wd, &dd, n, n / 2, n / 2, n - 4, 3, steps, &ab,
             &bb, &cb, &mbd, 1.0, snapshots);
  }
  int64_t n, steps;
  int64_t copies = 0, arraysPerSlot = 0;
  bool wave3d = false;
  double *u[3], *ub[3], *m, *mb, *w, *d;
  double *slots = nullptr;
};

std::vector<Case> caseList() {
  const char *env = std::getenv("STENCIL_TIMELOOP_CASES");
  std::stringstream ss(env ? env : "128:16:4,256:4:2,48:1000:20");
  std::vector<Case> cases;
  std::string item;
  while (std::getline(ss, item, ',')) {
    Case c{};
    if (std::sscanf(item.c_str(), "%ld:%ld:%ld", &c.n, &c.steps,
                    &c.snapshots) == 3 &&
        c.n >= 8 && c.steps >= 1 && c.snapshots >= 1)
      cases.push_back(c);
  }
  return cases;
}

/// The names of the builds of `kernel` (bench/variants.json).
std::vector<std::string> buildNames(const std::string &kernel) {
  std::vector<std::string> names;
  if (kernel == "wave3d")
    for (const auto &build : kWave3dBuilds)
      names.push_back(build.name);
  else
    for (const auto &build : kFwiBuilds)
      names.push_back(build.name);
  return names;
}

/// A benchmark of a case: its name and its function.
using Pending = stencil::bench::PendingBenchmark;

/// Adds `name` for (c, threads) to `out`, running `body` on a problem of
/// the case's size (`steps` overrides its T).
void add(std::vector<Pending> &out, const std::string &kernel,
         const std::string &name, Case c, int threads, int64_t steps,
         std::function<void(benchmark::State &, Problem &, Case)> body) {
  std::string full = kernel + "/" + name + "/n:" + std::to_string(c.n) +
                     "/T:" + std::to_string(c.steps) +
                     "/omp:" + std::to_string(threads);
  out.emplace_back(
      full,
      [=](benchmark::State &state) {
        bench_set_threads(threads);
        Problem p(c.n, steps);
        p.wave3d = kernel == "wave3d";
        if (name == "copies") {
          // What store-all copies: its STOREs times the arrays per slot.
          p.adjoint(c.steps);
          stencil_ckpt_stats s = stencil_ckpt_last_stats();
          int64_t grid = c.n * c.n * c.n * int64_t(sizeof(double));
          p.copies = s.stores;
          p.arraysPerSlot = s.slot_bytes / grid;
          int64_t slabs = std::max<int64_t>(
              p.copies * p.arraysPerSlot * c.n, 1);
          p.slots = bench_alloc(size_t(slabs) * c.n * c.n);
          bench_fill(p.slots, slabs, c.n * c.n, 40, 0.0, 0.0);
        }
        // One untimed call first: the adjoint's snapshot workspace faults in
        // on its first call (about 0.3 GB/s on the project's VMs), which one
        // timed repetition of a long call would otherwise include.
        body(state, p, c);
        // The copies touch only their buffer: no reset, which would
        // dominate a sweep of a few microseconds.
        bool clobbers = name != "copies";
        for (auto _ : state) {
          if (clobbers) {
            state.PauseTiming();
            p.reset();
            state.ResumeTiming();
          }
          body(state, p, c);
        }
        stencil_ckpt_stats stats = stencil_ckpt_last_stats();
        state.counters["forward_steps"] = double(stats.forward_steps);
        state.counters["slots"] = double(stats.slots);
        state.counters["slot_bytes"] = double(stats.slot_bytes);
        state.counters["omp_threads"] = threads;
      });
}

/// The copies of the state store-all makes, into a buffer touched before
/// timing, as the runtime keeps the adjoint's workspace between calls.
void copies(benchmark::State &, Problem &p, Case) {
  size_t cells = size_t(p.n) * p.n * p.n;
  for (int64_t t = 0; t < p.copies; ++t)
    for (int64_t k = 0; k < p.arraysPerSlot; ++k)
      bench_copy(p.slots + size_t(t * p.arraysPerSlot + k) * cells,
                 p.u[k % 3], p.n, p.n * p.n);
  benchmark::DoNotOptimize(p.slots);
}

/// Every benchmark of case `c`, for both kernels and every thread count.
std::vector<Pending> caseBenchmarks(Case c) {
  std::vector<Pending> out;
  for (std::string k : {"wave3d", "fwi"})
    for (int threads : threadList()) {
      add(out, k, "primal", c, threads, c.steps,
          [](benchmark::State &, Problem &p, Case) {
            benchmark::DoNotOptimize(p.primal());
          });
      add(out, k, "storeall", c, threads, c.steps,
          [](benchmark::State &, Problem &p, Case) { p.adjoint(p.steps); });
      add(out, k, "revolve_s" + std::to_string(c.snapshots), c, threads,
          c.steps, [](benchmark::State &, Problem &p, Case q) {
            p.adjoint(q.snapshots);
          });
      for (const std::string &build : buildNames(k))
        add(out, k, "revolve_" + build + "_s" + std::to_string(c.snapshots), c,
            threads, c.steps,
            [build](benchmark::State &, Problem &p, Case q) {
              p.adjoint(q.snapshots, build);
            });
      add(out, k, "copies", c, threads, c.steps, copies);
      add(out, k, "step_primal", c, threads, 1,
          [](benchmark::State &, Problem &p, Case) {
            benchmark::DoNotOptimize(p.primal());
          });
      add(out, k, "step_adjoint", c, threads, 1,
          [](benchmark::State &, Problem &p, Case) { p.adjoint(1); });
    }
  return out;
}

} // namespace

int main(int argc, char **argv) {
  benchmark::Initialize(&argc, argv);
  int rounds = roundCount();
  // Case after case; within a case, round after round (BenchThreads.h).
  for (Case c : caseList()) {
    std::vector<Pending> benchmarks = caseBenchmarks(c);
    registerInRounds(benchmarks, rounds);
  }
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
