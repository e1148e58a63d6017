//===- Pipelines.h - Stencil to LLVM pipelines --------------------*- C++ -*-===//
//
// This file declares the `convert-to-omp` pipeline, which lowers stencil IR
// through affine, SCF and OpenMP to the LLVM dialect, and `convert-to-gpu`,
// which lowers it through SCF and upstream's GPU and NVVM passes.
//
//===----------------------------------------------------------------------===//

#ifndef STENCIL_PIPELINES_PIPELINES_H
#define STENCIL_PIPELINES_PIPELINES_H

#include "Stencil/Conversion/Passes.h"
#include "Stencil/Gather/Passes.h"
#include "Stencil/GPU/Passes.h"

#include "mlir/Pass/PassOptions.h"

namespace mlir {
class OpPassManager;
} // namespace mlir

namespace mlir::stencil {

/// Options of the `convert-to-omp` pipeline.
/// The option of both pipelines that turns off the bounds checks at the C
/// entry points (--stencil-check-abi-bounds, docs/ABI.md "Bounds checks"),
/// and its description.
inline constexpr llvm::StringLiteral kCheckBoundsOption = "check-bounds";
inline constexpr llvm::StringLiteral kCheckBoundsDescription =
    "Check at entry of each C entry point that its arrays cover what the "
    "call accesses (--stencil-check-abi-bounds; 0: unchecked, for speed)";

struct ConvertToOMPOptions : public PassPipelineOptions<ConvertToOMPOptions> {
  PassOptions::Option<ScatterLowering> scatter{
      *this, "scatter", llvm::cl::desc("How domains that scatter run"),
      llvm::cl::init(ScatterLowering::Gather), scatterLoweringValues()};
  PassOptions::Option<BoundaryStrategy> boundary{
      *this, "boundary",
      llvm::cl::desc("Boundary nests of the gather form"),
      llvm::cl::init(BoundaryStrategy::Compact), boundaryStrategyValues()};
  PassOptions::Option<uint64_t> maxExactNests{
      *this, "max-exact-nests",
      llvm::cl::desc("Above this many boxes, boundary=exact falls back to "
                     "compact (with a remark)"),
      llvm::cl::init(kDefaultMaxExactNests)};
  PassOptions::Option<uint64_t> maxGatherOps{
      *this, "max-gather-ops",
      llvm::cl::desc("Fail on a domain whose gather form would clone more "
                     "body ops than this"),
      llvm::cl::init(kDefaultMaxGatherOps)};
  PassOptions::Option<bool> cut{
      *this, "cut",
      llvm::cl::desc("Before the gather conversion, store values that "
                     "statements at several shifts share in temporary "
                     "arrays (--stencil-cut-shared)"),
      llvm::cl::init(true)};
  PassOptions::Option<uint64_t> cutMinGain{
      *this, "cut-min-gain",
      llvm::cl::desc("Cut a value only if it saves at least this many ops "
                     "per point and gather nest"),
      llvm::cl::init(kDefaultCutMinGain)};
  PassOptions::Option<uint64_t> cutRingMinGain{
      *this, "cut-ring-min-gain",
      llvm::cl::desc("Where cut-min-gain cuts nothing, cut values that save "
                     "at least this many ops if the temporaries become "
                     "rings of planes (with ring-cut, one-outer-loop and "
                     "boundary=compact; 0: never)"),
      llvm::cl::init(kDefaultCutRingMinGain)};
  PassOptions::Option<bool> cutPadded{
      *this, "cut-padded",
      llvm::cl::desc("Write cut domains whose statements are cut values "
                     "times constants as gathers over zero-bordered "
                     "temporaries (no boundary nests)"),
      llvm::cl::init(true)};
  PassOptions::Option<bool> hoistTemporaries{
      *this, "hoist-temporaries",
      llvm::cl::desc("Allocate the temporaries of functions called in loops "
                     "(the cut's, in reversed time loops) once, before the "
                     "loop (--stencil-hoist-temporaries)"),
      llvm::cl::init(true)};
  PassOptions::Option<bool> ringCut{
      *this, "ring-cut",
      llvm::cl::desc("Keep the cut's temporaries as per-thread rings of "
                     "planes filled inside the gather sweep "
                     "(--stencil-ring-cut)"),
      llvm::cl::init(true)};
  PassOptions::Option<bool> fuseReset{
      *this, "fuse-reset",
      llvm::cl::desc("Fuse the reset of output adjoints into the gather "
                     "sweep"),
      llvm::cl::init(true)};
  PassOptions::Option<int64_t> resetBlock{
      *this, "reset-block",
      llvm::cl::desc("Iterations of dimension 0 per block of the fused "
                     "reset (0: one block per thread, sized at run time, at "
                     "least a default for the rank)"),
      llvm::cl::init(0)};
  PassOptions::Option<bool> splitSlabs{
      *this, "split-slabs",
      llvm::cl::desc("Run guarded slabs of two or more dimensions as one "
                     "unguarded nest per statement (no masked vector code)"),
      llvm::cl::init(true)};
  PassOptions::Option<unsigned> maxSplitStatements{
      *this, "max-split-statements",
      llvm::cl::desc("split-slabs splits only slabs of at most this many "
                     "statements"),
      llvm::cl::init(kDefaultMaxSplitStatements)};
  PassOptions::Option<bool> oneOuterLoop{
      *this, "one-outer-loop",
      llvm::cl::desc("Run dimension 0's slabs in the core's parallel loop "
                     "(its union with them, or the first and last block of "
                     "a fused reset), not in loops of their own"),
      llvm::cl::init(true)};
  PassOptions::Option<bool> peelInnermost{
      *this, "peel-innermost",
      llvm::cl::desc("Run the innermost dimension's slabs as straight-line "
                     "points where its extent allows (2-D and up)"),
      llvm::cl::init(true)};
  PassOptions::Option<bool> peelOuter{
      *this, "peel-outer",
      llvm::cl::desc("With peel-innermost, run the outer dimensions' slabs "
                     "as points too, each over the statements valid there"),
      llvm::cl::init(true)};
  PassOptions::Option<bool> fuseInit{
      *this, "fuse-init",
      llvm::cl::desc("Fuse a centre store right before a scatter domain, "
                     "into an array the scatter only adds to, into its "
                     "gather sweep as the first contribution"),
      llvm::cl::init(true)};
  PassOptions::Option<bool> resetRows{
      *this, "reset-rows",
      llvm::cl::desc("In 2-D and up, reset each row of the output adjoint "
                     "right after its last reader, not whole planes"),
      llvm::cl::init(true)};
  PassOptions::Option<bool> gpuIndex32{
      *this, "gpu-index32",
      llvm::cl::desc("Run the GPU route's 32-bit index narrowing "
                     "(--stencil-narrow-gpu-indices) on these nests: tests "
                     "it where there is no GPU; no speed-up is claimed"),
      llvm::cl::init(false)};
  PassOptions::Option<int64_t> gpuCoarsen{
      *this, "gpu-coarsen",
      llvm::cl::desc("Run the GPU route's coarsening "
                     "(--stencil-coarsen-gpu-nests) with this factor on "
                     "these nests (1: not at all; 0: chosen per nest): "
                     "tests it where there is no GPU; no speed-up is "
                     "claimed"),
      llvm::cl::init(1)};
  PassOptions::Option<bool> fpContract{
      *this, "fp-contract",
      llvm::cl::desc("Allow FMA contraction (changes results in the last "
                     "bits)"),
      llvm::cl::init(false)};
  PassOptions::Option<unsigned> vectorWidth1D{
      *this, "vector-width-1d",
      llvm::cl::desc("Preferred vector width, in bits, of functions whose "
                     "stencil domains are all one-dimensional "
                     "(--stencil-vector-width; 0: LLVM's choice)"),
      llvm::cl::init(256)};
  PassOptions::Option<bool> cInterface{
      *this, "c-interface",
      llvm::cl::desc("Emit _mlir_ciface_ wrappers for public functions and "
                     "mark array data pointers noalias"),
      llvm::cl::init(true)};
  PassOptions::Option<bool> checkBounds{
      *this, kCheckBoundsOption, llvm::cl::desc(kCheckBoundsDescription),
      llvm::cl::init(true)};
};

/// Builds the pipeline from stencil IR to the LLVM dialect with OpenMP:
/// stencil -> affine -> scf.parallel -> omp -> llvm.
void buildConvertToOMPPipeline(OpPassManager &pm,
                               const ConvertToOMPOptions &options);

/// Options of the `convert-to-gpu` pipeline.
struct ConvertToGPUOptions : public PassPipelineOptions<ConvertToGPUOptions> {
  PassOptions::Option<ScatterLowering> scatter{
      *this, "scatter",
      llvm::cl::desc("How domains that scatter run (gather or atomic)"),
      llvm::cl::init(ScatterLowering::Gather), scatterLoweringValues()};
  PassOptions::ListOption<int64_t> block{
      *this, "block",
      llvm::cl::desc("Threads per block, innermost dimension first (x,y,z; "
                     "default 256 threads)")};
  PassOptions::Option<int64_t> align{
      *this, "align",
      llvm::cl::desc("Start each kernel's innermost loop at a multiple of "
                     "this many elements, the threads before its first "
                     "point idle (1, the default: at the first point)"),
      llvm::cl::init(kDefaultGPUAlign)};
  PassOptions::Option<int64_t> rowPoints{
      *this, "row-points",
      llvm::cl::desc("Points of the innermost dimension each thread runs, "
                     "a block's width apart (0, the default: 4 in nests "
                     "that only store, such as resets, 1 otherwise)"),
      llvm::cl::init(0)};
  PassOptions::Option<bool> cut{
      *this, "cut",
      llvm::cl::desc("Store values that statements at several shifts share "
                     "in temporaries (--stencil-cut-shared)"),
      llvm::cl::init(true)};
  PassOptions::Option<uint64_t> cutMinGain{
      *this, "cut-min-gain",
      llvm::cl::desc("Cut a value only if it saves at least this many ops "
                     "per point and gather nest"),
      llvm::cl::init(kDefaultCutMinGain)};
  PassOptions::Option<bool> hoistTemporaries{
      *this, "hoist-temporaries",
      llvm::cl::desc("Allocate the temporaries of functions called in loops "
                     "once, before the loop, not one device allocation per "
                     "call (--stencil-hoist-temporaries)"),
      llvm::cl::init(true)};
  PassOptions::Option<uint64_t> maxGatherOps{
      *this, "max-gather-ops",
      llvm::cl::desc("Fail on a domain whose gather form would clone more "
                     "body ops than this"),
      llvm::cl::init(kDefaultMaxGatherOps)};
  PassOptions::Option<int64_t> coarsen{
      *this, "coarsen",
      llvm::cl::desc("Consecutive points of the outermost dimension each "
                     "thread computes in 2-D and 3-D nests, so that taps "
                     "they share are loaded once (1: one point per thread; "
                     "0: chosen per nest, --stencil-coarsen-gpu-nests)"),
      llvm::cl::init(0)};
  PassOptions::Option<bool> index32{
      *this, "index32",
      llvm::cl::desc("Address arrays with 32-bit index arithmetic in the "
                     "kernels where every array's extent fits in 31 bits "
                     "(checked at run time; 64-bit kernels otherwise)"),
      llvm::cl::init(true)};
  PassOptions::Option<bool> index32Loops{
      *this, "index32-loops",
      llvm::cl::desc("With index32, also compute loop indices, bounds "
                     "checks and guards in 32 bits"),
      llvm::cl::init(true)};
  PassOptions::Option<bool> noalias{
      *this, "noalias",
      llvm::cl::desc("Make kernel array pointers noalias (arrays must not "
                     "overlap, as on the CPU) so that arrays a kernel only "
                     "reads go through the read-only data path"),
      llvm::cl::init(true)};
  PassOptions::Option<bool> fpContract{
      *this, "fp-contract",
      llvm::cl::desc("Allow FMA contraction in the kernels (fewer "
                     "instructions; results differ from the CPU build's in "
                     "the last bits)"),
      llvm::cl::init(false)};
  PassOptions::Option<std::string> chip{
      *this, "chip", llvm::cl::desc("The GPU architecture (nvvm target)"),
      llvm::cl::init("sm_90")};
  PassOptions::Option<std::string> features{
      *this, "features",
      llvm::cl::desc("PTX features of the nvvm target (a PTX ISA version "
                     "the chip needs: sm_90 needs 7.8 or later)"),
      llvm::cl::init("+ptx80")};
  PassOptions::Option<std::string> format{
      *this, "format",
      llvm::cl::desc("What is embedded: fatbin (cubin and PTX; needs "
                     "ptxas and fatbinary), bin (cubin), isa (PTX only, "
                     "compiled by the driver at load; needs no CUDA "
                     "toolkit)"),
      llvm::cl::init("fatbin")};
  PassOptions::Option<std::string> toolkit{
      *this, "toolkit",
      llvm::cl::desc("The CUDA toolkit (ptxas, fatbinary, libdevice); "
                     "empty: the one found when the project was configured "
                     "(getBuildCUDAToolkit), else upstream's search "
                     "(CUDA_ROOT, CUDA_HOME, CUDA_PATH, PATH)")};
  PassOptions::Option<bool> cInterface{
      *this, "c-interface",
      llvm::cl::desc("Emit _mlir_ciface_ wrappers for public functions"),
      llvm::cl::init(true)};
  PassOptions::Option<bool> checkBounds{
      *this, kCheckBoundsOption, llvm::cl::desc(kCheckBoundsDescription),
      llvm::cl::init(true)};
};

/// Adds --stencil-coarsen-gpu-nests with `factor` (0: chosen per nest) and
/// the canonicalization and CSE that fold its copies' index sums; nothing
/// for factor 1. The GPU pipeline's `coarsen` and convert-to-omp's
/// `gpu-coarsen` both run it right after lower-affine.
void addGPUCoarsening(OpPassManager &pm, int64_t factor);

/// The CUDA toolkit directory CMake found when the project was configured
/// ("" if none).
const char *getBuildCUDAToolkit();

/// Builds the pipeline from stencil IR to the LLVM dialect with GPU
/// kernels: stencil -> affine -> scf.parallel (every dimension) -> gpu
/// launches -> NVVM -> an embedded binary, host code calling the GPU
/// runtime (lib/Runtime/GPURuntime.c).
void buildConvertToGPUPipeline(OpPassManager &pm,
                               const ConvertToGPUOptions &options);

/// Registers `convert-to-omp` and `convert-to-gpu` as named pipelines.
void registerStencilPipelines();

} // namespace mlir::stencil

#endif // STENCIL_PIPELINES_PIPELINES_H
