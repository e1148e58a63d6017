//===- runtime_edge_main.c - Edge cases of domain bounds at run time ------===//
//
// Reads cases `KERNEL ARGS...` (kernels of runtime-edge.mlir) from standard
// input, one a line, runs each primal and adjoint and prints one result line
// per case, with `FAIL` in it when a check fails: the dot-product test
// <J v, w> = <v, J^T w>, the reset of the output adjoint, untouched outputs
// outside the domain, and closed-form primals.
//
// Arrays are allocated exactly as large as the ABI contract requires (the
// domain plus the stencil offsets; 0 elements for an empty domain, also for
// bounds such as INT64_MIN whose arithmetic wraps in 64 bits), so a kernel
// compiled with -fsanitize=address reports any access outside. With -DPAD
// they are padded with canaries instead, checked after every call.
//
//===----------------------------------------------------------------------===//
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

// The header stencil-compile generates from runtime-edge.mlir.
#include "runtime-edge.h"

typedef StencilMemRef1D_f64 M1;
typedef StencilMemRef1D_f32 M1f;
typedef StencilMemRef4D_f64 M4;
typedef StencilMemRef0D_f64 M0;
void _mlir_ciface_k5(M1 *r, M1 *u, int64_t n);
void _mlir_ciface_k5_adjoint(M1 *r, M1 *u, int64_t n, M1 *rb, M1 *ub);
void _mlir_ciface_k6(M1 *r, M1 *u, int64_t n);
void _mlir_ciface_k6_adjoint(M1 *r, M1 *u, int64_t n, M1 *rb, M1 *ub);

#ifdef PAD
#define GUARD 4096
#else
#define GUARD 0
#endif
#define CANARY 0x7ff4dead7ff4deadull

static double value(int64_t i, unsigned seed) {
  uint64_t x = (uint64_t)i * 6364136223846793005ull + seed * 1442695040888963407ull;
  x ^= x >> 33; x *= 0xff51afd7ed558ccdull; x ^= x >> 33;
  return (double)(x >> 11) / (double)(1ull << 52) - 1.0;
}

static int nalloc = 0;
static int failed = 0;

/// Prints FAIL with `what` unless `ok`.
static void expect(int ok, const char *what) {
  if (!ok) {
    printf("FAIL(%s) ", what);
    failed = 1;
  }
}
static void *blocks[64];
static int64_t blocksz[64], blockelt[64];

static void *arr(int64_t n, int elt) {
  if (n < 0) n = 0;
  char *p = malloc((size_t)(n + 2 * GUARD) * elt + (n + 2 * GUARD == 0));
  if (!p) { printf("alloc failed\n"); exit(3); }
  for (int64_t i = 0; i < GUARD; ++i) {
    uint64_t c = CANARY;
    memcpy(p + i * elt, &c, elt);
    memcpy(p + (GUARD + n + i) * elt, &c, elt);
  }
  blocks[nalloc] = p; blocksz[nalloc] = n; blockelt[nalloc] = elt; nalloc++;
  return p + GUARD * elt;
}

static int check_guards(const char *when) {
  int bad = 0;
  for (int b = 0; b < nalloc; ++b) {
    char *p = blocks[b];
    int elt = blockelt[b];
    for (int64_t i = 0; i < GUARD; ++i) {
      uint64_t c = CANARY, x = 0, y = 0;
      memcpy(&x, p + i * elt, elt);
      memcpy(&y, p + (GUARD + blocksz[b] + i) * elt, elt);
      if (memcmp(&x, &c, elt) || memcmp(&y, &c, elt)) {
        printf("GUARD CLOBBERED %s: array %d (size %lld) at %s %lld\n", when, b,
               (long long)blocksz[b], memcmp(&x, &c, elt) ? "before" : "after",
               (long long)i);
        bad = 1;
        break;
      }
    }
  }
  return bad;
}

static M1 m1(double *d, int64_t n) { return stencil_memref1d_f64(d, n); }
static M1f m1f(float *d, int64_t n) { return stencil_memref1d_f32(d, n); }
static M4 m4(double *d, int64_t n) {
  return stencil_memref4d_f64(d, n, n, n, n);
}

static uint64_t hash(const void *p, size_t bytes, uint64_t h) {
  const unsigned char *c = p;
  for (size_t i = 0; i < bytes; ++i) { h ^= c[i]; h *= 1099511628211ull; }
  return h;
}

static int64_t clamp0(int64_t x) { return x < 0 ? 0 : x; }

static int run_case(int argc, char **argv) {
  if (argc < 2) return 2;
  const char *kcase = argv[1];
  int bad = 0;
  if (!strcmp(kcase, "k1")) {
    int64_t lo = strtoll(argv[2], 0, 0), hi = strtoll(argv[3], 0, 0);
    int empty = !(lo < hi);
    // Sizes from the contract: u covers [lo-1, hi+2), r and c [lo, hi).
    int64_t nu = empty ? 0 : hi + 2 - (getenv("SHRINK") ? 1 : 0), nr = empty ? 0 : hi;
    double *r = arr(nr, 8), *u = arr(nu, 8), *c = arr(nr, 8), *rb = arr(nr, 8),
           *ub = arr(nu, 8), *w = arr(nr, 8);
    for (int64_t i = 0; i < nu; ++i) { u[i] = value(i, 1); ub[i] = 0.5; }
    for (int64_t i = 0; i < nr; ++i) { r[i] = 7.0; c[i] = value(i, 3); w[i] = value(i, 4); rb[i] = w[i]; }
    M1 mr = m1(r, nr), mu = m1(u, nu), mc = m1(c, nr), mrb = m1(rb, nr), mub = m1(ub, nu);
    double s = _mlir_ciface_k1(&mr, &mu, &mc, lo, hi);
    bad |= check_guards("primal");
    double sb = 0.25;
    _mlir_ciface_k1_adjoint(&mr, &mu, &mc, lo, hi, &mrb, &mub, sb);
    bad |= check_guards("adjoint");
    // Dot-product test: <r, w> + s*sb == <u, ub - 0.5>.
    double lhs = s * sb, rhs = 0, scale = fabs(s * sb) + 1e-300;
    int rbok = 1, rok = 1;
    for (int64_t i = 0; i < nr; ++i) {
      if (!empty && i >= lo) { lhs += r[i] * w[i]; scale += fabs(r[i] * w[i]); if (rb[i] != 0.0) rbok = 0; }
      else { if (rb[i] != w[i]) rbok = 0; if (r[i] != 7.0) rok = 0; }
    }
    for (int64_t i = 0; i < nu; ++i) { rhs += u[i] * (ub[i] - 0.5); scale += fabs(u[i] * (ub[i] - 0.5)); }
    uint64_t h = hash(r, nr * 8, 1469598103934665603ull);
    h = hash(ub, nu * 8, h);
    expect(fabs(lhs - rhs) / scale < 1e-12, "dot");
    expect(rbok && rok, "outside");
    printf("k1 lo=%lld hi=%lld s=%a dot_err=%.3g rb_reset_ok=%d r_outside_untouched=%d hash=%016llx\n",
           (long long)lo, (long long)hi, s, fabs(lhs - rhs) / scale, rbok, rok, (unsigned long long)h);
  } else if (!strcmp(kcase, "k2")) {
    int64_t n = strtoll(argv[2], 0, 0);
    int64_t nu = n > 0 ? n + 1000 : 0, nr = clamp0(n);
    double *r = arr(nr, 8), *u = arr(nu, 8), *rb = arr(nr, 8), *ub = arr(nu, 8), *w = arr(nr, 8);
    for (int64_t i = 0; i < nu; ++i) { u[i] = value(i, 1); ub[i] = 0; }
    for (int64_t i = 0; i < nr; ++i) { w[i] = value(i, 4); rb[i] = w[i]; }
    M1 mr = m1(r, nr), mu = m1(u, nu), mrb = m1(rb, nr), mub = m1(ub, nu);
    _mlir_ciface_k2(&mr, &mu, n);
    bad |= check_guards("primal");
    _mlir_ciface_k2_adjoint(&mr, &mu, n, &mrb, &mub);
    bad |= check_guards("adjoint");
    double lhs = 0, rhs = 0, scale = 1e-300;
    for (int64_t i = 0; i < nr; ++i) { lhs += r[i] * w[i]; scale += fabs(r[i] * w[i]); }
    for (int64_t i = 0; i < nu; ++i) { rhs += u[i] * ub[i]; scale += fabs(u[i] * ub[i]); }
    uint64_t h = hash(r, nr * 8, 1469598103934665603ull);
    h = hash(ub, nu * 8, h);
    expect(fabs(lhs - rhs) / scale < 1e-12, "dot");
    printf("k2 n=%lld dot_err=%.3g hash=%016llx\n", (long long)n, fabs(lhs - rhs) / scale, (unsigned long long)h);
  } else if (!strcmp(kcase, "k4")) {
    int64_t n = strtoll(argv[2], 0, 0);
    int64_t N = n > 0 ? n * n * n * n : 0;
    int empty = n < 3;
    if (empty) N = 0;  // the contract needs nothing for an empty domain
    double *r = arr(N, 8), *u = arr(N, 8), *rb = arr(N, 8), *ub = arr(N, 8), *w = arr(N, 8);
    double *s = arr(1, 8), *alphab = arr(1, 8);
    for (int64_t i = 0; i < N; ++i) { u[i] = value(i, 1); w[i] = value(i, 4); rb[i] = w[i]; ub[i] = 0; r[i] = 0; }
    s[0] = 0.75; alphab[0] = 0.125;
    double alpha = 1.5;
    M4 mr = m4(r, n), mu = m4(u, n), mrb = m4(rb, n), mub = m4(ub, n);
    M0 ms = stencil_memref0d_f64(s), mab = stencil_memref0d_f64(alphab);
    _mlir_ciface_k4(&mr, &mu, &ms, alpha, n);
    bad |= check_guards("primal");
    _mlir_ciface_k4_adjoint(&mr, &mu, &ms, alpha, n, &mrb, &mub, &mab);
    bad |= check_guards("adjoint");
    double lhs = 0, rhs = 0, scale = 1e-300, dalpha = 0;
    for (int64_t i = 1; i < n - 1; ++i) for (int64_t j = 1; j < n - 1; ++j)
      for (int64_t k = 1; k < n - 1; ++k) for (int64_t l = 1; l < n - 1; ++l) {
        int64_t p = ((i * n + j) * n + k) * n + l;
        lhs += r[p] * w[p]; scale += fabs(r[p] * w[p]); dalpha -= u[p] * w[p];
      }
    for (int64_t i = 0; i < N; ++i) { rhs += u[i] * ub[i]; scale += fabs(u[i] * ub[i]); }
    uint64_t h = hash(r, N * 8, 1469598103934665603ull);
    h = hash(ub, N * 8, h);
    expect(fabs(lhs - rhs) / scale < 1e-12, "dot");
    expect(fabs(alphab[0] - 0.125 - dalpha) <= 1e-12 * (fabs(dalpha) + 1), "alpha_b");
    printf("k4 n=%lld dot_err=%.3g alpha_b_err=%.3g hash=%016llx\n", (long long)n,
           fabs(lhs - rhs) / scale, fabs(alphab[0] - 0.125 - dalpha) / (fabs(dalpha) + 1e-300),
           (unsigned long long)h);
  } else if (!strcmp(kcase, "k32")) {
    int64_t n = strtoll(argv[2], 0, 0);
    int64_t nu = n >= 2 ? n + 1 : 0, nr = n >= 2 ? n : 0;
    float *r = arr(nr, 4), *u = arr(nu, 4), *c = arr(nr, 4), *rb = arr(nr, 4), *ub = arr(nu, 4), *w = arr(nr, 4);
    for (int64_t i = 0; i < nu; ++i) { u[i] = (float)value(i, 1); ub[i] = 0; }
    for (int64_t i = 0; i < nr; ++i) { c[i] = (float)value(i, 3); w[i] = (float)value(i, 4); rb[i] = w[i]; r[i] = 0; }
    M1f mr = m1f(r, nr), mu = m1f(u, nu), mc = m1f(c, nr), mrb = m1f(rb, nr), mub = m1f(ub, nu);
    _mlir_ciface_k32(&mr, &mc, &mu, n);
    bad |= check_guards("primal");
    _mlir_ciface_k32_adjoint(&mr, &mc, &mu, n, &mrb, &mub);
    bad |= check_guards("adjoint");
    double lhs = 0, rhs = 0, scale = 1e-300, maxerr = 0;
    for (int64_t i = 1; i < nr; ++i) {
      lhs += (double)r[i] * w[i]; scale += fabs((double)r[i] * w[i]);
      double ref = c[i] * (2.0 * u[i - 1] - 3.0 * u[i] + 4.0 * u[i + 1]);
      double e = fabs(ref - r[i]); if (e > maxerr) maxerr = e;
    }
    for (int64_t i = 0; i < nu; ++i) { rhs += (double)u[i] * ub[i]; scale += fabs((double)u[i] * ub[i]); }
    expect(fabs(lhs - rhs) / scale < 1e-5 && maxerr < 1e-5, "k32");
    printf("k32 n=%lld primal_maxerr=%.3g dot_err=%.3g\n", (long long)n, maxerr, fabs(lhs - rhs) / scale);
  } else if (!strcmp(kcase, "k5") || !strcmp(kcase, "k6")) {
    int k5 = !strcmp(kcase, "k5");
    int64_t n = strtoll(argv[2], 0, 0);
    int64_t nn = n >= 2 ? n + (k5 ? 0 : 0) : 0;
    if (k5 && n >= 2) nn = n;     // r[1..n), u[0..n-1] and u[3..n-1]
    if (!k5 && n >= 1) nn = n;    // k6: u[0..n), r[0..n)
    double *r = arr(nn, 8), *u = arr(nn, 8), *rb = arr(nn, 8), *ub = arr(nn, 8), *w = arr(nn, 8);
    for (int64_t i = 0; i < nn; ++i) { u[i] = value(i, 1); w[i] = value(i, 4); rb[i] = w[i]; ub[i] = 0; r[i] = 0; }
    M1 mr = m1(r, nn), mu = m1(u, nn), mrb = m1(rb, nn), mub = m1(ub, nn);
    if (k5) _mlir_ciface_k5(&mr, &mu, n); else _mlir_ciface_k6(&mr, &mu, n);
    bad |= check_guards("primal");
    if (k5) _mlir_ciface_k5_adjoint(&mr, &mu, n, &mrb, &mub);
    else _mlir_ciface_k6_adjoint(&mr, &mu, n, &mrb, &mub);
    bad |= check_guards("adjoint");
    // Reference: k5: r[i] = 3u[i+1] for 2<=i<n-1, 2u[i-1] for i=1 or n-1.
    double lhs = 0, rhs = 0, scale = 1e-300, maxerr = 0;
    for (int64_t i = 0; i < nn; ++i) { lhs += r[i] * w[i]; scale += fabs(r[i] * w[i]); rhs += u[i] * ub[i]; scale += fabs(u[i] * ub[i]); }
    if (k5)
      for (int64_t i = 1; i < n; ++i) {
        double ref = (i >= 2 && i < n - 1) ? 3 * u[i + 1] : 2 * u[i - 1];
        if (fabs(ref - r[i]) > maxerr) maxerr = fabs(ref - r[i]);
      }
    expect(fabs(lhs - rhs) / scale < 1e-12 && maxerr == 0, "k5k6");
    printf("%s n=%lld primal_maxerr=%.3g dot_err=%.3g hash=%016llx\n", kcase, (long long)n, maxerr,
           fabs(lhs - rhs) / scale, (unsigned long long)hash(ub, nn * 8, hash(r, nn * 8, 1469598103934665603ull)));
  }
  return bad;
}

int main(void) {
  char line[256];
  while (fgets(line, sizeof line, stdin)) {
    char *argv[8];
    int argc = 1;
    argv[0] = "edge";
    for (char *tok = strtok(line, " \n"); tok && argc < 8; tok = strtok(0, " \n"))
      argv[argc++] = tok;
    if (argc < 2)
      continue;
    if (run_case(argc, argv))
      printf("FAIL(guard)\n"), failed = 1;
    for (int b = 0; b < nalloc; ++b)
      free(blocks[b]);
    nalloc = 0;
  }
  printf(failed ? "SOME CASES FAILED\n" : "ALL CASES PASSED\n");
  return failed;
}
