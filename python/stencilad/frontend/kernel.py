"""Kernels: stencil functions written in Python.

    k = stencilad.Kernel("diffuse")
    with k.domain({i: (1, n - 1), j: (1, m - 1)}):      # 1 <= i < n-1, ...
        r[i, j] = u[i, j] + D * (u[i - 1, j] + u[i + 1, j] - 2 * u[i, j])
    f = k.compile()                                     # a stencilad.Function

Bounds are half-open, `lo <= i < hi`, as Python's `range` and the stencil
dialect have them (PerforAD's inclusive bounds are `stencilad.perforad`'s).
Statements are recorded in program order; each is checked here, when it is
written, so that a refusal names the user's line; `emit.py` lowers the
kernel to the dialect's text.
"""

from .access import classify, reads
from .expr import describe
from .emit import emit
from .symbols import (OPEN_DOMAINS, Array, Counter, FrontendError, SumValue,
                      caller, expression, indices, sp)

def _bounds(specs, loc):
    """[(counter, lower, upper)] from {i: (lo, hi), ...} or (i, lo, hi)
    tuples."""
    out = []
    for spec in specs:
        items = spec.items() if isinstance(spec, dict) else [
            (spec[0], spec[1:])] if isinstance(spec, tuple) else None
        if items is None:
            raise FrontendError("a domain's bounds are {i: (lo, hi)} or "
                                "(i, lo, hi), not %r" % (spec,), loc)
        for counter, pair in items:
            if not isinstance(counter, sp.Symbol) or len(pair) != 2:
                raise FrontendError("bounds of %s: give {i: (lo, hi)} for "
                                    "a counter i of stencilad.indices" % (
                                        counter,), loc)
            out.append((counter, expression(pair[0], "the lower bound of %s"
                                            % counter, loc),
                        expression(pair[1], "the upper bound of %s" % counter,
                                   loc)))
    if not out:
        raise FrontendError("a domain needs at least one counter: "
                            "{i: (lo, hi)}", loc)
    counters = [c for c, _, _ in out]
    if len(set(counters)) != len(counters):
        raise FrontendError("a counter is bound twice: %s; give each "
                            "counter one (lo, hi)" % counters, loc)
    return out


class Statement:
    __slots__ = ("target", "access", "value", "increment", "loc")

    def __init__(self, target, access, value, increment, loc):
        self.target, self.access, self.value = target, access, value
        self.increment, self.loc = increment, loc


class Domain:
    """A `stencil.domain`: its counters and bounds, and the statements of
    its body (or, for a sum, the summand)."""

    def __init__(self, kernel, bounds, loc, summand=None):
        self.kernel, self.loc = kernel, loc
        self.loop = kernel._loop
        self.counters = [c for c, _, _ in bounds]
        self.lower = [lo for _, lo, _ in bounds]
        self.upper = [hi for _, _, hi in bounds]
        self.statements = []
        self.summand = None
        self.sum_value = None
        self._read = {}       # Array -> (expr, loc)
        self._written = {}    # Array -> (increment, loc)
        for c in self.counters:
            for b in self.lower + self.upper:
                if b.has(c):
                    raise FrontendError("a bound of this domain uses its own "
                                        "counter %s; bounds are made of sizes "
                                        "and integer constants" % c, loc)
        if summand is not None:
            self.summand = expression(summand, "the summand", loc)
            self._check_reads(self.summand, loc)

    @property
    def time(self):
        return self.loop.counter if self.loop else None

    def __enter__(self):
        if OPEN_DOMAINS:
            raise FrontendError("a domain inside another domain: domains "
                                "run one after the other, so end the first "
                                "`with` block before the next", self.loc)
        OPEN_DOMAINS.append(self)
        return self

    def __exit__(self, *exc):
        OPEN_DOMAINS.pop()
        return False

    def assign(self, target, value):
        """`target = value` at every point (`target` is `u[i, j]`)."""
        self.write(target, value, False, caller())

    def increment(self, target, value):
        """`target += value` at every point; `target` may be a subset of
        the counters (a reduction) or shifted (a scatter)."""
        self.write(target, value, True, caller())

    def write(self, target, value, increment, loc):
        value = expression(value, "the value", loc)
        if not isinstance(target, sp.core.function.AppliedUndef):
            raise FrontendError("the left side %s must be an array element "
                                "(u[i, j])" % describe(target), loc)
        if increment is None:     # `u[p] = u[p] + x` and `u[p] += x`
            increment = value.is_Add and target in value.args
            if increment:
                value = value - target
        access = classify(target, self.counters, self.time, loc)
        self._check_write(access, increment, loc)
        self._check_reads(value, loc)
        self.statements.append(Statement(target, access, value, increment,
                                         loc))

    def _check_write(self, access, increment, loc):
        array, expr = access.array, describe(access.expr)
        if access.has_time():
            raise FrontendError("%s writes a slice of %s at the step: not "
                                "supported yet; write a state or an array "
                                "indexed by the counters only" % (
                                    expr, array.name), loc)
        if not increment and not (access.is_point() and
                                  len(access.parts) == len(self.counters)):
            raise FrontendError(
                "%s = ...: an assignment writes at the point, through each "
                "counter once (u[i, j] or u[j, i]); shift the reads instead "
                "of the write, or sum with += into fewer counters" % expr, loc)
        if array in self._read:
            raise FrontendError(
                "%s: %s is read in this domain (at %s), so it cannot be "
                "written here (points run in parallel); write another array"
                % (expr, array.name, self._read[array][1]), loc)
        if array in self._written:
            was, where = self._written[array]
            if not (was and increment):
                raise FrontendError(
                    "%s: %s is already %s in this domain (at %s); an array "
                    "is assigned once, or only accumulated" % (
                        expr, array.name, "accumulated" if was else
                        "assigned", where), loc)
        self.kernel._check_state_use(array, self, loc)
        self._written[array] = (increment, loc)

    def _check_reads(self, value, loc):
        for expr in reads(value):
            access = classify(expr, self.counters, self.time, loc)
            array = access.array
            if array in self._written:
                raise FrontendError(
                    "%s: %s is written in this domain (at %s), so it cannot "
                    "be read here (points run in parallel); read it in a "
                    "later domain" % (describe(expr), array.name,
                                      self._written[array][1]), loc)
            if access.has_time() and any(
                    p[0] == "dim" for p in access.parts) and any(
                    p[0] != "time" and array.shape[k] is None
                    for k, p in enumerate(access.parts)):
                raise FrontendError(
                    "%s is read at the step: give the extents of %s, "
                    "Array(%r, shape=(steps, n, ...)), which size the slice "
                    "of a step" % (describe(expr), array.name, array.name),
                    loc)
            self.kernel._check_state_use(array, self, loc)
            self._read.setdefault(array, (expr, loc))


class TimeLoop:
    """`with kernel.time_loop(steps, rotate=(u_prev, u, u_next)) as t:`
    the statements inside run for t = 0 .. steps-1; after each step the
    arrays rotate: u_prev takes u's buffer, u takes u_next's, u_next
    u_prev's (any number of states, shifted by one). Sums made inside are
    summed over the steps."""

    def __init__(self, kernel, steps, rotate, loc):
        self.kernel, self.loc = kernel, loc
        self.steps = expression(steps, "the step count", loc)
        self.rotate = list(rotate) if isinstance(rotate, (list, tuple)) \
            else []
        if not self.rotate or not all(isinstance(a, Array)
                                      for a in self.rotate):
            raise FrontendError("rotate= lists the state arrays (Array "
                                "objects) the steps rotate, oldest first: "
                                "rotate=(u_prev, u, u_next)", loc)
        if len(set(self.rotate)) != len(self.rotate):
            raise FrontendError("rotate= lists an array twice", loc)
        self.counter = Counter("t")
        self.is_time_loop = True
        self.items = []
        self.closed = False

    def __enter__(self):
        self.kernel._loop = self
        return self.counter

    def __exit__(self, *exc):
        self.kernel._loop = None
        self.closed = True
        return False

    def final(self, array):
        """The array that holds `array`'s state after the last step (which
        buffer that is depends on the step count); read it after the loop."""
        if array not in self.rotate:
            raise FrontendError("%s is not rotated by this loop (rotate=%s); "
                                "after the loop, read %s itself" % (
                                    array.name, ", ".join(
                                        a.name for a in self.rotate),
                                    array.name), caller())
        view = Array(array.name + "_final", shape=array.shape,
                     dtype=array.dtype)
        view.final_of = (self, self.rotate.index(array))
        return view


class Kernel:
    """A stencil function, built statement by statement."""

    def __init__(self, name, args=None):
        if not isinstance(name, str) or not name.isidentifier():
            raise FrontendError("a kernel's name must be a Python identifier "
                                "(the C function's name), not %r" % (name,),
                                caller())
        self.name = name
        self.loc = caller()
        self.args = list(args) if args is not None else None
        self.items = []          # Domain / TimeLoop, in program order
        self.temporaries = []    # Arrays the kernel allocates
        self.result = None       # (expr, loc) of returns()
        self._loop = None
        self._sums = 0

    def _add(self, item):
        (self._loop.items if self._loop else self.items).append(item)
        return item

    def _check_state_use(self, array, domain, loc):
        for item in self.items:
            if isinstance(item, TimeLoop) and item.closed and \
                    domain.loop is None and array in item.rotate:
                raise FrontendError(
                    "%s is rotated by the time loop at %s; after the loop, "
                    "read loop.final(%s), the buffer that holds its last "
                    "state" % (array.name, item.loc, array.name), loc)
        if array.final_of is not None and not array.final_of[0].closed:
            loop = array.final_of[0]
            raise FrontendError(
                "%s is the state after the time loop at %s, which has not "
                "ended here; use it after the loop's `with` block (inside, "
                "read %s itself)" % (array.name, loop.loc,
                                     loop.rotate[array.final_of[1]].name), loc)

    # -- statements -------------------------------------------------------
    def domain(self, *bounds):
        """A domain over {i: (lo, hi), ...} (half-open), for a `with`
        block whose statements are `u[i, j] = ...` and `u[i, j] += ...`."""
        loc = caller()
        return self._add(Domain(self, _bounds(bounds, loc), loc))

    def sum(self, expr, *bounds):
        """The sum of `expr` over the domain (half-open bounds): a float
        for the result. Inside a time loop, summed over the steps too."""
        loc = caller()
        domain = Domain(self, _bounds(bounds, loc), loc, summand=expr)
        self._sums += 1
        domain.sum_value = SumValue("sum%d" % self._sums, domain)
        self._add(domain)
        return domain.sum_value

    def add_at(self, array, position, value):
        """array[position] += value at one point (a source); `position`
        holds sizes or affine expressions of them."""
        loc = caller()
        position = tuple(position) if isinstance(position, (tuple, list)) \
            else (position,)
        counters = [Counter("p%d" % k) for k in range(len(position))]
        domain = Domain(self, _bounds([(c, p, p + 1) for c, p in zip(
            counters, position)], loc), loc)
        domain.write(array[tuple(counters)], value, True, loc)
        return self._add(domain)

    def temporary(self, name, shape, dtype="f64"):
        """An array the kernel allocates (its extents: sizes, or affine
        expressions of them) and frees at the end."""
        array = Array(name, shape=tuple(shape), dtype=dtype)
        array.temporary = True
        array.loc = caller()
        self.temporaries.append(array)
        return array

    def time_loop(self, steps, rotate):
        """A loop over `steps` time steps rotating the arrays `rotate`
        (see TimeLoop)."""
        loc = caller()
        if self._loop is not None or any(isinstance(x, TimeLoop)
                                         for x in self.items):
            raise FrontendError("a second time loop in %s: not supported "
                                "yet (one loop per kernel); write it as "
                                "another Kernel" % self.name, loc)
        loop = TimeLoop(self, steps, rotate, loc)
        self.items.append(loop)
        return loop

    def returns(self, expr):
        """The kernel's result: a float expression of its sums and
        scalars (default: the total of its sums, if any)."""
        loc = caller()
        self.result = (expression(expr, "the result", loc), loc)

    # -- output -----------------------------------------------------------
    @property
    def mlir(self):
        """The kernel in the stencil dialect (MLIR text)."""
        return emit([self])

    def __str__(self):
        """The kernel in the stencil dialect, without locations: to read."""
        return emit([self], locations=False)

    def save(self, path):
        with open(path, "w", encoding="utf-8") as f:
            f.write(self.mlir)

    def compile(self, adjoint=True, options=None, **kwargs):
        """Compiles the kernel (stencilad.compile) and returns its
        Function: `f(...)`, `f.adjoint(...)`, `f.value_and_grad(...)`."""
        from ..compiler import compile as compile_ir
        module = compile_ir(self, adjoint=adjoint, options=options,
                            **kwargs)
        return module[self.name]

    def __repr__(self):
        return "<stencilad.Kernel %s>" % self.name


__all__ = ["Domain", "Kernel", "TimeLoop", "indices"]
