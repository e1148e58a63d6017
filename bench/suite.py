# ===- suite.py - What the benchmark suite runs --------------------------=== #
#
# The kernels and variants of stencil-bench as bench/run.py and
# bench/plots.py report them. The variant names are those of
# variantName() in bench/BenchHarness.cpp; the sized kernel names those of
# BenchMain.cpp (`<kernel>_n<size>` for a kernel's extra sizes).
#
# ===----------------------------------------------------------------------=== #

# Kernels with their own IR (compile statistics are per kernel).
KERNELS = ["wave3d", "burgers1d", "paper1d", "dense27", "sin125"]
# What is timed: each kernel at its main size, wave3d also at the
# cache-resident sizes of issue 11 (StencilKernel::extraSizes).
BENCH_KERNELS = ["wave3d", "wave3d_n128", "wave3d_n64", "burgers1d",
                 "paper1d", "dense27", "sin125"]
VARIANTS = ["primal", "c_primal", "gather_compact", "gather_unchecked",
            "gather_exact",
            "gather_unfused", "gather_planes", "gather_fixed", "gather_apart",
            "gather_unpeeled",
            "gather_guarded",
            "gather_noreset", "gather_cut", "gather_noring", "scatter_serial",
            "scatter_atomic", "c_gather_core", "c_gather_core_tiled",
            "c_gather_core_ring",
            "halide_primal", "halide_adjoint"]
VARIANT_LABELS = {
    "primal": "primal (ours)",
    "c_primal": "primal (hand-written C)",
    "gather_compact": "gather adjoint, compact",
    "gather_unchecked": "gather adjoint, compact, no bounds checks",
    "gather_exact": "gather adjoint, exact",
    "gather_unfused": "gather, reset a separate sweep",
    "gather_planes": "gather, reset by planes",
    "gather_fixed": "gather, fixed reset blocks",
    "gather_apart": "gather, dim-0 slabs apart",
    "gather_unpeeled": "gather, innermost slabs guarded",
    "gather_guarded": "gather, guarded slabs",
    "gather_noreset": "gather, no reset",
    "gather_cut": "gather, every shared value cut",
    "gather_noring": "gather, nothing cut (no rings)",
    "scatter_serial": "scatter adjoint, serial",
    "scatter_atomic": "scatter adjoint, atomic",
    "c_gather_core": "C gather core (no boundary, no reset)",
    "c_gather_core_tiled": "the same, j-tiles of 32 rows",
    "c_gather_core_ring": "the same, from a ring of 3 planes of partials",
    "halide_primal": "Halide 14 primal",
    "halide_adjoint": "Halide 14 adjoint (no reset)",
}
# Where each kernel's IR lives (bench/CMakeLists.txt uses the same files).
KERNEL_SOURCES = {
    "wave3d": "examples/wave3d.mlir",
    "burgers1d": "examples/burgers1d.mlir",
    "paper1d": "examples/paper1d.mlir",
    "dense27": "bench/kernels/dense27.mlir",
    "sin125": "bench/kernels/sin125.mlir",
}
# `--convert-to-omp` options of each adjoint variant.
PIPELINES = {
    "gather_compact": "scatter=gather boundary=compact",
    "gather_exact": "scatter=gather boundary=exact",
    "scatter_serial": "scatter=serial",
    "scatter_atomic": "scatter=atomic",
}
