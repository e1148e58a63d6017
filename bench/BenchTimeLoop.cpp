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
//   fwi/revolve_whole_s<S>  the same, its snapshots holding whole arrays
//                         (snapshot-borders=false): the slots of the
//                         default keep only the faces of u_next, which the
//                         step overwrites before reading (wave3d keeps no
//                         snapshot)
//   <k>/revolve_three_s<S>  the same, each reversed step running dimension
//                         0 as three worksharing loops (lower slab, core,
//                         upper slab; one-outer-loop=0) instead of one
//   <k>/revolve_stored_s<S>  the same, each steady step storing prev's
//                         shadow itself (defer-hand-overs=0) instead of
//                         the next step reversed storing it fused into its
//                         update of cur's
//   <k>/revolve_unpeeled_s<S>  the same, the innermost dimension's slabs
//                         guarded per statement at each point and the
//                         outer ones split per statement
//                         (peel-innermost=0) instead of straight-line
//   <k>/revolve_inner_s<S>  the same, only the innermost dimension's
//                         slabs straight-line (peel-outer=0)
//   <k>/revolve_cut_s<S>  the same, values shared by shifted statements
//                         stored in temporaries the size of the grid
//                         (cut-min-gain=1 ring-cut=0), allocated once
//                         before the reversed loop
//   <k>/revolve_cutalloc_s<S>  the same, each step allocating and freeing
//                         them (hoist-temporaries=0)
//   <k>/revolve_noring_s<S>  nothing cut (cut-ring-min-gain=0): the
//                         default before it kept the shared product in
//                         per-thread rings of planes
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
// (STENCIL_BENCH_ROUNDS, BenchThreads.h; bench/timeloop_ratios.py). Nothing is checked here: fwi-example.test and
// time-loops.test check the gradients.
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
#include "fwi_inner.h"
#include "fwi_stored.h"
#include "fwi_cut.h"
#include "fwi_cutalloc.h"
#include "fwi_noring.h"
#include "fwi_three.h"
#include "fwi_unpeeled.h"
#include "fwi_whole.h"
#include "wave3d_loop_inner.h"
#include "wave3d_loop_stored.h"
#include "wave3d_loop_cut.h"
#include "wave3d_loop_cutalloc.h"
#include "wave3d_loop_noring.h"
#include "wave3d_loop_three.h"
#include "wave3d_loop_unpeeled.h"
#include "wave3d_loop.h"

#include <benchmark/benchmark.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <sstream>
#include <string>
#include <vector>

using stencil::bench::roundCount;
using stencil::bench::roundName;
using stencil::bench::roundOrder;
using stencil::bench::threadList;

namespace {

struct Case {
  int64_t n, steps, snapshots;
};

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
  /// Which build of the adjoint runs: the default, whole-array snapshots
  /// (fwi only), three worksharing loops per step, hand-overs stored in
  /// the step, the slabs guarded or split, only the innermost ones peeled,
  /// cut temporaries allocated once or per step.
  enum class Build {
    Default,
    WholeSlots,
    ThreeLoops,
    Stored,
    Unpeeled,
    InnerOnly,
    Cut,
    CutAlloc,
    NoRing
  };
  void adjoint(int64_t snapshots, Build build = Build::Default) {
    auto a = grid(u[0]), b = grid(u[1]), c = grid(u[2]), md = grid(m);
    auto ab = grid(ub[0]), bb = grid(ub[1]), cb = grid(ub[2]), mbd = grid(mb);
    if (wave3d) {
      auto *gradient = build == Build::ThreeLoops
                           ? _mlir_ciface_wave3d_loop_adjoint_three
                       : build == Build::Stored
                           ? _mlir_ciface_wave3d_loop_adjoint_stored
                       : build == Build::Unpeeled
                           ? _mlir_ciface_wave3d_loop_adjoint_unpeeled
                       : build == Build::InnerOnly
                           ? _mlir_ciface_wave3d_loop_adjoint_inner
                       : build == Build::Cut
                           ? _mlir_ciface_wave3d_loop_adjoint_cut
                       : build == Build::CutAlloc
                           ? _mlir_ciface_wave3d_loop_adjoint_cutalloc
                       : build == Build::NoRing
                           ? _mlir_ciface_wave3d_loop_adjoint_noring
                           : _mlir_ciface_wave3d_loop_adjoint;
      gradient(&a, &b, &c, &md, n, steps, &ab, &bb, &cb, snapshots);
      return;
    }
    auto wd = stencil_memref1d_f64(w, steps);
    auto dd = stencil_memref3d_f64(d, steps, n, n);
    auto *gradient = build == Build::WholeSlots ? _mlir_ciface_fwi_adjoint_whole
                     : build == Build::ThreeLoops
                         ? _mlir_ciface_fwi_adjoint_three
                     : build == Build::Stored ? _mlir_ciface_fwi_adjoint_stored
                     : build == Build::Unpeeled
                         ? _mlir_ciface_fwi_adjoint_unpeeled
                     : build == Build::InnerOnly
                         ? _mlir_ciface_fwi_adjoint_inner
                     : build == Build::Cut ? _mlir_ciface_fwi_adjoint_cut
                     : build == Build::CutAlloc
                         ? _mlir_ciface_fwi_adjoint_cutalloc
                     : build == Build::NoRing ? _mlir_ciface_fwi_adjoint_noring
                         : _mlir_ciface_fwi_adjoint;
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

/// The builds of the Revolve adjoint timed beside the default, as
/// revolve_<name>_s<S> (bench/CMakeLists.txt builds them).
const std::pair<const char *, Problem::Build> kBuilds[] = {
    {"whole", Problem::Build::WholeSlots},
    {"three", Problem::Build::ThreeLoops},
    {"stored", Problem::Build::Stored},
    {"unpeeled", Problem::Build::Unpeeled},
    {"inner", Problem::Build::InnerOnly},
    {"cut", Problem::Build::Cut},
    {"cutalloc", Problem::Build::CutAlloc},
    {"noring", Problem::Build::NoRing}};

/// A benchmark of a case: its name and its function.
using Pending = std::pair<std::string, std::function<void(benchmark::State &)>>;

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
      for (auto [name, build] : kBuilds) {
        if (build == Problem::Build::WholeSlots && k != "fwi")
          continue; // wave3d keeps no snapshot.
        add(out, k,
            std::string("revolve_") + name + "_s" +
                std::to_string(c.snapshots),
            c, threads, c.steps,
            [build = build](benchmark::State &, Problem &p, Case q) {
              p.adjoint(q.snapshots, build);
            });
      }
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
    for (int round = 0; round < rounds; ++round) {
      roundOrder(benchmarks, round, rounds);
      for (auto &[name, body] : benchmarks)
        benchmark::RegisterBenchmark(roundName(name, round, rounds).c_str(),
                                     body)
            ->UseRealTime()
            ->Unit(benchmark::kMillisecond);
    }
  }
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
