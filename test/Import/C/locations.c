// Locations: the imported IR keeps the C line and column of every op, so a
// later pass reports at the C source; a refusal inside a macro is reported
// at its use, with a note at the #define.
// RUN: stencil-import-c %s --function=omp_smooth -o %t.mlir
// RUN: not stencil-compile %t.mlir -o %t.o 2>&1 | FileCheck %s --check-prefix=LATER
// RUN: not stencil-import-c %s --function=macro_in_place 2>&1 | FileCheck %s --check-prefix=MACRO
// REQUIRES: c-importer

#define LAP(u, i) (u[i - 1] - 2.0 * u[i] + u[i + 1])

// LATER: locations.c:[[@LINE+1]]:6: error: 'func.func' op is named @omp_smooth, in the namespace `omp_*` reserved for the OpenMP runtime
void omp_smooth(int n, double *restrict a, const double *restrict b) {
  for (int i = 1; i < n - 1; i++)
    a[i] = 0.5 * LAP(b, i);
}

void macro_in_place(int n, double *restrict a) {
  for (int i = 1; i < n - 1; i++)
    // MACRO: locations.c:[[@LINE+2]]:18: error: 'a' is read here and written in the same loop nest
    // MACRO: locations.c:9:20: note: expanded from macro 'LAP'
    a[i] = 0.5 * LAP(a, i);
}
