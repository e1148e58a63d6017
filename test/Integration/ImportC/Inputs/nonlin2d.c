// A nonlinear 2-D step with what math.h offers: Perona-Malik diffusion
// (exp and a rational conductance), a gradient magnitude (sqrt), a minmod
// limiter (fmax/fmin) and first-order upwinding chosen by a ternary.

#include <math.h>

void nonlin2d(int n, int m, double dt, double kinv, double vx,
              const double u[restrict n][m], double out[restrict n][m]) {
  for (int i = 1; i < n - 1; i++)
    for (int j = 1; j < m - 1; j++) {
      double gE = u[i][j + 1] - u[i][j];
      double gW = u[i][j] - u[i][j - 1];
      double gN = u[i - 1][j] - u[i][j];
      double gS = u[i][j] - u[i + 1][j];
      double cE = exp(-(gE * gE) * kinv);
      double cW = 1.0 / (1.0 + gW * gW * kinv);
      double mag = sqrt(gE * gE + gN * gN + 1e-3);
      double lim = fmax(0.0, fmin(gN, gS));
      double adv = vx > 0.0 ? gW : gE;
      out[i][j] = u[i][j] + dt * (cE * gE - cW * gW + 0.1 * mag * lim) -
                  dt * vx * adv + 0.01 * tanh(u[i][j]);
    }
}
