// Jacobi 2-D, one time step of PolyBench's jacobi-2d: two nests over
// variable-length array parameters sized by a long, the second reading
// what the first wrote and writing what the first read.

void jacobi2d(long n, double A[restrict n][n], double B[restrict n][n]) {
  for (int i = 1; i < n - 1; i++)
    for (int j = 1; j < n - 1; j++)
      B[i][j] = 0.2 * (A[i][j] + A[i][j - 1] + A[i][1 + j] + A[1 + i][j] +
                       A[i - 1][j]);
  for (int i = 1; i < n - 1; i++)
    for (int j = 1; j < n - 1; j++)
      A[i][j] = 0.2 * (B[i][j] + B[i][j - 1] + B[i][1 + j] + B[1 + i][j] +
                       B[i - 1][j]);
}
