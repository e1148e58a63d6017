// Heat 3-D, one explicit step with fixed-size arrays (PolyBench's heat-3d
// style, N known at compile time) and constant loop bounds.

#define N 10

void heat3d(double alpha, const double A[restrict N][N][N],
            double B[restrict N][N][N]) {
  for (int i = 1; i < N - 1; i++) {
    for (int j = 1; j < N - 1; j++) {
      for (int k = 1; k < N - 1; k++) {
        B[i][j][k] = A[i][j][k] +
                     alpha * (A[i + 1][j][k] - 2.0 * A[i][j][k] + A[i - 1][j][k]) +
                     alpha * (A[i][j + 1][k] - 2.0 * A[i][j][k] + A[i][j - 1][k]) +
                     alpha * (A[i][j][k + 1] - 2.0 * A[i][j][k] + A[i][j][k - 1]);
      }
    }
  }
}
