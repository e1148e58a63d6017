# ===- rounds.py - Rounds of stencil-bench and the ratios within them -----=== #
#
# bench/run.py runs stencil-bench with STENCIL_BENCH_ROUNDS=R (BenchMain.cpp):
# every variant of a kernel is timed once per round, round after round, in a
# shuffled order within each round. A variant's time is a statistic over its
# rounds; a ratio of two variants is, with the median, the median over the
# rounds of the ratio within each round, whose two times were taken a few
# seconds apart on the same machine. The spread of those per-round ratios
# is what the tables report beside the ratio.
#
# ===----------------------------------------------------------------------=== #

import json
import re
import statistics

# `<name>[/round:<r>][/real_time]`: a benchmark's name without its round.
ROUND_RE = re.compile(r"^(.*?)(?:/round:(\d+))?(?:/real_time)?$")
# stencil-bench's names: `<kernel>/<variant>/omp:<threads>`.
NAME_RE = re.compile(r"^(\w+)/(\w+)/omp:(\d+)$")

SCALE_MS = {"ns": 1e-6, "us": 1e-3, "ms": 1.0, "s": 1e3}


def group_rounds(benchmarks):
    """{name without its round: {"rounds_ms": {round: time in ms}, and the
    counters of its runs}} from Google Benchmark's runs (aggregates are
    left out). A name without a round takes its repetition's index as the
    round: a run with --benchmark_repetitions instead of rounds is read as
    rounds, though its repetitions were not run side by side."""
    out = {}
    for b in benchmarks:
        if b.get("run_type") == "aggregate":
            continue
        m = ROUND_RE.match(b["name"])
        entry = out.setdefault(m.group(1), {"rounds_ms": {}})
        round_index = m.group(2) or b.get("repetition_index", 0)
        entry["rounds_ms"][int(round_index)] = \
            b["real_time"] * SCALE_MS[b["time_unit"]]
        for key, value in b.items():
            if isinstance(value, (int, float)) and key not in (
                    "real_time", "cpu_time", "iterations", "repetitions",
                    "repetition_index", "threads", "family_index",
                    "per_family_instance_index"):
                entry[key] = value
    return out


def parse_benchmarks(raw_json, statistic):
    """Returns (context, {(kernel, variant, threads): measurement}) from the
    JSON of stencil-bench. A measurement keeps `rounds_ms` ({round: time
    in ms}), `min_ms`, `median_ms`, the coefficient of variation `cv` (with
    two rounds or more), `time_ms` (the chosen statistic: `min` or
    `median`), the kernel's byte counters and the GB/s of `time_ms`."""
    with open(raw_json) as f:
        raw = json.load(f)
    out = {}
    for name, entry in group_rounds(raw["benchmarks"]).items():
        m = NAME_RE.match(name)
        if not m:
            continue
        kept = {"rounds_ms": entry["rounds_ms"]}
        for counter in ("bytes_per_sweep", "write_allocate_bytes_per_sweep",
                        "reset_bytes_per_sweep", "points"):
            kept[counter] = entry.get(counter)
        out[(m.group(1), m.group(2), int(m.group(3)))] = kept
    for entry in out.values():
        times = list(entry["rounds_ms"].values())
        entry["min_ms"] = min(times)
        entry["median_ms"] = statistics.median(times)
        if len(times) > 1:
            entry["cv"] = statistics.pstdev(times) / statistics.mean(times)
        entry["time_ms"] = entry[statistic + "_ms"]
        entry["paired"] = statistic == "median"
        if entry.get("bytes_per_sweep"):
            entry["gbps"] = entry["bytes_per_sweep"] / (entry["time_ms"] * 1e-3) / 1e9
    return raw.get("context", {}), out


def per_round(entries, combine):
    """combine({name: time in that round}) for each round that every entry
    ran in, in round order, leaving out rounds where it gives None;
    `entries` maps names to group_rounds entries."""
    common = set.intersection(*(set(e["rounds_ms"]) for e in entries.values()))
    values = [combine({k: e["rounds_ms"][r] for k, e in entries.items()})
              for r in sorted(common)]
    return [v for v in values if v is not None]


def within_rounds(entries, combine):
    """The median of per_round(entries, combine); None if it is empty."""
    values = per_round(entries, combine)
    return statistics.median(values) if values else None


def round_ratios(a, b):
    """The ratios a / b within each round both ran in."""
    return per_round({"a": a, "b": b},
                     lambda v: v["a"] / v["b"] if v["b"] > 0 else None)


def ratio(a, b):
    """a's time over b's: the median of the per-round ratios where the
    tables use medians, else the ratio of the two statistics (the fastest
    rounds: the least disturbed run of each)."""
    if not a or not b or not b.get("time_ms"):
        return None
    if a.get("paired") and b.get("paired"):
        within = round_ratios(a, b)
        if within:
            return statistics.median(within)
    return a["time_ms"] / b["time_ms"]


def ratio_range(a, b):
    """(smallest, largest) per-round ratio a / b; None with one round."""
    if not a or not b:
        return None
    within = round_ratios(a, b)
    if len(within) < 2:
        return None
    return (round(min(within), 4), round(max(within), 4))
