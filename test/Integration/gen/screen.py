#!/usr/bin/env python3
# ===- screen.py - Sort generated cases into accepted and refused ---------=== #
#
# Runs the passes a test will compile with (`--passes`, stencil-opt flags;
# `{grid}` stands for a case's "grid" of its description) over a generated
# module and sorts its cases:
#
#   accepted  the passes succeed;
#   refused   they fail with a located diagnostic (`file:line:col: error:`)
#             and exit status 1: a documented limit of the compiler, which
#             is printed (REFUSED, the case and the first error), counted,
#             and left out of what the test then runs;
#   FAIL      anything else: a crash, an assertion, a sanitizer report, an
#             error without a location, a failure without a diagnostic, or
#             a located error of the verifier on IR a pass built (the run
#             succeeds under --verify-each=0).
#
# The whole module goes through the passes once when every case shares one
# pass list; only if that fails (or the lists differ) is each case run
# alone (--symbol-privatize=exclude=<case> --symbol-dce keeps it and what it
# calls). The accepted cases are written to -o (printed by stencil-opt, with
# the source locations of the generated file) and --json-out.
#
# Prints "screen: N accepted, N refused, N failed"; exits 1 if a case
# failed.
#
# Usage:
#   screen.py cases.mlir cases.json --passes '--stencil-adjoint' \
#             -o accepted.mlir --json-out accepted.json
#
# ===----------------------------------------------------------------------=== #

import argparse
import json
import os
import re
import shlex
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.realpath(__file__)))
from check_adjoint import find_tool  # noqa: E402

# A located error as mlir's diagnostics print it (not IR: the tool's
# stderr).
LOCATED_ERROR = re.compile(r"^\S+:\d+:\d+: error: ")
# What a crash or a sanitizer leaves on stderr.
CRASH_SIGNS = ("Stack dump", "PLEASE submit a bug report", "Assertion",
               "AddressSanitizer", "UndefinedBehaviorSanitizer",
               "runtime error:", "LLVM ERROR")


def passes_for(template, case):
    return shlex.split(template.replace("{grid}", ",".join(
        str(p) for p in case.get("grid", []))))


def run_opt(opt, module, flags, timeout):
    cmd = [opt, module] + flags + ["-o", os.devnull]
    try:
        r = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        return None, "timed out after %d s: %s" % (timeout, shlex.join(cmd))
    return r, shlex.join(cmd)


def classify(result, command):
    """Returns ("accepted" | "refused" | "failed", detail)."""
    if result is None:
        return "failed", command
    if result.returncode == 0:
        return "accepted", ""
    err = result.stderr
    first = next((l for l in err.splitlines() if LOCATED_ERROR.match(l)), None)
    crashed = any(sign in err for sign in CRASH_SIGNS)
    if result.returncode == 1 and first and not crashed:
        # A pass that builds invalid IR fails only through the verifier:
        # without it the same run succeeds.
        again = subprocess.run(shlex.split(command) + ["--verify-each=0"],
                               capture_output=True, text=True)
        if again.returncode == 0:
            return "failed", ("the passes build invalid IR (they succeed "
                              "under --verify-each=0): %s\n  %s" % (first, command))
        return "refused", first
    tail = " | ".join(err.strip().splitlines()[-3:]) or "(no output)"
    return "failed", "exit status %d: %s\n  %s" % (result.returncode, tail,
                                                   command)


def screen(args, cases):
    """{case name: (verdict, detail)}."""
    verdicts = {}
    templates = {tuple(passes_for(args.passes, c)) for c in cases}
    if len(templates) == 1:
        flags = list(templates.pop())
        r, cmd = run_opt(args.stencil_opt, args.module, flags, args.timeout)
        if r is not None and r.returncode == 0:
            return {c["name"]: ("accepted", "") for c in cases}
    for c in cases:
        flags = ["--symbol-privatize=exclude=%s" % c["name"], "--symbol-dce"]
        flags += passes_for(args.passes, c)
        r, cmd = run_opt(args.stencil_opt, args.module, flags, args.timeout)
        verdicts[c["name"]] = classify(r, cmd)
    return verdicts


def write_accepted(args, desc, names):
    """The accepted functions (and what they call), printed by stencil-opt
    with the generated file's locations."""
    flags = ["--symbol-privatize=exclude=%s" % ",".join(names), "--symbol-dce",
             "--mlir-print-debuginfo"]
    if not names:
        flags = ["--symbol-privatize", "--symbol-dce"]
    r = subprocess.run([args.stencil_opt, args.module] + flags + ["-o", args.output],
                       capture_output=True, text=True)
    if r.returncode != 0:
        sys.exit("screen: writing the accepted cases failed:\n" + r.stderr)
    kept = dict(desc)
    kept["cases"] = [c for c in desc["cases"] if c["name"] in names]
    with open(args.json_out, "w") as f:
        json.dump(kept, f, indent=1)
        f.write("\n")


def main():
    p = argparse.ArgumentParser(
        description="Sort generated cases into accepted, refused (located "
                    "diagnostic) and failed (crash).")
    p.add_argument("module")
    p.add_argument("description")
    p.add_argument("--passes", required=True,
                   help="stencil-opt flags; {grid} is a case's grid, e.g. "
                        "'--stencil-distribute=grid={grid}'")
    p.add_argument("-o", dest="output", required=True)
    p.add_argument("--json-out", required=True)
    p.add_argument("--stencil-opt", dest="stencil_opt")
    p.add_argument("--timeout", type=int, default=300,
                   help="seconds per stencil-opt run (default: %(default)s)")
    args = p.parse_args()
    args.stencil_opt = find_tool("stencil-opt", args.stencil_opt)
    if not args.stencil_opt:
        sys.exit("screen: stencil-opt not found (use --stencil-opt)")
    with open(args.description) as f:
        desc = json.load(f)
    cases = desc["cases"]
    verdicts = screen(args, cases)
    counts = {"accepted": 0, "refused": 0, "failed": 0}
    for c in cases:
        verdict, detail = verdicts[c["name"]]
        counts[verdict] += 1
        if verdict == "refused":
            print("REFUSED %s: %s" % (c["name"], detail))
        elif verdict == "failed":
            print("FAIL %s: %s" % (c["name"], detail))
    names = [c["name"] for c in cases if verdicts[c["name"]][0] == "accepted"]
    write_accepted(args, desc, names)
    print("screen: %d accepted, %d refused, %d failed"
          % (counts["accepted"], counts["refused"], counts["failed"]))
    sys.stdout.flush()
    sys.exit(1 if counts["failed"] else 0)


if __name__ == "__main__":
    main()
