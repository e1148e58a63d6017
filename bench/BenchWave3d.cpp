//===- BenchWave3d.cpp - 3-D wave equation benchmarks -----------*- C++ -*-===//
//
// This file implements the wave3d kernel of stencil-bench
// (examples/wave3d.mlir, the paper's Section 4.1): one time step on an
// n^3 grid, default n = 320 (262 MB per array, 7 arrays with the shadows).
//
//===----------------------------------------------------------------------===//

#include "BenchHarness.h"
#include "HalidePeers.h"

#include <algorithm>
#include <cstdlib>
#include <string>

// The headers of the adjoints our pipeline builds (bench/variants.json),
// one of which also declares the primal, and STENCIL_BENCH_ADJOINTS.
#include "wave3d_variants.h"

using namespace stencil::bench;

namespace {

/// Bytes per interior point, STREAM-style:
/// - primal: reads u_1, u_2, c; writes u: 4 x 8 = 32.
/// - adjoint: reads u_b and c; adds to u_1b and u_2b (read + write each);
///   resets u_b to zero (a write): 7 x 8 = 56.
/// The primal values u_1, u_2 are not needed: the step is linear in them.
class Wave3d final : public StencilKernel {
public:
  const char *name() const override { return "wave3d"; }
  int64_t defaultSize() const override { return 320; }
  /// n = 128 (17 MB per array) fits the L3, n = 64 (2 MB) nearly the L2.
  std::vector<int64_t> extraSizes() const override { return {128, 64}; }

  void setUp(int64_t size) override {
    n = size;
    u = Array(n, n * n, 1, 0.0, 0.0);
    u_1 = Array(n, n * n, 2, 1.0, -0.5);
    u_2 = Array(n, n * n, 3, 1.0, -0.5);
    c = Array(n, n * n, 4, 0.5, 0.5);
    resetInputs();
    if (halide::available())
      checkHalide();
    checkCores();
    checkUncut();
  }

  void tearDown() override { *this = Wave3d(); }

  void run(Variant v) override {
    MemRef3D du = u.view3D(n), du_1 = u_1.view3D(n), du_2 = u_2.view3D(n),
             dc = c.view3D(n), db = u_b.view3D(n), db_1 = u_1b.view3D(n),
             db_2 = u_2b.view3D(n);
    switch (v) {
    case Variant::Primal:
      return _mlir_ciface_wave3d(&du, &du_1, &du_2, &dc, kD, n);
    case Variant::CPrimal:
      return wave3d_ref(u.data(), u_1.data(), u_2.data(), c.data(), kD, n);
#define STENCIL_BENCH_CALL(ENUM, ENTRY)                                        \
  case Variant::ENUM:                                                          \
    return ENTRY(&du, &du_1, &du_2, &dc, kD, n, &db, &db_1, &db_2);
      STENCIL_BENCH_ADJOINTS(STENCIL_BENCH_CALL)
#undef STENCIL_BENCH_CALL
    case Variant::CGatherCore:
      return wave3d_gather_core_ref(u_1b.data(), u_2b.data(), u_b.data(),
                                    c.data(), kD, n);
    case Variant::CGatherCoreTiled:
      return wave3d_gather_core_tiled_ref(u_1b.data(), u_2b.data(),
                                          u_b.data(), c.data(), kD, n, 32);
    case Variant::CGatherCoreRing:
      return wave3d_gather_core_ring_ref(u_1b.data(), u_2b.data(),
                                         u_b.data(), c.data(), kD, n);
    case Variant::HalidePrimal:
      return halide::wave3dPrimal(peerArrays(u, u_1b, u_2b));
    case Variant::HalideAdjoint:
      return halide::wave3dAdjoint(peerArrays(u, u_1b, u_2b));
    }
    std::abort(); // Not a variant.
  }

  double points() const override {
    double interior = static_cast<double>(n - 2);
    return interior * interior * interior;
  }
  double bytesPerPoint(bool adjoint) const override {
    return adjoint ? 56.0 : 32.0;
  }

private:
  /// The arrays of the Halide peer, with its own output and shadows.
  halide::Wave3dArrays peerArrays(const Array &out, const Array &out_1b,
                                  const Array &out_2b) const {
    return {n,        kD,         out.data(),    u_1.data(),   u_2.data(),
            c.data(), u_b.data(), out_1b.data(), out_2b.data()};
  }

  /// The Halide peer against ours on the same inputs: the primal, and the
  /// gradients from zero shadows (gather_noreset leaves u_b as it is).
  void checkHalide() {
    Array hu(n, n * n, 1, 0.0, 0.0), h1(n, n * n, 6, 0.0, 0.0),
        h2(n, n * n, 7, 0.0, 0.0);
    run(Variant::Primal);
    halide::wave3dPrimal(peerArrays(hu, h1, h2));
    requireAgreement("wave3d halide_primal", u, hu);
    run(Variant::GatherNoreset);
    halide::wave3dAdjoint(peerArrays(hu, h1, h2));
    requireAgreement("wave3d halide_adjoint u_1b", u_1b, h1);
    requireAgreement("wave3d halide_adjoint u_2b", u_2b, h2);
    zeroShadows();
  }

  /// The hand-written C cores against ours on the core points: each from
  /// zero shadows, everything outside [2, n-2)^3 zeroed before comparing.
  void checkCores() {
    run(Variant::GatherNoreset);
    Array ours1 = coreOf(u_1b), ours2 = coreOf(u_2b);
    for (Variant v :
         {Variant::CGatherCore, Variant::CGatherCoreTiled, Variant::CGatherCoreRing}) {
      zeroShadows();
      run(v);
      Array c1 = coreOf(u_1b), c2 = coreOf(u_2b);
      std::string what = std::string("wave3d ") + variantName(v);
      requireAgreement(what + " u_1b", ours1, c1);
      requireAgreement(what + " u_2b", ours2, c2);
    }
    zeroShadows();
  }

  /// gather_uncut (nothing cut) against the default (its product cut
  /// into rings, its reset fused per point), from the same u_b and zero
  /// shadows, on every point: the same sums, and u_b reset by both.
  void checkUncut() {
    run(Variant::GatherCompact);
    Array ring1 = copyOf(u_1b), ring2 = copyOf(u_2b), ringB = copyOf(u_b);
    resetInputs();
    run(Variant::GatherUncut);
    requireAgreement("wave3d gather_uncut u_1b", ring1, u_1b);
    requireAgreement("wave3d gather_uncut u_2b", ring2, u_2b);
    requireAgreement("wave3d gather_uncut u_b", ringB, u_b);
    resetInputs();
  }

  /// u_b as setUp makes it, and zero shadows.
  void resetInputs() {
    u_b = Array(n, n * n, 5, 1.0, -0.5);
    zeroShadows();
  }

  /// The shadows the adjoints update, zero (as setUp leaves them).
  void zeroShadows() {
    u_1b = Array(n, n * n, 6, 0.0, 0.0);
    u_2b = Array(n, n * n, 7, 0.0, 0.0);
  }

  /// A copy of `a`.
  Array copyOf(const Array &a) const {
    Array out(n, n * n, 0, 0.0, 0.0);
    std::copy(a.data(), a.data() + a.size(), out.data());
    return out;
  }

  /// A copy of `a` with the points outside [2, n-2)^3 set to zero.
  Array coreOf(const Array &a) const {
    Array out(n, n * n, 0, 0.0, 0.0);
    for (int64_t i = 2; i < n - 2; ++i)
      for (int64_t j = 2; j < n - 2; ++j)
        for (int64_t k = 2; k < n - 2; ++k) {
          int64_t p = (i * n + j) * n + k;
          out.data()[p] = a.data()[p];
        }
    return out;
  }

  static constexpr double kD = 0.1;
  int64_t n = 0;
  Array u, u_1, u_2, c, u_b, u_1b, u_2b;
};

} // namespace

std::unique_ptr<StencilKernel> stencil::bench::makeWave3d() {
  return std::make_unique<Wave3d>();
}
