// A whole 2-D wave simulation: `steps` leapfrog steps over three buffers
// whose roles rotate through pointer locals (pointers to variable-length
// rows), the usual C way of keeping the last two states. The importer
// makes it the time-loop form, whose adjoint reverses the steps with
// checkpointing.

void wave2d_steps(int steps, int n, double u0[restrict n][n],
                  double u1[restrict n][n], double u2[restrict n][n],
                  const double c2[restrict n][n]) {
  double (*prev)[n] = u0, (*cur)[n] = u1, (*next)[n] = u2;
  for (int t = 0; t < steps; t++) {
    for (int i = 1; i < n - 1; i++)
      for (int j = 1; j < n - 1; j++)
        next[i][j] = 2.0 * cur[i][j] - prev[i][j] +
                     c2[i][j] * (cur[i - 1][j] + cur[i + 1][j] +
                                 cur[i][j - 1] + cur[i][j + 1] -
                                 4.0 * cur[i][j]);
    double (*tmp)[n] = prev;
    prev = cur;
    cur = next;
    next = tmp;
  }
}
