//===- StencilDialect.td - Stencil dialect definition ------*- tablegen -*-===//
//
// This file declares the `stencil` dialect and the base class of its ops.
//
//===----------------------------------------------------------------------===//

#ifndef STENCIL_DIALECT_STENCILDIALECT_TD
#define STENCIL_DIALECT_STENCILDIALECT_TD

include "mlir/IR/OpBase.td"

def Stencil_Dialect : Dialect {
  let name = "stencil";
  let summary = "Stencil loops with gather reads, centre writes and scatter accumulates";
  let description = [{
    The `stencil` dialect models perfect loop nests over rectangular iteration
    domains with symbolic affine bounds. Inside a `stencil.domain`, arrays
    (memrefs of `f32` or `f64`) are read at constant offsets from the current
    iteration point (`stencil.gather`), written at the current point
    (`stencil.store`, assignment) or accumulated at a constant offset
    (`stencil.accumulate`, `+=`; a non-zero offset is a scatter). The body
    computes with `arith`, `math` and `func.call`.

    This is the representation on which `--stencil-adjoint` builds scatter
    adjoints and on which the scatter-to-gather conversion turns them back
    into race-free gather stencils.
  }];
  let cppNamespace = "::mlir::stencil";
}

/// Base class of all stencil ops.
class Stencil_Op<string mnemonic, list<Trait> traits = []>
    : Op<Stencil_Dialect, mnemonic, traits>;

/// Element types the dialect computes with.
def Stencil_Float : AnyTypeOf<[F32, F64], "f32 or f64">;

/// Arrays: memrefs of any rank and shape with an f32 or f64 element type.
def Stencil_Array : MemRefOf<[F32, F64]>;

#endif // STENCIL_DIALECT_STENCILDIALECT_TD
