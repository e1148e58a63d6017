// Each stage of the lowering of the paper's 1D primal, run on its own.
// RUN: stencil-opt %s --convert-stencil-to-affine | FileCheck %s --check-prefix=AFFINE
// RUN: stencil-opt %s --convert-stencil-to-affine --lower-affine | FileCheck %s --check-prefix=SCF
// RUN: stencil-opt %s --convert-stencil-to-affine --lower-affine --convert-scf-to-openmp --stencil-merge-omp-parallel | FileCheck %s --check-prefix=OMP
// RUN: stencil-opt %s --convert-to-omp | FileCheck %s --check-prefix=LLVM

// AFFINE-LABEL: func.func @paper1d
// AFFINE: affine.parallel (%[[I:.*]]) = (1) to (symbol(%{{.*}})) {
// AFFINE: affine.load %{{.*}}[%[[I]] - 1]
// AFFINE: affine.load %{{.*}}[%[[I]] + 1]
// AFFINE: affine.store %{{.*}}, %{{.*}}[%[[I]]]

// SCF-LABEL: func.func @paper1d
// SCF: scf.parallel (%[[I:.*]]) = (%{{.*}}) to (%{{.*}}) step (%{{.*}}) {
// SCF: memref.load
// SCF: memref.store %{{.*}}, %{{.*}}[%[[I]]]
// SCF-NOT: affine.

// OMP-LABEL: func.func @paper1d
// OMP: omp.parallel {
// OMP-NEXT: omp.wsloop {
// OMP-NEXT: omp.loop_nest (%[[I:.*]]) : index = (%{{.*}}) to (%{{.*}}) step (%{{.*}}) {
// OMP: memref.store %{{.*}}, %{{.*}}[%[[I]]]
// OMP: omp.yield
// OMP: omp.terminator
// OMP-NOT: scf.parallel

// LLVM: llvm.func @paper1d(%{{.*}}: !llvm.ptr {llvm.noalias}, %{{.*}}: !llvm.ptr {llvm.noalias},
// LLVM: omp.parallel
// LLVM: omp.wsloop
// LLVM: llvm.store
// LLVM: llvm.func @_mlir_ciface_paper1d(
func.func @paper1d(%r: memref<?xf64>, %c: memref<?xf64>, %u: memref<?xf64>, %n: index) {
  stencil.domain (%i) = (1) to (%n) {
    %two = arith.constant 2.0 : f64
    %three = arith.constant 3.0 : f64
    %four = arith.constant 4.0 : f64
    %um = stencil.gather %u[-1] : memref<?xf64>
    %u0 = stencil.gather %u[0] : memref<?xf64>
    %up = stencil.gather %u[1] : memref<?xf64>
    %cc = stencil.gather %c[0] : memref<?xf64>
    %a = arith.mulf %two, %um : f64
    %b = arith.mulf %three, %u0 : f64
    %d = arith.mulf %four, %up : f64
    %e = arith.subf %a, %b : f64
    %f = arith.addf %e, %d : f64
    %v = arith.mulf %cc, %f : f64
    stencil.store %v to %r : memref<?xf64>
  }
  return
}

// FMA contraction only when asked for.
// RUN: stencil-opt %s --convert-to-omp | mlir-translate --mlir-to-llvmir | FileCheck %s --check-prefix=NOCONTRACT
// RUN: stencil-opt %s --convert-to-omp="fp-contract=1" | mlir-translate --mlir-to-llvmir | FileCheck %s --check-prefix=CONTRACT
// NOCONTRACT-NOT: contract
// CONTRACT: fmul contract double
