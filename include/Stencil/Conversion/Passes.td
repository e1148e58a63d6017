//===- Passes.td - Stencil to affine loops ----------------------------*- tablegen -*-===//
//
// The lowering of the stencil dialect to affine loop nests, and the outlining
// of domains whose bounds vary in a loop that runs before it. The gather
// conversion before them is in Stencil/Gather/Passes.td; the passes after
// them in Stencil/Target/Passes.td.
//
//===----------------------------------------------------------------------===//

#ifndef STENCIL_CONVERSION_PASSES_TD
#define STENCIL_CONVERSION_PASSES_TD

include "mlir/Pass/PassBase.td"

def StencilOutlineDomainsPass
    : Pass<"stencil-outline-domains", "::mlir::ModuleOp"> {
  let summary = "Move domains whose bounds vary inside a loop into functions";
  let description = [{
    The lowerings build affine loop nests, whose bounds must be affine
    symbols: arguments of the function, or values computed at its top
    level. A domain inside an `scf.for` (a time loop) whose bounds are
    computed there from what changes per step (a source position loaded at
    `%t`, a receiver moved by a scalar the loop carries) has none. This
    pass moves each such domain into a private function of its own,
    `@<function>_domain<k>`, that takes every value the domain uses from
    outside (its bound operands among them) as arguments, where they are
    symbols, and calls it in the domain's place. Other domains are left as
    they are. The function is not marked `stencil.noalias`: the arrays a
    step passes may overlap.
  }];
  let dependentDialects = ["::mlir::func::FuncDialect"];
}

def ConvertStencilToAffinePass
    : Pass<"convert-stencil-to-affine", "::mlir::ModuleOp"> {
  let summary = "Lower stencil domains to affine loop nests";
  let description = [{
    Rewrites every `stencil.domain` into an affine loop nest: gathers and
    centre writes become `affine.load` / `affine.store` with the constant
    offsets folded into the access maps.

    Dimensions whose extent is the constant 1 get no loop. The outermost
    remaining dimension becomes an `affine.parallel` (which
    `convert-scf-to-openmp` later turns into an OpenMP worksharing loop) and
    the inner dimensions `affine.for` loops, so that the innermost loop stays
    a simple counted loop that LLVM vectorizes. With `all-parallel` (the
    GPU pipeline), every non-unit dimension of a domain without results is
    one multi-dimensional `affine.parallel` instead, which maps onto GPU
    blocks and threads.

    A domain that scatters (`stencil.accumulate` at a non-zero offset) is
    not parallel as written. The `scatter` option chooses how it runs:
    `serial` (all loops `affine.for`, the conventional AD adjoint) or
    `atomic` (parallel, every update a `memref.atomic_rmw addf`). To get a
    race-free parallel gather instead, run `--stencil-scatter-to-gather`
    first; `gather` states that it has run, and makes a domain that still
    scatters an error.

    Domain results (sums over the domain) are computed in a fixed order
    whatever the number of threads: each index of the parallel dimension
    sums its slice serially into a temporary buffer, and the buffer is then
    summed serially in index order.

    #### Reductions
    An accumulate whose `dims` is not a permutation of the iteration
    dimensions (a selection, a repetition, a fixed element, a rank-0 array)
    sums over the points that share an element. The parallel dimension is
    the same; each of its slices sums its points in lexicographic order. An
    accumulate updates the array in place when each element belongs to one
    slice: it uses the parallel dimension, at the same offset as every other
    accumulate into that array. A fully reduced access (a fixed element, a
    rank-0 array) is summed like a domain result: in a value carried through
    the slice's loops, one partial sum per slice, and its additions carry
    `reassoc` so that LLVM may vectorize the innermost loop's sum (an order
    fixed when the code is compiled). Otherwise each slice sums into partial
    sums of its own, indexed by the iteration dimensions the access uses,
    and after the nest each element adds its slices' partial sums in index
    order, accumulate after accumulate in body order. The order depends on
    the sizes and the compiled code, never on the threads. `report`
    prints the plan as a remark: `slice_dim`, then per reduction `op` (its
    position in the body), `direct`, `carried`, `used`.

    #### The fused reset
    An adjoint resets each output adjoint after reading it (a domain that
    only stores a constant, right after the scatter domain, with the same
    bounds). A separate sweep costs a full pass over the array. With
    `fuse-reset` (default), when the scatter domain reads that array only at
    its centre and never writes it, the compact form instead runs the core
    of dimension 0 in parallel blocks, each block in order; after gather
    iteration `q`, plane `q - max o_0` is reset, once every iteration that
    reads it (`q - max o_0 + o_0` for every offset) has run in the same
    block. The `max o_0 - min o_0` planes at the start of each block and the
    last ones of the domain, read across blocks or by the upper slab, are
    reset by a second parallel sweep afterwards. By default there is one
    block per thread: the core's iterations divided by
    `omp_get_max_threads()`, at least 16 (8192 in 1-D), computed at run time
    before the nests (where the domain's bounds are defined at the
    function's top level; else blocks of that least size).
    `reset-block=N` fixes every block at N iterations instead. In 2-D
    and up, with `reset-rows` (default), that plane is reset row by row
    while plane `q` runs: row `r` right after core row `r + m_1` of plane
    `q`, its last reader (`m_1`: the largest dimension-1 offset among the
    writes at `max o_0`), while the row is still in cache; the rows of the
    dimension-1 slabs after the plane. Each point is still written by one
    iteration, so results stay independent of the number of threads; no
    memory is added. `boundary=exact` keeps the separate sweep. Where
    every statement that reads the array reads it at iteration offset zero
    (as after a cut, `--stencil-cut-shared`), there is no lag to keep: the
    reset becomes the last statement, storing the constant at each point
    after that point's last read, in every nest and with every boundary
    strategy; no blocks, no second sweep, and the gather sweep stays one
    parallel loop (`one-outer-loop`).

    #### Input invariant
    - Every bound operand of a domain is a valid affine symbol where the
      domain stands (for instance a function argument); otherwise the pass
      reports an error.

    #### Output IR
    - `affine.parallel`, `affine.for`, `affine.load`, `affine.store`,
      `affine.apply`, `memref.alloc`/`dealloc` (reductions),
      `memref.atomic_rmw` (atomic scatters), plus the cloned body ops.
      No stencil op remains.
  }];
  let dependentDialects = [
    "::mlir::affine::AffineDialect",
    "::mlir::arith::ArithDialect",
    "::mlir::memref::MemRefDialect",
    "::mlir::scf::SCFDialect",
  ];
  let options = [
    Option<"scatter", "scatter", "::mlir::stencil::ScatterLowering",
           "::mlir::stencil::ScatterLowering::Serial",
           "How to run domains that scatter (gather: none may be left)",
           "::mlir::stencil::scatterLoweringValues()">,
    Option<"report", "report", "bool", "false",
           "Print the plan of each domain's reductions (accumulates through "
           "a non-permutation) as a JSON remark">,
    Option<"allParallel", "all-parallel", "bool", "false",
           "The GPU form: every dimension of a parallel domain without "
           "results one multi-dimensional affine.parallel; a domain with "
           "results sums its partial sums in a one-iteration "
           "affine.parallel into one-element buffers the host reads">,
  ];
}

#endif // STENCIL_CONVERSION_PASSES_TD
