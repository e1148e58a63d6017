"""Distributed functions (--stencil-distribute) called from mpi4py programs.

A function compiled with `stencilad.compile(..., distribute="auto")` runs on
every process of a communicator, each on its block of the global arrays
(docs/Distributed.md, "Python"). `f.blocks(global_shape, comm)` says which
block this process owns, allocates local arrays with their halos, and
scatters and gathers global arrays; `f(..., blocks=b)` calls the function on
the local arrays. The decomposition, the grid's choice and the scatter and
gather are the run-time library's (Stencil/Runtime/Distributed.h), called
through ctypes on the library's own copy, so Python and the compiled code
always agree. Argument checks are collective: where one process's arguments
are wrong, every process raises, naming that process and argument, before
any of them enters an exchange.
"""

import ctypes

from . import checks
from ._deps import require

np = require("numpy", "python3-numpy")


def _mpi():
    return require("mpi4py", "python3-mpi4py").MPI


class DistributedError(ValueError):
    """Wrong arguments of a distributed call, on one process or several
    (raised on every process)."""


class Blocks:
    """This process's blocks of global arrays of `global_shape` for the
    distributed functions of one library, on communicator `comm` (default
    MPI_COMM_WORLD) and process grid `grid` (default: the library's, with
    the extents chosen at run time as MPI_Dims_create would).

    Attributes (tuples per dimension): `grid`, `coord`, `start`, `count`
    (the points this process owns), `local_shape` (count + 2 halo), and
    `halo`, `rank`, `size`, `comm`, `global_shape`."""

    def __init__(self, module, distribution, global_shape, comm=None,
                 grid=None):
        MPI = _mpi()
        self.module = module
        self.comm = MPI.COMM_WORLD if comm is None else comm
        self.requested_grid = tuple(grid) if grid is not None else None
        self.global_shape = tuple(int(n) for n in global_shape)
        lib = module._lib
        layout_type = module._layout.runtime_struct("stencil_dist_layout")
        block_type = module._layout.runtime_struct("stencil_dist_block")
        ndims = len(distribution["grid"])
        if len(self.global_shape) != ndims:
            raise ValueError("the library's grid has %d dimensions; "
                             "global_shape %r has %d" % (
                                 ndims, self.global_shape,
                                 len(self.global_shape)))
        if self.requested_grid is not None and \
                len(self.requested_grid) != ndims:
            raise ValueError("grid %r has %d dimensions; the library's has %d"
                             % (self.requested_grid,
                                len(self.requested_grid), ndims))
        layout = layout_type()
        layout.ndims = ndims
        layout.halo = distribution["halo"]
        for k, p in enumerate(distribution["grid"]):
            layout.grid[k] = p
        self._layout = layout
        self._block = block_type()
        self.activate()
        extents = (ctypes.c_int64 * ndims)(*self.global_shape)
        why = ctypes.create_string_buffer(512)
        ok = lib.stencil_dist_block_try(ctypes.byref(self._block),
                                        ctypes.byref(layout), extents, why,
                                        ctypes.c_size_t(len(why)))
        if not ok:
            raise DistributedError("stencilad: %s" % why.value.decode())
        b = self._block
        self.halo = b.halo
        self.rank, self.size = b.rank, b.size
        self.grid = tuple(b.grid[:ndims])
        self.coord = tuple(b.coord[:ndims])
        self.start = tuple(b.start[:ndims])
        self.count = tuple(b.count[:ndims])
        self.local_shape = tuple(b.local[:ndims])

    def activate(self):
        """Makes the library run on this object's communicator and grid
        (a setting of the library: each call with `blocks=` does this)."""
        lib = self.module._lib
        lib.stencil_dist_set_comm_f(ctypes.c_int64(self.comm.py2f()))
        grid = self.requested_grid or ()
        lib.stencil_dist_set_grid(ctypes.c_int64(len(grid)),
                                  (ctypes.c_int64 * max(len(grid), 1))(
                                      *grid))

    def __repr__(self):
        return ("<stencilad.Blocks rank %d of %d, grid %s, start %s, count "
                "%s, halo %d>" % (self.rank, self.size,
                                  "x".join(map(str, self.grid)), self.start,
                                  self.count, self.halo))

    def zeros(self, dtype=np.float64):
        """A zeroed local array (block and halos)."""
        return np.zeros(self.local_shape, dtype=dtype)

    def owned(self, local):
        """The view of `local` this process owns (without the halos)."""
        h = self.halo
        return local[tuple(slice(h, h + c) for c in self.count)]

    def owned_global(self, array):
        """The part of a global array (of `global_shape`) this process owns."""
        return array[tuple(slice(s, s + c)
                           for s, c in zip(self.start, self.count))]

    def scatter(self, global_array=None, dtype=np.float64):
        """A local array holding this process's block of `global_array`,
        which process 0 passes (the others pass nothing). Collective."""
        dtype = np.dtype(dtype)
        local = self.zeros(dtype)
        source = None
        if self.rank == 0:
            if global_array is None:
                raise ValueError("scatter: process 0 passes the global array")
            source = np.ascontiguousarray(global_array, dtype=dtype)
            if source.shape != self.global_shape:
                raise ValueError("scatter: the global array has shape %r, "
                                 "not %r" % (source.shape, self.global_shape))
        self.activate()
        self.module._lib.stencil_dist_scatter(
            ctypes.byref(self._block), ctypes.c_size_t(dtype.itemsize),
            _pointer(source), _pointer(local))
        return local

    def gather(self, local):
        """The global array, on process 0 (None elsewhere), from every
        process's `local` block. Collective."""
        local = np.ascontiguousarray(local)
        if local.shape != self.local_shape:
            raise ValueError("gather: the local array has shape %r, not %r"
                             % (local.shape, self.local_shape))
        out = np.empty(self.global_shape, local.dtype) if self.rank == 0 \
            else None
        self.activate()
        self.module._lib.stencil_dist_gather(
            ctypes.byref(self._block), ctypes.c_size_t(local.dtype.itemsize),
            _pointer(local), _pointer(out))
        return out


def _pointer(array):
    return None if array is None else ctypes.c_void_p(
        array.__array_interface__["data"][0])


def setup(lib):
    """The ctypes signatures of the run-time functions Python calls."""
    p, i64, size = ctypes.c_void_p, ctypes.c_int64, ctypes.c_size_t
    for name, args, result in (
            ("stencil_dist_set_comm_f", [i64], None),
            ("stencil_dist_set_grid", [i64, p], None),
            ("stencil_dist_block_try", [p, p, p, p, size], ctypes.c_int),
            ("stencil_dist_scatter", [p, size, p, p], None),
            ("stencil_dist_gather", [p, size, p, p], None)):
        f = getattr(lib, name)
        f.argtypes = args
        f.restype = result


def fill_extents(f, by_name, blocks):
    """The global extents (`global_extent_<k>`) from `blocks` where the
    caller did not pass them."""
    for p, key in zip(f.params, f.keywords):
        if p["role"] == "extra" and p.get("extra", "").startswith(
                "global_extent_") and key not in by_name:
            by_name[key] = blocks.global_shape[int(p["extra"].rsplit(
                "_", 1)[1])]


def check(f, params, values, written, check_bounds, where, blocks):
    """Function._check for a distributed call: each block argument has this
    process's local shape, the other arrays (replicated: whole on every
    process) cover what the function reads; collectively, so that every
    process raises where one's arguments are wrong."""
    error, out = None, values
    try:
        out = _check_local(f, params, values, written, check_bounds, where,
                           blocks)
    except (TypeError, ValueError) as e:
        error = "process %d of %d: %s" % (blocks.rank, blocks.size, e)
    errors = [e for e in blocks.comm.allgather(error) if e]
    if errors:
        raise DistributedError("%s: %s" % (where, "; ".join(errors)))
    return out


def _check_local(f, params, values, written, check_bounds, where, blocks):
    block_args = set(f.entry["distribution"].get("blocks", []))
    out = []
    for k, (p, v) in enumerate(zip(params, values)):
        if p["kind"] != "descriptor":
            out.append(checks.scalar(v, p, where))
            continue
        a = checks.array(v, p, where, k in written)
        if k in block_args and a.shape != blocks.local_shape:
            raise ValueError(
                "'%s' has shape %r, but this process's block and halos have "
                "%r (start %r, count %r, halo %d)" % (
                    p["name"], a.shape, blocks.local_shape, blocks.start,
                    blocks.count, blocks.halo))
        out.append(a)
    if check_bounds:
        n = len(f.params)
        replicated = [k for k in range(n) if params[k]["kind"] ==
                      "descriptor" and k not in block_args]
        plan = dict(f._plan)
        plan["accesses"] = [a for a in f._plan.get("accesses", [])
                            if a["argument"] in replicated]
        plan["same_shape"] = [g for g in f._plan.get("same_shape", [])
                              if all(k in replicated for k in g)]
        checks.bounds(plan, params[:n], out[:n], where)
    checks.no_overlap([(p["name"], v, k in f._maybe_written)
                       for k, (p, v) in enumerate(zip(params, out))
                       if isinstance(v, np.ndarray)], where)
    return out
