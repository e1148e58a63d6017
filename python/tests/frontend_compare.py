"""Helpers of the front-end tests: two compiled functions called alike and
their primal outputs, results and gradients compared."""

import numpy as np

# Two compilations of the same arithmetic in another order of operations
# (SymPy orders sums and products its own way) differ by roundings only.
REL = 1e-14


def rel_diff(a, b):
    """max |a - b| / max |b| (0 when both are zero)."""
    a, b = np.asarray(a, dtype=np.float64), np.asarray(b, dtype=np.float64)
    assert a.shape == b.shape, (a.shape, b.shape)
    scale = float(np.max(np.abs(b))) if b.size else 0.0
    diff = float(np.max(np.abs(a - b))) if b.size else 0.0
    return diff / scale if scale else diff


def assert_close(a, b, what, tol=REL):
    d = rel_diff(a, b)
    assert d <= tol, "%s: relative max-norm difference %.3g > %.3g" % (
        what, d, tol)


def copies(values):
    return {k: v.copy() if isinstance(v, np.ndarray) else v
            for k, v in values.items()}


def agree(front, direct, args, rng, snapshots=(None,), tol=REL,
          seed=None):
    """`front` and `direct` (stencilad Functions of the same signature
    names) called by keyword with `args`: the same value, the same arrays
    written, and, with random shadows (and `seed` for a result) for the
    adjoint, the same gradients at every snapshot count (None:
    the default, store-all)."""
    assert list(front.keywords) == list(direct.keywords) or \
        set(front.keywords) == set(direct.keywords), \
        (front.keywords, direct.keywords)
    a, b = copies(args), copies(args)
    va, vb = front(**a), direct(**b)
    if vb is None:
        assert va is None
    else:
        assert_close(va, vb, "value", tol)
    for name in args:
        if isinstance(args[name], np.ndarray):
            assert_close(a[name], b[name], "output " + name, tol)
    if front.adjoint is None:
        return
    shadows = {}
    for name in front.adjoint.keywords:
        if name.endswith("_b") and name[:-2] in args and \
                isinstance(args[name[:-2]], np.ndarray):
            shadows[name] = rng.uniform(-1, 1, args[name[:-2]].shape)
    extra = dict(shadows)
    if seed is not None:
        extra["seed"] = seed
    for count in snapshots:
        if count is not None:
            extra["snapshots"] = count
        ra = front.value_and_grad(**copies(args), **copies(extra))
        rb = direct.value_and_grad(**copies(args), **copies(extra))
        assert set(ra.grads) == set(rb.grads), (ra.grads.keys(),
                                                rb.grads.keys())
        assert ra.grads, "no gradients"
        for name in rb.grads:
            assert_close(ra.grads[name], rb.grads[name],
                         "gradient of %s (snapshots=%s)" % (name, count), tol)
