#!/usr/bin/env python3
# ===- plots.py - The plots of docs/Performance.md -----------------------=== #
#
#   bench/plots.py results.json out_dir
#
# Draws docs/perf/*.png from the summary that bench/run.py writes. Needs
# matplotlib (Debian's python3-matplotlib); run.py finds an interpreter
# that has it, installing the package when allowed, and calls this file.
#
# ===----------------------------------------------------------------------=== #

import json
import os
import shutil
import subprocess
import sys

from suite import BENCH_KERNELS, VARIANTS, VARIANT_LABELS

KERNELS = BENCH_KERNELS


def have_matplotlib(python):
    return subprocess.run([python, "-c", "import matplotlib"],
                          stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                          check=False).returncode == 0


def plotting_python(allow_install):
    """Returns an interpreter that can import matplotlib: this one, or
    Debian's /usr/bin/python3 (python3-matplotlib installs there, which a
    pyenv or venv python3 on PATH does not see), installing
    python3-matplotlib with apt-get when allowed. None if there is none."""
    candidates = [sys.executable]
    if os.path.exists("/usr/bin/python3"):
        candidates.append("/usr/bin/python3")
    for python in candidates:
        if have_matplotlib(python):
            return python
    if not allow_install or not shutil.which("apt-get") or os.geteuid() != 0:
        return None
    print("run.py: installing python3-matplotlib with apt-get", flush=True)
    subprocess.run(["apt-get", "install", "-y", "-q", "python3-matplotlib"],
                   stdout=subprocess.DEVNULL, check=False)
    for python in candidates:
        if have_matplotlib(python):
            return python
    return None


def plot(plt, results, stream, threads, out_dir):
    os.makedirs(out_dir, exist_ok=True)
    written = []
    colors = ["#4c72b0", "#dd8452", "#55a868", "#c44e52", "#8172b3", "#937860",
              "#da8bc3", "#8c8c8c", "#ccb974", "#64b5cd"]
    # Time per variant, one chart per kernel, one bar per thread count.
    for kernel in KERNELS:
        present = [v for v in VARIANTS if any((kernel, v, t) in results for t in threads)]
        if not present:
            continue
        fig, ax = plt.subplots(figsize=(max(8, 1.15 * len(present)), 4.6))
        width = 0.8 / len(threads)
        for i, t in enumerate(threads):
            xs = [j + (i - (len(threads) - 1) / 2) * width for j in range(len(present))]
            ys = [results.get((kernel, v, t), {}).get("time_ms", 0) for v in present]
            bars = ax.bar(xs, ys, width, label="%d thread%s" % (t, "s" if t > 1 else ""),
                          color=colors[i % len(colors)])
            for bar, y in zip(bars, ys):
                if y:
                    ax.annotate("%.0f" % y if y >= 10 else
                                "%.1f" % y if y >= 1 else "%.2f" % y,
                                (bar.get_x() + bar.get_width() / 2, y),
                                ha="center", va="bottom", fontsize=7)
        ax.set_xticks(range(len(present)))
        ax.set_xticklabels([VARIANT_LABELS[v].replace(", ", "\n").replace(" (", "\n(")
                            for v in present], fontsize=7, rotation=30, ha="right")
        ax.set_yscale("log")
        ax.set_ylabel("time per sweep (ms, log scale)")
        ax.set_title("%s: time per variant" % kernel)
        ax.legend(fontsize=8)
        ax.grid(axis="y", which="both", alpha=0.3)
        fig.tight_layout()
        path = os.path.join(out_dir, "time_%s.png" % kernel)
        fig.savefig(path, dpi=110)
        plt.close(fig)
        written.append(path)
    # Speedup over threads, relative to the same variant at 1 thread.
    if len(threads) > 1 and 1 in threads:
        fig, axes = plt.subplots(1, len(KERNELS), figsize=(14, 3.8), sharey=True)
        for ax, kernel in zip(axes, KERNELS):
            for v, color in zip(VARIANTS, colors):
                base = results.get((kernel, v, 1), {}).get("time_ms")
                pts = [(t, base / results[(kernel, v, t)]["time_ms"])
                       for t in threads if base and (kernel, v, t) in results]
                if pts:
                    ax.plot([p[0] for p in pts], [p[1] for p in pts], marker="o",
                            label=VARIANT_LABELS[v], color=color)
            s1 = stream.get(1)
            spts = [(t, stream[t] / s1) for t in threads if s1 and t in stream]
            if spts:
                ax.plot([p[0] for p in spts], [p[1] for p in spts], "k--", lw=1,
                        label="STREAM triad bandwidth")
            ax.plot(threads, threads, ":", color="grey", lw=1, label="ideal")
            ax.set_title(kernel)
            ax.set_xlabel("threads")
            ax.set_xticks(threads)
            ax.grid(alpha=0.3)
        axes[0].set_ylabel("speedup over 1 thread")
        handles, labels = axes[0].get_legend_handles_labels()
        fig.legend(handles, labels, loc="lower center", ncol=4, fontsize=8)
        fig.tight_layout(rect=(0, 0.14, 1, 1))
        path = os.path.join(out_dir, "speedup.png")
        fig.savefig(path, dpi=110)
        plt.close(fig)
        written.append(path)
    # Effective bandwidth at the largest thread count against STREAM.
    top = max(threads)
    fig, ax = plt.subplots(figsize=(10, 4.8))
    width = 0.8 / len(VARIANTS)
    for i, (v, color) in enumerate(zip(VARIANTS, colors)):
        xs = [j + (i - (len(VARIANTS) - 1) / 2) * width for j in range(len(KERNELS))]
        ys = [results.get((k, v, top), {}).get("gbps", 0) for k in KERNELS]
        ax.bar(xs, ys, width, label=VARIANT_LABELS[v], color=color)
    if stream.get(top):
        ax.axhline(stream[top], color="k", ls="--", lw=1,
                   label="STREAM triad (%.1f GB/s)" % stream[top])
    ax.set_xticks(range(len(KERNELS)))
    ax.set_xticklabels(KERNELS)
    ax.set_ylabel("effective bandwidth (GB/s)")
    ax.set_title("Bytes a sweep must move / time, %d thread%s" % (top, "s" if top > 1 else ""))
    ax.legend(fontsize=7, ncol=4, loc="upper center", bbox_to_anchor=(0.5, -0.1))
    ax.grid(axis="y", alpha=0.3)
    fig.tight_layout()
    path = os.path.join(out_dir, "bandwidth.png")
    fig.savefig(path, dpi=110)
    plt.close(fig)
    written.append(path)
    return written

def render_plots(json_path, plots_dir, allow_install):
    """Draws the plots of a results.json, in an interpreter that has
    matplotlib (see plotting_python)."""
    python = plotting_python(allow_install)
    if python is None:
        print("run.py: matplotlib unavailable, no plots "
              "(apt-get install python3-matplotlib)")
        return
    subprocess.run([python, os.path.abspath(__file__), json_path, plots_dir],
                   check=True)


def main():
    json_path, plots_dir = sys.argv[1:3]
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    with open(json_path) as f:
        summary = json.load(f)
    results = {(r["kernel"], r["variant"], r["threads"]): r for r in summary["results"]}
    stream = {int(t): g for t, g in summary["stream_triad_gbps"].items()}
    for path in plot(plt, results, stream, summary["config"]["threads"], plots_dir):
        print("plots.py: wrote %s" % path)


if __name__ == "__main__":
    main()
