// A seed of stencil-import-c-fuzz (fuzz.test replays it; its RUN line gives
// the fuzzer the options, lit does not run it): parameters at the edges of
// what the importer accepts, which import and must then pass
// stencil-adjoint,convert-to-omp: zero extents, static extents of 2^40 and
// of 2^26 x 2^26 (strides near 2^55 bytes), `static` and `restrict` in the
// brackets, a transposed read, VLA extents that are expressions.
// RUN: stencil-import-c %s --assume-no-alias
void zero(int n, double (*restrict v)[0], const double (*restrict u)[0]) {
  for (int i = 0; i < n; i++)
    for (int j = 0; j < 0; j++)
      v[i][j] = u[i][j];
}
void wide(int n, double v[restrict][1099511627776],
          const double u[restrict][1099511627776]) {
  for (int i = 0; i < n; i++)
    for (int j = 0; j < 4; j++)
      v[i][j] = u[i][j + 1];
}
void huge(int n, double v[restrict 4][67108864][67108864],
          const double u[restrict 4][67108864][67108864]) {
  for (int i = 0; i < n; i++)
    for (int j = 0; j < 4; j++)
      for (int k = 0; k < 4; k++)
        v[i][j][k] = u[i][j + 1][k];
}
void statics(int n, double v[restrict static 4], const double u[restrict static 0]) {
  for (int i = 0; i < n; i++)
    v[i] = u[i];
}
void transposed(int n, double v[restrict n][n], const double u[restrict n][n]) {
  for (int i = 0; i < n; i++)
    for (int j = 0; j < n; j++)
      v[i][j] = u[j][i] + u[i][j];
}
void extents(int n, double v[restrict -n], const double u[restrict n * n]) {
  for (int i = 0; i < n; i++)
    v[i] = u[i];
}
