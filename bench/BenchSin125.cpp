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

#include "BenchCube.h"

#include "sin125_gather_compact.h"
#include "sin125_gather_unchecked.h"
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
class Sin125 final : public CubeKernel {
public:
  Sin125() : CubeKernel(halide::sin125Primal, halide::sin125Adjoint) {}

  const char *name() const override { return "sin125"; }
  int64_t defaultSize() const override { return 128; }

  std::vector<Variant> variants() const override {
    std::vector<Variant> list;
    for (Variant v : StencilKernel::variants())
      if (v != Variant::GatherExact && v != Variant::GatherPlanes &&
          v != Variant::GatherFixed && v != Variant::GatherApart &&
          v != Variant::GatherUnpeeled &&
          v != Variant::GatherGuarded && v != Variant::GatherCut)
        list.push_back(v);
    return list;
  }

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
    case Variant::GatherUnchecked:
      return _mlir_ciface_sin125_adj_gather_unchecked(&dr, &du, n, &drb,
                                                      &dub);
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
    case Variant::GatherFixed:
    case Variant::GatherApart:
    case Variant::GatherUnpeeled:
    case Variant::GatherGuarded:
    case Variant::GatherCut:
    case Variant::CGatherCore:
    case Variant::CGatherTiled:
    case Variant::CGatherRing:
    case Variant::GatherNoRing:
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
};

} // namespace

std::unique_ptr<StencilKernel> stencil::bench::makeSin125() {
  return std::make_unique<Sin125>();
}
