//===- BenchHarness.h - Kernel registry of stencil-bench --------*- C++ -*-===//
//
// This file declares the pieces shared by the kernel drivers of
// stencil-bench: the memref descriptors of the C interface (docs/ABI.md,
// Stencil/ABI/StencilABI.h),
// an owning array type with parallel first touch, the variant list and the
// `StencilKernel` base class that every Bench<Kernel>.cpp implements.
//
//===----------------------------------------------------------------------===//

#ifndef STENCIL_BENCH_BENCHHARNESS_H
#define STENCIL_BENCH_BENCHHARNESS_H

#include "BenchSupport.h"
#include "Stencil/ABI/StencilABI.h"

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace stencil::bench {

//===----------------------------------------------------------------------===//
// C interface
//===----------------------------------------------------------------------===//

/// Descriptors of `memref<?xf64>` and `memref<?x?x?xf64>` at the C
/// interface (`_mlir_ciface_`), from the installed ABI header.
using MemRef1D = StencilMemRef1D_f64;
using MemRef3D = StencilMemRef3D_f64;

//===----------------------------------------------------------------------===//
// Arrays
//===----------------------------------------------------------------------===//

/// An owning, 2 MiB-aligned array of doubles, filled in parallel on creation
/// (first touch with the kernels' static schedule, see bench_fill).
class Array {
public:
  Array() = default;
  /// Allocates `outer * inner` doubles and fills them with
  /// `shift + scale * hash(p, seed)`; `outer` is the extent of the parallel
  /// (outermost) dimension.
  Array(int64_t outer, int64_t inner, uint64_t seed, double scale,
        double shift);
  Array(Array &&other) noexcept;
  Array &operator=(Array &&other) noexcept;
  Array(const Array &) = delete;
  Array &operator=(const Array &) = delete;
  ~Array();

  double *data() const { return ptr; }
  size_t size() const { return count; }

  /// Describes this array as an n-element vector.
  MemRef1D view1D() const;
  /// Describes this array as an n x n x n row-major block.
  MemRef3D view3D(int64_t n) const;

private:
  double *ptr = nullptr;
  size_t count = 0;
};

//===----------------------------------------------------------------------===//
// Kernels and variants
//===----------------------------------------------------------------------===//

/// Where a variant comes from: our pipeline (`stencil-opt --stencil-adjoint
/// --convert-to-omp` from the kernel IR), hand-written C
/// (bench/reference/), or the Halide 14 peers (HalidePeers.h).
enum class Source { Ours, C, Halide };

/// What runs: one row of bench/variants.json, which says what each is (its
/// pipeline options, its kernels). The enumerators are the table's names in
/// CamelCase (`gather_compact`: `GatherCompact`), generated into
/// BenchVariants.def by bench/BenchVariants.cmake.
enum class Variant {
#define STENCIL_BENCH_VARIANT(ENUM, NAME, SOURCE, ADJOINT, KERNELS) ENUM,
#include "BenchVariants.def"
#undef STENCIL_BENCH_VARIANT
};

/// Every variant of this build, in reporting order (the Halide peers only
/// when stencil-bench was built with Halide).
const std::vector<Variant> &allVariants();

/// True for the Halide peers, which run on Halide's thread pool.
bool isHalide(Variant v);

/// Whether bench/variants.json runs `v` on the kernel named `kernel`.
bool runsOn(Variant v, const char *kernel);

/// Checks a peer's result against ours before anything is timed: aborts
/// the process with a message on stderr unless
/// max |ours - peer| <= tolerance * max(1, max |ours|) over `count`
/// doubles (default 1e-12; sums in another order, such as a reduction
/// against the serial scatter, are given more). Prints the error otherwise.
void requireAgreement(const char *what, const double *ours, const double *peer,
                      size_t count, double tolerance = 1e-12);
/// The same over two whole arrays of one size.
void requireAgreement(const std::string &what, const Array &ours,
                      const Array &peer);

/// Name of a variant in benchmark names and JSON (`gather_compact`, ...).
const char *variantName(Variant v);

/// True for the adjoint variants.
bool isAdjoint(Variant v);

/// One kernel of the suite. The harness creates the arrays of at most one
/// kernel at a time (setUp before its first benchmark, tearDown before the
/// next kernel's), so the largest kernel bounds the memory in use.
class StencilKernel {
public:
  virtual ~StencilKernel() = default;

  /// Name used in benchmark names (`wave3d`).
  virtual const char *name() const = 0;
  /// Default problem size `n` (an extent per dimension for 3-D kernels).
  virtual int64_t defaultSize() const = 0;
  /// Further sizes run by default, reported as `<name>_n<size>` (the
  /// cache-resident sizes of wave3d).
  virtual std::vector<int64_t> extraSizes() const { return {}; }
  /// The variants this kernel runs: those of allVariants() that
  /// bench/variants.json runs on name().
  std::vector<Variant> variants() const;
  /// Allocates and fills the primal arrays and the shadows for size `n`.
  virtual void setUp(int64_t n) = 0;
  /// Frees every array.
  virtual void tearDown() = 0;
  /// Runs one sweep of `v`.
  virtual void run(Variant v) = 0;
  /// Points of the iteration domain for the current size.
  virtual double points() const = 0;
  /// Bytes a sweep of the primal (`adjoint = false`) or of the adjoint must
  /// move at least, counted like STREAM: 8 bytes per point for each array
  /// read and for each array written (16 for one read and written), no
  /// write-allocate traffic. The doc comment of each kernel class derives it.
  virtual double bytesPerPoint(bool adjoint) const = 0;
  /// Of those writes, the bytes per point of arrays a sweep writes without
  /// reading them first: the cache reads their lines before the stores
  /// (write-allocate), traffic that STREAM counting leaves out. Default:
  /// the primal writes one array it does not read, and an adjoint writes
  /// only arrays it has read (accumulated shadows, reset output adjoints).
  virtual double writeAllocateBytesPerPoint(bool adjoint) const {
    return adjoint ? 0.0 : 8.0;
  }
  /// Of the adjoint's writes, the bytes per point of its reset of output
  /// adjoints, which `gather_noreset` does not do. Default: one array.
  virtual double resetBytesPerPoint() const { return 8.0; }
};

/// The kernels of the suite, in run order.
std::vector<std::unique_ptr<StencilKernel>> makeKernels();

/// Factories, one per Bench<Kernel>.cpp.
std::unique_ptr<StencilKernel> makeWave3d();
std::unique_ptr<StencilKernel> makeBurgers1d();
std::unique_ptr<StencilKernel> makePaper1d();
std::unique_ptr<StencilKernel> makeDense27();
std::unique_ptr<StencilKernel> makeSin125();
std::unique_ptr<StencilKernel> makeFilter3d();
std::unique_ptr<StencilKernel> makeWave3dLayered();

} // namespace stencil::bench

#endif // STENCIL_BENCH_BENCHHARNESS_H
