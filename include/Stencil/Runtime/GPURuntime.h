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

#include "Stencil/Runtime/Checkpoint.h"

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

/* The reversed time loops of GPU functions (docs/GPU.md): the schedule of
 * Stencil/Runtime/Checkpoint.h with the snapshot workspace in device
 * memory, kept by the calling thread for its next adjoint (as the host one
 * is) until stencil_gpu_ckpt_release_workspace. The GPU route calls these
 * instead of stencil_ckpt_start and stencil_ckpt_workspace (same
 * signatures); every other stencil_ckpt_ function is the host library's. */
#define STENCIL_GPU_CKPT_START_NAME "stencil_gpu_ckpt_start"
#define STENCIL_GPU_CKPT_WORKSPACE_NAME "stencil_gpu_ckpt_workspace"
stencil_ckpt_schedule *stencil_gpu_ckpt_start(int64_t steps, int64_t snapshots,
                                              int64_t bytesPerSlot);
void _mlir_ciface_stencil_gpu_ckpt_workspace(stencil_ckpt_bytes *result,
                                             stencil_ckpt_schedule *schedule);
void stencil_gpu_ckpt_release_workspace(void);

/* One element of device memory, copied to the host once the kernels
 * launched before have finished: the host's reads of per-step scalars and
 * of the sums of domains with results (--stencil-gpu-host-reads). */
#define STENCIL_GPU_READ_F64_NAME "stencil_gpu_read_f64"
#define STENCIL_GPU_READ_F32_NAME "stencil_gpu_read_f32"
double stencil_gpu_read_f64(const void *element);
float stencil_gpu_read_f32(const void *element);

#ifdef __cplusplus
}
#endif

#endif /* STENCIL_RUNTIME_GPURUNTIME_H */
