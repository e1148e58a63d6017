// Nonrectangular nests: a bound of an inner loop that uses the counters of
// the loops around it becomes a domain whose bounds use those coordinates
// (docs/Dialect.md): a triangle, the same triangle over a flat array
// through a macro (its row check takes j's largest value, i's largest),
// and a 3-D wedge whose innermost bounds use both outer counters. The plan
// prints the bounds as C writes them.
// RUN: stencil-import-c %s --active=r,u | stencil-opt --mlir-use-nameloc-as-prefix | FileCheck %s
// RUN: stencil-import-c %s --active=r,u --print-plan | FileCheck %s --check-prefix=PLAN
// RUN: not stencil-import-c %s --active=r,u -DWIDE 2>&1 | FileCheck %s --check-prefix=WIDE
// REQUIRES: c-importer

// CHECK-LABEL: func.func @tri(
// CHECK: stencil.domain (%[[I:[a-z0-9_]+]], %{{[a-z0-9_]+}}) = (1, %[[I]]) to (%n - 1, %n - 1) {
// CHECK-DAG: stencil.gather %u[-1, 0]
// CHECK-DAG: stencil.gather %u[1, 0]
// CHECK-DAG: stencil.gather %u[0, -1]
// PLAN: "name": "tri"
// PLAN: "lower": [
// PLAN-NEXT: "1",
// PLAN-NEXT: "i"
// PLAN: "upper": [
// PLAN-NEXT: "n - 1",
// PLAN-NEXT: "n - 1"
void tri(int n, double r[restrict n][n], const double u[restrict n][n]) {
  for (int i = 1; i < n - 1; i++)
    for (int j = i; j < n - 1; j++)
      r[i][j] = u[i - 1][j] + u[i + 1][j] - 2.0 * u[i][j - 1];
}

// CHECK-LABEL: func.func @flat(
// CHECK: stencil.domain (%[[I:[a-z0-9_]+]], %{{[a-z0-9_]+}}) = (1, 1) to (%n - 1, %[[I]] + 1) {
// CHECK-DAG: stencil.gather %u[0, 1]
// CHECK-DAG: stencil.gather %u[0, -1]
// PLAN: "name": "flat"
// PLAN: "upper": [
// PLAN-NEXT: "n - 1",
// PLAN-NEXT: "i + 1"
#define U(i, j) u[(i) * n + (j)]
void flat(int n, double *restrict r, const double *restrict u) {
  for (int i = 1; i < n - 1; i++)
    for (int j = 1; j <= i; j++)
      r[i * n + j] = U(i, j + 1) - U(i, j - 1);
}

// CHECK-LABEL: func.func @wedge(
// CHECK: stencil.domain (%[[I:[a-z0-9_]+]], %[[J:[a-z0-9_]+]], %{{[a-z0-9_]+}}) = (1, 1, %[[J]]) to (%n - 1, %n - 1, -%[[I]] + %n) {
void wedge(int n, double r[restrict n][n][n],
           const double u[restrict n][n][n]) {
  for (int i = 1; i < n - 1; i++)
    for (int j = 1; j < n - 1; j++)
      for (int k = j; k < n - i; k++)
        r[i][j][k] = u[i][j][k + 1] * u[i][j - 1][k];
}

#ifdef WIDE
// Over a flat array of m columns, j <= i reaches past them when n > m.
// WIDE: nonrect.c:[[@LINE+4]]:15: error: cannot delinearize 'r[i * m + j]': the subscript j of dimension 1 of r[?][m] may leave [0, m) for j in [1, n - 1)
void wide(int n, int m, double *restrict r, const double *restrict u) {
  for (int i = 1; i < n - 1; i++)
    for (int j = 1; j <= i; j++)
      r[i * m + j] = u[i * m + j];
}
#endif
