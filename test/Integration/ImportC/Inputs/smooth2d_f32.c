// A 5-point smoother in single precision with a double literal (C promotes
// the sum to double and rounds the product back to float) and sqrtf; the
// outer counter steps by `i += 1`.

#include <math.h>

void smooth2d_f32(int n, float w, const float a[restrict n][n],
                  float b[restrict n][n]) {
  for (int i = 1; i <= n - 2; i += 1)
    for (int j = 1; j <= n - 2; ++j)
      b[i][j] = w * a[i][j] +
                (1.0f - w) * 0.25 * (a[i - 1][j] + a[i + 1][j] + a[i][j - 1] +
                                     a[i][j + 1]) +
                0.125f * sqrtf(1.0f + a[i][j] * a[i][j]);
}
