#!/usr/bin/env python3
# ===- run.py - Run the stencil benchmark suite and report ----------------=== #
#
# The one command behind docs/Performance.md:
#
#   bench/run.py [--build-dir build] [--threads 1,2] [--quick]
#
# 1. runs `stencil-bench` (bench/CMakeLists.txt) with Google Benchmark's JSON
#    output: STREAM triad, then primal, hand-written C primal, gather adjoint
#    (compact and exact boundaries), serial and atomic scatter adjoints of
#    wave3d, burgers1d, paper1d and dense27, at every thread count;
# 2. times `stencil-opt --stencil-adjoint --convert-to-omp=...` on the 3-D
#    kernels and counts the loop nests the adjoint lowerings generate;
# 3. writes a summary JSON (bench/results/results.json), the markdown
#    tables (bench/results/tables.md, also printed) and PNG plots
#    (docs/perf/*.png, with matplotlib; installed from Debian's
#    python3-matplotlib when missing, unless --no-install).
#
# Only the standard library is needed to run and to write the JSON and the
# tables. Benchmarks assert nothing; the targets of the issue are reported
# as met or missed.
#
# ===----------------------------------------------------------------------=== #

import argparse
import datetime
import json
import os
import platform
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

import plots
import rounds
from suite import (BENCH_KERNELS, KERNELS, KERNEL_SOURCES, PIPELINES, VARIANTS,
                   VARIANT_LABELS, runs_on)

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
LLVM_BIN = os.environ.get("STENCIL_LLVM_BIN", "/usr/lib/llvm-22/bin")


# Sizes of --quick: small enough for a smoke test, not for numbers.
QUICK_SIZES = ("wave3d=96:128:64,burgers1d=4e6,paper1d=4e6,dense27=96,sin125=48,"
               "filter3d=48,wave3d_layered=48,stream=4e6")


# ===----------------------------------------------------------------------=== #
# Machine description
# ===----------------------------------------------------------------------=== #


def command_output(cmd):
    try:
        return subprocess.run(cmd, capture_output=True, text=True,
                              check=False).stdout
    except OSError:
        return ""


def machine_info():
    info = {"hostname": platform.node(), "kernel": platform.release(),
            "python": platform.python_version()}
    lscpu = command_output(["lscpu"])
    for key, field in [("Model name", "cpu_model"), ("CPU(s)", "cpus"),
                       ("Thread(s) per core", "threads_per_core"),
                       ("Core(s) per socket", "cores_per_socket"),
                       ("Socket(s)", "sockets"), ("L2 cache", "l2"),
                       ("L3 cache", "l3"), ("NUMA node(s)", "numa_nodes"),
                       ("Hypervisor vendor", "hypervisor")]:
        m = re.search(r"^%s:\s*(.+)$" % re.escape(key), lscpu, re.M)
        if m:
            info[field] = m.group(1).strip()
    try:
        with open("/proc/meminfo") as f:
            m = re.search(r"MemTotal:\s+(\d+) kB", f.read())
            if m:
                info["memory_gib"] = round(int(m.group(1)) / 2**20, 1)
    except OSError:
        pass
    try:
        with open("/proc/loadavg") as f:
            info["loadavg_before"] = f.read().split()[:3]
    except OSError:
        pass
    commit = command_output(["git", "-C", ROOT, "rev-parse", "--short", "HEAD"]).strip()
    if commit:
        dirty = command_output(["git", "-C", ROOT, "status", "--porcelain",
                                "--untracked-files=no"]).strip()
        info["git_commit"] = commit + ("+dirty" if dirty else "")
    clang = command_output([os.path.join(LLVM_BIN, "clang"), "--version"])
    info["clang"] = clang.splitlines()[0] if clang else "unknown"
    return info


# ===----------------------------------------------------------------------=== #
# Running the benchmarks
# ===----------------------------------------------------------------------=== #


def busy_cpu_seconds():
    """CPU time spent by every process on the machine so far (from
    /proc/stat), or None when unavailable."""
    try:
        with open("/proc/stat") as f:
            fields = [int(x) for x in f.readline().split()[1:]]
    except (OSError, ValueError):
        return None
    # user nice system idle iowait irq softirq steal ...: all but idle/iowait.
    busy = sum(fields[:3]) + sum(fields[5:8])
    return busy / os.sysconf("SC_CLK_TCK")


def other_load_over(seconds):
    """Average number of cores that other processes keep busy over the next
    `seconds` (this script only sleeps meanwhile), or None if unknown."""
    before = busy_cpu_seconds()
    time.sleep(seconds)
    after = busy_cpu_seconds()
    return None if before is None or after is None else (after - before) / seconds


def wait_until_quiet(args):
    """Waits (at most --wait-quiet seconds) until other processes use less
    than --quiet-threshold cores over 10 s."""
    deadline = time.time() + args.wait_quiet
    while True:
        load = other_load_over(10)
        if load is None or load < args.quiet_threshold:
            return
        if time.time() > deadline:
            print("run.py: machine still busy (%.2f cores), running anyway" % load,
                  flush=True)
            return
        print("run.py: waiting for a quiet machine (others use %.2f cores)" % load,
              flush=True)


def run_chunk(args, bench_filter, raw_json):
    """Runs stencil-bench once; returns its wall time and the average number
    of cores that other processes kept busy meanwhile (None if unknown)."""
    binary = os.path.join(args.build_dir, "bin", "stencil-bench")
    env = dict(os.environ)
    env["STENCIL_BENCH_THREADS"] = args.threads
    # Rounds (rounds.py): each variant once per round, round after round.
    env["STENCIL_BENCH_ROUNDS"] = str(args.repetitions)
    if args.sizes:
        env["STENCIL_BENCH_SIZES"] = args.sizes
    cmd = [binary, "--benchmark_out=" + raw_json,
           "--benchmark_out_format=json",
           "--benchmark_min_time=%g" % args.min_time,
           "--benchmark_filter=" + bench_filter]
    print("+ STENCIL_BENCH_ROUNDS=%d STENCIL_BENCH_THREADS=%s%s %s" % (
        args.repetitions, args.threads, (" STENCIL_BENCH_SIZES=" + args.sizes) if args.sizes else "",
        " ".join(cmd)), flush=True)
    busy_before = busy_cpu_seconds()
    ours_before = os.times()
    start = time.time()
    result = subprocess.run(cmd, env=env)
    wall = time.time() - start
    if result.returncode != 0:
        sys.exit("run.py: stencil-bench failed (exit %d)" % result.returncode)
    busy_after = busy_cpu_seconds()
    ours_after = os.times()
    others = None
    if busy_before is not None and busy_after is not None and wall > 0:
        ours = (ours_after.children_user + ours_after.children_system) - \
               (ours_before.children_user + ours_before.children_system)
        others = max(0.0, (busy_after - busy_before) - ours) / wall
    return wall, others


def run_benchmarks(args, raw_json):
    """Runs the suite in chunks, one process per kernel (and one for the
    STREAM triad), so that only one kernel's arrays exist at a time and a
    chunk disturbed by other processes can be rerun: on a 2-core machine a
    busy core halves the 2-thread figures. With --wait-quiet, each chunk
    waits for a quiet machine first and is rerun (up to --retries times)
    if other processes used more than --quiet-threshold cores during it.
    Merges the chunks' JSON into `raw_json`; returns the total wall time
    and {chunk: other processes' load}."""
    binary = os.path.join(args.build_dir, "bin", "stencil-bench")
    if not os.access(binary, os.X_OK):
        sys.exit("run.py: %s not found; build it with "
                 "`ninja -C %s stencil-bench`" % (binary, args.build_dir))
    if args.filter:
        chunks = [("filter", args.filter)]
    else:
        chunks = [(k, "^%s/" % k) for k in ["stream"] + BENCH_KERNELS]
    merged = None
    loads = {}
    total = 0.0
    for name, bench_filter in chunks:
        best = None  # (load of others, JSON) of the least disturbed attempt.
        for attempt in range(1 + (args.retries if args.wait_quiet else 0)):
            if args.wait_quiet:
                wait_until_quiet(args)
            chunk_json = "%s.%s.%d" % (raw_json, name, attempt)
            wall, others = run_chunk(args, bench_filter, chunk_json)
            total += wall
            with open(chunk_json) as f:
                data = json.load(f)
            os.remove(chunk_json)
            load = others if others is not None else 0.0
            if best is None or load < best[0]:
                best = (load, data)
                loads[name] = None if others is None else round(others, 2)
            if load <= args.quiet_threshold or not args.wait_quiet:
                break
            print("run.py: other processes used %.2f cores during %s; rerunning"
                  % (others, name), flush=True)
        data = best[1]
        if merged is None:
            merged = data
        else:
            merged["benchmarks"].extend(data["benchmarks"])
    with open(raw_json, "w") as f:
        json.dump(merged, f, indent=1)
    return total, loads


# ===----------------------------------------------------------------------=== #
# Compile time and loop nests
# ===----------------------------------------------------------------------=== #


def remark_json(stderr, prefix):
    """The JSON payloads of the remarks `<prefix>{...}` in `stderr`: the
    compiler's structured reports (--stencil-report-loops, the gather
    plan of report-nests), so that nothing here parses printed IR."""
    return [json.loads(line.split(prefix, 1)[1])
            for line in stderr.splitlines() if "remark: " + prefix in line]


def loop_reports(stderr):
    """{function: loop report} from --stencil-report-loops remarks."""
    return {r["function"]: r for r in remark_json(stderr, "loop report: ")}


def time_command(cmd, runs):
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        subprocess.run(cmd, stdout=subprocess.DEVNULL, check=True)
        times.append(time.perf_counter() - start)
    return statistics.median(times), min(times)


def compile_stats(args):
    """Times the pipeline on the 3-D kernels and counts generated nests."""
    stencil_opt = os.path.join(args.build_dir, "bin", "stencil-opt")
    stencil_compile = os.path.join(args.build_dir, "bin", "stencil-compile")
    stats = []
    with tempfile.TemporaryDirectory(prefix="stencil-bench-") as tmp:
        for kernel in KERNELS:
            src = os.path.join(ROOT, KERNEL_SOURCES[kernel])
            for variant, options in PIPELINES.items():
                entry = {"kernel": kernel, "variant": variant,
                         "pipeline": "--stencil-adjoint --convert-to-omp=\"%s\""
                                     % options}
                # Nests at the affine level: the shape scatter-to-gather (or
                # the scatter lowering) produces, before OpenMP.
                # The cut with the pipeline's defaults, as convert-to-omp.
                if variant.startswith("gather"):
                    # Reductions split from the domains first, as
                    # convert-to-omp does.
                    affine = ["--stencil-adjoint", "--stencil-split-reductions",
                              "--stencil-cut-shared",
                              "--stencil-scatter-to-gather=boundary=" +
                              variant.split("_")[1],
                              "--convert-stencil-to-affine"]
                else:
                    affine = ["--stencil-adjoint",
                              "--convert-stencil-to-affine=scatter=" +
                              variant.split("_")[1]]
                if variant.startswith("gather"):
                    affine[3] += " report-nests=1"
                proc = subprocess.run([stencil_opt, src] + affine +
                                      ["--stencil-report-loops", "-o", os.devnull],
                                      capture_output=True, text=True, check=True)
                # The pass's own plan: boxes of the exact split that are a
                # single point have no loop, so the loop report misses them.
                plans = remark_json(proc.stderr, "gather plan: ")
                if plans:
                    entry["gather_nests"] = {
                        key: sum(p[field] for p in plans)
                        for key, field in (("core", "core"),
                                           ("boundary", "boundary_nests"),
                                           ("fallback", "fallback_nests"))}
                loops = loop_reports(proc.stderr)
                adjoint = loops.get(kernel + "_adjoint", {})
                entry["adjoint_nests"] = adjoint.get("loop_nests", 0)
                entry["fallback_nests"] = adjoint.get("loop_nests_in_else", 0)
                entry["primal_nests"] = loops.get(kernel, {}).get("loop_nests", 0)
                lowered = os.path.join(tmp, "%s_%s.mlir" % (kernel, variant))
                cmd = [stencil_opt, src, "--stencil-adjoint",
                       "--convert-to-omp=" + options, "-o", lowered]
                # Compile time is asked for the 3-D kernels; the 1-D ones
                # are cheap and timed once.
                runs = args.compile_runs if kernel in ("wave3d", "dense27", "sin125") else 1
                entry["stencil_opt_s"], entry["stencil_opt_min_s"] = \
                    time_command(cmd, runs)
                # The OpenMP regions and worksharing loops of the adjoint.
                proc = subprocess.run([stencil_opt, lowered,
                                       "--stencil-report-loops", "-o", os.devnull],
                                      capture_output=True, text=True, check=True)
                adjoint = loop_reports(proc.stderr).get(kernel + "_adjoint", {})
                entry["omp_parallel_regions"] = adjoint.get("omp_parallel", 0)
                entry["omp_wsloops"] = adjoint.get("omp_wsloop", 0)
                # The whole chain stencil_add_kernel runs, from the source:
                # stencil-compile parses only input dialects (docs/
                # Diagnostics.md), so it is not handed the lowered module.
                obj = os.path.join(tmp, "k.o")
                start = time.perf_counter()
                subprocess.run([stencil_compile, src, "-o", obj,
                                "--stencil-adjoint",
                                "--convert-to-omp=" + options], check=True)
                entry["stencil_compile_s"] = time.perf_counter() - start
                entry["object_bytes"] = os.path.getsize(obj)
                stats.append(entry)
    return stats


# ===----------------------------------------------------------------------=== #
# Ratios, targets and tables
# ===----------------------------------------------------------------------=== #


def ratio(results, kernel, num, den, threads):
    return rounds.ratio(results.get((kernel, num, threads)),
                        results.get((kernel, den, threads)))


def bandwidth_bound(results, kernel, threads, reset=True):
    """The time of the gather adjoint over the primal's if both moved their
    bytes at the same rate: the bytes of a sweep, write-allocate included
    (the counters of StencilKernel), without the reset of the output
    adjoint unless `reset`."""
    adj = results.get((kernel, "gather_compact", threads))
    pri = results.get((kernel, "primal", threads))
    keys = ("bytes_per_sweep", "write_allocate_bytes_per_sweep",
            "reset_bytes_per_sweep")
    if not adj or not pri or any(adj.get(k) is None or pri.get(k) is None
                                 for k in keys):
        return None
    num = adj["bytes_per_sweep"] + adj["write_allocate_bytes_per_sweep"]
    if not reset:
        num -= adj["reset_bytes_per_sweep"]
    den = pri["bytes_per_sweep"] + pri["write_allocate_bytes_per_sweep"]
    return num / den if den else None


def compute_ratios(results, threads):
    rows = []
    for kernel in BENCH_KERNELS:
        for t in threads:
            if (kernel, "primal", t) not in results:
                continue
            rows.append({
                "kernel": kernel, "threads": t,
                "adjoint_over_primal": ratio(results, kernel, "gather_compact", "primal", t),
                "adjoint_over_primal_range": rounds.ratio_range(
                    results.get((kernel, "gather_compact", t)),
                    results.get((kernel, "primal", t))),
                "bound": bandwidth_bound(results, kernel, t),
                "bound_noreset": bandwidth_bound(results, kernel, t, reset=False),
                "checked_over_unchecked": ratio(results, kernel, "gather_compact", "gather_unchecked", t),
                "adjoint_exact_over_primal": ratio(results, kernel, "gather_exact", "primal", t),
                "adjoint_unfused_over_primal": ratio(results, kernel, "gather_reset_sweep", "primal", t),
                "adjoint_noreset_over_primal": ratio(results, kernel, "gather_noreset", "primal", t),
                "atomic_over_gather": ratio(results, kernel, "scatter_atomic", "gather_compact", t),
                "serial_over_gather": ratio(results, kernel, "scatter_serial", "gather_compact", t),
                "ours_over_c": ratio(results, kernel, "primal", "c_primal", t),
                "halide_adjoint_over_primal": ratio(results, kernel, "halide_adjoint", "primal", t),
                "adjoint_over_halide": ratio(results, kernel, "gather_compact", "halide_adjoint", t),
                "adjoint_noreset_over_halide": ratio(results, kernel, "gather_noreset", "halide_adjoint", t),
                "primal_over_halide": ratio(results, kernel, "primal", "halide_primal", t),
            })
    return rows


def reduction_ratios(results, threads):
    """The adjoints that sum into a filter or a coefficient: filter3d's
    whole adjoint (u_b and w_b) and without w_b (w passive), and the share
    of the 27 reductions in the whole adjoint's time; the layered wave step's
    adjoint (v[k] active) against the same step with a 3-D c active."""
    rows = []
    for t in threads:
        if ("filter3d", "primal", t) in results:
            without = ratio(results, "filter3d", "gather_no_weights",
                            "gather_compact", t)
            rows.append({
                "kernel": "filter3d", "threads": t,
                "adjoint_over_primal": ratio(results, "filter3d", "gather_compact", "primal", t),
                "no_weights_over_primal": ratio(results, "filter3d", "gather_no_weights", "primal", t),
                "reductions_share": None if without is None else 1.0 - without,
                "serial_over_gather": ratio(results, "filter3d", "scatter_serial", "gather_compact", t),
                "atomic_over_gather": ratio(results, "filter3d", "scatter_atomic", "gather_compact", t)})
        if ("wave3d_layered", "primal", t) in results:
            rows.append({
                "kernel": "wave3d_layered", "threads": t,
                "adjoint_over_primal": ratio(results, "wave3d_layered", "gather_compact", "primal", t),
                "coef3d_over_primal": ratio(results, "wave3d_layered", "gather_coef3d", "primal", t),
                "layered_over_coef3d": ratio(results, "wave3d_layered", "gather_compact", "gather_coef3d", t),
                "layered_over_coef3d_range": rounds.ratio_range(
                    results.get(("wave3d_layered", "gather_compact", t)),
                    results.get(("wave3d_layered", "gather_coef3d", t))),
                "serial_over_gather": ratio(results, "wave3d_layered", "scatter_serial", "gather_compact", t),
                "atomic_over_gather": ratio(results, "wave3d_layered", "scatter_atomic", "gather_compact", t)})
    return rows


def evaluate_targets(results, threads):
    """The targets of the issue (2 cores), at 2 threads (or the largest
    thread count run) and 1 thread."""
    top = 2 if 2 in threads else max(threads)
    targets = []

    def add(text, value, ok, note=""):
        targets.append({"target": text, "value": value,
                        "met": None if value is None else ok(value),
                        "note": note})

    # The targets: the adjoint over its primal, with the reset and (wave3d)
    # where the reset is not needed.
    for kernel, variant, adj_max in [("wave3d", "gather_compact", 1.45),
                                     ("wave3d", "gather_noreset", 1.3),
                                     ("wave3d_n128", "gather_compact", 1.6),
                                     ("wave3d_n64", "gather_compact", 1.6),
                                     ("burgers1d", "gather_compact", 1.5),
                                     ("paper1d", "gather_compact", 1.3),
                                     ("dense27", "gather_compact", 1.5),
                                     ("sin125", "gather_compact", 3.0),
                                     ("filter3d", "gather_compact", 1.5)]:
        for t in sorted(set([1, top]) & set(threads)):
            r = ratio(results, kernel, variant, "primal", t)
            add("%s: %s <= %.2fx primal (%d threads)" % (kernel, variant, adj_max, t),
                r, lambda v, m=adj_max: v <= m)
    # A layered coefficient's gradient (a reduction over (i, j)) costs
    # little more than a full 3-D coefficient's.
    for t in sorted(set([1, top]) & set(threads)):
        r = ratio(results, "wave3d_layered", "gather_compact", "gather_coef3d", t)
        add("wave3d_layered: v[k] active <= 1.10x 3-D c active (%d threads)" % t,
            r, lambda v: v <= 1.10)
    # Ahead of Halide: our adjoint, with its reset, no slower than Halide's
    # adjoint, which does not reset.
    for kernel in [k for k in BENCH_KERNELS if runs_on("halide_adjoint", k)]:
        for t in sorted(set([1, top]) & set(threads)):
            r = ratio(results, kernel, "gather_compact", "halide_adjoint", t)
            add("%s: gather adjoint no slower than Halide's (%d threads)" % (kernel, t),
                r, lambda v: v <= 1.0)
    for kernel, atomic_min in [("wave3d", 15.0), ("burgers1d", 8.0)]:
        r = ratio(results, kernel, "scatter_atomic", "gather_compact", top)
        add("%s: gather adjoint >= %gx faster than atomic scatter (%d threads)"
            % (kernel, atomic_min, top), r, lambda v, m=atomic_min: v >= m)
    for kernel in BENCH_KERNELS:
        for t in threads:
            r = ratio(results, kernel, "primal", "c_primal", t)
            add("%s: primal within 10%% of hand-written C (%d threads)" % (kernel, t),
                r, lambda v: v <= 1.10)
    for kernel in BENCH_KERNELS:
        if 1 in threads:
            r = ratio(results, kernel, "scatter_serial", "gather_compact", 1)
            add("%s: gather adjoint at 1 thread no slower than serial scatter" % kernel,
                r, lambda v: v >= 1.0)
    return targets


def fmt(value, spec="%.2f"):
    return "–" if value is None else spec % value


def markdown_tables(results, ratios, targets, stream, compile_stats_, threads,
                    statistic_text, reductions=()):
    out = []
    out.append("#### Time per sweep (ms, %s)\n" % statistic_text)
    out.append("| kernel | threads | " + " | ".join(VARIANT_LABELS[v] for v in VARIANTS) + " |")
    out.append("|---|---:|" + "---:|" * len(VARIANTS))
    for kernel in BENCH_KERNELS:
        for t in threads:
            cells = [fmt(results.get((kernel, v, t), {}).get("time_ms"), "%.1f")
                     for v in VARIANTS]
            if all(c == "–" for c in cells):
                continue
            out.append("| %s | %d | %s |" % (kernel, t, " | ".join(cells)))
    out.append("")
    out.append("#### Ratios (time / time)\n")
    out.append("With medians, each ratio is the median over the rounds of the "
               "ratio within a round; the range is the smallest and largest of "
               "those for the compact adjoint. Bound: the adjoint's bytes over "
               "the primal's, write-allocate included, the time ratio if both "
               "moved memory at the same rate.\n")
    out.append("| kernel | threads | adjoint / primal (compact) | bound "
               "| adjoint / primal (exact) "
               "| (reset unfused) | (no reset) | bound without reset "
               "| atomic / gather | serial scatter / gather | ours / C primal "
               "| compact / primal, range over rounds |")
    out.append("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
    for r in ratios:
        span = r.get("adjoint_over_primal_range")
        out.append("| %s | %d | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s |" % (
            r["kernel"], r["threads"], fmt(r["adjoint_over_primal"]),
            fmt(r.get("bound")),
            fmt(r["adjoint_exact_over_primal"]),
            fmt(r["adjoint_unfused_over_primal"]),
            fmt(r["adjoint_noreset_over_primal"]),
            fmt(r.get("bound_noreset")),
            fmt(r["atomic_over_gather"], "%.1f"),
            fmt(r["serial_over_gather"]), fmt(r["ours_over_c"]),
            "%.2f-%.2f" % tuple(span) if span else "–"))
    out.append("")
    if reductions:
        out.append("#### Reductions into a filter or a coefficient (time / time)\n")
        out.append("filter3d: the whole adjoint (u_b and the 27 sums into w_b) and "
                   "the adjoint with w passive (u_b only), over the primal; the "
                   "reductions' share of the whole adjoint's time is 1 - (w passive "
                   "/ whole). wave3d_layered: the adjoint with v[k] active and with "
                   "a 3-D c active (c_b, no reduction), over the layered primal, "
                   "and the one over the other.\n")
        out.append("| kernel | threads | adjoint / primal | w passive / primal "
                   "| reductions' share | 3-D c / primal | v[k] / 3-D c "
                   "| serial scatter / gather | atomic / gather |")
        out.append("|---|---:|---:|---:|---:|---:|---:|---:|---:|")
        for r in reductions:
            share = r.get("reductions_share")
            span = r.get("layered_over_coef3d_range")
            layered = fmt(r.get("layered_over_coef3d"))
            if span:
                layered += " (%.2f-%.2f)" % tuple(span)
            out.append("| %s | %d | %s | %s | %s | %s | %s | %s | %s |" % (
                r["kernel"], r["threads"], fmt(r["adjoint_over_primal"]),
                fmt(r.get("no_weights_over_primal")),
                "–" if share is None else "%d%%" % round(100 * share),
                fmt(r.get("coef3d_over_primal")),
                layered if r.get("layered_over_coef3d") is not None else "–",
                fmt(r["serial_over_gather"]), fmt(r["atomic_over_gather"], "%.1f")))
        out.append("")
    out.append("#### Against Halide 14 (time / time)\n")
    out.append("| kernel | threads | Halide adjoint / our primal | our adjoint / Halide's "
               "| ours without reset / Halide's | our primal / Halide's |")
    out.append("|---|---:|---:|---:|---:|---:|")
    for r in ratios:
        out.append("| %s | %d | %s | %s | %s | %s |" % (
            r["kernel"], r["threads"], fmt(r["halide_adjoint_over_primal"]),
            fmt(r["adjoint_over_halide"]), fmt(r["adjoint_noreset_over_halide"]),
            fmt(r["primal_over_halide"])))
    out.append("")
    out.append("#### Effective bandwidth (GB/s; % of the STREAM triad at the same thread count)\n")
    out.append("Bytes a sweep must move (STREAM counting, no write-allocate), over the time.\n")
    out.append("| kernel | threads | " + " | ".join(VARIANT_LABELS[v] for v in VARIANTS) + " |")
    out.append("|---|---:|" + "---:|" * len(VARIANTS))
    for t in threads:
        s = stream.get(t)
        if s:
            out.append("| STREAM triad | %d | %.1f |%s" % (t, s, " |" * (len(VARIANTS) - 1)))
    for kernel in BENCH_KERNELS:
        for t in threads:
            cells = []
            for v in VARIANTS:
                m = results.get((kernel, v, t))
                if not m:
                    cells.append("–")
                    continue
                pct = (" (%d%%)" % round(100 * m["gbps"] / stream[t])) if stream.get(t) else ""
                cells.append("%.1f%s" % (m["gbps"], pct))
            if all(c == "–" for c in cells):
                continue
            out.append("| %s | %d | %s |" % (kernel, t, " | ".join(cells)))
    out.append("")
    if targets:
        out.append("#### Targets\n")
        out.append("| target | measured | met |")
        out.append("|---|---:|:---:|")
        for tg in targets:
            met = {True: "yes", False: "**no**", None: "–"}[tg["met"]]
            out.append("| %s | %s | %s |" % (tg["target"], fmt(tg["value"]), met))
        out.append("")
    if compile_stats_:
        out.append("#### Compile time and generated loop nests\n")
        out.append("`stencil-opt --stencil-adjoint --convert-to-omp=...` wall time "
                   "(median); the gather nests as `--stencil-scatter-to-gather "
                   "report-nests=1` counts them (core + boundary, and the exact "
                   "split's small-size fallback); the adjoint's nests that contain a "
                   "loop, incl. the reset of the output shadow (single-point boxes "
                   "of the exact split are straight-line code); OpenMP worksharing "
                   "loops after the pipeline; the whole chain from the source to an object "
                   "(stencil-compile: passes, translation, clang -O3) and the object size.\n")
        out.append("| kernel | lowering | stencil-opt (s) | gather nests: core + boundary "
                   "(+ fallback) | nests with loops | omp.wsloop "
                   "| stencil-compile (s) | object (KiB) |")
        out.append("|---|---|---:|---:|---:|---:|---:|---:|")
        for c in compile_stats_:
            g = c.get("gather_nests")
            gather = "–"
            if g:
                gather = "%d + %d" % (g["core"], g["boundary"])
                if g["fallback"]:
                    gather += " (+ %d)" % g["fallback"]
            out.append("| %s | %s | %.3f | %s | %d | %d | %.2f | %.0f |" % (
                c["kernel"], PIPELINES[c["variant"]], c["stencil_opt_s"], gather,
                c["adjoint_nests"], c["omp_wsloops"], c["stencil_compile_s"],
                c["object_bytes"] / 1024))
        out.append("")
    return "\n".join(out)


# ===----------------------------------------------------------------------=== #
# Driver
# ===----------------------------------------------------------------------=== #


def main():
    p = argparse.ArgumentParser(
        description="Run stencil-bench, compute ratios, write JSON, tables and plots.")
    p.add_argument("--build-dir", default=os.environ.get(
        "STENCIL_BUILD_DIR", os.path.join(ROOT, "build")),
        help="build tree with bin/stencil-bench and bin/stencil-opt "
             "(default: $STENCIL_BUILD_DIR or build/)")
    p.add_argument("--threads", default=os.environ.get(
        "STENCIL_BENCH_THREADS",
        ",".join(str(t) for t in range(1, (os.cpu_count() or 1) + 1))),
        help="thread counts, e.g. 1,2 (default: 1 .. number of CPUs)")
    p.add_argument("--sizes", default=os.environ.get("STENCIL_BENCH_SIZES", ""),
                   help="problem sizes, e.g. wave3d=320,burgers1d=1e8 "
                        "(default: the suite's)")
    p.add_argument("--min-time", type=float, default=0.2,
                   help="--benchmark_min_time in seconds (default: 0.2)")
    p.add_argument("--repetitions", type=int, default=5,
                   help="rounds: each variant is timed once per round, round "
                        "after round, in one process (default: 5)")
    p.add_argument("--statistic", choices=["min", "median"], default="median",
                   help="median (default): times are medians over the rounds and "
                        "ratios the medians of the ratios within a round; min: "
                        "the fastest round of each, the least disturbed")
    p.add_argument("--filter", help="--benchmark_filter regex")
    p.add_argument("--quick", action="store_true",
                   help="smoke test: small sizes, min time 0.01 s, 1 repetition, "
                        "1 compile-time run; writes under the build tree only")
    p.add_argument("--wait-quiet", type=float, default=0, metavar="SECONDS",
                   help="before each chunk (STREAM, then one per kernel), wait up to "
                        "SECONDS for other processes to go idle, and rerun a chunk "
                        "they disturbed (default: 0, no waiting)")
    p.add_argument("--quiet-threshold", type=float, default=0.05, metavar="CORES",
                   help="load of other processes that counts as quiet (default: 0.05)")
    p.add_argument("--retries", type=int, default=3,
                   help="reruns of a disturbed chunk with --wait-quiet (default: 3)")
    p.add_argument("--compile-runs", type=int, default=5,
                   help="runs per compile-time measurement (default: 5)")
    p.add_argument("--skip-compile", action="store_true",
                   help="skip the compile-time and nest measurements")
    p.add_argument("--results-dir", default=os.path.join(ROOT, "bench", "results"),
                   help="where results.json and tables.md go")
    p.add_argument("--plots-dir", default=os.path.join(ROOT, "docs", "perf"),
                   help="where the PNG plots go")
    p.add_argument("--no-plots", action="store_true", help="do not plot")
    p.add_argument("--no-install", action="store_true",
                   help="do not apt-get install python3-matplotlib when missing")
    p.add_argument("--plot-from", metavar="JSON",
                   help="only draw the plots of an existing results.json")
    args = p.parse_args()
    if args.plot_from:
        plots.render_plots(os.path.abspath(args.plot_from), args.plots_dir,
                     not args.no_install)
        return
    args.build_dir = os.path.abspath(args.build_dir)
    if args.quick:
        args.sizes = args.sizes or QUICK_SIZES
        args.min_time = 0.01
        args.repetitions = 1
        args.compile_runs = 1
        # A smoke test must not overwrite the committed results.
        args.results_dir = os.path.join(args.build_dir, "bench", "quick")
        args.plots_dir = os.path.join(args.build_dir, "bench", "quick")
    threads = sorted({int(t) for t in args.threads.split(",") if t.strip()})
    args.threads = ",".join(str(t) for t in threads)

    info = machine_info()
    os.makedirs(args.results_dir, exist_ok=True)
    raw_json = os.path.join(args.build_dir, "bench", "stencil-bench-raw.json")
    os.makedirs(os.path.dirname(raw_json), exist_ok=True)
    started = datetime.datetime.now().astimezone().isoformat(timespec="seconds")
    bench_seconds, other_load = run_benchmarks(args, raw_json)
    busy = {k: v for k, v in other_load.items() if v is not None and v > 0.1}
    if busy:
        print("run.py: WARNING: other processes kept cores busy during %s; "
              "multi-thread figures are unreliable there (rerun with "
              "--wait-quiet on a quieter machine)"
              % ", ".join("%s (%.2f)" % kv for kv in sorted(busy.items())), flush=True)
    context, results = rounds.parse_benchmarks(raw_json, args.statistic)
    stream = {t: m["gbps"] for (k, v, t), m in results.items() if k == "stream"}

    cstats = []
    if not args.skip_compile:
        print("run.py: timing stencil-opt and counting nests", flush=True)
        cstats = compile_stats(args)

    ratios = compute_ratios(results, threads)
    reductions = reduction_ratios(results, threads)
    targets = evaluate_targets(results, threads)
    statistic_text = ("%s of %d rounds" % (args.statistic, args.repetitions)
                      if args.repetitions > 1 else "one round")
    tables = markdown_tables(results, ratios, targets, stream, cstats, threads,
                             statistic_text, reductions)

    summary = {
        "started": started,
        "benchmark_seconds": round(bench_seconds, 1),
        # Average number of cores other processes used during each chunk.
        "other_load_cores": other_load,
        "machine": info,
        "config": {"threads": threads, "sizes": {
            k[len("size_"):]: int(v) for k, v in context.items() if k.startswith("size_")},
            "min_time": args.min_time, "repetitions": args.repetitions,
            "statistic": args.statistic if args.repetitions > 1 else "single run",
            "library_build_type": context.get("library_build_type"),
            "num_cpus": context.get("num_cpus"), "mhz_per_cpu": context.get("mhz_per_cpu")},
        "stream_triad_gbps": {str(t): round(g, 3) for t, g in sorted(stream.items())},
        "results": [
            dict({"kernel": k, "variant": v, "threads": t},
                 **{key: (round(val, 6) if isinstance(val, float) else val)
                    for key, val in m.items()})
            for (k, v, t), m in sorted(results.items())],
        "ratios": [{key: (round(val, 4) if isinstance(val, float) else val)
                    for key, val in r.items()} for r in ratios],
        "reductions": [{key: (round(val, 4) if isinstance(val, float) else val)
                        for key, val in r.items()} for r in reductions],
        "targets": targets,
        "compile": cstats,
    }
    json_path = os.path.join(args.results_dir, "results.json")
    with open(json_path, "w") as f:
        json.dump(summary, f, indent=1)
        f.write("\n")
    with open(os.path.join(args.results_dir, "tables.md"), "w") as f:
        f.write(tables + "\n")

    print()
    print(tables)
    print("run.py: wrote %s and tables.md (raw Google Benchmark JSON: %s)"
          % (json_path, raw_json))
    if not args.no_plots:
        plots.render_plots(json_path, args.plots_dir, not args.no_install)


if __name__ == "__main__":
    main()
