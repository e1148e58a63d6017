#!/usr/bin/env python3
#===- make-corpus.py - Seed corpus for stencil-fuzz ------------------------===//
#
# Usage: make-corpus.py SOURCE_ROOT OUT_DIR
#
# Writes one seed file per module found in the repository: every .mlir file
# of examples/, bench/kernels/ and test/, split at the `// -----` markers of
# -split-input-file tests so that each case is a seed of its own. Seeds are
# named by content hash, so reruns add nothing twice.
#
#===----------------------------------------------------------------------===//
import hashlib
import pathlib
import sys

MAX_SEED_BYTES = 16384  # stencil-fuzz runs with -max_len=16384


def seeds(root):
    for pattern in ("examples/**/*.mlir", "bench/kernels/*.mlir", "test/**/*.mlir"):
        for path in sorted(root.glob(pattern)):
            text = path.read_text(encoding="utf-8", errors="replace")
            for chunk in text.split("\n// -----\n"):
                data = chunk.encode()
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
