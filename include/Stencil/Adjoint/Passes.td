//===- Passes.td - Stencil transformation passes -----------*- tablegen -*-===//
//
// This file declares the transformations on stencil IR: reverse-mode AD.
//
//===----------------------------------------------------------------------===//

#ifndef STENCIL_ADJOINT_PASSES_TD
#define STENCIL_ADJOINT_PASSES_TD

include "mlir/Pass/PassBase.td"

def StencilAdjointPass : Pass<"stencil-adjoint", "::mlir::ModuleOp"> {
  let summary = "Build reverse-mode adjoints of stencil functions";
  let description = [{
    For every function with at least one argument marked `stencil.active`
    (or every function named in `functions`), adds a function
    `<name><suffix>` that computes the reverse-mode derivative in scatter
    form: for each gather `x = in[p + o]` of an active array the adjoint
    domain does `in_b[p + o] += (df/dx) * out_b[p]`, with the partials
    recomputed from the primal values.

    The adjoint takes the primal arguments, then one shadow per active
    argument in argument order (an array of the same type for an array; a
    `memref<T>` to which the gradient is added for a scalar of type `T`),
    then one seed per float result of the primal. It returns nothing.
    The primal arguments must hold the values they had when the primal was
    called.

    Domains are reversed in reverse order; intermediate arrays carry their
    adjoints between domains. A domain is replayed before the reverse sweep
    only if a later domain or a later scalar computation reads what it
    writes. The shadow of an assigned (`stencil.store`) array is consumed and
    then reset to zero on the domain (Tapenade's convention); the shadow of
    an accumulated array is only read. Gradients of active scalars used in a
    domain are sums over the domain, computed by domain results in a fixed
    order.

    Derivative rules come from the `AdjointOpInterface` external models
    (docs/Adjoint.md); an op without a rule is reported.

    A function whose body holds a time loop (an `scf.for` at its top level
    that rotates arrays through its iter_args or writes captured arrays)
    is reversed step by step under a checkpointing schedule of the run-time
    library (docs/TimeLoops.md): the loop's body becomes a private step
    function `<name>_step` with its adjoint, the domains before and after
    the loop become `<name>_head` and `<name>_tail`, and the adjoint takes
    one more argument, the number of snapshots. The reversal is planned
    before any IR is built, and every refusal is reported then; `report`
    prints each loop's plan as a JSON remark (`time-loop plan: {...}`):
    the rotated arrays and the rotation, the sums and clocks, what each
    state array's snapshot keeps (`read`, the overwritten `box` and whether
    only its `border` is kept), the shadow hand-overs, the head and the
    tail, and the schedule's steps and actions.

    #### Input invariant
    - Function bodies are a single block of stencil domains, side-effect
      free scalar ops, `memref.alloc`/`dealloc` and `func.return`, or time
      loops: `scf.for` loops over such blocks whose step rotates the
      arrays of consecutive time levels; the adjoint runs the loop
      backwards with binomial checkpointing (docs/TimeLoops.md says which
      loops are accepted).
    - No domain overwrites an array that an earlier domain reads while a
      later computation needs the overwritten values (reported otherwise).

    #### Output IR
    - New `func.func` ops with stencil domains that scatter
      (`stencil.accumulate` at non-zero offsets), reset domains and scalar
      updates; the primal functions are unchanged.
  }];
  let dependentDialects = [
    "::mlir::arith::ArithDialect",
    "::mlir::func::FuncDialect",
    "::mlir::LLVM::LLVMDialect",
    "::mlir::math::MathDialect",
    "::mlir::memref::MemRefDialect",
    "::mlir::scf::SCFDialect",
    "::mlir::stencil::StencilDialect",
  ];
  let options = [
    ListOption<"functions", "functions", "std::string",
               "Functions to differentiate (default: every function with an "
               "argument marked stencil.active)">,
    Option<"suffix", "suffix", "std::string", "\"_adjoint\"",
           "Suffix of the adjoint function names">,
    Option<"resetOutputAdjoints", "reset-output-adjoints", "bool", "true",
           "Reset the shadows of assigned arrays to zero once consumed">,
    Option<"snapshotBorders", "snapshot-borders", "bool", "true",
           "Time loops: snapshots keep only the border of an array that "
           "the step overwrites before reading it">,
    Option<"deferHandOvers", "defer-hand-overs", "bool", "true",
           "Time loops: a shadow the reversal hands over is stored by the "
           "next step reversed, fused into its update, where the value "
           "depends on the shadow handed over alone">,
    Option<"report", "report", "bool", "false",
           "Time loops: print the plan of each loop's reversal as a JSON "
           "remark at the loop">,
  ];
}

#endif // STENCIL_ADJOINT_PASSES_TD
