// Nonrectangular nests: inner bounds that use the outer counters. A
// triangle of a 5-point star with a coefficient (VLA), the lower triangle
// of a flat array through a macro, and a 3-D wedge whose innermost range
// depends on both outer counters, nonlinear.

void tri(int n, double r[restrict n][n], const double u[restrict n][n],
         const double c[restrict n][n]) {
  for (int i = 1; i < n - 1; i++)
    for (int j = i; j < n - 1; j++)
      r[i][j] = c[i][j] * (4.0 * u[i][j] - u[i - 1][j] - u[i + 1][j] -
                           u[i][j - 1] - u[i][j + 1]);
}

#define U(i, j) u[(i) * n + (j)]
void lower_flat(int n, double *restrict r, const double *restrict u) {
  for (int i = 1; i < n - 1; i++)
    for (int j = 1; j <= i; j++)
      r[i * n + j] = U(i, j + 1) - 0.5 * U(i, j - 1) + U(i - 1, j);
}

void wedge(int n, double r[restrict n][n][n],
           const double u[restrict n][n][n]) {
  for (int i = 1; i < n - 1; i++)
    for (int j = 1; j < n - 1; j++)
      for (int k = j; k < n - i; k++)
        r[i][j][k] = u[i][j][k + 1] * u[i][j - 1][k] + u[i + 1][j][k - 1];
}
