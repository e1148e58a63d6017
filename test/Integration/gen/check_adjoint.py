#!/usr/bin/env python3
# ===- check_adjoint.py - Numerical checks of --stencil-adjoint -----------=== #
#
# Compiles a module of stencil functions together with the adjoints that
# `--stencil-adjoint` builds for them into one shared library, loads it with
# ctypes and checks every case of a JSON description (stencilgen.py writes
# one; test/Integration/Inputs has hand-written ones) for a list of sizes:
#
#   fd       central finite differences of the primal along a random
#            direction over all active arrays, against <adjoint, direction>
#   fd-<s>   the same along each active scalar alone (scalar gradients)
#   dot      for linear cases, the dot-product test <J v, w> = <v, J^T w>
#            (J v is the primal applied to v; relative 1e-12)
#   threads  the adjoint (and the primal) at 1, 2 and 3 OpenMP threads, bitwise
#            identical (1e-12 relative for --mode atomic, whose atomic
#            updates have no fixed order)
#   compare  with --compare MODE: the adjoint and the primal of this mode
#            against a second library built with scatter=MODE, bitwise or
#            1e-12 relative
#   schedules  for a time loop (a case with "snapshots"), the adjoint with
#            every listed snapshot count bitwise equal to the first
#
# The objective of the finite differences is
#   J(x) = sum over active arrays X of <W_X, X after the call>
#        + sum over results k of seed_k * result_k,
# whose gradient is what the adjoint computes when its shadows hold W_X and
# its seed arguments seed_k (docs/Adjoint.md): the final shadow of X is
# dJ/dX, and an active scalar's shadow grows by dJ/ds.
#
# Prints one line per failed check and ends with "N passed, N failed"; the
# exit status is 1 if a check failed (2 if the module does not compile).
#
# Usage:
#   check_adjoint.py cases.mlir cases.json [--mode serial|atomic|gather]...
#                    [--compare serial] [-O N] [--stencil-compile PATH]
#                    [--workdir DIR]
# Each --mode is built at -O N (default 2) and checked in turn; the
# --compare library is built once, at --compare-opt-level (default 0).
#
# Description format (JSON): {"cases": [{"name", "args", "sizes", "results",
# "linear"}, ...]} where each arg is {"name", "kind": "array", "shape":
# [expr, ...], "active", "init": [lo, hi]}, {"name", "kind": "scalar",
# "active", "init": [lo, hi]} or {"name", "kind": "size"}; a shape entry is a
# Python expression of the size arguments ("n", "n+1"); "sizes" is a list of
# {size name: value}. Arrays and scalars are f64. A case whose function
# holds a time loop lists "snapshots": [expr, ...], snapshot counts as
# expressions of the sizes ("1", "steps"; "1..steps" for every count from 1
# to steps): its adjoint takes the count as a
# last argument (docs/TimeLoops.md); the other checks use the first. With
# "trip_count": expr, each schedule's statistics (stencil_ckpt_last_stats)
# must show min(snapshots, T) slots and Revolve's optimal number of forward
# steps, computed here from the closed form; for a linear case, whose
# adjoint needs none of the states, no slot and no forward step (likewise
# for a case marked "stateless": true, whose steps' adjoints read no state).
#
# ===----------------------------------------------------------------------=== #

import argparse
import ctypes
import importlib.util
import json
import math
import os
import random
import shlex
import shutil
import struct
import subprocess
import sys
import tempfile

import numpy as np

LLVM_BIN = os.environ.get("STENCIL_LLVM_BIN", "/usr/lib/llvm-22/bin")
LLVM_LIB = os.path.join(os.path.dirname(LLVM_BIN), "lib")
HERE = os.path.dirname(os.path.realpath(__file__))


def _load_stencilad(name):
    """Module `name` of the Python package (python/stencilad), loaded from
    its file in the source tree: the modules used here need none of the
    rest of the package."""
    path = os.path.join(HERE, "..", "..", "..", "python", "stencilad",
                        name + ".py")
    spec = importlib.util.spec_from_file_location("stencilad_" + name, path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


# The comparisons of the project's one gradient-check engine, and the C
# interface's structs as ctypes types, built from the ABI description.
gradcheck = _load_stencilad("gradcheck")
stencilad_abi = _load_stencilad("abi")
FD_STEP = gradcheck.FD_STEP
CMP_RTOL = 1e-12


# ===----------------------------------------------------------------------=== #
# Building the library
# ===----------------------------------------------------------------------=== #


def find_tool(name, explicit=None):
    """`explicit`, else `name` on PATH, else the source tree's build/bin
    (for runs outside lit)."""
    if explicit:
        return explicit
    found = shutil.which(name)
    if found:
        return found
    root = os.path.join(HERE, "..", "..", "..")
    p = os.path.join(root, "build", "bin", name)
    if os.access(p, os.X_OK):
        return os.path.realpath(p)
    return None


def run(cmd, log, **kwargs):
    log.append("+ " + " ".join(shlex.quote(c) for c in cmd))
    return subprocess.run(cmd, capture_output=True, text=True, **kwargs)


def compile_module(mlir, mode, opt, workdir, args, log):
    """Builds `<workdir>/<mode>.so` from `mlir` with stencil-compile, the
    project's one compile chain, at clang's -O`opt` (at most
    --max-opt-level); returns its path or None."""
    passes = []
    if not args.no_adjoint_pass:
        opts = args.adjoint_options
        passes.append("--stencil-adjoint" + ("=" + opts if opts else ""))
    passes += shlex.split(args.extra_passes or "")
    # One argument: stencil-compile parses the options of the pipeline
    # ("scatter=gather boundary=exact") as stencil-opt does.
    passes.append("--convert-to-omp=scatter=%s" % mode)
    out = os.path.join(workdir, "%s.so" % mode)
    # The ABI description (entry points and descriptor layout) comes from
    # the compiler.
    opt = min(opt, args.max_opt_level)
    cmd = [args.stencil_compile, mlir, "-o", out, "--shared", "-O%d" % opt,
           "--abi-json", out + ".abi.json"] + passes
    r = run(cmd, log)
    if r.returncode != 0 or not os.path.exists(out):
        log.append(r.stderr)
        return None
    return out


# ===----------------------------------------------------------------------=== #
# Calling the functions
# ===----------------------------------------------------------------------=== #

class ABI:
    """The C interface of one library as stencil-compile describes it
    (--abi-json): every entry point, and the structs (descriptors,
    stencil_ckpt_stats) as the Python package builds them from it."""

    def __init__(self, path):
        with open(path) as f:
            raw = json.load(f)
        self.layout = stencilad_abi.Layout(raw)
        self.entries = {e["c_symbol"]: e for e in raw["entry_points"]}

    def check(self, symbol, expected):
        """Raises CaseError unless entry point `symbol` takes `expected`, a
        list of (kind, rank, element) per argument."""
        entry = self.entries.get(symbol)
        if entry is None:
            raise CaseError("no entry point %s in the ABI description" % symbol)
        got = [(a["kind"], a["rank"], a["element"]) for a in entry["arguments"]]
        if got != expected:
            raise CaseError("%s takes %s, the description says %s"
                            % (symbol, got, expected))


class Buffer:
    """A contiguous row-major f64 array and its descriptor."""

    def __init__(self, shape, values, abi):
        self.shape = list(shape)
        self.count = 1
        for s in shape:
            self.count *= s
        assert len(values) == self.count
        # At least one element, so that empty arrays still have a pointer.
        self.data = (ctypes.c_double * max(1, self.count))(*values)
        view = np.ctypeslib.as_array(self.data)[:self.count].reshape(shape)
        self.desc = abi.layout.fill({"rank": len(shape), "element": "f64"},
                                    view)

    def values(self):
        return list(self.data[:self.count])

    def ref(self):
        return ctypes.byref(self.desc)


class CaseError(Exception):
    pass


def revolve_forward_steps(steps, slots):
    """Griewank and Walther's optimum: r T - C(S + r, r - 1), r the least
    with C(S + r, r) >= T (T - 1 for T >= 1 when S >= T)."""
    if steps <= 1:
        return 0
    r = 0
    while math.comb(slots + r, r) < steps:
        r += 1
    return r * steps - math.comb(slots + r, r - 1)


class Case:
    """One function of the description, bound to a loaded library."""

    def __init__(self, desc, lib, abi, suffix):
        self.desc = desc
        self.abi = abi
        self.name = desc["name"]
        self.args = desc["args"]
        self.results = desc.get("results", 0)
        self.linear = desc.get("linear", False)
        # A loop whose steps' adjoints read no state (linear ones, and
        # others the description marks "stateless") keeps no snapshot.
        self.stateless = desc.get("stateless", self.linear)
        self.arrays = [a for a in self.args if a["kind"] == "array"]
        self.active_arrays = [a["name"] for a in self.arrays if a.get("active")]
        self.scalars = [a for a in self.args if a["kind"] == "scalar"]
        self.active_scalars = [a["name"] for a in self.scalars if a.get("active")]
        self.active = [a["name"] for a in self.args if a.get("active")]
        self.snapshots = desc.get("snapshots")
        self.trip_count = desc.get("trip_count")
        self.stats = None
        if self.trip_count is not None:
            self.stats = lib.stencil_ckpt_last_stats
            self.stats.restype = abi.layout.runtime_struct(
                "stencil_ckpt_stats")
        for a in self.args:
            if a["kind"] in ("array", "scalar") and a.get("type", "f64") != "f64":
                raise CaseError("argument %%%s: only f64 arrays and scalars are "
                                "supported" % a["name"])
        try:
            self.primal = getattr(lib, "_mlir_ciface_" + self.name)
            self.adjoint = getattr(lib, "_mlir_ciface_" + self.name + suffix)
        except AttributeError as e:
            raise CaseError("missing entry point: %s" % e)
        self.result_struct = None
        if self.results == 1:
            self.primal.restype = ctypes.c_double
        else:
            self.primal.restype = None
            if self.results > 1:
                self.result_struct = type(
                    "Results_" + self.name, (ctypes.Structure,),
                    {"_fields_": [("r%d" % k, ctypes.c_double)
                                  for k in range(self.results)]})
        self.adjoint.restype = None
        self.check_signatures(suffix)

    def check_signatures(self, suffix):
        """The entry points must take what the description says: the
        primal's arguments, then a shadow per active argument (an array of
        the same rank, or a rank-0 array for a scalar), then a seed per
        result."""
        def arg(a):
            if a["kind"] == "array":
                return ("descriptor", len(a["shape"]), "f64")
            if a["kind"] == "scalar":
                return ("scalar", 0, "f64")
            return ("scalar", 0, "index")
        primal = [arg(a) for a in self.args]
        shadows = [("descriptor", len(a["shape"]) if a["kind"] == "array" else 0,
                    "f64") for a in self.args if a.get("active")]
        seeds = [("scalar", 0, "f64")] * self.results
        extra = [("scalar", 0, "index")] if self.snapshots else []
        extra += self.extra_signature()
        self.abi.check("_mlir_ciface_" + self.name,
                       primal + self.extra_signature())
        self.abi.check("_mlir_ciface_" + self.name + suffix,
                       primal + shadows + seeds + extra)

    def shape(self, arg, sizes):
        return [self.size_expr(e, sizes) for e in arg["shape"]]

    def size_expr(self, expr, sizes):
        return int(eval(str(expr), {"__builtins__": {}}, dict(sizes)))

    def snapshot_counts(self, sizes):
        """The listed counts; "a..b" stands for every count from a to b."""
        counts = []
        for e in self.snapshots or []:
            if isinstance(e, str) and ".." in e:
                lo, hi = (self.size_expr(x, sizes) for x in e.split(".."))
                counts.extend(range(lo, hi + 1))
            else:
                counts.append(self.size_expr(e, sizes))
        return counts

    def array_buffer(self, arg, sizes, values):
        """The buffer array argument `arg` is passed in (check_dist.py's
        blocks override it)."""
        return Buffer(self.shape(arg, sizes), values, self.abi)

    def extra_signature(self):
        """Arguments the entry points take after all others (none here)."""
        return []

    def extra_args(self, sizes):
        return []

    def _primal_args(self, state, sizes, keep):
        call = []
        for a in self.args:
            if a["kind"] == "array":
                buf = self.array_buffer(a, sizes, state[a["name"]])
                keep[a["name"]] = buf
                call.append(buf.ref())
            elif a["kind"] == "scalar":
                call.append(ctypes.c_double(state[a["name"]]))
            else:
                call.append(ctypes.c_int64(sizes[a["name"]]))
        return call

    def run_primal(self, state, sizes):
        """Returns ({array name: values after the call}, [results])."""
        keep = {}
        call = self._primal_args(state, sizes, keep) + self.extra_args(sizes)
        results = []
        if self.results == 1:
            results = [self.primal(*call)]
        elif self.results > 1:
            out = self.result_struct()
            self.primal(ctypes.byref(out), *call)
            results = [getattr(out, "r%d" % k) for k in range(self.results)]
        else:
            self.primal(*call)
        return {n: b.values() for n, b in keep.items()}, results

    def run_adjoint(self, state, sizes, shadows, seeds, snapshots=None):
        """`shadows` maps each active name to its initial shadow (a list for
        arrays, a float for scalars); returns the final shadows. A time
        loop's adjoint gets `snapshots` (default: the first listed)."""
        keep = {}
        call = self._primal_args(state, sizes, keep)
        out = {}
        for name in self.active:
            a = next(x for x in self.args if x["name"] == name)
            if a["kind"] == "array":
                buf = self.array_buffer(a, sizes, shadows[name])
            else:
                buf = Buffer([], [shadows[name]], self.abi)
            out[name] = (a["kind"], buf)
            call.append(buf.ref())
        for seed in seeds:
            call.append(ctypes.c_double(seed))
        if self.snapshots:
            if snapshots is None:
                snapshots = self.snapshot_counts(sizes)[0]
            call.append(ctypes.c_int64(snapshots))
        self.adjoint(*(call + self.extra_args(sizes)))
        return {n: (b.values() if kind == "array" else b.values()[0])
                for n, (kind, b) in out.items()}


# ===----------------------------------------------------------------------=== #
# Checks
# ===----------------------------------------------------------------------=== #


def dot(x, y):
    return math.fsum(a * b for a, b in zip(x, y))


def abs_dot(x, y):
    return math.fsum(abs(a * b) for a, b in zip(x, y))


def bits(values):
    return struct.pack("%dd" % len(values), *values)


def random_state(case, sizes, rng):
    """Random values of the case's arrays and scalars within their "init"
    ranges (check_dist.py draws the same)."""
    state = {}
    for a in case.args:
        lo, hi = a.get("init", [-1.0, 1.0])
        if a["kind"] == "array":
            n = 1
            for s in case.shape(a, sizes):
                n *= s
            state[a["name"]] = [rng.uniform(lo, hi) for _ in range(n)]
        elif a["kind"] == "scalar":
            state[a["name"]] = rng.uniform(lo, hi)
    return state


class Checker:
    def __init__(self, args, omp):
        self.args = args
        self.omp = omp
        self.passed = 0
        self.failed = 0
        # The mode under test, and how a failure names it when there are
        # several.
        self.mode = args.mode[0]
        self.label = ""

    def report(self, ok, case, sizes, check, detail=""):
        if ok:
            self.passed += 1
            if self.args.verbose:
                print("ok   %s %s %s %s" % (case.name, fmt_sizes(sizes), check, detail))
            return
        self.failed += 1
        print("FAIL %s%s %s %s %s" % (self.label, case.name, fmt_sizes(sizes),
                                    check, detail))
        sys.stdout.flush()

    def random_state(self, case, sizes, rng):
        return random_state(case, sizes, rng)

    def objective(self, case, state, sizes, weights, seeds):
        after, results = case.run_primal(state, sizes)
        terms = []
        for name in case.active_arrays:
            terms.extend(w * x for w, x in zip(weights[name], after[name]))
        terms.extend(s * r for s, r in zip(seeds, results))
        return math.fsum(terms), math.fsum(abs(t) for t in terms)

    def check_case(self, case, sizes, rng, ref_case):
        state = self.random_state(case, sizes, rng)
        weights = {n: [rng.uniform(-1, 1) for _ in state[n]] for n in case.active_arrays}
        seeds = [rng.uniform(0.5, 1.5) for _ in range(case.results)]
        shadows = dict(weights)
        b0 = {}
        for n in case.active_scalars:
            b0[n] = rng.uniform(-1, 1)
            shadows[n] = b0[n]
        grad = case.run_adjoint(state, sizes, shadows, seeds)
        for n in case.active_scalars:
            grad[n] -= b0[n]
        bad = [n for n in case.active if not all(map(math.isfinite, _listify(grad[n])))]
        self.report(not bad, case, sizes, "finite",
                    "non-finite adjoint of %s" % ", ".join(bad) if bad else "")
        if bad:
            return

        if not self.args.no_fd:
            self.check_fd(case, sizes, rng, state, weights, seeds, grad)
        if case.linear and not self.args.no_dot:
            self.check_dot(case, sizes, rng, state, seeds)
        if not self.args.no_threads and self.omp:
            self.check_threads(case, sizes, state, shadows, seeds)
        if ref_case:
            self.check_compare(case, ref_case, sizes, state, shadows, seeds)
        if case.snapshots:
            self.check_schedules(case, sizes, state, shadows, seeds)

    def check_schedules(self, case, sizes, state, shadows, seeds):
        """Every snapshot count gives bitwise the gradient of the first."""
        counts = case.snapshot_counts(sizes)
        first = case.run_adjoint(state, sizes, shadows, seeds, counts[0])
        self.check_stats(case, sizes, counts[0])
        for count in counts[1:]:
            other = case.run_adjoint(state, sizes, shadows, seeds, count)
            self.check_stats(case, sizes, count)
            bad = [n for n in case.active
                   if bits(_listify(first[n])) != bits(_listify(other[n]))]
            self.report(not bad, case, sizes, "schedules",
                        "snapshots=%d vs %d: %s differ" % (count, counts[0], ", ".join(bad))
                        if bad else "snapshots=%d" % count)

    def check_fd(self, case, sizes, rng, state, weights, seeds, grad):
        directions = []
        if case.active_arrays:
            directions.append(("fd", {n: [rng.uniform(-1, 1) for _ in state[n]]
                                      for n in case.active_arrays}))
        for n in case.active_scalars:
            directions.append(("fd-" + n, {n: 1.0}))
        for label, v in directions:
            ok, detail = self.fd_once(case, sizes, state, weights, seeds,
                                      grad, label, v)
            self.report(ok, case, sizes, label, detail)

    def fd_once(self, case, sizes, state, weights, seeds, grad, label, v):
        """The central difference along `v` (the step scaled for scalars),
        judged by the package's engine; returns (passed, detail)."""
        h = FD_STEP
        if label != "fd":
            h = h * max(1.0, abs(state[label[3:]]))
        terms = []
        for n, d in v.items():
            if isinstance(d, list):
                terms.extend(g * y for g, y in zip(grad[n], d))
            else:
                terms.append(grad[n] * d)

        def objective(t):
            shifted = dict(state)
            for n, d in v.items():
                if isinstance(d, list):
                    shifted[n] = [x + t * y for x, y in zip(state[n], d)]
                else:
                    shifted[n] = state[n] + t * d
            return self.objective(case, shifted, sizes, weights, seeds)

        return gradcheck.fd_compare(objective, terms, h)

    def check_dot(self, case, sizes, rng, state, seeds):
        # J v: the primal applied to v (the map is linear in the arrays).
        v = {n: [rng.uniform(-1, 1) for _ in state[n]] for n in case.active_arrays}
        w = {n: [rng.uniform(-1, 1) for _ in state[n]] for n in case.active_arrays}
        vstate = dict(state)
        vstate.update(v)
        jv, results = case.run_primal(vstate, sizes)
        lhs_terms = []
        for n in case.active_arrays:
            lhs_terms.extend(a * b for a, b in zip(jv[n], w[n]))
        lhs_terms.extend(s * r for s, r in zip(seeds, results))
        shadows = dict(w)
        for n in case.active_scalars:
            shadows[n] = 0.0
        jtw = case.run_adjoint(state, sizes, shadows, seeds)
        rhs_terms = []
        for n in case.active_arrays:
            rhs_terms.extend(a * b for a, b in zip(v[n], jtw[n]))
        ok, detail = gradcheck.dot_compare(lhs_terms, rhs_terms)
        self.report(ok, case, sizes, "dot", detail)

    def outputs(self, case, state, sizes, shadows, seeds):
        after, results = case.run_primal(state, sizes)
        adj = case.run_adjoint(state, sizes, shadows, seeds)
        flat = []
        for n in case.active_arrays:
            flat.append(("primal " + n, after[n]))
        flat.append(("results", results))
        for n in case.active:
            flat.append(("adjoint " + n, _listify(adj[n])))
        return flat

    def check_threads(self, case, sizes, state, shadows, seeds):
        self.omp.omp_set_num_threads(1)
        one = self.outputs(case, state, sizes, shadows, seeds)
        self.omp.omp_set_num_threads(2)
        two = self.outputs(case, state, sizes, shadows, seeds)
        # Three threads split the slices unevenly.
        self.omp.omp_set_num_threads(3)
        three = self.outputs(case, state, sizes, shadows, seeds)
        self.omp.omp_set_num_threads(self.default_threads)
        exact = self.mode != "atomic"
        self.compare_outputs(case, sizes, "threads", one, two, exact)
        self.compare_outputs(case, sizes, "threads", one, three, exact)

    def check_compare(self, case, ref_case, sizes, state, shadows, seeds):
        mine = self.outputs(case, state, sizes, shadows, seeds)
        ref = self.outputs(ref_case, state, sizes, shadows, seeds)
        self.compare_outputs(case, sizes, "compare-" + self.args.compare, mine, ref, False)

    def compare_outputs(self, case, sizes, label, a, b, exact):
        worst = None
        for (name, x), (_, y) in zip(a, b):
            if bits(x) == bits(y):
                continue
            if exact:
                worst = "%s differs bitwise" % name
                break
            peak = max([abs(t) for t in x + y] + [0.0])
            for i, (p, q) in enumerate(zip(x, y)):
                if p == q:
                    continue
                if not (abs(p - q) <= CMP_RTOL * max(abs(p), abs(q)) + 1e-14 * peak):
                    worst = "%s[%d]: %.17g vs %.17g" % (name, i, p, q)
                    break
            if worst:
                break
        self.report(worst is None, case, sizes, label, worst or "")


    def check_stats(self, case, sizes, count):
        """The schedule the last adjoint ran: its slots and forward steps."""
        if case.stats is None:
            return
        steps = case.size_expr(case.trip_count, sizes)
        slots = max(1, min(count, steps))
        want = (steps, slots, revolve_forward_steps(steps, slots))
        if case.stateless:
            # The steps' adjoints do not read the state: nothing is kept or
            # recomputed.
            want = (steps, 0, 0)
        got = case.stats()
        have = (got.steps, got.slots, got.forward_steps)
        self.report(have == want, case, sizes, "revolve",
                    "snapshots=%d: (steps, slots, forward steps) %s, expected %s"
                    % (count, have, want))


def _listify(x):
    return x if isinstance(x, list) else [x]


def fmt_sizes(sizes):
    return ",".join("%s=%d" % kv for kv in sorted(sizes.items()))


# ===----------------------------------------------------------------------=== #
# Driver
# ===----------------------------------------------------------------------=== #


def check_mode(checker, cases, loaded, abis, mode):
    """Checks every case of the library of `mode` (and against the
    --compare library)."""
    args = checker.args
    for c in cases:
        try:
            case = Case(c, loaded[mode], abis[mode], args.suffix)
            ref = None
            if args.compare:
                ref = Case(c, loaded[args.compare], abis[args.compare],
                           args.suffix)
        except CaseError as e:
            print("FAIL %s%s %s" % (checker.label, c["name"], e))
            checker.failed += 1
            continue
        sizes_list = c["sizes"]
        if args.max_sizes:
            sizes_list = sizes_list[:args.max_sizes]
        for k, sizes in enumerate(sizes_list):
            rng = random.Random("%d/%s/%d" % (args.seed, c["name"], k))
            checker.check_case(case, sizes, rng, ref)


def main():
    p = argparse.ArgumentParser(
        description="Check --stencil-adjoint numerically: finite differences, "
                    "dot-product test, thread-count and mode comparisons.")
    p.add_argument("module", help="module of primal functions (.mlir)")
    p.add_argument("description", help="JSON description of the cases")
    p.add_argument("--mode", action="append",
                   help="scatter=<mode> of --convert-to-omp: serial, atomic, "
                        "gather, ... (passed through; default: serial). "
                        "Repeat it to check several modes against one "
                        "--compare library")
    p.add_argument("--compare", metavar="MODE",
                   help="also build scatter=MODE and compare against it")
    p.add_argument("-O", "--opt-level", type=int, default=2,
                   help="clang -O level of the modes under test "
                        "(default: %(default)s)")
    p.add_argument("--compare-opt-level", type=int, default=0,
                   help="clang -O level of the --compare library (default: "
                        "%(default)s: a reference LLVM does not optimise)")
    p.add_argument("--max-opt-level", type=int, default=3,
                   help="caps both levels; the sanitizer builds' lit "
                        "configuration sets 0 (test/lit.cfg.py)")
    p.add_argument("--stencil-compile", dest="stencil_compile",
                   help="stencil-compile binary (default: on PATH, then build/bin)")
    p.add_argument("--adjoint-options", default="",
                   help="options of --stencil-adjoint, e.g. 'suffix=_b'")
    p.add_argument("--suffix", default="_adjoint",
                   help="suffix of the adjoint functions (default: %(default)s)")
    p.add_argument("--extra-passes", default="",
                   help="stencil-opt flags between --stencil-adjoint and "
                        "--convert-to-omp")
    p.add_argument("--no-adjoint-pass", action="store_true",
                   help="the module already contains the adjoints")
    p.add_argument("--workdir", help="keep the build products here")
    p.add_argument("--cases", help="comma-separated case names to check")
    p.add_argument("--max-sizes", type=int, default=0,
                   help="check at most this many sizes per case (0: all)")
    p.add_argument("--seed", type=int, default=12345, help="seed of the input data")
    p.add_argument("--no-fd", action="store_true")
    p.add_argument("--no-dot", action="store_true")
    p.add_argument("--no-threads", action="store_true")
    p.add_argument("-v", "--verbose", action="store_true")
    args = p.parse_args()

    args.stencil_compile = find_tool("stencil-compile", args.stencil_compile)
    if not args.stencil_compile:
        sys.exit("check_adjoint: stencil-compile not found (use --stencil-compile)")
    with open(args.description) as f:
        desc = json.load(f)
    cases = desc["cases"]
    if args.cases:
        wanted = set(args.cases.split(","))
        cases = [c for c in cases if c["name"] in wanted]

    args.mode = args.mode or ["serial"]
    workdir = args.workdir or tempfile.mkdtemp(prefix="check_adjoint.")
    os.makedirs(workdir, exist_ok=True)
    log = []
    builds = [(m, args.opt_level) for m in args.mode]
    if args.compare and args.compare not in args.mode:
        builds.append((args.compare, args.compare_opt_level))
    libs = {}
    for mode, opt in builds:
        path = compile_module(os.path.abspath(args.module), mode, opt, workdir,
                              args, log)
        if not path:
            print("\n".join(log), file=sys.stderr)
            print("check_adjoint: building scatter=%s failed" % mode)
            print("0 passed, 1 failed")
            sys.exit(2)
        libs[mode] = path
    if args.verbose:
        print("\n".join(l for l in log if l.startswith("+")), file=sys.stderr)

    # The thread checks need LLVM's OpenMP runtime; not finding it is a
    # failure, not a reason to skip them (--no-threads skips them).
    omp = None
    if not args.no_threads:
        libomp = os.path.join(LLVM_LIB, "libomp.so")
        try:
            omp = ctypes.CDLL(libomp, mode=ctypes.RTLD_GLOBAL)
        except OSError as e:
            print("FAIL: cannot load %s (%s) for the thread checks" % (libomp, e))
            sys.exit(1)
    loaded = {m: ctypes.CDLL(path) for m, path in libs.items()}
    abis = {m: ABI(path + ".abi.json") for m, path in libs.items()}

    checker = Checker(args, omp)
    if omp:
        checker.default_threads = omp.omp_get_max_threads()
    for mode in args.mode:
        checker.mode = mode
        if len(args.mode) > 1:
            checker.label = "[%s] " % mode
        check_mode(checker, cases, loaded, abis, mode)
    if not args.workdir:
        shutil.rmtree(workdir, ignore_errors=True)
    print("%d passed, %d failed" % (checker.passed, checker.failed))
    sys.exit(1 if checker.failed else 0)


if __name__ == "__main__":
    main()
