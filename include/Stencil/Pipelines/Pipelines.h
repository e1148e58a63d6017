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
#include "Stencil/Distribution/Passes.h"
#include "Stencil/Gather/Passes.h"
#include "Stencil/GPU/Passes.h"
#include "Stencil/Target/Passes.h"

#include "mlir/Pass/PassOptions.h"

namespace mlir {
class OpPassManager;
} // namespace mlir

namespace mlir::stencil {

/// The option of both pipelines that turns off the bounds checks at the C
/// entry points (--stencil-check-abi-bounds, docs/ABI.md "Bounds checks"),
/// and its description.
inline constexpr llvm::StringLiteral kCheckBoundsOption = "check-bounds";
inline constexpr llvm::StringLiteral kCheckBoundsDescription =
    "Check at entry of each C entry point that its arrays cover what the "
    "call accesses (--stencil-check-abi-bounds; 0: unchecked, for speed)";

/// Options of the `convert-to-omp` pipeline, in two parts: the options a
/// user sets, then the experiment switches, each at its best setting by
/// default and kept so that the benchmarks (bench/variants.json) can measure
/// what it buys. The help marks the latter "[experiment]". Where an option
/// is also a pass's option, its default is the pass's (the options struct
/// tablegen generates from Passes.td), written nowhere else.
struct ConvertToOMPOptions : public PassPipelineOptions<ConvertToOMPOptions> {
  //===--------------------------------------------------------------------===//
  // Options for users
  //===--------------------------------------------------------------------===//

  PassOptions::Option<ScatterLowering> scatter{
      *this, "scatter", llvm::cl::desc("How domains that scatter run"),
      llvm::cl::init(ScatterLowering::Gather), scatterLoweringValues()};
  PassOptions::Option<BoundaryStrategy> boundary{
      *this, "boundary",
      llvm::cl::desc("Boundary nests of the gather form"),
      llvm::cl::init(StencilScatterToGatherPassOptions().boundary),
      boundaryStrategyValues()};
  PassOptions::Option<uint64_t> maxExactNests{
      *this, "max-exact-nests",
      llvm::cl::desc("Above this many boxes, boundary=exact falls back to "
                     "compact (with a remark)"),
      llvm::cl::init(StencilScatterToGatherPassOptions().maxExactNests)};
  PassOptions::Option<uint64_t> maxGatherOps{
      *this, "max-gather-ops",
      llvm::cl::desc("Fail on a domain whose gather form would clone more "
                     "body ops than this"),
      llvm::cl::init(StencilScatterToGatherPassOptions().maxGatherOps)};
  PassOptions::Option<bool> fpContract{
      *this, "fp-contract",
      llvm::cl::desc("Allow FMA contraction (changes results in the last "
                     "bits)"),
      llvm::cl::init(false)};
  PassOptions::Option<bool> cInterface{
      *this, "c-interface",
      llvm::cl::desc("Emit _mlir_ciface_ wrappers for public functions and "
                     "mark array data pointers noalias"),
      llvm::cl::init(true)};
  PassOptions::Option<bool> checkBounds{
      *this, kCheckBoundsOption, llvm::cl::desc(kCheckBoundsDescription),
      llvm::cl::init(true)};

  //===--------------------------------------------------------------------===//
  // Experiment switches
  //===--------------------------------------------------------------------===//

  PassOptions::Option<bool> cut{
      *this, "cut",
      llvm::cl::desc("[experiment] Before the gather conversion, store "
                     "values that statements at several shifts share in "
                     "temporary arrays (--stencil-cut-shared)"),
      llvm::cl::init(true)};
  PassOptions::Option<uint64_t> cutMinGain{
      *this, "cut-min-gain",
      llvm::cl::desc("[experiment] Cut a value only if it saves at least "
                     "this many ops per point and gather nest"),
      llvm::cl::init(StencilCutSharedPassOptions().minGain)};
  PassOptions::Option<uint64_t> cutRingMinGain{
      *this, "cut-ring-min-gain",
      llvm::cl::desc("[experiment] Where cut-min-gain cuts nothing, cut "
                     "values that save at least this many ops if the "
                     "temporaries become rings of planes (with ring-cut, "
                     "one-outer-loop and boundary=compact; 0: never)"),
      llvm::cl::init(kDefaultCutRingMinGain)};
  PassOptions::Option<bool> cutPadded{
      *this, "cut-padded",
      llvm::cl::desc("[experiment] Write cut domains whose statements are "
                     "cut values times constants as gathers over "
                     "zero-bordered temporaries (no boundary nests)"),
      llvm::cl::init(StencilCutSharedPassOptions().padded)};
  PassOptions::Option<bool> hoistTemporaries{
      *this, "hoist-temporaries",
      llvm::cl::desc("[experiment] Allocate the temporaries of functions "
                     "called in loops (the cut's, in reversed time loops) "
                     "once, before the loop (--stencil-hoist-temporaries)"),
      llvm::cl::init(true)};
  PassOptions::Option<bool> overlapExchanges{
      *this, "overlap-exchanges",
      llvm::cl::desc("[experiment] Compute the interior of the nests after "
                     "a halo exchange while its messages are in flight "
                     "(--stencil-lower-halo-exchange=overlap=1, "
                     "--stencil-overlap-exchanges)"),
      llvm::cl::init(true)};
  PassOptions::Option<unsigned> overlapChunks{
      *this, "overlap-chunks",
      llvm::cl::desc("[experiment] Parts of each overlapped interior, with "
                     "a call that lets MPI progress between them"),
      llvm::cl::init(StencilOverlapExchangesPassOptions().chunks)};
  PassOptions::Option<bool> ringCut{
      *this, "ring-cut",
      llvm::cl::desc("[experiment] Keep the cut's temporaries as per-thread "
                     "rings of planes filled inside the gather sweep "
                     "(--stencil-ring-cut)"),
      llvm::cl::init(true)};
  // The switches of --stencil-scatter-to-gather, under its names.
#define STENCIL_GATHER_SWITCH(TYPE, MEMBER, NAME, DESCRIPTION)                 \
  PassOptions::Option<TYPE> MEMBER{                                            \
      *this, NAME, llvm::cl::desc("[experiment] " DESCRIPTION),                \
      llvm::cl::init(StencilScatterToGatherPassOptions().MEMBER)};
#include "Stencil/Pipelines/GatherSwitches.def"
  PassOptions::Option<bool> gpuIndex32{
      *this, "gpu-index32",
      llvm::cl::desc("[experiment] Run the GPU route's 32-bit index "
                     "narrowing (--stencil-narrow-gpu-indices) on these "
                     "nests: tests it where there is no GPU; no speed-up is "
                     "claimed"),
      llvm::cl::init(false)};
  PassOptions::Option<int64_t> gpuCoarsen{
      *this, "gpu-coarsen",
      llvm::cl::desc("[experiment] Run the GPU route's coarsening "
                     "(--stencil-coarsen-gpu-nests) with this factor on "
                     "these nests (1: not at all; 0: chosen per nest): "
                     "tests it where there is no GPU; no speed-up is "
                     "claimed"),
      llvm::cl::init(1)};
  PassOptions::Option<unsigned> vectorWidth1D{
      *this, "vector-width-1d",
      llvm::cl::desc("[experiment] Preferred vector width, in bits, of "
                     "functions whose stencil domains are all "
                     "one-dimensional (--stencil-vector-width; 0: LLVM's "
                     "choice)"),
      llvm::cl::init(StencilVectorWidthPassOptions().rank1Width)};
};

/// Builds the pipeline from stencil IR to the LLVM dialect with OpenMP:
/// stencil -> affine -> scf.parallel -> omp -> llvm.
void buildConvertToOMPPipeline(OpPassManager &pm,
                               const ConvertToOMPOptions &options);

/// Adds the stencil part of `convert-to-omp`, from the input checks to
/// --lower-affine: the module then has SCF loops (scf.parallel for the
/// parallel ones), arith, math and memref. `convert-to-c` starts with it
/// too.
void addStencilToSCFPasses(OpPassManager &pm,
                           const ConvertToOMPOptions &options);

/// Options of the `convert-to-c` pipeline (docs/CSource.md): those of
/// `convert-to-omp` that shape the loops the C source shows, with the same
/// defaults.
struct ConvertToCOptions : public PassPipelineOptions<ConvertToCOptions> {
  PassOptions::Option<ScatterLowering> scatter{
      *this, "scatter",
      llvm::cl::desc("How domains that scatter run (gather or serial; "
                     "atomic updates have no C99 form)"),
      llvm::cl::init(ScatterLowering::Gather), scatterLoweringValues()};
  PassOptions::Option<BoundaryStrategy> boundary{
      *this, "boundary",
      llvm::cl::desc("Boundary nests of the gather form"),
      llvm::cl::init(StencilScatterToGatherPassOptions().boundary),
      boundaryStrategyValues()};
  PassOptions::Option<uint64_t> maxGatherOps{
      *this, "max-gather-ops",
      llvm::cl::desc("Fail on a domain whose gather form would clone more "
                     "body ops than this"),
      llvm::cl::init(StencilScatterToGatherPassOptions().maxGatherOps)};
  PassOptions::Option<bool> formExpressions{
      *this, "form-expressions",
      llvm::cl::desc("Fold single-use values into C expressions "
                     "(--form-expressions; 0: one variable per value)"),
      llvm::cl::init(true)};
};

/// The name `convert-to-c` is registered under, and the passes
/// `stencil-compile --emit=c` runs by default.
inline constexpr llvm::StringLiteral kConvertToCPipeline = "convert-to-c";

/// Builds the pipeline from stencil IR to EmitC, which
/// mlir::emitc::translateToCpp prints as C99 with OpenMP pragmas:
/// the stencil part of convert-to-omp (without the cut's temporaries and
/// the C interface of the object route) -> pointers and extents -> EmitC.
void buildConvertToCPipeline(OpPassManager &pm,
                             const ConvertToCOptions &options);

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

/// Registers `convert-to-omp`, `convert-to-gpu` and `convert-to-c` as
/// named pipelines.
void registerStencilPipelines();

} // namespace mlir::stencil

#endif // STENCIL_PIPELINES_PIPELINES_H
