#!/usr/bin/env python3
#===- make-corpus.py - Seed corpus for stencil-fuzz ------------------------===//
#
# Usage: make-corpus.py SOURCE_ROOT OUT_DIR
#
# Writes one seed file per module found in the repository: every .mlir file
# of examples/, bench/kernels/ and test/, split at the `// -----` markers of
# -split-input-file tests so that each case is a seed of its own. A case
# longer than the fuzzer's -max_len (test/Integration/Inputs/time-loops.mlir)
# is cut between its top-level functions into seeds that fit. Seeds keep
# their comments: stencil-fuzz runs the pipelines that RUN lines name. Seeds
# are named by content hash, so reruns add nothing twice.
#
#===----------------------------------------------------------------------===//
import hashlib
import pathlib
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


def main():
    if len(sys.argv) != 3:
        sys.exit("usage: make-corpus.py SOURCE_ROOT OUT_DIR")
    root, out = pathlib.Path(sys.argv[1]), pathlib.Path(sys.argv[2])
    out.mkdir(parents=True, exist_ok=True)
    count = 0
    for data in seeds(root):
        (out / hashlib.sha1(data).hexdigest()).write_bytes(data)
        count += 1
    print("make-corpus: %d seeds in %s" % (count, out))


if __name__ == "__main__":
    main()
