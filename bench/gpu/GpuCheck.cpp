//===- GpuCheck.cpp - Checks of stencil-bench-gpu --check -------*- C++ -*-===//
//
// What bench/gpu/run.sh runs before timing anything: the GPU primal and
// the GPU gather and atomic adjoints against the CPU build of the same IR
// (convert-to-omp) at sizes from one point to 512^3, and run-to-run and
// block-shape determinism of the gather adjoint; the atomic adjoint's
// run-to-run spread is reported beside it. Tolerances: at boundary points
// the CPU's compact slabs add the contributions into the array one at a
// time, the GPU's guarded form sums them first, so the adjoints agree to
// rounding, not bitwise; the share of bitwise-equal values is printed.
//
//===----------------------------------------------------------------------===//

#include "GpuCheck.h"
#include "GpuProblem.h"

#include <algorithm>
#include <cmath>
#include <set>

using namespace stencil::gpubench;

namespace {

template <typename T> double tolerance() {
  return sizeof(T) == 8 ? 1e-12 : 2e-5;
}

/// max |a - ref| / max |ref| (0 when both are zero), and the share of
/// bitwise-equal values.
template <typename T>
std::string compare(const std::vector<T> &a, const std::vector<T> &ref,
                    bool &ok) {
  double diff = 0, scale = 0;
  size_t same = 0;
  for (size_t i = 0; i < a.size(); ++i) {
    diff = std::max(diff, std::fabs(double(a[i]) - double(ref[i])));
    scale = std::max(scale, std::fabs(double(ref[i])));
    same += std::memcmp(&a[i], &ref[i], sizeof(T)) == 0;
    ok &= !std::isnan(double(a[i])) || std::isnan(double(ref[i]));
  }
  double rel = scale > 0 ? diff / scale : diff;
  ok &= rel <= tolerance<T>();
  char text[128];
  std::snprintf(text, sizeof text, "max rel diff %.3g, bitwise %.2f%%", rel,
                a.empty() ? 100.0 : 100.0 * double(same) / double(a.size()));
  return text;
}

template <typename T> uint64_t hashShadows(const Problem<T> &p) {
  uint64_t h = 1469598103934665603ull;
  for (unsigned s = 0; s < getInfo(p.kernel).shadows; ++s)
    for (T x : p.download(true, s)) {
      uint64_t bits = 0;
      std::memcpy(&bits, &x, sizeof(T));
      h = (h ^ bits) * 1099511628211ull;
    }
  return h;
}

template <typename T> const char *typeName() {
  return sizeof(T) == 8 ? "f64" : "f32";
}

bool openLib(Library &lib, const std::string &path, Kernel k, Counts &c) {
  std::string error;
  if (lib.open(path, getInfo(k).name, error))
    return true;
  c.report(false, "open " + path, error);
  return false;
}

/// GPU against CPU at size n: primal output, gather adjoint, atomic adjoint.
/// With `shadowOffset`, the shadows start that many elements into their
/// buffers, which runs the adjoints' 64-bit kernels.
/// Besides the default kernels, `gather_fma` (fp-contract=1: agrees with
/// the CPU to rounding, not bitwise) and, for dense27, `gather_call`
/// (bench/kernels/dense27_call.mlir: the products through a function with
/// partials, called on the device): their primals and adjoints against the
/// CPU build.
template <typename T>
void checkSize(const std::string &dir, Kernel k, int64_t n, Counts &c,
               int64_t shadowOffset = 0) {
  const KernelInfo &info = getInfo(k);
  Library cpu, gather, atomic, fma, call;
  if (!openLib(cpu, libraryPath(dir, k, typeName<T>(), "cpu"), k, c) ||
      !openLib(gather, libraryPath(dir, k, typeName<T>(), "gather"), k, c) ||
      !openLib(atomic, libraryPath(dir, k, typeName<T>(), "atomic"), k, c))
    return;
  std::vector<std::pair<const Library *, const char *>> gpus = {
      {&gather, "gather"}, {&atomic, "atomic"}};
  if (openLib(fma, libraryPath(dir, k, typeName<T>(), "gather_fma"), k, c))
    gpus.push_back({&fma, "gather_fma"});
  if (k == Kernel::Dense27 &&
      openLib(call, libraryPath(dir, k, typeName<T>(), "gather_call"), k, c))
    gpus.push_back({&call, "gather_call"});
  std::string what = std::string(info.name) + " " + typeName<T>() +
                     " n=" + std::to_string(n) +
                     (shadowOffset ? " shadows at offset " +
                                         std::to_string(shadowOffset) +
                                         " (64-bit kernels)"
                                   : "");
  Problem<T> p(k, n, shadowOffset);
  for (auto [gpu, name] : gpus) {
    if (gpu == &atomic) // The same primal as gather's.
      continue;
    p.fill(1);
    p.call(cpu, false, false);
    p.call(*gpu, false, true);
    for (unsigned a = 0; a < info.arrays; ++a) {
      bool ok = true;
      std::string detail =
          compare(p.download(false, a), p.host(false, a), ok);
      c.report(ok,
               what + (gpu == &gather ? "" : std::string(" ") + name) +
                   " primal array " + std::to_string(a),
               detail);
    }
  }
  for (auto [gpu, name] : gpus) {
    p.fill(2);
    p.call(cpu, true, false);
    p.call(*gpu, true, true);
    for (unsigned s = 0; s < info.shadows; ++s) {
      bool ok = true;
      std::string detail = compare(p.download(true, s), p.host(true, s), ok);
      c.report(ok,
               what + " " + name + " adjoint shadow " + std::to_string(s),
               detail);
    }
  }
}

/// The gather adjoint is bitwise the same over 20 runs and in every variant
/// (block shapes, index width, aliasing); the atomic adjoint's spread is
/// reported.
template <typename T>
void checkDeterminism(const std::string &dir, Kernel k, int64_t n,
                      const std::vector<std::string> &blocks, Counts &c) {
  std::string what = std::string(getInfo(k).name) + " " + typeName<T>() +
                     " n=" + std::to_string(n);
  Library gather, atomic;
  if (!openLib(gather, libraryPath(dir, k, typeName<T>(), "gather"), k, c) ||
      !openLib(atomic, libraryPath(dir, k, typeName<T>(), "atomic"), k, c))
    return;
  Problem<T> p(k, n);
  p.fill(3);
  std::set<uint64_t> gatherHashes, atomicHashes;
  for (int run = 0; run < 20; ++run) {
    p.upload();
    p.call(gather, true, true);
    gatherHashes.insert(hashShadows(p));
    p.upload();
    p.call(atomic, true, true);
    atomicHashes.insert(hashShadows(p));
  }
  c.report(gatherHashes.size() == 1, what + " gather adjoint, 20 runs",
           std::to_string(gatherHashes.size()) + " distinct result(s)");
  std::printf("INFO %s atomic adjoint, 20 runs: %zu distinct results\n",
              what.c_str(), atomicHashes.size());
  for (const std::string &block : blocks) {
    Library lib;
    if (!openLib(lib, libraryPath(dir, k, typeName<T>(), block), k, c))
      continue;
    p.upload();
    p.call(lib, true, true);
    bool same = hashShadows(p) == *gatherHashes.begin();
    c.report(same, what + " gather adjoint, variant " + block,
             same ? "bitwise equal to the default" : "differs");
  }
}

/// Every check at sizes up to `maxSize` (the determinism checks at
/// min(256, maxSize)).
template <typename T>
void checkType(const std::string &dir, Counts &c,
               const std::vector<std::string> &blocks, int64_t maxSize) {
  for (Kernel k : {Kernel::Wave3d, Kernel::Dense27}) {
    for (int64_t n : {1, 2, 3, 4, 5, 9, 33, 130})
      if (n <= maxSize)
        checkSize<T>(dir, k, n, c);
    for (int64_t n : {5, 33})
      if (n <= maxSize)
        checkSize<T>(dir, k, n, c, /*shadowOffset=*/3);
    // dense27's products through a function with partials: calls run on
    // the device and compute the same sums (bench/kernels/dense27_call.mlir).
    std::vector<std::string> variants = blocks;
    if (k == Kernel::Dense27)
      variants.push_back("gather_call");
    checkDeterminism<T>(dir, k, std::min<int64_t>(256, maxSize), variants, c);
  }
  if (512 <= maxSize)
    checkSize<T>(dir, Kernel::Wave3d, 512, c);
}

} // namespace

int stencil::gpubench::runChecks(const std::string &dir,
                                 const std::vector<std::string> &blocks,
                                 int64_t maxSize) {
  Counts c;
  checkType<double>(dir, c, blocks, maxSize);
  checkType<float>(dir, c, blocks, maxSize);
  std::printf("gpu checks: %d passed, %d failed\n", c.passed, c.failed);
  return c.failed;
}
