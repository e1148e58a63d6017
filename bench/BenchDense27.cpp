//===- BenchDense27.cpp - Dense 3x3x3 stencil benchmarks --------*- C++ -*-===//
//
// This file implements the dense27 kernel of stencil-bench
// (bench/kernels/dense27.mlir): a 27-point stencil with distinct constant
// weights on an n^3 grid, default n = 256 (134 MB per array, 4 arrays with
// the shadows). It has the most boundary nests of the suite.
//
//===----------------------------------------------------------------------===//

#include "BenchCube.h"

#include <cstdlib>

// The headers stencil_add_kernel generates for the four variants
// (bench/CMakeLists.txt): the primal and one adjoint each.
#include "dense27_gather_compact.h"
#include "dense27_gather_unchecked.h"
#include "dense27_gather_exact.h"
#include "dense27_gather_guarded.h"
#include "dense27_gather_cut.h"
#include "dense27_gather_noreset.h"
#include "dense27_gather_apart.h"
#include "dense27_gather_unpeeled.h"
#include "dense27_gather_fixed.h"
#include "dense27_gather_planes.h"
#include "dense27_gather_unfused.h"
#include "dense27_scatter_atomic.h"
#include "dense27_scatter_serial.h"

using namespace stencil::bench;

namespace {

/// Bytes per interior point, STREAM-style:
/// - primal: reads u, writes r: 2 x 8 = 16.
/// - adjoint: reads r_b, adds to u_b (read + write), resets r_b (a write):
///   4 x 8 = 32. The stencil is linear, so u is not read.
class Dense27 final : public CubeKernel {
public:
  Dense27() : CubeKernel(halide::dense27Primal, halide::dense27Adjoint) {}

  const char *name() const override { return "dense27"; }
  int64_t defaultSize() const override { return 256; }

  void run(Variant v) override {
    MemRef3D dr = r.view3D(n), du = u.view3D(n), drb = r_b.view3D(n),
             dub = u_b.view3D(n);
    switch (v) {
    case Variant::Primal:
      return _mlir_ciface_dense27(&dr, &du, n);
    case Variant::ReferenceC:
      return dense27_ref(r.data(), u.data(), n);
    case Variant::GatherCompact:
      return _mlir_ciface_dense27_adj_gather_compact(&dr, &du, n, &drb, &dub);
    case Variant::GatherUnchecked:
      return _mlir_ciface_dense27_adj_gather_unchecked(&dr, &du, n, &drb,
                                                       &dub);
    case Variant::GatherExact:
      return _mlir_ciface_dense27_adj_gather_exact(&dr, &du, n, &drb, &dub);
    case Variant::GatherUnfused:
      return _mlir_ciface_dense27_adj_gather_unfused(&dr, &du, n, &drb, &dub);
    case Variant::GatherNoReset:
      return _mlir_ciface_dense27_adj_gather_noreset(&dr, &du, n, &drb, &dub);
    case Variant::GatherCut:
      return _mlir_ciface_dense27_adj_gather_cut(&dr, &du, n, &drb, &dub);
    case Variant::GatherPlanes:
      return _mlir_ciface_dense27_adj_gather_planes(&dr, &du, n, &drb, &dub);
    case Variant::GatherFixed:
      return _mlir_ciface_dense27_adj_gather_fixed(&dr, &du, n, &drb, &dub);
    case Variant::GatherApart:
      return _mlir_ciface_dense27_adj_gather_apart(&dr, &du, n, &drb, &dub);
    case Variant::GatherUnpeeled:
      return _mlir_ciface_dense27_adj_gather_unpeeled(&dr, &du, n, &drb, &dub);
    case Variant::GatherGuarded:
      return _mlir_ciface_dense27_adj_gather_guarded(&dr, &du, n, &drb, &dub);
    case Variant::ScatterSerial:
      return _mlir_ciface_dense27_adj_scatter_serial(&dr, &du, n, &drb, &dub);
    case Variant::ScatterAtomic:
      return _mlir_ciface_dense27_adj_scatter_atomic(&dr, &du, n, &drb, &dub);
    case Variant::CGatherCore:
    case Variant::CGatherTiled:
    case Variant::CGatherRing:
    case Variant::GatherNoRing:
      std::abort(); // Not in variants().
    case Variant::HalidePrimal:
      return halide::dense27Primal(peerArrays(r, u_b));
    case Variant::HalideAdjoint:
      return halide::dense27Adjoint(peerArrays(r, u_b));
    }
  }

  double points() const override {
    double interior = static_cast<double>(n - 2);
    return interior * interior * interior;
  }
  double bytesPerPoint(bool adjoint) const override {
    return adjoint ? 32.0 : 16.0;
  }
};

} // namespace

std::unique_ptr<StencilKernel> stencil::bench::makeDense27() {
  return std::make_unique<Dense27>();
}
