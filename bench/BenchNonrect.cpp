//===- BenchNonrect.cpp - Nonrectangular domains against their boxes -*- C++ -*-===//
//
// stencil-bench-nonrect: the gather adjoint of a stencil on a
// nonrectangular domain against its primal, beside the same stencil on the
// domain's bounding box (bench/kernels/nonrect.mlir, lowered with
// `--stencil-adjoint --convert-to-omp`, the defaults):
//
//   triangle, triangle_box   a 5-point star, 2-D, n x n (default 4096)
//   wedge, wedge_box         a 7-point leapfrog step, 3-D, n^3 (default 256)
//
// Each is timed as <kernel>/{primal,adjoint}/n:<n>/omp:<threads>;
// bench/nonrect_ratios.py turns the JSON into adjoint/primal ratios and the
// ratio of a domain's ratio to its box's, within each round (BenchThreads.h,
// STENCIL_BENCH_ROUNDS).
//
// Before anything is timed, every kernel passes the dot-product test
// <J v, w> = <v, J^T w> at n = 37 (2-D) and n = 19 (3-D): the kernels are
// linear in their active arrays, J v is the primal on v, J^T w the gather
// adjoint on w. A failure prints the two sides and exits with 1.
//
// Environment: STENCIL_BENCH_THREADS ("1,2"), STENCIL_BENCH_ROUNDS (1),
// STENCIL_NONRECT_SIZES ("<n 2-D>,<n 3-D>", default "4096,256").
//
//===----------------------------------------------------------------------===//

#include "BenchSupport.h"
#include "BenchThreads.h"
#include "nonrect.h"

#include <benchmark/benchmark.h>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <string>
#include <utility>
#include <vector>

using stencil::bench::PendingBenchmark;
using stencil::bench::registerInRounds;
using stencil::bench::roundCount;
using stencil::bench::threadList;

namespace {

/// An n^rank array of doubles, first touched with the kernels' schedule.
struct Grid {
  int rank;
  int64_t n;
  double *data;

  Grid(int rank, int64_t n, uint64_t seed, double scale)
      : rank(rank), n(n), data(bench_alloc(size_t(count(rank, n)))) {
    bench_fill(data, n, count(rank, n) / n, seed, scale, 0.0);
  }
  Grid(const Grid &) = delete;
  Grid &operator=(const Grid &) = delete;
  ~Grid() { bench_free(data); }

  static int64_t count(int rank, int64_t n) {
    return rank == 2 ? n * n : n * n * n;
  }
  int64_t size() const { return count(rank, n); }
  StencilMemRef2D_f64 view2() const { return stencil_memref2d_f64(data, n, n); }
  StencilMemRef3D_f64 view3() const {
    return stencil_memref3d_f64(data, n, n, n);
  }
  void zero() { bench_fill(data, n, size() / n, 0, 0.0, 0.0); }
};

double dot(const Grid &a, const Grid &b) {
  double s = 0;
  for (int64_t p = 0; p < a.size(); ++p)
    s += a.data[p] * b.data[p];
  return s;
}

/// The arrays of one kernel: r = J(u, u2), their adjoints, and the
/// triangle's passive coefficient c.
struct Problem {
  bool threeD;
  Grid r, u, u2, c, rb, ub, u2b;
  static constexpr double D = 0.1;

  Problem(bool threeD, int64_t n)
      : threeD(threeD), r(rank(threeD), n, 1, 0.0), u(rank(threeD), n, 2, 1.0),
        u2(rank(threeD), n, 3, 1.0), c(rank(threeD), n, 4, 1.0),
        rb(rank(threeD), n, 5, 1.0), ub(rank(threeD), n, 6, 0.0),
        u2b(rank(threeD), n, 7, 0.0) {}
  static int rank(bool threeD) { return threeD ? 3 : 2; }
};

using Call = void (*)(Problem &);

#define STENCIL_NONRECT_2D(NAME)                                               \
  void NAME##Primal(Problem &p) {                                              \
    auto r = p.r.view2(), u = p.u.view2(), c = p.c.view2();                    \
    _mlir_ciface_##NAME(&r, &u, &c, p.r.n);                                    \
  }                                                                            \
  void NAME##Adjoint(Problem &p) {                                             \
    auto r = p.r.view2(), u = p.u.view2(), c = p.c.view2(),                    \
         rb = p.rb.view2(), ub = p.ub.view2();                                 \
    _mlir_ciface_##NAME##_adjoint(&r, &u, &c, p.r.n, &rb, &ub);                \
  }
#define STENCIL_NONRECT_3D(NAME)                                               \
  void NAME##Primal(Problem &p) {                                              \
    auto r = p.r.view3(), u = p.u.view3(), u2 = p.u2.view3();                  \
    _mlir_ciface_##NAME(&r, &u, &u2, Problem::D, p.r.n);                       \
  }                                                                            \
  void NAME##Adjoint(Problem &p) {                                             \
    auto r = p.r.view3(), u = p.u.view3(), u2 = p.u2.view3(),                  \
         rb = p.rb.view3(), ub = p.ub.view3(), u2b = p.u2b.view3();            \
    _mlir_ciface_##NAME##_adjoint(&r, &u, &u2, Problem::D, p.r.n, &rb, &ub,    \
                                  &u2b);                                       \
  }
STENCIL_NONRECT_2D(triangle)
STENCIL_NONRECT_2D(triangle_box)
STENCIL_NONRECT_3D(wedge)
STENCIL_NONRECT_3D(wedge_box)
#undef STENCIL_NONRECT_2D
#undef STENCIL_NONRECT_3D

struct Kernel {
  const char *name;
  bool threeD;
  Call primal, adjoint;
};

const Kernel kernels[] = {
    {"triangle", false, trianglePrimal, triangleAdjoint},
    {"triangle_box", false, triangle_boxPrimal, triangle_boxAdjoint},
    {"wedge", true, wedgePrimal, wedgeAdjoint},
    {"wedge_box", true, wedge_boxPrimal, wedge_boxAdjoint},
};

/// The dot-product test of `k` at size n: <J v, w> against <v, J^T w>,
/// with v = (u, u2) (u2 only in 3-D) and w = rb (the adjoint resets it, so
/// it is copied first).
bool dotProductTest(const Kernel &k, int64_t n) {
  Problem p(k.threeD, n);
  k.primal(p);
  Grid w(Problem::rank(k.threeD), n, 5, 1.0);
  double lhs = dot(p.r, w);
  k.adjoint(p);
  double rhs = dot(p.u, p.ub) + (k.threeD ? dot(p.u2, p.u2b) : 0.0);
  double err = std::fabs(lhs - rhs) / std::max(std::fabs(lhs), 1e-300);
  bool ok = err < 1e-12 && lhs != 0.0;
  std::printf("%s: dot-product test at n = %lld: <Jv,w> = %.17g, "
              "<v,J^T w> = %.17g, relative difference %.2g: %s\n",
              k.name, static_cast<long long>(n), lhs, rhs, err,
              ok ? "ok" : "FAIL");
  return ok;
}

/// STENCIL_NONRECT_SIZES: the 2-D and 3-D sizes.
std::pair<int64_t, int64_t> sizes() {
  int64_t n2 = 4096, n3 = 256;
  if (const char *env = std::getenv("STENCIL_NONRECT_SIZES"))
    std::sscanf(env, "%lld,%lld", reinterpret_cast<long long *>(&n2),
                reinterpret_cast<long long *>(&n3));
  return {n2, n3};
}

std::vector<PendingBenchmark> allBenchmarks() {
  auto [n2, n3] = sizes();
  std::vector<PendingBenchmark> out;
  for (const Kernel &k : kernels)
    for (int threads : threadList())
      for (bool adjoint : {false, true}) {
        int64_t n = k.threeD ? n3 : n2;
        std::string name = std::string(k.name) +
                           (adjoint ? "/adjoint" : "/primal") +
                           "/n:" + std::to_string(n) +
                           "/omp:" + std::to_string(threads);
        Call call = adjoint ? k.adjoint : k.primal;
        bool threeD = k.threeD;
        out.emplace_back(name, [=](benchmark::State &state) {
          bench_set_threads(threads);
          Problem p(threeD, n);
          call(p); // Faults in whatever the call allocates.
          for (auto _ : state)
            call(p);
          state.counters["omp_threads"] = threads;
        });
      }
  return out;
}

} // namespace

int main(int argc, char **argv) {
  benchmark::Initialize(&argc, argv);
  bool ok = true;
  for (const Kernel &k : kernels)
    ok &= dotProductTest(k, k.threeD ? 19 : 37);
  if (!ok)
    return 1;
  std::vector<PendingBenchmark> benchmarks = allBenchmarks();
  registerInRounds(benchmarks, roundCount());
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
