//===- HalideDisabled.cpp - stencil-bench without Halide --------*- C++ -*-===//
//
// This file implements HalidePeers.h when stencil-bench is built without
// Halide (STENCIL_BENCH_HALIDE=OFF, or libhalide14-0-dev not installed):
// `available()` is false, so the harness registers no Halide variant, and
// every peer aborts if it is called anyway.
//
//===----------------------------------------------------------------------===//

#include "HalidePeers.h"

#include <cstdio>
#include <cstdlib>

using namespace stencil::bench::halide;

namespace {
[[noreturn]] void unavailable() {
  std::fprintf(stderr, "stencil-bench: built without Halide "
                       "(configure with -DSTENCIL_BENCH_HALIDE=ON)\n");
  std::abort();
}
} // namespace

bool stencil::bench::halide::available() { return false; }
void stencil::bench::halide::wave3dPrimal(const Wave3dArrays &) {
  unavailable();
}
void stencil::bench::halide::wave3dAdjoint(const Wave3dArrays &) {
  unavailable();
}
void stencil::bench::halide::burgers1dPrimal(const Burgers1dArrays &) {
  unavailable();
}
void stencil::bench::halide::burgers1dAdjoint(const Burgers1dArrays &) {
  unavailable();
}
void stencil::bench::halide::paper1dPrimal(const Paper1dArrays &) {
  unavailable();
}
void stencil::bench::halide::paper1dAdjoint(const Paper1dArrays &) {
  unavailable();
}
void stencil::bench::halide::dense27Primal(const Dense27Arrays &) {
  unavailable();
}
void stencil::bench::halide::dense27Adjoint(const Dense27Arrays &) {
  unavailable();
}
void stencil::bench::halide::sin125Primal(const Sin125Arrays &) {
  unavailable();
}
void stencil::bench::halide::sin125Adjoint(const Sin125Arrays &) {
  unavailable();
}
