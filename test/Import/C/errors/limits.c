// The importer's limits on one function (Importer.cpp): an expression more
// than 1000 operations deep, or a body of more than 100000 expressions and
// statements, is refused at the C line before the importer recurses over
// it (a stack overflow) or spends its time on it. Macros write either in a
// line. The first function stays within both and imports.
// RUN: not stencil-import-c %s 2>&1 | FileCheck %s --implicit-check-not=error:
// REQUIRES: c-importer

#define T4 u[i] + u[i] + u[i] + u[i]
#define T16 T4 + T4 + T4 + T4
#define T64 T16 + T16 + T16 + T16
#define T256 T64 + T64 + T64 + T64
#define T1024 T256 + T256 + T256 + T256

void within(int n, double *restrict v, const double *restrict u) {
  for (int i = 0; i < n; i++)
    v[i] = T256 + T256 + T256;
}

void deep(int n, double *restrict v, const double *restrict u) {
  for (int i = 0; i < n; i++)
    // CHECK: limits.c:[[@LINE+2]]:12: error: this expression nests more than 1000 operations deep: split it with local temporaries
    // CHECK: limits.c:9:28: note: expanded from macro 'T4'
    v[i] = T1024;
}

#define B0 u[i]
#define B1 (B0 + B0)
#define B2 (B1 + B1)
#define B3 (B2 + B2)
#define B4 (B3 + B3)
#define B5 (B4 + B4)
#define B6 (B5 + B5)
#define B7 (B6 + B6)
#define B8 (B7 + B7)
#define B9 (B8 + B8)
#define B10 (B9 + B9)
#define B11 (B10 + B10)
#define B12 (B11 + B11)
#define B13 (B12 + B12)
#define B14 (B13 + B13)
#define B15 (B14 + B14)

// CHECK: limits.c:[[@LINE+1]]:6: error: the body of 'large' has more than 100000 expressions and statements (after macro expansion): split it into several functions
void large(int n, double *restrict v, const double *restrict u) {
  for (int i = 0; i < n; i++)
    v[i] = B15;
}
