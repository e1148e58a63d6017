//===- GpuTimeLoop.cpp - Time loops on the GPU ------------------*- C++ -*-===//
//
// stencil-timeloop-gpu: the gradient of a whole time loop on the GPU
// (docs/GPU.md, "Time loops"), for bench/kernels/wave3d_loop.mlir built by
// bench/gpu/CMakeLists.txt twice from the same IR, with convert-to-omp
// (`cpu`, host memory) and convert-to-gpu (`gather`, device memory):
//
//   wave3d_loop    the coefficient passive: the step's adjoint reads no
//                  state, so the schedule keeps no snapshot;
//   wave3d_loop_c  the coefficient active (c * lap(u): the gradient in c
//                  needs every state), so Revolve keeps snapshots, in
//                  device memory (stencil_gpu_ckpt_start);
//   fwi            examples/fwi/fwi.mlir: a receiver misfit summed over a
//                  plane every step (a domain with results, summed on the
//                  device and read back) and a source wavelet read on the
//                  host (memref.load of w[t]).
//
//   stencil-timeloop-gpu --libdir DIR --check
//       for each kernel, size, step count and snapshot count: the GPU
//       gradient (and FWI's misfit) against the CPU one (the same IR; rounding tolerance, and
//       the share of bitwise-equal values printed), and every snapshot
//       count's GPU gradient bitwise equal to store-all's; one PASS/FAIL
//       line each, then "N passed, M failed".
//   stencil-timeloop-gpu --libdir DIR --time N:T:S[,...]
//       CUDA events around the primal loop and the adjoint with store-all
//       and with S snapshots, 5 repetitions, medians; adjoint / primal.
//
//===----------------------------------------------------------------------===//

#include "GpuCheck.h"
#include "Stencil/ABI/StencilABI.h"

#include <cuda_runtime.h>
#include <dlfcn.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <sstream>
#include <string>
#include <vector>

namespace {

using stencil::gpubench::Counts;
using D3 = StencilMemRef3D_f64;
using Primal = void (*)(D3 *, D3 *, D3 *, D3 *, int64_t, int64_t);
/// Passive c: the three states' shadows, then the snapshot count.
using AdjointPassive = void (*)(D3 *, D3 *, D3 *, D3 *, int64_t, int64_t,
                                D3 *, D3 *, D3 *, int64_t);
/// Active c: its shadow too.
using AdjointActive = void (*)(D3 *, D3 *, D3 *, D3 *, int64_t, int64_t,
                               D3 *, D3 *, D3 *, D3 *, int64_t);

void checkCuda(cudaError_t status, const char *what) {
  if (status == cudaSuccess)
    return;
  std::fprintf(stderr, "stencil-timeloop-gpu: %s: %s\n", what,
               cudaGetErrorString(status));
  std::exit(2);
}

/// One opened library of one kernel.
struct Library {
  Primal primal = nullptr;
  void *adjoint = nullptr;
  bool open(const std::string &path, const std::string &kernel) {
    void *handle = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
    if (!handle) {
      std::fprintf(stderr, "stencil-timeloop-gpu: %s\n", dlerror());
      return false;
    }
    primal = reinterpret_cast<Primal>(
        dlsym(handle, ("_mlir_ciface_" + kernel).c_str()));
    adjoint = dlsym(handle, ("_mlir_ciface_" + kernel + "_adjoint").c_str());
    return primal && adjoint;
  }
};

/// Arrays of the given sizes on the host and, for the GPU, their copies on
/// the device: the arguments of one kernel's calls.
struct Arrays {
  std::vector<std::vector<double>> host;
  std::vector<double *> device;

  Arrays(const std::vector<size_t> &sizes, bool onDevice) {
    for (size_t size : sizes)
      host.emplace_back(size);
    if (onDevice)
      for (auto &a : host) {
        double *p = nullptr;
        checkCuda(cudaMalloc(&p, a.size() * sizeof(double)), "cudaMalloc");
        device.push_back(p);
      }
    upload();
  }
  ~Arrays() {
    for (double *p : device)
      cudaFree(p);
  }
  Arrays(const Arrays &) = delete;
  Arrays &operator=(const Arrays &) = delete;

  /// Fills array `a` with `value(a, r)`, r uniform in [0, 1) from `seed`,
  /// and copies the arrays to the device.
  template <typename Value> void fill(unsigned seed, Value value) {
    for (size_t a = 0; a < host.size(); ++a) {
      unsigned s = seed * 7919u + unsigned(a) * 104729u;
      for (double &x : host[a]) {
        s = s * 1664525u + 1013904223u;
        x = value(a, double(s >> 8) / double(1u << 24));
      }
    }
    upload();
  }
  /// Copies the host arrays to the device (the inputs again, where a call
  /// on the device changed them).
  void upload() {
    for (size_t a = 0; a < device.size(); ++a)
      checkCuda(cudaMemcpy(device[a], host[a].data(),
                           host[a].size() * sizeof(double),
                           cudaMemcpyHostToDevice),
                "cudaMemcpy");
  }
  double *data(size_t a) { return device.empty() ? host[a].data() : device[a]; }
  /// Arrays `from` on, one after the other, on the host.
  std::vector<double> tail(size_t from) const {
    std::vector<double> all;
    for (size_t a = from; a < host.size(); ++a) {
      std::vector<double> part = host[a];
      if (!device.empty())
        checkCuda(cudaMemcpy(part.data(), device[a],
                             part.size() * sizeof(double),
                             cudaMemcpyDeviceToHost),
                  "cudaMemcpy");
      all.insert(all.end(), part.begin(), part.end());
    }
    return all;
  }
};

/// The arrays of one wave3d_loop problem: u0, u1, u2, c and the shadows of
/// u0, u1, u2 (and c).
struct Problem {
  int64_t n;
  bool activeC;
  Arrays arrays;

  Problem(int64_t n, bool activeC, bool onDevice)
      : n(n), activeC(activeC),
        arrays(std::vector<size_t>(activeC ? 8 : 7, size_t(n) * n * n),
               onDevice) {}
  /// Inputs from `seed`: states in [-1, 1), c in [0.05, 0.15) (a stable
  /// wave), shadows in [-1, 1).
  void fill(unsigned seed) {
    arrays.fill(seed, [](size_t a, double r) {
      return a == 3 ? 0.05 + 0.1 * r : 2 * r - 1;
    });
  }
  std::vector<D3> descriptors() {
    std::vector<D3> d;
    for (size_t a = 0; a < arrays.host.size(); ++a)
      d.push_back(stencil_memref3d_f64(arrays.data(a), n, n, n));
    return d;
  }
  void primal(const Library &lib, int64_t steps) {
    std::vector<D3> d = descriptors();
    lib.primal(&d[0], &d[1], &d[2], &d[3], n, steps);
  }
  void adjoint(const Library &lib, int64_t steps, int64_t snapshots) {
    std::vector<D3> d = descriptors();
    if (activeC)
      reinterpret_cast<AdjointActive>(lib.adjoint)(
          &d[0], &d[1], &d[2], &d[3], n, steps, &d[4], &d[5], &d[6], &d[7],
          snapshots);
    else
      reinterpret_cast<AdjointPassive>(lib.adjoint)(
          &d[0], &d[1], &d[2], &d[3], n, steps, &d[4], &d[5], &d[6],
          snapshots);
  }
  /// The shadows (the gradient), on the host.
  std::vector<double> gradient() const { return arrays.tail(4); }
};

/// max |a - b| / max |b| within 1e-12, and the share of bitwise-equal
/// values.
bool close(const std::vector<double> &a, const std::vector<double> &b,
           std::string &detail) {
  double diff = 0, scale = 0;
  size_t same = 0;
  bool finite = true;
  for (size_t i = 0; i < a.size(); ++i) {
    diff = std::max(diff, std::fabs(a[i] - b[i]));
    scale = std::max(scale, std::fabs(b[i]));
    same += std::memcmp(&a[i], &b[i], sizeof(double)) == 0;
    finite &= std::isfinite(a[i]);
  }
  double rel = scale > 0 ? diff / scale : diff;
  char text[128];
  std::snprintf(text, sizeof text, "max rel diff %.3g, bitwise %.2f%%", rel,
                100.0 * double(same) / double(std::max<size_t>(a.size(), 1)));
  detail = text;
  return finite && rel <= 1e-12;
}

using FwiPrimal = double (*)(D3 *, D3 *, D3 *, D3 *, StencilMemRef1D_f64 *,
                             D3 *, int64_t, int64_t, int64_t, int64_t,
                             int64_t, int64_t);
using FwiAdjoint = void (*)(D3 *, D3 *, D3 *, D3 *, StencilMemRef1D_f64 *,
                            D3 *, int64_t, int64_t, int64_t, int64_t, int64_t,
                            int64_t, D3 *, D3 *, D3 *, D3 *, double, int64_t);

/// FWI's arrays: u0, u1, u2, m (n^3), then w (T), d (T x n x n), then the
/// shadows of u0, u1, u2, m.
struct FwiProblem {
  int64_t n, steps;
  Arrays arrays;

  static std::vector<size_t> sizes(int64_t n, int64_t steps) {
    std::vector<size_t> all(10, size_t(n) * n * n);
    all[4] = size_t(steps);
    all[5] = size_t(steps) * n * n;
    return all;
  }
  FwiProblem(int64_t n, int64_t steps, bool onDevice)
      : n(n), steps(steps), arrays(sizes(n, steps), onDevice) {}
  /// States and shadows in [-0.1, 0.1), m in [0.05, 0.15), w and d in
  /// [-1, 1).
  void fill(unsigned seed) {
    arrays.fill(seed, [](size_t a, double r) {
      return a == 3 ? 0.05 + 0.1 * r
             : a < 3 || a >= 6 ? 0.1 * (2 * r - 1)
                               : 2 * r - 1;
    });
  }
  double call(void *primal, void *adjoint, int64_t snapshots) {
    std::vector<D3> d;
    for (size_t a : {0, 1, 2, 3})
      d.push_back(stencil_memref3d_f64(arrays.data(a), n, n, n));
    D3 traces = stencil_memref3d_f64(arrays.data(5), steps, n, n);
    StencilMemRef1D_f64 w = stencil_memref1d_f64(arrays.data(4), steps);
    std::vector<D3> b;
    for (size_t a : {6, 7, 8, 9})
      b.push_back(stencil_memref3d_f64(arrays.data(a), n, n, n));
    int64_t s = n / 2, zr = n - 3;
    if (primal)
      return reinterpret_cast<FwiPrimal>(primal)(&d[0], &d[1], &d[2], &d[3],
                                                 &w, &traces, n, s, s, 2, zr,
                                                 steps);
    reinterpret_cast<FwiAdjoint>(adjoint)(&d[0], &d[1], &d[2], &d[3], &w,
                                          &traces, n, s, s, 2, zr, steps,
                                          &b[0], &b[1], &b[2], &b[3], 1.0,
                                          snapshots);
    return 0;
  }
  std::vector<double> gradient() const { return arrays.tail(6); }
};

/// FWI on the GPU against the CPU: the misfit (bitwise: the same order of
/// summation), the gradient, every snapshot count against store-all.
void checkFwi(const std::string &dir, Counts &counts) {
  Library cpu, gpu;
  if (!cpu.open(dir + "/libfwi_f64_cpu.so", "fwi") ||
      !gpu.open(dir + "/libfwi_f64_gather.so", "fwi")) {
    counts.report(false, "fwi", "cannot open its libraries");
    return;
  }
  for (int64_t n : {8, 16, 33})
    for (int64_t steps : {1, 6, 20}) {
      std::string what =
          "fwi n=" + std::to_string(n) + " T=" + std::to_string(steps);
      FwiProblem ref(n, steps, false);
      ref.fill(unsigned(n + steps));
      double wantJ = ref.call(reinterpret_cast<void *>(cpu.primal), nullptr, 0);
      ref.fill(unsigned(n + steps));
      ref.call(nullptr, cpu.adjoint, steps);
      std::vector<double> want = ref.gradient();
      FwiProblem dev(n, steps, true);
      dev.fill(unsigned(n + steps));
      double gotJ = dev.call(reinterpret_cast<void *>(gpu.primal), nullptr, 0);
      char text[96];
      std::snprintf(text, sizeof text, "J = %.17g, CPU %.17g", gotJ, wantJ);
      counts.report(gotJ == wantJ, what + " misfit bitwise = CPU", text);
      std::vector<double> storeAll;
      for (int64_t s : {steps, int64_t(1), int64_t(3)}) {
        dev.arrays.upload();
        dev.call(nullptr, gpu.adjoint, s);
        std::vector<double> got = dev.gradient();
        std::string detail;
        std::string at = what + " snapshots=" + std::to_string(s);
        counts.report(close(got, want, detail), at + " GPU vs CPU", detail);
        if (s == steps) {
          storeAll = got;
          continue;
        }
        bool same = got == storeAll;
        counts.report(same, at + " bitwise = store-all",
                      same ? "equal" : "differs");
      }
    }
}

int runChecks(const std::string &dir) {
  Counts counts;
  checkFwi(dir, counts);
  for (bool activeC : {false, true}) {
    std::string kernel = activeC ? "wave3d_loop_c" : "wave3d_loop";
    Library cpu, gpu;
    if (!cpu.open(dir + "/lib" + kernel + "_f64_cpu.so", "wave3d_loop") ||
        !gpu.open(dir + "/lib" + kernel + "_f64_gather.so", "wave3d_loop")) {
      counts.report(false, kernel, "cannot open its libraries");
      continue;
    }
    for (int64_t n : {5, 9, 33, 64})
      for (int64_t steps : {1, 5, 13}) {
        Problem ref(n, activeC, false), dev(n, activeC, true);
        ref.fill(unsigned(n * 100 + steps));
        ref.adjoint(cpu, steps, steps);
        std::vector<double> want = ref.gradient();
        std::vector<double> storeAll;
        for (int64_t s : {steps, int64_t(1), int64_t(3)}) {
          dev.fill(unsigned(n * 100 + steps));
          dev.adjoint(gpu, steps, s);
          checkCuda(cudaDeviceSynchronize(), "cudaDeviceSynchronize");
          std::vector<double> got = dev.gradient();
          std::string what = kernel + " n=" + std::to_string(n) +
                             " T=" + std::to_string(steps) +
                             " snapshots=" + std::to_string(s);
          std::string detail;
          bool ok = close(got, want, detail);
          counts.report(ok, what + " GPU vs CPU", detail);
          if (s == steps) {
            storeAll = got;
            continue;
          }
          bool same = got.size() == storeAll.size() &&
                      std::memcmp(got.data(), storeAll.data(),
                                  got.size() * sizeof(double)) == 0;
          counts.report(same, what + " bitwise = store-all",
                        same ? "equal" : "differs");
        }
      }
  }
  std::printf("%d passed, %d failed\n", counts.passed, counts.failed);
  return counts.failed;
}

/// The median time (ms) of `body` over 5 runs, each after `reset`.
template <typename Reset, typename Body>
double median(Reset reset, Body body) {
  cudaEvent_t start, stop;
  checkCuda(cudaEventCreate(&start), "cudaEventCreate");
  checkCuda(cudaEventCreate(&stop), "cudaEventCreate");
  reset();
  body(); // the first call sizes the snapshot workspace
  std::vector<float> times;
  for (int r = 0; r < 5; ++r) {
    reset();
    checkCuda(cudaDeviceSynchronize(), "cudaDeviceSynchronize");
    checkCuda(cudaEventRecord(start, 0), "cudaEventRecord");
    body();
    checkCuda(cudaEventRecord(stop, 0), "cudaEventRecord");
    checkCuda(cudaEventSynchronize(stop), "cudaEventSynchronize");
    float ms = 0;
    checkCuda(cudaEventElapsedTime(&ms, start, stop), "cudaEventElapsedTime");
    times.push_back(ms);
  }
  cudaEventDestroy(start);
  cudaEventDestroy(stop);
  std::sort(times.begin(), times.end());
  return times[2];
}

void runTimes(const std::string &dir, const std::string &cases) {
  std::stringstream ss(cases);
  std::string item;
  std::printf("kernel n T S: primal loop ms, store-all ms (x primal), "
              "S snapshots ms (x primal), per step GPts/s of the adjoint\n");
  while (std::getline(ss, item, ',')) {
    long n = 0, steps = 0, snapshots = 0;
    if (std::sscanf(item.c_str(), "%ld:%ld:%ld", &n, &steps, &snapshots) != 3)
      continue;
    for (bool activeC : {false, true}) {
      std::string kernel = activeC ? "wave3d_loop_c" : "wave3d_loop";
      Library gpu;
      if (!gpu.open(dir + "/lib" + kernel + "_f64_gather.so", "wave3d_loop"))
        continue;
      Problem p(n, activeC, true);
      p.fill(1);
      auto reset = [&] { p.arrays.upload(); };
      double primal = median(reset, [&] { p.primal(gpu, steps); });
      double all = median(reset, [&] { p.adjoint(gpu, steps, steps); });
      double some = median(reset, [&] { p.adjoint(gpu, steps, snapshots); });
      double points = double(n - 2) * double(n - 2) * double(n - 2) * steps;
      std::printf("%s %ld %ld %ld: %.3f, %.3f (%.2fx), %.3f (%.2fx), "
                  "%.1f GPts/s\n",
                  kernel.c_str(), n, steps, snapshots, primal, all,
                  all / primal, some, some / primal, points / all / 1e6);
    }
    Library fwi;
    if (!fwi.open(dir + "/libfwi_f64_gather.so", "fwi"))
      continue;
    FwiProblem p(n, steps, true);
    p.fill(1);
    auto reset = [&] { p.arrays.upload(); };
    double primal = median(reset, [&] {
      p.call(reinterpret_cast<void *>(fwi.primal), nullptr, 0);
    });
    double all = median(reset, [&] { p.call(nullptr, fwi.adjoint, steps); });
    double some =
        median(reset, [&] { p.call(nullptr, fwi.adjoint, snapshots); });
    double points = double(n - 2) * double(n - 2) * double(n - 2) * steps;
    std::printf("fwi %ld %ld %ld: %.3f, %.3f (%.2fx), %.3f (%.2fx), "
                "%.1f GPts/s\n",
                n, steps, snapshots, primal, all, all / primal, some,
                some / primal, points / all / 1e6);
  }
}

} // namespace

int main(int argc, char **argv) {
  std::string dir = ".", times;
  bool check = false;
  for (int i = 1; i < argc; ++i) {
    std::string arg = argv[i];
    if (arg == "--libdir" && i + 1 < argc)
      dir = argv[++i];
    else if (arg == "--check")
      check = true;
    else if (arg == "--time" && i + 1 < argc)
      times = argv[++i];
    else {
      std::fprintf(stderr, "usage: stencil-timeloop-gpu --libdir DIR "
                           "[--check] [--time N:T:S,...]\n");
      return 2;
    }
  }
  int failed = check ? runChecks(dir) : 0;
  if (!times.empty() && failed == 0)
    runTimes(dir, times);
  return failed ? 1 : 0;
}
