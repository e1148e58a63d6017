//===- BenchWave3dLayered.cpp - wave3d with a layered speed -----*- C++ -*-===//
//
// This file implements the wave3d_layered kernel of stencil-bench
// (bench/kernels/wave3d_layered.mlir): one step of wave3d whose speed v[k]
// depends on the depth only and is active, on an n^3 grid, default
// n = 320. Its adjoint sums v_b[k] over (i, j). The variant gather_coef3d
// is the same step with a full 3-D c active (bench/kernels/
// wave3d_coef3d.mlir), run on c[i][j][k] = v[k]: the yardstick of the
// reduction.
//
//===----------------------------------------------------------------------===//

#include "BenchHarness.h"

#include <algorithm>
#include <cstdlib>
#include <string>
#include <vector>

// The headers of the adjoints our pipeline builds (bench/variants.json),
// one of which also declares the primal, and STENCIL_BENCH_ADJOINTS.
#include "wave3d_layered_variants.h"

using namespace stencil::bench;

namespace {

/// The adjoint with v[k] active, and with a 3-D c active.
using LayeredAdjoint = void (*)(MemRef3D *, MemRef3D *, MemRef3D *,
                                MemRef1D *, double, int64_t, MemRef3D *,
                                MemRef3D *, MemRef3D *, MemRef1D *);
using Coef3dAdjoint = void (*)(MemRef3D *, MemRef3D *, MemRef3D *,
                               MemRef3D *, double, int64_t, MemRef3D *,
                               MemRef3D *, MemRef3D *, MemRef3D *);

/// Bytes per interior point, STREAM-style (v and v_b stay in cache):
/// - primal: reads u_1, u_2; writes u: 3 x 8 = 24.
/// - adjoint: reads u_b and u_1 (v_b's products); adds to u_1b and u_2b
///   (read + write each); resets u_b: 7 x 8 = 56. gather_coef3d also
///   reads c and adds to c_b: 80.
class Wave3dLayered final : public StencilKernel {
public:
  const char *name() const override { return "wave3d_layered"; }
  int64_t defaultSize() const override { return 320; }

  void setUp(int64_t size) override {
    n = size;
    u = Array(n, n * n, 1, 0.0, 0.0);
    u_1 = Array(n, n * n, 2, 1.0, -0.5);
    u_2 = Array(n, n * n, 3, 1.0, -0.5);
    v = Array(1, n, 4, 0.5, 0.5);
    c = Array(n, n * n, 0, 0.0, 0.0);
    for (int64_t p = 0; p < n * n * n; ++p)
      c.data()[p] = v.data()[p % n];
    resetInputs();
    check();
  }

  void tearDown() override { *this = Wave3dLayered(); }

  void run(Variant variant) override {
    MemRef3D du = u.view3D(n), du_1 = u_1.view3D(n), du_2 = u_2.view3D(n),
             dc = c.view3D(n), db = u_b.view3D(n), db_1 = u_1b.view3D(n),
             db_2 = u_2b.view3D(n), dcb = c_b.view3D(n);
    MemRef1D dv = v.view1D(), dvb = v_b.view1D();
    Args args{du, du_1, du_2, dv, dc, db, db_1, db_2, dvb, dcb};
    switch (variant) {
    case Variant::Primal:
      return _mlir_ciface_wave3d_layered(&du, &du_1, &du_2, &dv, kD, n);
    case Variant::CPrimal:
      return wave3d_layered_ref(u.data(), u_1.data(), u_2.data(), v.data(), kD,
                                n);
#define STENCIL_BENCH_CALL(ENUM, ENTRY)                                        \
  case Variant::ENUM:                                                          \
    return call(ENTRY, args);
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
    return adjoint ? 56.0 : 24.0;
  }

private:
  struct Args {
    MemRef3D u, u_1, u_2;
    MemRef1D v;
    MemRef3D c, u_b, u_1b, u_2b;
    MemRef1D v_b;
    MemRef3D c_b;
  };
  void call(LayeredAdjoint f, Args &a) {
    f(&a.u, &a.u_1, &a.u_2, &a.v, kD, n, &a.u_b, &a.u_1b, &a.u_2b, &a.v_b);
  }
  void call(Coef3dAdjoint f, Args &a) {
    f(&a.u, &a.u_1, &a.u_2, &a.c, kD, n, &a.u_b, &a.u_1b, &a.u_2b, &a.c_b);
  }

  /// Before anything is timed: our primal against the hand-written C one;
  /// the gather adjoint against the serial scatter adjoint and against the
  /// 3-D one on c[i][j][k] = v[k] (u_1b, u_2b, and v_b against c_b summed
  /// over (i, j) here), each from the same u_b and zero shadows.
  void check() {
    run(Variant::Primal);
    Array ours = copyOf(u);
    run(Variant::CPrimal);
    requireAgreement("wave3d_layered c_primal", ours, u);
    run(Variant::GatherCompact);
    Array g1 = copyOf(u_1b), g2 = copyOf(u_2b), gv = copyOf(v_b);
    resetInputs();
    run(Variant::ScatterSerial);
    requireAgreement("wave3d_layered scatter_serial u_1b", g1, u_1b);
    requireAgreement("wave3d_layered scatter_serial u_2b", g2, u_2b);
    requireAgreement("wave3d_layered scatter_serial v_b", gv.data(),
                     v_b.data(), n, 1e-10);
    resetInputs();
    run(Variant::GatherCoef3d);
    requireAgreement("wave3d_layered gather_coef3d u_1b", g1, u_1b);
    requireAgreement("wave3d_layered gather_coef3d u_2b", g2, u_2b);
    std::vector<double> summed(n, 0.0);
    for (int64_t p = 0; p < n * n * n; ++p)
      summed[p % n] += c_b.data()[p];
    requireAgreement("wave3d_layered gather_coef3d v_b", gv.data(),
                     summed.data(), n, 1e-10);
    resetInputs();
  }

  /// u_b as setUp makes it, and zero shadows.
  void resetInputs() {
    u_b = Array(n, n * n, 5, 1.0, -0.5);
    u_1b = Array(n, n * n, 6, 0.0, 0.0);
    u_2b = Array(n, n * n, 7, 0.0, 0.0);
    c_b = Array(n, n * n, 8, 0.0, 0.0);
    v_b = Array(1, n, 9, 0.0, 0.0);
  }

  /// A copy of `a`.
  static Array copyOf(const Array &a) {
    Array out(1, static_cast<int64_t>(a.size()), 0, 0.0, 0.0);
    std::copy(a.data(), a.data() + a.size(), out.data());
    return out;
  }

  static constexpr double kD = 0.1;
  int64_t n = 0;
  Array u, u_1, u_2, v, c, u_b, u_1b, u_2b, v_b, c_b;
};

} // namespace

std::unique_ptr<StencilKernel> stencil::bench::makeWave3dLayered() {
  return std::make_unique<Wave3dLayered>();
}
