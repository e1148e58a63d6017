// The import plan, printed as JSON: parameters with their extents and
// qualifiers, nests with their bounds (inclusive C bounds made exclusive),
// accesses with dims and offsets.
// RUN: stencil-import-c %s --active=u --print-plan | FileCheck %s
// REQUIRES: c-importer

// CHECK: "name": "heat"
// CHECK: "nests": [
// CHECK: "accesses": [
// CHECK: "array": "u"
// CHECK-NEXT: "dims": [
// CHECK-NEXT: 0,
// CHECK-NEXT: 1
// CHECK-NEXT: ],
// CHECK-NEXT: "kind": "store",
// CHECK: "array": "u0"
// CHECK-NEXT: "dims": [
// CHECK-NEXT: 0,
// CHECK-NEXT: 1
// CHECK-NEXT: ],
// CHECK-NEXT: "kind": "read",
// CHECK-NEXT: "loc": "{{.*}}plan.c:[[@LINE+37]]:17",
// CHECK-NEXT: "offsets": [
// CHECK-NEXT: 0,
// CHECK-NEXT: 0
// CHECK: "array": "u0"
// CHECK: "offsets": [
// CHECK-NEXT: -1,
// CHECK-NEXT: 0
// CHECK: "counters": [
// CHECK-NEXT: "i",
// CHECK-NEXT: "j"
// CHECK: "lower": [
// CHECK-NEXT: "1",
// CHECK-NEXT: "k + 1"
// CHECK: "upper": [
// CHECK-NEXT: "n - 1",
// CHECK-NEXT: "2 * m - k"
// CHECK: "params": [
// CHECK: "kind": "size",
// CHECK-NEXT: "name": "n"
// CHECK: "extents": [
// CHECK-NEXT: "n",
// CHECK-NEXT: "2 * m"
// CHECK: "kind": "array",
// CHECK-NEXT: "linearized": false,
// CHECK-NEXT: "name": "u",
// CHECK-NEXT: "restrict": true,
// CHECK-NEXT: "written": true
// CHECK: "active": false,
// CHECK-NEXT: "const": true,
// CHECK: "name": "u0",
// CHECK: "kind": "scalar",
// CHECK-NEXT: "name": "alpha"
void heat(int n, int m, int k, double u[restrict n][2 * m],
          const double u0[restrict n][2 * m], double alpha) {
  for (int i = 1; i <= n - 2; i++)
    for (int j = k + 1; j < 2 * m - k; j++)
      u[i][j] = u0[i][j] + alpha * (u0[i - 1][j] + u0[i + 1][j] +
                                    u0[i][j - 1] + u0[i][j + 1] -
                                    4.0 * u0[i][j]);
}
