// Integer literals in float expressions keep their value: an unsigned
// literal with its top bit set was read as a signed one (4294967295U
// became -1.0).
// RUN: stencil-import-c %s | FileCheck %s
// REQUIRES: c-importer

// CHECK-LABEL: func.func @f(
// CHECK-DAG: arith.constant 1.8446744073709552E+19 : f64
// CHECK-DAG: arith.constant 9.2233720368547758E+18 : f64
// CHECK-DAG: arith.constant 0x41EFFFFFFFE00000 : f64
// CHECK-DAG: arith.constant 3.000000e+00 : f64
// CHECK-DAG: arith.constant 2.550000e+02 : f32
// CHECK-NOT: arith.constant -1.0
void f(int n, double *restrict v, const double *restrict u, float *restrict w,
       const float *restrict x) {
  for (int i = 0; i < n; i++)
    v[i] = 18446744073709551615ULL * u[i] + 9223372036854775808ULL +
           4294967295U - 3;
  for (int i = 0; i < n; i++)
    w[i] = 255u * x[i];
}
