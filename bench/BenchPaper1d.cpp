//===- BenchPaper1d.cpp - The paper's 1-D example benchmarks ----*- C++ -*-===//
//
// This file implements the paper1d kernel of stencil-bench
// (examples/paper1d.mlir, the paper's Section 3.2):
// r[i] = c[i]*(2 u[i-1] - 3 u[i] + 4 u[i+1]) for 1 <= i <= n-1, default
// n = 1e8 (every array has n + 1 elements, 800 MB; 5 arrays with the
// shadows).
//
//===----------------------------------------------------------------------===//

#include "BenchHarness.h"
#include "HalidePeers.h"

#include <cstdlib>

// The headers of the adjoints our pipeline builds (bench/variants.json),
// one of which also declares the primal, and STENCIL_BENCH_ADJOINTS.
#include "paper1d_variants.h"

using namespace stencil::bench;

namespace {

/// Bytes per point, STREAM-style:
/// - primal: reads c and u, writes r: 3 x 8 = 24.
/// - adjoint: reads c and r_b; adds to u_b (read + write); resets r_b (a
///   write): 5 x 8 = 40. The loop is linear in u, so u is not read.
class Paper1d final : public StencilKernel {
public:
  const char *name() const override { return "paper1d"; }
  int64_t defaultSize() const override { return 100000000; }

  void setUp(int64_t size) override {
    n = size;
    r = Array(n + 1, 1, 1, 0.0, 0.0);
    c = Array(n + 1, 1, 2, 1.0, 0.5);
    u = Array(n + 1, 1, 3, 1.0, -0.5);
    r_b = Array(n + 1, 1, 4, 1.0, -0.5);
    u_b = Array(n + 1, 1, 5, 0.0, 0.0);
    if (halide::available())
      checkHalide();
  }

  void tearDown() override { *this = Paper1d(); }

  void run(Variant v) override {
    MemRef1D dr = r.view1D(), dc = c.view1D(), du = u.view1D(),
             drb = r_b.view1D(), dub = u_b.view1D();
    switch (v) {
    case Variant::Primal:
      return _mlir_ciface_paper1d(&dr, &dc, &du, n);
    case Variant::CPrimal:
      return paper1d_ref(r.data(), c.data(), u.data(), n);
#define STENCIL_BENCH_CALL(ENUM, ENTRY)                                        \
  case Variant::ENUM:                                                          \
    return ENTRY(&dr, &dc, &du, n, &drb, &dub);
      STENCIL_BENCH_ADJOINTS(STENCIL_BENCH_CALL)
#undef STENCIL_BENCH_CALL
    case Variant::HalidePrimal:
      return halide::paper1dPrimal(peerArrays(r, u_b));
    case Variant::HalideAdjoint:
      return halide::paper1dAdjoint(peerArrays(r, u_b));
    default:
      std::abort(); // Not in variants().
    }
  }

  double points() const override { return static_cast<double>(n - 1); }
  double bytesPerPoint(bool adjoint) const override {
    return adjoint ? 40.0 : 24.0;
  }

private:
  /// The arrays of the Halide peer, with its own output and shadow.
  halide::Paper1dArrays peerArrays(const Array &out, const Array &out_b) const {
    return {n, out.data(), c.data(), u.data(), r_b.data(), out_b.data()};
  }

  /// The Halide peer against ours on the same inputs: the primal, and the
  /// gradient from a zero shadow (gather_noreset leaves r_b as it is).
  void checkHalide() {
    Array hr(n + 1, 1, 1, 0.0, 0.0), hb(n + 1, 1, 5, 0.0, 0.0);
    run(Variant::Primal);
    halide::paper1dPrimal(peerArrays(hr, hb));
    requireAgreement("paper1d halide_primal", r, hr);
    run(Variant::GatherNoreset);
    halide::paper1dAdjoint(peerArrays(hr, hb));
    requireAgreement("paper1d halide_adjoint u_b", u_b, hb);
    u_b = Array(n + 1, 1, 5, 0.0, 0.0);
  }

  int64_t n = 0;
  Array r, c, u, r_b, u_b;
};

} // namespace

std::unique_ptr<StencilKernel> stencil::bench::makePaper1d() {
  return std::make_unique<Paper1d>();
}
