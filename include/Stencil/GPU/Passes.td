//===- Passes.td - GPU passes ------------------------------*- tablegen -*-===//
//
// The passes of the GPU route (`convert-to-gpu`): what the GPU path cannot
// run yet, reported before anything is lowered, and the mapping of the
// parallel nests onto GPU blocks and threads.
//
//===----------------------------------------------------------------------===//

#ifndef STENCIL_GPU_PASSES_TD
#define STENCIL_GPU_PASSES_TD

include "mlir/Pass/PassBase.td"

def StencilCheckGPUPass : Pass<"stencil-check-gpu", "::mlir::ModuleOp"> {
  let summary = "Report what the GPU pipeline cannot run yet";
  let description = [{
    Runs first in `convert-to-gpu`, on stencil IR. The GPU functions take
    device pointers and run every domain as a kernel; the host part of a
    function only launches kernels and allocates temporaries. Each form
    that would need more is reported at its op, with a located error,
    instead of being lowered into code that reads device memory on the
    host or runs serially:

    - on the host, a call to a function that has no body in the module
      (other than the checkpointing run-time library, `stencil_ckpt_*`,
      which the adjoint of a time loop calls); host control flow (time
      loops and their checkpointed adjoints) and calls to the module's
      functions stay on the host and launch their domains' kernels;
    - inside domains, a call whose callee has no body in the module, or
      whose body (or a function it calls) has memory effects, calls
      indirectly or recurses: it would run on the device;
    - outside domains, `memref.store` and `memref.copy` (writes to device
      memory from the host), and `memref.load` of anything but f32 and f64
      (`--stencil-gpu-host-reads` reads those back one element at a
      time);
    - functions distributed over MPI (`stencil.distribution`);
    - with `serial-scatter` (the pipeline's `scatter=serial`), any domain
      that scatters: serial loops would run on one GPU thread.
  }];
  let options = [
    Option<"serialScatter", "serial-scatter", "bool", "false",
           "Domains that scatter would run as serial loops (refused)">,
  ];
}

def StencilGPUCheckpointsPass
    : Pass<"stencil-gpu-checkpoints", "::mlir::ModuleOp"> {
  let summary = "Keep the snapshots of reversed time loops in device memory";
  let description = [{
    The adjoint of a time loop (`--stencil-adjoint`) starts its schedule
    with `stencil_ckpt_start` and views its snapshots in the memory that
    `stencil_ckpt_workspace` returns, host memory. On the GPU route the
    copies into and out of the snapshots, and the step adjoints that read
    them in place, are kernels: this pass makes those two calls
    `stencil_gpu_ckpt_start` and `stencil_gpu_ckpt_workspace` (the same
    signatures; Stencil/Runtime/GPURuntime.h), whose workspace is device
    memory. Every other call of the schedule stays the host library's.
  }];
}

def StencilGPUHostReadsPass
    : Pass<"stencil-gpu-host-reads", "::mlir::ModuleOp"> {
  let summary = "Read single elements of device memory on the host";
  let description = [{
    Runs after `--stencil-map-to-gpu`. Host code of the GPU route reads
    array elements in two places: a per-step scalar that the input reads
    from an array (`memref.load %w[%t]`, FWI's source wavelet), and the
    sum of a domain with results, which the GPU form of
    `--convert-stencil-to-affine` leaves in a one-element device buffer.
    The arrays are device memory: each `memref.load` outside the mapped
    parallel loops becomes a call of `stencil_gpu_read_f64` (or `_f32`,
    Stencil/Runtime/GPURuntime.h) on the element's address, which copies
    it to the host after the kernels before it have finished.
  }];
  let dependentDialects = [
    "::mlir::LLVM::LLVMDialect",
    "::mlir::func::FuncDialect",
    "::mlir::memref::MemRefDialect",
  ];
}

def StencilMapToGPUPass : Pass<"stencil-map-to-gpu", "::mlir::ModuleOp"> {
  let summary = "Tile parallel nests into GPU blocks and threads";
  let description = [{
    Prepares the `scf.parallel` nests of the GPU form (one per domain, every
    dimension parallel: `convert-stencil-to-affine=all-parallel`) for
    upstream `convert-parallel-loops-to-gpu`:

    - Each outermost `scf.parallel` is tiled (`scf::tileParallelLoop`, tiles
      of constant size with a bounds check inside) by the block shape, and
      both loops get `mapping` attributes: the innermost dimension to
      `block_x` / `thread_x`, so that consecutive threads of a warp touch
      consecutive elements (coalesced), the next to `y`, the third to `z`;
      outer dimensions beyond three run sequentially in each thread. The
      shape is planned first (`planBlockShape`, printed with `report`).
    - `block` lists the threads per block from the innermost dimension
      out (`x,y,z`); the default is 256 threads: `256` in 1-D, `32,8` in
      2-D and `32,8,1` in 3-D. At most 1024 threads per block.
    - With `align=A` (A > 1; the default 1 is off), an innermost loop that
      starts at a constant that is not a multiple of A starts at that
      constant rounded down instead, and its body runs only from the
      constant on: with A = 32 each warp's row starts on an aligned
      element, and where the rows of the arrays are aligned too (sizes that
      are multiples of 32) its accesses at offset 0 fill whole 32-byte
      sectors. On an H200 this made wave3d's primal 5-6% faster and
      dense27's 16% slower (docs/GPU.md), so it is off by default.
    - `row-points=P` makes each thread run P points of the innermost
      dimension, a block's width apart (a block of 32 threads in x then
      covers 32 * P points of a row). The default 0 chooses per nest: 4
      for a nest that stores without reading memory (the reset of an
      output adjoint), 1 otherwise; at most 64.
      Such a reset is so short per block that the rate at which the GPU
      starts blocks bounds it: on an H200, 4 points made the f32 reset
      1.4x faster (docs/GPU.md). Each copy runs where its index is in
      bounds; each point is still written once, by one thread.
    - Nests with reductions are refused (not supported yet; the pipeline's
      `stencil-check-gpu` refuses the domains that lower to them).
    - Temporaries (`memref.alloc` / `memref.dealloc` outside the nests)
      become `gpu.alloc` / `gpu.dealloc`: device memory, like the
      arguments.
  }];
  let dependentDialects = [
    "::mlir::gpu::GPUDialect",
    "::mlir::scf::SCFDialect",
    "::mlir::arith::ArithDialect",
  ];
  let options = [
    ListOption<"block", "block", "int64_t",
               "Threads per block, innermost dimension first (x,y,z)">,
    Option<"align", "align", "int64_t", "::mlir::stencil::kDefaultGPUAlign",
           "Start innermost loops at a multiple of this many elements "
           "(1: as they are)">,
    Option<"rowPoints", "row-points", "int64_t", "0",
           "Points of the innermost dimension per thread, a block's width "
           "apart (0: 4 in nests that only store, 1 otherwise)">,
    Option<"report", "report", "bool", "false",
           "Print each nest's block plan as a remark (JSON)">,
  ];
}

def StencilCoarsenGPUNestsPass
    : Pass<"stencil-coarsen-gpu-nests", "::mlir::ModuleOp"> {
  let summary = "Several points of the outermost dimension per GPU thread";
  let description = [{
    Runs before `stencil-map-to-gpu`, on each outermost `scf.parallel` of
    two or three dimensions (step 1 on the outermost, no reductions). The
    nest then runs over blocks of `factor` consecutive outermost indices:
    a full block runs `factor` copies of the body in straight-line code, a
    partial block at the upper end runs the body in an `scf.for`. A body
    that ends in a branch without results after pure ops (the gather
    form's test for interior points) is unswitched in full blocks: one
    test of all the copies' conditions, then the copies' then-regions one
    after the other, or every copy's own branch. Each point runs the same
    statements in the same order as before.

    Neighbouring points along the outermost dimension read the same taps:
    with `noalias` kernel pointers the NVPTX back end loads each of them
    once per thread (GVN across the copies), so a 3x3x3 stencil issues
    27 (F + 2) / (3 F) loads per point instead of 27. The values live
    across the copies cost registers, so `factor=0` (the default) chooses
    per nest: 16 bytes over the widest element the body loads (2 points
    for f64, 4 for f32) for a body without branches or atomic updates,
    none otherwise (the gather form ran slower coarsened on an H100,
    docs/GPU.md; an atomic update has nothing to share). A nest whose
    copies would exceed `max-ops` ops stays as it is. `report` prints each
    nest's plan as a remark (JSON).
  }];
  let dependentDialects = [
    "::mlir::arith::ArithDialect",
    "::mlir::scf::SCFDialect",
  ];
  let options = [
    Option<"factor", "factor", "int64_t", "0",
           "Consecutive outermost points per thread (1: none; 0: chosen "
           "per nest)">,
    Option<"maxOps", "max-ops", "int64_t", "20000",
           "Leave a nest alone if its copies would have more ops">,
    Option<"report", "report", "bool", "false",
           "Print each nest's plan as a remark (JSON)">,
  ];
}

def StencilNarrowGPUIndicesPass
    : Pass<"stencil-narrow-gpu-indices", "::mlir::ModuleOp"> {
  let summary = "32-bit index arithmetic in GPU nests, chosen at run time";
  let description = [{
    Runs after `stencil-map-to-gpu`, on each outermost `scf.parallel`. A
    GPU multiplies 64-bit integers in several instructions, and the
    kernels of f32 sweeps were bound by their address arithmetic. For a
    nest whose arrays (memrefs defined outside it) are only accessed by
    `memref.load`, `memref.store` and `memref.atomic_rmw`, the pass

    - builds on the host, per array, a flat view of its base buffer
      (`memref.extract_strided_metadata`, `memref.reinterpret_cast` to
      `memref<?xT>`) and its offset and strides as `i32`;
    - clones the nest and rewrites every access of the clone to the flat
      view at the linear index `offset + sum(index_d * stride_d)`,
      computed in `i32` with `nsw` and sign-extended once;
    - runs the clone under `scf.if` when every array has offset, sizes
      and strides below 2^31 and `offset + sum((size_d - 1) * stride_d)`
      below 2^31, so that no in-bounds linear index or partial sum of one
      overflows, arrays of one rank have the same offset and strides
      (they then share one linear index) and their innermost stride is 1
      (a constant in the kernel); the original nest otherwise.

    With `loop-indices` (the default), the clone's index arithmetic
    (loop indices, the tiling's bounds checks, the gather form's guards)
    is copied into `i32` too: each copy carries a bound on its magnitude
    from its operands' (constants, loop bounds, and index values from
    outside the nest, which the host condition then also requires in
    (-2^28, 2^28)), and an op is copied only while that bound stays below
    2^31; compares use the copies.

    A nest that hands an array to any other op is left alone. `report`
    prints each nest's plan as a remark (JSON).
  }];
  let dependentDialects = [
    "::mlir::arith::ArithDialect",
    "::mlir::memref::MemRefDialect",
    "::mlir::scf::SCFDialect",
  ];
  let options = [
    Option<"loopIndices", "loop-indices", "bool", "true",
           "Also compute loop indices, bounds checks and guards in 32 bits">,
    Option<"report", "report", "bool", "false",
           "Print each nest's plan as a remark (JSON)">,
  ];
}

def StencilMarkGPUKernelArgsPass
    : Pass<"stencil-mark-gpu-kernel-args", "::mlir::ModuleOp"> {
  let summary = "Mark the read-only and distinct arrays of GPU kernels";
  let description = [{
    Runs after `gpu-kernel-outlining`. A memref argument of a kernel
    (`gpu.func`) that the kernel only loads from gets `llvm.readonly`,
    which the NVVM lowering carries to its pointers. A kernel whose every
    `gpu.launch_func` passes arrays that are views of pairwise distinct
    function arguments or allocations gets the unit attribute
    `stencil.distinct_arrays`, for `stencil-gpu-kernel-noalias`. Arrays
    passed to a public function must not overlap (docs/ABI.md); an array
    of unknown origin (a global, a value carried by a loop) leaves the
    kernel unmarked.
  }];
}

def StencilGPUKernelNoAliasPass
    : Pass<"stencil-gpu-kernel-noalias", "::mlir::gpu::GPUModuleOp"> {
  let summary = "Make the pointers of kernels with distinct arrays noalias";
  let description = [{
    Runs on a `gpu.module` after `convert-gpu-to-nvvm` (which drops
    `llvm.noalias` from memref arguments): every pointer argument of an
    `llvm.func` marked `stencil.distinct_arrays` by
    `stencil-mark-gpu-kernel-args` becomes `llvm.noalias`, and the mark is
    removed. The NVPTX back end reads through the read-only data path
    (`ld.global.nc`) only from `noalias` read-only kernel pointers.
  }];
}

#endif // STENCIL_GPU_PASSES_TD
