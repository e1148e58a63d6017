//===- adjoint-scf-if-select.mlir - The same choices as arith.select ------===//
//
// sqrt_clip and safe_div of adjoint-scf-if.mlir with the choice written as
// arith.select: both values are computed at every point, and the rule of
// select multiplies the untaken one's derivative (NaN or inf where t < 0 or
// x == 0) by zero, which gives NaN. adjoint-scf-if.test checks that the
// checker reports these adjoints as non-finite: why such a choice must be
// an scf.if.
//
//===----------------------------------------------------------------------===//

func.func @sqrt_clip(%u: memref<?xf64> {stencil.active}, %r: memref<?xf64> {stencil.active},
                     %n: index) {
  stencil.domain (%i) = (1) to (%n - 1) {
    %a = stencil.gather %u[-1] : memref<?xf64>
    %b = stencil.gather %u[1] : memref<?xf64>
    %t = arith.subf %a, %b : f64
    %zero = arith.constant 0.0 : f64
    %c = arith.cmpf ogt, %t, %zero : f64
    %s = math.sqrt %t : f64
    %x = arith.select %c, %s, %zero : f64
    stencil.store %x to %r : memref<?xf64>
  }
  return
}

func.func @safe_div(%u: memref<?x?xf64> {stencil.active}, %c: memref<?x?xf64>,
                    %r: memref<?x?xf64> {stencil.active}, %n: index) {
  stencil.domain (%i, %j) = (1, 0) to (%n, %n - 1) {
    %a = stencil.gather %u[-1, 0] : memref<?x?xf64>
    %b = stencil.gather %u[0, 1] : memref<?x?xf64>
    %w = stencil.gather %c[0, 0] : memref<?x?xf64>
    %zero = arith.constant 0.0 : f64
    %two = arith.constant 2.0 : f64
    %b2 = arith.mulf %two, %b : f64
    %q = arith.addf %a, %b2 : f64
    %x = arith.maxnumf %w, %zero : f64
    %nz = arith.cmpf one, %x, %zero : f64
    %d = arith.divf %q, %x : f64
    %l = math.log %x : f64
    %m = arith.mulf %q, %l : f64
    %s = arith.addf %d, %m : f64
    %nq = arith.negf %q : f64
    %y = arith.select %nz, %s, %nq : f64
    stencil.store %y to %r : memref<?x?xf64>
  }
  return
}
