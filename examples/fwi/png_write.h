/*===- png_write.h - A dependency-free PNG writer for the examples -*- C -*-===*
 *
 * Writes an 8-bit RGB PNG with stored (uncompressed) deflate blocks, so
 * that the examples need no zlib or libpng. png_write_diverging maps a
 * field to blue (negative), white (zero) and red (positive), scaled by its
 * largest magnitude, each value a `scale` x `scale` block of pixels.
 *
 *===----------------------------------------------------------------------===*/

#ifndef STENCIL_EXAMPLES_PNG_WRITE_H
#define STENCIL_EXAMPLES_PNG_WRITE_H

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

static uint32_t png_crc(uint32_t crc, const unsigned char *p, size_t n) {
  crc = ~crc;
  for (size_t i = 0; i < n; ++i) {
    crc ^= p[i];
    for (int k = 0; k < 8; ++k)
      crc = (crc >> 1) ^ (0xedb88320u & (0u - (crc & 1u)));
  }
  return ~crc;
}

static void png_be32(unsigned char *p, uint32_t v) {
  p[0] = (unsigned char)(v >> 24);
  p[1] = (unsigned char)(v >> 16);
  p[2] = (unsigned char)(v >> 8);
  p[3] = (unsigned char)v;
}

/* Writes one chunk: length, type, data, CRC of type and data. */
static int png_chunk(FILE *f, const char *type, const unsigned char *data,
                     uint32_t n) {
  unsigned char head[8];
  png_be32(head, n);
  for (int i = 0; i < 4; ++i)
    head[4 + i] = (unsigned char)type[i];
  uint32_t crc = png_crc(0, head + 4, 4);
  crc = png_crc(crc, data, n);
  unsigned char tail[4];
  png_be32(tail, crc);
  return fwrite(head, 1, 8, f) != 8 || (n && fwrite(data, 1, n, f) != n) ||
         fwrite(tail, 1, 4, f) != 4;
}

/* `raw`: height rows of (filter byte 0, width RGB triples). */
static int png_write_rgb(const char *path, const unsigned char *raw,
                         uint32_t width, uint32_t height) {
  size_t n = (size_t)height * (1 + 3 * (size_t)width);
  size_t blocks = (n + 65534) / 65535;
  size_t size = 2 + n + 5 * (blocks ? blocks : 1) + 4;
  unsigned char *z = malloc(size);
  if (!z)
    return 1;
  size_t o = 0;
  z[o++] = 0x78; /* zlib header: deflate, 32 KiB window, no dictionary */
  z[o++] = 0x01;
  uint32_t a = 1, b = 0; /* Adler-32 */
  size_t done = 0;
  do {
    size_t len = n - done < 65535 ? n - done : 65535;
    z[o++] = done + len == n; /* BFINAL, stored */
    z[o++] = (unsigned char)len;
    z[o++] = (unsigned char)(len >> 8);
    z[o++] = (unsigned char)~len;
    z[o++] = (unsigned char)(~len >> 8);
    for (size_t i = 0; i < len; ++i) {
      unsigned char c = raw[done + i];
      z[o++] = c;
      a = (a + c) % 65521;
      b = (b + a) % 65521;
    }
    done += len;
  } while (done < n);
  png_be32(z + o, (b << 16) | a);
  o += 4;

  FILE *f = fopen(path, "wb");
  if (!f) {
    free(z);
    return 1;
  }
  static const unsigned char sig[8] = {0x89, 'P', 'N', 'G', '\r', '\n', 0x1a,
                                       '\n'};
  unsigned char ihdr[13];
  png_be32(ihdr, width);
  png_be32(ihdr + 4, height);
  ihdr[8] = 8;  /* bit depth */
  ihdr[9] = 2;  /* RGB */
  ihdr[10] = 0; /* deflate */
  ihdr[11] = 0; /* adaptive filtering */
  ihdr[12] = 0; /* no interlace */
  int bad = fwrite(sig, 1, 8, f) != 8 || png_chunk(f, "IHDR", ihdr, 13) ||
            png_chunk(f, "IDAT", z, (uint32_t)o) ||
            png_chunk(f, "IEND", NULL, 0);
  bad |= fclose(f) != 0;
  free(z);
  return bad;
}

static int png_compare(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

static int png_write_diverging(const char *path, const double *field,
                               int width, int height, int scale,
                               double clip) {
  int count = width * height;
  double *mag = malloc(sizeof(double) * (count ? count : 1));
  if (!mag)
    return 1;
  for (int i = 0; i < count; ++i)
    mag[i] = fabs(field[i]);
  qsort(mag, count, sizeof(double), png_compare);
  int at = (int)(clip * count) - 1;
  double peak = count ? mag[at < 0 ? 0 : at] : 0;
  free(mag);
  uint32_t w = (uint32_t)(width * scale), h = (uint32_t)(height * scale);
  size_t row = 1 + 3 * (size_t)w;
  unsigned char *raw = calloc(row * h, 1);
  if (!raw)
    return 1;
  for (uint32_t y = 0; y < h; ++y)
    for (uint32_t x = 0; x < w; ++x) {
      double v = peak > 0 ? field[(y / scale) * width + x / scale] / peak : 0;
      double t = fmin(1.0, fabs(v));
      unsigned char fade = (unsigned char)lround(255 * (1 - t));
      unsigned char *p = raw + y * row + 1 + 3 * x;
      p[0] = v > 0 ? 255 : fade;
      p[1] = fade;
      p[2] = v > 0 ? fade : 255;
    }
  int bad = png_write_rgb(path, raw, w, h);
  free(raw);
  return bad;
}

#endif /* STENCIL_EXAMPLES_PNG_WRITE_H */
