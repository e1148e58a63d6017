//===- BenchFilter3d.cpp - 3x3x3 filter with active weights -----*- C++ -*-===//
//
// This file implements the filter3d kernel of stencil-bench
// (bench/kernels/filter3d.mlir): a 3-D convolution with 27 taps held in an
// array w of 3 x 3 x 3, both u and w active, on an n^3 grid, default
// n = 256 (134 MB per array, 4 arrays with the shadows). Its adjoint sums
// the gradient of each tap over the whole domain: 27 reductions, which the
// variant gather_no_weights (w passive) leaves out.
//
//===----------------------------------------------------------------------===//

#include "BenchHarness.h"

#include <algorithm>
#include <cstdlib>
#include <string>

// The headers of the adjoints our pipeline builds (bench/variants.json),
// one of which also declares the primal, and STENCIL_BENCH_ADJOINTS.
#include "filter3d_variants.h"

using namespace stencil::bench;

namespace {

/// The adjoint with w active (u_b and w_b), and with w passive (u_b).
using WholeAdjoint = void (*)(MemRef3D *, MemRef3D *, MemRef3D *, int64_t,
                              MemRef3D *, MemRef3D *, MemRef3D *);
using InputAdjoint = void (*)(MemRef3D *, MemRef3D *, MemRef3D *, int64_t,
                              MemRef3D *, MemRef3D *);

/// Bytes per interior point, STREAM-style (w and w_b stay in cache):
/// - primal: reads u, writes r: 2 x 8 = 16.
/// - adjoint: reads r_b and u (w_b's products), adds to u_b (read + write),
///   resets r_b (a write): 5 x 8 = 40; without w_b (gather_no_weights) u
///   is not read: 32.
class Filter3d final : public StencilKernel {
public:
  const char *name() const override { return "filter3d"; }
  int64_t defaultSize() const override { return 256; }

  void setUp(int64_t size) override {
    n = size;
    r = Array(n, n * n, 1, 0.0, 0.0);
    u = Array(n, n * n, 2, 1.0, -0.5);
    w = Array(1, 27, 3, 1.0, -0.5);
    resetInputs();
    check();
  }

  void tearDown() override { *this = Filter3d(); }

  void run(Variant v) override {
    MemRef3D dr = r.view3D(n), du = u.view3D(n), dw = w.view3D(3),
             drb = r_b.view3D(n), dub = u_b.view3D(n), dwb = w_b.view3D(3);
    switch (v) {
    case Variant::Primal:
      return _mlir_ciface_filter3d(&dr, &du, &dw, n);
    case Variant::CPrimal:
      return filter3d_ref(r.data(), u.data(), w.data(), n);
#define STENCIL_BENCH_CALL(ENUM, ENTRY)                                        \
  case Variant::ENUM:                                                          \
    return call(ENTRY, dr, du, dw, drb, dub, dwb);
      STENCIL_BENCH_ADJOINTS(STENCIL_BENCH_CALL)
#undef STENCIL_BENCH_CALL
    default:
      std::abort(); // Not in variants().
    }
  }

  double points() const override {
    double interior = static_cast<double>(n - 2);
    return interior * interior * interior;
  }
  double bytesPerPoint(bool adjoint) const override {
    return adjoint ? 40.0 : 16.0;
  }

private:
  void call(WholeAdjoint f, MemRef3D &dr, MemRef3D &du, MemRef3D &dw,
            MemRef3D &drb, MemRef3D &dub, MemRef3D &dwb) {
    f(&dr, &du, &dw, n, &drb, &dub, &dwb);
  }
  void call(InputAdjoint f, MemRef3D &dr, MemRef3D &du, MemRef3D &dw,
            MemRef3D &drb, MemRef3D &dub, MemRef3D &) {
    f(&dr, &du, &dw, n, &drb, &dub);
  }

  /// Before anything is timed: our primal against the hand-written C one;
  /// the gather adjoint against the serial scatter adjoint (u_b, and w_b,
  /// whose sums run in another order) and against the adjoint with w
  /// passive (u_b), each from the same r_b and zero shadows.
  void check() {
    run(Variant::Primal);
    Array ours = copyOf(r);
    run(Variant::CPrimal);
    requireAgreement("filter3d c_primal", ours, r);
    run(Variant::GatherCompact);
    Array gatherU = copyOf(u_b), gatherW = copyOf(w_b);
    resetInputs();
    run(Variant::ScatterSerial);
    requireAgreement("filter3d scatter_serial u_b", gatherU, u_b);
    requireAgreement("filter3d scatter_serial w_b", gatherW.data(), w_b.data(),
                     27, 1e-10);
    resetInputs();
    run(Variant::GatherNoWeights);
    requireAgreement("filter3d gather_no_weights u_b", gatherU, u_b);
    resetInputs();
  }

  /// r_b as setUp makes it, and zero shadows.
  void resetInputs() {
    r_b = Array(n, n * n, 4, 1.0, -0.5);
    u_b = Array(n, n * n, 5, 0.0, 0.0);
    w_b = Array(1, 27, 6, 0.0, 0.0);
  }

  /// A copy of `a`.
  static Array copyOf(const Array &a) {
    Array out(1, static_cast<int64_t>(a.size()), 0, 0.0, 0.0);
    std::copy(a.data(), a.data() + a.size(), out.data());
    return out;
  }

  int64_t n = 0;
  Array r, u, w, r_b, u_b, w_b;
};

} // namespace

std::unique_ptr<StencilKernel> stencil::bench::makeFilter3d() {
  return std::make_unique<Filter3d>();
}
