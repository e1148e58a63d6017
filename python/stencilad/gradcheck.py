"""Gradient checks: central finite differences and the dot-product test.

The comparisons (`fd_compare`, `dot_compare`, their tolerances) are the
one engine of the project: `check_gradient` uses them on NumPy arrays, and
the integration tests' checker (test/Integration/gen/check_adjoint.py) on
its own buffers, so both judge a gradient alike (docs/Python.md).

The objective is the one the adjoint's contract defines (docs/Adjoint.md):

    J(x) = sum over active arrays X of <W_X, X after the call>
         + sum over results k of seed_k * result_k

whose gradient the adjoint returns when called with shadows W and seeds.
"""

import math

FD_STEP = 1e-6
FD_RTOL = 1e-6
FD_ATOL = 1e-8      # relative to the sum of |terms| of <grad, direction>
DOT_RTOL = 1e-12    # relative to the sum of |terms| of both products
F64_EPS = 2.2e-16   # the unit roundoff of the primal's arithmetic

# The comparisons for a function that computes in f32: rounding at 1.2e-7
# needs a step far larger than f64's for the difference to stand out of
# it, and a retry step not far smaller. The tolerances stay well below
# the error of a wrong gradient (test_types.py checks that one fails).
PRECISION = {
    "f64": {"step": FD_STEP, "retry": 1e-3, "rtol": FD_RTOL,
            "eps": F64_EPS, "dot_rtol": DOT_RTOL},
    "f32": {"step": 1e-2, "retry": 1e-1, "rtol": 1e-3,
            "eps": 1.2e-7, "dot_rtol": 1e-5},
}


def fd_compare(objective, ad_terms, step, retry=1e-3, rtol=FD_RTOL,
               eps=F64_EPS):
    """Compares <grad, v> (the terms of the sum `ad_terms`) with the central
    difference of `objective(t)`, which returns J(x + t v) and the sum of
    |terms| of J. A kink (max, select, abs) within the step spoils the
    difference: a failed comparison is repeated with a step `retry` times
    the first (1000 times smaller), which passes unless x sits on the kink.
    `eps` is the unit roundoff of the arithmetic J is computed in. Returns
    (ok, detail)."""
    ad_terms = [float(t) for t in ad_terms]
    ad = math.fsum(ad_terms)
    scale = math.fsum(abs(t) for t in ad_terms)
    for h in (step, step * retry):
        jp, sp = objective(h)
        jm, sm = objective(-h)
        fd = (jp - jm) / (2 * h)
        # Rounding in J(x +- h v) is about eps * sum|terms of J| / h.
        noise = 4 * eps * max(sp, sm) / h
        tol = rtol * max(abs(ad), abs(fd)) + FD_ATOL * scale + noise
        err = abs(ad - fd)
        ok = err <= tol
        if ok:
            break
    return ok, "adjoint=%.12g fd=%.12g err=%.3g tol=%.3g h=%.1e" % (
        ad, fd, err, tol, h)


def dot_compare(lhs_terms, rhs_terms, rtol=DOT_RTOL):
    """The dot-product test <J v, w> = <v, J^T w> from the terms of each
    side. Returns (ok, detail)."""
    lhs_terms = [float(t) for t in lhs_terms]
    rhs_terms = [float(t) for t in rhs_terms]
    lhs, rhs = math.fsum(lhs_terms), math.fsum(rhs_terms)
    scale = (math.fsum(abs(t) for t in lhs_terms)
             + math.fsum(abs(t) for t in rhs_terms))
    err = abs(lhs - rhs)
    return err <= rtol * scale, "<Jv,w>=%.17g <v,JTw>=%.17g err=%.3g scale=%.3g" % (
        lhs, rhs, err, scale)


class GradientReport:
    """The checks check_gradient made: `results` is a list of
    (check, passed, detail); `ok` is true when all passed."""

    def __init__(self, name):
        self.name = name
        self.results = []

    def add(self, check, ok, detail):
        self.results.append((check, bool(ok), detail))

    @property
    def ok(self):
        return all(ok for _, ok, _ in self.results)

    def __bool__(self):
        return self.ok

    def __str__(self):
        lines = ["%s %s %s: %s" % ("ok  " if ok else "FAIL", self.name, check,
                                   detail)
                 for check, ok, detail in self.results]
        passed = sum(ok for _, ok, _ in self.results)
        lines.append("%d passed, %d failed" % (passed,
                                               len(self.results) - passed))
        return "\n".join(lines)


def _positional(f, named):
    """The arguments of `f` given by name, in its order."""
    unknown = sorted(set(named) - set(f.keywords))
    missing = [k for k in f.keywords if k not in named]
    if unknown or missing:
        raise TypeError("check_gradient(%s, {...}): %s" % (f.name, "; ".join(
            x for x in ("unknown " + ", ".join(unknown) if unknown else "",
                        "missing " + ", ".join(missing) if missing else "")
            if x)))
    return [named[k] for k in f.keywords]


def check_gradient(f, args, *, directions=2, linear=False, rng=0,
                   threads=None, step=None, check_bounds=True, **kwargs):
    """Checks `f.adjoint` at the point `args` (the primal's arguments, as
    for a call of `f`, in a list, or by name in a dict; `kwargs` passes snapshots to a time loop's adjoint):

      fd       central differences of J along `directions` random
               directions over every active array and scalar
      fd-<s>   the same along each active scalar alone
      dot      with `linear=True`, <J v, w> = <v, J^T w> with J v the
               primal applied to v (relative 1e-12)
      threads  with `threads=(a, b)`, the gradient at a and at b OpenMP
               threads bitwise equal

    `rng` seeds the random directions, weights and seeds. Arrays of `args`
    are not modified. A function with an f32 active argument is checked
    with the f32 comparisons of PRECISION (`step` overrides the step). `check_bounds` is passed to every call of `f` and its
    adjoint (False for a function whose accesses cannot be bounded, such as
    a domain that a time loop moves). Returns a GradientReport."""
    from ._deps import require
    from ._gradcheck_run import Problem
    np = require("numpy", "python3-numpy")

    if isinstance(args, dict):
        args = _positional(f, args)
    gen = np.random.default_rng(rng)
    problem = Problem(f, args, gen, kwargs, check_bounds)
    precision = PRECISION[problem.element]
    step = precision["step"] if step is None else step
    compare = dict(retry=precision["retry"], rtol=precision["rtol"],
                   eps=precision["eps"])
    report = GradientReport(f.name)
    grad = problem.gradient()
    bad = [n for n, g in grad.items() if not np.all(np.isfinite(g))]
    report.add("finite", not bad, "non-finite gradient of " + ", ".join(bad)
               if bad else "all finite")
    if bad:
        return report
    for k in range(directions):
        v = problem.random_direction(gen)
        report.add("fd" if directions == 1 else "fd%d" % k,
                   *fd_compare(problem.along(v), problem.grad_terms(grad, v),
                               step, **compare))
    for name in problem.active_scalars:
        v = {name: 1.0}
        h = step * max(1.0, abs(problem.values[problem.index[name]]))
        report.add("fd-" + name, *fd_compare(problem.along(v),
                                             problem.grad_terms(grad, v), h,
                                             **compare))
    if linear:
        report.add("dot", *dot_compare(*problem.dot_terms(gen),
                                       rtol=precision["dot_rtol"]))
    if threads:
        a, b = threads
        ga, gb = problem.gradient(threads=a), problem.gradient(threads=b)
        differ = [n for n in ga if np.asarray(ga[n]).tobytes()
                  != np.asarray(gb[n]).tobytes()]
        report.add("threads", not differ, "%d vs %d threads: %s" % (
            a, b, "differ in " + ", ".join(differ) if differ else "bitwise equal"))
    return report
