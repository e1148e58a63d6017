//===- Passes.td - Distributed-memory passes ---------------*- tablegen -*-===//
//
// The passes that distribute stencil functions over a Cartesian process
// grid (a block decomposition with forward halo exchanges) and lower those
// exchanges to the `mpi` dialect.
//
//===----------------------------------------------------------------------===//

#ifndef STENCIL_DISTRIBUTION_PASSES_TD
#define STENCIL_DISTRIBUTION_PASSES_TD

include "mlir/Pass/PassBase.td"

def StencilDistributePass : Pass<"stencil-distribute", "::mlir::ModuleOp"> {
  let summary = "Distribute stencil functions over an MPI process grid";
  let description = [{
    Makes every function with stencil domains (the primal and, after
    `--stencil-adjoint`, its gather-ready adjoint) run on one block of a
    block decomposition of the global index space over the Cartesian
    process grid `grid` (one entry per dimension, e.g. `grid=1,2,2`; `?`
    for an extent the run-time library chooses on the caller's
    communicator, as MPI_Dims_create does: `grid=?,?,?`, or `grid=auto`
    for every dimension of the domains):

    - Each distributed array argument is the rank's block with a halo of
      `halo` points on every side of every dimension; the function gains
      one trailing `index` argument per dimension, the global extents
      (`stencil.extra_args` = `global_extent_<k>`). Rank `r` of the
      library's communicator (`stencil_dist_set_comm`, default
      `MPI_COMM_WORLD`) is grid point `r` in row-major order and owns
      `stencil_dist_block_start/count` (lib/Runtime) of each dimension.
    - Each domain runs only the points whose writes meet the block
      (DistributionPlan.h); writes beyond the block are scratch. Domains
      are bounded in global coordinates, so the gather form's boundary
      nests run only at the global boundary.
    - `shard.update_halo` exchanges (forward only) go before the domains
      that read beyond the block, one per array between two writes of it,
      as wide as the widest read until the next write.
    - Checks at run time, with the function's location: the communicator
      size against the grid, each array's extents against its block, and
      each block against the widest exchange.

    `report` prints the plan of each function as a remark (JSON). The
    module gets a private `shard.grid @stencil_grid` (`?` extents dynamic).

    #### Input invariant
    - Function bodies are single blocks of stencil domains and side-effect
      free scalar ops, or one time loop (`scf.for`) whose body is such a
      block, its states rotated through memref `iter_args` started from
      arguments (DistributionPlan.h: the states are exchanged every step,
      arguments the body never writes once before the loop). Every domain
      has the grid's rank; distributed arrays are dynamically shaped,
      identity-layout arguments or states of that rank, accessed without
      `dims`, in domains only. Arrays that domains only read through a
      subview, through `dims` that are not a permutation, or of another
      rank, are replicated: every rank holds them whole (e.g. seismic
      traces). So are the arguments that reductions sum into (a filter's
      taps, a layered coefficient's gradient): their domains are marked
      `stencil.distributed_sum`, and the lowering sums them across ranks
      in the order of one process. Functions without such domains that
      call distributed ones (the adjoint of a time loop) gain the global
      extents and pass them on; their domains must run over whole local
      arrays (snapshot copies) or copy parts of border snapshots (in the
      branch that the `stencil.snapshot_borders` flag selects). Index
      values marked `stencil.global_index = k` (the bounds of the box a
      step overwrites) become the rank's local index in dimension k,
      clamped to the points the rank owns, so that a rank's slot keeps
      the border of its block. Each other form is reported at its op.

    #### Output IR
    - The same functions over views of the blocks, with clipped bounds,
      `shard.process_multi_index`, `shard.grid_shape`, `shard.update_halo`
      and calls to the run-time library.
  }];
  let options = [
    // A string, parsed by the pass: a list that does not parse then gets
    // an error that says why, instead of the option parser's empty one.
    Option<"gridSpec", "grid", "std::string", "",
           "Processes along each dimension, comma-separated (required; each "
           "in [1, 2^20] or `?` for chosen at run time, the product of the "
           "fixed ones at most 2^31 - 1), or `auto` (every one `?`)">,
    Option<"halo", "halo", "int64_t", "-1",
           "Halo width of every array (-1: the widest any function needs; "
           "at most 2^40)">,
    Option<"report", "report", "bool", "false",
           "Print each function's distribution plan as a remark (JSON)">,
  ];
  let dependentDialects = [
    "::mlir::affine::AffineDialect",
    "::mlir::arith::ArithDialect",
    "::mlir::DLTIDialect",
    "::mlir::func::FuncDialect",
    "::mlir::LLVM::LLVMDialect",
    "::mlir::memref::MemRefDialect",
    "::mlir::shard::ShardDialect",
  ];
}

def StencilLowerHaloExchangePass
    : Pass<"stencil-lower-halo-exchange", "::mlir::ModuleOp"> {
  let summary = "Lower shard.update_halo on memrefs to calls of the "
                "distributed run-time library";
  let description = [{
    Lowers `shard.update_halo` (memref form, static halo sizes, one grid
    axis per split dimension), `shard.process_multi_index` and
    `shard.grid_shape` to calls of the distributed run-time library
    (`Stencil/Runtime/Distributed.h`), and erases the `shard.grid`s
    nothing uses any more. The library resolves a grid's extents that are
    dynamic (`?`) at run time on the communicator the caller set, so one
    compiled function serves every rank count. It stands in for upstream
    `--convert-shard-to-mpi`, which in MLIR 22 reads dynamic extents with
    `memref.dim` at index `kDynamic`, needs static grids, runs on
    MPI_COMM_WORLD only and chains blocking sends across an axis
    (docs/Distributed.md). Each side of each split dimension packs its
    slab into a 1-D buffer and exchanges it with the neighbours through
    `stencil_dist_sendrecv` (one MPI_Sendrecv); a side of width 0 sends
    nothing, a side without a neighbour packs and unpacks nothing.

    With `overlap`, the first split dimension of each exchange is
    exchanged last and only started (`stencil_dist_isendrecv`: receives
    posted, sends started); the wait (`stencil_dist_wait`) and the unpacking
    go into an `scf.execute_region` marked `stencil.exchange_finish`, which
    `--stencil-overlap-exchanges` moves past the interior of the loop nests
    that follow. Its slabs carry the corners of the dimensions exchanged
    before it.

    #### Output IR
    - Calls of `stencil_dist_grid_extent/_coord/_neighbor/_sendrecv` on
      the grid's spec string (`stencil_dist_grid_<grid>`), packing loops
      (`scf.for`, `memref.load/store`) and `memref.alloc/dealloc`; with
      `overlap`, `stencil_dist_isendrecv` and the marked finishes.
  }];
  let options = [
    Option<"overlap", "overlap", "bool", "false",
           "Start the first split dimension's exchange and leave its wait "
           "in a marked region, for --stencil-overlap-exchanges">,
  ];
  let dependentDialects = [
    "::mlir::arith::ArithDialect",
    "::mlir::func::FuncDialect",
    "::mlir::LLVM::LLVMDialect",
    "::mlir::memref::MemRefDialect",
    "::mlir::scf::SCFDialect",
  ];
}

def StencilOverlapExchangesPass
    : Pass<"stencil-overlap-exchanges", "::mlir::ModuleOp"> {
  let summary = "Compute the interior of the loop nests after an exchange "
                "while its messages are in flight";
  let description = [{
    Runs on affine loop nests (after `--convert-stencil-to-affine`), on the
    exchanges `--stencil-lower-halo-exchange=overlap=1` started: each is
    followed by an `scf.execute_region` marked `stencil.exchange_finish`
    that waits for the messages of one dimension, `d`, and unpacks them.
    The pass plans, per such finish (and the finishes right after it,
    which it groups), the run of loop nests that follow it in its block:
    parallel nests (`affine.parallel`, possibly inside the lowering's
    `scf.if` guard) whose loop runs over dimension `d` in global
    coordinates, whose reads of the exchanged arrays all go through the
    views rebuilt from the exchange at that loop's index plus a constant,
    which write none of the exchanged arrays and call nothing, and which
    neither read nor write an array that an earlier nest of the run
    writes (nor write one it reads). The run ends at the first op that is
    not such a nest or free of memory effects.

    Each nest of the run is cut along its parallel loop at the rows whose
    reads stay inside this process's block: `[start_d + below, end_d -
    above)`, from the block's global start and end (recomputed with
    `stencil_dist_block_start/_count` of the global extent, the grid's
    extent and this process's coordinate) and the nest's widest reads
    below and above the row. The interior part stays before the finishes,
    which move after the run, and the two rims (a clone of the nest each)
    follow them. Every iteration of a parallel loop is independent of the
    others, so each point is computed by the same iteration as without the
    cut: the results are bitwise the same. With `chunks` = K the interior
    runs in K parts with a call of `stencil_dist_progress` (MPI_Testall on
    the exchanges in flight) between them.

    With `report`, each function's plan is printed as a remark (JSON): per
    group, its exchanges, the nests and their widths, and why the run
    ended.
  }];
  let options = [
    Option<"report", "report", "bool", "false",
           "Print each function's overlap plan as a remark (JSON)">,
    Option<"chunks", "chunks", "unsigned", "1",
           "Parts of each interior, with a call that lets MPI progress "
           "between them (stencil_dist_progress)">,
  ];
  let dependentDialects = [
    "::mlir::affine::AffineDialect",
    "::mlir::arith::ArithDialect",
    "::mlir::func::FuncDialect",
    "::mlir::LLVM::LLVMDialect",
    "::mlir::scf::SCFDialect",
  ];
}

#endif // STENCIL_DISTRIBUTION_PASSES_TD
