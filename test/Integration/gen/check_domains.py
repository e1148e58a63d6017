#!/usr/bin/env python3
# ===- check_domains.py - The points each domain runs, against Python -----=== #
#
# check_adjoint.py compares adjoints with finite differences of the primal
# and with the serial scatter adjoint; a lowering that runs the wrong points
# in the primal and every adjoint alike passes all of that. This script
# checks the points themselves against an independent enumeration: for
# every `stencil.domain` of the cases of a module (those its JSON
# description names: stencilgen.py's output, with or without --nonrect, or
# a hand-written module), it builds a probe function with the same bounds
# and the body
#     out[p] += sum over o in O of u[p + o];  out[p + e_0] += u[p]
# with O the origin, each unit vector e_k and (in 2-D and 3-D) the
# diagonal, so that the primal gathers and scatters and the adjoint
# scatters into u's shadow at every o (the pieces of the gather form) and
# gathers out's shadow at e_0. It compiles the probes with
# --stencil-adjoint and --convert-to-omp=scatter=MODE for each --mode and
# runs each at every size of its case. The primal's `out` and the
# adjoint's shadow of `u` must equal exactly what Python computes from the
# points that nonrect.py enumerates from the bounds as written; a point run
# twice or missed, a dropped or doubled piece of the gather form or a wrong
# max/min shows. The values are small integers, so every sum is exact. The
# arrays are larger than the domain needs (2 max(sizes) + 2 per
# dimension), so a lowering that runs points outside it writes inside the
# array and is reported.
#
# Prints one line per failed check and ends with "N passed, N failed"; the
# exit status is 1 if a check failed (2 if the probes do not compile).
#
# Usage:
#   check_domains.py cases.mlir cases.json [--mode MODE]... [-O N]
#                    [--stencil-compile PATH] [--workdir DIR]
#
# ===----------------------------------------------------------------------=== #

import argparse
import json
import os
import re
import shutil
import sys
import tempfile
import types

sys.path.insert(0, os.path.dirname(os.path.realpath(__file__)))
import check_adjoint as ca  # noqa: E402
import nonrect  # noqa: E402

# The extra size argument that gives the probe arrays their extent.
EXTENT = "probe_extent"


# ===----------------------------------------------------------------------=== #
# Reading the domains of a module
# ===----------------------------------------------------------------------=== #


def balanced(text, pos):
    """Returns (inside, end) of the parenthesised group starting at `pos`."""
    assert text[pos] == "("
    depth = 0
    for end in range(pos, len(text)):
        depth += {"(": 1, ")": -1}.get(text[end], 0)
        if depth == 0:
            return text[pos + 1:end], end + 1
    raise ValueError("unbalanced bounds at offset %d" % pos)


def split_top(text):
    """Splits at the commas outside parentheses."""
    parts, depth, start = [], 0, 0
    for i, ch in enumerate(text):
        depth += {"(": 1, ")": -1}.get(ch, 0)
        if ch == "," and depth == 0:
            parts.append(text[start:i])
            start = i + 1
    return [part.strip() for part in parts + [text[start:]]]


def module_domains(text):
    """[(function, ivs, lower texts, upper texts)] of every domain."""
    funcs = [(m.start(), m.group(1))
             for m in re.finditer(r"func\.func\s+(?:private\s+)?@([\w$.]+)", text)]
    found = []
    for m in re.finditer(r"stencil\.domain\s*\(", text):
        ivs_text, pos = balanced(text, m.end() - 1)
        pos = text.index("=", pos) + 1
        pos += len(text[pos:]) - len(text[pos:].lstrip())
        lower, pos = balanced(text, pos)
        pos = text.index("to", pos) + 2
        pos += len(text[pos:]) - len(text[pos:].lstrip())
        upper, pos = balanced(text, pos)
        func = [name for start, name in funcs if start < m.start()][-1]
        ivs = [v.strip() for v in ivs_text.split(",")]
        found.append((func, ivs, split_top(lower), split_top(upper)))
    return found


# ===----------------------------------------------------------------------=== #
# Probes
# ===----------------------------------------------------------------------=== #


class Probe:
    """One domain's probe: its function, its bounds and its case's sizes."""

    def __init__(self, name, case, ivs, lower, upper):
        self.name = name
        self.dim = len(ivs)
        self.sizes = case["sizes"]
        self.size_names = [a["name"] for a in case["args"] if a["kind"] == "size"]
        self.lower, self.upper = lower, upper
        rename = {iv[1:]: "i%d" % k for k, iv in enumerate(ivs)}
        self.domain = nonrect.Domain(
            [nonrect.parse_group(t, rename) for t in lower],
            [nonrect.parse_group(t, rename) for t in upper])
        self.ivs = ivs
        dim = self.dim
        units = [tuple(int(j == k) for j in range(dim)) for k in range(dim)]
        self.offsets = [(0,) * dim] + units + ([(1,) * dim] if dim > 1 else [])
        self.scatter = units[0]

    def mlir(self):
        ty = "memref<%sf64>" % ("?x" * self.dim)
        args = ["%%u: %s {stencil.active}" % ty, "%%out: %s {stencil.active}" % ty]
        args += ["%%%s: index" % n for n in self.size_names + [EXTENT]]
        lines = ["func.func @%s(%s) {" % (self.name, ", ".join(args)),
                 "  stencil.domain (%s) = (%s) to (%s) {" % (
                     ", ".join(self.ivs), ", ".join(self.lower),
                     ", ".join(self.upper))]
        for k, o in enumerate(self.offsets):
            lines.append("    %%x%d = stencil.gather %%u[%s] : %s" % (
                k, ", ".join(map(str, o)), ty))
        for k in range(1, len(self.offsets)):
            lines.append("    %%s%d = arith.addf %%%s%d, %%x%d : f64" % (
                k, "x" if k == 1 else "s", k - 1, k))
        last = len(self.offsets) - 1
        lines += ["    stencil.accumulate %%s%d to %%out[%s] : %s" % (
                      last, ", ".join("0" * self.dim), ty),
                  "    stencil.accumulate %%x0 to %%out[%s] : %s" % (
                      ", ".join(map(str, self.scatter)), ty),
                  "  }", "  return", "}"]
        return "\n".join(lines) + "\n"

    def desc(self):
        """The probe as check_adjoint.py's Case describes a function."""
        shape = [EXTENT] * self.dim
        args = [{"name": "u", "kind": "array", "shape": shape, "active": True},
                {"name": "out", "kind": "array", "shape": shape, "active": True}]
        args += [{"name": n, "kind": "size"} for n in self.size_names + [EXTENT]]
        return {"name": self.name, "args": args, "results": 0}

    def expected(self, sizes, extent, u, out_b):
        """(out after the primal, u's shadow after the adjoint)."""
        strides = [extent ** (self.dim - 1 - k) for k in range(self.dim)]

        def flat(p, o=None):
            """The element at point p (shifted by o)."""
            if o is not None:
                p = tuple(a + b for a, b in zip(p, o))
            return sum(c * s for c, s in zip(p, strides))

        out = [0.0] * len(u)
        u_b = [0.0] * len(u)
        for p in self.domain.points(sizes):
            here = flat(p)
            for o in self.offsets:
                out[here] += u[flat(p, o)]
                u_b[flat(p, o)] += out_b[here]
            out[flat(p, self.scatter)] += u[here]
            u_b[here] += out_b[flat(p, self.scatter)]
        return out, u_b


def check_probe(probe, case, report):
    for sizes in probe.sizes:
        sizes = dict(sizes)
        extent = 2 * max(sizes.values()) + 2
        sizes[EXTENT] = extent
        count = extent ** probe.dim
        u = [float(1 + (i % 13)) for i in range(count)]
        out_b = [float(1 + (7 * i) % 11) for i in range(count)]
        zeros = [0.0] * count
        want_out, want_ub = probe.expected(sizes, extent, u, out_b)
        after, _ = case.run_primal({"u": u, "out": zeros}, sizes)
        report(after["out"] == want_out, probe, sizes, "primal")
        shadows = case.run_adjoint({"u": u, "out": zeros}, sizes,
                                   {"u": zeros, "out": out_b}, [])
        report(shadows["u"] == want_ub and shadows["out"] == out_b,
               probe, sizes, "adjoint")


def main():
    p = argparse.ArgumentParser(
        description="Check the points every domain runs against Python.")
    p.add_argument("module")
    p.add_argument("description")
    p.add_argument("--mode", action="append",
                   help="scatter=<mode> of --convert-to-omp (default: serial)")
    p.add_argument("-O", "--opt-level", type=int, default=0)
    p.add_argument("--stencil-compile", dest="stencil_compile")
    p.add_argument("--workdir")
    a = p.parse_args()
    a.stencil_compile = ca.find_tool("stencil-compile", a.stencil_compile)
    if not a.stencil_compile:
        sys.exit("check_domains: stencil-compile not found")
    with open(a.module) as f:
        text = f.read()
    with open(a.description) as f:
        cases = {c["name"]: c for c in json.load(f)["cases"]}

    probes = []
    for func, ivs, lower, upper in module_domains(text):
        if func in cases:
            probes.append(Probe("probe%d_%s" % (len(probes), func),
                                cases[func], ivs, lower, upper))
    workdir = a.workdir or tempfile.mkdtemp(prefix="check_domains.")
    os.makedirs(workdir, exist_ok=True)
    path = os.path.join(workdir, "probes.mlir")
    with open(path, "w") as f:
        f.write("".join(pr.mlir() for pr in probes))

    counts = {"passed": 0, "failed": 0}

    def report(ok, probe, sizes, check):
        counts["passed" if ok else "failed"] += 1
        if not ok:
            print("FAIL %s%s %s %s" % (label, probe.name, ca.fmt_sizes(sizes),
                                       check))

    build = types.SimpleNamespace(
        no_adjoint_pass=False, adjoint_options="", extra_passes="",
        max_opt_level=3, stencil_compile=a.stencil_compile)
    modes = a.mode or ["serial"]
    for mode in modes:
        label = "[%s] " % mode if len(modes) > 1 else ""
        log = []
        lib = ca.compile_module(path, mode, a.opt_level, workdir, build, log)
        if not lib:
            print("\n".join(log), file=sys.stderr)
            print("check_domains: building scatter=%s failed" % mode)
            print("0 passed, 1 failed")
            sys.exit(2)
        loaded = ca.ctypes.CDLL(lib)
        abi = ca.ABI(lib + ".abi.json")
        for probe in probes:
            case = ca.Case(probe.desc(), loaded, abi, "_adjoint")
            check_probe(probe, case, report)
    if not a.workdir:
        shutil.rmtree(workdir, ignore_errors=True)
    nonrect_count = sum(1 for pr in probes
                        if any(len(g) > 1 or any(n.startswith("i") for e in g
                                                 for n in e.coefs)
                               for g in pr.domain.lower + pr.domain.upper))
    print("%d domains, %d nonrectangular" % (len(probes), nonrect_count))
    print("%d passed, %d failed" % (counts["passed"], counts["failed"]))
    sys.exit(1 if counts["failed"] else 0)


if __name__ == "__main__":
    main()
