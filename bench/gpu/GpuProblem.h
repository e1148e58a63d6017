//===- GpuProblem.h - Arrays of one GPU benchmark problem -------*- C++ -*-===//
//
// The arrays of one kernel at one size, on the host and on the device, and
// their descriptors for the C ABI (GpuKernels.h). Inputs and shadows are
// filled from a seed, so every variant starts from the same state. The
// shadows can start `shadowOffset` elements into their buffers (descriptor
// offset): arrays and shadows then have different layouts, which sends
// convert-to-gpu's kernels to their 64-bit versions.
//
//===----------------------------------------------------------------------===//

#ifndef STENCIL_BENCH_GPU_GPUPROBLEM_H
#define STENCIL_BENCH_GPU_GPUPROBLEM_H

#include "GpuKernels.h"

#include <cuda_runtime.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

namespace stencil::gpubench {

inline void checkCuda(cudaError_t status, const char *what) {
  if (status == cudaSuccess)
    return;
  std::fprintf(stderr, "stencil-bench-gpu: %s: %s\n", what,
               cudaGetErrorString(status));
  std::exit(2);
}

template <typename T> class Problem {
public:
  using D3 = typename Desc<T>::type;

  Problem(Kernel kernel, int64_t n, int64_t shadowOffset = 0)
      : kernel(kernel), n(n), count(size_t(n) * n * n),
        shadowOffset(shadowOffset), arrays(getInfo(kernel).arrays),
        shadows(getInfo(kernel).shadows) {
    for (auto *set : {&arrays, &shadows})
      for (Array &a : *set) {
        a.host.assign(count + (set == &shadows ? shadowOffset : 0), T(0));
        checkCuda(cudaMalloc(&a.device, a.host.size() * sizeof(T)),
                  "cudaMalloc");
      }
  }
  ~Problem() {
    for (auto *set : {&arrays, &shadows})
      for (Array &a : *set)
        cudaFree(a.device);
  }
  Problem(const Problem &) = delete;
  Problem &operator=(const Problem &) = delete;

  size_t bytes() const { return count * sizeof(T); }
  size_t points() const { return count; }

  /// Fills every array and shadow with values in [-1, 1) from `seed`, on
  /// the host and the device.
  void fill(unsigned seed) {
    unsigned state = seed * 2654435761u + 1;
    for (auto *set : {&arrays, &shadows})
      for (Array &a : *set)
        for (T &x : a.host) {
          state = state * 1664525u + 1013904223u;
          x = T(int(state >> 8) % 2000 - 1000) / T(1000);
        }
    upload();
  }
  void upload() {
    for (auto *set : {&arrays, &shadows})
      for (Array &a : *set)
        checkCuda(cudaMemcpy(a.device, a.host.data(),
                             a.host.size() * sizeof(T),
                             cudaMemcpyHostToDevice),
                  "cudaMemcpy to the device");
  }
  /// The device contents of array `i` (or shadow `i`), its whole buffer.
  std::vector<T> download(bool shadow, unsigned i) const {
    const Array &a = (shadow ? shadows : arrays)[i];
    std::vector<T> out(a.host.size());
    checkCuda(cudaMemcpy(out.data(), a.device, out.size() * sizeof(T),
                         cudaMemcpyDeviceToHost),
              "cudaMemcpy to the host");
    return out;
  }
  const std::vector<T> &host(bool shadow, unsigned i) const {
    return (shadow ? shadows : arrays)[i].host;
  }
  T *device(bool shadow, unsigned i) {
    return (shadow ? shadows : arrays)[i].device;
  }
  /// Descriptors of the device or the host arrays (or shadows).
  std::vector<D3> descriptors(bool onDevice, bool shadow) {
    std::vector<D3> out;
    for (Array &a : shadow ? shadows : arrays) {
      T *data = onDevice ? a.device : a.host.data();
      D3 d;
      d.allocated = d.aligned = data;
      d.offset = shadow ? shadowOffset : 0;
      for (int k = 0; k < 3; ++k)
        d.sizes[k] = n;
      d.strides[0] = n * n;
      d.strides[1] = n;
      d.strides[2] = 1;
      out.push_back(d);
    }
    return out;
  }
  void call(const Library &lib, bool adjoint, bool onDevice) {
    std::vector<D3> a = descriptors(onDevice, false);
    std::vector<D3> s = descriptors(onDevice, true);
    lib.call<T>(kernel, adjoint, a, s, T(0.25), n);
  }

  Kernel kernel;
  int64_t n;
  size_t count;
  int64_t shadowOffset;

private:
  struct Array {
    std::vector<T> host;
    T *device = nullptr;
  };
  std::vector<Array> arrays, shadows;
};

} // namespace stencil::gpubench

#endif // STENCIL_BENCH_GPU_GPUPROBLEM_H
