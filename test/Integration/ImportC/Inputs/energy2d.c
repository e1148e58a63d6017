// The discrete Dirichlet energy of a 2-D field, summed into one element
// (a reduction over the whole nest), with a weight field.

void energy2d(int n, int m, double e[restrict 1],
              const double u[restrict n][m], const double k[restrict n][m]) {
  for (int i = 0; i < n - 1; i++)
    for (int j = 0; j < m - 1; j++) {
      double dx = u[i + 1][j] - u[i][j];
      double dy = u[i][j + 1] - u[i][j];
      e[0] += 0.5 * k[i][j] * (dx * dx + dy * dy);
    }
}
