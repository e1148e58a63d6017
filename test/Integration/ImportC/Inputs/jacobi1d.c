// Jacobi 1-D, one sweep in the style of PolyBench's jacobi-1d: plain
// restrict pointers, the counter declared in the loop, `<` bounds.

void jacobi1d(int n, const double *restrict a, double *restrict b) {
  for (int i = 1; i < n - 1; i++)
    b[i] = 0.33333 * (a[i - 1] + a[i] + a[i + 1]);
}
