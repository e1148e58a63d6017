//===- BenchMPI.cpp - Halo exchange against compute, distributed kernels --===//
//
// stencil-bench-mpi: examples/wave3d.mlir and its gather adjoint, and
// examples/fwi/fwi.mlir's misfit (a whole time loop) and its checkpointed
// gradient, compiled with --stencil-distribute over an ?x1x1 grid (the ?
// chosen at run time: the number of ranks), each three times: with the
// halo exchanges overlapped with the interior of the nests after them (the
// default), the same with the interior in four parts and MPI progress
// between them (overlap-chunks=4), and blocking (overlap-exchanges=0). The libraries are built beside this
// binary. Run under
//
//   stencil-mpirun -n R stencil-bench-mpi [--benchmark_* flags]
//
// with OMP_NUM_THREADS=1 per rank. Each iteration runs the distributed
// primal or adjoint on every rank between barriers and records the slowest
// rank's time; this file's MPI_Sendrecv, MPI_Isend, MPI_Irecv,
// MPI_Testall, MPI_Waitall and MPI_Allgatherv wrap their PMPI_ versions to
// time the exchanges and the sums (waiting for the partner included; with
// overlap, the wait after the interior and any progress calls between its
// parts). The variants run in rounds, alternating (names
// `.../overlap/...`, `.../overlap4/...`, `.../blocking/...`), so that
// ratios come from neighbouring runs. Counters:
// `mpi_ms` (the slowest rank's time inside MPI per call), `mpi_fraction`
// (of the call), `points_per_rank`; for FWI's gradient, `slot_blocks`:
// rank 0's bytes of one snapshot slot over one block's (u_prev, u_t and
// the border of u_next: under 3). Only rank 0 reports; every rank runs
// the same fixed number of iterations, so they meet at each barrier.
//
//===----------------------------------------------------------------------===//

#include "Stencil/ABI/StencilABI.h"
#include "Stencil/Runtime/Checkpoint.h"
#include "Stencil/Runtime/Distributed.h"

#include <benchmark/benchmark.h>
#include <dlfcn.h>
#include <mpi.h>

#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

namespace {
double mpiSeconds = 0;
} // namespace

extern "C" int MPI_Sendrecv(const void *sendbuf, int sendcount,
                            MPI_Datatype sendtype, int dest, int sendtag,
                            void *recvbuf, int recvcount,
                            MPI_Datatype recvtype, int source, int recvtag,
                            MPI_Comm comm, MPI_Status *status) {
  double t0 = PMPI_Wtime();
  int rc = PMPI_Sendrecv(sendbuf, sendcount, sendtype, dest, sendtag, recvbuf,
                         recvcount, recvtype, source, recvtag, comm, status);
  mpiSeconds += PMPI_Wtime() - t0;
  return rc;
}

extern "C" int MPI_Isend(const void *buf, int count, MPI_Datatype type,
                         int dest, int tag, MPI_Comm comm,
                         MPI_Request *request) {
  double t0 = PMPI_Wtime();
  int rc = PMPI_Isend(buf, count, type, dest, tag, comm, request);
  mpiSeconds += PMPI_Wtime() - t0;
  return rc;
}

extern "C" int MPI_Irecv(void *buf, int count, MPI_Datatype type, int source,
                         int tag, MPI_Comm comm, MPI_Request *request) {
  double t0 = PMPI_Wtime();
  int rc = PMPI_Irecv(buf, count, type, source, tag, comm, request);
  mpiSeconds += PMPI_Wtime() - t0;
  return rc;
}

extern "C" int MPI_Waitall(int count, MPI_Request requests[],
                           MPI_Status statuses[]) {
  double t0 = PMPI_Wtime();
  int rc = PMPI_Waitall(count, requests, statuses);
  mpiSeconds += PMPI_Wtime() - t0;
  return rc;
}

extern "C" int MPI_Testall(int count, MPI_Request requests[], int *flag,
                           MPI_Status statuses[]) {
  double t0 = PMPI_Wtime();
  int rc = PMPI_Testall(count, requests, flag, statuses);
  mpiSeconds += PMPI_Wtime() - t0;
  return rc;
}

extern "C" int MPI_Allgatherv(const void *sendbuf, int sendcount,
                              MPI_Datatype sendtype, void *recvbuf,
                              const int *recvcounts, const int *displs,
                              MPI_Datatype recvtype, MPI_Comm comm) {
  double t0 = PMPI_Wtime();
  int rc = PMPI_Allgatherv(sendbuf, sendcount, sendtype, recvbuf, recvcounts,
                           displs, recvtype, comm);
  mpiSeconds += PMPI_Wtime() - t0;
  return rc;
}

namespace {
using M = StencilMemRef3D_f64;
using Primal = void (*)(M *, M *, M *, M *, double, int64_t, int64_t, int64_t,
                        int64_t);
using Adjoint = void (*)(M *, M *, M *, M *, double, int64_t, M *, M *, M *,
                         int64_t, int64_t, int64_t);

using V = StencilMemRef1D_f64;
using Misfit = double (*)(M *, M *, M *, M *, V *, M *, int64_t, int64_t,
                          int64_t, int64_t, int64_t, int64_t, int64_t, int64_t,
                          int64_t);
using Gradient = void (*)(M *, M *, M *, M *, V *, M *, int64_t, int64_t,
                          int64_t, int64_t, int64_t, int64_t, M *, M *, M *,
                          M *, double, int64_t, int64_t, int64_t, int64_t);

struct Kernels {
  Primal primal = nullptr;
  Adjoint adjoint = nullptr;
  Misfit misfit = nullptr;
  Gradient gradient = nullptr;
  stencil_ckpt_stats (*stats)() = nullptr; // FWI's library's
};

int worldRank = 0, worldSize = 1;
/// The kernels of each variant: overlapped exchanges, overlapped with the
/// interior in four parts and MPI progress between them, blocking ones.
constexpr int kVariants = 3;
const char *const variantNames[kVariants] = {"overlap", "overlap4",
                                             "blocking"};
Kernels kernels[kVariants];

/// This rank's block of global n^3 arrays on a grid of `layout` (0: chosen
/// at run time) with halo 2.
stencil_dist_block blockOf(int64_t n, stencil_dist_layout layout) {
  stencil_dist_block block;
  int64_t global[3] = {n, n, n};
  stencil_dist_block_init(&block, &layout, global);
  return block;
}

/// The rank's blocks of u, u_1, u_2, c, u_b, u_1_b, u_2_b for global n
/// (grid Rx1x1, halo 2), filled with smooth values.
struct Blocks {
  explicit Blocks(int64_t n) : n(n) {
    stencil_dist_block block = blockOf(n, {3, 2, {0, 1, 1}});
    count = block.count[0];
    for (int k = 0; k < 3; ++k)
      ext[k] = block.local[k];
    size_t total = size_t(ext[0] * ext[1] * ext[2]);
    for (auto &array : data) {
      array.assign(total, 0.0);
      for (size_t i = 0; i < total; ++i)
        array[i] = 1e-3 * double(i % 97);
    }
    for (int a = 0; a < 7; ++a)
      m[a] = stencil_memref3d_f64(data[a].data(), ext[0], ext[1], ext[2]);
  }
  int64_t n, count, ext[3];
  std::vector<double> data[7];
  M m[7];
};

/// Runs `call` once per iteration on every rank between barriers; the
/// iteration time is the slowest rank's. One untimed call first: a
/// time-loop adjoint's snapshot workspace, kept between calls, faults its
/// pages in at the first (on this VM at about 0.3 GB/s).
template <typename Call>
void runTimed(benchmark::State &state, Call call) {
  call();
  MPI_Barrier(MPI_COMM_WORLD);
  double mpiTotal = 0, callTotal = 0;
  for (auto _ : state) {
    MPI_Barrier(MPI_COMM_WORLD);
    mpiSeconds = 0;
    double t0 = MPI_Wtime();
    call();
    double mine[2] = {MPI_Wtime() - t0, mpiSeconds}, slowest[2];
    MPI_Allreduce(mine, slowest, 2, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
    state.SetIterationTime(slowest[0]);
    callTotal += slowest[0];
    mpiTotal += slowest[1];
  }
  double iterations = double(state.iterations());
  state.counters["mpi_ms"] = 1e3 * mpiTotal / iterations;
  state.counters["mpi_fraction"] = callTotal > 0 ? mpiTotal / callTotal : 0;
}

void benchPrimal(benchmark::State &state) {
  Blocks b(state.range(0));
  state.counters["points_per_rank"] = double(b.n * b.n * b.count);
  int64_t n = b.n;
  const Kernels &k = kernels[state.range(1)];
  runTimed(state, [&] {
    k.primal(&b.m[0], &b.m[1], &b.m[2], &b.m[3], 0.1, n, n, n, n);
  });
}

void benchAdjoint(benchmark::State &state) {
  Blocks b(state.range(0));
  state.counters["points_per_rank"] = double(b.n * b.n * b.count);
  int64_t n = b.n;
  const Kernels &k = kernels[state.range(1)];
  runTimed(state, [&] {
    k.adjoint(&b.m[0], &b.m[1], &b.m[2], &b.m[3], 0.1, n, &b.m[4],
                    &b.m[5], &b.m[6], n, n, n);
  });
}

/// The rank's blocks of FWI's states, model, their shadows and the
/// gradient (grid Rx1x1, halo 2), the source wavelet and zero traces
/// (replicated), for global n and `steps` steps.
struct FWIBlocks {
  FWIBlocks(int64_t n, int64_t steps) : n(n), steps(steps) {
    stencil_dist_block block = blockOf(n, {3, 2, {0, 1, 1}});
    count = block.count[0];
    for (int k = 0; k < 3; ++k)
      ext[k] = block.local[k];
    size_t total = size_t(ext[0] * ext[1] * ext[2]);
    for (auto &array : data)
      array.assign(total, 0.0);
    data[3].assign(total, 0.09);
    for (int a = 0; a < 8; ++a)
      m[a] = stencil_memref3d_f64(data[a].data(), ext[0], ext[1], ext[2]);
    w.assign(size_t(steps), 0.0);
    for (int64_t t = 0; t < steps; ++t)
      w[size_t(t)] = t < 25 ? 1.0 - 0.08 * double(t) : 0.0;
    d.assign(size_t(steps * n * n), 0.0);
    wd = stencil_memref1d_f64(w.data(), steps);
    dd = stencil_memref3d_f64(d.data(), steps, n, n);
  }
  int64_t n, steps, count, ext[3];
  std::vector<double> data[8], w, d;
  M m[8], dd;
  V wd;
};

void benchMisfit(benchmark::State &state) {
  FWIBlocks b(state.range(0), state.range(1));
  state.counters["points_per_rank"] = double(b.n * b.n * b.count);
  int64_t n = b.n;
  const Kernels &k = kernels[state.range(2)];
  runTimed(state, [&] {
    k.misfit(&b.m[0], &b.m[1], &b.m[2], &b.m[3], &b.wd, &b.dd, n, n / 2,
                   n / 2, n - 4, 3, b.steps, n, n, n);
  });
}

/// The gradient with `state.range(2)` snapshots (at least the step count:
/// store-all), of variant `state.range(3)`.
void benchGradient(benchmark::State &state) {
  FWIBlocks b(state.range(0), state.range(1));
  state.counters["points_per_rank"] = double(b.n * b.n * b.count);
  int64_t n = b.n;
  const Kernels &k = kernels[state.range(3)];
  runTimed(state, [&] {
    k.gradient(&b.m[0], &b.m[1], &b.m[2], &b.m[3], &b.wd, &b.dd, n,
                     n / 2, n / 2, n - 4, 3, b.steps, &b.m[4], &b.m[5],
                     &b.m[6], &b.m[7], 1.0, state.range(2), n, n, n);
  });
  state.counters["slot_blocks"] =
      double(k.stats().slot_bytes) /
      double(b.ext[0] * b.ext[1] * b.ext[2] * int64_t(sizeof(double)));
}

void *loadSymbol(const std::string &path, const char *symbol) {
  void *lib = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
  void *fn = lib ? dlsym(lib, symbol) : nullptr;
  if (!fn) {
    std::fprintf(stderr, "stencil-bench-mpi: cannot load %s from %s: %s\n",
                 symbol, path.c_str(), dlerror());
    MPI_Abort(MPI_COMM_WORLD, 2);
  }
  return fn;
}

/// The kernels of variant `name`, from its two libraries.
Kernels loadKernels(const std::string &name) {
  std::string dir = STENCIL_BENCH_MPI_LIB_DIR;
  std::string wave = dir + "/libwave3d_dist_" + name + ".so";
  std::string fwi = dir + "/libfwi_dist_" + name + ".so";
  Kernels k;
  k.primal = reinterpret_cast<Primal>(loadSymbol(wave, "_mlir_ciface_wave3d"));
  k.adjoint = reinterpret_cast<Adjoint>(
      loadSymbol(wave, "_mlir_ciface_wave3d_adjoint"));
  k.misfit = reinterpret_cast<Misfit>(loadSymbol(fwi, "_mlir_ciface_fwi"));
  k.gradient =
      reinterpret_cast<Gradient>(loadSymbol(fwi, "_mlir_ciface_fwi_adjoint"));
  k.stats = reinterpret_cast<stencil_ckpt_stats (*)()>(
      loadSymbol(fwi, "stencil_ckpt_last_stats"));
  return k;
}

/// Registers one round: wave3d at n = 64, 128 and 192, FWI's misfit and
/// gradient (32 steps; store-all and 4 snapshots) at n = 64 and 128, each
/// with both variants.
void registerRound(int round) {
  std::string suffix = "/ranks:" + std::to_string(worldSize) +
                       "/round:" + std::to_string(round);
  auto name = [&](const char *kernel, int v) {
    return std::string(kernel) + "/" + variantNames[v] + suffix;
  };
  for (int64_t n : {64, 128, 192})
    for (int v = 0; v < kVariants; ++v) {
      int64_t iterations = n < 192 ? 20 : 5;
      benchmark::RegisterBenchmark(name("wave3d_primal", v).c_str(),
                                   benchPrimal)
          ->Args({n, v})->Iterations(iterations)->UseManualTime()
          ->Unit(benchmark::kMillisecond);
      benchmark::RegisterBenchmark(name("wave3d_adjoint", v).c_str(),
                                   benchAdjoint)
          ->Args({n, v})->Iterations(iterations)->UseManualTime()
          ->Unit(benchmark::kMillisecond);
    }
  for (int64_t n : {64, 128})
    for (int v = 0; v < kVariants; ++v) {
      int64_t iterations = n < 128 ? 5 : 2;
      benchmark::RegisterBenchmark(name("fwi_misfit", v).c_str(),
                                   benchMisfit)
          ->Args({n, 32, v})->Iterations(iterations)->UseManualTime()
          ->Unit(benchmark::kMillisecond);
      for (int64_t snapshots : {32, 4})
        benchmark::RegisterBenchmark(name("fwi_gradient", v).c_str(),
                                     benchGradient)
            ->Args({n, 32, snapshots, v})->Iterations(iterations)
            ->UseManualTime()->Unit(benchmark::kMillisecond);
    }
}

/// Reports nothing (ranks other than 0).
class NullReporter : public benchmark::BenchmarkReporter {
public:
  bool ReportContext(const Context &) override { return true; }
  void ReportRuns(const std::vector<Run> &) override {}
};
} // namespace

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &worldRank);
  MPI_Comm_size(MPI_COMM_WORLD, &worldSize);
  for (int v = 0; v < kVariants; ++v)
    kernels[v] = loadKernels(variantNames[v]);
  // Three rounds; in each, every size and kernel runs with each variant.
  for (int round = 0; round < 3; ++round)
    registerRound(round);
  benchmark::Initialize(&argc, argv);
  if (worldRank == 0) {
    benchmark::RunSpecifiedBenchmarks();
  } else {
    NullReporter null;
    benchmark::RunSpecifiedBenchmarks(&null);
  }
  benchmark::Shutdown();
  MPI_Finalize();
  return 0;
}
