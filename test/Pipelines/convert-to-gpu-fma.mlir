// RUN: stencil-opt %stencil_src/examples/wave3d.mlir --stencil-adjoint \
// RUN:   "--convert-to-gpu=format=isa" | FileCheck %s
// RUN: stencil-opt %stencil_src/examples/wave3d.mlir --stencil-adjoint \
// RUN:   "--convert-to-gpu=format=isa fp-contract=1" | FileCheck %s --check-prefix=FMA

// By default the kernels round every product and sum (PTX `.rn` without
// contraction), so that the GPU gives the CPU build's bits. With
// fp-contract=1 (--stencil-allow-contraction, as in convert-to-omp) the
// back end fuses them: the wave step's `2 u_1 - u_2 + c (taps)` and its
// adjoint's gather sums become fused multiply-adds, a third fewer
// floating-point instructions for dense stencils (docs/GPU.md). The PTX
// of all kernels is in the output as escaped strings.

// CHECK-NOT: fma.rn.f64
// CHECK: mul.rn.f64
// CHECK-NOT: fma.rn.f64

// FMA-NOT: mul.rn.f64
// FMA: fma.rn.f64
// FMA-NOT: mul.rn.f64
// FMA-NOT: add.rn.f64
