# ===- abi_layout.py - The layout stencil-compile describes --------------=== #
#
# Builds the f64 descriptors of ranks 0-3 and stencil_ckpt_stats with the
# Python package's ctypes structs (stencilad.abi.Layout, which
# check_adjoint.py uses too) from a `stencil-compile --abi-json` file, as a
# tool without a C compiler does, and prints their layout in the format of
# abi_layout.cpp, which prints the installed headers'.
#
# ===----------------------------------------------------------------------=== #

import ctypes
import json
import sys

from stencilad.abi import Layout

layout = Layout(json.load(open(sys.argv[1])))
for rank in range(4):
    D = layout.descriptor(rank, "f64")
    line = "rank %d size %d offsets %d %d %d" % (
        rank, ctypes.sizeof(D), D.allocated.offset, D.aligned.offset,
        D.offset.offset)
    if rank:
        line += " %d %d" % (D.sizes.offset, D.strides.offset)
    print(line)
S = layout.runtime_struct("stencil_ckpt_stats")
print("stencil_ckpt_stats size %d" % ctypes.sizeof(S), end="")
for name, _ in S._fields_:
    print(" %s@%d" % (name, getattr(S, name).offset), end="")
print()
