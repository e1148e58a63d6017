//===- HalidePeers.cpp - Halide 14 versions of the kernels ---*- C++ -*-===//
//
// This file implements HalidePeers.h with Halide 14 (Debian's
// libhalide14-0-dev). Each kernel is one pure Halide definition over
// wrappers of its input images; `propagate_adjoints` differentiates it with
// the output adjoint zero outside the primal's domain
// (BoundaryConditions::constant_exterior), and Halide turns the scatter into
// a gather by itself. Every pipeline is JIT-compiled for the host at its
// first use and reused at every size: sizes are parameters.
//
// Schedule, the same for every kernel ("a reasonable hand schedule"): the
// outputs run in parallel over the outermost dimension (blocks of 64 Ki
// points in 1-D) and vectorized by the host's natural vector width along
// the innermost one; every other Func, the gradients included, is inlined.
//
// Memory layout: our arrays are row-major, so the innermost (last) memref
// index is Halide's x: a[i][j][k] is f(x = k, y = j, z = i).
//
//===----------------------------------------------------------------------===//

#include "HalidePeers.h"
#include "BenchSupport.h"

#include "Halide.h"

#include <cstdio>
#include <cstdlib>

using namespace Halide;
using namespace stencil::bench::halide;

namespace {

//===----------------------------------------------------------------------===//
// Shared pieces
//===----------------------------------------------------------------------===//

Var x("x"), y("y"), z("z");

Target hostTarget() {
  static const Target target = get_jit_target_from_environment();
  return target;
}

/// `f(x, ...) = image(x, ...)`: derivatives are taken with respect to Funcs.
Func wrap(const ImageParam &image, const std::vector<Var> &vars) {
  Func f(image.name() + "_f");
  f(vars) = image(vars);
  return f;
}

/// The output adjoint, zero outside the primal's domain.
Func boundedAdjoint(const ImageParam &adjoint, const Region &domain) {
  return BoundaryConditions::constant_exterior(adjoint, Expr(0.0), domain);
}

/// `shadow + d(input)`: the gradient added to the input's shadow, in place.
Func accumulate(const ImageParam &shadow, const Derivative &d,
                const Func &input, const std::vector<Var> &vars) {
  Func gradient = d(input);
  if (gradient.num_update_definitions() != 0) {
    // Halide kept a scatter: the schedule below would not be the one we
    // document, so refuse rather than time something else.
    std::fprintf(stderr, "stencil-bench: Halide kept a scatter for %s\n",
                 input.name().c_str());
    std::abort();
  }
  Func out(shadow.name() + "_acc");
  out(vars) = shadow(vars) + gradient(vars);
  return out;
}

/// How an output is written: overwritten (the primal) or updated in place
/// (the accumulated gradients).
enum class Output { Store, InPlace };

/// Parallel over the outermost variable, vectorized along x; 1-D outputs
/// are split into parallel blocks first. Halide's default tail strategy
/// computes the last block or vector again, shifted inwards: harmless for
/// a store, a double update in place, so in-place outputs guard their tails.
void schedule(Func f, int dims, Output output) {
  int width = hostTarget().natural_vector_size<double>();
  TailStrategy tail = output == Output::InPlace ? TailStrategy::GuardWithIf
                                                : TailStrategy::Auto;
  if (dims == 1) {
    Var xo("xo"), xi("xi");
    f.split(x, xo, xi, 1 << 16, tail).parallel(xo);
    f.vectorize(xi, width, tail);
    return;
  }
  f.parallel(z).vectorize(x, width, tail);
}

Buffer<double> view1D(double *p, int64_t n) {
  return Buffer<double>(p, static_cast<int>(n));
}

Buffer<double> view3D(double *p, int64_t n) {
  int e = static_cast<int>(n);
  return Buffer<double>(p, e, e, e);
}

/// `buffer` restricted to [lo, extent - hi) in every dimension.
Buffer<double> interior(Buffer<double> buffer, int lo, int hi) {
  for (int d = 0; d < buffer.dimensions(); ++d)
    buffer.crop(d, lo, buffer.dim(d).extent() - lo - hi);
  return buffer;
}

/// Runs `p` into the given output buffers.
template <typename... Rest>
void realize(Pipeline &p, Buffer<double> first, Rest... rest) {
  p.realize(Pipeline::RealizationArg(first, rest...));
}

/// Halide's parallel loops on OpenMP (BenchSupport.h): the same threads
/// and thread count as our kernels, instead of Halide's own pool.
int parallelFor(JITUserContext *context,
                int (*task)(JITUserContext *, int, uint8_t *), int min,
                int extent, uint8_t *closure) {
  return bench_parallel_for(
      context, reinterpret_cast<int (*)(void *, int, uint8_t *)>(task), min,
      extent, closure);
}

Pipeline compile(std::vector<Func> outputs) {
  Pipeline p(outputs);
  p.jit_handlers().custom_do_par_for = parallelFor;
  p.compile_jit(hostTarget());
  return p;
}

//===----------------------------------------------------------------------===//
// wave3d
//===----------------------------------------------------------------------===//

struct Wave3d {
  ImageParam u_1{Float(64), 3, "u_1"}, u_2{Float(64), 3, "u_2"},
      c{Float(64), 3, "c"}, u_b{Float(64), 3, "u_b"},
      u_1b{Float(64), 3, "u_1b"}, u_2b{Float(64), 3, "u_2b"};
  Param<double> D{"D"};
  Param<int> n{"n"};
  Pipeline primal, adjoint;

  Wave3d() {
    std::vector<Var> v = {x, y, z};
    Func f1 = wrap(u_1, v), f2 = wrap(u_2, v);
    Expr lap = f1(x - 1, y, z) + f1(x + 1, y, z) + f1(x, y - 1, z) +
               f1(x, y + 1, z) + f1(x, y, z - 1) + f1(x, y, z + 1) -
               Expr(6.0) * f1(x, y, z);
    Func u("u");
    u(x, y, z) = Expr(2.0) * f1(x, y, z) - f2(x, y, z) + c(x, y, z) * D * lap;
    schedule(u, 3, Output::Store);
    primal = compile({u});

    Region domain = {{1, n - 2}, {1, n - 2}, {1, n - 2}};
    Derivative d = propagate_adjoints(u, boundedAdjoint(u_b, domain), domain);
    Func g1 = accumulate(u_1b, d, f1, v), g2 = accumulate(u_2b, d, f2, v);
    schedule(g1, 3, Output::InPlace);
    schedule(g2, 3, Output::InPlace);
    adjoint = compile({g1, g2});
  }

  void bind(const Wave3dArrays &a) {
    u_1.set(view3D(a.u_1, a.n));
    u_2.set(view3D(a.u_2, a.n));
    c.set(view3D(a.c, a.n));
    u_b.set(view3D(a.u_b, a.n));
    u_1b.set(view3D(a.u_1b, a.n));
    u_2b.set(view3D(a.u_2b, a.n));
    D.set(a.D);
    n.set(static_cast<int>(a.n));
  }
};

//===----------------------------------------------------------------------===//
// burgers1d
//===----------------------------------------------------------------------===//

struct Burgers1d {
  ImageParam u_1{Float(64), 1, "u_1"}, u_b{Float(64), 1, "u_b"},
      u_1b{Float(64), 1, "u_1b"};
  Param<double> C{"C"}, D{"D"};
  Param<int> n{"n"};
  Pipeline primal, adjoint;

  /// One step on the values `f`.
  Func step(const Func &f) const {
    Expr m = f(x - 1), c = f(x), p = f(x + 1), zero(0.0);
    Expr ux = max(c, zero) * (c - m) + min(c, zero) * (p - c);
    Expr uxx = p + m - Expr(2.0) * c;
    Func u("u");
    u(x) = c - C * ux + D * uxx;
    return u;
  }

  Burgers1d() {
    std::vector<Var> v = {x};
    Func u = step(wrap(u_1, v));
    schedule(u, 1, Output::Store);
    primal = compile({u});

    // The gradient at the edges reads primal values beyond them, times a
    // zero adjoint: clamp those reads into the array.
    Func f = BoundaryConditions::repeat_edge(u_1);
    Func ua = step(f);
    Region domain = {{1, n - 2}};
    Derivative d = propagate_adjoints(ua, boundedAdjoint(u_b, domain), domain);
    Func g = accumulate(u_1b, d, f, v);
    schedule(g, 1, Output::InPlace);
    adjoint = compile({g});
  }

  void bind(const Burgers1dArrays &a) {
    u_1.set(view1D(a.u_1, a.n));
    u_b.set(view1D(a.u_b, a.n));
    u_1b.set(view1D(a.u_1b, a.n));
    C.set(a.C);
    D.set(a.D);
    n.set(static_cast<int>(a.n));
  }
};

//===----------------------------------------------------------------------===//
// paper1d
//===----------------------------------------------------------------------===//

struct Paper1d {
  ImageParam c{Float(64), 1, "c"}, u{Float(64), 1, "u"},
      r_b{Float(64), 1, "r_b"}, u_b{Float(64), 1, "u_b"};
  Param<int> n{"n"};
  Pipeline primal, adjoint;

  Paper1d() {
    std::vector<Var> v = {x};
    Func f = wrap(u, v);
    Func r("r");
    r(x) =
        c(x) * (Expr(2.0) * f(x - 1) - Expr(3.0) * f(x) + Expr(4.0) * f(x + 1));
    schedule(r, 1, Output::Store);
    primal = compile({r});

    Region domain = {{1, n - 1}};
    Derivative d = propagate_adjoints(r, boundedAdjoint(r_b, domain), domain);
    Func g = accumulate(u_b, d, f, v);
    schedule(g, 1, Output::InPlace);
    adjoint = compile({g});
  }

  void bind(const Paper1dArrays &a) {
    c.set(view1D(a.c, a.n + 1));
    u.set(view1D(a.u, a.n + 1));
    r_b.set(view1D(a.r_b, a.n + 1));
    u_b.set(view1D(a.u_b, a.n + 1));
    n.set(static_cast<int>(a.n));
  }
};

//===----------------------------------------------------------------------===//
// dense27
//===----------------------------------------------------------------------===//

/// The parameters of a kernel r = f(u) on n^3 arrays (dense27, sin125).
struct CubePipelines {
  ImageParam u{Float(64), 3, "u"}, r_b{Float(64), 3, "r_b"},
      u_b{Float(64), 3, "u_b"};
  Param<int> n{"n"};
  Pipeline primal, adjoint;

  void bind(const CubeArrays &a) {
    u.set(view3D(a.u, a.n));
    r_b.set(view3D(a.r_b, a.n));
    u_b.set(view3D(a.u_b, a.n));
    n.set(static_cast<int>(a.n));
  }
};

/// The weighted sum of the taps of `f` over the cube of `radius`, in the
/// MLIR kernels' order: offsets (a, b, c) on (i, j, k) = (z, y, x)
/// lexicographic, weight (m + 1) / `denominator` for the m-th, summed left
/// to right.
Expr cubeTaps(const Func &f, int radius, double denominator) {
  Expr sum;
  int m = 0;
  for (int a = -radius; a <= radius; ++a)
    for (int b = -radius; b <= radius; ++b)
      for (int cc = -radius; cc <= radius; ++cc, ++m) {
        Expr term = Expr((m + 1) / denominator) * f(x + cc, y + b, z + a);
        sum = sum.defined() ? sum + term : term;
      }
  return sum;
}

struct Dense27 : CubePipelines {
  Dense27() {
    std::vector<Var> v = {x, y, z};
    Func f = wrap(u, v);
    Func r("r");
    r(x, y, z) = cubeTaps(f, 1, 64.0);
    schedule(r, 3, Output::Store);
    primal = compile({r});

    Region domain = {{1, n - 2}, {1, n - 2}, {1, n - 2}};
    Derivative d = propagate_adjoints(r, boundedAdjoint(r_b, domain), domain);
    Func g = accumulate(u_b, d, f, v);
    schedule(g, 3, Output::InPlace);
    adjoint = compile({g});
  }

};

//===----------------------------------------------------------------------===//
// sin125
//===----------------------------------------------------------------------===//

struct Sin125 : CubePipelines {
  /// The 125 taps of `f`.
  static Expr taps(const Func &f) { return cubeTaps(f, 2, 4096.0); }

  Sin125() {
    std::vector<Var> v = {x, y, z};
    Func r("r");
    r(x, y, z) = sin(taps(wrap(u, v)));
    schedule(r, 3, Output::Store);
    primal = compile({r});

    // The adjoint of the sum, cos(s) * r_b, is what every tap's gradient
    // shares. Inlined (the schedule of the other kernels), each of the 125
    // taps would recompute it, with its 125 taps; so it is computed once
    // per point (compute_root), the cut our pass makes. Halide computes it
    // over the region the gradient of u needs, 2 points beyond the domain
    // on each side, where s reads u out of bounds: u is read through a
    // zero exterior here.
    Func f("u_f");
    f(x, y, z) = BoundaryConditions::constant_exterior(u, Expr(0.0))(x, y, z);
    Func s("s"), rr("r_adj");
    s(x, y, z) = taps(f);
    rr(x, y, z) = sin(s(x, y, z));
    Region domain = {{2, n - 4}, {2, n - 4}, {2, n - 4}};
    Derivative d = propagate_adjoints(rr, boundedAdjoint(r_b, domain), domain);
    Func ds = d(s);
    ds.compute_root();
    schedule(ds, 3, Output::Store);
    Func g = accumulate(u_b, d, f, v);
    schedule(g, 3, Output::InPlace);
    adjoint = compile({g});
  }

};

/// Each pipeline is built and compiled at its first use.
template <typename T> T &pipelines() {
  static T instance;
  return instance;
}

} // namespace

//===----------------------------------------------------------------------===//
// Entry points
//===----------------------------------------------------------------------===//

bool stencil::bench::halide::available() { return true; }

void stencil::bench::halide::wave3dPrimal(const Wave3dArrays &a) {
  Wave3d &p = pipelines<Wave3d>();
  p.bind(a);
  realize(p.primal, interior(view3D(a.u, a.n), 1, 1));
}

void stencil::bench::halide::wave3dAdjoint(const Wave3dArrays &a) {
  Wave3d &p = pipelines<Wave3d>();
  p.bind(a);
  realize(p.adjoint, view3D(a.u_1b, a.n), view3D(a.u_2b, a.n));
}

void stencil::bench::halide::burgers1dPrimal(const Burgers1dArrays &a) {
  Burgers1d &p = pipelines<Burgers1d>();
  p.bind(a);
  realize(p.primal, interior(view1D(a.u, a.n), 1, 1));
}

void stencil::bench::halide::burgers1dAdjoint(const Burgers1dArrays &a) {
  Burgers1d &p = pipelines<Burgers1d>();
  p.bind(a);
  realize(p.adjoint, view1D(a.u_1b, a.n));
}

void stencil::bench::halide::paper1dPrimal(const Paper1dArrays &a) {
  Paper1d &p = pipelines<Paper1d>();
  p.bind(a);
  realize(p.primal, interior(view1D(a.r, a.n + 1), 1, 1));
}

void stencil::bench::halide::paper1dAdjoint(const Paper1dArrays &a) {
  Paper1d &p = pipelines<Paper1d>();
  p.bind(a);
  realize(p.adjoint, view1D(a.u_b, a.n + 1));
}

void stencil::bench::halide::dense27Primal(const Dense27Arrays &a) {
  Dense27 &p = pipelines<Dense27>();
  p.bind(a);
  realize(p.primal, interior(view3D(a.r, a.n), 1, 1));
}

void stencil::bench::halide::dense27Adjoint(const Dense27Arrays &a) {
  Dense27 &p = pipelines<Dense27>();
  p.bind(a);
  realize(p.adjoint, view3D(a.u_b, a.n));
}

void stencil::bench::halide::sin125Primal(const Sin125Arrays &a) {
  Sin125 &p = pipelines<Sin125>();
  p.bind(a);
  realize(p.primal, interior(view3D(a.r, a.n), 2, 2));
}

void stencil::bench::halide::sin125Adjoint(const Sin125Arrays &a) {
  Sin125 &p = pipelines<Sin125>();
  p.bind(a);
  realize(p.adjoint, view3D(a.u_b, a.n));
}
