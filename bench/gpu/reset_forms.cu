//===- reset_forms.cu - Forms of a GPU reset kernel, by hand ---------------===//
//
// The experiment behind --stencil-map-to-gpu's `row-points` (docs/GPU.md,
// "Resets and alignment"): ways to zero the interior box (1..n-1)^3 of an
// n^3 array, as the reset of wave3d's output adjoint does, timed with CUDA
// events (median of 20 after 5 warm-up rounds, the forms interleaved) next
// to cudaMemsetAsync and a copy of the whole array. At n <= 130 each form
// is checked: the box zero, the border untouched. Not part of the build
// (the bundle needs no CUDA compiler); build and run it by hand:
//
//   nvcc -O3 -arch=sm_90 -cudart static -o reset_forms bench/gpu/reset_forms.cu
//   ./reset_forms 512
//
// Results of an H200: bench/results/gpu/2026-11-27-h200-run10/reset-forms.txt.
//
//===----------------------------------------------------------------------===//
#include <cstdio>
#include <cstdlib>
#include <vector>
#include <algorithm>
#include <string>
#include <functional>
#include <cuda_runtime.h>
#define CK(x) do { cudaError_t e = (x); if (e) { printf("%s: %s\n", #x, cudaGetErrorString(e)); exit(1);} } while (0)

// A: one point per thread, a block of blockDim.x x blockDim.y points of
// one plane (the form the compiler emitted before row points).
template <class T> __global__ void kA(T *a, int n, int lo, int hi) {
  int k = lo + blockIdx.x * blockDim.x + threadIdx.x, j = lo + blockIdx.y * blockDim.y + threadIdx.y, i = lo + blockIdx.z;
  if (k < hi && j < hi && i < hi) a[(i * n + j) * n + k] = 0;
}
// X: F points of a row per thread, blockDim.x apart (row points).
template <class T, int F> __global__ void kX(T *a, int n, int lo, int hi) {
  int k0 = lo + blockIdx.x * blockDim.x * F + threadIdx.x, j = lo + blockIdx.y * blockDim.y + threadIdx.y, i = lo + blockIdx.z;
  if (j >= hi) return;
  #pragma unroll
  for (int f = 0; f < F; ++f) { int k = k0 + f * blockDim.x; if (k < hi) a[(i * n + j) * n + k] = 0; }
}
// B: one warp per row, looping along k.
template <class T> __global__ void kB(T *a, int n, int lo, int hi) {
  int j = lo + blockIdx.x * blockDim.y + threadIdx.y, i = lo + blockIdx.y;
  if (j >= hi) return;
  T *row = a + ((size_t)i * n + j) * n;
  for (int k = lo + threadIdx.x; k < hi; k += 32) row[k] = 0;
}
// C: one block per row, looping along k.
template <class T> __global__ void kC(T *a, int n, int lo, int hi) {
  int j = lo + blockIdx.x, i = lo + blockIdx.y;
  T *row = a + ((size_t)i * n + j) * n;
  for (int k = lo + threadIdx.x; k < hi; k += blockDim.x) row[k] = 0;
}
// E: as B with 16-byte stores over the row's aligned body.
template <class T> __global__ void kE(T *a, int n, int lo, int hi) {
  int j = lo + blockIdx.x * blockDim.y + threadIdx.y, i = lo + blockIdx.y;
  if (j >= hi) return;
  T *row = a + ((size_t)i * n + j) * n;
  const int V = 16 / sizeof(T);
  uintptr_t p = (uintptr_t)(row + lo);
  int head = (int)(((16 - (p & 15)) & 15) / sizeof(T));
  int len = hi - lo;
  if (head > len) head = len;
  if ((int)threadIdx.x < head) row[lo + threadIdx.x] = 0;
  int body = (len - head) / V;
  int4 *vb = (int4 *)(row + lo + head);
  for (int v = threadIdx.x; v < body; v += 32) vb[v] = make_int4(0, 0, 0, 0);
  int tail = lo + head + body * V;
  if (tail + (int)threadIdx.x < hi) row[tail + threadIdx.x] = 0;
}
// D: a grid-stride loop over the box's points, flattened.
template <class T> __global__ void kD(T *a, int n, int lo, int hi) {
  int m = hi - lo;
  size_t total = (size_t)m * m * m;
  for (size_t t = blockIdx.x * (size_t)blockDim.x + threadIdx.x; t < total; t += (size_t)gridDim.x * blockDim.x) {
    int k = t % m; size_t r = t / m; int j = r % m; int i = r / m;
    a[((size_t)(i + lo) * n + j + lo) * n + k + lo] = 0;
  }
}
// F: one thread per element of the span from the box's first point to
// its last, storing where the element is in the box (F4: 16 bytes each).
template <class T> __global__ void kF(T *a, int n, int lo, int hi, unsigned start, unsigned end) {
  unsigned p = start + blockIdx.x * blockDim.x + threadIdx.x;
  if (p >= end) return;
  unsigned k = p % n, r = p / n, j = r % n;
  if (k >= (unsigned)lo && k < (unsigned)hi && j >= (unsigned)lo && j < (unsigned)hi) a[p] = 0;
}
template <class T> __global__ void kF4(T *a, int n, int lo, int hi, unsigned start, unsigned end) {
  const unsigned V = 16 / sizeof(T);
  unsigned p0 = start + (blockIdx.x * blockDim.x + threadIdx.x) * V;
  if (p0 >= end) return;
  unsigned k = p0 % n, r = p0 / n, j = r % n;
  bool rowin = j >= (unsigned)lo && j < (unsigned)hi;
  if (rowin && k >= (unsigned)lo && k + V <= (unsigned)hi && p0 + V <= end) { *(int4 *)(a + p0) = make_int4(0,0,0,0); return; }
  for (unsigned v = 0; v < V; ++v) {
    unsigned p = p0 + v; if (p >= end) return;
    unsigned kk = p % n, jj = (p / n) % n;
    if (kk >= (unsigned)lo && kk < (unsigned)hi && jj >= (unsigned)lo && jj < (unsigned)hi) a[p] = 0;
  }
}
template <class T> void run(int n) {
  size_t N = (size_t)n * n * n, bytes = N * sizeof(T);
  T *a, *b; CK(cudaMalloc(&a, bytes)); CK(cudaMalloc(&b, bytes));
  CK(cudaMemset(a, 1, bytes));
  int lo = 1, hi = n - 1, m = hi - lo;
  unsigned start = ((unsigned)lo * n + lo) * n + lo, end = ((unsigned)(hi - 1) * n + hi - 1) * n + hi;
  start &= ~31u;
  int sms; CK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));
  std::vector<std::pair<std::string, std::function<void()>>> v = {
    {"A 32x8 1pt", [&] { kA<T><<<dim3((m + 31) / 32, (m + 7) / 8, m), dim3(32, 8)>>>(a, n, lo, hi); }},
    {"X2 32x8", [&] { kX<T,2><<<dim3((m + 63) / 64, (m + 7) / 8, m), dim3(32, 8)>>>(a, n, lo, hi); }},
    {"X4 32x8", [&] { kX<T,4><<<dim3((m + 127) / 128, (m + 7) / 8, m), dim3(32, 8)>>>(a, n, lo, hi); }},
    {"X8 32x8", [&] { kX<T,8><<<dim3((m + 255) / 256, (m + 7) / 8, m), dim3(32, 8)>>>(a, n, lo, hi); }},
    {"X16 32x8", [&] { kX<T,16><<<dim3((m + 511) / 512, (m + 7) / 8, m), dim3(32, 8)>>>(a, n, lo, hi); }},
    {"X2 128x2", [&] { kX<T,2><<<dim3((m + 255) / 256, (m + 1) / 2, m), dim3(128, 2)>>>(a, n, lo, hi); }},
    {"X2 256x1", [&] { kX<T,2><<<dim3((m + 511) / 512, m, m), dim3(256, 1)>>>(a, n, lo, hi); }},
    {"A 128x2", [&] { kA<T><<<dim3((m + 127) / 128, (m + 1) / 2, m), dim3(128, 2)>>>(a, n, lo, hi); }},
    {"A 256x1", [&] { kA<T><<<dim3((m + 255) / 256, m, m), dim3(256, 1)>>>(a, n, lo, hi); }},
    {"A 512x1", [&] { kA<T><<<dim3((m + 511) / 512, m, m), dim3(512, 1)>>>(a, n, lo, hi); }},
    {"A 64x4", [&] { kA<T><<<dim3((m + 63) / 64, (m + 3) / 4, m), dim3(64, 4)>>>(a, n, lo, hi); }},
    {"F span 256", [&] { kF<T><<<(end - start + 255) / 256, 256>>>(a, n, lo, hi, start, end); }},
    {"F4 span vec 256", [&] { unsigned V = 16 / sizeof(T); kF4<T><<<((end - start + V - 1) / V + 255) / 256, 256>>>(a, n, lo, hi, start, end); }},
    {"B warp/row 32x8", [&] { kB<T><<<dim3((m + 7) / 8, m), dim3(32, 8)>>>(a, n, lo, hi); }},
    {"B warp/row 32x4", [&] { kB<T><<<dim3((m + 3) / 4, m), dim3(32, 4)>>>(a, n, lo, hi); }},
    {"C block/row 128", [&] { kC<T><<<dim3(m, m), 128>>>(a, n, lo, hi); }},
    {"C block/row 256", [&] { kC<T><<<dim3(m, m), 256>>>(a, n, lo, hi); }},
    {"E warp/row vec16 32x8", [&] { kE<T><<<dim3((m + 7) / 8, m), dim3(32, 8)>>>(a, n, lo, hi); }},
    {"D gridstride 8/SM", [&] { kD<T><<<sms * 8, 256>>>(a, n, lo, hi); }},
    {"memset3D", [&] { cudaPitchedPtr p = make_cudaPitchedPtr(a + (size_t)(lo * n + lo) * n + lo, n * sizeof(T), n, n);
                       CK(cudaMemset3DAsync(p, 0, make_cudaExtent(m * sizeof(T), m, m))); }},
    {"memset whole", [&] { CK(cudaMemsetAsync(a, 0, bytes)); }},
    {"copy whole", [&] { CK(cudaMemcpyAsync(b, a, bytes, cudaMemcpyDeviceToDevice)); }},
  };
  cudaEvent_t e0, e1; cudaEventCreate(&e0); cudaEventCreate(&e1);
  std::vector<std::vector<float>> t(v.size());
  for (int rep = 0; rep < 25; ++rep)
    for (size_t x = 0; x < v.size(); ++x) {
      cudaEventRecord(e0); v[x].second(); cudaEventRecord(e1); CK(cudaEventSynchronize(e1));
      float ms; cudaEventElapsedTime(&ms, e0, e1); if (rep >= 5) t[x].push_back(ms);
    }
  // correctness of each kernel form: fill with 1s, reset, check box zero and border intact
  std::vector<T> h(N);
  for (size_t x = 0; n <= 130 && x + 3 < v.size(); ++x) {
    CK(cudaMemset(a, 0xff, bytes)); v[x].second(); CK(cudaDeviceSynchronize());
    CK(cudaMemcpy(h.data(), a, bytes, cudaMemcpyDeviceToHost));
    long bad = 0;
    for (int i = 0; i < n; ++i) for (int j = 0; j < n; ++j) for (int k = 0; k < n; ++k) {
      bool in = i >= lo && i < hi && j >= lo && j < hi && k >= lo && k < hi;
      T val = h[((size_t)i * n + j) * n + k];
      unsigned char c; memcpy(&c, &val, 1);
      if (in ? (val != 0) : (c != 0xff)) ++bad;
    }
    if (bad) printf("  %s: %ld wrong\n", v[x].first.c_str(), bad);
  }
  double base = 0;
  for (size_t x = 0; x < v.size(); ++x) {
    std::sort(t[x].begin(), t[x].end()); double med = t[x][t[x].size() / 2];
    if (x == 0) base = med;
    double gbs = (v[x].first == "copy whole" ? 2.0 * bytes : v[x].first == "memset whole" ? (double)bytes : (double)m * m * m * sizeof(T)) / med / 1e6;
    printf("%s n=%d %-24s %8.1f us  %6.0f GB/s  %.2fx A\n", sizeof(T) == 4 ? "f32" : "f64", n, v[x].first.c_str(), med * 1e3, gbs, med / base);
  }
  cudaFree(a); cudaFree(b);
}
int main(int argc, char **argv) {
  int n = argc > 1 ? atoi(argv[1]) : 512;
  cudaDeviceProp p; CK(cudaGetDeviceProperties(&p, 0)); printf("%s\n", p.name);
  run<float>(n); run<double>(n);
  run<float>(130); run<double>(130);
}
