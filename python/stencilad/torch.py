"""PyTorch: compiled stencils as differentiable functions and layers.

    import torch, stencilad.torch as st
    op = st.function(kernel_or_function)            # compiles a Kernel
    r = op(u, w, r0, n)                              # a torch op
    r.sum().backward()                               # u.grad, w.grad

    layer = st.Module(kernel, params={"w": torch.randn(3, 3)})
    r = layer(u, r0, n)                              # w is a Parameter

Forward calls the compiled primal on the tensors' memory (CPU tensors
of the element type, contiguous: anything else is a TypeError saying what
to call, `.contiguous()`, `.double()`, `.cpu()`). Arrays the primal writes
are inputs too, their initial values: the primal runs on a copy, so no
input is modified, and what it does not write keeps the initial value (a
border, the start of a `+=`). Backward calls the compiled adjoint with
`grad_output` as the shadows of the returned arrays and the seed of the
result, and returns a gradient for every active array and scalar argument
(None for passive ones and for sizes). The adjoint is race-free and bitwise
reproducible at any thread count, so a training run is too.

What an op returns: the function's result (a 0-d tensor) if it has one,
else the arrays it writes (one tensor, or a tuple in argument order);
`outputs=` names others.
"""

import numpy as np

from . import checks
from ._deps import require
from .abi import ELEMENT_DTYPES
from .function import STORE_ALL

torch = require("torch", "python3-torch")

RESULT = "result"


class StencilFunction:
    """A compiled stencil function as a differentiable torch op.

    f          a stencilad.Function (with its adjoint) or a front-end Kernel
               (compiled here, with its adjoint)
    outputs    names of what to return: written arrays, and "result" for
               the function's value (default: the result, else the arrays
               the primal writes)
    snapshots  a time loop's checkpoint count for backward (default:
               store-all)
    threads    OpenMP threads (default: torch.get_num_threads() per call)
    check_bounds   as for a call of f (default True)
    """

    def __init__(self, f, outputs=None, snapshots=None, threads=None,
                 check_bounds=True):
        if hasattr(f, "mlir") and hasattr(f, "compile"):
            f = f.compile(adjoint=True)
        self.f = f
        self.name = f.name
        self.snapshots = snapshots
        self.threads = threads
        self.check_bounds = check_bounds
        self.params = f.params
        self.written = sorted(f._written)
        names = [p["name"] for p in self.params]
        results = f.entry["results"]
        if outputs is None:
            outputs = [RESULT] if results else [names[k] for k in
                                                self.written]
        self.outputs = []
        for name in ([outputs] if isinstance(outputs, str) else outputs):
            if name == RESULT and results:
                self.outputs.append((RESULT, None))
            elif name in names and names.index(name) in self.written:
                self.outputs.append((name, names.index(name)))
            else:
                raise ValueError(
                    "%s: outputs= names the arrays it writes (%s)%s, not %r"
                    % (self.name, ", ".join(names[k] for k in self.written),
                       " or 'result'" if results else "", name))
        if not self.outputs:
            raise ValueError("%s writes no array and returns nothing: there "
                             "is nothing to return" % self.name)
        # What each call would otherwise look up again: the adjoint's
        # keyword of each argument's shadow (None: the result's seed), and
        # the primal arguments the adjoint may write (it runs on copies).
        self.shadows = {k: _shadow(self, k)
                        for k in [None] + list(range(len(self.params)))}
        adjoint = f.adjoint
        self.adjoint_copies = set() if adjoint is None else {
            k for k in adjoint._maybe_written if k < len(self.params)}
        # Forward copies every array the primal may write, so that its
        # arrays overlap nothing (see _primal).
        self.written_set = set(self.written) | set(f._maybe_written)
        self._checked = set()

    def __call__(self, *args, **kwargs):
        values = self.f._bind(args, kwargs, self.name)
        return _Apply.apply(self, *values)

    def __repr__(self):
        return "<stencilad.torch.StencilFunction %s>" % self.f.signature

    # -- tensors to the arrays the library takes -------------------------
    def _array(self, k, value, copy):
        p = self.params[k]
        dtype = ELEMENT_DTYPES[p["element"]]
        if not isinstance(value, torch.Tensor):
            raise TypeError("%s: argument '%s' (%s) takes a tensor, not %s"
                            % (self.name, p["name"], p["mlir_type"],
                               type(value).__name__))
        want = torch.float64 if dtype == np.float64 else torch.float32
        fixes = []
        if value.device.type != "cpu":
            fixes.append("on %s, call .cpu()" % value.device)
        if value.dtype != want:
            fixes.append("of %s, call .to(%s)" % (value.dtype, want))
        if not value.is_contiguous():
            fixes.append("not contiguous, call .contiguous()")
        if fixes:
            raise TypeError("%s: argument '%s' (%s) is a tensor %s" % (
                self.name, p["name"], p["mlir_type"], "; ".join(fixes)))
        array = value.detach().numpy()
        return array.copy() if copy else array

    def _numpy(self, values, copy):
        """The call's values for the library: arrays (copies of those in
        `copy`), floats and ints."""
        out = []
        for k, (p, v) in enumerate(zip(self.params, values)):
            if p["kind"] == "descriptor":
                out.append(self._array(k, v, k in copy))
            elif isinstance(v, torch.Tensor):
                out.append(v.item())
            else:
                out.append(v)
        return out

    def _primal(self, run, threads):
        """The primal on `run`. A call with the shapes, element types and
        integer arguments of one fully checked before skips the checks,
        which would pass again: its arrays are contiguous tensors' memory
        of the same shapes, those it may write fresh copies that overlap
        nothing, and the bounds depend on the shapes and integers alone.
        Floats are still checked."""
        key = tuple(v.shape + (v.dtype.char,) if isinstance(v, np.ndarray)
                    else v if isinstance(v, int) else None for v in run)
        if key in self._checked:
            values = [v if p["kind"] == "descriptor" or isinstance(v, int)
                      else checks.scalar(v, p, self.name)
                      for p, v in zip(self.params, run)]
            return self.f._invoke(self.params, values, threads)
        value = self.f(*run, threads=threads, check_bounds=self.check_bounds)
        if len(self._checked) >= 64:
            self._checked.clear()
        self._checked.add(key)
        return value

    def _threads(self):
        return self.threads if self.threads is not None else \
            torch.get_num_threads()


class _Apply(torch.autograd.Function):
    """forward: the primal on copies of what it writes; backward: the
    adjoint (not differentiable again: gradgradcheck is refused by
    torch with a clear message)."""

    @staticmethod
    def forward(ctx, op, *values):
        run = op._numpy(values, op.written_set)
        value = op._primal(run, op._threads())
        ctx.op = op
        tensors = [v if isinstance(v, torch.Tensor) else None
                   for v in values]
        ctx.others = [None if isinstance(v, torch.Tensor) else v
                      for v in values]
        ctx.save_for_backward(*[t for t in tensors if t is not None])
        ctx.is_tensor = [t is not None for t in tensors]
        outs = []
        for name, k in op.outputs:
            if name == RESULT:
                result = value[0] if isinstance(value, tuple) else value
                outs.append(torch.tensor(result, dtype=_result_dtype(op)))
            else:
                outs.append(torch.from_numpy(run[k]))
        for (name, k), out in zip(op.outputs, outs):
            if op.shadows[k] is None:
                ctx.mark_non_differentiable(out)
        return outs[0] if len(outs) == 1 else tuple(outs)

    @staticmethod
    @torch.autograd.function.once_differentiable
    def backward(ctx, *grads):
        op = ctx.op
        adjoint = op.f.adjoint
        if adjoint is None:
            raise RuntimeError("%s has no adjoint: compile it with adjoint="
                               "True and mark an argument active" % op.name)
        saved = iter(ctx.saved_tensors)
        values = [next(saved) if is_t else other
                  for is_t, other in zip(ctx.is_tensor, ctx.others)]
        run = op._numpy(values, op.adjoint_copies)
        extra = {}
        for (name, k), grad in zip(op.outputs, grads):
            if name == RESULT:
                extra[op.shadows[None]] = 0.0 if grad is None else \
                    float(grad)
            elif grad is not None and op.shadows[k] is not None:
                # One copy (the adjoint adds into its shadows), contiguous
                # whatever grad_output's strides (an expanded ones, say).
                extra[op.shadows[k]] = np.array(
                    grad.detach().numpy(), dtype=run[k].dtype, order="C")
        if RESULT not in [n for n, _ in op.outputs] and \
                op.shadows[None] is not None:
            extra[op.shadows[None]] = 0.0
        if adjoint._has_schedule:
            extra["snapshots"] = op.snapshots or STORE_ALL
        g = adjoint(*run, threads=op._threads(),
                    check_bounds=op.check_bounds, **extra)
        out = [None]
        for p, v, is_t in zip(op.params, values, ctx.is_tensor):
            name = p["name"]
            if not is_t or name not in g or not v.requires_grad:
                out.append(None)
            elif p["kind"] == "descriptor":
                out.append(torch.from_numpy(g[name]))
            else:
                out.append(torch.tensor(g[name], dtype=v.dtype))
        return tuple(out)


def _shadow(op, k):
    """The adjoint's keyword for the shadow of argument `k` (its seed for
    the result, k None), or None where there is no gradient to pass."""
    adjoint = op.f.adjoint
    if adjoint is None:
        return None
    role = "seed" if k is None else "shadow"
    for p, key in zip(adjoint.params, adjoint.keywords):
        if p["role"] == role and (k is None or p["of"] == k):
            return key
    return None


def _result_dtype(op):
    element = op.f.entry["results"][0]["element"]
    return torch.float64 if element == "f64" else torch.float32


def function(f, **options):
    """A compiled function or front-end Kernel as a differentiable torch
    op (StencilFunction)."""
    return StencilFunction(f, **options)


class Module(torch.nn.Module):
    """A stencil as a layer: the named arguments in `params` are
    torch.nn.Parameters of the module (a filter's taps, a coefficient
    field); forward(*args, **kwargs) takes the others as the function
    does."""

    def __init__(self, f, params=None, **options):
        super().__init__()
        self.op = StencilFunction(f, **options)
        self._param_names = []
        for name, value in (params or {}).items():
            if name not in self.op.f.keywords:
                raise ValueError("%s has no argument %r" % (self.op.name,
                                                            name))
            self.register_parameter(name, torch.nn.Parameter(
                torch.as_tensor(value)))
            self._param_names.append(name)

    def forward(self, *args, **kwargs):
        """The function's other arguments, positionally in their order
        (the parameters left out) or by name."""
        others = [k for k, p in zip(self.op.f.keywords, self.op.params)
                  if k not in self._param_names]
        if len(args) > len(others):
            raise TypeError("%s takes %d arguments besides its parameters, "
                            "%d given" % (self.op.name, len(others),
                                          len(args)))
        for key, value in zip(others, args):
            if key in kwargs:
                raise TypeError("%s got argument '%s' twice" % (
                    self.op.name, key))
            kwargs[key] = value
        for name in self._param_names:
            kwargs[name] = getattr(self, name)
        return self.op(**kwargs)
