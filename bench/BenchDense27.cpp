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

// The headers of the adjoints our pipeline builds (bench/variants.json),
// one of which also declares the primal, and STENCIL_BENCH_ADJOINTS.
#include "dense27_variants.h"

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
    case Variant::CPrimal:
      return dense27_ref(r.data(), u.data(), n);
#define STENCIL_BENCH_CALL(ENUM, ENTRY)                                        \
  case Variant::ENUM:                                                          \
    return ENTRY(&dr, &du, n, &drb, &dub);
      STENCIL_BENCH_ADJOINTS(STENCIL_BENCH_CALL)
#undef STENCIL_BENCH_CALL
    case Variant::HalidePrimal:
      return halide::dense27Primal(peerArrays(r, u_b));
    case Variant::HalideAdjoint:
      return halide::dense27Adjoint(peerArrays(r, u_b));
    default:
      std::abort(); // Not in variants().
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
