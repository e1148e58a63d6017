/* A C caller of wave3d's GPU library (gpu-compile.test): the descriptors of
 * docs/ABI.md over device memory from the CUDA runtime. Built only, not
 * run (it needs a GPU; bench/gpu/run.sh runs the GPU checks). */
#include "wave3d_gpu.h"

#include <cuda_runtime.h>
#include <stdio.h>

int main(void) {
  const int64_t n = 16;
  size_t bytes = (size_t)(n * n * n) * sizeof(double);
  double *data[7];
  StencilMemRef3D_f64 d[7];
  for (int i = 0; i < 7; ++i) {
    if (cudaMalloc((void **)&data[i], bytes) != cudaSuccess ||
        cudaMemset(data[i], 0, bytes) != cudaSuccess) {
      fprintf(stderr, "no GPU\n");
      return 1;
    }
    d[i] = stencil_memref3d_f64(data[i], n, n, n);
  }
  _mlir_ciface_wave3d(&d[0], &d[1], &d[2], &d[3], 0.25, n);
  _mlir_ciface_wave3d_adjoint(&d[0], &d[1], &d[2], &d[3], 0.25, n, &d[4],
                              &d[5], &d[6]);
  for (int i = 0; i < 7; ++i)
    cudaFree(data[i]);
  return 0;
}
