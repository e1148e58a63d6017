// Constants in indices and bounds are refused beyond the dialect's range
// of offsets and bound constants, [-2^40, 2^40], before the importer
// multiplies them: a scaled index overflowed int64_t (UBSan in the
// sanitizer build), and a larger bound constant made IR that failed the
// verifier instead of an importer error (both found while writing
// stencil-import-c-fuzz, whose invariants report them).
// RUN: not stencil-import-c %s 2>&1 | FileCheck %s --implicit-check-not=error:
// REQUIRES: c-importer

void scaled(int n, double *restrict v, const double *restrict u) {
  for (int i = 1; i < n; i++)
    // CHECK: large-constants.c:[[@LINE+1]]:17: error: the index 'i * 4611686018427387904L' has a constant larger than 2^40: offsets must lie in [-2^40, 2^40]
    v[i] = u[(i * 4611686018427387904) * 4];
}

void offset(int n, double *restrict v, const double *restrict u) {
  for (int i = 1; i < n; i++)
    // CHECK: large-constants.c:[[@LINE+1]]:18: error: the index '1099511627777L' has a constant larger than 2^40
    v[i] = u[i + 1099511627777];
}

void sum(int n, double *restrict v, const double *restrict u) {
  for (int i = 1; i < n; i++)
    // CHECK: large-constants.c:[[@LINE+1]]:32: error: the index 'i + 1099511627776L + 1099511627776L' has a constant larger than 2^40
    v[i] = u[i + 1099511627776 + 1099511627776];
}

void unsigned_max(int n, double *restrict v, const double *restrict u) {
  for (int i = 0; i < n; i++)
    // CHECK: large-constants.c:[[@LINE+1]]:18: error: the index '18446744073709551615ULL' has a constant larger than 2^40
    v[i] = u[i + 18446744073709551615ULL];
}

void wide(int n, double *restrict v, const double *restrict u) {
  for (int i = 0; i < n; i++)
    // CHECK: large-constants.c:[[@LINE+1]]:16: error: the index 'i * ((__int128)1 << 100)' has a constant larger than 2^40
    v[i] = u[i * ((__int128)1 << 100)];
}

void bound(int n, double *restrict v, const double *restrict u) {
  // CHECK: large-constants.c:[[@LINE+1]]:24: error: the bound '2000000000000L' has a constant larger than 2^40: bounds and offsets must lie in [-2^40, 2^40]
  for (long i = 0; i < 2000000000000; i++)
    v[i] = u[i];
}

void product(int n, double *restrict v, const double *restrict u) {
  // CHECK: large-constants.c:[[@LINE+1]]:42: error: the bound 'n * 1099511627776L * 16777216' has a constant larger than 2^40
  for (long i = 0; i < n * 1099511627776 * 16777216 + 5; i++)
    v[i] = u[i];
}

void inclusive(int n, double *restrict v, const double *restrict u) {
  // CHECK: large-constants.c:[[@LINE+1]]:25: error: the bound '1099511627776L' has a constant larger than 2^40
  for (long i = 0; i <= 1099511627776; i++)
    v[i] = u[i];
}
