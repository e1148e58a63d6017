/*===- mpi_shim.c - MPI for check_dist.py's ranks ------------------------===//
 *
 * check_dist.py runs one Python process per rank and calls the kernels
 * through ctypes; Python has no MPI binding here, and MPI's handles
 * (MPI_COMM_WORLD) are the implementation's own, so this file, built with
 * mpicc, starts MPI and says which rank this is:
 *
 *   mpicc -shared -fPIC mpi_shim.c -o mpi_shim.so
 *
 *===----------------------------------------------------------------------===*/

#include <mpi.h>
#include <stddef.h>

/* Starts MPI (once) and returns this process's rank in MPI_COMM_WORLD. */
int gen_mpi_start(void) {
  int started = 0, rank = 0;
  MPI_Initialized(&started);
  if (!started)
    MPI_Init(NULL, NULL);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  return rank;
}

/* The number of processes of MPI_COMM_WORLD. */
int gen_mpi_size(void) {
  int size = 0;
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  return size;
}

/* Waits for every rank, then ends MPI. */
void gen_mpi_finish(void) {
  MPI_Barrier(MPI_COMM_WORLD);
  MPI_Finalize();
}
