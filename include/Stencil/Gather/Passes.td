//===- Passes.td - Scatter to gather ----------------------------------*- tablegen -*-===//
//
// The conversion of scatter domains (the adjoint's shifted accumulations)
// into race-free gather nests, and the cut of values that its shifted
// statements share. Both run on the stencil dialect, after stencil-adjoint
// and before the lowering (Stencil/Conversion/Passes.td).
//
//===----------------------------------------------------------------------===//

#ifndef STENCIL_GATHER_PASSES_TD
#define STENCIL_GATHER_PASSES_TD

include "mlir/Pass/PassBase.td"

def StencilSplitReductionsPass
    : Pass<"stencil-split-reductions", "::mlir::ModuleOp"> {
  let summary = "Move reductions out of scatter domains into domains of "
                "their own";
  let description = [{
    A reduction is an accumulate whose `dims` is not a permutation of the
    iteration dimensions: the adjoint of a coefficient read at a subset of
    them (`c[j]` in a domain `(i, j)`), at a repetition, at a fixed element
    (`w[1][2]`) or as a rank-0 array. Its points do not each own an
    element, so the gather form, which shifts every write to the centre,
    does not apply to it; the lowering sums it instead
    (`--convert-stencil-to-affine`, in a fixed order).

    For every domain that both writes through a permutation and reduces,
    this pass moves the reductions, with the part of the body they depend
    on, into a new domain with the same bounds placed before it. An array
    is never both read and written in one domain, so the two halves may
    run in either order. Placed before, the reductions leave the scatter
    domain next to the reset after it (`x_b = 0`, which they may read too)
    and, where it is independent of them, they also move above the domain
    before it (a first contribution): the gather form fuses both into its
    sweep. Domains then either reduce or scatter, never both; the cut and
    the gather conversion leave reducing domains alone (and split a domain
    themselves where this pass has not run).
  }];
  let dependentDialects = ["::mlir::stencil::StencilDialect"];
}

def StencilCutSharedPass : Pass<"stencil-cut-shared", "::mlir::ModuleOp"> {
  let summary = "Store values that several shifted statements share in "
                "temporary arrays";
  let description = [{
    Prepares scatter domains for `--stencil-scatter-to-gather`. The gather
    form evaluates each statement at its own shift (`out[q] += v(q - o)`),
    so a value that statements at `s` distinct offsets depend on is
    recomputed `s` times per point, with everything it depends on. For a
    nonlinear body such as `g(sum of n taps)` every statement depends on
    `g'(sum) * rb`, and the gather form does `n` times the work of the
    primal (and clones `n` copies of the body per nest).

    This pass computes such values once per point instead: a new domain
    with the same bounds, placed right before the scatter domain, stores
    each chosen value into a temporary array (`memref.alloc` of the
    domain's upper bounds, freed at the end of the block), and the scatter
    domain reads it back with a centre gather. Its statements then gather
    the value at their shifts: linear in the number of taps.

    The choice is a plan (`report` prints it as JSON): greedily, while some
    value used at two or more shifts saves at least `min-gain` ops per point
    and nest (`(shifts - 1)` times the ops it depends on, constants not
    counted), the one that saves most. Candidates are float results of
    pure ops other than gathers and constants. Each chosen value costs one
    array of the domain's extent (its upper bounds) and one write and one
    read of it per point, so the default only cuts where recomputation
    clearly costs more than that memory traffic.

    #### Rings
    Where `--stencil-ring-cut` will keep the temporaries as per-thread
    rings of a few planes filled inside the gather sweep, a cut costs no
    traffic through memory, and a lower threshold pays: with
    `ring-min-gain` (the CPU pipeline sets it where its lowering makes
    rings), a domain that `min-gain` leaves uncut is cut under
    `ring-min-gain` if the rings can apply: the domain has rank 2 or more,
    its function is `stencil.noalias`, the offsets of dimension 0 span at
    most 8 planes, and a reset of an output adjoint that follows it is
    read, after the cut, only by statements at offset zero (so that each
    point resets its own element and the gather stays one parallel loop,
    see `--stencil-scatter-to-gather`). Such a plan is not padded.

    Whatever the threshold, the temporaries of a cut that the rings can
    apply to (rank 2 or more, a `stencil.noalias` function, at most 8
    planes: the plan's `ring_planes`) are marked `stencil.ring`;
    `--stencil-ring-cut` keeps only marked temporaries as rings.

    #### The padded gather form
    When every write of the cut domain accumulates a cut value times
    constants (`mulf` by a finite constant, `negf`), as in the adjoint of
    `g(sum of taps)`, the pass (`padded`, default) writes the gather form
    itself and no boundary nests are needed. The temporaries get a zero
    border of `h_k = max o_k - min o_k` points on each side of dimension
    `k` and are indexed by `p + h`; then, for each accumulated array `A`,
    one domain over the box its statements write,
    `[lb + min o^A, ub + max o^A)`, adds at each point the values of its
    statements, in program order, read at `q - o_s + h`. Where a statement
    is not valid the border gives zero, and a constant times zero adds
    nothing. The domains run only if the original one is non-empty. The
    cost: the border zeroing and a temporary `2 h` larger per dimension.

    Results do not change: the stored value is the one the statements
    computed, and every statement still runs in program order at each
    point.

    #### Input invariant
    - Temporaries are indexed by the domain's coordinates. Where the lower
      bounds are constants `>= 0` each is an array from index 0; otherwise
      (e.g. a domain `--stencil-distribute` bounded by the rank's block)
      it is a buffer of the domain's extents seen through a view
      (`memref.reinterpret_cast`) that starts at the lower bounds, and
      only the plain cut applies (no rings, no padded form).

    #### Output IR
    - `affine.max`, `affine.apply`, `memref.alloc`, `memref.dealloc`,
      `memref.reinterpret_cast` (the views), `scf.if` (the padded form's
      non-empty guard), and stencil domains.
  }];
  let dependentDialects = [
    "::mlir::affine::AffineDialect",
    "::mlir::arith::ArithDialect",
    "::mlir::memref::MemRefDialect",
    "::mlir::scf::SCFDialect",
  ];
  let options = [
    Option<"minGain", "min-gain", "uint64_t",
           "::mlir::stencil::kDefaultCutMinGain",
           "Cut a value only if it saves at least this many ops per point "
           "and gather nest">,
    Option<"ringMinGain", "ring-min-gain", "uint64_t", "0",
           "Where min-gain cuts nothing, cut values that save at least this "
           "many ops per point and gather nest if the temporaries can "
           "become rings of planes (--stencil-ring-cut): rank 2 and up, a "
           "stencil.noalias function, offsets of dimension 0 spanning at "
           "most 8 planes, and a fused reset kept at the centre (0: off)">,
    Option<"padded", "padded", "bool", "true",
           "Write a cut domain whose statements are cut values times "
           "constants as gathers over zero-bordered temporaries">,
    Option<"report", "report", "bool", "false",
           "Emit a remark at each scatter domain with its cut plan as JSON">,
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
      `2 d + 1` nests. The slabs of an inner dimension run inside the core
      loops of the outer ones. With `one-outer-loop` (default) the slabs of
      dimension 0 get no loops of their own either: without a fused reset
      (rank >= 2) the slabs and the core are one parallel loop over their
      union whose iterations each run the part their plane lies in; with a
      fused reset in blocks sized at run time (below), the first block
      starts with the lower slab and the last one ends with the upper
      slab (and the reset's second sweep is one loop). Fewer worksharing
      loops and barriers, and the threads share
      the slab planes, which cost more than core planes, with the core's.
    - `exact`: PerforAD's disjoint split. Each dimension is cut at
      `lower + o` and `upper + o` for every distinct offset `o`; every box of
      the product runs, unguarded, exactly the statements valid in it, and
      boxes with none are dropped. Up to `(2 n - 1)^d` nests. The split is
      only exact when every dimension has at least `max o - min o`
      iterations, so it is guarded by that condition and falls back to the
      compact nests otherwise.
    - `guarded`: one nest over every written point, in which each statement
      is guarded by its validity in the dimensions where offsets differ;
      every dimension of it is parallel (one multi-dimensional
      `affine.parallel`). It is the form for GPUs (`convert-to-gpu`), where
      a guard costs a few integer instructions and a boundary nest a kernel
      launch; it does not fuse the reset.

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

    #### Straight-line points in the innermost dimension
    In 2-D and up the compact form's innermost slabs run at the end of
    every row, guarding each statement at each point. With
    `peel-innermost` (default on; offsets spanning at most 8 points, at most
    `max-split-statements` writes), where the innermost extent is at least
    the span of the offsets (one test on symbols per row), the two slabs are
    disjoint and the statements valid at `lower + c` are those with offset
    `<= c`, at `upper + c` those with offset `> c`: each point runs as
    straight-line code like the core (all its statements, then one update
    per array). Smaller extents keep the guarded slabs. `report-nests`
    lists the points (`innermost_points`).

    With `peel-outer` (default on; with `peel-innermost`) the slabs of the
    outer dimensions run the same way: dimension k's points, where its
    extent is at least its span, each run the dimensions inside it (their
    points and cores) over the statements valid at that point, fused, where
    `split-slabs` ran one sweep over the slab per statement. Dimension 0's
    points run in its slab loops, in the one loop of `one-outer-loop` or in
    the first and last block of a fused reset. Dimensions are peeled from
    the innermost outwards while a plane has at most 125 bodies (radius 1
    in 3-D). One
    test per plane checks every peeled dimension's extent; where one is
    smaller than its span, the slabs of the peeled dimensions run guarded,
    summing the valid statements first and updating once per array as the
    points do (not split per statement), so that results do not depend on
    the extents: a rank's block gives the bits of the whole domain.
    `report-nests` lists them (`outer_points`).

    #### The fused first store
    A domain right before a scatter domain, with the same bounds, that only
    stores a value into an array at the centre, where the scatter domain
    only adds to that array (never reads or stores it) and writes nothing
    the value reads, is a first contribution (a reversed time loop's
    deferred hand-over: `cur_b = -prev_b` before the step adds its gather
    to `cur_b`). With `fuse-init` (default) it becomes the first statement
    of the gather form: the core stores the value plus the gathered sum, and
    each point of the slabs stores it or adds to it, as the store is valid
    there, so the array is written once instead of stored, read and written
    again.

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
           "How points outside the core are covered",
           "::mlir::stencil::boundaryStrategyValues()">,
    Option<"reportNests", "report-nests", "bool", "false",
           "Emit two remarks at each converted domain: its nest counts, and "
           "its plan (every nest: kind, box, statements, guarded "
           "dimensions) as JSON">,
    Option<"maxExactNests", "max-exact-nests", "uint64_t",
           "::mlir::stencil::kDefaultMaxExactNests",
           "Above this many boxes, boundary=exact falls back to compact "
           "(with a remark)">,
    Option<"maxGatherOps", "max-gather-ops", "uint64_t",
           "::mlir::stencil::kDefaultMaxGatherOps",
           "Fail on a domain whose gather form would clone more body ops "
           "than this (nests times the shifted statements' body slices)">,
    Option<"fuseReset", "fuse-reset", "bool", "true",
           "Fuse the reset domain that follows a scatter domain into its "
           "compact gather sweep (blocked dimension 0, reset with a lag)">,
    Option<"fuseInit", "fuse-init", "bool", "true",
           "Fuse the domain before a scatter domain that only stores, at "
           "the centre, into an array the scatter only adds to, into its "
           "gather sweep as the first contribution">,
    Option<"resetBlock", "reset-block", "int64_t", "0",
           "Iterations of dimension 0 per block of the fused reset "
           "(0: one block per thread, max(ceil(core / "
           "omp_get_max_threads()), 8192 for rank 1, 16 otherwise), sized "
           "at run time)">,
    Option<"splitSlabs", "split-slabs", "bool", "true",
           "Run each guarded slab of two or more dimensions as one unguarded "
           "nest per statement, clipped to where it is valid, instead of "
           "guarding every statement at every point">,
    Option<"maxSplitStatements", "max-split-statements", "unsigned",
           "::mlir::stencil::kDefaultMaxSplitStatements",
           "split-slabs splits only slabs of at most this many statements "
           "(above, one nest per statement makes code grow with the taps)">,
    Option<"oneOuterLoop", "one-outer-loop", "bool", "true",
           "Run dimension 0's slabs in the core's parallel loop: without a "
           "fused reset (2-D and up) one loop over their union; with blocks "
           "sized at run time, in the first and the last block">,
    Option<"peelInnermost", "peel-innermost", "bool", "true",
           "In 2-D and up, where the innermost dimension's extent is at "
           "least the span of the offsets (at most 8, with at most "
           "max-split-statements writes), run its slabs as straight-line "
           "points, each over the statements valid there, instead of "
           "guarding every statement at every point">,
    Option<"peelOuter", "peel-outer", "bool", "true",
           "With peel-innermost, run the outer dimensions' slabs as points "
           "too where their extents allow, each over the statements valid "
           "there, fused, instead of one sweep per statement">,
    Option<"resetRows", "reset-rows", "bool", "true",
           "In 2-D and up, the fused reset zeroes each row right after its "
           "last reader instead of whole planes after the next plane">,
  ];
}

#endif // STENCIL_GATHER_PASSES_TD
