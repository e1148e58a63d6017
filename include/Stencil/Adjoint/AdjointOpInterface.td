//===- AdjointOpInterface.td - Reverse-mode AD rules -------*- tablegen -*-===//
//
// This file declares the interface through which ops provide their
// reverse-mode derivative rule to --stencil-adjoint.
//
//===----------------------------------------------------------------------===//

#ifndef STENCIL_ADJOINT_ADJOINTOPINTERFACE_TD
#define STENCIL_ADJOINT_ADJOINTOPINTERFACE_TD

include "mlir/IR/OpBase.td"

def AdjointOpInterface : OpInterface<"AdjointOpInterface"> {
  let cppNamespace = "::mlir::stencil";
  let description = [{
    The reverse-mode derivative rule of an op. Rules are attached to
    upstream ops (and to the stencil ops) as external models, one file per
    dialect, so that neither the stencil dialect nor upstream depends on the
    AD code. `--stencil-adjoint` walks each region it differentiates
    backwards and calls `emitAdjoint` on every op; an op without the
    interface is reported with "has no adjoint rule".
  }];

  let methods = [
    InterfaceMethod<
      /*desc=*/[{
        Emits the adjoint of this op: propagates the adjoints of its results
        to its operands.

        Contract:
        - `builder` points at the end of the adjoint code built so far
          (inside the adjoint domain for ops of a domain body, in the adjoint
          function for top-level ops). Ops created there run after the
          adjoints of every later op.
        - `state.getAdjoint(r)` is the adjoint accumulated for result `r`
          (null means zero: a rule may then emit nothing for `r`).
        - `state.getPrimal(v)` is the primal value of `v` (an operand or
          result of this op) for use in the adjoint code; rules never use
          primal values directly.
        - For every operand `x` with `state.isActive(x)`, the rule calls
          `state.addAdjoint(builder, loc, x, dx)` with the partial derivative
          times the result adjoint. Passive operands get nothing.
        - Array accesses go through `state.getShadow(array)` (null for
          passive arrays); stores register their reset with
          `state.addReset`.
        Returns failure, after emitting a diagnostic on the op, if the op
        cannot be differentiated in this form.
      }],
      /*retTy=*/"::llvm::LogicalResult",
      /*methodName=*/"emitAdjoint",
      /*args=*/(ins "::mlir::OpBuilder &":$builder,
                    "::mlir::stencil::AdjointState &":$state)>,
  ];
}

#endif // STENCIL_ADJOINT_ADJOINTOPINTERFACE_TD
