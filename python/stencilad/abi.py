"""The C interface as ctypes types, built from stencil-compile's JSON.

Nothing about the layout is restated here: the descriptor's fields, in
order, come from the JSON's "descriptor_fields", the run-time library's
structs (stencil_ckpt_stats) from its "runtime_structs" (docs/ABI.md; both
are written from the tables of the C headers), and each argument's C type
and rank from its entry point. test/Integration/gen/check_adjoint.py uses
this module too.
"""

import ctypes

if __package__:
    from ._deps import require
    np = require("numpy", "python3-numpy")
else:   # loaded from its file alone, by test/Integration/gen/check_adjoint.py
    import numpy as np

SCALAR_CTYPES = {
    "double": ctypes.c_double,
    "float": ctypes.c_float,
    "int64_t": ctypes.c_int64,
    "int32_t": ctypes.c_int32,
    "int16_t": ctypes.c_int16,
    "int8_t": ctypes.c_int8,
    "bool": ctypes.c_bool,
}

ELEMENT_DTYPES = {"f64": np.dtype(np.float64), "f32": np.dtype(np.float32)}
ELEMENT_CTYPES = {"f64": ctypes.c_double, "f32": ctypes.c_float}
FIELD_CTYPES = {"i64": ctypes.c_int64}


def struct_type(name, fields, rank=0, element=None):
    """The ctypes Structure of a table of fields (each {"name", "type",
    "count"}): a field of count "rank" is an array of `rank` entries, absent
    at rank 0, and an "element_pointer" points to `element`."""
    members = []
    for field in fields:
        if field["type"] == "element_pointer":
            ctype = ctypes.POINTER(ELEMENT_CTYPES[element])
        else:
            ctype = FIELD_CTYPES[field["type"]]
        if field["count"] == "rank":
            if rank == 0:
                continue
            ctype = ctype * rank
        elif field["count"] != "1":
            ctype = ctype * int(field["count"])
        members.append((field["name"], ctype))
    return type(name, (ctypes.Structure,), {"_fields_": members})


class Layout:
    """The structs of one ABI description (the JSON of --abi-json): the
    descriptors of each rank and element type, and the run-time library's
    structs."""

    def __init__(self, abi):
        self.fields = abi["descriptor_fields"]
        self.runtime_structs = abi.get("runtime_structs", {})
        self.cache = {}
        self.templates = {}

    def descriptor(self, rank, element):
        """The ctypes Structure of a rank-`rank` descriptor of `element`."""
        key = (rank, element)
        if key not in self.cache:
            name = "StencilMemRef%dD_%s" % (rank, element)
            self.cache[key] = struct_type(name, self.fields, rank, element)
        return self.cache[key]

    def runtime_struct(self, name):
        """The ctypes Structure of the run-time library's struct `name`
        (such as "stencil_ckpt_stats")."""
        if name not in self.cache:
            if name not in self.runtime_structs:
                raise KeyError("the ABI description has no struct %s" % name)
            self.cache[name] = struct_type(name, self.runtime_structs[name])
        return self.cache[name]

    def fill(self, value, array):
        """A descriptor of `value` (an ABI argument) viewing `array`: the
        data pointer, offset 0, and its sizes and strides in elements.
        The sizes and strides of a shape seen before come from a copy of
        its first descriptor (this runs for every array of every call)."""
        rank, element = value["rank"], value["element"]
        key = (rank, element, array.itemsize, array.shape, array.strides)
        template = self.templates.get(key)
        if template is None:
            template = self.descriptor(rank, element)()
            template.offset = 0
            if rank:
                strides = element_strides(array)
                for k in range(rank):
                    template.sizes[k] = array.shape[k]
                    template.strides[k] = strides[k]
            if len(self.templates) >= 256:
                self.templates.clear()
            self.templates[key] = template
        d = type(template).from_buffer_copy(template)
        pointer = ctypes.cast(array.__array_interface__["data"][0],
                              ctypes.POINTER(ELEMENT_CTYPES[element]))
        d.allocated = pointer
        d.aligned = pointer
        return d


def element_strides(array):
    """The strides of `array` in elements; a dimension of extent 1 or 0 gets
    the row-major stride (NumPy may give those any stride)."""
    out = []
    running = 1
    for extent, stride in reversed(list(zip(array.shape, array.strides))):
        out.append(running if extent <= 1 else stride // array.itemsize)
        running *= max(extent, 1)
    return out[::-1]


def results_struct(results):
    """The `<symbol>_results` struct of several scalar results."""
    return type("Results", (ctypes.Structure,), {
        "_fields_": [(r["name"], SCALAR_CTYPES[r["c_type"]]) for r in results]})
