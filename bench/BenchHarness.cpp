//===- BenchHarness.cpp - Kernel registry of stencil-bench ------*- C++ -*-===//
//
// This file implements the arrays and variant helpers declared in
// BenchHarness.h.
//
//===----------------------------------------------------------------------===//

#include "BenchHarness.h"
#include "HalidePeers.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <utility>

using namespace stencil::bench;

//===----------------------------------------------------------------------===//
// Array
//===----------------------------------------------------------------------===//

Array::Array(int64_t outer, int64_t inner, uint64_t seed, double scale,
             double shift)
    : ptr(bench_alloc(static_cast<size_t>(outer * inner))),
      count(static_cast<size_t>(outer * inner)) {
  bench_fill(ptr, outer, inner, seed, scale, shift);
}

Array::Array(Array &&other) noexcept
    : ptr(std::exchange(other.ptr, nullptr)),
      count(std::exchange(other.count, 0)) {}

Array &Array::operator=(Array &&other) noexcept {
  if (this != &other) {
    bench_free(ptr);
    ptr = std::exchange(other.ptr, nullptr);
    count = std::exchange(other.count, 0);
  }
  return *this;
}

Array::~Array() { bench_free(ptr); }

MemRef1D Array::view1D() const {
  return stencil_memref1d_f64(ptr, static_cast<int64_t>(count));
}

MemRef3D Array::view3D(int64_t n) const {
  return stencil_memref3d_f64(ptr, n, n, n);
}

//===----------------------------------------------------------------------===//
// Variants and kernels
//===----------------------------------------------------------------------===//

const std::vector<Variant> &stencil::bench::allVariants() {
  static const std::vector<Variant> variants = [] {
    std::vector<Variant> list = {
        Variant::Primal,        Variant::ReferenceC,    Variant::GatherCompact,
        Variant::GatherUnchecked,
        Variant::GatherExact,   Variant::GatherUnfused, Variant::GatherPlanes,
        Variant::GatherFixed,   Variant::GatherApart,   Variant::GatherUnpeeled,
        Variant::GatherGuarded,
        Variant::GatherNoReset,
        Variant::GatherCut,     Variant::GatherNoRing,
        Variant::ScatterSerial, Variant::ScatterAtomic, Variant::CGatherCore,
        Variant::CGatherTiled, Variant::CGatherRing};
    if (halide::available()) {
      list.push_back(Variant::HalidePrimal);
      list.push_back(Variant::HalideAdjoint);
    }
    return list;
  }();
  return variants;
}

std::vector<Variant> stencil::bench::StencilKernel::variants() const {
  std::vector<Variant> list;
  for (Variant v : allVariants())
    if (v != Variant::CGatherCore && v != Variant::CGatherTiled &&
        v != Variant::CGatherRing && v != Variant::GatherNoRing)
      list.push_back(v);
  return list;
}

bool stencil::bench::isHalide(Variant v) {
  return v == Variant::HalidePrimal || v == Variant::HalideAdjoint;
}

void stencil::bench::requireAgreement(const char *what, const double *ours,
                                      const double *peer, size_t count) {
  double scale = 1.0, error = 0.0;
  size_t worst = 0;
  for (size_t i = 0; i < count; ++i) {
    scale = std::max(scale, std::fabs(ours[i]));
    double diff = std::fabs(ours[i] - peer[i]);
    // A NaN in either stays the error, and fails the comparison below.
    if (std::isnan(diff) || diff > error) {
      error = diff;
      worst = i;
      if (std::isnan(diff))
        break;
    }
  }
  double relative = error / scale;
  if (!(relative <= 1e-12)) {
    std::fprintf(stderr,
                 "stencil-bench: %s: the peer disagrees with ours "
                 "(max |diff| / max(1, max |ours|) = %g; at element %zu "
                 "ours %.17g, peer %.17g)\n",
                 what, relative, worst, ours[worst], peer[worst]);
    std::abort();
  }
  std::fprintf(stderr, "stencil-bench: %s agrees with ours (%.1e)\n", what,
               relative);
}

void stencil::bench::requireAgreement(const std::string &what,
                                      const Array &ours, const Array &peer) {
  requireAgreement(what.c_str(), ours.data(), peer.data(), peer.size());
}

const char *stencil::bench::variantName(Variant v) {
  switch (v) {
  case Variant::Primal:
    return "primal";
  case Variant::ReferenceC:
    return "c_primal";
  case Variant::GatherCompact:
    return "gather_compact";
  case Variant::GatherExact:
    return "gather_exact";
  case Variant::GatherUnchecked:
    return "gather_unchecked";
  case Variant::GatherUnfused:
    return "gather_unfused";
  case Variant::GatherPlanes:
    return "gather_planes";
  case Variant::GatherFixed:
    return "gather_fixed";
  case Variant::GatherApart:
    return "gather_apart";
  case Variant::GatherUnpeeled:
    return "gather_unpeeled";
  case Variant::GatherGuarded:
    return "gather_guarded";
  case Variant::GatherNoReset:
    return "gather_noreset";
  case Variant::GatherCut:
    return "gather_cut";
  case Variant::GatherNoRing:
    return "gather_noring";
  case Variant::ScatterSerial:
    return "scatter_serial";
  case Variant::ScatterAtomic:
    return "scatter_atomic";
  case Variant::CGatherCore:
    return "c_gather_core";
  case Variant::CGatherTiled:
    return "c_gather_core_tiled";
  case Variant::CGatherRing:
    return "c_gather_core_ring";
  case Variant::HalidePrimal:
    return "halide_primal";
  case Variant::HalideAdjoint:
    return "halide_adjoint";
  }
  return "unknown";
}

bool stencil::bench::isAdjoint(Variant v) {
  return v != Variant::Primal && v != Variant::ReferenceC &&
         v != Variant::HalidePrimal;
}

std::vector<std::unique_ptr<StencilKernel>> stencil::bench::makeKernels() {
  std::vector<std::unique_ptr<StencilKernel>> kernels;
  kernels.push_back(makeWave3d());
  kernels.push_back(makeBurgers1d());
  kernels.push_back(makePaper1d());
  kernels.push_back(makeDense27());
  kernels.push_back(makeSin125());
  return kernels;
}
