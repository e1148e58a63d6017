/*===- mpi_common.h - Shared helpers of the mpirun test drivers -----------===//
 *
 * Included once per driver (it defines MPI_Sendrecv and MPI_Isend): message
 * counting through PMPI, loading the kernels, the test values and the finish
 * line.
 *
 *===----------------------------------------------------------------------===*/

#ifndef STENCIL_TEST_MPI_COMMON_H
#define STENCIL_TEST_MPI_COMMON_H

#include <dlfcn.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

/* What this rank sent since the counters were last reset. */
static long sentMessages, sentBytes;

/* Counts a message of `count` elements of `type` to `dest`; a send to
 * MPI_PROC_NULL is no message. */
static void countMessage(int dest, int count, MPI_Datatype type) {
  if (dest == MPI_PROC_NULL)
    return;
  int size = 0;
  MPI_Type_size(type, &size);
  ++sentMessages;
  sentBytes += (long)count * size;
}

/* Every halo exchange of the kernels lands here (the driver is linked with
 * -rdynamic, so the run-time library's undefined MPI_Sendrecv and
 * MPI_Isend bind to these): blocking ones, and the started ones whose
 * wait comes after the interior's computation. */
int MPI_Sendrecv(const void *sendbuf, int sendcount, MPI_Datatype sendtype,
                 int dest, int sendtag, void *recvbuf, int recvcount,
                 MPI_Datatype recvtype, int source, int recvtag, MPI_Comm comm,
                 MPI_Status *status) {
  countMessage(dest, sendcount, sendtype);
  return PMPI_Sendrecv(sendbuf, sendcount, sendtype, dest, sendtag, recvbuf,
                       recvcount, recvtype, source, recvtag, comm, status);
}

int MPI_Isend(const void *buf, int count, MPI_Datatype type, int dest,
              int tag, MPI_Comm comm, MPI_Request *request) {
  countMessage(dest, count, type);
  return PMPI_Isend(buf, count, type, dest, tag, comm, request);
}

/* `symbol` of the shared library at `path` (each library is loaded once,
 * privately: the reference and the distributed one share symbol names). */
static void *loadSymbol(const char *path, const char *symbol) {
  void *lib = dlopen(path, RTLD_NOW | RTLD_LOCAL);
  void *fn = lib ? dlsym(lib, symbol) : NULL;
  if (!fn) {
    fprintf(stderr, "cannot load %s from %s: %s\n", symbol, path, dlerror());
    exit(2);
  }
  return fn;
}

/* A value in (-1, 1) for global point g of array `seed`. */
static double testValue(int seed, long g) {
  unsigned long x =
      (unsigned long)g * 2654435761ul + (unsigned long)seed * 40503ul;
  x ^= x >> 13;
  x *= 0x5bd1e995ul;
  x ^= x >> 15;
  return (double)(x % 2000001ul) / 1000000.0 - 1.0;
}

/* The failures of every rank, summed (every rank gets the total). */
static long failuresOnAllRanks(long failures) {
  long total = 0;
  MPI_Allreduce(&failures, &total, 1, MPI_LONG, MPI_SUM, MPI_COMM_WORLD);
  return total;
}

/* Sums this rank's failures over all ranks; rank 0 prints PASS or FAIL. */
static int finish(long failures) {
  long total = failuresOnAllRanks(failures);
  int rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  if (rank == 0) {
    if (total)
      printf("FAIL: %ld failures\n", total);
    else
      printf("PASS\n");
  }
  MPI_Finalize();
  return total ? 1 : 0;
}

#endif /* STENCIL_TEST_MPI_COMMON_H */
