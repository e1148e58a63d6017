#!/usr/bin/env python3
#===- make-corpus.py - Seed corpus for stencil-fuzz ------------------------===//
#
# Usage: make-corpus.py [--import-c] SOURCE_ROOT OUT_DIR
#
# Writes one seed file per module found in the repository: every .mlir file
# of examples/, bench/kernels/ and test/, split at the `// -----` markers of
# -split-input-file tests so that each case is a seed of its own. A case
# longer than the fuzzer's -max_len (test/Integration/Inputs/time-loops.mlir)
# is cut between its top-level functions into seeds that fit. Seeds keep
# their comments: stencil-fuzz runs the pipelines that RUN lines name. Seeds
# are named by content hash, so reruns add nothing twice.
#
# With --import-c, the seeds of stencil-import-c-fuzz instead: every .c file
# of test/Import/C, whole (their RUN lines give the importer's options, and
# the error tests' functions each reach a different refusal), and once per
# function it defines, with a first line that selects that function alone
# (`// RUN: stencil-import-c --function=NAME`).
#
#===----------------------------------------------------------------------===//
import hashlib
import pathlib
import re
import sys

MAX_SEED_BYTES = 16384  # stencil-fuzz runs with -max_len=16384


def fitting(chunk):
    """`chunk`, or its top-level functions packed into pieces that fit."""
    if len(chunk.encode()) <= MAX_SEED_BYTES:
        yield chunk
        return
    pieces = chunk.split("\nfunc.func ")
    current = pieces[0]
    for piece in pieces[1:]:
        piece = "func.func " + piece
        if len((current + "\n" + piece).encode()) > MAX_SEED_BYTES:
            yield current
            current = piece
        else:
            current += "\n" + piece
    yield current


def seeds(root):
    for pattern in ("examples/**/*.mlir", "bench/kernels/*.mlir", "test/**/*.mlir"):
        for path in sorted(root.glob(pattern)):
            text = path.read_text(encoding="utf-8", errors="replace")
            for chunk in text.split("\n// -----\n"):
                for piece in fitting(chunk):
                    data = piece.encode()
                    if data.strip() and len(data) <= MAX_SEED_BYTES:
                        yield data


def c_seeds(root):
    for path in sorted(root.glob("test/Import/C/**/*.c")):
        text = path.read_text(encoding="utf-8", errors="replace")
        variants = [text] + [
            "// RUN: stencil-import-c --function=%s\n%s" % (name, text)
            for name in re.findall(r"^void\s+(\w+)\s*\(", text, re.MULTILINE)]
        for variant in variants:
            data = variant.encode()
            if len(data) <= MAX_SEED_BYTES:
                yield data


def main():
    args = sys.argv[1:]
    import_c = args[:1] == ["--import-c"]
    if import_c:
        args = args[1:]
    if len(args) != 2:
        sys.exit("usage: make-corpus.py [--import-c] SOURCE_ROOT OUT_DIR")
    root, out = pathlib.Path(args[0]), pathlib.Path(args[1])
    out.mkdir(parents=True, exist_ok=True)
    count = 0
    for data in (c_seeds if import_c else seeds)(root):
        (out / hashlib.sha1(data).hexdigest()).write_bytes(data)
        count += 1
    print("make-corpus: %d seeds in %s" % (count, out))


if __name__ == "__main__":
    main()
