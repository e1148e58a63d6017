// Heat conduction with a variable diffusivity, and an objective of the
// state at the end of the run (docs/TimeLoops.md, section 1.1): the
// gradient with respect to the initial temperature and to the diffusivity
// field, for optimal control or the recovery of a material.
//
//   u_next = u + k * (u[i-1,j] + u[i+1,j] + u[i,j-1] + u[i,j+1] - 4 u)
//
// on the interior of an n x m grid, T steps through two rotated buffers
// whose edges hold the boundary values (the same in both), k <= 1/4 for
// stability. The objective is the misfit of the final temperature against
// a target, plus a small penalty on the diffusivity's roughness:
//
//   J = 1/2 sum (u_T - target)^2 + alpha/2 sum (k[i+1,j] - k[i,j])^2
//                                            + (k[i,j+1] - k[i,j])^2
//
// examples/python/heat_control.py drives it from Python.
func.func @heat_control(%u0: memref<?x?xf64> {stencil.active},
                        %u1: memref<?x?xf64> {stencil.active},
                        %k: memref<?x?xf64> {stencil.active},
                        %target: memref<?x?xf64>, %alpha: f64, %n: index,
                        %m: index, %steps: index) -> f64 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %nm1 = arith.subi %n, %c1 : index
  %mm1 = arith.subi %m, %c1 : index
  %res:2 = scf.for %t = %c0 to %steps step %c1
      iter_args(%u = %u0, %next = %u1)
      -> (memref<?x?xf64>, memref<?x?xf64>) {
    stencil.domain (%i, %j) = (1, 1) to (%nm1, %mm1) {
      %four = arith.constant 4.0 : f64
      %a = stencil.gather %u[-1, 0] : memref<?x?xf64>
      %b = stencil.gather %u[1, 0] : memref<?x?xf64>
      %c = stencil.gather %u[0, -1] : memref<?x?xf64>
      %d = stencil.gather %u[0, 1] : memref<?x?xf64>
      %x = stencil.gather %u[0, 0] : memref<?x?xf64>
      %kk = stencil.gather %k[0, 0] : memref<?x?xf64>
      %ab = arith.addf %a, %b : f64
      %cd = arith.addf %c, %d : f64
      %s = arith.addf %ab, %cd : f64
      %x4 = arith.mulf %four, %x : f64
      %lap = arith.subf %s, %x4 : f64
      %kl = arith.mulf %kk, %lap : f64
      %v = arith.addf %x, %kl : f64
      stencil.store %v to %next : memref<?x?xf64>
    }
    scf.yield %next, %u : memref<?x?xf64>, memref<?x?xf64>
  }
  // The misfit of the final state (%res#0: the array in place of %u after
  // the last step).
  %misfit = stencil.domain (%i, %j) = (1, 1) to (%nm1, %mm1) -> f64 {
    %half = arith.constant 0.5 : f64
    %x = stencil.gather %res#0[0, 0] : memref<?x?xf64>
    %y = stencil.gather %target[0, 0] : memref<?x?xf64>
    %e = arith.subf %x, %y : f64
    %e2 = arith.mulf %e, %e : f64
    %h = arith.mulf %half, %e2 : f64
    stencil.yield %h : f64
  }
  // The roughness of k.
  %rough = stencil.domain (%i, %j) = (0, 0) to (%nm1, %mm1) -> f64 {
    %half = arith.constant 0.5 : f64
    %kk = stencil.gather %k[0, 0] : memref<?x?xf64>
    %ki = stencil.gather %k[1, 0] : memref<?x?xf64>
    %kj = stencil.gather %k[0, 1] : memref<?x?xf64>
    %di = arith.subf %ki, %kk : f64
    %dj = arith.subf %kj, %kk : f64
    %di2 = arith.mulf %di, %di : f64
    %dj2 = arith.mulf %dj, %dj : f64
    %s = arith.addf %di2, %dj2 : f64
    %h = arith.mulf %half, %s : f64
    stencil.yield %h : f64
  }
  %penalty = arith.mulf %alpha, %rough : f64
  %J = arith.addf %misfit, %penalty : f64
  return %J : f64
}
