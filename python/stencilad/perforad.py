"""PerforAD's API on this compiler: run a PerforAD script with its import
line changed to `from stencilad.perforad import *`.

    u, u_1, u_b, u_1_b = (sp.Function(x) for x in ("u", "u_1", "u_b", "u_1_b"))
    i, n, C = sp.symbols("i n C")
    lp = makeLoopNest(lhs=u(i), rhs=u_1(i) + C * (u_1(i + 1) - u_1(i - 1)),
                      counters=[i], bounds={i: [1, n - 2]})
    printfunction(name="step", loopnestlist=[lp])          # the primal
    printfunction(name="step_b", loopnestlist=lp.diff({u: u_b, u_1: u_1_b}))

What carries over from PerforAD, and what differs:
- Arrays are SymPy functions, scalars and counters SymPy symbols; bounds
  are inclusive, `{i: [lo, hi]}` is `lo <= i <= hi`. A symbol in a bound is
  a size (an `index` argument), one in an expression a float argument.
- `makeLoopNest(lhs=u(i), rhs=expr, ...)` assigns `u[i] = expr` (PerforAD's
  C code writes `+=` into an output that starts at zero: the same values,
  and the same gradients of the inputs).
- `printfunction` prints the stencil dialect, not C: for a primal, the
  function `@name`; for `lp.diff(...)`, the adjoint `@name` that
  `--stencil-adjoint` makes (a scatter form, which the compiler's gather
  conversion turns into the paper's core and boundary nests), after the
  primal it is made from. `file=` writes it to a file instead; either way
  the text is returned, ready for `stencilad.compile` or `stencil-compile`.
- `lp.diff({u: u_b, ...})` marks the keys active. The compiler names the
  shadow of `u` `u_b`, so the values must be named so.
"""

import subprocess
import sys

from ._deps import require
from .frontend import emit
from .frontend.kernel import Kernel
from .frontend.symbols import Array, FrontendError, caller, expression

sp = require("sympy", "python3-sympy")

AppliedUndef = sp.core.function.AppliedUndef

__all__ = ["LoopNest", "makeLoopNest", "printfunction"]


class LoopNest:
    """One statement `lhs = rhs` over a loop nest (PerforAD's LoopNest)."""

    def __init__(self, lhs, rhs, counters, bounds, loc):
        if not isinstance(lhs, AppliedUndef):
            raise FrontendError("lhs must be an array element u(i, j), not "
                                "%s" % lhs, loc)
        missing = [c for c in counters if c not in bounds]
        if missing:
            raise FrontendError("bounds has no entry for %s: give "
                                "{counter: [lo, hi]} (inclusive) for each of "
                                "counters" % missing, loc)
        self.lhs, self.rhs = lhs, expression(rhs, "rhs", loc)
        self.counters = list(counters)
        self.bounds = {c: tuple(expression(b, "a bound of %s" % c, loc)
                                for b in bounds[c]) for c in self.counters}
        self.loc = loc
        self.printed_as = None     # the name a primal was printed under

    def diff(self, adjoints):
        """The adjoint of this nest with respect to the keys of
        `adjoints` ({u: u_b, ...}); pass it to printfunction."""
        loc = caller()
        for array, shadow in adjoints.items():
            want = "%s_b" % _func_name(array)
            if _func_name(shadow) != want:
                raise FrontendError(
                    "the shadow of %s is named %s by the compiler, not %s: "
                    "pass {%s: sp.Function(%r)}" % (
                        _func_name(array), want, _func_name(shadow),
                        _func_name(array), want), loc)
        return [_Adjoint(self, [_func_name(a) for a in adjoints], loc)]


class _Adjoint:
    def __init__(self, nest, active, loc):
        self.nest, self.active, self.loc = nest, active, loc


def makeLoopNest(lhs, rhs, counters, bounds):
    """A LoopNest: `lhs = rhs` for every counter in its inclusive bounds."""
    return LoopNest(lhs, rhs, counters, bounds, caller())


def _func_name(f):
    return f.__name__ if hasattr(f, "__name__") else str(f)


def _kernel(name, nests, active, loc):
    """The Kernel of a list of nests, its arrays made from the SymPy
    functions (f64, ranks as used), active where listed."""
    arrays = {}

    def array(func, rank):
        key = _func_name(func)
        if key not in arrays:
            arrays[key] = Array(key, rank, active=key in active)
        elif arrays[key].rank != rank:
            raise FrontendError("%s is used with %d and with %d indices: an "
                                "array has one rank, so index it alike "
                                "everywhere" % (key, arrays[key].rank, rank),
                                loc)
        return arrays[key]

    def convert(expr):
        return expr.replace(lambda e: isinstance(e, AppliedUndef),
                            lambda e: array(e.func, len(e.args))[e.args])

    kernel = Kernel(name)
    kernel.loc = loc
    for nest in nests:
        target = convert(nest.lhs)
        value = convert(nest.rhs)
        bounds = {c: (sp.sympify(lo), sp.sympify(hi) + 1)
                  for c, (lo, hi) in nest.bounds.items()}
        domain = kernel.domain(bounds)
        domain.loc = nest.loc
        domain.write(target, value, False, nest.loc)
    return kernel


def _split_name(name, nest):
    """(primal name, suffix) of an adjoint's name: the name the primal was
    printed under when the adjoint's starts with it, else the name up to
    its last underscore."""
    primal = nest.printed_as
    if primal and name.startswith(primal) and len(name) > len(primal):
        return primal, name[len(primal):]
    if "_" in name.strip("_"):
        head, tail = name.rsplit("_", 1)
        return head, "_" + tail
    raise FrontendError("name the adjoint <primal>_<suffix> (wave3d_b), "
                        "not %s" % name, caller())


def printfunction(name, loopnestlist, file=None):
    """Prints (or writes to `file`) the stencil dialect of the nests as
    function `name`, and returns the text (module docstring)."""
    loc = caller()
    nests = list(loopnestlist)
    adjoints = [x for x in nests if isinstance(x, _Adjoint)]
    if adjoints and len(adjoints) != len(nests):
        raise FrontendError("printfunction: a list of nests, or the result "
                            "of diff, not both: print each with a call of "
                            "its own", loc)
    if not adjoints:
        text = emit([_kernel(name, nests, (), loc)])
        for nest in nests:
            nest.printed_as = name
    else:
        nest = adjoints[0].nest
        primal, suffix = _split_name(name, nest)
        active = sorted({a for x in adjoints for a in x.active})
        text = _differentiate(emit([_kernel(primal, [x.nest for x in
                                                     adjoints], active,
                                            loc)]), primal, suffix)
    if file is None:
        sys.stdout.write(text)
    else:
        with open(file, "w", encoding="utf-8") as f:
            f.write(text)
    return text


def _differentiate(text, primal, suffix):
    """`stencil-opt --stencil-adjoint` on the primal's text."""
    from .compiler import CompileError, tool_path
    done = subprocess.run(
        [tool_path("stencil-opt"), "-", "--mlir-use-nameloc-as-prefix",
         "--stencil-adjoint=functions=%s suffix=%s" % (primal, suffix)],
        input=text, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
        text=True)
    if done.returncode != 0:
        raise CompileError("stencil-opt --stencil-adjoint failed:\n" +
                           done.stderr.rstrip())
    return done.stdout
