//===- GpuCheck.h - Checks of stencil-bench-gpu --check ---------*- C++ -*-===//
#ifndef STENCIL_BENCH_GPU_GPUCHECK_H
#define STENCIL_BENCH_GPU_GPUCHECK_H

#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

namespace stencil::gpubench {
/// Counts the checks and prints one PASS/FAIL line for each (the checks of
/// stencil-bench-gpu and of stencil-timeloop-gpu).
struct Counts {
  int passed = 0, failed = 0;
  void report(bool ok, const std::string &what, const std::string &detail) {
    (ok ? passed : failed) += 1;
    std::printf("%s %s: %s\n", ok ? "PASS" : "FAIL", what.c_str(),
                detail.c_str());
  }
};

/// Runs every check on the libraries in `dir` (block-shape variants
/// `blocks`) at sizes up to `maxSize` points per dimension, prints one
/// PASS/FAIL line per check and a summary; returns the number of failures.
int runChecks(const std::string &dir, const std::vector<std::string> &blocks,
              int64_t maxSize);
} // namespace stencil::gpubench

#endif // STENCIL_BENCH_GPU_GPUCHECK_H
