// Parameters the importer cannot map, arrays that may alias, and --active
// names that are no parameter.
// RUN: not stencil-import-c %s 2>&1 | FileCheck %s
// RUN: not stencil-import-c %s --function=alias --assume-no-alias --active=nope 2>&1 | FileCheck %s --check-prefix=ACTIVE
// RUN: stencil-import-c %s --function=alias --assume-no-alias | stencil-opt --mlir-use-nameloc-as-prefix | FileCheck %s --check-prefix=NOALIAS
// REQUIRES: c-importer

// CHECK: params.c:[[@LINE+1]]:43: error: 'a' is an array of 'int': only arrays of double and float are imported
void ints(int n, double *restrict b, int *a) {
  for (int i = 0; i < n; i++)
    b[i] = 1.0;
}

struct S { double x; };
// CHECK: params.c:[[@LINE+1]]:50: error: parameter 's' of type 'struct S': parameters are arrays or pointers of double or float, integers (sizes) or double and float scalars
void structs(int n, double *restrict b, struct S s) {
  for (int i = 0; i < n; i++)
    b[i] = s.x;
}

// CHECK: params.c:[[@LINE+1]]:85: error: 'n' is an integer and cannot be active: only float arrays and scalars have derivatives
void active_int(double *restrict b, __attribute__((annotate("stencil_active"))) int n) {
  for (int i = 0; i < n; i++)
    b[i] = 1.0;
}

// CHECK: params.c:[[@LINE+1]]:44: error: 'a' and 'b' may alias (neither is restrict-qualified) and 'a' is written: the adjoint of a loop whose arrays overlap is not a stencil adjoint; declare them 'restrict' or pass --assume-no-alias
void alias(int n, double *a, const double *b) {
  for (int i = 1; i < n; i++)
    a[i] = b[i - 1];
}
// ACTIVE: error: --active names 'nope', which is no parameter of the imported functions
// NOALIAS: func.func @alias(%n: index, %a: memref<?xf64>, %b: memref<?xf64>)
