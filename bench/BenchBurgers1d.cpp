//===- BenchBurgers1d.cpp - 1-D Burgers equation benchmarks -----*- C++ -*-===//
//
// This file implements the burgers1d kernel of stencil-bench
// (examples/burgers1d.mlir, the paper's Section 4.2): one upwinded
// time step on n cells, default n = 1e8 (800 MB per array, 4 arrays with
// the shadows).
//
//===----------------------------------------------------------------------===//

#include "BenchHarness.h"
#include "HalidePeers.h"

#include <cstdlib>

// The headers of the adjoints our pipeline builds (bench/variants.json),
// one of which also declares the primal, and STENCIL_BENCH_ADJOINTS.
#include "burgers1d_variants.h"

using namespace stencil::bench;

namespace {

/// Bytes per interior point, STREAM-style:
/// - primal: reads u_1, writes u: 2 x 8 = 16.
/// - adjoint: reads u_1 (the step is nonlinear) and u_b; adds to u_1b (read
///   + write); resets u_b (a write): 5 x 8 = 40.
class Burgers1d final : public StencilKernel {
public:
  const char *name() const override { return "burgers1d"; }
  int64_t defaultSize() const override { return 100000000; }

  void setUp(int64_t size) override {
    n = size;
    // u_1 takes both signs, so both upwind branches are exercised.
    u = Array(n, 1, 1, 0.0, 0.0);
    u_1 = Array(n, 1, 2, 1.0, -0.5);
    u_b = Array(n, 1, 3, 1.0, -0.5);
    u_1b = Array(n, 1, 4, 0.0, 0.0);
    if (halide::available())
      checkHalide();
  }

  void tearDown() override { *this = Burgers1d(); }

  void run(Variant v) override {
    MemRef1D du = u.view1D(), du_1 = u_1.view1D(), db = u_b.view1D(),
             db_1 = u_1b.view1D();
    switch (v) {
    case Variant::Primal:
      return _mlir_ciface_burgers1d(&du, &du_1, kC, kD, n);
    case Variant::CPrimal:
      return burgers1d_ref(u.data(), u_1.data(), kC, kD, n);
#define STENCIL_BENCH_CALL(ENUM, ENTRY)                                        \
  case Variant::ENUM:                                                          \
    return ENTRY(&du, &du_1, kC, kD, n, &db, &db_1);
      STENCIL_BENCH_ADJOINTS(STENCIL_BENCH_CALL)
#undef STENCIL_BENCH_CALL
    case Variant::HalidePrimal:
      return halide::burgers1dPrimal(peerArrays(u, u_1b));
    case Variant::HalideAdjoint:
      return halide::burgers1dAdjoint(peerArrays(u, u_1b));
    default:
      std::abort(); // Not in variants().
    }
  }

  double points() const override { return static_cast<double>(n - 2); }
  double bytesPerPoint(bool adjoint) const override {
    return adjoint ? 40.0 : 16.0;
  }

private:
  /// The arrays of the Halide peer, with its own output and shadow.
  halide::Burgers1dArrays peerArrays(const Array &out,
                                     const Array &out_1b) const {
    return {n, kC, kD, out.data(), u_1.data(), u_b.data(), out_1b.data()};
  }

  /// The Halide peer against ours on the same inputs: the primal, and the
  /// gradient from a zero shadow (gather_noreset leaves u_b as it is).
  void checkHalide() {
    Array hu(n, 1, 1, 0.0, 0.0), h1(n, 1, 4, 0.0, 0.0);
    run(Variant::Primal);
    halide::burgers1dPrimal(peerArrays(hu, h1));
    requireAgreement("burgers1d halide_primal", u, hu);
    run(Variant::GatherNoreset);
    halide::burgers1dAdjoint(peerArrays(hu, h1));
    requireAgreement("burgers1d halide_adjoint u_1b", u_1b, h1);
    u_1b = Array(n, 1, 4, 0.0, 0.0);
  }

  static constexpr double kC = 0.1;
  static constexpr double kD = 0.05;
  int64_t n = 0;
  Array u, u_1, u_b, u_1b;
};

} // namespace

std::unique_ptr<StencilKernel> stencil::bench::makeBurgers1d() {
  return std::make_unique<Burgers1d>();
}
