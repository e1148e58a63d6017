# ===- abi_layout.py - The descriptor layout stencil-compile describes ---=== #
#
# Builds the f64 descriptors of ranks 0-3 with ctypes from the
# "descriptor_fields" of a `stencil-compile --abi-json` file, as a tool
# without a C compiler would, and prints their layout in the format of
# abi_layout.cpp, which prints the installed header's.
#
# ===----------------------------------------------------------------------=== #

import ctypes
import json
import sys

TYPES = {"element_pointer": ctypes.POINTER(ctypes.c_double),
         "i64": ctypes.c_int64}

fields = json.load(open(sys.argv[1]))["descriptor_fields"]
for rank in range(4):
    members = []
    for f in fields:
        t = TYPES[f["type"]]
        if f["count"] == "rank":
            if rank == 0:
                continue
            t = t * rank
        members.append((f["name"], t))
    D = type("D", (ctypes.Structure,), {"_fields_": members})
    line = "rank %d size %d offsets %d %d %d" % (
        rank, ctypes.sizeof(D), D.allocated.offset, D.aligned.offset,
        D.offset.offset)
    if rank:
        line += " %d %d" % (D.sizes.offset, D.strides.offset)
    print(line)
