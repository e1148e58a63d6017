//===- abi_main.c - Call the entry points of abi.mlir from C --------------===//
//
// This file implements the caller of Inputs/abi.mlir for stencil-compile.test:
// it fills a static 4x4 f32 array, scales it through the 2-D entry point into
// a dynamic 3x3 one, and calls the scalar entry point.
//
//===----------------------------------------------------------------------===//

#include "abi.h"

#include <stdio.h>

int main(void) {
  float in[16], out[9];
  for (int p = 0; p < 16; ++p)
    in[p] = (float)p;
  StencilMemRef2D_f32 inRef = stencil_memref2d_f32(in, 4, 4);
  StencilMemRef2D_f32 outRef = stencil_memref2d_f32(out, 3, 3);
  _mlir_ciface_scale2d(&outRef, &inRef, 0.5f, 3);
  for (int i = 0; i < 3; ++i)
    printf("out[%d] = %g %g %g\n", i, out[3 * i], out[3 * i + 1], out[3 * i + 2]);
  printf("twice(1.25) = %g\n", _mlir_ciface_twice(1.25));
  return 0;
}
