#!/usr/bin/env python3
# ===- timeloop_ratios.py - Ratios of stencil-bench-timeloop's results ----=== #
#
# Reads the JSON of one stencil-bench-timeloop run (--benchmark_out, with
# STENCIL_BENCH_ROUNDS=R and --benchmark_repetitions=1: every benchmark
# once per round, BenchThreads.h) and prints, per kernel, size and thread
# count, ratios to the primal loop, each the median over the rounds of the
# ratio within a round (bench/rounds.py):
#
#   step      one step's adjoint / one primal step
#   storeall  the store-all adjoint / the primal loop, (storeall - copies)
#             / primal (the time-loop target excludes the copies), and
#             the reverse sweep alone: (storeall - copies - the forward
#             steps it ran) / primal
#   revolve   the Revolve adjoint / the primal loop, beside Revolve's
#             recompute factor (forward steps / T): the target is
#             factor + 1.4
#   whole     fwi's Revolve adjoint with whole-array snapshots over the
#             default (border snapshots), in time and in the bytes of a
#             slot
#   three     the Revolve adjoint whose steps run dimension 0 as three
#             worksharing loops (one-outer-loop=0) over the default (one)
#   stored    the Revolve adjoint whose steady steps store the hand-over
#             themselves (defer-hand-overs=0) over the default (deferred)
#   unpeeled  the Revolve adjoint whose steps guard the innermost slabs
#             per point and split the outer ones per statement
#             (peel-innermost=0) over the default (points)
#   inner     the Revolve adjoint whose steps peel only the innermost slabs
#             into points (peel-outer=0) over the default (every dimension)
#   cut       the Revolve adjoint with shared values cut into temporaries
#             the size of the grid (cut-min-gain=1 ring-cut=0) over the
#             default; cutalloc the same with each step allocating them
#             (hoist-temporaries=0), over the default and over cut
#             (temporaries per step / once); noring nothing cut
#             (cut-ring-min-gain=0, the default before rings)
#
# Usage: timeloop_ratios.py results.json (or the console output, whose
# lines are read when the JSON is missing or cut short)
#
# ===----------------------------------------------------------------------=== #

import json
import os
import re
import statistics
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import rounds  # noqa: E402


# The builds of the Revolve adjoint compared with the default, as their
# benchmarks name them (revolve_<build>_s<S>), and how the output says them.
BUILDS = [("three", "three loops"), ("stored", "stored hand-overs"),
          ("unpeeled", "no points"), ("inner", "innermost points only"),
          ("cut", "cut"), ("cutalloc", "cut, temporaries per step"),
          ("noring", "no cut, no rings")]


def load(path):
    """Google Benchmark's runs, from its JSON or from its console output."""
    with open(path) as f:
        text = f.read()
    try:
        return json.loads(text)["benchmarks"]
    except (ValueError, KeyError):
        pass
    runs = []
    for line in text.splitlines():
        m = re.match(r"(\S+)/real_time\s+([0-9.]+) (\w+)\s.*", line)
        if not m:
            continue
        run = {"name": m.group(1), "real_time": float(m.group(2)),
               "time_unit": m.group(3)}
        for key, value in re.findall(r"(\w+)=([0-9.]+)", line):
            run[key] = float(value)
        runs.append(run)
    return runs


def ratio(t, num, den, minus=()):
    """(num - sum of minus) / den within each round, the median."""
    names = [num, den] + list(minus)
    return rounds.within_rounds(
        {k: t[k] for k in names},
        lambda v: (v[num] - sum(v[k] for k in minus)) / v[den])


def main():
    groups = {}
    for name, entry in rounds.group_rounds(load(sys.argv[1])).items():
        m = re.match(r"(\w+)/(\w+)/n:(\d+)/T:(\d+)/omp:(\d+)$", name)
        if not m:
            continue
        kernel, variant, n, steps, threads = m.groups()
        key = (kernel, int(n), int(steps), int(threads))
        groups.setdefault(key, {})[variant] = entry
    for key in sorted(groups):
        kernel, n, steps, threads = key
        t = groups[key]
        if "primal" not in t:
            continue
        primal = t["primal"]
        line = "%-7s n=%-4d T=%-5d omp=%d  primal %.1f ms" % (
            kernel, n, steps, threads,
            statistics.median(primal["rounds_ms"].values()))
        if "step_primal" in t and "step_adjoint" in t:
            line += "  step %.2fx" % ratio(t, "step_adjoint", "step_primal")
        if "storeall" in t:
            line += "  storeall %.2fx" % ratio(t, "storeall", "primal")
            if "copies" in t:
                # The reverse sweep alone: store-all runs the forward steps
                # once (none when the adjoint reads no state) and copies.
                share = t["storeall"].get("forward_steps", 0) / steps
                bare = ratio(t, "storeall", "primal", ["copies"])
                line += " (without copies %.2fx, reverse sweep %.2fx)" % (
                    bare, bare - share)
        for variant in sorted(t):
            if not re.match(r"revolve_s\d+$", variant):
                continue
            c = t[variant]
            factor = c.get("forward_steps", 0) / steps
            line += "  %s %.2fx (recompute factor %.2f, target %.2f)" % (
                variant, ratio(t, variant, "primal"), factor, factor + 1.4)
            for build, label in BUILDS:
                other = variant.replace("revolve_s", "revolve_%s_s" % build)
                if other in t:
                    line += " (%s: time %.2fx)" % (label, ratio(t, other, variant))
            cut = variant.replace("revolve_s", "revolve_cut_s")
            cutalloc = variant.replace("revolve_s", "revolve_cutalloc_s")
            if cut in t and cutalloc in t:
                line += " (temporaries per step / once: time %.2fx)" % (
                    ratio(t, cutalloc, cut))
            whole = variant.replace("revolve_s", "revolve_whole_s")
            if whole in t:
                line += " (whole arrays: time %.2fx, slot bytes %.2fx)" % (
                    ratio(t, whole, variant),
                    t[whole].get("slot_bytes", 0) / max(c.get("slot_bytes", 1), 1))
        print(line)


if __name__ == "__main__":
    main()
