"""Views: a sub-block of a larger array, a view with a step in an outer
dimension, and the same computation on contiguous copies give bitwise the
same results (the descriptor carries the view's strides); threads; the
compile cache."""

import os

import numpy as np
import pytest

import stencilad
from conftest import EXAMPLES, example


def run_both(f, make_views, scalars, adjoint=False, **kwargs):
    views = make_views()
    copies = [v.copy() for v in views]
    call = f.adjoint if adjoint else f
    a = call(*views, *scalars, **kwargs)
    b = call(*copies, *scalars, **kwargs)
    for v, c in zip(views, copies):
        assert v.tobytes() == np.ascontiguousarray(c).tobytes()
    return a, b


def test_sub_block_views(rng):
    n = 9
    bigs = [rng.uniform(-1, 1, (14, 13, 12)) for _ in range(4)]
    f = example("wave3d").wave3d
    run_both(f, lambda: [b[2:2 + n, 3:3 + n, 1:1 + n] for b in bigs],
             [0.1, n])


def test_outer_step_views(rng):
    n = 8
    bigs = [rng.uniform(-1, 1, (2 * n, n, 2 * n)) for _ in range(4)]
    f = example("wave3d").wave3d
    run_both(f, lambda: [b[::2, :, :n] for b in bigs], [0.1, n])


def test_adjoint_on_views(rng):
    n = 9
    bigs = [rng.uniform(-1, 1, (12, 12, 12)) for _ in range(4)]
    seeds = rng.uniform(-1, 1, (20, 12, 12))
    f = example("wave3d").wave3d
    views = [b[1:1 + n, 2:2 + n, 3:3 + n] for b in bigs]
    copies = [v.copy() for v in views]
    shadow_view = seeds[0:2 * n:2, 1:1 + n, :n]
    shadow_copy = shadow_view.copy()
    g1 = f.adjoint(*views, 0.1, n, u_b=shadow_view)
    g2 = f.adjoint(*copies, 0.1, n, u_b=shadow_copy)
    assert g1["u"] is shadow_view
    for name in g2:
        assert np.ascontiguousarray(g1[name]).tobytes() == g2[name].tobytes()


def test_step_in_the_last_dimension_is_refused(rng):
    """The compiled code reads the last dimension contiguously: a view with
    a step there is refused, never misread."""
    n = 30
    big = rng.uniform(-1, 1, 3 * (n + 1))
    f = example("paper1d").paper1d
    r, c = np.zeros(n), rng.uniform(-1, 1, n)
    with pytest.raises(ValueError, match="'u' has strides"):
        f(r, c, big[::3], n)
    f(r, c, np.ascontiguousarray(big[::3]), n)


def test_threads_bitwise(rng):
    n = 24
    f = example("wave3d").wave3d
    base = [rng.uniform(-1, 1, (n, n, n)) for _ in range(4)]
    outs = []
    for threads in (1, 2):
        args = [b.copy() for b in base]
        f(*args, 0.1, n, threads=threads)
        g = f.adjoint(*args, 0.1, n, u_b=base[0].copy(), threads=threads)
        outs.append([args[0].tobytes()] + [g[k].tobytes() for k in sorted(g)])
    assert outs[0] == outs[1]


def test_cache_reuses_the_library(monkeypatch):
    path = os.path.join(EXAMPLES, "paper1d.mlir")
    first = stencilad.compile(path)
    import subprocess

    def fail(*args, **kwargs):
        raise AssertionError("compiled again")

    monkeypatch.setattr(subprocess, "run", fail)
    second = stencilad.compile(path)
    assert second.path == first.path
    with pytest.raises(AssertionError, match="compiled again"):
        stencilad.compile(path, cache=False)
    with pytest.raises(AssertionError, match="compiled again"):
        stencilad.compile(path, options={"boundary": "exact"})


def test_options_reach_the_pipeline(rng):
    """boundary=exact and the default give the same adjoint (bitwise)."""
    n = 12
    base = [rng.uniform(-1, 1, (n, n, n)) for _ in range(4)]
    grads = []
    for options in (None, {"boundary": "exact"}):
        f = stencilad.compile(os.path.join(EXAMPLES, "wave3d.mlir"),
                              options=options).wave3d
        g = f.adjoint(*[b.copy() for b in base], 0.1, n, u_b=base[0].copy())
        grads.append([g[k].tobytes() for k in sorted(g)])
    assert grads[0] == grads[1]


def test_primal_only_module_has_no_adjoint():
    mod = stencilad.compile(os.path.join(EXAMPLES, "paper1d.mlir"),
                            adjoint=False)
    assert mod.paper1d.adjoint is None
    with pytest.raises(AttributeError, match="has no function 'nope'"):
        mod.nope


def test_threads_reach_openmp():
    """threads= sets the OpenMP thread count for the call, and restores it:
    the bitwise thread checks compare what they claim to compare."""
    mod = example("wave3d")
    before = mod._lib.omp_get_max_threads()
    for count in (1, 2, 3):
        with mod.threads(count):
            assert mod._lib.omp_get_max_threads() == count
    assert mod._lib.omp_get_max_threads() == before


def test_gil_released_during_calls(rng):
    """While one Python thread is inside a compiled call (a time loop of a
    few tens of milliseconds), another runs Python code: its loop records
    times strictly inside the call."""
    import threading
    import time

    from test_examples import fwi_args

    f = example("fwi/fwi.mlir").fwi
    args = fwi_args(rng, n=40, steps=1000)
    spans = []

    def work():
        for _ in range(3):
            run = [a.copy() if isinstance(a, np.ndarray) else a for a in args]
            start = time.perf_counter()
            f(*run, threads=1)
            spans.append((start, time.perf_counter()))

    ticks = []
    worker = threading.Thread(target=work)
    worker.start()
    while worker.is_alive():
        ticks.append(time.perf_counter())
    worker.join()
    # A thread that holds the GIL still yields it around the call (the
    # switch interval, 5 ms, at its start and before the end time is
    # taken): leave 15 ms at each end of a span.
    inside = [t for t in ticks for a, b in spans if a + 0.015 < t < b - 0.015]
    longest = max(b - a for a, b in spans)
    assert longest > 0.045, "the call is too short to tell (%.3f s)" % longest
    assert len(inside) > 100, (len(inside), spans)
