#!/usr/bin/env python3
# ===- nonrect_ratios.py - Ratios of stencil-bench-nonrect's results ------=== #
#
# Reads the JSON of one stencil-bench-nonrect run (--benchmark_out, with
# STENCIL_BENCH_ROUNDS=R: every benchmark once per round, BenchThreads.h)
# and prints, per domain and thread count, each the median over the rounds
# of the ratio within a round (bench/rounds.py), with the range of the
# per-round values:
#
#   adjoint/primal        the gather adjoint over the primal, on the domain
#                         and on its bounding box
#   domain/box            the first over the second: the goal is <= 1.2
#   primal domain/box     the primal on the domain over the primal on the
#                         box, beside the ratio of their point counts
#
# Usage: nonrect_ratios.py results.json [--markdown]
#
# ===----------------------------------------------------------------------=== #

import argparse
import json
import os
import re
import statistics
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import rounds  # noqa: E402

NAME_RE = re.compile(r"^(\w+)/(primal|adjoint)/n:(\d+)/omp:(\d+)$")
DOMAINS = ["triangle", "wedge"]


def points(domain, n):
    """The points of a domain and of its box (bench/kernels/nonrect.mlir)."""
    box = (n - 2) ** (2 if domain == "triangle" else 3)
    if domain == "triangle":
        inside = sum(max(n - 1 - i, 0) for i in range(1, n - 1))
    else:
        inside = sum(max(min(n - 1, i + j) - max(1, i - j), 0)
                     for i in range(1, n - 1) for j in range(1, n - 1))
    return inside, box


def load(path):
    """{(kernel, variant, n, threads): group_rounds entry}."""
    with open(path) as f:
        raw = json.load(f)
    out = {}
    for name, entry in rounds.group_rounds(raw["benchmarks"]).items():
        m = NAME_RE.match(name)
        if m:
            out[(m.group(1), m.group(2), int(m.group(3)),
                 int(m.group(4)))] = entry
    return out


def median_ratio(entries, combine):
    values = rounds.per_round(entries, combine)
    if not values:
        return None, None
    return statistics.median(values), (min(values), max(values))


def rows(data):
    """One row per (domain, n, threads) with every benchmark present."""
    for (kernel, variant, n, threads) in sorted(data):
        if kernel not in DOMAINS or variant != "primal":
            continue
        keys = {f"{k}_{v}": (k, v, n, threads)
                for k in (kernel, kernel + "_box")
                for v in ("primal", "adjoint")}
        if not all(key in data for key in keys.values()):
            print(f"skipped {kernel} n={n} omp={threads}: a benchmark is "
                  "missing")
            continue
        e = {name: data[key] for name, key in keys.items()}
        d, b = kernel, kernel + "_box"
        adj = f"{d}_adjoint", f"{d}_primal"
        box = f"{b}_adjoint", f"{b}_primal"
        row = {"domain": kernel, "n": n, "threads": threads}
        row["domain_ratio"], row["domain_range"] = median_ratio(
            e, lambda t: t[adj[0]] / t[adj[1]])
        row["box_ratio"], row["box_range"] = median_ratio(
            e, lambda t: t[box[0]] / t[box[1]])
        row["over_box"], row["over_box_range"] = median_ratio(
            e, lambda t: (t[adj[0]] / t[adj[1]]) / (t[box[0]] / t[box[1]]))
        row["primal_over_box"], _ = median_ratio(
            e, lambda t: t[adj[1]] / t[box[1]])
        inside, whole = points(kernel, n)
        row["points_over_box"] = inside / whole
        row["rounds"] = len(rounds.per_round(e, lambda t: 1))
        yield row


def fmt(value, spread=None):
    text = f"{value:.2f}"
    if spread:
        text += f" ({spread[0]:.2f}-{spread[1]:.2f})"
    return text


def main():
    parser = argparse.ArgumentParser(
        description="Ratios of one stencil-bench-nonrect run")
    parser.add_argument("results")
    parser.add_argument("--markdown", action="store_true")
    args = parser.parse_args()
    table = list(rows(load(args.results)))
    if not table:
        print("no complete domain/box pair in", args.results)
        return 1
    head = ["domain", "n", "threads", "adjoint/primal", "box adjoint/primal",
            "domain/box", "primal domain/box", "points domain/box", "rounds"]
    lines = []
    for r in table:
        lines.append([r["domain"], str(r["n"]), str(r["threads"]),
                      fmt(r["domain_ratio"], r["domain_range"]),
                      fmt(r["box_ratio"], r["box_range"]),
                      fmt(r["over_box"], r["over_box_range"]),
                      fmt(r["primal_over_box"]), fmt(r["points_over_box"]),
                      str(r["rounds"])])
    if args.markdown:
        print("| " + " | ".join(head) + " |")
        print("|" + "---|" * len(head))
        for line in lines:
            print("| " + " | ".join(line) + " |")
    else:
        for line in [head] + lines:
            print("  ".join(f"{c:>18}" for c in line))
    return 0


if __name__ == "__main__":
    sys.exit(main())
