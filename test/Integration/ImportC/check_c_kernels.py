#!/usr/bin/env python3
"""Checks C stencil kernels through the C importer against the C itself.

For each kernel of a JSON description (Inputs/kernels.json; each entry names
a C file of Inputs/, the function, the importer's flags, the sizes, the
arrays' shapes and the scalars):

  1. the C file is compiled by clang into a shared library, called through
     ctypes with its own signature (read from clang's JSON AST): the
     independent reference of the primal;
  2. `stencil-import-c` imports the function and `stencilad.compile`
     compiles it with its adjoint;
  3. primal: every array after the compiled call against the C after the
     clang-compiled call, to 1e-15 relative (the largest difference over
     the largest magnitude of the array); whether they are bitwise equal
     is printed (the reference is compiled with -ffp-contract=off, as the
     compiled stencil code contracts nothing unless convert-to-omp's
     fp-contract says so; with clang's default -ffp-contract=on and
     -march=native the f64 kernels differ by FMAs, up to 2e-16);
  4. gradient: `stencilad.check_gradient` (central differences, the
     dot-product test for the kernels marked linear, 1 against 2 threads),
     then the same checks with the clang-compiled C as the primal (the
     differences and, for a linear kernel, J v of the dot-product test come
     from the C, the adjoint from the importer);
  5. for an entry with "mlir" (the paper's loops): the function of
     examples/*.mlir compiled from the MLIR, called on the same arrays, and
     the written arrays and the listed gradients compared (to 1e-14: the C
     and the MLIR order their sums differently).

Prints one line per check ("ok  " or "FAIL"), then "N passed, M failed";
exits 1 if any failed.

  check_c_kernels.py Inputs/kernels.json --workdir DIR [--import-c TOOL]
                     [--clang CLANG] [--examples DIR] [names...]
"""

import argparse
import ctypes
import json
import os
import subprocess
import sys

import numpy as np

import stencilad

PRIMAL_RTOL = 1e-15
MLIR_RTOL = 1e-14

# C parameter types of the kernels (by clang's spelling) and their ctypes.
SCALARS = {"int": ctypes.c_int, "long": ctypes.c_long,
           "long long": ctypes.c_longlong, "unsigned int": ctypes.c_uint,
           "unsigned long": ctypes.c_ulong,
           "unsigned long long": ctypes.c_ulonglong,
           "double": ctypes.c_double, "float": ctypes.c_float}


class Results:
    def __init__(self):
        self.passed = self.failed = 0

    def add(self, name, check, ok, detail):
        print("%s %s %s: %s" % ("ok  " if ok else "FAIL", name, check, detail))
        sys.stdout.flush()
        if ok:
            self.passed += 1
        else:
            self.failed += 1

    def report(self, name, report):
        for check, ok, detail in report.results:
            self.add(name, check, ok, detail)


def run(cmd):
    done = subprocess.run(cmd, stdout=subprocess.PIPE,
                          stderr=subprocess.STDOUT, text=True)
    return done.returncode, done.stdout


def c_parameters(clang, source, function):
    """[(name, ctypes type or None for a pointer)] of `function`, from
    clang's JSON AST of `source`."""
    code, out = run([clang, "-std=c99", "-fsyntax-only", "-Xclang",
                     "-ast-dump=json", "-Xclang",
                     "-ast-dump-filter=" + function, source])
    if code:
        raise RuntimeError("clang could not parse %s:\n%s" % (source, out))
    decoder, pos, params = json.JSONDecoder(), 0, None
    while pos < len(out):
        if out[pos].isspace():
            pos += 1
            continue
        node, pos = decoder.raw_decode(out, pos)
        if node.get("kind") == "FunctionDecl" and node.get("name") == function:
            params = [p for p in node.get("inner", [])
                      if p["kind"] == "ParmVarDecl"]
    if params is None:
        raise RuntimeError("no function %s in %s" % (function, source))
    out = []
    for p in params:
        spelled = p["type"].get("desugaredQualType", p["type"]["qualType"])
        if "*" in spelled or "[" in spelled:
            out.append((p["name"], None))
        else:
            out.append((p["name"], SCALARS[spelled.replace("const ", "")]))
    return out


class CReference:
    """The compiled function `f` (its signature, checks and adjoint) whose
    primal is the C function compiled by clang: check_gradient then takes
    J from the C."""

    def __init__(self, f, cfunc, cparams):
        self._f = f
        self._cfunc = cfunc
        self._cparams = cparams
        self.name = f.name + "[clang]"

    def __getattr__(self, attr):
        return getattr(self._f, attr)

    def __call__(self, *args, threads=None, check_bounds=True, **kwargs):
        values = self._f._bind(list(args), kwargs, self.name)
        cargs = []
        for (_, ctype), p, v in zip(self._cparams, self._f.params, values):
            if ctype is None:
                assert v.flags["C_CONTIGUOUS"] and v.dtype == np.dtype(
                    {"f64": np.float64, "f32": np.float32}[p["element"]])
                cargs.append(ctypes.c_void_p(v.ctypes.data))
            else:
                cargs.append(ctype(v))
        self._cfunc(*cargs)


def arguments(spec, f, rng):
    """The arguments of `f` by name: sizes, scalars, random arrays (uniform
    in "range", [-1, 1] by default; zero for those in "zero")."""
    sizes = spec["sizes"]
    args = {}
    for p in f.params:
        name = p["name"]
        if p["kind"] == "descriptor":
            shape = [int(eval(str(e), {"__builtins__": {}}, dict(sizes)))
                     for e in spec["arrays"][name]]
            dtype = {"f64": np.float64, "f32": np.float32}[p["element"]]
            lo, hi = spec.get("range", {}).get(name, (-1.0, 1.0))
            args[name] = (np.zeros(shape, dtype) if name in spec.get("zero", [])
                          else rng.uniform(lo, hi, shape).astype(dtype))
        elif name in sizes:
            args[name] = sizes[name]
        else:
            args[name] = spec["scalars"][name]
    return args


def copies(args):
    return {k: v.copy() if isinstance(v, np.ndarray) else v
            for k, v in args.items()}


def rel_diff(a, b):
    scale = max(float(np.max(np.abs(b))) if b.size else 0.0, 1e-300)
    return float(np.max(np.abs(a.astype(np.float64) - b))) / scale \
        if a.size else 0.0


def check_primal(res, name, f, ref, args):
    ours, theirs = copies(args), copies(args)
    f(**ours)
    ref(**theirs)
    for k, v in ours.items():
        if not isinstance(v, np.ndarray):
            continue
        bitwise = v.tobytes() == theirs[k].tobytes()
        d = rel_diff(v, theirs[k])
        res.add(name, "primal-" + k, d <= PRIMAL_RTOL,
                "bitwise equal to clang" if bitwise else
                "max rel diff %.3g against clang (not bitwise)" % d)


def check_mlir(res, name, spec, f, args, examples, rng):
    """The function of examples/*.mlir on the same arrays: the arrays it
    writes and the gradients listed in spec["mlir"]["grads"] from the same
    shadows."""
    m = spec["mlir"]
    g = stencilad.compile(os.path.join(examples, m["file"]))[m["function"]]
    ours, theirs = copies(args), copies(args)
    f(**ours)
    g(**{p["name"]: theirs[p["name"]] for p in g.params})
    for k in m["written"]:
        d = rel_diff(ours[k], theirs[k])
        res.add(name, "mlir-primal-" + k, d <= MLIR_RTOL,
                "max rel diff %.3g against %s" % (d, m["file"]))
    shadows = {p["name"]: rng.uniform(-1, 1, args[p["name"]].shape)
               for p in g.params if p["name"] in m["active"]}
    ga = f.adjoint(**copies(args), **{k + "_b": v.copy()
                                      for k, v in shadows.items()})
    gb = g.adjoint(**{p["name"]: copies(args)[p["name"]] for p in g.params},
                   **{k + "_b": v.copy() for k, v in shadows.items()})
    for k in m["grads"]:
        d = rel_diff(ga[k], gb[k])
        res.add(name, "mlir-grad-" + k, d <= MLIR_RTOL,
                "max rel diff %.3g against %s" % (d, m["file"]))


def check_kernel(res, spec, opts, inputs):
    name = spec["name"]
    function = spec.get("function", name)
    source = os.path.join(inputs, spec["source"])
    work = os.path.join(opts.workdir, name)
    os.makedirs(work, exist_ok=True)
    lib = os.path.join(work, "ref.so")
    code, out = run([opts.clang, "-std=c99", "-O2", "-ffp-contract=off",
                     "-fPIC", "-shared", "-Wall", "-Werror", source, "-o", lib,
                     "-lm"])
    if code:
        res.add(name, "clang", False, out)
        return
    mlir = os.path.join(work, name + ".mlir")
    code, out = run([opts.import_c, source, "--function=" + function]
                    + spec.get("import", []) + ["-o", mlir])
    if code:
        res.add(name, "import", False, out.strip())
        return
    try:
        f = stencilad.compile(mlir)[function]
    except stencilad.CompileError as e:
        res.add(name, "compile", False, str(e))
        return
    cparams = c_parameters(opts.clang, source, function)
    names = [p["name"] for p in f.params]
    res.add(name, "signature", names == [p for p, _ in cparams],
            "%s (C: %s)" % (f.signature, ", ".join(p for p, _ in cparams)))
    if names != [p for p, _ in cparams]:
        return
    ref = CReference(f, getattr(ctypes.CDLL(lib), function), cparams)
    rng = np.random.default_rng(spec.get("seed", 1))
    args = arguments(spec, f, rng)
    check_primal(res, name, f, ref, args)
    linear = spec.get("linear", False)
    # A time loop's adjoint: "snapshots" bounds the checkpointing schedule.
    extra = {"snapshots": spec["snapshots"]} if "snapshots" in spec else {}
    res.report(name, stencilad.check_gradient(f, args, linear=linear,
                                              threads=(1, 2), **extra))
    res.report(name + "[clang]", stencilad.check_gradient(
        ref, args, linear=linear, rng=2, **extra))
    if "mlir" in spec:
        check_mlir(res, name, spec, f, args, opts.examples, rng)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("spec")
    parser.add_argument("names", nargs="*")
    parser.add_argument("--workdir", required=True)
    parser.add_argument("--import-c", default="stencil-import-c")
    parser.add_argument("--clang", default="clang")
    parser.add_argument("--examples", default=os.path.join(
        os.path.dirname(os.path.abspath(__file__)), "..", "..", "..",
        "examples"))
    opts = parser.parse_intermixed_args()
    with open(opts.spec, encoding="utf-8") as f:
        specs = json.load(f)
    unknown = set(opts.names) - {s["name"] for s in specs}
    if unknown:
        parser.error("no kernel %s in %s" % (", ".join(sorted(unknown)),
                                              opts.spec))
    res = Results()
    for spec in specs:
        if not opts.names or spec["name"] in opts.names:
            check_kernel(res, spec, opts, os.path.dirname(opts.spec))
    print("%d passed, %d failed" % (res.passed, res.failed))
    return 1 if res.failed else 0


if __name__ == "__main__":
    sys.exit(main())
