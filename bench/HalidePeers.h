//===- HalidePeers.h - Halide 14 versions of the bench kernels --*- C++ -*-===//
//
// This file declares the Halide 14 peers of stencil-bench: each kernel of
// the suite written as a Halide definition, its primal and its adjoint (from
// Halide's `propagate_adjoints`), JIT-compiled once per process with a hand
// schedule (parallel outermost loop, vectorized innermost loop, the
// gradient inlined into the output). Their parallel loops run on the
// OpenMP threads of the kernels (bench_parallel_for), with the same thread
// count. Nothing of Halide leaks into this header: the drivers pass plain
// arrays.
//
// Semantics, the same as our adjoints with `reset-output-adjoints=false`
// (variant gather_noreset): the gradient is *added* to the input shadows
// over their whole extent; the output adjoint is read, not reset. The
// primal writes the output on the interior only, like ours.
//
// Built only with STENCIL_BENCH_HALIDE (bench/CMakeLists.txt); otherwise
// HalideDisabled.cpp defines these functions and `available()` is false.
//
//===----------------------------------------------------------------------===//

#ifndef STENCIL_BENCH_HALIDEPEERS_H
#define STENCIL_BENCH_HALIDEPEERS_H

#include <cstdint>

namespace stencil::bench::halide {

/// True when stencil-bench was built with Halide.
bool available();

/// examples/wave3d.mlir: n^3 arrays, x innermost.
struct Wave3dArrays {
  int64_t n;
  double D;
  double *u, *u_1, *u_2, *c;
  double *u_b, *u_1b, *u_2b;
};
void wave3dPrimal(const Wave3dArrays &a);
void wave3dAdjoint(const Wave3dArrays &a);

/// examples/burgers1d.mlir: n points.
struct Burgers1dArrays {
  int64_t n;
  double C, D;
  double *u, *u_1;
  double *u_b, *u_1b;
};
void burgers1dPrimal(const Burgers1dArrays &a);
void burgers1dAdjoint(const Burgers1dArrays &a);

/// examples/paper1d.mlir: n + 1 points, domain 1 <= i < n.
struct Paper1dArrays {
  int64_t n;
  double *r, *c, *u;
  double *r_b, *u_b;
};
void paper1dPrimal(const Paper1dArrays &a);
void paper1dAdjoint(const Paper1dArrays &a);

/// A kernel r = f(u) on n^3 arrays (BenchCube.h): dense27, sin125.
struct CubeArrays {
  int64_t n;
  double *r, *u;
  double *r_b, *u_b;
};

/// bench/kernels/dense27.mlir.
using Dense27Arrays = CubeArrays;
void dense27Primal(const Dense27Arrays &a);
void dense27Adjoint(const Dense27Arrays &a);

/// bench/kernels/sin125.mlir.
using Sin125Arrays = CubeArrays;
void sin125Primal(const Sin125Arrays &a);
void sin125Adjoint(const Sin125Arrays &a);

} // namespace stencil::bench::halide

#endif // STENCIL_BENCH_HALIDEPEERS_H
