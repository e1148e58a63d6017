/* Runs the imported kernels with linearized subscripts (delinearize.test)
 * and their C originals on the same random flat arrays, for several sizes,
 * and compares the outputs bit for bit. The compiled functions see each flat
 * array through a row-major descriptor with the extents the importer found
 * (stencil_memref<R>d_f64 of StencilABI.h). */
#include <stdio.h>
#include <stdlib.h>

#include "heat3d.h"
#include "layouts.h"

void heat_ref(int nx, int ny, int nz, double *restrict v,
              const double *restrict u);
void halo_ref(int n, double *restrict v, const double *restrict u);
void fixed_ref(int m, double *restrict v, const double *restrict u);
void refine_ref(int nx, int ny, int nz, double *restrict v,
                const double *restrict w);
void transpose_ref(int n, double *restrict a, const double *restrict b);

static double *random_array(size_t n) {
  double *p = malloc(n * sizeof *p);
  for (size_t i = 0; i < n; ++i)
    p[i] = rand() / (double)RAND_MAX - 0.5;
  return p;
}

/* Zeroed outputs for the reference and the compiled function. */
static void outputs(size_t n, double **a, double **b) {
  *a = calloc(n, sizeof **a);
  *b = calloc(n, sizeof **b);
}

static int failures = 0;

static void compare(const char *what, int size, const double *a,
                    const double *b, size_t n) {
  for (size_t i = 0; i < n; ++i)
    if (a[i] != b[i]) {
      printf("%s: size %d differs at %zu: %.17g vs %.17g\n", what, size, i,
             a[i], b[i]);
      ++failures;
      return;
    }
}

/* Prints that `what` matched, unless a comparison since `before` failed. */
static void report(const char *what, int before) {
  if (failures == before)
    printf("%s: 4 sizes, bitwise equal\n", what);
}

static void free3(double *a, double *b, double *c) {
  free(a);
  free(b);
  free(c);
}

int main(void) {
  static const int sizes[4] = {3, 4, 7, 12};
  int before;
  before = failures;
  for (int s = 0; s < 4; ++s) {
    int nx = sizes[s], ny = sizes[s] + 1, nz = sizes[s] + 2;
    size_t n = (size_t)nx * ny * nz;
    double *u = random_array(n), *ref, *out;
    outputs(n, &ref, &out);
    heat_ref(nx, ny, nz, ref, u);
    StencilMemRef3D_f64 dv = stencil_memref3d_f64(out, nx, ny, nz);
    StencilMemRef3D_f64 du = stencil_memref3d_f64(u, nx, ny, nz);
    _mlir_ciface_heat(nx, ny, nz, &dv, &du);
    compare("heat", nx, ref, out, n);
    free3(u, ref, out);
  }
  report("heat", before);
  before = failures;
  for (int s = 0; s < 4; ++s) {
    int m = sizes[s], e = m + 2;
    size_t n = (size_t)e * e;
    double *u = random_array(n), *ref, *out;
    outputs(n, &ref, &out);
    halo_ref(m, ref, u);
    StencilMemRef2D_f64 dv = stencil_memref2d_f64(out, e, e);
    StencilMemRef2D_f64 du = stencil_memref2d_f64(u, e, e);
    _mlir_ciface_halo(m, &dv, &du);
    compare("halo", m, ref, out, n);
    free3(u, ref, out);
  }
  report("halo", before);
  before = failures;
  for (int s = 0; s < 4; ++s) {
    int m = sizes[s];
    size_t n = (size_t)m * 64;
    double *u = random_array(n), *ref, *out;
    outputs(n, &ref, &out);
    fixed_ref(m, ref, u);
    StencilMemRef2D_f64 dv = stencil_memref2d_f64(out, m, 64);
    StencilMemRef2D_f64 du = stencil_memref2d_f64(u, m, 64);
    _mlir_ciface_fixed(m, &dv, &du);
    compare("fixed", m, ref, out, n);
    free3(u, ref, out);
  }
  report("fixed", before);
  before = failures;
  for (int s = 0; s < 4; ++s) {
    int nx = sizes[s], ny = sizes[s] + 2, nz = sizes[s] + 1;
    size_t n = (size_t)nx * ny * nz;
    double *w = random_array(n), *ref, *out;
    outputs(n, &ref, &out);
    refine_ref(nx, ny, nz, ref, w);
    StencilMemRef3D_f64 dv = stencil_memref3d_f64(out, nx, ny, nz);
    StencilMemRef3D_f64 dw = stencil_memref3d_f64(w, nx, ny, nz);
    _mlir_ciface_refine(nx, ny, nz, &dv, &dw);
    compare("refine", nx, ref, out, n);
    free3(w, ref, out);
  }
  report("refine", before);
  before = failures;
  for (int s = 0; s < 4; ++s) {
    int m = sizes[s];
    size_t n = (size_t)m * m;
    double *b = random_array(n), *ref, *out;
    outputs(n, &ref, &out);
    transpose_ref(m, ref, b);
    StencilMemRef2D_f64 da = stencil_memref2d_f64(out, m, m);
    StencilMemRef2D_f64 db = stencil_memref2d_f64(b, m, m);
    _mlir_ciface_transpose(m, &da, &db);
    compare("transpose", m, ref, out, n);
    free3(b, ref, out);
  }
  report("transpose", before);
  if (failures)
    return 1;
  printf("PASS\n");
  return 0;
}
