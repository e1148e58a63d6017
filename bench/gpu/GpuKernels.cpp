//===- GpuKernels.cpp - Kernel libraries of stencil-bench-gpu ---*- C++ -*-===//
//
// Opening the kernel libraries and calling their entry points with the
// signatures of docs/ABI.md (GpuKernels.h).
//
//===----------------------------------------------------------------------===//

#include "GpuKernels.h"

#include <dlfcn.h>

using namespace stencil::gpubench;

const KernelInfo &stencil::gpubench::getInfo(Kernel kernel) {
  // wave3d: u = f(u_1, u_2, c); adjoint reads u_b, c, updates u_1_b and
  // u_2_b, resets u_b. dense27: r = f(u); adjoint reads r_b, updates u_b,
  // resets r_b.
  static const KernelInfo wave{"wave3d", 4, 3, 0, 4, 7};
  static const KernelInfo dense{"dense27", 2, 2, 0, 2, 4};
  return kernel == Kernel::Wave3d ? wave : dense;
}

bool Library::open(const std::string &path, const char *kernelName,
                   std::string &error) {
  void *handle = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (!handle) {
    error = dlerror();
    return false;
  }
  std::string name = std::string("_mlir_ciface_") + kernelName;
  primal = dlsym(handle, name.c_str());
  adjoint = dlsym(handle, (name + "_adjoint").c_str());
  if (!primal || !adjoint) {
    error = path + " does not export " + name + " and " + name + "_adjoint";
    primal = adjoint = nullptr;
    return false;
  }
  return true;
}

template <typename T>
void Library::call(Kernel kernel, bool adj,
                   std::vector<typename Desc<T>::type> &a,
                   std::vector<typename Desc<T>::type> &s, T D,
                   int64_t n) const {
  using D3 = typename Desc<T>::type;
  if (kernel == Kernel::Wave3d) {
    if (!adj) {
      using Fn = void (*)(D3 *, D3 *, D3 *, D3 *, T, int64_t);
      reinterpret_cast<Fn>(primal)(&a[0], &a[1], &a[2], &a[3], D, n);
      return;
    }
    using Fn = void (*)(D3 *, D3 *, D3 *, D3 *, T, int64_t, D3 *, D3 *, D3 *);
    reinterpret_cast<Fn>(adjoint)(&a[0], &a[1], &a[2], &a[3], D, n, &s[0],
                                  &s[1], &s[2]);
    return;
  }
  if (!adj) {
    using Fn = void (*)(D3 *, D3 *, int64_t);
    reinterpret_cast<Fn>(primal)(&a[0], &a[1], n);
    return;
  }
  using Fn = void (*)(D3 *, D3 *, int64_t, D3 *, D3 *);
  reinterpret_cast<Fn>(adjoint)(&a[0], &a[1], n, &s[0], &s[1]);
}

template void Library::call<double>(Kernel, bool,
                                    std::vector<Desc<double>::type> &,
                                    std::vector<Desc<double>::type> &, double,
                                    int64_t) const;
template void Library::call<float>(Kernel, bool,
                                   std::vector<Desc<float>::type> &,
                                   std::vector<Desc<float>::type> &, float,
                                   int64_t) const;

std::string stencil::gpubench::libraryPath(const std::string &dir,
                                           Kernel kernel, const char *type,
                                           const std::string &variant) {
  return dir + "/lib" + getInfo(kernel).name + "_" + type + "_" + variant +
         ".so";
}
