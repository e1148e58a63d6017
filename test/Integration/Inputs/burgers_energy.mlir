// burgers1d (examples/burgers1d.mlir) with the coefficient C active and the
// energy of the new state as the result: the adjoint's gradient of C and the
// primal's result are sums over the domain, reduced across ranks in the
// order of one process when distributed (test/Integration/mpi-sums.test).

func.func @burgers_energy(%u: memref<?xf64> {stencil.active},
                     %u_1: memref<?xf64> {stencil.active}, %C: f64 {stencil.active}, %D: f64,
                     %n: index) -> f64 {
  stencil.domain (%i) = (1) to (%n - 1) {
    %zero = arith.constant 0.0 : f64
    %two = arith.constant 2.0 : f64

    %u1_m = stencil.gather %u_1[-1] : memref<?xf64>
    %u1_c = stencil.gather %u_1[0] : memref<?xf64>
    %u1_p = stencil.gather %u_1[1] : memref<?xf64>

    // Upwinded convection: ux = max(u,0) * (u[i]-u[i-1]) + min(u,0) * (u[i+1]-u[i])
    %ap = arith.maximumf %u1_c, %zero : f64
    %am = arith.minimumf %u1_c, %zero : f64
    %uxm = arith.subf %u1_c, %u1_m : f64
    %uxp = arith.subf %u1_p, %u1_c : f64
    %conv_m = arith.mulf %ap, %uxm : f64
    %conv_p = arith.mulf %am, %uxp : f64
    %ux = arith.addf %conv_m, %conv_p : f64

    // Diffusion: u[i+1] + u[i-1] - 2.0 * u[i]
    %sides = arith.addf %u1_p, %u1_m : f64
    %two_u = arith.mulf %two, %u1_c : f64
    %uxx = arith.subf %sides, %two_u : f64

    // u = u_1 - C * ux + D * uxx
    %C_ux = arith.mulf %C, %ux : f64
    %D_uxx = arith.mulf %D, %uxx : f64
    %advected = arith.subf %u1_c, %C_ux : f64
    %u_new = arith.addf %advected, %D_uxx : f64
    stencil.store %u_new to %u : memref<?xf64>
  }
  // The energy of the new state, a sum over the domain.
  %e = stencil.domain (%i) = (1) to (%n - 1) -> (f64) {
    %x = stencil.gather %u[0] : memref<?xf64>
    %x2 = arith.mulf %x, %x : f64
    stencil.yield %x2 : f64
  }
  return %e : f64
}
