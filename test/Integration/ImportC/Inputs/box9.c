// A 9-point box filter over an image of H rows of W columns: pointers to
// fixed-size rows, `<=` bounds, a constant and a parameter bound, a local constant.

#define W 12

void box9(int h, const double (*restrict in)[W], double (*restrict out)[W]) {
  for (int y = 1; y <= h - 2; ++y)
    for (int x = 1; x <= W - 2; ++x) {
      const double ninth = 1.0 / 9.0;
      out[y][x] = ninth * (in[y - 1][x - 1] + in[y - 1][x] + in[y - 1][x + 1] +
                           in[y][x - 1] + in[y][x] + in[y][x + 1] +
                           in[y + 1][x - 1] + in[y + 1][x] + in[y + 1][x + 1]);
    }
}
