// The 1-D example of Section 3.2 of Hückelheim et al., "Automatic
// Differentiation for Adjoint Stencil Loops" (ICPP 2019), as printed there,
// in a function of plain pointers (no restrict: imported with
// --assume-no-alias) with the counter declared before the loop.
// examples/paper1d.mlir is the same loop in the stencil dialect.

void paper1d(int n, double *r, const double *c, const double *u) {
  int i;
#pragma omp parallel for private(i)
  for ( i=1; i<=n - 1; i++ ) {
    r[i] = c[i]*(2.0*u[i-1]-3.0*u[i]+4*u[i+1]);
  }
}
