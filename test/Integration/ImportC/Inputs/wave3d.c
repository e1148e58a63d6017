// The wave equation primal of Section 4.1 (Figure 5) of Hückelheim et al.,
// ICPP 2019, as printed there, with C99 variable-length array parameters;
// the arrays to differentiate are marked in the source. PerforAD writes
// `+=` into an output that starts at zero; examples/wave3d.mlir writes the
// assignment of the same expression.

#define ACTIVE __attribute__((annotate("stencil_active")))

void wave3d(int n, double D, ACTIVE double u[restrict n][n][n],
            ACTIVE const double u_1[restrict n][n][n],
            ACTIVE const double u_2[restrict n][n][n],
            const double c[restrict n][n][n]) {
  int i, j, k;
#pragma omp parallel for private(k,j,i)
for ( i=1; i<=n - 2; i++ )
  for ( j=1; j<=n - 2; j++ )
    for ( k=1; k<=n - 2; k++ ) {
      u[i][j][k] += D*(-6*u_1[i][ j][ k] + u_1[i][ j][ k - 1]
                     + u_1[i][ j][ k + 1] + u_1[i][ j - 1][ k]
                     + u_1[i][ j + 1][ k] + u_1[i - 1][ j][ k]
                     + u_1[i + 1][ j][ k])*c[i][ j][ k]
                     + 2.0*u_1[i][ j][ k] - u_2[i][ j][ k];
}
}
