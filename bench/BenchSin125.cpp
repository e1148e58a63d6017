//===- BenchSin125.cpp - Nonlinear 5x5x5 stencil benchmarks -----*- C++ -*-===//
//
// This file implements the sin125 kernel of stencil-bench
// (bench/kernels/sin125.mlir): the sine of a weighted sum of 125 taps on an
// n^3 grid, default n = 128 (16.8 MB per array). It is compute bound, and
// its gather adjoint exists only with the cut (--stencil-cut-shared): every
// statement shares cos(sum) * r_b. The variants that only change the
// boundary nests or the reset order (exact, planes, guarded: with 125
// statements per slab the slabs stay guarded anyway) and gather_cut (the
// default already cuts that value) are not built.
//
//===----------------------------------------------------------------------===//

#include "BenchHarness.h"
#include "HalidePeers.h"

#include "sin125_gather_compact.h"
#include "sin125_gather_noreset.h"
#include "sin125_gather_unfused.h"
#include "sin125_scatter_atomic.h"
#include "sin125_scatter_serial.h"

#include <cstdlib>

using namespace stencil::bench;

namespace {

/// Bytes per interior point, STREAM-style:
/// - primal: reads u, writes r: 2 x 8 = 16.
/// - adjoint: reads u (for cos of the sum) and r_b, adds to u_b (read +
///   write), resets r_b (a write): 5 x 8 = 40. The temporary of the cut
///   (written once, read once) is not counted: it is the gather form's own
///   traffic, not the problem's.
class Sin125 final : public StencilKernel {
public:
  const char *name() const override { return "sin125"; }
  int64_t defaultSize() const override { return 128; }

  std::vector<Variant> variants() const override {
    std::vector<Variant> list;
    for (Variant v : StencilKernel::variants())
      if (v != Variant::GatherExact && v != Variant::GatherPlanes &&
          v != Variant::GatherGuarded && v != Variant::GatherCut)
        list.push_back(v);
    return list;
  }

  void setUp(int64_t size) override {
    n = size;
    r = Array(n, n * n, 1, 0.0, 0.0);
    u = Array(n, n * n, 2, 1.0, -0.5);
    r_b = Array(n, n * n, 3, 1.0, -0.5);
    u_b = Array(n, n * n, 4, 0.0, 0.0);
    if (halide::available())
      checkHalide();
  }

  void tearDown() override { *this = Sin125(); }

  void run(Variant v) override {
    MemRef3D dr = r.view3D(n), du = u.view3D(n), drb = r_b.view3D(n),
             dub = u_b.view3D(n);
    switch (v) {
    case Variant::Primal:
      return _mlir_ciface_sin125(&dr, &du, n);
    case Variant::ReferenceC:
      return sin125_ref(r.data(), u.data(), n);
    case Variant::GatherCompact:
      return _mlir_ciface_sin125_adj_gather_compact(&dr, &du, n, &drb, &dub);
    case Variant::GatherUnfused:
      return _mlir_ciface_sin125_adj_gather_unfused(&dr, &du, n, &drb, &dub);
    case Variant::GatherNoReset:
      return _mlir_ciface_sin125_adj_gather_noreset(&dr, &du, n, &drb, &dub);
    case Variant::ScatterSerial:
      return _mlir_ciface_sin125_adj_scatter_serial(&dr, &du, n, &drb, &dub);
    case Variant::ScatterAtomic:
      return _mlir_ciface_sin125_adj_scatter_atomic(&dr, &du, n, &drb, &dub);
    case Variant::HalidePrimal:
      return halide::sin125Primal(peerArrays(r, u_b));
    case Variant::HalideAdjoint:
      return halide::sin125Adjoint(peerArrays(r, u_b));
    case Variant::GatherExact:
    case Variant::GatherPlanes:
    case Variant::GatherGuarded:
    case Variant::GatherCut:
    case Variant::CGatherCore:
    case Variant::CGatherTiled:
      break;
    }
    std::abort(); // Not in variants().
  }

  double points() const override {
    double interior = static_cast<double>(n - 4);
    return interior * interior * interior;
  }
  double bytesPerPoint(bool adjoint) const override {
    return adjoint ? 40.0 : 16.0;
  }

private:
  halide::Sin125Arrays peerArrays(const Array &out, const Array &out_b) const {
    return {n, out.data(), u.data(), r_b.data(), out_b.data()};
  }

  /// The Halide peer against ours on the same inputs, as for dense27.
  void checkHalide() {
    Array hr(n, n * n, 1, 0.0, 0.0), hb(n, n * n, 4, 0.0, 0.0);
    run(Variant::Primal);
    halide::sin125Primal(peerArrays(hr, hb));
    requireAgreement("sin125 halide_primal", r.data(), hr.data(), r.size());
    run(Variant::GatherNoReset);
    halide::sin125Adjoint(peerArrays(hr, hb));
    requireAgreement("sin125 halide_adjoint u_b", u_b.data(), hb.data(),
                     u_b.size());
    u_b = Array(n, n * n, 4, 0.0, 0.0);
  }

  int64_t n = 0;
  Array r, u, r_b, u_b;
};

} // namespace

std::unique_ptr<StencilKernel> stencil::bench::makeSin125() {
  return std::make_unique<Sin125>();
}
