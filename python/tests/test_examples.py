"""Every example kernel through the package: gradients against central
finite differences in random directions, the dot-product test where the
kernel is linear, and 1 vs 2 threads bitwise (stencilad.check_gradient)."""

import numpy as np

import stencilad
from conftest import example, wave3d_args


def check(report):
    print(report)
    assert report.results, "no check ran"
    assert report.ok, str(report)


def test_wave3d(rng):
    f = example("wave3d").wave3d
    check(stencilad.check_gradient(f, wave3d_args(rng), linear=True,
                                   threads=(1, 2)))


def test_paper1d(rng):
    n = 40
    r, c, u = np.zeros(n), rng.uniform(-1, 1, n), rng.uniform(-1, 1, n + 1)
    f = example("paper1d").paper1d
    check(stencilad.check_gradient(f, [r, c, u, n], linear=True,
                                   threads=(1, 2)))


def test_burgers1d(rng):
    n = 50
    u, u_1 = np.zeros(n), rng.uniform(0.5, 1.5, n)
    f = example("burgers1d").burgers1d
    check(stencilad.check_gradient(f, [u, u_1, 0.3, 0.1, n], directions=3,
                                   threads=(1, 2)))


def test_burgers1d_scalar_gradients(rng):
    """Active scalars come back as Python floats."""
    n = 30
    u, u_1 = np.zeros(n), rng.uniform(0.5, 1.5, n)
    f = example("burgers1d").burgers1d
    g = f.adjoint(u, u_1, 0.3, 0.1, n, u_b=rng.uniform(-1, 1, n))
    active = [p["name"] for p in f.adjoint.params if p["role"] == "shadow"]
    assert set(g) == {f.params[p["of"]]["name"] for p in f.adjoint.params
                      if p["role"] == "shadow"}, active
    for name, value in g.items():
        if f.params[[q["name"] for q in f.params].index(name)]["kind"] == "scalar":
            assert isinstance(value, float)


def fwi_args(rng, n=10, steps=12):
    u = [np.zeros((n, n, n)) for _ in range(3)]
    m = rng.uniform(0.05, 0.1, (n, n, n))
    w = np.sin(np.arange(steps) * 0.7)
    d = rng.uniform(-1e-3, 1e-3, (steps, n, n))
    return u + [m, w, d, n, n // 2, n // 2, n - 3, 2, steps]


def test_fwi_time_loop(rng):
    """A whole time loop: the gradient of the misfit, with Revolve (2
    snapshots) and store-all."""
    f = example("fwi/fwi.mlir").fwi
    args = fwi_args(rng)
    check(stencilad.check_gradient(f, args, snapshots=2, threads=(1, 2)))
    check(stencilad.check_gradient(f, args, threads=(1, 2)))


def adjoint_of_copies(f, args, snapshots=None):
    """f's gradients on copies of `args` (a time loop's adjoint uses its
    state arrays as work space), store-all when `snapshots` is None."""
    copies = [a.copy() if isinstance(a, np.ndarray) else a for a in args]
    kw = {} if snapshots is None else {"snapshots": snapshots}
    return f.adjoint(*copies, **kw)


def check_schedules_bitwise(f, args, counts, names, nonzero):
    """Every snapshot count in `counts` gives bitwise the store-all
    gradients `names`; the one named `nonzero` is not all zero."""
    reference = adjoint_of_copies(f, args)
    assert np.any(reference[nonzero] != 0)
    for s in counts:
        g = adjoint_of_copies(f, args, s)
        for name in names:
            assert g[name].tobytes() == reference[name].tobytes(), (s, name)


def test_fwi_schedules_bitwise(rng):
    """Every snapshot count gives bitwise the store-all gradient."""
    f = example("fwi/fwi.mlir").fwi
    check_schedules_bitwise(f, fwi_args(rng, steps=8), range(1, 9), ["m"],
                            "m")


def fwi_velocity_args(rng, n=10, steps=12, dtoh=0.25):
    args = fwi_args(rng, n, steps)
    u, m, rest = args[:3], args[3], args[4:]
    vel = np.sqrt(m) / dtoh
    return u + [vel, np.zeros((n, n, n)), dtoh] + rest


def test_fwi_velocity_head(rng):
    """The misfit as a function of the velocity, the model computed before
    the time loop (the head): its gradient against finite differences, and
    against the chain rule through @fwi's dJ/dm (dJ/dvel = dJ/dm 2 vel
    dtoh^2), with Revolve and store-all."""
    f = example("fwi/fwi_velocity.mlir").fwi_velocity
    args = fwi_velocity_args(rng)
    check(stencilad.check_gradient(f, args, snapshots=3, threads=(1, 2)))
    g = adjoint_of_copies(f, args, 3)
    vel, dtoh = args[3], args[5]
    m_args = ([np.zeros_like(vel) for _ in range(3)] + [(vel * dtoh) ** 2]
              + args[6:])
    dm = example("fwi/fwi.mlir").fwi.adjoint(*m_args, snapshots=3)["m"]
    expected = dm * 2 * vel * dtoh ** 2
    assert np.any(expected != 0)
    assert np.allclose(g["vel"], expected, rtol=1e-12, atol=1e-14 *
                       np.abs(expected).max())
    assert not np.any(g["m"]), "the shadow of the assigned model is reset"


def heat_control_args(rng, n=9, steps=7):
    u = rng.uniform(-1, 1, (n, n))
    u[0, :] = u[-1, :] = u[:, 0] = u[:, -1] = 0.0
    k = rng.uniform(0.05, 0.2, (n, n))
    return [u, u.copy(), k, rng.uniform(-1, 1, (n, n)), 0.01, n, n, steps]


def test_heat_control_final_state(rng):
    """An objective of the final state after the time loop (the tail),
    with Revolve (3 snapshots) and store-all."""
    f = example("heat_control").heat_control
    args = heat_control_args(rng)
    check(stencilad.check_gradient(f, args, snapshots=3, threads=(1, 2)))
    check(stencilad.check_gradient(f, args, threads=(1, 2)))


def test_heat_control_schedules_bitwise(rng):
    """Every snapshot count gives bitwise the store-all gradient."""
    f = example("heat_control").heat_control
    check_schedules_bitwise(f, heat_control_args(rng, steps=6), range(1, 8),
                            ["u0", "u1", "k"], "k")


class _Scaled:
    """An adjoint whose gradients are off by a factor: the checks must see
    it (a checker that cannot fail proves nothing)."""

    def __init__(self, adjoint, factor):
        self.adjoint, self.factor = adjoint, factor
        self.params = adjoint.params
        self.keywords = adjoint.keywords

    def __call__(self, *args, **kwargs):
        g = self.adjoint(*args, **kwargs)
        for k in g:
            g[k] = g[k] * self.factor
        return g


def test_checks_can_fail(rng, monkeypatch):
    f = example("wave3d").wave3d
    monkeypatch.setattr(f, "adjoint", _Scaled(f.adjoint, 1.0 + 1e-4))
    report = stencilad.check_gradient(f, wave3d_args(rng), linear=True)
    print(report)
    failed = {check for check, ok, _ in report.results if not ok}
    assert {"fd0", "fd1", "dot"} <= failed, str(report)
