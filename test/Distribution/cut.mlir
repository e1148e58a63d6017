// RUN: stencil-opt %s --stencil-distribute=grid=2,2 "--stencil-cut-shared=report" -o /dev/null 2>&1 | FileCheck %s --check-prefix=PLAN
// RUN: stencil-opt %s --stencil-distribute=grid=2,2 "--convert-to-omp=max-gather-ops=400" -o /dev/null
// RUN: not stencil-opt %s --stencil-distribute=grid=2,2 "--convert-to-omp=max-gather-ops=400 cut=0" -o /dev/null 2>&1 | FileCheck %s --check-prefix=NOCUT

// A nonlinear scatter: the product of the 81 taps of radius 4, accumulated
// to 4 neighbours. Its gather form recomputes the product at every shift
// in every nest, so it grows with the square of the taps (at radius 14 the
// pipeline took 20 s and 36 MB of IR) unless the cut stores the product
// once. The distribution bounds the domain by the rank's block (symbolic
// lower bounds): the cut still applies, its temporary a view that starts
// at the rank's lower bounds, and the gather form stays under a
// max-gather-ops that the form without the cut exceeds.

// PLAN: remark: cut plan: {"ops_before": {{[0-9]+}}, "ops_after": 4, "ring": false, "ring_planes": 0, "padded": null, "cuts": [{"op": "arith.mulf", "shifts": 4
// NOCUT: error: 'stencil.domain' op has a gather form that would clone about {{[0-9]+}} body ops
func.func @s(%c: memref<?x?xf64>, %ub: memref<?x?xf64>, %n: index) {
  stencil.domain (%i, %j) = (1, 1) to (%n - 1, %n - 1) {
    %x0 = stencil.gather %c[-4, -4] : memref<?x?xf64>
    %x1 = stencil.gather %c[-4, -3] : memref<?x?xf64>
    %s1 = arith.mulf %x0, %x1 : f64
    %x2 = stencil.gather %c[-4, -2] : memref<?x?xf64>
    %s2 = arith.mulf %s1, %x2 : f64
    %x3 = stencil.gather %c[-4, -1] : memref<?x?xf64>
    %s3 = arith.mulf %s2, %x3 : f64
    %x4 = stencil.gather %c[-4, 0] : memref<?x?xf64>
    %s4 = arith.mulf %s3, %x4 : f64
    %x5 = stencil.gather %c[-4, 1] : memref<?x?xf64>
    %s5 = arith.mulf %s4, %x5 : f64
    %x6 = stencil.gather %c[-4, 2] : memref<?x?xf64>
    %s6 = arith.mulf %s5, %x6 : f64
    %x7 = stencil.gather %c[-4, 3] : memref<?x?xf64>
    %s7 = arith.mulf %s6, %x7 : f64
    %x8 = stencil.gather %c[-4, 4] : memref<?x?xf64>
    %s8 = arith.mulf %s7, %x8 : f64
    %x9 = stencil.gather %c[-3, -4] : memref<?x?xf64>
    %s9 = arith.mulf %s8, %x9 : f64
    %x10 = stencil.gather %c[-3, -3] : memref<?x?xf64>
    %s10 = arith.mulf %s9, %x10 : f64
    %x11 = stencil.gather %c[-3, -2] : memref<?x?xf64>
    %s11 = arith.mulf %s10, %x11 : f64
    %x12 = stencil.gather %c[-3, -1] : memref<?x?xf64>
    %s12 = arith.mulf %s11, %x12 : f64
    %x13 = stencil.gather %c[-3, 0] : memref<?x?xf64>
    %s13 = arith.mulf %s12, %x13 : f64
    %x14 = stencil.gather %c[-3, 1] : memref<?x?xf64>
    %s14 = arith.mulf %s13, %x14 : f64
    %x15 = stencil.gather %c[-3, 2] : memref<?x?xf64>
    %s15 = arith.mulf %s14, %x15 : f64
    %x16 = stencil.gather %c[-3, 3] : memref<?x?xf64>
    %s16 = arith.mulf %s15, %x16 : f64
    %x17 = stencil.gather %c[-3, 4] : memref<?x?xf64>
    %s17 = arith.mulf %s16, %x17 : f64
    %x18 = stencil.gather %c[-2, -4] : memref<?x?xf64>
    %s18 = arith.mulf %s17, %x18 : f64
    %x19 = stencil.gather %c[-2, -3] : memref<?x?xf64>
    %s19 = arith.mulf %s18, %x19 : f64
    %x20 = stencil.gather %c[-2, -2] : memref<?x?xf64>
    %s20 = arith.mulf %s19, %x20 : f64
    %x21 = stencil.gather %c[-2, -1] : memref<?x?xf64>
    %s21 = arith.mulf %s20, %x21 : f64
    %x22 = stencil.gather %c[-2, 0] : memref<?x?xf64>
    %s22 = arith.mulf %s21, %x22 : f64
    %x23 = stencil.gather %c[-2, 1] : memref<?x?xf64>
    %s23 = arith.mulf %s22, %x23 : f64
    %x24 = stencil.gather %c[-2, 2] : memref<?x?xf64>
    %s24 = arith.mulf %s23, %x24 : f64
    %x25 = stencil.gather %c[-2, 3] : memref<?x?xf64>
    %s25 = arith.mulf %s24, %x25 : f64
    %x26 = stencil.gather %c[-2, 4] : memref<?x?xf64>
    %s26 = arith.mulf %s25, %x26 : f64
    %x27 = stencil.gather %c[-1, -4] : memref<?x?xf64>
    %s27 = arith.mulf %s26, %x27 : f64
    %x28 = stencil.gather %c[-1, -3] : memref<?x?xf64>
    %s28 = arith.mulf %s27, %x28 : f64
    %x29 = stencil.gather %c[-1, -2] : memref<?x?xf64>
    %s29 = arith.mulf %s28, %x29 : f64
    %x30 = stencil.gather %c[-1, -1] : memref<?x?xf64>
    %s30 = arith.mulf %s29, %x30 : f64
    %x31 = stencil.gather %c[-1, 0] : memref<?x?xf64>
    %s31 = arith.mulf %s30, %x31 : f64
    %x32 = stencil.gather %c[-1, 1] : memref<?x?xf64>
    %s32 = arith.mulf %s31, %x32 : f64
    %x33 = stencil.gather %c[-1, 2] : memref<?x?xf64>
    %s33 = arith.mulf %s32, %x33 : f64
    %x34 = stencil.gather %c[-1, 3] : memref<?x?xf64>
    %s34 = arith.mulf %s33, %x34 : f64
    %x35 = stencil.gather %c[-1, 4] : memref<?x?xf64>
    %s35 = arith.mulf %s34, %x35 : f64
    %x36 = stencil.gather %c[0, -4] : memref<?x?xf64>
    %s36 = arith.mulf %s35, %x36 : f64
    %x37 = stencil.gather %c[0, -3] : memref<?x?xf64>
    %s37 = arith.mulf %s36, %x37 : f64
    %x38 = stencil.gather %c[0, -2] : memref<?x?xf64>
    %s38 = arith.mulf %s37, %x38 : f64
    %x39 = stencil.gather %c[0, -1] : memref<?x?xf64>
    %s39 = arith.mulf %s38, %x39 : f64
    %x40 = stencil.gather %c[0, 0] : memref<?x?xf64>
    %s40 = arith.mulf %s39, %x40 : f64
    %x41 = stencil.gather %c[0, 1] : memref<?x?xf64>
    %s41 = arith.mulf %s40, %x41 : f64
    %x42 = stencil.gather %c[0, 2] : memref<?x?xf64>
    %s42 = arith.mulf %s41, %x42 : f64
    %x43 = stencil.gather %c[0, 3] : memref<?x?xf64>
    %s43 = arith.mulf %s42, %x43 : f64
    %x44 = stencil.gather %c[0, 4] : memref<?x?xf64>
    %s44 = arith.mulf %s43, %x44 : f64
    %x45 = stencil.gather %c[1, -4] : memref<?x?xf64>
    %s45 = arith.mulf %s44, %x45 : f64
    %x46 = stencil.gather %c[1, -3] : memref<?x?xf64>
    %s46 = arith.mulf %s45, %x46 : f64
    %x47 = stencil.gather %c[1, -2] : memref<?x?xf64>
    %s47 = arith.mulf %s46, %x47 : f64
    %x48 = stencil.gather %c[1, -1] : memref<?x?xf64>
    %s48 = arith.mulf %s47, %x48 : f64
    %x49 = stencil.gather %c[1, 0] : memref<?x?xf64>
    %s49 = arith.mulf %s48, %x49 : f64
    %x50 = stencil.gather %c[1, 1] : memref<?x?xf64>
    %s50 = arith.mulf %s49, %x50 : f64
    %x51 = stencil.gather %c[1, 2] : memref<?x?xf64>
    %s51 = arith.mulf %s50, %x51 : f64
    %x52 = stencil.gather %c[1, 3] : memref<?x?xf64>
    %s52 = arith.mulf %s51, %x52 : f64
    %x53 = stencil.gather %c[1, 4] : memref<?x?xf64>
    %s53 = arith.mulf %s52, %x53 : f64
    %x54 = stencil.gather %c[2, -4] : memref<?x?xf64>
    %s54 = arith.mulf %s53, %x54 : f64
    %x55 = stencil.gather %c[2, -3] : memref<?x?xf64>
    %s55 = arith.mulf %s54, %x55 : f64
    %x56 = stencil.gather %c[2, -2] : memref<?x?xf64>
    %s56 = arith.mulf %s55, %x56 : f64
    %x57 = stencil.gather %c[2, -1] : memref<?x?xf64>
    %s57 = arith.mulf %s56, %x57 : f64
    %x58 = stencil.gather %c[2, 0] : memref<?x?xf64>
    %s58 = arith.mulf %s57, %x58 : f64
    %x59 = stencil.gather %c[2, 1] : memref<?x?xf64>
    %s59 = arith.mulf %s58, %x59 : f64
    %x60 = stencil.gather %c[2, 2] : memref<?x?xf64>
    %s60 = arith.mulf %s59, %x60 : f64
    %x61 = stencil.gather %c[2, 3] : memref<?x?xf64>
    %s61 = arith.mulf %s60, %x61 : f64
    %x62 = stencil.gather %c[2, 4] : memref<?x?xf64>
    %s62 = arith.mulf %s61, %x62 : f64
    %x63 = stencil.gather %c[3, -4] : memref<?x?xf64>
    %s63 = arith.mulf %s62, %x63 : f64
    %x64 = stencil.gather %c[3, -3] : memref<?x?xf64>
    %s64 = arith.mulf %s63, %x64 : f64
    %x65 = stencil.gather %c[3, -2] : memref<?x?xf64>
    %s65 = arith.mulf %s64, %x65 : f64
    %x66 = stencil.gather %c[3, -1] : memref<?x?xf64>
    %s66 = arith.mulf %s65, %x66 : f64
    %x67 = stencil.gather %c[3, 0] : memref<?x?xf64>
    %s67 = arith.mulf %s66, %x67 : f64
    %x68 = stencil.gather %c[3, 1] : memref<?x?xf64>
    %s68 = arith.mulf %s67, %x68 : f64
    %x69 = stencil.gather %c[3, 2] : memref<?x?xf64>
    %s69 = arith.mulf %s68, %x69 : f64
    %x70 = stencil.gather %c[3, 3] : memref<?x?xf64>
    %s70 = arith.mulf %s69, %x70 : f64
    %x71 = stencil.gather %c[3, 4] : memref<?x?xf64>
    %s71 = arith.mulf %s70, %x71 : f64
    %x72 = stencil.gather %c[4, -4] : memref<?x?xf64>
    %s72 = arith.mulf %s71, %x72 : f64
    %x73 = stencil.gather %c[4, -3] : memref<?x?xf64>
    %s73 = arith.mulf %s72, %x73 : f64
    %x74 = stencil.gather %c[4, -2] : memref<?x?xf64>
    %s74 = arith.mulf %s73, %x74 : f64
    %x75 = stencil.gather %c[4, -1] : memref<?x?xf64>
    %s75 = arith.mulf %s74, %x75 : f64
    %x76 = stencil.gather %c[4, 0] : memref<?x?xf64>
    %s76 = arith.mulf %s75, %x76 : f64
    %x77 = stencil.gather %c[4, 1] : memref<?x?xf64>
    %s77 = arith.mulf %s76, %x77 : f64
    %x78 = stencil.gather %c[4, 2] : memref<?x?xf64>
    %s78 = arith.mulf %s77, %x78 : f64
    %x79 = stencil.gather %c[4, 3] : memref<?x?xf64>
    %s79 = arith.mulf %s78, %x79 : f64
    %x80 = stencil.gather %c[4, 4] : memref<?x?xf64>
    %s80 = arith.mulf %s79, %x80 : f64
    stencil.accumulate %s80 to %ub[-1, 0] : memref<?x?xf64>
    stencil.accumulate %s80 to %ub[1, 0] : memref<?x?xf64>
    stencil.accumulate %s80 to %ub[0, -1] : memref<?x?xf64>
    stencil.accumulate %s80 to %ub[0, 1] : memref<?x?xf64>
  }
  return
}
