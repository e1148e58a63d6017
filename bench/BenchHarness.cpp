//===- BenchHarness.cpp - Kernel registry of stencil-bench -------*- C++ -*-===//
//
// This file implements the arrays and variant helpers declared in
// BenchHarness.h.
//
//===----------------------------------------------------------------------===//

#include "BenchHarness.h"

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
  static const std::vector<Variant> variants = {
      Variant::Primal,        Variant::ReferenceC,
      Variant::GatherCompact, Variant::GatherExact,
      Variant::GatherUnfused, Variant::GatherNoReset,
      Variant::ScatterSerial, Variant::ScatterAtomic};
  return variants;
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
  case Variant::GatherUnfused:
    return "gather_unfused";
  case Variant::GatherNoReset:
    return "gather_noreset";
  case Variant::ScatterSerial:
    return "scatter_serial";
  case Variant::ScatterAtomic:
    return "scatter_atomic";
  }
  return "unknown";
}

bool stencil::bench::isAdjoint(Variant v) {
  return v != Variant::Primal && v != Variant::ReferenceC;
}

std::vector<std::unique_ptr<StencilKernel>> stencil::bench::makeKernels() {
  std::vector<std::unique_ptr<StencilKernel>> kernels;
  kernels.push_back(makeWave3d());
  kernels.push_back(makeBurgers1d());
  kernels.push_back(makePaper1d());
  kernels.push_back(makeDense27());
  return kernels;
}
