// A 3x3 convolution whose taps are learned: the taps are a fixed-size
// array read at fixed elements (the same w[a][b] at every pixel), whose
// gradient sums over the image.

void conv3x3(int h, int w_, const double w[restrict 3][3],
             const double img[restrict h][w_], double out[restrict h][w_]) {
  for (int y = 1; y < h - 1; y++)
    for (int x = 1; x < w_ - 1; x++)
      out[y][x] = w[0][0] * img[y - 1][x - 1] + w[0][1] * img[y - 1][x] +
                  w[0][2] * img[y - 1][x + 1] + w[1][0] * img[y][x - 1] +
                  w[1][1] * img[y][x] + w[1][2] * img[y][x + 1] +
                  w[2][0] * img[y + 1][x - 1] + w[2][1] * img[y + 1][x] +
                  w[2][2] * img[y + 1][x + 1];
}
