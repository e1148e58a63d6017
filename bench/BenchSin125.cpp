//===- BenchSin125.cpp - Nonlinear 5x5x5 stencil benchmarks -----*- C++ -*-===//
//
// This file implements the sin125 kernel of stencil-bench
// (bench/kernels/sin125.mlir): the sine of a weighted sum of 125 taps on an
// n^3 grid, default n = 128 (16.8 MB per array). It is compute bound, and
// its gather adjoint exists only with the cut (--stencil-cut-shared): every
// statement shares cos(sum) * r_b. The variants that only change the
// boundary nests or the reset order (with 125 statements per slab the slabs
// stay guarded anyway) and gather_cut_all (the default already cuts that
// value) are not built for it (bench/variants.json).
//
//===----------------------------------------------------------------------===//

#include "BenchCube.h"

// The headers of the adjoints our pipeline builds (bench/variants.json),
// one of which also declares the primal, and STENCIL_BENCH_ADJOINTS.
#include "sin125_variants.h"

#include <cstdlib>

using namespace stencil::bench;

namespace {

/// Bytes per interior point, STREAM-style:
/// - primal: reads u, writes r: 2 x 8 = 16.
/// - adjoint: reads u (for cos of the sum) and r_b, adds to u_b (read +
///   write), resets r_b (a write): 5 x 8 = 40. The temporary of the cut
///   (written once, read once) is not counted: it is the gather form's own
///   traffic, not the problem's.
class Sin125 final : public CubeKernel {
public:
  Sin125() : CubeKernel(halide::sin125Primal, halide::sin125Adjoint) {}

  const char *name() const override { return "sin125"; }
  int64_t defaultSize() const override { return 128; }

  void run(Variant v) override {
    MemRef3D dr = r.view3D(n), du = u.view3D(n), drb = r_b.view3D(n),
             dub = u_b.view3D(n);
    switch (v) {
    case Variant::Primal:
      return _mlir_ciface_sin125(&dr, &du, n);
    case Variant::CPrimal:
      return sin125_ref(r.data(), u.data(), n);
#define STENCIL_BENCH_CALL(ENUM, ENTRY)                                        \
  case Variant::ENUM:                                                          \
    return ENTRY(&dr, &du, n, &drb, &dub);
      STENCIL_BENCH_ADJOINTS(STENCIL_BENCH_CALL)
#undef STENCIL_BENCH_CALL
    case Variant::HalidePrimal:
      return halide::sin125Primal(peerArrays(r, u_b));
    case Variant::HalideAdjoint:
      return halide::sin125Adjoint(peerArrays(r, u_b));
    default:
      std::abort(); // Not in variants().
    }
  }

  double points() const override {
    double interior = static_cast<double>(n - 4);
    return interior * interior * interior;
  }
  double bytesPerPoint(bool adjoint) const override {
    return adjoint ? 40.0 : 16.0;
  }
};

} // namespace

std::unique_ptr<StencilKernel> stencil::bench::makeSin125() {
  return std::make_unique<Sin125>();
}
