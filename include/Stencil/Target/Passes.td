//===- Passes.td - Stencil target and ABI passes -----------*- tablegen -*-===//
//
// The passes after the conversions: clean-ups of the lowered loops (ring
// cut, hoisted temporaries), OpenMP and LLVM clean-ups, the C ABI
// (prepare-abi, annotate-noalias) and the checks that end the pipeline.
//
//===----------------------------------------------------------------------===//

#ifndef STENCIL_TARGET_PASSES_TD
#define STENCIL_TARGET_PASSES_TD

include "mlir/Pass/PassBase.td"

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

def StencilVectorWidthPass
    : Pass<"stencil-vector-width", "::mlir::ModuleOp"> {
  let summary = "Narrower vectors for functions of one-dimensional stencils";
  let description = [{
    Sets `prefer_vector_width` (LLVM's `"prefer-vector-width"`, which the
    OpenMP translation copies to the parallel regions it outlines) on every
    `func.func` whose stencil domains all have rank 1, to `rank1-width`
    bits. One-dimensional sweeps stream their arrays from memory, and
    their taps are loads at neighbouring, hence unaligned, addresses: with
    512-bit vectors every such load spans two cache lines, with 256-bit
    ones at most half of them, and on the 2-core AMD Zen 4 VM of
    docs/Performance.md the adjoints of paper 1D and Burgers then run in
    0.59-0.92x the time. Sweeps of two and three dimensions, which run
    from the caches more often, were slower with 256-bit vectors (1.1-1.4x)
    and are left to LLVM's choice, as are functions without domains.
    Where the target has no vectors wider than 256 bits the attribute
    changes nothing. An attribute the function already has is kept.

    #### Input invariant
    - Stencil domains not yet lowered (the pipeline runs it first).

    #### Output IR
    - The same functions, those of rank-1 domains with
      `prefer_vector_width`.
  }];
  let options = [
    Option<"rank1Width", "rank1-width", "unsigned", "256",
           "Preferred vector width, in bits, for functions whose stencil "
           "domains all have rank 1 (0: leave it to LLVM)">,
  ];
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

def StencilCheckABIBoundsPass
    : Pass<"stencil-check-abi-bounds", "::mlir::ModuleOp"> {
  let summary = "Check at entry that array arguments cover what a call "
                "accesses";
  let description = [{
    C callers pass arrays whose extents nothing else checks. For every
    public `func.func` with a body (the functions `--stencil-prepare-abi`
    gives a C entry point), this pass plans what the function accesses of
    its arrays (`planAccessBounds`, the bounds of `--abi-json`; an
    adjoint's are its primal's, and each shadow must cover what its
    array's accesses cover) and inserts, at entry, a check that every
    array argument's extents cover every access that happens for the
    integer arguments of the call. The bounds are computed without
    wrap-around: a call for which a needed bound does not fit in 64 bits
    is refused too. A failed check prints
    `FILE:LINE:COL: 'f': error: ...`, naming the argument (as the C header
    names it) and the dimension, to stderr and aborts (docs/ABI.md,
    "Bounds checks").

    Functions the plan cannot bound (`unsupported` in `--abi-json`),
    distributed functions (whose arrays are blocks, checked by the
    distributed code itself) and functions whose signature the C interface
    cannot describe get no check. The pipelines run this pass first, unless
    their option `check-bounds=0` turns it off.

    #### Input invariant
    - Stencil IR before any lowering (the domains are still there).

    #### Output IR
    - The same functions, each starting with its checks: `arith` ops on
      the integer arguments and `memref.dim` of the arrays, and an `scf.if`
      per check calling a private `llvm.func` that reports and aborts
      (through the C library's `dprintf` and `abort`).
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::memref::MemRefDialect",
                           "::mlir::scf::SCFDialect",
                           "::mlir::LLVM::LLVMDialect"];
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

    Memory such a function allocates itself gets a scope per allocation
    (`llvm.alloca`, or a call of `malloc` or `aligned_alloc`, traced
    through the memref lowering's rounding of the pointer up to its
    alignment, which goes through integers): a fresh allocation overlaps no
    argument and no other live allocation. LLVM cannot see that through the
    integers, so before, a sweep that read a ring of planes
    (`--stencil-ring-cut`, allocated per thread inside the parallel loop)
    and wrote an array kept its run-time overlap checks, whose cost made
    the vectorized loop start only from 40-48 points per row: FWI's
    single-step adjoint at n = 48 (rows of 44) ran scalar and took 1.7x its
    present time (docs/TimeLoops.md, section 7, "Alias scopes for the
    rings").

    #### Input invariant
    - LLVM dialect from the default memref calling convention.

    #### Output IR
    - The same LLVM dialect, with `llvm.noalias` on the arrays' pointer
      arguments, alias scope metadata on the loads and stores of those
      arrays and of the function's own allocations, and without
      `stencil.noalias`.
  }];
  let dependentDialects = ["::mlir::LLVM::LLVMDialect"];
}

def StencilCheckReservedNamesPass
    : Pass<"stencil-check-reserved-names", "::mlir::ModuleOp"> {
  let summary = "Reject user symbols named like the runtimes' functions";
  let description = [{
    The lowering and the passes call or define symbols of the run-time
    libraries and of the generated code: `stencil_ckpt_*`, `stencil_dist_*`,
    `stencil_gpu_*`, `stencil_grid`, `mgpu*`, the OpenMP runtime's
    `__kmpc_*` and `omp_*`, `MPI_*`, `_mlir_*`, `malloc`, `aligned_alloc`
    and `free` (Stencil/Dialect/ReservedNames.h, the one list). A module
    symbol of such a name would be called instead of the library's
    function, or clash with what the lowering declares. This pass, first
    in the `convert-to-omp` and `convert-to-gpu` pipelines (and the same
    check at the start of `--stencil-adjoint` and `--stencil-distribute`),
    reports each such symbol at its location, unless a pass added it
    (`stencil.runtime`). libm's names are checked by
    `--stencil-check-libm-names`.

    #### Input invariant
    - None.

    #### Output IR
    - Unchanged; the pass only diagnoses.
  }];
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

def StencilReportLoopsPass
    : Pass<"stencil-report-loops", "::mlir::ModuleOp"> {
  let summary = "Report each function's loop nests and OpenMP ops as JSON";
  let description = [{
    For tools that describe the generated code (bench/run.py), so that none
    of them parses printed IR: emits one remark per function with a body,
    `loop report: {...}` (one line of JSON) with
    - `function`: its name;
    - `loop_nests`: loops (`LoopLikeOpInterface`) with no enclosing loop in
      the function, including those inside `affine.if`/`scf.if`;
    - `loop_nests_in_else`: those of them inside an else region (the
      compact fallback of the exact gather split sits in one);
    - `omp_parallel`, `omp_wsloop`: the number of `omp.parallel` and
      `omp.wsloop` ops.

    #### Input invariant
    - None; run it at whatever stage is to be described.

    #### Output IR
    - Unchanged; the pass only emits remarks.
  }];
}

// Clean-ups of already-lowered loops: the cut's temporaries kept in rings
// of planes, and temporaries of called functions hoisted out of loops.

def StencilHoistTemporariesPass
    : Pass<"stencil-hoist-temporaries", "::mlir::ModuleOp"> {
  let summary = "Allocate the temporaries of functions called in loops once, "
                "before the loop";
  let description = [{
    A private function that allocates an array in its entry block and frees
    it there (the cut's temporaries, `--stencil-cut-shared`) allocates and
    frees it at every call. In the step functions of a reversed time loop
    that is once per step: the allocator returns arrays above its mmap
    threshold (32 MB in glibc) to the system, and every step faults the
    pages in again; on a GPU each step pays a device allocation.

    This pass makes such a temporary the function's last argument. Each
    call inside an `scf.for` passes a buffer allocated before the outermost
    loop around it that the sizes can be computed before (going up through
    loops, whose iter_args stand for their initial values, and
    conditionals; not through parallel loops or other regions), freed right
    after that loop. Calls before one loop share a buffer where the type,
    the sizes and the allocation's attributes agree and the call has no
    other temporary in it: they run one after the other. Each call checks
    at run time that the buffer has the sizes the function would have
    allocated (they may differ when rotated arrays differ in shape) and
    allocates and frees one of its own otherwise. A call outside loops
    allocates around the call, as before. Functions none of whose calls
    lie in a loop are left as they are.

    #### Input invariant
    - A temporary is hoisted only if the function is private and only
      called (`func.call`), the `memref.alloc` has no symbol operands, is
      not host memory (`stencil.host_memory`), and is freed once in the
      entry block; its sizes are computed from arguments and constants by
      side-effect free ops of the entry block; and it is used only by
      stencil ops, loads, stores into it and `memref.dim`.

    #### Output IR
    - `memref.alloc`/`memref.dealloc` before and after loops, `arith`
      compares and `scf.if` at the calls, and callees with more arguments.
  }];
  let dependentDialects = [
    "::mlir::arith::ArithDialect",
    "::mlir::memref::MemRefDialect",
    "::mlir::scf::SCFDialect",
  ];
}

def StencilRingCutPass : Pass<"stencil-ring-cut", "::mlir::ModuleOp"> {
  let summary = "Keep the cut's temporaries as per-thread rings of planes";
  let description = [{
    Runs after `--convert-stencil-to-affine` in functions marked
    `stencil.noalias`. A cut (`--stencil-cut-shared`) fills temporaries the
    size of the grid in one parallel nest and reads them in the gather nest
    after it: a write and a read of each through memory. The cut decides
    which temporaries may become rings and marks them `stencil.ring` (its
    plan's `ring_planes`: rank 2 or more, a `stencil.noalias` function, at
    most 8 planes); this pass considers only marked temporaries, and
    removes the marks. Where the fill
    nest is a parallel loop over dimension 0 that writes only the
    temporaries, at plane `i`, and the gather nest right after it (side
    effect free ops between) is one parallel loop over dimension 0
    (`one-outer-loop`) that reads them at planes `i + o` for constants `o`
    in `[lo, hi]` (`lo <= 0 <= hi`) and writes nothing the
    fill reads, the two become one parallel loop over blocks of dimension 0,
    one per thread (`omp_get_max_threads`). Each block allocates, per
    temporary, a ring of `hi - lo + 1` planes; fills the planes before its
    first; and before the rows of each plane `i` fills plane `i + hi` (where
    it is one of the fill's planes, under the fill's guard). Accesses to a
    temporary at plane `p` go to its ring at `p mod (hi - lo + 1)`. Each
    value is computed by the same ops and read back by the same loads, so
    results do not change; the ring stays in the caches where the
    temporary went through memory. Other cuts are left as they are.

    The gather nest may write an array the fill reads (the fused per-point
    reset of an output adjoint the cut product reads) if both access it
    only at plane `i` and the gather's writes store values that depend on
    no memory (their operands, bounds and guards read nothing). A block's
    fills read the planes of its neighbours next to it, so each block
    leaves those writes on its first `hi` and last `-lo` planes (its rows
    there are a copy without them); a second parallel loop over the blocks
    then runs only those writes on those planes (a copy of the rows with
    everything else removed), once every block is done.

    #### Output IR
    - `func.call @omp_get_max_threads`, `affine.parallel` over blocks,
      `affine.for` over planes, `affine.if`, `affine.apply`, and per-block
      `memref.alloc` / `memref.dealloc` of the rings.
  }];
  let dependentDialects = [
    "::mlir::affine::AffineDialect",
    "::mlir::arith::ArithDialect",
    "::mlir::func::FuncDialect",
    "::mlir::memref::MemRefDialect",
    "::mlir::scf::SCFDialect",
  ];
}

#endif // STENCIL_TARGET_PASSES_TD
