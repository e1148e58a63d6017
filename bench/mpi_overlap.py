#!/usr/bin/env python3
# ===- mpi_overlap.py - Overlapped against blocking halo exchanges --------=== #
#
# Reads the JSON of one stencil-bench-mpi run (--benchmark_out; every
# kernel and size runs with each variant in each of its rounds: overlap,
# overlap4, blocking) and prints, per kernel, arguments and overlapped
# variant, the median over the rounds of the ratio variant / blocking
# within a round, with the range of the per-round ratios, and the median
# share of the call spent inside MPI of both (mpi_fraction: with overlap,
# the progress calls and the wait; blocking, the whole exchange).
#
# Usage: mpi_overlap.py results.json [--markdown]
#
# ===----------------------------------------------------------------------=== #

import argparse
import json
import re
import statistics
import sys

# `<kernel>/<variant>/ranks:<R>/round:<r>/<args>/iterations:<i>/manual_time`;
# the args end with the variant's index, which the key leaves out.
NAME_RE = re.compile(r"^(\w+)/(overlap(?:4)?|blocking)/ranks:(\d+)/round:(\d+)/"
                     r"((?:\d+/)*?)\d+/iterations:\d+/manual_time$")
SCALE_MS = {"ns": 1e-6, "us": 1e-3, "ms": 1.0, "s": 1e3}


def load(path):
    """{(kernel, ranks, args): {variant: {round: (ms, mpi_fraction)}}}."""
    with open(path) as f:
        benchmarks = json.load(f)["benchmarks"]
    out = {}
    for b in benchmarks:
        m = NAME_RE.match(b["name"])
        if not m or b.get("run_type") == "aggregate":
            continue
        kernel, variant, ranks, round_index, args = m.groups()
        key = (kernel, int(ranks), args.rstrip("/"))
        time = b["real_time"] * SCALE_MS[b["time_unit"]]
        out.setdefault(key, {}).setdefault(variant, {})[int(round_index)] = (
            time, b.get("mpi_fraction", 0.0))
    return out


def rows(results):
    """(kernel, ranks, args, variant, median ratio, low, high, variant's
    share, blocking share, rounds) per key and overlapped variant with a
    round that has both."""
    for key in sorted(results):
        variants = results[key]
        blocking = variants.get("blocking", {})
        for variant in ("overlap", "overlap4"):
            mine = variants.get(variant, {})
            both = sorted(set(mine) & set(blocking))
            if not both:
                if mine or not blocking:
                    print("mpi_overlap: skipped %s %s: no round has it and "
                          "blocking" % ("/".join(map(str, key)), variant),
                          file=sys.stderr)
                continue
            ratios = [mine[r][0] / blocking[r][0] for r in both]
            yield (*key, variant, statistics.median(ratios), min(ratios),
                   max(ratios), statistics.median(f for _, f in mine.values()),
                   statistics.median(f for _, f in blocking.values()),
                   len(both))


def main(argv):
    p = argparse.ArgumentParser(description=__doc__)
    p.add_argument("json")
    p.add_argument("--markdown", action="store_true")
    args = p.parse_args(argv)
    found = list(rows(load(args.json)))
    if not found:
        print("mpi_overlap: no pair of variants in %s" % args.json,
              file=sys.stderr)
        return 1
    if args.markdown:
        print("| kernel | ranks | args | variant | / blocking | range | "
              "MPI share | MPI share, blocking | rounds |")
        print("|---|---:|---|---|---:|---|---:|---:|---:|")
    for kernel, ranks, key, variant, ratio, low, high, so, sb, n in found:
        if args.markdown:
            print("| %s | %d | %s | %s | %.2f | %.2f-%.2f | %.0f%% | %.0f%% "
                  "| %d |" % (kernel, ranks, key, variant, ratio, low, high,
                              100 * so, 100 * sb, n))
        else:
            print("%s ranks=%d %s: %s/blocking %.2f (%.2f-%.2f), MPI share "
                  "%.0f%% vs %.0f%%, %d rounds" % (
                      kernel, ranks, key, variant, ratio, low, high,
                      100 * so, 100 * sb, n))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
