"""check_gradient's problem: the objective J and the gradient at one point
of a compiled function, with NumPy arrays (gradcheck.py holds the
comparisons)."""

import math

from ._deps import require

np = require("numpy", "python3-numpy")


def _results(ret):
    if ret is None:
        return []
    if isinstance(ret, tuple):
        return list(ret)
    return [ret]


class Problem:
    def __init__(self, f, args, gen, kwargs, check_bounds=True):
        if getattr(f, "adjoint", None) is None:
            raise ValueError("%s has no adjoint: compile with adjoint=True and "
                             "mark an argument stencil.active" % f.name)
        self.f = f
        self.kwargs = kwargs
        self.check_bounds = check_bounds
        self.values = f._bind(list(args), {}, f.name)
        self.index = {p["name"]: k for k, p in enumerate(f.params)}
        adjoint = f.adjoint
        shadows = [(p, key) for p, key in zip(adjoint.params,
                                              adjoint.keywords)
                   if p["role"] == "shadow"]
        # Shadows, weights and directions in each array's own dtype; the
        # comparisons of the least precise element type.
        self.element = ("f32" if any(p["element"] == "f32"
                                     for p, _ in shadows) else "f64")
        self.shadow_names = {f.params[p["of"]]["name"]: key
                             for p, key in shadows}
        # An active rank-0 array (memref<f64>) is an array here, not a
        # scalar: its shadow is an array and its value after the call
        # counts in J.
        shadows = [f.params[p["of"]] for p, _ in shadows]
        self.active_arrays = [p["name"] for p in shadows
                              if p["kind"] == "descriptor"]
        self.active_scalars = [p["name"] for p in shadows
                               if p["kind"] != "descriptor"]
        self.seed_names = [key for p, key in zip(adjoint.params,
                                                 adjoint.keywords)
                           if p["role"] == "seed"]
        self.weights = self._random(gen)
        self.seeds = [float(s) for s in gen.uniform(0.5, 1.5,
                                                    len(self.seed_names))]

    def _random(self, gen):
        """Uniform in [-1, 1] over every active array, in its dtype."""
        return {n: gen.uniform(-1, 1, self.values[self.index[n]].shape).astype(
            self.values[self.index[n]].dtype) for n in self.active_arrays}

    def _copy(self, values):
        return [v.copy() if isinstance(v, np.ndarray) else v for v in values]

    def objective(self, values):
        """J and the sum of |terms| of J after the primal on `values`."""
        run = self._copy(values)
        results = _results(self.f(*run, check_bounds=self.check_bounds))
        terms = [(self.weights[n].astype(np.float64)
                  * run[self.index[n]].astype(np.float64)).ravel()
                 for n in self.active_arrays]
        flat = np.concatenate(terms) if terms else np.zeros(0)
        scalars = [s * r for s, r in zip(self.seeds, results)]
        return (math.fsum(list(flat) + scalars),
                math.fsum(abs(t) for t in list(flat) + scalars))

    def shifted(self, v, t):
        out = self._copy(self.values)
        for n, d in v.items():
            x = out[self.index[n]]
            # np.asarray: a rank-0 array plus a number is a NumPy scalar.
            out[self.index[n]] = np.asarray(x + t * d, dtype=x.dtype) if (
                isinstance(x, np.ndarray)) else x + t * d
        return out

    def along(self, v):
        return lambda t: self.objective(self.shifted(v, t))

    def gradient(self, threads=None, values=None, shadows=None):
        run = self._copy(self.values if values is None else values)
        named = {}
        for n in self.active_arrays:
            w = self.weights if shadows is None else shadows
            named[self.shadow_names[n]] = w[n].copy()
        for n in self.active_scalars:
            named[self.shadow_names[n]] = 0.0
        for name, s in zip(self.seed_names, self.seeds):
            named[name] = s
        named.update(self.kwargs)
        return dict(self.f.adjoint(*run, threads=threads,
                                   check_bounds=self.check_bounds, **named))

    def random_direction(self, gen):
        v = self._random(gen)
        v.update({n: float(gen.uniform(-1, 1)) for n in self.active_scalars})
        return v

    def grad_terms(self, grad, v):
        terms = []
        for n, d in v.items():
            if isinstance(d, np.ndarray):
                terms.extend((grad[n].astype(np.float64) * d).ravel())
            else:
                terms.append(grad[n] * d)
        return terms

    def dot_terms(self, gen):
        """<J v, w> and <v, J^T w> term by term, for a map linear in its
        active arrays (J v: the primal applied to v)."""
        v = self._random(gen)
        w = self._random(gen)
        run = self.shifted({}, 0.0)
        for n in self.active_arrays:
            run[self.index[n]] = v[n].copy()
        results = _results(self.f(*run, check_bounds=self.check_bounds))
        lhs = []
        for n in self.active_arrays:
            lhs.extend((run[self.index[n]].astype(np.float64)
                        * w[n]).ravel())
        lhs.extend(s * r for s, r in zip(self.seeds, results))
        jtw = self.gradient(shadows=w)
        rhs = []
        for n in self.active_arrays:
            rhs.extend((v[n].astype(np.float64) * jtw[n]).ravel())
        return lhs, rhs
