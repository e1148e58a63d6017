//===- GpuKernels.h - Kernel libraries of stencil-bench-gpu -----*- C++ -*-===//
//
// The libraries stencil-bench-gpu calls, built by bench/gpu/CMakeLists.txt
// from the same IR with stencil-compile --shared: per kernel and element
// type the GPU gather adjoint (convert-to-gpu, several block shapes), the
// GPU atomic-scatter adjoint (convert-to-gpu scatter=atomic) and the CPU
// gather adjoint (convert-to-omp). Every library exports the same two C
// entry points (`_mlir_ciface_<kernel>` and `..._adjoint`, docs/ABI.md), so
// each is opened on its own with dlopen. GPU libraries take descriptors of
// device memory, the CPU one of host memory: the same C ABI.
//
//===----------------------------------------------------------------------===//

#ifndef STENCIL_BENCH_GPU_GPUKERNELS_H
#define STENCIL_BENCH_GPU_GPUKERNELS_H

#include "Stencil/ABI/StencilABI.h"

#include <cstdint>
#include <string>
#include <vector>

namespace stencil::gpubench {

template <typename T> struct Desc;
template <> struct Desc<double> { using type = StencilMemRef3D_f64; };
template <> struct Desc<float> { using type = StencilMemRef3D_f32; };

/// The kernels: wave3d (examples/wave3d.mlir; 4 arrays, 3 shadows) and
/// dense27 (bench/kernels/dense27.mlir; 2 arrays, 2 shadows).
enum class Kernel { Wave3d, Dense27 };

struct KernelInfo {
  const char *name;
  unsigned arrays;  ///< array arguments of the primal
  unsigned shadows; ///< shadows of the adjoint
  unsigned output;  ///< the array the primal writes
  /// Arrays a sweep must move per point (the bandwidth bound): the primal
  /// reads its inputs and writes its output; the adjoint reads the output
  /// adjoint and the passive arrays, updates each input adjoint in place
  /// (read and write) and resets the output adjoint (a write).
  unsigned primalTransfers, adjointTransfers;
};

const KernelInfo &getInfo(Kernel kernel);

/// One opened library: its primal and adjoint entry points.
class Library {
public:
  Library() = default;
  /// Opens `path`; returns false with a message in `error`.
  bool open(const std::string &path, const char *kernelName,
            std::string &error);
  bool isOpen() const { return primal != nullptr; }

  /// Calls the primal or the adjoint on `arrays` (getInfo().arrays
  /// descriptors) and `shadows`, with the wave's scalar D.
  template <typename T>
  void call(Kernel kernel, bool adjoint,
            std::vector<typename Desc<T>::type> &arrays,
            std::vector<typename Desc<T>::type> &shadows, T D,
            int64_t n) const;

private:
  void *primal = nullptr;
  void *adjoint = nullptr;
};

/// The library `<dir>/lib<kernel>_<type>_<variant>.so`.
std::string libraryPath(const std::string &dir, Kernel kernel,
                        const char *type, const std::string &variant);

} // namespace stencil::gpubench

#endif // STENCIL_BENCH_GPU_GPUKERNELS_H
