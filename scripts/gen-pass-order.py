#!/usr/bin/env python3
# ===- gen-pass-order.py - The pipelines' pass order in the docs ----------=== #
#
# The order of the passes is written once, in lib/Pipelines (Pipelines.cpp
# for convert-to-omp, GPUPipeline.cpp for convert-to-gpu, CPipeline.cpp for
# convert-to-c). This script asks
# stencil-opt for it (`--dump-pass-pipeline`), with the default options and
# with each option below that adds or removes passes, and writes it as a
# table between the markers of docs/Design.md, docs/GPU.md and
# docs/CSource.md:
#
#   <!-- BEGIN generated pass order: convert-to-omp -->
#   <!-- END generated pass order -->
#
# Each of our passes is shown with the source file that defines it (the one
# with its GEN_PASS_DEF_ macro) and the summary of its Passes.td entry.
#
#   scripts/gen-pass-order.py [--stencil-opt build/bin/stencil-opt] [--check]
#
# With --check it writes nothing and exits 1 if a page differs from what it
# would write (test/Docs/pass-order.test).
#
# ===----------------------------------------------------------------------=== #

import argparse
import difflib
import glob
import os
import re
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

# (page, pipeline, what runs before it, options that add or remove passes).
PIPELINES = [
    ("docs/Design.md", "convert-to-omp", "stencil-adjoint",
     ["scatter=serial", "cut=0", "ring-cut=0", "hoist-temporaries=0",
      "c-interface=0", "check-bounds=0", "fp-contract=1", "gpu-index32=1",
      "gpu-coarsen=2", "overlap-exchanges=0"]),
    ("docs/GPU.md", "convert-to-gpu", "stencil-adjoint",
     ["scatter=serial", "cut=0", "index32=0", "coarsen=2", "c-interface=0"]),
    ("docs/CSource.md", "convert-to-c", "stencil-adjoint",
     ["scatter=serial", "form-expressions=0"]),
]
BEGIN = "<!-- BEGIN generated pass order: %s -->"
END = "<!-- END generated pass order -->"


def tablegen_string(text):
    """The value of consecutive TableGen string literals."""
    return "".join(re.findall(r'"((?:[^"\\]|\\.)*)"', text))


def our_passes():
    """Pass name -> (defining source file, summary), from the tree."""
    defs = {}
    for td in sorted(glob.glob(os.path.join(ROOT, "include", "Stencil", "*",
                                            "Passes.td"))):
        text = open(td, encoding="utf-8").read()
        for m in re.finditer(
                r'def\s+(\w+)\s*:\s*Pass<\s*"([^"]+)"(.*?)\n}', text, re.S):
            summary = re.search(r'let\s+summary\s*=\s*((?:"[^"]*"\s*)+);',
                                m.group(3))
            defs[m.group(2)] = (m.group(1),
                                tablegen_string(summary.group(1))
                                if summary else "")
    sources = {}
    for path in sorted(glob.glob(os.path.join(ROOT, "lib", "**", "*.cpp"),
                                 recursive=True)):
        for macro in re.findall(r"#define\s+GEN_PASS_DEF_(\w+)",
                                open(path, encoding="utf-8").read()):
            sources[macro] = os.path.relpath(path, ROOT)
    out = {}
    for name, (record, summary) in defs.items():
        out[name] = (sources.get(record.upper(), "?"), summary)
    return out


def pass_list(stencil_opt, pipeline):
    """The passes stencil-opt runs for `pipeline`, in order."""
    result = subprocess.run(
        [stencil_opt, "--pass-pipeline=builtin.module(%s)" % pipeline,
         "--dump-pass-pipeline", "-o", os.devnull],
        input="module {}\n", capture_output=True, text=True)
    if result.returncode != 0:
        sys.exit("gen-pass-order: %s failed:\n%s" % (pipeline, result.stderr))
    body = result.stderr.split("builtin.module(", 1)[1]
    # Passes at any depth, options in {} skipped; a pass nested under an op
    # (`gpu.module(cse)`) is named with it.
    names, anchors, braces, word = [], [], 0, ""
    for ch in body:
        if braces:
            braces += {"{": 1, "}": -1}.get(ch, 0)
            continue
        if ch.isalnum() or ch in "-_.":
            word += ch
            continue
        if ch == "(":
            anchors.append(word)
        elif word:
            names.append("".join(a + "(" for a in anchors) + word
                         + ")" * len(anchors))
        if ch == ")":
            if not anchors:
                break
            anchors.pop()
        braces = 1 if ch == "{" else 0
        word = ""
    return names


def merged(stencil_opt, pipeline, flips):
    """[(pass, condition)] of the default run plus what each flip changes."""
    default = pass_list(stencil_opt, pipeline)
    notes = [[] for _ in default]
    inserts = {}  # index in default after which -> [(name, [conditions])]
    for flip in flips:
        other = pass_list(stencil_opt, "%s{%s}" % (pipeline, flip))
        matcher = difflib.SequenceMatcher(a=default, b=other, autojunk=False)
        for tag, a0, a1, b0, b1 in matcher.get_opcodes():
            if tag in ("delete", "replace"):
                for i in range(a0, a1):
                    notes[i].append("off with `%s`" % flip)
            if tag in ("insert", "replace"):
                slot = inserts.setdefault(a0 - 1, [])
                for name in other[b0:b1]:
                    slot.append((name, "only with `%s`" % flip))
    rows = [(name, "", cond) for name, cond in inserts.get(-1, [])]
    for i, name in enumerate(default):
        rows.append((name, "; ".join(notes[i]), None))
        rows += [(n, "", cond) for n, cond in inserts.get(i, [])]
    return [(name, cond if cond else note) for name, note, cond in rows]


def upstream_summaries(stencil_opt):
    """Pass name -> summary, from `stencil-opt --help`."""
    text = subprocess.run([stencil_opt, "--help"], capture_output=True,
                          text=True).stdout
    out = {}
    for m in re.finditer(r"^ {6}--([\w.-]+)\s+-\s+(.*)$", text, re.M):
        out.setdefault(m.group(1), m.group(2).strip().rstrip("."))
    return out


def table(stencil_opt, pipeline, before, flips):
    ours = our_passes()
    upstream = upstream_summaries(stencil_opt)
    lines = [BEGIN % pipeline, "",
             "Generated by `scripts/gen-pass-order.py` from `stencil-opt"
             " --dump-pass-pipeline` (the order is written once, in"
             " `lib/Pipelines`); `test/Docs/pass-order.test` fails when this"
             " table is stale. `--%s` runs first, as a pass of its own;"
             " then `--%s` runs:" % (before, pipeline), "",
             "| # | pass | defined in | what it does | when |",
             "|---:|---|---|---|---|"]
    for number, (name, when) in enumerate(merged(stencil_opt, pipeline,
                                                 flips), 1):
        inner = re.sub(r".*\(|\)+$", "", name)
        if inner in ours:
            source, summary = ours[inner]
            where = "`%s`" % source
        else:
            where, summary = "upstream MLIR", upstream.get(inner, "")
        shown = "`--%s`" % name if inner == name else "`%s`" % name
        lines.append("| %d | %s | %s | %s | %s |"
                     % (number, shown, where, summary, when or "always"))
    lines += ["", END]
    return "\n".join(lines)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--stencil-opt", default=os.path.join(
        ROOT, "build", "bin", "stencil-opt"))
    parser.add_argument("--check", action="store_true")
    args = parser.parse_args()
    stale = []
    for page, pipeline, before, flips in PIPELINES:
        path = os.path.join(ROOT, page)
        text = open(path, encoding="utf-8").read()
        begin = BEGIN % pipeline
        if begin not in text or END not in text.split(begin, 1)[1]:
            sys.exit("gen-pass-order: %s has no markers for %s"
                     % (page, pipeline))
        head, rest = text.split(begin, 1)
        tail = rest.split(END, 1)[1]
        new = head + table(args.stencil_opt, pipeline, before, flips) + tail
        if new == text:
            print("gen-pass-order: %s: %s is up to date" % (page, pipeline))
        elif args.check:
            stale.append(page)
            print("gen-pass-order: %s: the %s table is stale; run "
                  "scripts/gen-pass-order.py" % (page, pipeline))
        else:
            with open(path, "w", encoding="utf-8") as f:
                f.write(new)
            print("gen-pass-order: %s: %s written" % (page, pipeline))
    return 1 if stale else 0


if __name__ == "__main__":
    sys.exit(main())
