// A variable-velocity 3-D wave step on flat arrays: linearized indices with
// symbolic strides through macros, local temporaries, and the velocity
// differentiated with the fields (FWI's gradient with respect to the model).

#define IDX(i, j, k) (((i) * ny + (j)) * nz + (k))
#define U(i, j, k) u[IDX(i, j, k)]
#define U1(i, j, k) u1[((i) * ny + (j)) * nz + (k)]
#define U2(i, j, k) u2[IDX(i, j, k)]
#define V(i, j, k) vel[IDX(i, j, k)]

void varwave3d(int nx, int ny, int nz, double dt2, double *restrict u,
               const double *restrict u1, const double *restrict u2,
               const double *restrict vel) {
  for (int i = 1; i < nx - 1; ++i)
    for (int j = 1; j < ny - 1; ++j)
      for (int k = 1; k < nz - 1; ++k) {
        double lap = U1(i + 1, j, k) + U1(i - 1, j, k) + U1(i, j + 1, k) +
                     U1(i, j - 1, k) + U1(i, j, k + 1) + U1(i, j, k - 1) -
                     6.0 * U1(i, j, k);
        double v = V(i, j, k);
        U(i, j, k) = 2.0 * U1(i, j, k) - U2(i, j, k) + dt2 * v * v * lap;
      }
}
