//===- abi_layout.cpp - StencilABI.h against MLIR's StridedMemRefType -----===//
//
// Compiled by stencil-compile.test: the descriptors of the installed ABI
// header must have the layout of MLIR's own StridedMemRefType
// (mlir/ExecutionEngine/CRunnerUtils.h), so that C++ callers may pass
// either; then prints the layout of the descriptors and of the run-time
// library's stencil_ckpt_stats, field by field as the C compiler lays them
// out, for the comparison with what the Python package builds from
// stencil-compile --abi-json (abi_layout.py).
//
//===----------------------------------------------------------------------===//

#include "Stencil/ABI/StencilABI.h"
#include "Stencil/Runtime/Checkpoint.h"

#include "mlir/ExecutionEngine/CRunnerUtils.h"

#include <cstddef>
#include <cstdio>

template <typename S, typename T, int R>
constexpr bool sameLayout() {
  using M = StridedMemRefType<T, R>;
  return sizeof(S) == sizeof(M) && offsetof(S, aligned) == offsetof(M, data) &&
         offsetof(S, offset) == offsetof(M, offset);
}
static_assert(sameLayout<StencilMemRef1D_f64, double, 1>());
static_assert(sameLayout<StencilMemRef2D_f32, float, 2>());
static_assert(sameLayout<StencilMemRef3D_f64, double, 3>());
static_assert(sameLayout<StencilMemRef6D_f32, float, 6>());
using Ref3 = StridedMemRefType<double, 3>;
static_assert(offsetof(StencilMemRef3D_f64, sizes) == offsetof(Ref3, sizes));
static_assert(offsetof(StencilMemRef3D_f64, strides) ==
              offsetof(Ref3, strides));
static_assert(sizeof(StencilMemRef0D_f64) ==
              sizeof(StridedMemRefType<double, 0>));

#define PRINT(R)                                                               \
  std::printf("rank %d size %zu offsets %zu %zu %zu", R,                       \
              sizeof(StencilMemRef##R##D_f64),                                 \
              offsetof(StencilMemRef##R##D_f64, allocated),                    \
              offsetof(StencilMemRef##R##D_f64, aligned),                      \
              offsetof(StencilMemRef##R##D_f64, offset));
#define PRINT_DIMS(R)                                                          \
  std::printf(" %zu %zu", offsetof(StencilMemRef##R##D_f64, sizes),            \
              offsetof(StencilMemRef##R##D_f64, strides));

int main() {
  PRINT(0) std::printf("\n");
  PRINT(1) PRINT_DIMS(1) std::printf("\n");
  PRINT(2) PRINT_DIMS(2) std::printf("\n");
  PRINT(3) PRINT_DIMS(3) std::printf("\n");
#define STAT(F)                                                                \
  std::printf(" %s@%zu", #F, offsetof(stencil_ckpt_stats, F));
  std::printf("stencil_ckpt_stats size %zu", sizeof(stencil_ckpt_stats));
  STAT(steps) STAT(slots) STAT(forward_steps) STAT(stores)
  STAT(workspace_bytes) STAT(slot_bytes) std::printf("\n");
  return 0;
}
