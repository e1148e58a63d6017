"""Callables made from a compiled library and its C interface's JSON.

`Module` loads the library (ctypes, which releases the GIL during each
call) and holds a `Function` per entry point; a function that was
differentiated has `.adjoint`, an `AdjointFunction`. Signatures, roles
(shadow, seed, snapshots) and bounds all come from the JSON that
stencil-compile wrote from the IR (docs/ABI.md); nothing is parsed from
names or printed IR.
"""

import collections
import contextlib
import ctypes
import inspect

from . import checks, distributed
from ._deps import require
from .abi import ELEMENT_DTYPES, SCALAR_CTYPES, Layout, results_struct

np = require("numpy", "python3-numpy")

# Store-all: the schedule keeps min(snapshots, T) states (docs/TimeLoops.md).
STORE_ALL = 1 << 62

# The keywords of every call (and their defaults); an IR argument named
# like one is passed positionally or with a trailing underscore (`threads_`).
CALL_OPTIONS = {"threads": None, "check_bounds": True, "blocks": None}

# The largest thread count OpenMP takes (a C int).
_MAX_THREADS = (1 << 31) - 1


def keyword_names(params):
    """The Python keyword of each IR argument: its name (unique in the
    JSON), or for a name that is a call option, the name with underscores
    appended until it is neither an option nor another argument's name."""
    taken = {p["name"] for p in params}
    out = []
    for p in params:
        key = p["name"]
        if key in CALL_OPTIONS:
            while key in CALL_OPTIONS or key in taken:
                key += "_"
            taken.add(key)
        out.append(key)
    return out


def check_threads(count):
    """`count` as an OpenMP thread count: a positive C int."""
    if isinstance(count, bool) or not isinstance(count, (int, np.integer)) \
            or not 1 <= count <= _MAX_THREADS:
        raise ValueError("threads must be a positive int of at most %d, not "
                         "%r" % (_MAX_THREADS, count))
    return int(count)


class Gradients(dict):
    """The gradients of one adjoint call, by primal argument name: arrays
    (the shadows passed, or allocated) and floats (active scalars). Keys are
    also attributes: `g.c` is `g["c"]`."""

    def __getattr__(self, name):
        try:
            return self[name]
        except KeyError:
            raise AttributeError(name) from None


class Module:
    """A compiled library: one attribute per entry point (`mod.wave3d`)."""

    def __init__(self, path, abi, source="<string>"):
        self.path = path
        self.source = source
        self.abi = abi
        self._lib = ctypes.CDLL(path)
        self._layout = Layout(abi)
        if any("distribution" in e for e in abi["entry_points"]):
            distributed.setup(self._lib)
        self._entries = {}
        for entry in abi["entry_points"]:
            if "adjoint_of" not in entry:
                self._entries[entry["symbol"]] = Function(self, entry)
        for entry in abi["entry_points"]:
            if "adjoint_of" in entry:
                primal = self._entries.get(entry["adjoint_of"])
                adjoint = AdjointFunction(self, entry, primal)
                self._entries[entry["symbol"]] = adjoint
                if primal is not None:
                    primal.adjoint = adjoint

    def __getattr__(self, name):
        entries = self.__dict__.get("_entries", {})
        if name in entries:
            return entries[name]
        raise AttributeError("%s has no function '%s' (it has: %s)" % (
            self.source, name, ", ".join(sorted(entries)) or "none"))

    def __getitem__(self, name):
        return self._entries[name]

    def __iter__(self):
        return iter(self._entries)

    def __dir__(self):
        return sorted(set(super().__dir__()) | set(self._entries))

    def __repr__(self):
        return "<stencilad.Module %s: %s>" % (self.source,
                                             ", ".join(self._entries))

    def schedule_error(self):
        """Why the last checkpointing schedule this thread asked for was
        refused (the runtime's message), or "" (docs/TimeLoops.md)."""
        last_error = getattr(self._lib, "stencil_ckpt_last_error", None)
        if last_error is None:
            return ""
        last_error.restype = ctypes.c_char_p
        last_error.argtypes = []
        return last_error().decode()

    @contextlib.contextmanager
    def threads(self, count):
        """Runs the body with `count` OpenMP threads (None: unchanged)."""
        if count is None:
            yield
            return
        count = check_threads(count)
        old = self._lib.omp_get_max_threads()
        self._lib.omp_set_num_threads(count)
        try:
            yield
        finally:
            self._lib.omp_set_num_threads(old)


class Function:
    """A compiled function, called with NumPy arrays and Python numbers in
    the order (or with the names) of its IR arguments.

    Keyword-only options: `threads` (OpenMP threads for this call; default
    OMP_NUM_THREADS), `check_bounds` (default True: refuse a call whose
    arrays do not cover what the function accesses), `blocks` (for a
    distributed function: this process's `f.blocks(...)`; the global
    extents come from it). An IR argument named like an option is passed
    positionally or as `threads_` (`keywords`)."""

    def __init__(self, module, entry):
        self.module = module
        self.entry = entry
        self.name = entry["symbol"]
        self.params = entry["arguments"]
        self.keywords = keyword_names(self.params)
        self.adjoint = None
        self.distribution = entry.get("distribution")
        self._plan = entry.get("bounds", {"accesses": [], "same_shape": [],
                                          "unsupported": "no bounds in the "
                                          "library's description"})
        self._written = checks.written_arguments(self._plan)
        self._maybe_written = checks.maybe_written(self._plan, self.params)
        self._bounds_ok = set()
        self._cfunc = getattr(module._lib, entry["c_symbol"])
        self._setup_cfunc()

    def _setup_cfunc(self):
        argtypes = []
        passing = self.entry["result_passing"]
        results = self.entry["results"]
        self._results_type = None
        if passing == "pointer" and all(r["kind"] == "scalar" for r in results):
            self._results_type = results_struct(results)
            argtypes.append(ctypes.POINTER(self._results_type))
        for p in self.params:
            argtypes.append(ctypes.c_void_p if p["kind"] == "descriptor"
                            else SCALAR_CTYPES[p["c_type"]])
        self._cfunc.argtypes = argtypes
        self._cfunc.restype = (SCALAR_CTYPES[results[0]["c_type"]]
                               if passing == "return" else None)

    @property
    def signature(self):
        """`name(arg: type, ...) -> results` as in the IR."""
        args = ", ".join("%s: %s" % (p["name"], p["mlir_type"])
                         for p in self.params)
        results = ", ".join(r["mlir_type"] for r in self.entry["results"])
        return "%s(%s)%s" % (self.name, args,
                             " -> " + results if results else "")

    @property
    def __signature__(self):
        """For help() and editors: the IR's arguments, then the options."""
        P = inspect.Parameter
        pairs = list(zip(self.params, self.keywords))
        params = [P(k, P.POSITIONAL_OR_KEYWORD)
                  for p, k in pairs if p["role"] == "argument"]
        params += [P(k, P.KEYWORD_ONLY, default=None)
                   for p, k in pairs if p["role"] != "argument"]
        params += [P(k, P.KEYWORD_ONLY, default=v)
                   for k, v in CALL_OPTIONS.items()
                   if k != "blocks" or self.distribution]
        return inspect.Signature(params)

    def __repr__(self):
        return "<stencilad.Function %s>" % self.signature

    def _too_many(self, where, given):
        return "%s takes %d arguments, %d given" % (where, len(self.params),
                                                   given)

    def _by_name(self, args, kwargs, where, positional):
        """The arguments by IR name: the first `positional` may be given
        positionally, any by name, none twice."""
        names = self.keywords
        if len(args) > positional:
            raise TypeError(self._too_many(where, len(args)))
        bound = dict(zip(names, args))
        for key, value in kwargs.items():
            if key not in names:
                raise TypeError("%s got an unexpected argument '%s'"
                                % (where, key))
            if key in bound:
                alike = ["'%s' (%s)" % (k, p["role"])
                         for p, k in zip(self.params, names)
                         if k != key and k.rstrip("_") == key]
                raise TypeError("%s got argument '%s' twice%s" % (
                    where, key, "; the IR also has %s" % ", ".join(alike)
                    if alike else ""))
            bound[key] = value
        return bound

    def _in_order(self, bound, where):
        missing = [k for k in self.keywords if k not in bound]
        if missing:
            escaped = ["'%s' as %s" % (p["name"], k)
                       for p, k in zip(self.params, self.keywords)
                       if k in missing and k != p["name"]]
            raise TypeError(
                "%s is missing argument(s): %s%s" % (
                    where, ", ".join(missing),
                    " (pass the IR argument%s %s by that name or "
                    "positionally: %s are options of every call)" % (
                        "s" if len(escaped) > 1 else "", ", ".join(escaped),
                        " and ".join("`%s=`" % o for o in CALL_OPTIONS))
                    if escaped else ""))
        return [bound[k] for k in self.keywords]

    def _bind(self, args, kwargs, where):
        return self._in_order(self._by_name(args, kwargs, where,
                                            len(self.params)), where)

    def blocks(self, global_shape, comm=None, grid=None):
        """This process's blocks of global arrays of `global_shape` for this
        distributed function (and the others of its library), on `comm`
        (an mpi4py communicator; default MPI.COMM_WORLD) and `grid`
        (default: the library's, extents chosen at run time as
        MPI_Dims_create would). Returns a stencilad.Blocks."""
        if not self.distribution:
            raise TypeError("%s is not distributed (compile with "
                            "distribute=...)" % self.name)
        return distributed.Blocks(self.module, self.distribution,
                                  global_shape, comm, grid)

    def _prepare_blocks(self, by_name, blocks, where):
        """A distributed call needs `blocks`, which give the global
        extents; others take none."""
        if not self.distribution:
            if blocks is not None:
                raise TypeError("%s is not distributed: it takes no blocks="
                                % where)
            return
        if not isinstance(blocks, distributed.Blocks):
            raise TypeError(
                "%s is distributed over a %s process grid (0: chosen at run "
                "time): pass blocks=%s.blocks(global_shape, comm), this "
                "process's blocks" % (where, "x".join(
                    str(p) for p in self.distribution["grid"]),
                    self.name))
        distributed.fill_extents(self, by_name, blocks)

    def _check(self, params, values, written, check_bounds, where,
               blocks=None):
        """Checked values: Python numbers and arrays; then the bounds of the
        primal part and that no arrays overlap (for a distributed call, on
        every process together: distributed.check)."""
        if blocks is not None:
            return distributed.check(self, params, values, written,
                                     check_bounds, where, blocks)
        out = []
        for k, (p, v) in enumerate(zip(params, values)):
            if p["kind"] == "descriptor":
                out.append(checks.array(v, p, where, k in written))
            else:
                out.append(checks.scalar(v, p, where))
        if check_bounds:
            n = len(self.params)
            # The bounds depend on the integer arguments and the shapes
            # alone: a combination seen before passed already.
            key = tuple(v.shape if isinstance(v, np.ndarray) else
                        v if isinstance(v, int) else None for v in out[:n])
            if key not in self._bounds_ok:
                checks.bounds(self._plan, params[:n], out[:n], where)
                if len(self._bounds_ok) >= 64:
                    self._bounds_ok.clear()
                self._bounds_ok.add(key)
        checks.no_overlap([(p["name"], v, k in self._maybe_written)
                           for k, (p, v) in enumerate(zip(params, out))
                           if isinstance(v, np.ndarray)], where)
        return out

    def _pack(self, params, values):
        """(the C call's arguments, the descriptors they point to, which
        must stay alive while it runs)."""
        layout = self.module._layout
        cargs, keep = [], []
        for p, v in zip(params, values):
            if p["kind"] == "descriptor":
                d = layout.fill(p, v)
                keep.append(d)
                cargs.append(ctypes.addressof(d))
            else:
                cargs.append(v)
        return cargs, keep

    def _invoke(self, params, values, threads, blocks=None):
        cargs, keep = self._pack(params, values)
        if blocks is not None:
            blocks.activate()
        passing = self.entry["result_passing"]
        if passing == "pointer":
            if self._results_type is None:
                raise NotImplementedError(
                    "%s returns an array; calling it from Python is not "
                    "supported yet" % self.name)
            results = self._results_type()
            cargs.insert(0, ctypes.pointer(results))
        with self.module.threads(threads):
            ret = self._cfunc(*cargs)
        if passing == "return":
            return ret
        if passing == "pointer":
            return tuple(getattr(results, r["name"])
                         for r in self.entry["results"])
        return None

    def __call__(self, *args, threads=None, check_bounds=True, blocks=None,
                 **kwargs):
        where = self.name
        by_name = self._by_name(args, kwargs, where, len(self.params))
        self._prepare_blocks(by_name, blocks, where)
        values = self._in_order(by_name, where)
        values = self._check(self.params, values, self._written,
                             check_bounds, where, blocks)
        return self._invoke(self.params, values, threads, blocks)

    def value_and_grad(self, *args, threads=None, check_bounds=True,
                       blocks=None, **kwargs):
        """The value and the gradients at `args` (the primal's arguments;
        by name, the adjoint's shadows, seeds and snapshots), computed so
        that they belong together: the primal runs on copies of the arrays
        it writes, the adjoint from the arguments as given (on copies of
        what it writes). The caller's arrays are never modified; shadows
        passed are updated, as by the adjoint. Returns ValueAndGrad(value,
        outputs, grads)."""
        return _value_and_grad(self, args, kwargs, threads, check_bounds,
                               blocks)


ValueAndGrad = collections.namedtuple("ValueAndGrad", "value outputs grads")
ValueAndGrad.__doc__ = """What `f.value_and_grad` returns: the primal's
`value` (as a call of `f` returns it), the `outputs` (the arrays the primal
wrote, after it, by argument name) and the adjoint's `grads`."""


def _value_and_grad(f, args, kwargs, threads, check_bounds, blocks):
    """Function.value_and_grad: the primal on copies of the arrays it
    writes, the adjoint from the arguments as given, on copies of the
    arrays it writes; the caller's arrays are never modified."""
    adjoint = f.adjoint
    where = f.name + ".value_and_grad"
    if adjoint is None:
        raise ValueError("%s: %s has no adjoint: compile with adjoint=True "
                         "and mark an argument stencil.active"
                         % (where, f.name))
    bound = adjoint._by_name(args, kwargs, where, adjoint._primal_count)
    f._prepare_blocks(bound, blocks, where)
    count = len(f.params)
    values = f._in_order({k: bound[k] for k in f.keywords if k in bound},
                         where)
    extras = {k: v for k, v in bound.items() if k not in f.keywords}
    arrays = [(p["name"], v, k in f._maybe_written)
              for k, (p, v) in enumerate(zip(f.params, values))
              if isinstance(v, np.ndarray)]
    checks.no_overlap(arrays, where)

    def copies(written):
        return [v.copy() if isinstance(v, np.ndarray) and k in written else v
                for k, v in enumerate(values)]

    run = copies(f._maybe_written)
    value = f(*run, threads=threads, check_bounds=check_bounds, blocks=blocks)
    # The adjoint takes the primal's own arguments positionally (a
    # distributed primal's global extents are extras of both).
    primal = copies(adjoint._maybe_written)[:adjoint._primal_count]
    grads = adjoint(*primal, threads=threads, check_bounds=check_bounds,
                    blocks=blocks, **extras)
    outputs = {f.params[k]["name"]: run[k] for k in sorted(f._written)
               if k < count and isinstance(run[k], np.ndarray)}
    return ValueAndGrad(value, outputs, grads)


class AdjointFunction(Function):
    """The adjoint of a function: called with the primal's arguments (as
    they were when the primal was called), it returns the gradients.

    Keyword arguments beyond the primal's: a shadow per active argument
    (`u_b`: the adjoint of that array's value after the primal, default
    zeros; a scalar's default 0.0), the seed of each result (`seed`,
    default 1.0), and for a time loop `snapshots` (default: store-all).
    Returns Gradients: the shadows, which now hold the gradient with
    respect to each argument's initial value, by primal argument name."""

    def __init__(self, module, entry, primal):
        super().__init__(module, entry)
        self.primal = primal
        self.params = entry["arguments"]
        self._primal_count = sum(1 for p in self.params
                                 if p["role"] == "argument")
        self._has_schedule = any(p["role"] == "extra" and
                                 p.get("extra") == "snapshots"
                                 for p in self.params)
        shadows = {k for k, p in enumerate(self.params)
                   if p["role"] == "shadow"}
        # The state of a time loop is work space during the adjoint.
        state = {k for group in self._plan.get("same_shape", [])
                 for k in group}
        self._written |= shadows | state
        self._maybe_written |= shadows | state

    def _too_many(self, where, given):
        return ("%s takes the %d primal arguments positionally; pass "
                "shadows, seeds and snapshots by name"
                % (where, self._primal_count))

    def _defaults(self, values_by_name):
        """Fills shadows, seeds and extras the caller left out."""
        params = self.params
        for p, name in zip(params, self.keywords):
            if name in values_by_name:
                continue
            if p["role"] == "shadow":
                primal = values_by_name.get(self.keywords[p["of"]])
                if not self._of_array(p):
                    values_by_name[name] = 0.0
                elif isinstance(primal, np.ndarray):
                    values_by_name[name] = np.zeros(
                        primal.shape, dtype=ELEMENT_DTYPES[p["element"]])
            elif p["role"] == "seed":
                values_by_name[name] = 1.0
            elif p["role"] == "extra" and p.get("extra") == "snapshots":
                values_by_name[name] = STORE_ALL

    def __call__(self, *args, threads=None, check_bounds=True, blocks=None,
                 **kwargs):
        where = self.name
        by_name = self._by_name(args, kwargs, where, self._primal_count)
        self._prepare_blocks(by_name, blocks, where)
        self._defaults(by_name)
        # Scalar shadows travel as rank-0 arrays the gradient is added to.
        for p, key in zip(self.params, self.keywords):
            if p["role"] == "shadow" and not self._of_array(p) and not isinstance(
                    by_name.get(key), np.ndarray):
                start = checks.scalar(by_name[key], p, where)
                by_name[key] = np.array(start,
                                        dtype=ELEMENT_DTYPES[p["element"]])
        values = self._in_order(by_name, where)
        self._check_extras(values, where)
        values = self._check(self.params, values, self._written,
                             check_bounds, where, blocks)
        for p, v in zip(self.params, values):
            if p["role"] == "shadow" and self._of_array(p):
                checks.same_shape(v, values[p["of"]], p, self.params[p["of"]],
                                  where)
        self._invoke(self.params, values, threads, blocks)
        if self._has_schedule:
            # A refused schedule computes nothing and leaves the shadows as
            # they were: never return them as gradients.
            error = self.module.schedule_error()
            if error:
                raise RuntimeError("%s: %s" % (where, error))
        grads = Gradients()
        for p, v in zip(self.params, values):
            if p["role"] == "shadow":
                key = self.params[p["of"]]["name"]
                grads[key] = v if self._of_array(p) else float(v)
        return grads

    def _of_array(self, shadow):
        """Whether `shadow` is the shadow of an array (of any rank, a
        rank-0 memref<f64> among them), not of a scalar argument."""
        return self.params[shadow["of"]]["kind"] == "descriptor"

    def _check_extras(self, values, where):
        for p, v in zip(self.params, values):
            if p["role"] == "extra" and p.get("extra") == "snapshots":
                if isinstance(v, bool) or not isinstance(v, (int, np.integer)):
                    raise TypeError("%s: snapshots must be an int, not %s"
                                    % (where, type(v).__name__))
                if v < 1:
                    raise ValueError(
                        "%s: the adjoint of a time loop needs at least 1 "
                        "snapshot (got %d)" % (where, v))
