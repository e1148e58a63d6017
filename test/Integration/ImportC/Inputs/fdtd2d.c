// FDTD 2-D (Yee scheme, PolyBench's fdtd-2d without its boundary source):
// two statements in one nest, then a second nest that reads what they
// wrote; pointers to variable-length rows, `-=` updates and passive
// coefficients.

void fdtd2d(int nx, int ny, double ce, double ch, double (*restrict ex)[ny],
            double (*restrict ey)[ny], double (*restrict hz)[ny]) {
  for (int i = 1; i < nx; i++)
    for (int j = 1; j < ny; j++) {
      ey[i][j] -= ce * (hz[i][j] - hz[i - 1][j]);
      ex[i][j] -= ce * (hz[i][j] - hz[i][j - 1]);
    }
  for (int i = 0; i < nx - 1; i++)
    for (int j = 0; j < ny - 1; j++)
      hz[i][j] -= ch * (ex[i][j + 1] - ex[i][j] + ey[i + 1][j] - ey[i][j]);
}
