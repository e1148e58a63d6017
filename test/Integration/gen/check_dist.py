#!/usr/bin/env python3
# ===- check_dist.py - Distributed functions against one process ----------=== #
#
# Builds a module of generated cases (distgen.py: each case names its
# process grid) twice: once for one process (the reference), and once per
# grid with --stencil-distribute=grid=<grid> for the cases of that grid
# (--symbol-privatize/--symbol-dce keep them alone), each with its adjoint.
# Then it runs each grid's cases under `mpirun -n <processes>`, one Python
# process per rank (this file, --worker), which calls the kernels through
# ctypes as check_adjoint.py does (the same argument handling, its Case
# class) and compares, on its blocks:
#   * the primal: every array's owned points and every result bitwise equal
#     to the reference run on the whole arrays;
#   * the adjoint: every shadow's owned points and every scalar shadow
#     bitwise equal to the reference's; for a time loop, for store-all and
#     for 1 and 2 snapshots, each against the reference's store-all.
# Each rank's arrays are its blocks (Stencil/Runtime/Distributed.h's
# decomposition, called from the library: its one home) with the ABI's
# halo on every side, filled with NaN (only the exchanges may fill them);
# arrays that are not of the grid's shape (a per-step table, a parameter
# read at fixed elements) are passed whole, and their shadows compared
# whole. The global extents are chosen so that every block holds at least
# the halo (the smallest has exactly that many points, others are uneven).
# The numerical references of the reference library itself are
# check_adjoint.py's (time-loops-random.test, gather-random.test).
#
# Prints a FAIL line per mismatch or failed launch and ends with
# "N passed, N failed"; exits 1 if anything failed.
#
# With --grids G1,G2,... every case runs on each listed grid of its rank
# (the length of its own "grid") instead.
#
# Usage:
#   check_dist.py cases.mlir cases.json --shim mpi_shim.so \
#       --mpirun build/bin/stencil-mpirun [--workdir DIR]
#
# ===----------------------------------------------------------------------=== #

import argparse
import ctypes
import json
import os
import random
import shlex
import signal
import subprocess
import sys

HERE = os.path.dirname(os.path.realpath(__file__))
sys.path.insert(0, HERE)
import check_adjoint as ca  # noqa: E402

SUFFIX = "_adjoint"


# ===----------------------------------------------------------------------=== #
# One rank
# ===----------------------------------------------------------------------=== #


class Layout:
    """This rank's block of one set of global extents: per dimension its
    start and count, and the flat indices of its owned points in the global
    array and in the local one (block plus halos), in the same order."""

    def __init__(self, lib, grid, coords, extents, halo):
        self.halo = halo
        self.start = [lib.stencil_dist_block_start(n, p, c)
                      for n, p, c in zip(extents, grid, coords)]
        self.count = [lib.stencil_dist_block_count(n, p, c)
                      for n, p, c in zip(extents, grid, coords)]
        self.local_shape = [c + 2 * halo for c in self.count]
        self.global_index = []
        self.local_index = []
        self._walk(extents, 0, 0, 0)

    def _walk(self, extents, k, g, l):
        if k == len(extents):
            self.global_index.append(g)
            self.local_index.append(l)
            return
        for i in range(self.count[k]):
            self._walk(extents, k + 1, g * extents[k] + self.start[k] + i,
                       l * self.local_shape[k] + self.halo + i)

    def owned(self, global_values):
        return [global_values[g] for g in self.global_index]


class BlockBuffer(ca.Buffer):
    """A rank's block of a global array, halos NaN; values() gives its owned
    points in Layout order."""

    def __init__(self, layout, global_values, abi):
        count = 1
        for s in layout.local_shape:
            count *= s
        local = [float("nan")] * count
        for g, l in zip(layout.global_index, layout.local_index):
            local[l] = global_values[g]
        super().__init__(layout.local_shape, local, abi)
        self.layout = layout

    def values(self):
        return [self.data[l] for l in self.layout.local_index]


class DistCase(ca.Case):
    """A case bound to its distributed library: arrays of the grid's shape
    passed as blocks, the global extents appended to every call."""

    def __init__(self, desc, lib, abi, rank):
        self.grid = desc["grid"]
        self.dim = len(self.grid)
        self.coords = []
        r = rank
        for p in reversed(self.grid):  # row-major: the last axis fastest
            self.coords.insert(0, r % p)
            r //= p
        self.lib = lib
        for fn in (lib.stencil_dist_block_start, lib.stencil_dist_block_count):
            fn.restype = ctypes.c_int64
            fn.argtypes = [ctypes.c_int64] * 3
        entry = abi.entries.get("_mlir_ciface_" + desc["name"], {})
        dist = entry.get("distribution") or {}
        if dist.get("grid") != self.grid:
            raise ca.CaseError("the ABI names grid %s, the description %s"
                               % (dist.get("grid"), self.grid))
        self.halo = dist["halo"]
        self.layouts = {}
        super().__init__(desc, lib, abi, SUFFIX)

    def extents(self, sizes):
        return [sizes["n%d" % k] for k in range(self.dim)]

    def blocked(self, arg):
        return arg["shape"] == ["n%d" % k for k in range(self.dim)]

    def layout(self, sizes):
        key = tuple(self.extents(sizes))
        if key not in self.layouts:
            self.layouts[key] = Layout(self.lib, self.grid, self.coords,
                                       list(key), self.halo)
        return self.layouts[key]

    def array_buffer(self, arg, sizes, values):
        if not self.blocked(arg):
            return super().array_buffer(arg, sizes, values)
        return BlockBuffer(self.layout(sizes), values, self.abi)

    def extra_signature(self):
        return [("scalar", 0, "index")] * self.dim

    def extra_args(self, sizes):
        return [ctypes.c_int64(n) for n in self.extents(sizes)]


def dist_sizes(case, halo, limit):
    """Global sizes: the case's own with every split dimension raised to at
    least `halo` points per process (at most `limit` of them, from the
    smallest to the largest), then the smallest with exactly `halo` points
    per process and with one point more on the first."""
    listed = []
    for s in case.desc["sizes"]:
        t = dict(s)
        for k, p in enumerate(case.grid):
            if p > 1:
                t["n%d" % k] = max(t["n%d" % k], p * halo)
        if t not in listed:
            listed.append(t)
    listed.sort(key=lambda t: (sum(case.extents(t)), t.get("steps", 0)))
    if len(listed) > limit > 1:
        picks = {round(i * (len(listed) - 1) / (limit - 1)) for i in range(limit)}
        listed = [listed[i] for i in sorted(picks)]
    out = listed[:limit]
    for extra in (0, 1):
        t = dict(out[0])
        for k, p in enumerate(case.grid):
            if p > 1:
                t["n%d" % k] = p * halo + extra
        if t not in out:
            out.append(t)
    return out


class RankChecker:
    def __init__(self, rank, grid_label):
        self.rank = rank
        self.label = grid_label
        self.passed = 0
        self.failures = []

    def compare(self, case, sizes, check, mine, ref):
        """`mine` and `ref`: [(name, values)] in the same order."""
        for (name, x), (_, y) in zip(mine, ref):
            if ca.bits(x) != ca.bits(y):
                bad = next(i for i in range(len(x))
                           if ca.bits([x[i]]) != ca.bits([y[i]]))
                self.failures.append(
                    "FAIL %s %s grid=%s rank=%d %s: %s[%d] %.17g vs %.17g" %
                    (case.name, ca.fmt_sizes(sizes), self.label, self.rank,
                     check, name, bad, x[bad], y[bad]))
                return
        self.passed += 1

    def check(self, dist, ref, sizes, seed):
        rng = random.Random(seed)
        state = ca.random_state(ref, sizes, rng)
        after, results = dist.run_primal(state, sizes)
        rafter, rresults = ref.run_primal(state, sizes)
        blocked = [a["name"] for a in dist.arrays if dist.blocked(a)]
        layout = dist.layout(sizes)
        self.compare(dist, sizes, "primal",
                     [(n, after[n]) for n in blocked] + [("results", results)],
                     [(n, layout.owned(rafter[n])) for n in blocked]
                     + [("results", rresults)])
        shadows = {n: [rng.uniform(-1, 1) for _ in state[n]]
                   for n in dist.active_arrays}
        for n in dist.active_scalars:
            shadows[n] = rng.uniform(-1, 1)
        seeds = [rng.uniform(0.5, 1.5) for _ in range(dist.results)]
        counts = [None]
        if dist.snapshots:
            counts = ref.snapshot_counts(sizes)[:1] + [1, 2]
        radj = ref.run_adjoint(state, sizes, shadows, seeds, counts[0])
        # Replicated shadows (a parameter's) are whole on every rank.
        want = [(n, layout.owned(radj[n]) if n in blocked else radj[n])
                for n in dist.active_arrays] + \
            [(n, [radj[n]]) for n in dist.active_scalars]
        for count in counts:
            adj = dist.run_adjoint(state, sizes, shadows, seeds, count)
            got = [(n, adj[n]) for n in dist.active_arrays] + \
                [(n, [adj[n]]) for n in dist.active_scalars]
            label = "adjoint" + ("" if count is None else "[snapshots=%d]" % count)
            self.compare(dist, sizes, label, got, want)


def worker(args):
    shim = ctypes.CDLL(args.shim, mode=ctypes.RTLD_GLOBAL)
    rank = shim.gen_mpi_start()
    with open(args.description) as f:
        cases = [c for c in json.load(f)["cases"] if c["name"] in args.cases.split(",")]
    ref_lib, dist_lib = ctypes.CDLL(args.ref), ctypes.CDLL(args.dist)
    ref_abi, dist_abi = ca.ABI(args.ref + ".abi.json"), ca.ABI(args.dist + ".abi.json")
    checker = RankChecker(rank, args.grid)
    for c in cases:
        c["grid"] = [int(p) for p in args.grid.split("x")]
        try:
            dist = DistCase(c, dist_lib, dist_abi, rank)
            ref = ca.Case(c, ref_lib, ref_abi, SUFFIX)
        except ca.CaseError as e:
            checker.failures.append("FAIL %s rank=%d %s" % (c["name"], rank, e))
            continue
        for k, sizes in enumerate(dist_sizes(dist, dist.halo, args.max_sizes)):
            checker.check(dist, ref, sizes, "%s/%d" % (c["name"], k))
    with open("%s.rank%d.json" % (args.report, rank), "w") as f:
        json.dump({"passed": checker.passed, "failures": checker.failures}, f)
    shim.gen_mpi_finish()


# ===----------------------------------------------------------------------=== #
# The driver
# ===----------------------------------------------------------------------=== #


def compile_lib(args, out, flags, log):
    opt = min(args.opt_level, args.max_opt_level)
    cmd = [args.stencil_compile, args.module, "--shared", "-O%d" % opt, "-o",
           out, "--abi-json", out + ".abi.json"] + flags
    log.append("+ " + shlex.join(cmd))
    r = subprocess.run(cmd, capture_output=True, text=True)
    if r.returncode != 0:
        log.append(r.stderr)
        return False
    return True


def launch(args, grid, names, ref, dist):
    """Runs one grid's cases under mpirun; returns (passed, [failures])."""
    ranks = 1
    for p in grid:
        ranks *= p
    label = "x".join(map(str, grid))
    report = os.path.join(args.workdir, "g" + label)
    cmd = shlex.split(args.mpirun) + ["-n", str(ranks), sys.executable,
                                      os.path.realpath(__file__), "--worker",
                                      args.module, args.description,
                                      "--shim", args.shim, "--ref", ref,
                                      "--dist", dist, "--grid", label,
                                      "--cases", ",".join(names),
                                      "--report", report,
                                      "--max-sizes", str(args.max_sizes)]
    env = dict(os.environ, OMP_NUM_THREADS="1")
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                            text=True, env=env, start_new_session=True)
    try:
        output, _ = proc.communicate(timeout=args.timeout)
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)
        output, _ = proc.communicate()
        return 0, ["FAIL grid=%s: mpirun did not end in %d s (%s)\n%s"
                   % (label, args.timeout, ",".join(names), output[-2000:])]
    passed, failures = 0, []
    for r in range(ranks):
        path = "%s.rank%d.json" % (report, r)
        if not os.path.exists(path):
            failures.append("FAIL grid=%s rank=%d: no report (mpirun exit "
                            "status %d, cases %s)\n%s"
                            % (label, r, proc.returncode, ",".join(names),
                               output[-2000:]))
            continue
        with open(path) as f:
            result = json.load(f)
        passed += result["passed"]
        failures += result["failures"]
    if proc.returncode != 0 and not failures:
        failures.append("FAIL grid=%s: mpirun exit status %d\n%s"
                        % (label, proc.returncode, output[-2000:]))
    return passed, failures


def driver(args):
    args.stencil_compile = ca.find_tool("stencil-compile", args.stencil_compile)
    if not args.stencil_compile:
        sys.exit("check_dist: stencil-compile not found (use --stencil-compile)")
    args.module = os.path.abspath(args.module)
    args.shim = os.path.abspath(args.shim)
    args.description = os.path.abspath(args.description)
    os.makedirs(args.workdir, exist_ok=True)
    with open(args.description) as f:
        cases = json.load(f)["cases"]
    groups = {}
    for c in cases:
        if not args.grids:
            groups.setdefault(tuple(c["grid"]), []).append(c["name"])
            continue
        # Every listed grid of the case's rank (its own grid's length).
        for label in args.grids.split(","):
            grid = tuple(int(p) for p in label.split("x"))
            if len(grid) == len(c["grid"]):
                groups.setdefault(grid, []).append(c["name"])
    log = []
    ref = os.path.join(args.workdir, "ref.so")
    if not compile_lib(args, ref, ["--stencil-adjoint", "--convert-to-omp"], log):
        print("\n".join(log))
        print("FAIL: building the one-process library failed")
        print("0 passed, 1 failed")
        sys.exit(1)
    passed, failures = 0, []
    for grid, names in sorted(groups.items()):
        label = "x".join(map(str, grid))
        dist = os.path.join(args.workdir, "g%s.so" % label)
        flags = ["--symbol-privatize=exclude=" + ",".join(names), "--symbol-dce",
                 "--stencil-adjoint",
                 "--stencil-distribute=grid=" + ",".join(map(str, grid)),
                 "--convert-to-omp"]
        if not compile_lib(args, dist, flags, log):
            failures.append("FAIL grid=%s: building %s failed\n%s"
                            % (label, ",".join(names), log[-1]))
            continue
        p, f = launch(args, grid, names, ref, dist)
        print("grid %s: %d case(s), %d checks passed, %d failed"
              % (label, len(names), p, len(f)))
        sys.stdout.flush()
        passed += p
        failures += f
    for line in failures:
        print(line)
    print("%d passed, %d failed" % (passed, len(failures)))
    sys.exit(1 if failures else 0)


def main():
    p = argparse.ArgumentParser(
        description="Check distributed functions and their adjoints bitwise "
                    "against one process, under mpirun.")
    p.add_argument("module")
    p.add_argument("description")
    p.add_argument("--shim", required=True, help="mpi_shim.c built with mpicc -shared")
    p.add_argument("--mpirun", default="mpirun", help="the launcher, with its options")
    p.add_argument("--workdir", default="check_dist.work")
    p.add_argument("-O", "--opt-level", type=int, default=1)
    p.add_argument("--max-opt-level", type=int, default=3,
                   help="caps -O (the sanitizer builds' lit configuration sets 0)")
    p.add_argument("--stencil-compile", dest="stencil_compile")
    p.add_argument("--max-sizes", type=int, default=3,
                   help="global sizes per case (default: %(default)s)")
    p.add_argument("--grids",
                   help="check every case on each of these grids of its rank "
                        "(e.g. 1x1,2x1,2x2x1) instead of on its own grid")
    p.add_argument("--timeout", type=int, default=300,
                   help="seconds per mpirun (default: %(default)s)")
    # The ranks' own arguments.
    p.add_argument("--worker", action="store_true", help=argparse.SUPPRESS)
    p.add_argument("--ref", help=argparse.SUPPRESS)
    p.add_argument("--dist", help=argparse.SUPPRESS)
    p.add_argument("--grid", help=argparse.SUPPRESS)
    p.add_argument("--cases", help=argparse.SUPPRESS)
    p.add_argument("--report", help=argparse.SUPPRESS)
    args = p.parse_args()
    if args.worker:
        worker(args)
    else:
        driver(args)


if __name__ == "__main__":
    main()
