/*===- time_loops_mpi.c - Time loops and their adjoints over MPI ----------===//
 *
 * Usage: mpirun -n P time_loops_mpi KERNEL DIST.so REF.so HALO T n...
 *
 * Inputs/time-loops.mlir compiled with --stencil-adjoint and
 * --stencil-distribute=grid=P (DIST.so) and without it (REF.so). KERNEL is
 * wave1d (leapfrog through three rotated buffers, a point source, a
 * receiver misfit; velocity and initial states active), decay1d
 * (nonlinear, two rotated buffers, an active scalar), wave1d_final (wave1d
 * plus objectives of the final states after the loop: the tail) or
 * wave1d_head (domains before the loop write the coefficient and the first
 * state from a velocity, and sum a penalty: the head) or wave1d_clock
 * (a simulated time and an index carried by the loop). For each global size
 * n and T steps, every rank checks on its blocks (halos NaN on entry: only
 * the exchanges may fill them):
 *   - the objective and the final states bitwise equal to one process;
 *   - the adjoint's array and scalar gradients bitwise equal to one
 *     process, for store-all (snapshots = T) and Revolve with 1 and 2
 *     snapshots;
 *   - the gradient against a central difference of the objective in a
 *     random direction (sums across ranks).
 * Rank 0 prints a line per size and PASS, or FAIL with the failures.
 * (heat2d_mpi.c checks the 2-D kernel of the same file.)
 *
 *===----------------------------------------------------------------------===*/

#include "Stencil/Runtime/Distributed.h"
#include "mpi_blocks1d.h"

typedef StencilMemRef0D_f64 S;
typedef int64_t I;

enum { MaxArrays = 12 };

/* The arrays of one call: inputs (the active ones first) then shadows,
 * each the whole global array (one process) or a rank's block; an active
 * scalar and its shadow. */
typedef struct {
  V a[MaxArrays];
  double k, kb;
} Arrays;

typedef struct {
  void *primal, *adjoint;
} Functions;

/* `direction`: the input the gradient is checked along; `velocity`: the
 * input scaled into [0.15, 0.25] (a stable wave speed), or -1. */
typedef struct Kernel {
  const char *name;
  int inputs, shadows, direction, velocity;
  double (*primal)(const Functions *, Arrays *, long n, int dist);
  void (*adjoint)(const Functions *, Arrays *, long n, long snapshots,
                  double seed, int dist);
} Kernel;

static long T;
static V w, d; /* wave1d's source wavelet and observed data (replicated) */

/*--- wave1d: (u0, u1, u2, c, w, d, n, s, r, steps) -> J -------------------*/

typedef double (*WaveRef)(V *, V *, V *, V *, V *, V *, I, I, I, I);
typedef double (*WaveDist)(V *, V *, V *, V *, V *, V *, I, I, I, I, I);
typedef void (*WaveAdjRef)(V *, V *, V *, V *, V *, V *, I, I, I, I, V *, V *,
                           V *, V *, double, I);
typedef void (*WaveAdjDist)(V *, V *, V *, V *, V *, V *, I, I, I, I, V *, V *,
                            V *, V *, double, I, I);

static double wavePrimal(const Functions *f, Arrays *A, long n, int dist) {
  V *a = A->a;
  if (dist)
    return ((WaveDist)f->primal)(&a[0], &a[1], &a[2], &a[3], &w, &d, n, n / 3,
                                 2 * n / 3, T, n);
  return ((WaveRef)f->primal)(&a[0], &a[1], &a[2], &a[3], &w, &d, n, n / 3,
                              2 * n / 3, T);
}

static void waveAdjoint(const Functions *f, Arrays *A, long n, long snapshots,
                        double seed, int dist) {
  V *a = A->a;
  if (dist)
    ((WaveAdjDist)f->adjoint)(&a[0], &a[1], &a[2], &a[3], &w, &d, n, n / 3,
                              2 * n / 3, T, &a[4], &a[5], &a[6], &a[7], seed,
                              snapshots, n);
  else
    ((WaveAdjRef)f->adjoint)(&a[0], &a[1], &a[2], &a[3], &w, &d, n, n / 3,
                             2 * n / 3, T, &a[4], &a[5], &a[6], &a[7], seed,
                             snapshots);
}

/*--- decay1d: (a0, b0, k, n, q, steps) -> 2 sum_t b[q]^2 -----------------*/

typedef double (*DecayRef)(V *, V *, double, I, I, I);
typedef double (*DecayDist)(V *, V *, double, I, I, I, I);
typedef void (*DecayAdjRef)(V *, V *, double, I, I, I, V *, V *, S *, double,
                            I);
typedef void (*DecayAdjDist)(V *, V *, double, I, I, I, V *, V *, S *, double,
                             I, I);

static double decayPrimal(const Functions *f, Arrays *A, long n, int dist) {
  V *a = A->a;
  if (dist)
    return ((DecayDist)f->primal)(&a[0], &a[1], A->k, n, n / 2, T, n);
  return ((DecayRef)f->primal)(&a[0], &a[1], A->k, n, n / 2, T);
}

static void decayAdjoint(const Functions *f, Arrays *A, long n,
                         long snapshots, double seed, int dist) {
  V *a = A->a;
  S kb = {&A->kb, &A->kb, 0};
  if (dist)
    ((DecayAdjDist)f->adjoint)(&a[0], &a[1], A->k, n, n / 2, T, &a[2], &a[3],
                               &kb, seed, snapshots, n);
  else
    ((DecayAdjRef)f->adjoint)(&a[0], &a[1], A->k, n, n / 2, T, &a[2], &a[3],
                              &kb, seed, snapshots);
}

/*--- wave1d_final: (u0, u1, u2, c, w, d, dT, n, s, r, steps) -> J --------*/

typedef double (*FinalRef)(V *, V *, V *, V *, V *, V *, V *, I, I, I, I);
typedef double (*FinalDist)(V *, V *, V *, V *, V *, V *, V *, I, I, I, I, I);
typedef void (*FinalAdjRef)(V *, V *, V *, V *, V *, V *, V *, I, I, I, I,
                            V *, V *, V *, V *, double, I);
typedef void (*FinalAdjDist)(V *, V *, V *, V *, V *, V *, V *, I, I, I, I,
                             V *, V *, V *, V *, double, I, I);

/* a[4] is dT, the observed final state (passive, a block). */
static double finalPrimal(const Functions *f, Arrays *A, long n, int dist) {
  V *a = A->a;
  if (dist)
    return ((FinalDist)f->primal)(&a[0], &a[1], &a[2], &a[3], &w, &d, &a[4],
                                  n, n / 3, 2 * n / 3, T, n);
  return ((FinalRef)f->primal)(&a[0], &a[1], &a[2], &a[3], &w, &d, &a[4], n,
                               n / 3, 2 * n / 3, T);
}

static void finalAdjoint(const Functions *f, Arrays *A, long n, long snapshots,
                         double seed, int dist) {
  V *a = A->a;
  if (dist)
    ((FinalAdjDist)f->adjoint)(&a[0], &a[1], &a[2], &a[3], &w, &d, &a[4], n,
                               n / 3, 2 * n / 3, T, &a[5], &a[6], &a[7], &a[8],
                               seed, snapshots, n);
  else
    ((FinalAdjRef)f->adjoint)(&a[0], &a[1], &a[2], &a[3], &w, &d, &a[4], n,
                              n / 3, 2 * n / 3, T, &a[5], &a[6], &a[7], &a[8],
                              seed, snapshots);
}

/*--- wave1d_head: (u0, u1, u2, w0, v, c, d, s, h, n, r, steps) -> J ------*/

typedef double (*HeadRef)(V *, V *, V *, V *, V *, V *, V *, double, double, I,
                          I, I);
typedef double (*HeadDist)(V *, V *, V *, V *, V *, V *, V *, double, double,
                           I, I, I, I);
typedef void (*HeadAdjRef)(V *, V *, V *, V *, V *, V *, V *, double, double,
                           I, I, I, V *, V *, V *, V *, V *, V *, double, I);
typedef void (*HeadAdjDist)(V *, V *, V *, V *, V *, V *, V *, double, double,
                            I, I, I, V *, V *, V *, V *, V *, V *, double, I,
                            I);

/* c = (2 v)^2 from v in [0.15, 0.25], u1 = u0 + 0.1 w0. */
static double headPrimal(const Functions *f, Arrays *A, long n, int dist) {
  V *a = A->a;
  if (dist)
    return ((HeadDist)f->primal)(&a[0], &a[1], &a[2], &a[3], &a[4], &a[5], &d,
                                 2.0, 0.1, n, 2 * n / 3, T, n);
  return ((HeadRef)f->primal)(&a[0], &a[1], &a[2], &a[3], &a[4], &a[5], &d,
                              2.0, 0.1, n, 2 * n / 3, T);
}

static void headAdjoint(const Functions *f, Arrays *A, long n, long snapshots,
                        double seed, int dist) {
  V *a = A->a;
  if (dist)
    ((HeadAdjDist)f->adjoint)(&a[0], &a[1], &a[2], &a[3], &a[4], &a[5], &d,
                              2.0, 0.1, n, 2 * n / 3, T, &a[6], &a[7], &a[8],
                              &a[9], &a[10], &a[11], seed, snapshots, n);
  else
    ((HeadAdjRef)f->adjoint)(&a[0], &a[1], &a[2], &a[3], &a[4], &a[5], &d, 2.0,
                             0.1, n, 2 * n / 3, T, &a[6], &a[7], &a[8], &a[9],
                             &a[10], &a[11], seed, snapshots);
}

/*--- wave1d_clock: (u0, u1, u2, c, dts, d, t0, omega, n, s, r, steps) -> J */

typedef double (*ClockRef)(V *, V *, V *, V *, V *, V *, double, double, I, I,
                           I, I);
typedef double (*ClockDist)(V *, V *, V *, V *, V *, V *, double, double, I, I,
                            I, I, I);
typedef void (*ClockAdjRef)(V *, V *, V *, V *, V *, V *, double, double, I, I,
                            I, I, V *, V *, V *, V *, double, I);
typedef void (*ClockAdjDist)(V *, V *, V *, V *, V *, V *, double, double, I,
                             I, I, I, V *, V *, V *, V *, double, I, I);

/* The time steps are w's values, t0 = 0.3, omega = 2.5. */
static double clockPrimal(const Functions *f, Arrays *A, long n, int dist) {
  V *a = A->a;
  if (dist)
    return ((ClockDist)f->primal)(&a[0], &a[1], &a[2], &a[3], &w, &d, 0.3, 2.5,
                                  n, n / 3, 2 * n / 3, T, n);
  return ((ClockRef)f->primal)(&a[0], &a[1], &a[2], &a[3], &w, &d, 0.3, 2.5, n,
                               n / 3, 2 * n / 3, T);
}

static void clockAdjoint(const Functions *f, Arrays *A, long n, long snapshots,
                         double seed, int dist) {
  V *a = A->a;
  if (dist)
    ((ClockAdjDist)f->adjoint)(&a[0], &a[1], &a[2], &a[3], &w, &d, 0.3, 2.5, n,
                               n / 3, 2 * n / 3, T, &a[4], &a[5], &a[6], &a[7],
                               seed, snapshots, n);
  else
    ((ClockAdjRef)f->adjoint)(&a[0], &a[1], &a[2], &a[3], &w, &d, 0.3, 2.5, n,
                              n / 3, 2 * n / 3, T, &a[4], &a[5], &a[6], &a[7],
                              seed, snapshots);
}

static const Kernel kernels[] = {
    {"wave1d", 4, 4, 3, 3, wavePrimal, waveAdjoint},
    {"decay1d", 2, 2, 0, -1, decayPrimal, decayAdjoint},
    {"wave1d_final", 5, 4, 3, 3, finalPrimal, finalAdjoint},
    {"wave1d_head", 6, 6, 4, 4, headPrimal, headAdjoint},
    {"wave1d_clock", 4, 4, 3, 3, clockPrimal, clockAdjoint},
};

/*--- the checks ----------------------------------------------------------*/

/* The global arrays of a call: test values, the velocity in [0.15, 0.25],
 * input `direction` plus h times a random direction (seed 99), shadows
 * test values or zeros. */
static Arrays globalArrays(const Kernel *K, long n, double h, int zeroShadows) {
  Arrays A = {.k = 0.3, .kb = zeroShadows ? 0.0 : 0.25};
  for (int a = 0; a < K->inputs + K->shadows; ++a) {
    int shadow = a >= K->inputs;
    A.a[a] = globalArray(n, shadow && zeroShadows ? 0 : a + 1, 0, 0);
  }
  if (K->velocity >= 0)
    for (long i = 0; i < n; ++i)
      A.a[K->velocity].aligned[i] = 0.2 + 0.05 * A.a[K->velocity].aligned[i];
  for (long i = 0; i < n; ++i)
    A.a[K->direction].aligned[i] += h * testValue(99, i);
  return A;
}

static Arrays blocks(const Kernel *K, const Block *b, const Arrays *global) {
  Arrays A = *global;
  for (int a = 0; a < K->inputs + K->shadows; ++a)
    A.a[a] = block(b, &global->a[a]);
  return A;
}

static void freeArrays(const Kernel *K, Arrays *A) {
  for (int a = 0; a < K->inputs + K->shadows; ++a)
    free(A->a[a].allocated);
}

static long compare(const Kernel *K, const Block *b, const Arrays *dist,
                    const Arrays *ref, int from, int to) {
  long bad = memcmp(&dist->kb, &ref->kb, sizeof(double)) != 0;
  for (int a = from; a < to; ++a)
    bad += mismatches(b, &dist->a[a], &ref->a[a]);
  (void)K;
  return bad;
}

/* The primal, then the adjoint from the same inputs, on one process and
 * distributed; their results bitwise. */
static long checkBitwise(const Kernel *K, const Functions *fn, const Block *b,
                         long snapshots) {
  long n = b->n, bad = 0;
  for (int adjoint = 0; adjoint < 2; ++adjoint) {
    Arrays ref = globalArrays(K, n, 0, 0), dist = blocks(K, b, &ref);
    if (adjoint) {
      K->adjoint(&fn[0], &ref, n, snapshots, 1.5, 0);
      K->adjoint(&fn[1], &dist, n, snapshots, 1.5, 1);
      bad += compare(K, b, &dist, &ref, K->inputs, K->inputs + K->shadows);
    } else {
      double Jref = K->primal(&fn[0], &ref, n, 0);
      double J = K->primal(&fn[1], &dist, n, 1);
      bad += memcmp(&J, &Jref, sizeof(double)) != 0;
      bad += compare(K, b, &dist, &ref, 0, K->inputs);
    }
    freeArrays(K, &ref);
    freeArrays(K, &dist);
  }
  return bad;
}

/* The distributed objective at inputs + h direction. */
static double objective(const Kernel *K, const Functions *fn, const Block *b,
                        double h) {
  Arrays global = globalArrays(K, b->n, h, 1), dist = blocks(K, b, &global);
  double J = K->primal(fn, &dist, b->n, 1);
  freeArrays(K, &global);
  freeArrays(K, &dist);
  return J;
}

/* The relative difference of the distributed gradient in the direction
 * and a central difference of the objective. */
static double checkGradient(const Kernel *K, const Functions *fn,
                            const Block *b) {
  long n = b->n;
  Arrays global = globalArrays(K, n, 0, 1), dist = blocks(K, b, &global);
  K->adjoint(fn, &dist, n, T, 1.0, 1);
  V dir = globalArray(n, 0, 99, 1.0), ldir = block(b, &dir);
  double gd = dot(b, &dist.a[K->inputs + K->direction], &ldir);
  double h = 1e-6;
  double fd = (objective(K, fn, b, h) - objective(K, fn, b, -h)) / (2 * h);
  freeArrays(K, &global);
  freeArrays(K, &dist);
  free(dir.allocated);
  free(ldir.allocated);
  return fabs(fd - gd) / fmax(fabs(gd), 1e-300);
}

static long checkSize(const Kernel *K, const Functions *fn, Block *b, int P,
                      int rank) {
  long n = b->n, bad = 0;
  b->start = stencil_dist_block_start(n, P, rank);
  b->count = stencil_dist_block_count(n, P, rank);
  w = globalArray(T, 11, 0, 0);
  d = globalArray(T, 12, 0, 0);
  const long snapshots[3] = {T, 1, 2};
  for (int s = 0; s < 3; ++s)
    bad += checkBitwise(K, fn, b, snapshots[s]);
  double rel = checkGradient(K, &fn[1], b);
  long total = failuresOnAllRanks(bad + !(rel < 1e-6));
  if (rank == 0)
    printf("n = %ld, T = %ld: %s, gradient vs central difference %.1e\n", n,
           T,
           total ? "MISMATCH"
                 : "primal and adjoint (snapshots T, 1, 2) bitwise equal to "
                   "one process on every rank",
           rel);
  free(w.allocated);
  free(d.allocated);
  return bad + !(rel < 1e-6);
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  const Kernel *K = NULL;
  for (unsigned k = 0; argc > 1 && k < sizeof kernels / sizeof *kernels; ++k)
    if (!strcmp(argv[1], kernels[k].name))
      K = &kernels[k];
  if (argc < 7 || !K) {
    fprintf(stderr,
            "usage: %s wave1d|decay1d|wave1d_final|wave1d_head|wave1d_clock "
            "DIST.so "
            "REF.so HALO T n...\n",
            argv[0]);
    MPI_Abort(MPI_COMM_WORLD, 2);
  }
  char adjoint[64];
  snprintf(adjoint, sizeof adjoint, "_mlir_ciface_%s_adjoint", K->name);
  char primal[64];
  snprintf(primal, sizeof primal, "_mlir_ciface_%s", K->name);
  Functions fn[2] = {{loadSymbol(argv[3], primal), loadSymbol(argv[3], adjoint)},
                     {loadSymbol(argv[2], primal), loadSymbol(argv[2], adjoint)}};
  Block b = {0, 0, 0, atoi(argv[4])};
  T = atol(argv[5]);
  if (rank == 0)
    printf("%s over %d ranks, halo %ld, T = %ld\n", K->name, size, b.halo, T);
  long failures = 0;
  for (int a = 6; a < argc; ++a) {
    b.n = atol(argv[a]);
    failures += checkSize(K, fn, &b, size, rank);
  }
  return finish(failures);
}
