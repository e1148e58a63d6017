# ===- suite.py - What the benchmark suite runs --------------------------=== #
#
# The kernels and variants of stencil-bench and stencil-bench-timeloop as
# bench/run.py, bench/plots.py and bench/timeloop_ratios.py report them, read
# from bench/variants.json, the table bench/CMakeLists.txt builds them from
# and the harness names them by (variantName()). The sized kernel names are
# those of BenchMain.cpp (`<kernel>_n<size>` for a kernel's extra sizes).
#
# ===----------------------------------------------------------------------=== #

import json
import os
import re

with open(os.path.join(os.path.dirname(os.path.abspath(__file__)),
                       "variants.json")) as _f:
    TABLE = json.load(_f)

# Kernels with their own IR (compile statistics are per kernel), and where
# their IR lives.
KERNEL_SOURCES = dict(TABLE["kernels"])
KERNELS = list(KERNEL_SOURCES)
# What is timed: each kernel at its main size, wave3d also at the
# cache-resident sizes (StencilKernel::extraSizes in BenchWave3d.cpp).
BENCH_KERNELS = ["wave3d", "wave3d_n128", "wave3d_n64", "burgers1d",
                 "paper1d", "dense27", "sin125", "filter3d", "wave3d_layered"]
VARIANTS = [v["name"] for v in TABLE["variants"]]
VARIANT_LABELS = {v["name"]: v["label"] for v in TABLE["variants"]}
# `--convert-to-omp` options of the adjoint variants whose compilation
# bench/run.py times.
PIPELINES = {v["name"]: v["omp"] for v in TABLE["variants"]
             if v.get("compile_stats")}
# The builds stencil-bench-timeloop times beside each default adjoint
# (revolve_<name>_s<S>), with their labels.
TIMELOOP_BUILDS = [(v["name"], v["label"]) for v in TABLE["timeloop_variants"]]


def runs_on(variant, bench_kernel):
    """Whether the table runs `variant` on `bench_kernel` (one of
    BENCH_KERNELS: a kernel, or `<kernel>_n<size>` at an extra size)."""
    kernel = re.sub(r"_n\d+$", "", bench_kernel)
    on = next(v["kernels"] for v in TABLE["variants"] if v["name"] == variant)
    return on == "all" or kernel in on


def check_table(table=TABLE):
    """The table's rules, which bench/BenchVariants.cmake and the harness
    rely on: returns a list of problems (empty when it is well formed)."""
    problems = []
    kernels = set(table["kernels"])
    names = [v["name"] for v in table["variants"]]
    for name in set(n for n in names if names.count(n) > 1):
        problems.append("variant %s appears twice" % name)
    for v in table["variants"]:
        where = "variant %s" % v.get("name")
        for field in ("name", "source", "adjoint", "kernels", "label"):
            if field not in v:
                problems.append("%s has no %s" % (where, field))
        if v.get("source") not in ("ours", "c", "halide"):
            problems.append("%s: source is ours, c or halide" % where)
        on = v.get("kernels")
        if on != "all" and not (isinstance(on, list) and set(on) <= kernels):
            problems.append("%s: kernels is \"all\" or a list of %s"
                            % (where, ", ".join(sorted(kernels))))
        lowered = v.get("source") == "ours" and v.get("adjoint")
        if lowered and "omp" not in v:
            problems.append("%s: an adjoint of ours needs omp options" % where)
        if set(v.get("omp_for", {})) - kernels:
            problems.append("%s: omp_for names an unknown kernel" % where)
        if ("ir" in v) != ("function" in v):
            problems.append("%s: ir and function go together" % where)
        if "ir" in v and not (lowered and isinstance(on, list) and len(on) == 1):
            problems.append("%s: an ir of its own is an adjoint of ours on "
                            "one kernel" % where)
    if sum(1 for v in table["variants"] if v.get("exports_primal")) != 1:
        problems.append("exactly one variant exports the primal")
    tl_kernels = set(table["timeloop_kernels"])
    tl_names = [v["name"] for v in table["timeloop_variants"]]
    for name in set(n for n in tl_names if tl_names.count(n) > 1):
        problems.append("time-loop variant %s appears twice" % name)
    for v in table["timeloop_variants"]:
        on = v.get("kernels")
        if on != "all" and not (isinstance(on, list) and set(on) <= tl_kernels):
            problems.append("time-loop variant %s: unknown kernels"
                            % v.get("name"))
    return problems


if __name__ == "__main__":
    # `bench/suite.py [table.json]`: checks bench/variants.json (or the given
    # table) and prints what each variant is built from
    # (test/Tools/bench-variants.test).
    import sys
    table = TABLE
    if len(sys.argv) > 1:
        with open(sys.argv[1]) as f:
            table = json.load(f)
    errors = check_table(table)
    for e in errors:
        print("variants.json: " + e)
    if errors:
        sys.exit(1)

    def kernels_of(v):
        return v["kernels"] if v["kernels"] == "all" else ",".join(v["kernels"])
    for v in table["variants"]:
        how = v["source"]
        if "omp" in v:
            how = "--convert-to-omp=\"%s\"" % v["omp"]
            if v.get("adjoint_options"):
                how = "--stencil-adjoint=\"%s\" %s" % (v["adjoint_options"], how)
            if v.get("ir"):
                how = "%s (@%s) %s" % (v["ir"], v["function"], how)
        print("%s [%s] %s" % (v["name"], kernels_of(v), how))
    for v in table["timeloop_variants"]:
        print("timeloop %s [%s] --stencil-adjoint=\"%s\" --convert-to-omp=\"%s\""
              % (v["name"], kernels_of(v), v["adjoint_options"], v["omp"]))
