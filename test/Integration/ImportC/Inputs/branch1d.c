// Branches in a loop body: an if/else whose arm calls sqrt (a function
// with a restricted domain, so it stays an scf.if and its adjoint never
// evaluates the arm not taken), and one with safe arms (arith.select).

#include <math.h>

void branch1d(int n, double u[restrict n], const double v[restrict n]) {
  for (int i = 1; i < n - 1; i++) {
    double a, b;
    if (v[i] > 0.0)
      a = sqrt(v[i]) * v[i + 1];
    else
      a = -v[i - 1] * v[i];
    if (v[i - 1] < v[i + 1])
      b = v[i - 1] * v[i - 1];
    else
      b = 2.0 * v[i + 1];
    u[i] = a + b;
  }
}
