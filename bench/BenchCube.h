//===- BenchCube.h - Kernels r = f(u) on n^3 arrays ------------*- C++ -*-===//
//
// The shared part of the dense27 and sin125 kernels of stencil-bench: one
// input u, one output r and their shadows, all n x n x n, and the check of
// the Halide peer against ours before anything is timed. Each kernel adds
// its name, sizes, entry points and byte counts.
//
//===----------------------------------------------------------------------===//

#ifndef STENCIL_BENCH_BENCHCUBE_H
#define STENCIL_BENCH_BENCHCUBE_H

#include "BenchHarness.h"
#include "HalidePeers.h"

#include <string>

namespace stencil::bench {

class CubeKernel : public StencilKernel {
public:
  void setUp(int64_t size) override {
    n = size;
    r = Array(n, n * n, 1, 0.0, 0.0);
    u = Array(n, n * n, 2, 1.0, -0.5);
    r_b = Array(n, n * n, 3, 1.0, -0.5);
    u_b = Array(n, n * n, 4, 0.0, 0.0);
    if (halide::available())
      checkHalide();
  }

  void tearDown() override {
    n = 0;
    r = Array();
    u = Array();
    r_b = Array();
    u_b = Array();
  }

protected:
  using HalideStep = void (*)(const halide::CubeArrays &);
  CubeKernel(HalideStep halidePrimal, HalideStep halideAdjoint)
      : halidePrimal(halidePrimal), halideAdjoint(halideAdjoint) {}

  /// The arrays of the Halide peer, with its own output and shadow.
  halide::CubeArrays peerArrays(const Array &out, const Array &out_b) const {
    return {n, out.data(), u.data(), r_b.data(), out_b.data()};
  }

  int64_t n = 0;
  Array r, u, r_b, u_b;
  HalideStep halidePrimal, halideAdjoint;

private:
  /// The Halide peer against ours on the same inputs: the primal, and the
  /// gradient from a zero shadow (gather_noreset leaves r_b as it is).
  void checkHalide() {
    Array hr(n, n * n, 1, 0.0, 0.0), hb(n, n * n, 4, 0.0, 0.0);
    std::string kernel = name();
    run(Variant::Primal);
    halidePrimal(peerArrays(hr, hb));
    requireAgreement(kernel + " halide_primal", r, hr);
    run(Variant::GatherNoreset);
    halideAdjoint(peerArrays(hr, hb));
    requireAgreement(kernel + " halide_adjoint u_b", u_b, hb);
    u_b = Array(n, n * n, 4, 0.0, 0.0);
  }
};

} // namespace stencil::bench

#endif // STENCIL_BENCH_BENCHCUBE_H
