// RUN: stencil-opt %s --convert-stencil-to-affine | FileCheck %s --implicit-check-not=stencil.snapshot_borders
// RUN: stencil-opt %s --convert-to-omp | FileCheck %s --check-prefix=OMP --implicit-check-not=stencil.snapshot_borders

// The flag that selects border snapshots in a reversed time loop
// (--stencil-adjoint) is settled once the stencil level is left: its value
// stays, the mark goes. Otherwise arith-to-llvm would carry it onto an
// llvm.mlir.constant, where the dialect's verifier rejects it. A flag in
// the input, used other than by the snapshots' code, is lowered the same.

// CHECK-LABEL: func.func @f(
// CHECK:         %[[C:.*]] = arith.constant true
// CHECK:         return %[[C]] : i1
// OMP-LABEL:   llvm.func @f(
// OMP:           %[[C:.*]] = llvm.mlir.constant(true) : i1
// OMP:           llvm.return %[[C]] : i1
func.func @f() -> i1 {
  %c = arith.constant {stencil.snapshot_borders} true
  return %c : i1
}
