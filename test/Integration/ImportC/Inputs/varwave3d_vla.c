// varwave3d.c with C99 variable-length array parameters instead of flat
// arrays and macros: the same arithmetic in the same order, so that both
// must give the same bits (and the same header: a C caller passes the
// same descriptors).

void varwave3d(int nx, int ny, int nz, double dt2,
               double u[restrict nx][ny][nz],
               const double u1[restrict nx][ny][nz],
               const double u2[restrict nx][ny][nz],
               const double vel[restrict nx][ny][nz]) {
  for (int i = 1; i < nx - 1; ++i)
    for (int j = 1; j < ny - 1; ++j)
      for (int k = 1; k < nz - 1; ++k) {
        double lap = u1[i + 1][j][k] + u1[i - 1][j][k] + u1[i][j + 1][k] +
                     u1[i][j - 1][k] + u1[i][j][k + 1] + u1[i][j][k - 1] -
                     6.0 * u1[i][j][k];
        double v = vel[i][j][k];
        u[i][j][k] = 2.0 * u1[i][j][k] - u2[i][j][k] + dt2 * v * v * lap;
      }
}
