//===- GpuBench.cpp - stencil-bench-gpu -------------------------*- C++ -*-===//
//
// The GPU benchmark (docs/GPU.md): for wave3d and dense27 in
// f64 and f32, the primal, the gather adjoint and the atomic-scatter
// adjoint built by convert-to-gpu from the same IR, and a device-to-device
// copy of one array (the bandwidth reference), timed with CUDA events
// around each call (Google Benchmark, manual time). After the runs it
// prints, from the medians, the ratios the issue asks for: adjoint /
// primal, atomic / gather, each sweep's bandwidth against the copy's, and
// the gather adjoint's points per second.
//
//   stencil-bench-gpu --libdir DIR --check [--max-size N]
//                                               the checks (GpuCheck.cpp),
//                                               sizes up to N (512)
//   stencil-bench-gpu --libdir DIR [--sizes 256,512] [benchmark flags]
//
// bench/gpu/run.sh runs both from a bundle of the binary and its libraries.
//
//===----------------------------------------------------------------------===//

#include "GpuCheck.h"
#include "GpuProblem.h"

#include <benchmark/benchmark.h>

#include <algorithm>
#include <cstring>
#include <map>
#include <memory>
#include <sstream>

using namespace stencil::gpubench;

namespace {

std::string libDir = ".";

/// The variants of `gather` the CMake file builds: four other block
/// shapes, and the kernels without 32-bit indices (`i64`), with 32-bit
/// array indices only (`i32acc`: loop indices and guards in 64 bits),
/// without `noalias` (`alias`), with 1, 2, 4 or 8 outer points per
/// thread in every nest (`c1` ... `c8`; the default chooses per nest),
/// with innermost loops that start at a multiple of 32 instead of their
/// first point (`align32`), with 1 or 2 points of a row per thread in
/// every nest (`r1`: the resets as before row points; `r2`; the default
/// runs 4 in nests that only store, 1 elsewhere), and without any of
/// 32-bit indices, `noalias` and coarsening (`base`, the form before them).
const std::vector<std::string> kGatherVariants = {
    "gather_b64x4", "gather_b128",   "gather_b16x16", "gather_b32x4x2",
    "gather_i64",   "gather_i32acc", "gather_alias",  "gather_c1",
    "gather_c2",    "gather_c4",     "gather_c8",     "gather_align32",
    "gather_r1",    "gather_r2",     "gather_base"};

/// Variants benchmarked but not bitwise equal to the default, so checked
/// only against the CPU build (GpuCheck.cpp): `fma`, with FMA contraction
/// (fp-contract=1).
const std::vector<std::string> kRoundingVariants = {"gather_fma"};

/// Every variant the benchmark times.
std::vector<std::string> getTimedVariants() {
  std::vector<std::string> timed = kGatherVariants;
  timed.insert(timed.end(), kRoundingVariants.begin(),
               kRoundingVariants.end());
  return timed;
}

/// One problem per element type, kept across the variants and repetitions
/// of one kernel and size: filling up to 7 GiB on the host for every
/// repetition would take longer than the timing. The sweeps' memory
/// traffic does not depend on the values they leave behind.
template <typename T> Problem<T> &getProblem(Kernel k, int64_t n) {
  static std::unique_ptr<Problem<T>> cached;
  if (!cached || cached->kernel != k || cached->n != n) {
    cached.reset();
    cached = std::make_unique<Problem<T>>(k, n);
    cached->fill(4);
  }
  return *cached;
}

/// Times one call of `variant` (primal, gather, atomic, copy: a
/// device-to-device copy of one array, or memset: one array zeroed by
/// cudaMemsetAsync, the write-only stream to compare the adjoints' resets
/// with).
template <typename T>
void runBenchmark(benchmark::State &state, Kernel k, int64_t n,
                  std::string variant) {
  const KernelInfo &info = getInfo(k);
  Problem<T> &p = getProblem<T>(k, n);
  Library lib;
  std::string error;
  const char *type = sizeof(T) == 8 ? "f64" : "f32";
  bool copy = variant == "copy", memset = variant == "memset";
  // primal[_b<shape>] calls the primal of gather[_b<shape>].
  bool adjoint = variant.rfind("primal", 0) != 0;
  std::string libVariant =
      adjoint ? variant : "gather" + variant.substr(std::strlen("primal"));
  if (!copy && !memset && !lib.open(libraryPath(libDir, k, type, libVariant), info.name,
                         error)) {
    state.SkipWithError(error.c_str());
    return;
  }
  cudaEvent_t start, stop;
  checkCuda(cudaEventCreate(&start), "cudaEventCreate");
  checkCuda(cudaEventCreate(&stop), "cudaEventCreate");
  unsigned transfers = copy                ? 2
                       : memset            ? 1
                       : adjoint           ? info.adjointTransfers
                                           : info.primalTransfers;
  for (auto _ : state) {
    checkCuda(cudaEventRecord(start, 0), "cudaEventRecord");
    if (copy)
      checkCuda(cudaMemcpyAsync(p.device(false, 0), p.device(false, 1),
                                p.bytes(), cudaMemcpyDeviceToDevice, 0),
                "cudaMemcpyAsync");
    else if (memset)
      checkCuda(cudaMemsetAsync(p.device(false, 0), 0, p.bytes(), 0),
                "cudaMemsetAsync");
    else
      p.call(lib, adjoint, true);
    checkCuda(cudaEventRecord(stop, 0), "cudaEventRecord");
    checkCuda(cudaEventSynchronize(stop), "cudaEventSynchronize");
    float ms = 0;
    checkCuda(cudaEventElapsedTime(&ms, start, stop), "cudaEventElapsedTime");
    state.SetIterationTime(ms / 1e3);
  }
  cudaEventDestroy(start);
  cudaEventDestroy(stop);
  double points = double(p.points());
  state.counters["points_per_second"] =
      benchmark::Counter(points, benchmark::Counter::kIsIterationInvariantRate);
  state.counters["bytes_per_second"] = benchmark::Counter(
      points * transfers * sizeof(T),
      benchmark::Counter::kIsIterationInvariantRate);
}

/// Keeps the median time of every benchmark for the summary.
class SummaryReporter : public benchmark::ConsoleReporter {
public:
  void ReportRuns(const std::vector<Run> &runs) override {
    ConsoleReporter::ReportRuns(runs);
    for (const Run &run : runs)
      if (run.run_type == Run::RT_Aggregate && run.aggregate_name == "median")
        medians[run.run_name.str()] = run.GetAdjustedRealTime();
      else if (run.run_type == Run::RT_Iteration &&
               !medians.count(run.run_name.str()))
        medians[run.run_name.str()] = run.GetAdjustedRealTime();
  }
  std::map<std::string, double> medians;
};

std::string benchName(Kernel k, const char *type, int64_t n,
                      const std::string &variant) {
  return std::string("gpu/") + getInfo(k).name + "_" + type + "/n" +
         std::to_string(n) + "/" + variant;
}

void printSummary(const SummaryReporter &r, const std::vector<int64_t> &sizes) {
  std::printf("\n%-22s %6s %9s %9s %9s %9s %9s %9s %9s\n", "kernel", "n",
              "adj/prim", "atom/gath", "prim/copy", "gath/copy", "atom/copy",
              "set/copy", "GPts/s");
  for (Kernel k : {Kernel::Wave3d, Kernel::Dense27})
    for (const char *type : {"f64", "f32"})
      for (int64_t n : sizes) {
        auto time = [&](const char *v) {
          auto it = r.medians.find(benchName(k, type, n, v) + "/manual_time");
          return it == r.medians.end() ? 0.0 : it->second;
        };
        double prim = time("primal"), gath = time("gather"),
               atom = time("atomic"), copy = time("copy"),
               set = time("memset");
        if (!prim || !gath || !atom || !copy)
          continue;
        const KernelInfo &info = getInfo(k);
        // Bandwidth share: (transfers / time) / (2 / copy time).
        auto share = [&](double t, unsigned transfers) {
          return (transfers / t) / (2.0 / copy);
        };
        double points = double(n) * n * n;
        // Median times are in milliseconds.
        std::printf(
            "%-22s %6lld %9.2f %9.2f %9.2f %9.2f %9.2f %9.2f %9.2f\n",
            (std::string(info.name) + "_" + type).c_str(), (long long)n,
            gath / prim, atom / gath, share(prim, info.primalTransfers),
            share(gath, info.adjointTransfers),
            share(atom, info.adjointTransfers), set ? share(set, 1) : 0.0,
            points / gath / 1e6);
      }
  std::printf("(ratios of median times; x/copy: the sweep's bytes per second "
              "over the device-to-device copy's; set: cudaMemsetAsync of one "
              "array)\n");
}

/// Primal and gather adjoint time of every variant of `gather` over the
/// default's, at the largest size.
void printBlockSummary(const SummaryReporter &r, int64_t n) {
  std::printf("\nvariants at n=%lld (time / the default's):\n",
              (long long)n);
  const std::vector<std::string> variants = getTimedVariants();
  for (Kernel k : {Kernel::Wave3d, Kernel::Dense27})
    for (const char *type : {"f64", "f32"})
      for (const char *sweep : {"primal", "gather"}) {
        auto time = [&](const std::string &v) {
          auto it = r.medians.find(benchName(k, type, n, v) + "/manual_time");
          return it == r.medians.end() ? 0.0 : it->second;
        };
        double base = time(sweep);
        bool any = false;
        for (const std::string &block : variants)
          any |= time(sweep + block.substr(std::strlen("gather"))) != 0;
        if (!base || !any)
          continue;
        std::printf("%-12s %-4s %-7s", getInfo(k).name, type, sweep);
        for (const std::string &block : variants) {
          std::string suffix = block.substr(std::strlen("gather"));
          double t = time(sweep + suffix);
          std::printf(" %s %.2f", suffix.c_str() + 1, t ? t / base : 0.0);
        }
        std::printf("\n");
      }
}

std::vector<int64_t> parseSizes(const std::string &text) {
  std::vector<int64_t> sizes;
  std::stringstream in(text);
  std::string item;
  while (std::getline(in, item, ','))
    sizes.push_back(std::stoll(item));
  return sizes;
}

} // namespace

int main(int argc, char **argv) {
  // Line by line, also into a pipe: an abort in a kernel library must not
  // take the lines before it along.
  std::setvbuf(stdout, nullptr, _IOLBF, 0);
  bool check = false;
  int64_t maxSize = 512;
  std::vector<int64_t> sizes = {256, 512};
  std::vector<char *> rest = {argv[0]};
  for (int i = 1; i < argc; ++i) {
    std::string arg = argv[i];
    if (arg == "--check")
      check = true;
    else if (arg == "--max-size" && i + 1 < argc)
      maxSize = std::stoll(argv[++i]);
    else if (arg == "--libdir" && i + 1 < argc)
      libDir = argv[++i];
    else if (arg == "--sizes" && i + 1 < argc)
      sizes = parseSizes(argv[++i]);
    else
      rest.push_back(argv[i]);
  }
  if (check)
    return runChecks(libDir, kGatherVariants, maxSize) == 0 ? 0 : 1;
  int restCount = int(rest.size());
  benchmark::Initialize(&restCount, rest.data());
  for (Kernel k : {Kernel::Wave3d, Kernel::Dense27})
    for (int64_t n : sizes)
      for (std::string v : {"primal", "gather", "atomic", "copy", "memset"}) {
        benchmark::RegisterBenchmark(
            benchName(k, "f64", n, v).c_str(), runBenchmark<double>, k, n, v)
            ->UseManualTime()
            ->Unit(benchmark::kMillisecond);
        benchmark::RegisterBenchmark(
            benchName(k, "f32", n, v).c_str(), runBenchmark<float>, k, n, v)
            ->UseManualTime()
            ->Unit(benchmark::kMillisecond);
      }
  // The variants of primal and gather adjoint, at the largest size.
  int64_t largest = *std::max_element(sizes.begin(), sizes.end());
  for (Kernel k : {Kernel::Wave3d, Kernel::Dense27})
    for (const std::string &block : getTimedVariants())
      for (std::string sweep : {"primal", "gather"}) {
        std::string v = sweep + block.substr(std::strlen("gather"));
        benchmark::RegisterBenchmark(benchName(k, "f64", largest, v).c_str(),
                                     runBenchmark<double>, k, largest, v)
            ->UseManualTime()
            ->Unit(benchmark::kMillisecond);
        benchmark::RegisterBenchmark(benchName(k, "f32", largest, v).c_str(),
                                     runBenchmark<float>, k, largest, v)
            ->UseManualTime()
            ->Unit(benchmark::kMillisecond);
      }
  SummaryReporter reporter;
  benchmark::RunSpecifiedBenchmarks(&reporter);
  printSummary(reporter, sizes);
  printBlockSummary(reporter, largest);
  benchmark::Shutdown();
  return 0;
}
