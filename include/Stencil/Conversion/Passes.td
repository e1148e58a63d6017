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
    rank-0 array) is summed like a domain result, in the same order: in a
    value carried through the slice's loops, one partial sum per slice
    (without `reassoc`, so that the distributed sums can repeat the order
    across ranks). Otherwise each slice sums into partial sums of its own,
    indexed by the iteration dimensions the access uses, and after the nest
    each element adds its slices' partial sums in index order, accumulate
    after accumulate in body order. The order depends on the sizes alone,
    never on the threads. In a domain marked `stencil.distributed_sum`,
    every point's term of such a reduction goes to the distributed
    run-time library instead, which returns the partial sums of that order
    across ranks (docs/DistributedSums.md). `report`
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
    "::mlir::func::FuncDialect",
    "::mlir::LLVM::LLVMDialect",
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

//===----------------------------------------------------------------------===//
// The C source route (docs/CSource.md): lowered loops to EmitC
//===----------------------------------------------------------------------===//

def StencilNarrowGuardsPass
    : Pass<"stencil-narrow-guards", "::mlir::ModuleOp"> {
  let summary = "Compute the domains' non-empty guards in 64-bit integers";
  let description = [{
    The lowerings guard each nest whose bounds are symbolic with a test that
    its domain is not empty, computed exactly in 128-bit integers
    (`Stencil/Conversion/AffineEmitter.h`, `emitNonEmptyGuard`; the
    gather conversion, the cut and `--convert-stencil-to-affine` all emit
    them). C99 has no 128-bit integer type, so the C source route
    (`convert-to-c`, docs/CSource.md) runs this pass, which rewrites that
    arithmetic to 64-bit (`int64_t`). The guard is then exact while every
    bound expression and each of its terms stays within the 64-bit range:
    with bound operands (sizes) below 2^62 in magnitude and bounds of the
    form `a*n + b` with |a| <= 1 and |b| < 2^62, always. The object-file
    route keeps the exact guards.

    #### Input invariant
    - 128-bit integers appear only as the guards' arithmetic:
      `arith.constant`, `arith.index_cast` from `index`, `addi`, `subi`,
      `muli`, `floordivsi`, `ceildivsi` and `cmpi`. Any other op on 128-bit
      integers, or a constant outside the 64-bit range, is reported at its
      location.

    #### Output IR
    - The same ops on `i64`; no 128-bit integer remains.
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect"];
}

def StencilCArraysPass : Pass<"stencil-c-arrays", "::mlir::ModuleOp"> {
  let summary = "Turn array arguments into C pointers plus extents";
  let description = [{
    The first step of the C source route (`convert-to-c`,
    docs/CSource.md), on loops already lowered to SCF. Every function of
    the module gets the signature a C caller uses:

    - an array argument `memref<?x...xT>` (identity layout, element type
      `f32`, `f64` or a signless integer of 8 to 64 bits) becomes a
      pointer `T *restrict` (`const T *restrict` when the function never
      writes it) to its first element, followed by one `int64_t` extent
      per dynamic (`?`) dimension, in dimension order; the data are
      contiguous, in row-major (C) order;
    - an `index` argument becomes `int64_t`.

    Loads and stores become `emitc.subscript` of the pointer at the
    row-major linear index (`((i0 * n1) + i1) * n2 + i2`) with
    `emitc.load` / `emitc.assign`; `memref.dim` becomes the extent.
    Temporaries (`memref.alloc` with identity layout) become `malloc`
    calls and `memref.dealloc` `free`. A comment (`emitc.verbatim`) right
    before each function names its C parameters in order, after the
    arguments' names in the source (their `NameLoc`, which stencil-compile
    sets) or `arg<i>`: `// f: u, extent(u, 0), n`.

    #### Input invariant
    - Loops in SCF (after `--lower-affine`), no `stencil` op.
    - Every function is defined in the module (no declarations other than
      the OpenMP runtime's `omp_get_max_threads`), no call passes an array,
      and no array is returned.

    Anything else on arrays (a view, a copy, an atomic update, a
    non-identity layout, `memref.alloca`) is reported at its location as
    not supported by the C source route.

    #### Output IR
    - Functions whose array arguments are `!emitc.opaque` pointers; array
      accesses as EmitC subscripts; no `memref` op or type.
  }];
  let dependentDialects = [
    "::mlir::arith::ArithDialect",
    "::mlir::emitc::EmitCDialect",
  ];
}

def StencilOMPPragmasPass
    : Pass<"stencil-omp-pragmas", "::mlir::ModuleOp"> {
  let summary = "Put `#pragma omp parallel for` before outermost parallel loops";
  let description = [{
    Before `--scf-parallel-for-to-nested-fors` in the C source route
    (`convert-to-c`, docs/CSource.md), puts an `emitc.verbatim` with
    `#pragma omp parallel for` right before each `scf.parallel` that is not
    nested in another one and has no results (with `collapse(k)` when it
    has k > 1 dimensions), marked with the unit attribute `c_omp_pragma`,
    so that after the conversion to EmitC the pragma stands right before
    the C `for` loop of its outermost dimension. Its iterations are
    independent, as the lowering made them.

    A parallel loop with results (an `scf.reduce` of values) gets no
    pragma: OpenMP's `reduction` clause would sum in an order that depends
    on the threads, where the project's sums have a fixed order. The
    lowering of domain results does not produce such loops (it sums
    per-slice partial sums in index order), and the route's later
    conversion refuses them (`scf-parallel-for-to-nested-fors` leaves
    them), so this only concerns loops another pass wrote.

    #### Input invariant
    - Loops in SCF.

    #### Output IR
    - The same, with `emitc.verbatim` pragma lines.
  }];
  let dependentDialects = ["::mlir::emitc::EmitCDialect"];
}

def StencilConvertToEmitCPass
    : Pass<"stencil-convert-to-emitc", "::mlir::ModuleOp"> {
  let summary = "Convert the C route's arith, math, SCF and func ops to EmitC";
  let description = [{
    The last conversion of the C source route (`convert-to-c`,
    docs/CSource.md): upstream's arith, SCF and func patterns to EmitC,
    with `index` as `size_t`; each math op on f32/f64 that has a C99
    function of the same meaning as a call of it (`sqrt`, `sqrtf`; the
    list is in MathToC99.cpp), plus the module's
    preamble: `emitc.include` of `<stdint.h>`, `<stddef.h>`,
    `<stdbool.h>`, `<stdlib.h>` and `<math.h>`, and, if a function calls
    `omp_get_max_threads`, `<omp.h>` when compiled with OpenMP or a
    one-thread stand-in without. Every function is defined before it is
    called (the C source needs no prototypes), and each OpenMP pragma of
    `--stencil-omp-pragmas` (marked `c_omp_pragma`) stands right before its
    `emitc.for`, as C requires.

    Signed divisions and remainders of `index` values (`arith.divsi`,
    `arith.remsi`, as `--arith-expand` leaves `ceildivsi`/`floordivsi`)
    are computed on `int64_t` first: upstream's patterns would divide
    their `size_t` forms, an unsigned division in C, which is wrong for
    the negative values that bound arithmetic takes on small domains.

    #### Input invariant
    - The output of `--stencil-c-arrays`, after `--arith-expand` and
      `--scf-parallel-for-to-nested-fors`.

    #### Output IR
    - Only EmitC ops (checked: any other op left is reported at its
      location); `mlir::emitc::translateToCpp` prints it as C99.
  }];
  let dependentDialects = ["::mlir::emitc::EmitCDialect"];
}

#endif // STENCIL_CONVERSION_PASSES_TD
