//===- GpuCheck.h - Checks of stencil-bench-gpu --check ---------*- C++ -*-===//
#ifndef STENCIL_BENCH_GPU_GPUCHECK_H
#define STENCIL_BENCH_GPU_GPUCHECK_H

#include <cstdint>
#include <string>
#include <vector>

namespace stencil::gpubench {
/// Runs every check on the libraries in `dir` (block-shape variants
/// `blocks`) at sizes up to `maxSize` points per dimension, prints one
/// PASS/FAIL line per check and a summary; returns the number of failures.
int runChecks(const std::string &dir, const std::vector<std::string> &blocks,
              int64_t maxSize);
} // namespace stencil::gpubench

#endif // STENCIL_BENCH_GPU_GPUCHECK_H
