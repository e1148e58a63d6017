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
#include <string>
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

namespace {
/// A row of bench/variants.json.
struct VariantInfo {
  const char *name;
  Source source;
  bool adjoint;
  /// ",kernel,...," or "" for every kernel.
  const char *kernels;
};

const VariantInfo &info(Variant v) {
  static const VariantInfo table[] = {
#define STENCIL_BENCH_VARIANT(ENUM, NAME, SOURCE, ADJOINT, KERNELS)             \
  {NAME, Source::SOURCE, ADJOINT, KERNELS},
#include "BenchVariants.def"
#undef STENCIL_BENCH_VARIANT
  };
  return table[static_cast<size_t>(v)];
}
} // namespace

const std::vector<Variant> &stencil::bench::allVariants() {
  static const std::vector<Variant> variants = [] {
    std::vector<Variant> list;
    for (Variant v : {
#define STENCIL_BENCH_VARIANT(ENUM, NAME, SOURCE, ADJOINT, KERNELS) Variant::ENUM,
#include "BenchVariants.def"
#undef STENCIL_BENCH_VARIANT
         })
      if (!isHalide(v) || halide::available())
        list.push_back(v);
    return list;
  }();
  return variants;
}

std::vector<Variant> stencil::bench::StencilKernel::variants() const {
  std::vector<Variant> list;
  for (Variant v : allVariants())
    if (runsOn(v, name()))
      list.push_back(v);
  return list;
}

bool stencil::bench::runsOn(Variant v, const char *kernel) {
  std::string kernels = info(v).kernels;
  return kernels.empty() ||
         kernels.find("," + std::string(kernel) + ",") != std::string::npos;
}

bool stencil::bench::isHalide(Variant v) {
  return info(v).source == Source::Halide;
}

void stencil::bench::requireAgreement(const char *what, const double *ours,
                                      const double *peer, size_t count,
                                      double tolerance) {
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
  if (!(relative <= tolerance)) {
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

const char *stencil::bench::variantName(Variant v) { return info(v).name; }

bool stencil::bench::isAdjoint(Variant v) { return info(v).adjoint; }

std::vector<std::unique_ptr<StencilKernel>> stencil::bench::makeKernels() {
  std::vector<std::unique_ptr<StencilKernel>> kernels;
  kernels.push_back(makeWave3d());
  kernels.push_back(makeBurgers1d());
  kernels.push_back(makePaper1d());
  kernels.push_back(makeDense27());
  kernels.push_back(makeSin125());
  kernels.push_back(makeFilter3d());
  kernels.push_back(makeWave3dLayered());
  return kernels;
}
