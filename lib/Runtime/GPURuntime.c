/*===- GPURuntime.c - Run-time support of GPU kernels -------------*- C -*-===*\
|*                                                                            *|
|* The mgpu* functions of Stencil/Runtime/GPURuntime.h over the CUDA driver  *|
|* API. Written for this project against the contract of upstream MLIR's     *|
|* gpu-to-llvm lowering (the calls and argument lists it emits).             *|
|*                                                                            *|
\*===----------------------------------------------------------------------===*/

#include "Stencil/Runtime/GPURuntime.h"

#include <cuda.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

static void check(CUresult result, const char *call) {
  if (result == CUDA_SUCCESS)
    return;
  const char *name = "unknown error";
  cuGetErrorString(result, &name);
  fprintf(stderr, "stencil GPU runtime: %s failed: %s\n", call, name);
  abort();
}

#define CHECK(call) check((call), #call)

static CUcontext context;
static pthread_once_t contextOnce = PTHREAD_ONCE_INIT;

static void initContext(void) {
  int ordinal = 0;
  const char *env = getenv("STENCIL_GPU_DEVICE");
  if (env)
    ordinal = atoi(env);
  CUdevice device;
  CHECK(cuInit(0));
  CHECK(cuDeviceGet(&device, ordinal));
  CHECK(cuDevicePrimaryCtxRetain(&context, device));
}

/* Makes the primary context current on the calling thread. */
static void useContext(void) {
  pthread_once(&contextOnce, initContext);
  CHECK(cuCtxSetCurrent(context));
}

void *mgpuModuleLoad(void *data, uint64_t size) {
  (void)size;
  useContext();
  CUmodule module;
  CHECK(cuModuleLoadData(&module, data));
  return module;
}

void *mgpuModuleLoadJIT(void *data, int optLevel) {
  useContext();
  CUjit_option options[] = {CU_JIT_OPTIMIZATION_LEVEL};
  void *values[] = {(void *)(intptr_t)optLevel};
  CUmodule module;
  CHECK(cuModuleLoadDataEx(&module, data, 1, options, values));
  return module;
}

/* Called by a destructor of the library at exit, when the CUDA runtime may
 * already have torn the driver down (CUDA_ERROR_DEINITIALIZED): nothing
 * to report then. */
void mgpuModuleUnload(void *module) {
  if (cuCtxSetCurrent(context) == CUDA_SUCCESS)
    cuModuleUnload((CUmodule)module);
}

void *mgpuModuleGetFunction(void *module, const char *name) {
  useContext();
  CUfunction function;
  CHECK(cuModuleGetFunction(&function, (CUmodule)module, name));
  return function;
}

void mgpuLaunchKernel(void *function, intptr_t gridX, intptr_t gridY,
                      intptr_t gridZ, intptr_t blockX, intptr_t blockY,
                      intptr_t blockZ, int32_t sharedBytes, void *stream,
                      void **params, void **extra, size_t paramsCount) {
  (void)paramsCount;
  useContext();
  /* Grids are limited to 2^31 - 1 blocks in x and 65535 in y and z: the
   * extents of a domain's outer dimensions divided by the block shape. */
  if (gridX > 2147483647 || gridY > 65535 || gridZ > 65535) {
    fprintf(stderr,
            "stencil GPU runtime: a grid of %lld x %lld x %lld blocks "
            "exceeds the device's limits (x < 2^31, y and z <= 65535); "
            "use a block shape with more threads along the outer "
            "dimensions (convert-to-gpu block=)\n",
            (long long)gridX, (long long)gridY, (long long)gridZ);
    abort();
  }
  CHECK(cuLaunchKernel((CUfunction)function, (unsigned)gridX, (unsigned)gridY,
                       (unsigned)gridZ, (unsigned)blockX, (unsigned)blockY,
                       (unsigned)blockZ, (unsigned)sharedBytes,
                       (CUstream)stream, params, extra));
}

/* The legacy default stream: launches are ordered with cudaMemcpy and
 * every other use of the primary context, with no stream to create. */
void *mgpuStreamCreate(void) {
  useContext();
  return NULL;
}

void mgpuStreamSynchronize(void *stream) {
  useContext();
  CHECK(cuStreamSynchronize((CUstream)stream));
}

void mgpuStreamDestroy(void *stream) { (void)stream; }

void *mgpuMemAlloc(uint64_t bytes, void *stream, bool hostShared) {
  (void)stream;
  useContext();
  CUdeviceptr pointer = 0;
  if (bytes == 0)
    return NULL;
  if (hostShared)
    CHECK(cuMemAllocManaged(&pointer, bytes, CU_MEM_ATTACH_GLOBAL));
  else
    CHECK(cuMemAlloc(&pointer, bytes));
  return (void *)pointer;
}

void mgpuMemFree(void *pointer, void *stream) {
  (void)stream;
  if (!pointer)
    return;
  useContext();
  CHECK(cuMemFree((CUdeviceptr)pointer));
}

/* The calling thread's device workspace for reversed time loops. */
static _Thread_local CUdeviceptr workspace;
static _Thread_local int64_t workspaceBytes;

/* Makes the device workspace hold `bytes`; 0 on success. */
static int reserveDeviceWorkspace(int64_t bytes) {
  if (bytes <= workspaceBytes)
    return 0;
  useContext();
  if (workspace)
    CHECK(cuMemFree(workspace));
  workspace = 0;
  workspaceBytes = 0;
  if (cuMemAlloc(&workspace, (size_t)bytes) != CUDA_SUCCESS) {
    workspace = 0;
    return 1;
  }
  workspaceBytes = bytes;
  return 0;
}

stencil_ckpt_schedule *stencil_gpu_ckpt_start(int64_t steps, int64_t snapshots,
                                              int64_t bytesPerSlot) {
  return stencil_ckpt_start_with(steps, snapshots, bytesPerSlot,
                                 reserveDeviceWorkspace);
}

void _mlir_ciface_stencil_gpu_ckpt_workspace(stencil_ckpt_bytes *result,
                                             stencil_ckpt_schedule *schedule) {
  (void)schedule;
  result->allocated = (char *)workspace;
  result->aligned = (char *)workspace;
  result->offset = 0;
  result->sizes[0] = workspaceBytes;
  result->strides[0] = 1;
}

void stencil_gpu_ckpt_release_workspace(void) {
  if (workspace) {
    useContext();
    CHECK(cuMemFree(workspace));
  }
  workspace = 0;
  workspaceBytes = 0;
}

/* cuMemcpyDtoH is synchronous and ordered after the legacy default stream's
 * kernels. */
double stencil_gpu_read_f64(const void *element) {
  useContext();
  double value;
  CHECK(cuMemcpyDtoH(&value, (CUdeviceptr)element, sizeof value));
  return value;
}

float stencil_gpu_read_f32(const void *element) {
  useContext();
  float value;
  CHECK(cuMemcpyDtoH(&value, (CUdeviceptr)element, sizeof value));
  return value;
}
