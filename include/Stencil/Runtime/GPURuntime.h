/*===- GPURuntime.h - Run-time support of GPU kernels -------------*- C -*-===*\
|*                                                                            *|
|* The functions that host code compiled by `convert-to-gpu` calls: upstream *|
|* MLIR's gpu-to-llvm lowering names them (`mgpu*`), lib/Runtime/GPURuntime.c *|
|* implements them with the CUDA driver API. Every call runs in the device's *|
|* primary context (device 0, or STENCIL_GPU_DEVICE), the context the CUDA   *|
|* runtime's cudaMalloc uses, so callers pass pointers from cudaMalloc.      *|
|* Launches go to the legacy default stream, and each GPU function returns   *|
|* after its kernels finished. A failing CUDA call prints the call and the   *|
|* error and aborts: a kernel that did not run must not look like a result.  *|
|*                                                                            *|
\*===----------------------------------------------------------------------===*/

#ifndef STENCIL_RUNTIME_GPURUNTIME_H
#define STENCIL_RUNTIME_GPURUNTIME_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* An embedded fatbin or cubin of `size` bytes (format=fatbin or bin). */
void *mgpuModuleLoad(void *data, uint64_t size);
/* Embedded PTX (format=isa), compiled by the driver at `optLevel`. */
void *mgpuModuleLoadJIT(void *data, int optLevel);
void mgpuModuleUnload(void *module);
void *mgpuModuleGetFunction(void *module, const char *name);
void mgpuLaunchKernel(void *function, intptr_t gridX, intptr_t gridY,
                      intptr_t gridZ, intptr_t blockX, intptr_t blockY,
                      intptr_t blockZ, int32_t sharedBytes, void *stream,
                      void **params, void **extra, size_t paramsCount);
void *mgpuStreamCreate(void);
void mgpuStreamSynchronize(void *stream);
void mgpuStreamDestroy(void *stream);
/* Temporaries of GPU functions (gpu.alloc / gpu.dealloc). */
void *mgpuMemAlloc(uint64_t bytes, void *stream, bool hostShared);
void mgpuMemFree(void *pointer, void *stream);

#ifdef __cplusplus
}
#endif

#endif /* STENCIL_RUNTIME_GPURUNTIME_H */
