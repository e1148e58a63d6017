// The Burgers equation primal of Section 4.2 (Figure 7) of Hückelheim et
// al., ICPP 2019, as printed there, with C99 variable-length array
// parameters. PerforAD writes `+=` into an output that starts at zero;
// examples/burgers1d.mlir writes the assignment of the same expression.

#include <math.h>

void burgers1d(int n, double C, double D, double u[restrict n],
               const double u_1[restrict n]) {
  int i;
  for ( i=1; i<=n - 2; i++ ) {
      u[i] += -C*((-u_1[i] + u_1[i + 1])*fmin(0, u_1[i])
                 + (u_1[i] - u_1[i - 1])*fmax(0, u_1[i]))
             + D*(-2.0*u_1[i] + u_1[i - 1] + u_1[i + 1])
             + u_1[i];
  }
}
