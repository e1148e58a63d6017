// One explicit diffusion step on an n x n grid: the C kernel of the
// README's example, from C to a checked gradient through stencil-import-c
// (test/Integration/ImportC/c-import-readme.test runs the README's
// commands on it).

void diffuse(int n, double D, const double u[restrict n][n],
             double r[restrict n][n]) {
  for (int i = 1; i < n - 1; i++)
    for (int j = 1; j < n - 1; j++)
      r[i][j] = u[i][j] + D * (u[i - 1][j] + u[i + 1][j] + u[i][j - 1] +
                               u[i][j + 1] - 4 * u[i][j]);
}
