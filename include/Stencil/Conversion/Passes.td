//===- Passes.td - Stencil lowering passes -----------------*- tablegen -*-===//
//
// This file declares the passes that lower the stencil dialect towards
// affine loops and native code.
//
//===----------------------------------------------------------------------===//

#ifndef STENCIL_CONVERSION_PASSES_TD
#define STENCIL_CONVERSION_PASSES_TD

include "mlir/Pass/PassBase.td"

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
    a simple counted loop that LLVM vectorizes.

    A domain that scatters (`stencil.accumulate` at a non-zero offset) is
    not parallel as written. The `scatter` option chooses how it runs:
    `serial` (all loops `affine.for`, the conventional AD adjoint) or
    `atomic` (parallel, every update a `memref.atomic_rmw addf`). To get a
    race-free parallel gather instead, run `--stencil-scatter-to-gather`
    first.

    Domain results (sums over the domain) are computed in a fixed order
    whatever the number of threads: each index of the parallel dimension
    sums its slice serially into a temporary buffer, and the buffer is then
    summed serially in index order.

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
    Option<"scatter", "scatter", "::mlir::stencil::ScatterMode",
           "::mlir::stencil::ScatterMode::Serial",
           "How to run domains that scatter", [{::llvm::cl::values(
             clEnumValN(::mlir::stencil::ScatterMode::Serial, "serial",
                        "serial loops (conventional adjoint)"),
             clEnumValN(::mlir::stencil::ScatterMode::Atomic, "atomic",
                        "parallel loops with atomic updates"))}]>,
  ];
}

def StencilScatterToGatherPass
    : Pass<"stencil-scatter-to-gather", "::mlir::ModuleOp"> {
  let summary = "Turn scatter domains into race-free parallel gather nests";
  let description = [{
    Rewrites every `stencil.domain` that scatters (a `stencil.accumulate`
    at a non-zero offset) into affine loop nests in which each iteration
    writes only its own point, following the adjoint stencils of Hückelheim
    et al. (ICPP 2019), generalised so that it is exact for every domain size
    and offset pattern.

    Each write `out[p + o] += v(p)` of the domain is a *statement* with
    iteration offset `o`. Shifted by `-o` it writes the centre:
    `out[q] += v(q - o)`, valid where `q - o` lies in the domain. In the
    *core*, `[lower + max o, upper + min o)` per dimension, every statement
    is valid: the core nest evaluates all of them, sums the contributions to
    each array in program order and updates each array element with one
    load and one store. Points outside the core are covered by boundary
    nests chosen by `boundary`:

    - `compact` (default): per-dimension peeling. For each dimension with
      offsets of more than one value, a lower and an upper slab; inside a
      slab every statement is guarded by its validity (`affine.if`). At most
      `2 d + 1` nests.
    - `exact`: PerforAD's disjoint split. Each dimension is cut at
      `lower + o` and `upper + o` for every distinct offset `o`; every box of
      the product runs, unguarded, exactly the statements valid in it, and
      boxes with none are dropped. Up to `(2 n - 1)^d` nests. The split is
      only exact when every dimension has at least `max o - min o`
      iterations, so it is guarded by that condition and falls back to the
      compact nests otherwise.

    Every nest of more than one point is parallel; the order in which
    contributions are added at a point is fixed by the program, so results
    do not depend on the number of threads. No atomics, no copies, no extra
    memory. A domain that also computes results is split first: a copy
    without writes keeps the results. The nests run only if the domain is
    non-empty in exact (128-bit) arithmetic, so that bounds that wrap
    around in 64 bits never start a loop.

    Work limits keep the conversion fast on any input. The exact split has
    up to `prod_k (2 m_k - 1)` boxes for `m_k` distinct offsets in dimension
    `k`; above `max-exact-nests` the domain uses the compact form and a
    remark says so. Every nest evaluates every shifted statement, and each
    statement recomputes the part of the body it depends on, so the cloned
    body grows with nests times statements times body size (quadratically
    in the number of taps for a nonlinear body): above `max-gather-ops`
    the pass fails with an error at the domain.

    #### Input invariant
    - Bound operands are valid affine symbols where the domain stands.

    #### Output IR
    - `affine.parallel` / `affine.for` / `affine.if` nests with
      `affine.load` / `affine.store`; domains without scatters are left for
      `--convert-stencil-to-affine`.
  }];
  let dependentDialects = [
    "::mlir::affine::AffineDialect",
    "::mlir::arith::ArithDialect",
    "::mlir::scf::SCFDialect",
  ];
  let options = [
    Option<"boundary", "boundary", "::mlir::stencil::BoundaryStrategy",
           "::mlir::stencil::BoundaryStrategy::Compact",
           "How points outside the core are covered", [{::llvm::cl::values(
             clEnumValN(::mlir::stencil::BoundaryStrategy::Compact, "compact",
                        "per-dimension peeling with guarded statements"),
             clEnumValN(::mlir::stencil::BoundaryStrategy::Exact, "exact",
                        "PerforAD's disjoint split, guarded by a size check"))}]>,
    Option<"reportNests", "report-nests", "bool", "false",
           "Emit a remark at each converted domain with its nest counts">,
    Option<"maxExactNests", "max-exact-nests", "uint64_t",
           "::mlir::stencil::kDefaultMaxExactNests",
           "Above this many boxes, boundary=exact falls back to compact "
           "(with a remark)">,
    Option<"maxGatherOps", "max-gather-ops", "uint64_t",
           "::mlir::stencil::kDefaultMaxGatherOps",
           "Fail on a domain whose gather form would clone more body ops "
           "than this (nests times the shifted statements' body slices)">,
  ];
}

def StencilMergeOMPParallelPass
    : Pass<"stencil-merge-omp-parallel", "::mlir::ModuleOp"> {
  let summary = "Run consecutive OpenMP parallel regions in one thread team";
  let description = [{
    `convert-scf-to-openmp` opens one `omp.parallel` region per parallel
    loop, so a function with several nests (the core and boundary nests of
    a gather adjoint, a reset of an output adjoint, ...) forks and joins a
    team per nest. This pass merges every run of `omp.parallel` ops that are
    consecutive in a block, or separated only by side-effect free ops
    (which are hoisted above the run), into one region. Each worksharing
    loop keeps its implicit barrier, so the nests still run one after the
    other.

    #### Input invariant
    - Output of `convert-scf-to-openmp`: `omp.parallel` regions with one
      block and no clauses.

    #### Output IR
    - Fewer `omp.parallel` regions; the worksharing loops are unchanged.
  }];
  let dependentDialects = ["::mlir::omp::OpenMPDialect"];
}

def StencilAllowContractionPass
    : Pass<"stencil-allow-contraction", "::mlir::ModuleOp"> {
  let summary = "Allow floating-point contraction (FMA) in arith ops";
  let description = [{
    Adds the `contract` fast-math flag to every arith op with fast-math
    flags, so that LLVM may fuse multiplies and adds into FMAs. This changes
    results in the last bits, so the pipeline only runs it when asked
    (`convert-to-omp="fp-contract=1"`); results stay independent of the
    thread count.

    #### Input invariant
    - None; it runs where arith ops still exist (before the LLVM
      conversion).

    #### Output IR
    - The same ops, each arith op with fast-math flags also `contract`.
  }];
}

def StencilInlineAllocaScopesPass
    : Pass<"stencil-inline-alloca-scopes", "::mlir::ModuleOp"> {
  let summary = "Inline memref.alloca_scope regions that allocate nothing";
  let description = [{
    `convert-scf-to-openmp` wraps the body of a parallel loop that contains
    a call in a `memref.alloca_scope`, since the call might allocate on the
    stack. That region must keep a single block, so a guarded statement
    (`scf.if`) inside it cannot be lowered to control flow. A call
    allocates in its own frame, not in the caller's scope, so a scope whose
    region holds no `memref.alloca` of its own is a no-op: this pass inlines
    such scopes. (The upstream canonicalization keeps them because it treats
    calls as possibly allocating.)

    #### Input invariant
    - None (typically the output of `convert-scf-to-openmp`).

    #### Output IR
    - The same IR without alloca scopes that allocate nothing.
  }];
  let dependentDialects = ["::mlir::memref::MemRefDialect"];
}

def StencilPrepareABIPass : Pass<"stencil-prepare-abi", "::mlir::ModuleOp"> {
  let summary = "Mark public functions for the C-callable ABI";
  let description = [{
    Adds `llvm.emit_c_interface` to every public `func.func` that has a
    body, so that the LLVM lowering emits a `_mlir_ciface_<name>` wrapper
    taking pointers to memref descriptors (see docs/ABI.md). Those with
    array arguments also get `stencil.noalias`, the ABI's promise that the
    arrays passed to one call do not overlap (docs/Dialect.md);
    `--stencil-annotate-noalias` states it to LLVM after the lowering.
    `stencil.active` is removed from their arguments: it means nothing past
    differentiation, and the lowering would copy it onto the wrapper's
    descriptor pointers, where the dialect verifier rejects it.

    #### Input invariant
    - `func.func` ops not yet converted to the LLVM dialect; memref
      arguments will be expanded with the default calling convention.

    #### Output IR
    - The same functions, with `llvm.emit_c_interface` and, where they take
      arrays, `stencil.noalias` added, and without `stencil.active`.
  }];
}

def StencilAnnotateNoAliasPass
    : Pass<"stencil-annotate-noalias", "::mlir::ModuleOp"> {
  let summary = "Mark the data pointers of array arguments noalias";
  let description = [{
    Runs after the lowering to the LLVM dialect. In every `llvm.func`
    marked `stencil.noalias` (by `--stencil-prepare-abi`) it finds the
    arrays from the IR, not from argument positions: the lowering passes a
    memref as (allocated pointer, aligned pointer, offset, sizes, strides)
    and packs these back into a descriptor with `llvm.insertvalue` in the
    entry block, so the pointer arguments stored into fields 0 and 1 of one
    descriptor are one array's. Upstream's `llvm.noalias` on a `func.func`
    memref argument is not used: the default calling convention drops
    argument attributes of arguments that expand to several.

    Those pointer arguments get `llvm.noalias`. Every load and store traced
    back to one of the arrays also gets an alias scope of its own and is
    marked as not aliasing the other arrays: argument `noalias` is lost
    when the OpenMP translation outlines a parallel region (the pointers
    then arrive through a struct), while scope metadata on the accesses
    survives, so LLVM can vectorize the loops of parallel regions without
    runtime alias checks.

    #### Input invariant
    - LLVM dialect from the default memref calling convention.

    #### Output IR
    - The same LLVM dialect, with `llvm.noalias` on the arrays' pointer
      arguments, alias scope metadata on the loads and stores of those
      arrays, and without `stencil.noalias`.
  }];
  let dependentDialects = ["::mlir::LLVM::LLVMDialect"];
}

def StencilCheckLibmNamesPass
    : Pass<"stencil-check-libm-names", "::mlir::ModuleOp"> {
  let summary = "Reject module symbols that would capture libm calls";
  let description = [{
    Upstream `--convert-math-to-libm` rewrites math ops that have no LLVM
    intrinsic (`math.cbrt`, `math.tan`, `math.atan2`, `math.erf`, ...) into
    calls to the libm function of that name, and if the module already has
    a symbol of that name it calls it instead. A user function named `cbrt`
    would then silently replace libm's, or break the call's verification.
    This pass runs just before it and reports each math op whose libm
    callee names a symbol of the module, unless that symbol is a bodiless
    declaration with exactly the op's signature (a declaration of libm's
    own function). It asks the upstream patterns which callee they would
    use, so it follows upstream's list of functions.

    #### Input invariant
    - None.

    #### Output IR
    - Unchanged; the pass only diagnoses.
  }];
}

def StencilVerifyLoweredPass
    : Pass<"stencil-verify-lowered", "::mlir::ModuleOp"> {
  let summary = "Fail unless only LLVM and OpenMP dialect ops remain";
  let description = [{
    The conversions to the LLVM dialect are partial: an op they cannot
    convert stays behind silently (for example a `func.func` whose
    signature uses `tf32`, which has no LLVM type) and `mlir-translate`
    fails later, far from the cause. The last pass of `convert-to-omp`
    walks the module and reports the first op that is neither in the
    `llvm` nor in the `omp` dialect (OpenMP ops are translated by
    `mlir-translate`), so that the pipeline fails at that op.

    #### Input invariant
    - A module after the conversion to the LLVM dialect.

    #### Output IR
    - Unchanged; the pass only diagnoses.
  }];
}

#endif // STENCIL_CONVERSION_PASSES_TD
