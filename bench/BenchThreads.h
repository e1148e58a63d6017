//===- BenchThreads.h - The thread counts a bench binary runs --*- C++ -*-===//
//
// STENCIL_BENCH_THREADS ("1,2"), shared by stencil-bench and
// stencil-bench-timeloop; defaults to 1 .. the number of processors.
//
//===----------------------------------------------------------------------===//

#ifndef STENCIL_BENCH_BENCHTHREADS_H
#define STENCIL_BENCH_BENCHTHREADS_H

#include "BenchSupport.h"

#include <cstdlib>
#include <sstream>
#include <string>
#include <vector>

namespace stencil::bench {

/// Parses STENCIL_BENCH_THREADS ("1,2"); defaults to 1 .. number of procs.
inline std::vector<int> threadList() {
  std::vector<int> threads;
  if (const char *env = std::getenv("STENCIL_BENCH_THREADS")) {
    std::stringstream ss(env);
    std::string item;
    while (std::getline(ss, item, ','))
      if (int t = std::atoi(item.c_str()); t > 0)
        threads.push_back(t);
  }
  if (threads.empty())
    for (int t = 1; t <= bench_num_procs(); ++t)
      threads.push_back(t);
  return threads;
}

} // namespace stencil::bench

#endif // STENCIL_BENCH_BENCHTHREADS_H
