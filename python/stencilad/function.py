"""Callables made from a compiled library and its C interface's JSON.

`Module` loads the library (ctypes, which releases the GIL during each
call) and holds a `Function` per entry point; a function that was
differentiated has `.adjoint`, an `AdjointFunction`. Signatures, roles
(shadow, seed, snapshots) and bounds all come from the JSON that
stencil-compile wrote from the IR (docs/ABI.md); nothing is parsed from
names or printed IR.
"""

import contextlib
import ctypes
import inspect

import numpy as np

from . import checks
from .abi import ELEMENT_DTYPES, SCALAR_CTYPES, Layout, results_struct

# Store-all: the schedule keeps min(snapshots, T) states (docs/TimeLoops.md).
STORE_ALL = 1 << 62


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
        self._layout = Layout(abi["descriptor_fields"])
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
        if isinstance(count, bool) or not isinstance(count, int) or count < 1:
            raise ValueError("threads must be a positive int, not %r"
                             % (count,))
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
    arrays do not cover what the function accesses)."""

    def __init__(self, module, entry):
        self.module = module
        self.entry = entry
        self.name = entry["symbol"]
        self.params = entry["arguments"]
        self.adjoint = None
        self._plan = entry.get("bounds", {"accesses": [], "same_shape": [],
                                          "unsupported": "no bounds in the "
                                          "library's description"})
        self._written = checks.written_arguments(self._plan)
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
        params = [P(p["name"], P.POSITIONAL_OR_KEYWORD)
                  for p in self.params if p["role"] == "argument"]
        params += [P(p["name"], P.KEYWORD_ONLY, default=None)
                   for p in self.params if p["role"] != "argument"]
        params += [P("threads", P.KEYWORD_ONLY, default=None),
                   P("check_bounds", P.KEYWORD_ONLY, default=True)]
        return inspect.Signature(params)

    def __repr__(self):
        return "<stencilad.Function %s>" % self.signature

    def _too_many(self, where, given):
        return "%s takes %d arguments, %d given" % (where, len(self.params),
                                                   given)

    def _by_name(self, args, kwargs, where, positional):
        """The arguments by IR name: the first `positional` may be given
        positionally, any by name, none twice."""
        names = [p["name"] for p in self.params]
        if len(args) > positional:
            raise TypeError(self._too_many(where, len(args)))
        bound = dict(zip(names, args))
        for key, value in kwargs.items():
            if key not in names:
                raise TypeError("%s got an unexpected argument '%s'"
                                % (where, key))
            if key in bound:
                raise TypeError("%s got argument '%s' twice" % (where, key))
            bound[key] = value
        return bound

    def _in_order(self, bound, where):
        names = [p["name"] for p in self.params]
        missing = [n for n in names if n not in bound]
        if missing:
            raise TypeError("%s is missing argument(s): %s"
                            % (where, ", ".join(missing)))
        return [bound[n] for n in names]

    def _bind(self, args, kwargs, where):
        return self._in_order(self._by_name(args, kwargs, where,
                                            len(self.params)), where)

    def _check(self, params, values, written, check_bounds, where):
        """Checked values: Python numbers and arrays; then the bounds of the
        primal part and that no arrays overlap."""
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
        checks.no_overlap([(p["name"], v) for p, v in zip(params, out)
                           if isinstance(v, np.ndarray)], where)
        return out

    def _invoke(self, params, values, threads):
        layout = self.module._layout
        cargs, keep = [], []
        for p, v in zip(params, values):
            if p["kind"] == "descriptor":
                d = layout.fill(p, v)
                keep.append(d)
                cargs.append(ctypes.addressof(d))
            else:
                cargs.append(v)
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

    def _refuse_distributed(self):
        """Functions compiled with --stencil-distribute run on MPI ranks,
        each on its block: the package does not drive them yet."""
        dist = self.entry.get("distribution")
        if dist:
            raise NotImplementedError(
                "%s is distributed over a %s process grid "
                "(--stencil-distribute); calling it from Python is not "
                "supported yet (docs/Distributed.md)"
                % (self.name, "x".join(str(p) for p in dist["grid"])))

    def __call__(self, *args, threads=None, check_bounds=True, **kwargs):
        self._refuse_distributed()
        where = self.name
        values = self._bind(args, kwargs, where)
        values = self._check(self.params, values, self._written,
                             check_bounds, where)
        return self._invoke(self.params, values, threads)


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
        self._shadow_params = [p for p in self.params if p["role"] == "shadow"]
        self._has_schedule = any(p["role"] == "extra" and
                                 p.get("extra") == "snapshots"
                                 for p in self.params)
        self._written |= {k for k, p in enumerate(self.params)
                          if p["role"] == "shadow"}
        # The state of a time loop is work space during the adjoint.
        for group in self._plan.get("same_shape", []):
            self._written |= set(group)

    def _too_many(self, where, given):
        return ("%s takes the %d primal arguments positionally; pass "
                "shadows, seeds and snapshots by name"
                % (where, self._primal_count))

    def _defaults(self, values_by_name):
        """Fills shadows, seeds and extras the caller left out."""
        params = self.params
        for p in params:
            name = p["name"]
            if name in values_by_name:
                continue
            if p["role"] == "shadow":
                primal = values_by_name.get(params[p["of"]]["name"])
                if p["rank"] == 0:
                    values_by_name[name] = 0.0
                elif isinstance(primal, np.ndarray):
                    values_by_name[name] = np.zeros(
                        primal.shape, dtype=ELEMENT_DTYPES[p["element"]])
            elif p["role"] == "seed":
                values_by_name[name] = 1.0
            elif p["role"] == "extra" and p.get("extra") == "snapshots":
                values_by_name[name] = STORE_ALL

    def __call__(self, *args, threads=None, check_bounds=True, **kwargs):
        self._refuse_distributed()
        where = self.name
        by_name = self._by_name(args, kwargs, where, self._primal_count)
        self._defaults(by_name)
        # Scalar shadows travel as rank-0 arrays the gradient is added to.
        for p in self._shadow_params:
            if p["rank"] == 0 and not isinstance(by_name.get(p["name"]),
                                                 np.ndarray):
                start = checks.scalar(by_name[p["name"]], dict(
                    p, element=p["element"]), where)
                by_name[p["name"]] = np.array(
                    start, dtype=ELEMENT_DTYPES[p["element"]])
        values = self._in_order(by_name, where)
        self._check_extras(values, where)
        values = self._check(self.params, values, self._written,
                             check_bounds, where)
        for p, v in zip(self.params, values):
            if p["role"] == "shadow" and p["rank"] > 0:
                checks.same_shape(v, values[p["of"]], p, self.params[p["of"]],
                                  where)
        self._invoke(self.params, values, threads)
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
                grads[key] = float(v) if p["rank"] == 0 else v
        return grads

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
