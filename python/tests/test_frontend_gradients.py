"""Gradients of kernels written with the front end: central differences
and the dot-product test (<J v, w> = <v, J^T w> for linear kernels)
through stencilad.check_gradient and explicit ones, in 1-D, 2-D and 3-D;
and NumPy references for primals (the kernel computes what its Python
expression says)."""

import numpy as np
import pytest
import sympy as sp

import stencilad as sa

i, j, k = sa.indices("i j k")


def test_result_before_a_plain_domain(rng):
    """A kernel whose last domain has no result still returns its sum
    (that domain's lack of a result once took the function's with it)."""
    n = sa.size("n")
    u, v = sa.Array("u", 1, active=True), sa.Array("v", 1, active=True)
    K = sa.Kernel("sum_then_square")
    K.sum(3 * u[i] ** 2, {i: (1, n)})
    with K.domain({i: (0, n)}):
        v[i] = u[i] * u[i]
    f = K.compile()
    x = rng.uniform(-1, 1, 9)
    out = np.zeros(9)
    assert f(u=x, v=out, n=9) == pytest.approx(3 * np.sum(x[1:] ** 2),
                                               rel=1e-14)
    np.testing.assert_array_equal(out, x * x)
    assert sa.check_gradient(f, [x, np.zeros(9), 9])



def test_array_made_inside_an_expression(rng):
    """An Array that only its reads refer to (`loop.final(u)[i]` written
    inline) stays the front end's array (it was once collected before the
    statement saw it)."""
    n, steps = sa.size("n steps")
    u0, u1 = sa.Array("u0", 1, active=True), sa.Array("u1", 1, active=True)
    K = sa.Kernel("final_inline")
    loop = K.time_loop(steps, rotate=(u0, u1))
    with loop:
        with K.domain({i: (1, n - 1)}):
            u1[i] = 0.5 * (u0[i - 1] + u0[i + 1])
    K.sum(loop.final(u0)[i] ** 2, {i: (0, n)})
    f = K.compile()
    x = rng.uniform(-1, 1, 8)
    y = x.copy()
    y[1:-1] = 0.5 * (x[:-2] + x[2:])
    assert f(u0=x.copy(), u1=x.copy(), n=8, steps=1) == pytest.approx(
        np.sum(y ** 2), rel=1e-14)

# -- helpers -----------------------------------------------------------------
def positional(f, args):
    """check_gradient takes the primal's arguments in order: from a dict
    by name."""
    assert set(args) == set(f.keywords), (sorted(args), f.keywords)
    return [args[name] for name in f.keywords]


def checked(f, args, **kwargs):
    report = sa.check_gradient(f, positional(f, args), **kwargs)
    assert report, str(report)
    return report


def dot_test(f, args, inputs, outputs, rng, rtol=1e-13):
    """<J v, w> = <v, J^T w> for a kernel linear in the arrays `inputs`,
    writing (or accumulating into) the arrays `outputs`, which start at
    zero: J v by the primal, J^T w by the adjoint seeded with w."""
    v = {x: rng.uniform(-1, 1, args[x].shape).astype(args[x].dtype)
         for x in inputs}
    w = {y: rng.uniform(-1, 1, args[y].shape).astype(args[y].dtype)
         for y in outputs}
    run = dict(args, **{x: v[x].copy() for x in inputs})
    run.update({y: np.zeros_like(args[y]) for y in outputs})
    f(**run)
    lhs = [run[y].astype(np.float64) * w[y] for y in outputs]
    point = dict(run, **{y: np.zeros_like(args[y]) for y in outputs})
    grads = f.adjoint(**point, **{y + "_b": w[y].copy() for y in outputs})
    rhs = [v[x].astype(np.float64) * grads[x] for x in inputs]
    a = sum(float(np.sum(t)) for t in lhs)
    b = sum(float(np.sum(t)) for t in rhs)
    scale = sum(float(np.sum(np.abs(t))) for t in lhs + rhs)
    assert scale > 0 and abs(a - b) <= rtol * scale, (a, b, scale)


def numpy_close(got, want, rtol=1e-13):
    want = np.asarray(want)
    assert np.max(np.abs(got - want)) <= rtol * max(np.max(np.abs(want)),
                                                   1e-300), (got, want)


# -- 1-D -----------------------------------------------------------------
def test_1d_nonlinear(rng):
    """sin, exp, sqrt, tanh, Max, Min, Piecewise on a value and on the
    counter, division, integer powers (positive and negative), an active
    scalar: finite differences, and the primal against NumPy."""
    n = sa.size("n")
    u, r = sa.Array("u", 1, active=True), sa.Array("r", 1, active=True)
    a = sa.scalar("a", active=True)
    K = sa.Kernel("nonlinear1")
    with K.domain({i: (1, n - 1)}):
        r[i] = (sp.sin(u[i - 1]) * sp.exp(a * u[i + 1])
                + sp.sqrt(1 + u[i] ** 2) + sp.tanh(u[i + 1])
                + sp.Max(u[i - 1], u[i + 1]) - sp.Min(u[i], 0.5 * u[i + 1])
                + sp.Piecewise((u[i] ** 3, u[i] > 0), (-u[i] ** 2, True))
                + sp.Piecewise((3 * u[i - 1], 2 * i < n), (u[i - 1], True))
                + u[i] / (2 + u[i - 1] ** 2) + (1 + u[i + 1] ** 2) ** -2)
    f = K.compile()
    N = 13
    args = dict(u=rng.uniform(-1, 1, N), r=np.zeros(N), a=0.7, n=N)
    report = checked(f, args)
    assert "fd-a" in str(report)
    x, ii = args["u"], np.arange(1, N - 1)
    um, uc, up = x[:-2], x[1:-1], x[2:]
    want = (np.sin(um) * np.exp(0.7 * up) + np.sqrt(1 + uc ** 2)
            + np.tanh(up) + np.maximum(um, up) - np.minimum(uc, 0.5 * up)
            + np.where(uc > 0, uc ** 3, -uc ** 2)
            + np.where(2 * ii < N, 3 * um, um)
            + uc / (2 + um ** 2) + (1 + up ** 2) ** -2.0)
    out = np.zeros(N)
    f(u=x, r=out, a=0.7, n=N)
    numpy_close(out[1:-1], want)
    assert out[0] == 0 and out[-1] == 0



def test_1d_more_functions(rng):
    """log, cos, Abs, atan, sinh, cosh, pi, powers 1/2, -1/2, 3/2 and a
    float power, a division by a constant, counters and sizes inside a
    float, Piecewise on And, Or and Not: NumPy and finite differences."""
    n = sa.size("n")
    u, r = sa.Array("u", 1, active=True), sa.Array("r", 1, active=True)
    K = sa.Kernel("functions1")
    with K.domain({i: (1, n - 1)}):
        x = u[i]
        r[i] = ((1 + x ** 2) ** sp.Rational(-1, 2) + sp.sqrt(2 + x)
                + (1 + x ** 2) ** sp.Rational(3, 2) + sp.Abs(x)
                + sp.log(2 + x) + sp.cos(u[i + 1]) + (2 + x) ** 2.5 + x / 3
                - x * i / n + sp.pi * u[i - 1] + sp.atan(x)
                + sp.sinh(x) * sp.cosh(u[i - 1])
                + sp.Piecewise((x, sp.And(x > 0, i > 2)),
                               (2 * x, sp.Or(x < -0.5, sp.Not(i < 5))),
                               (0, True)))
    f = K.compile()
    N = 12
    args = dict(u=rng.uniform(-1, 1, N), r=np.zeros(N), n=N)
    checked(f, args)
    out = np.zeros(N)
    f(u=args["u"], r=out, n=N)
    x, ii = args["u"][1:-1], np.arange(1, N - 1)
    um = args["u"][:-2]
    want = ((1 + x ** 2) ** -0.5 + np.sqrt(2 + x) + (1 + x ** 2) ** 1.5
            + np.abs(x) + np.log(2 + x) + np.cos(args["u"][2:])
            + (2 + x) ** 2.5 + x / 3 - x * ii / N + np.pi * um
            + np.arctan(x) + np.sinh(x) * np.cosh(um)
            + np.where((x > 0) & (ii > 2), x,
                       np.where((x < -0.5) | (ii >= 5), 2 * x, 0)))
    numpy_close(out[1:-1], want)


def test_1d_bounds_floor_and_mod(rng):
    """Bounds with floor and Mod of a size: exactly those points are
    written (such bounds cannot be checked before a call)."""
    n = sa.size("n")
    u, v = sa.Array("u", 1, active=True), sa.Array("v", 1, active=True)
    K = sa.Kernel("bounds1")
    with K.domain({i: (sp.floor(n / 2), n - sp.Mod(n, 3))}):
        v[i] = 2 * u[i]
    f = K.compile()
    for N in (9, 10, 11):
        x, out = rng.uniform(-1, 1, N), np.full(N, 7.0)
        f(u=x, v=out, n=N, check_bounds=False)
        want = np.full(N, 7.0)
        want[N // 2:N - N % 3] = 2 * x[N // 2:N - N % 3]
        np.testing.assert_array_equal(out, want)


def test_1d_scatters(rng):
    """u[i+1] += ... and u[i-1] += ... in one domain (linear): the dot
    test, check_gradient's own, and NumPy."""
    n = sa.size("n")
    u, r, c = (sa.Array(x, 1, active=x != "c") for x in ("u", "r", "c"))
    K = sa.Kernel("scatter1")
    with K.domain({i: (1, n - 1)}):
        r[i + 1] += c[i] * u[i]
        r[i - 1] += 2 * u[i]
    f = K.compile()
    N = 11
    args = dict(u=rng.uniform(-1, 1, N), r=np.zeros(N),
                c=rng.uniform(-1, 1, N), n=N)
    dot_test(f, args, ["u"], ["r"], rng)
    checked(f, args, linear=True)
    out = rng.uniform(-1, 1, N)
    want = out.copy()
    want[2:] += args["c"][1:-1] * args["u"][1:-1]
    want[:-2] += 2 * args["u"][1:-1]
    f(u=args["u"], r=out, c=args["c"], n=N)
    numpy_close(out, want)


def test_rank0_accumulation(rng):
    """s[()] += u[i] * c[i]: a rank-0 array accumulated over a domain
    (linear in u and s: the dot test), and against NumPy."""
    n = sa.size("n")
    s, u, c = sa.Array("s", 0, active=True), sa.Array("u", 1, active=True), \
        sa.Array("c", 1)
    K = sa.Kernel("dot0")
    with K.domain({i: (0, n)}):
        s[()] += u[i] * c[i]
    f = K.compile()
    N = 10
    args = dict(s=np.array(0.25), u=rng.uniform(-1, 1, N),
                c=rng.uniform(-1, 1, N), n=N)
    checked(f, args, linear=True)
    dot_test(f, args, ["u"], ["s"], rng)
    out = np.array(0.25)
    f(s=out, u=args["u"], c=args["c"], n=N)
    numpy_close(out, 0.25 + np.dot(args["u"], args["c"]))


# -- 2-D -----------------------------------------------------------------
def laplacian_kernel(name, dtype="f64"):
    n, m = sa.size("n m")
    u = sa.Array("u", 2, dtype=dtype, active=True)
    r = sa.Array("r", 2, dtype=dtype, active=True)
    K = sa.Kernel(name)
    with K.domain({i: (1, n - 1), j: (1, m - 1)}):
        r[i, j] = u[i - 1, j] + u[i + 1, j] + u[i, j - 1] + u[i, j + 1] - \
            4 * u[i, j]
    return K


def numpy_laplacian(x):
    return (x[:-2, 1:-1] + x[2:, 1:-1] + x[1:-1, :-2] + x[1:-1, 2:]
            - 4 * x[1:-1, 1:-1])


def test_2d_laplacian(rng):
    """The 5-point Laplacian: NumPy's slicing computes the same (bitwise
    here is not asked: SymPy orders the sum), the dot test, and
    check_gradient with linear=True."""
    f = laplacian_kernel("lap2").compile()
    N, M = 9, 7
    args = dict(u=rng.uniform(-1, 1, (N, M)), r=np.zeros((N, M)), n=N, m=M)
    out = np.full((N, M), 5.0)
    f(u=args["u"], r=out, n=N, m=M)
    numpy_close(out[1:-1, 1:-1], numpy_laplacian(args["u"]))
    out[1:-1, 1:-1] = 5.0
    assert np.all(out == 5.0), "written outside the domain"
    dot_test(f, args, ["u"], ["r"], rng)
    checked(f, args, linear=True)


def test_2d_reduction_and_taps(rng):
    """v[j] += ... (a 2-D domain reduced into a 1-D array), fixed taps
    w[a, b] of an active 2x2 array, a transposed write q[j, i]: finite
    differences and NumPy."""
    n, m = sa.size("n m")
    u, w = sa.Array("u", 2, active=True), sa.Array("w", shape=(2, 2),
                                                     active=True)
    v, q = sa.Array("v", 1, active=True), sa.Array("q", 2, active=True)
    K = sa.Kernel("reduce2")
    with K.domain({i: (0, n - 1), j: (0, m - 1)}):
        v[j] += w[0, 0] * u[i, j] ** 2 + w[1, 1] * u[i + 1, j + 1]
        q[j, i] = w[0, 1] * u[i, j + 1] - w[1, 0] * sp.exp(u[i + 1, j])
    f = K.compile()
    N, M = 6, 8
    args = dict(u=rng.uniform(-1, 1, (N, M)), w=rng.uniform(-1, 1, (2, 2)),
                v=rng.uniform(-1, 1, M), q=np.zeros((M, N)), n=N, m=M)
    checked(f, args)
    x, W = args["u"], args["w"]
    out_v, out_q = args["v"].copy(), np.zeros((M, N))
    f(u=x, w=W, v=out_v, q=out_q, n=N, m=M)
    want_v = args["v"].copy()
    want_v[:-1] += np.sum(W[0, 0] * x[:-1, :-1] ** 2 + W[1, 1] * x[1:, 1:],
                          axis=0)
    numpy_close(out_v, want_v)
    want_q = np.zeros((M, N))
    want_q[:-1, :-1] = (W[0, 1] * x[:-1, 1:] - W[1, 0] * np.exp(x[1:, :-1])).T
    numpy_close(out_q, want_q)


def test_2d_domains_temporary_sums(rng):
    """Several domains in order through a temporary, two sums and a
    result that is a nonlinear expression of them and of an active
    scalar: finite differences (for u and for the scalar) and NumPy."""
    n, m = sa.size("n m")
    u, r = sa.Array("u", 2, active=True), sa.Array("r", 2, active=True)
    a = sa.scalar("a", active=True)
    K = sa.Kernel("chain2")
    t = K.temporary("t", (n, m))
    with K.domain({i: (0, n), j: (0, m)}):
        t[i, j] = sp.exp(0.5 * u[i, j])
    with K.domain({i: (1, n - 1), j: (1, m - 1)}):
        r[i, j] = t[i + 1, j] * t[i, j - 1] - t[i, j] / (1 + t[i - 1, j + 1])
    J1 = K.sum(r[i, j] ** 2, {i: (1, n - 1), j: (1, m - 1)})
    J2 = K.sum(u[i, j] * t[i, j], {i: (0, n), j: (0, m)})
    K.returns(0.5 * J1 + a * J2 + J1 * J2)
    f = K.compile()
    N, M = 7, 6
    args = dict(u=rng.uniform(-1, 1, (N, M)), r=np.zeros((N, M)), a=0.3,
                n=N, m=M)
    report = checked(f, args)
    assert "fd-a" in str(report)
    x = args["u"]
    T = np.exp(0.5 * x)
    R = T[2:, 1:-1] * T[1:-1, :-2] - T[1:-1, 1:-1] / (1 + T[:-2, 2:])
    j1, j2 = np.sum(R ** 2), np.sum(x * T)
    out = np.zeros((N, M))
    value = f(u=x, r=out, a=0.3, n=N, m=M)
    numpy_close(out[1:-1, 1:-1], R)
    assert value == pytest.approx(0.5 * j1 + 0.3 * j2 + j1 * j2, rel=1e-13)


def test_2d_f32(rng):
    """An f32 kernel: check_gradient's f32 comparisons, the dot test at
    f32's tolerance, and NumPy at f32's."""
    n, m = sa.size("n m")
    u = sa.Array("u", 2, dtype="f32", active=True)
    r = sa.Array("r", 2, dtype="f32", active=True)
    D = sa.scalar("D", active=True)
    K = sa.Kernel("nonlinear2_f32")
    with K.domain({i: (1, n - 1), j: (1, m - 1)}):
        r[i, j] = u[i, j] + D * sp.tanh(u[i + 1, j] - u[i, j - 1]) ** 2
    f = K.compile()
    N, M = 8, 9
    args = dict(u=rng.uniform(-1, 1, (N, M)).astype(np.float32),
                r=np.zeros((N, M), np.float32), D=0.4, n=N, m=M)
    checked(f, args)
    out = np.zeros((N, M), np.float32)
    f(u=args["u"], r=out, D=0.4, n=N, m=M)
    x = args["u"].astype(np.float64)
    want = x[1:-1, 1:-1] + 0.4 * np.tanh(x[2:, 1:-1] - x[1:-1, :-2]) ** 2
    numpy_close(out[1:-1, 1:-1], want, rtol=1e-6)
    lin = laplacian_kernel("lap2_f32", "f32").compile()
    largs = dict(u=args["u"], r=np.zeros((N, M), np.float32), n=N, m=M)
    dot_test(lin, largs, ["u"], ["r"], rng, rtol=1e-5)
    checked(lin, largs, linear=True)


# -- 3-D -----------------------------------------------------------------
def test_3d_linear(rng):
    """The 7-point Laplacian times a passive coefficient, plus a column
    sum into a 2-D array (+= over k): the dot test and NumPy."""
    n = sa.size("n")
    u, r = sa.Array("u", 3, active=True), sa.Array("r", 3, active=True)
    p, c = sa.Array("p", 2, active=True), sa.Array("c", 3)
    K = sa.Kernel("lap3")
    with K.domain({i: (1, n - 1), j: (1, n - 1), k: (1, n - 1)}):
        r[i, j, k] = c[i, j, k] * (
            u[i - 1, j, k] + u[i + 1, j, k] + u[i, j - 1, k] +
            u[i, j + 1, k] + u[i, j, k - 1] + u[i, j, k + 1] -
            6 * u[i, j, k])
    with K.domain({i: (0, n), j: (0, n), k: (0, n)}):
        p[i, j] += u[i, j, k]
    f = K.compile()
    N = 6
    args = dict(u=rng.uniform(-1, 1, (N, N, N)), r=np.zeros((N, N, N)),
                p=np.zeros((N, N)), c=rng.uniform(0, 1, (N, N, N)), n=N)
    dot_test(f, args, ["u"], ["r", "p"], rng)
    checked(f, args, linear=True)
    out_r, out_p = np.zeros((N, N, N)), np.ones((N, N))
    x, C = args["u"], args["c"]
    f(u=x, r=out_r, p=out_p, c=C, n=N)
    lap = (x[:-2, 1:-1, 1:-1] + x[2:, 1:-1, 1:-1] + x[1:-1, :-2, 1:-1] +
           x[1:-1, 2:, 1:-1] + x[1:-1, 1:-1, :-2] + x[1:-1, 1:-1, 2:] -
           6 * x[1:-1, 1:-1, 1:-1])
    numpy_close(out_r[1:-1, 1:-1, 1:-1], C[1:-1, 1:-1, 1:-1] * lap)
    numpy_close(out_p, 1 + np.sum(x, axis=2))


def test_3d_nonlinear(rng):
    """sqrt, tanh, a cube and a division in 3-D, with an active scalar:
    finite differences and NumPy."""
    n = sa.size("n")
    u, r = sa.Array("u", 3, active=True), sa.Array("r", 3, active=True)
    c, b = sa.Array("c", 3, active=True), sa.scalar("b", active=True)
    K = sa.Kernel("nonlinear3")
    with K.domain({i: (1, n - 1), j: (1, n - 1), k: (1, n - 1)}):
        r[i, j, k] = sp.sqrt(1 + u[i, j, k + 1] ** 2) * sp.tanh(
            b * u[i - 1, j, k]) + u[i, j + 1, k] ** 3 / (2 + c[i, j, k] ** 2)
    f = K.compile()
    N = 6
    args = dict(u=rng.uniform(-1, 1, (N, N, N)), r=np.zeros((N, N, N)),
                c=rng.uniform(-1, 1, (N, N, N)), b=1.3, n=N)
    checked(f, args)
    out = np.zeros((N, N, N))
    f(u=args["u"], r=out, c=args["c"], b=1.3, n=N)
    x, C = args["u"], args["c"][1:-1, 1:-1, 1:-1]
    want = (np.sqrt(1 + x[1:-1, 1:-1, 2:] ** 2) * np.tanh(
        1.3 * x[:-2, 1:-1, 1:-1]) + x[1:-1, 2:, 1:-1] ** 3 / (2 + C ** 2))
    numpy_close(out[1:-1, 1:-1, 1:-1], want)


# -- time loops ----------------------------------------------------------
def schedules_agree(f, args, steps):
    """The gradient with every snapshot count from 1 to steps + 1 is
    bitwise the store-all one (the recomputation repeats the same
    arithmetic), and not all zero."""
    ref = f.value_and_grad(**args).grads
    assert all(np.all(np.isfinite(g)) for g in ref.values())
    assert any(np.any(np.asarray(g) != 0) for g in ref.values())
    for count in range(1, steps + 2):
        got = f.value_and_grad(**args, snapshots=count).grads
        for name in ref:
            assert np.asarray(got[name]).tobytes() == \
                np.asarray(ref[name]).tobytes(), (count, name)


def heat_loop_kernel():
    """Two states in 2-D; a source w[t] at (sx, sy); a per-step misfit at
    receivers on the line i = rx against d[t, j]; a tail objective of the
    final state; an active coefficient field."""
    n, m, steps, sx, sy, rx = sa.size("n m steps sx sy rx")
    u0, u1 = sa.Array("u0", 2, active=True), sa.Array("u1", 2, active=True)
    kk = sa.Array("k", 2, active=True)
    w, d = sa.Array("w", shape=(steps,)), sa.Array("d", shape=(steps, m))
    K = sa.Kernel("heat_loop")
    loop = K.time_loop(steps, rotate=(u0, u1))
    with loop as t:
        with K.domain({i: (1, n - 1), j: (1, m - 1)}):
            u1[i, j] = u0[i, j] + kk[i, j] * (
                u0[i - 1, j] + u0[i + 1, j] + u0[i, j - 1] + u0[i, j + 1] -
                4 * u0[i, j])
        K.add_at(u1, (sx, sy), w[t])
        misfit = K.sum(0.5 * (u1[i, j] - d[t, j]) ** 2,
                       {i: (rx, rx + 1), j: (1, m - 1)})
    last = loop.final(u0)
    tail = K.sum(sp.sin(last[i, j]) ** 2, {i: (0, n), j: (0, m)})
    K.returns(misfit + 0.25 * tail)
    return K


def numpy_heat(a, T):
    """The heat loop in NumPy: (the value, the final state)."""
    u = a["u0"].copy()
    nxt = a["u1"].copy()
    J = 0.0
    for t in range(T):
        nxt[1:-1, 1:-1] = u[1:-1, 1:-1] + \
            a["k"][1:-1, 1:-1] * numpy_laplacian(u)
        nxt[a["sx"], a["sy"]] += a["w"][t]
        J += 0.5 * np.sum((nxt[a["rx"], 1:-1] - a["d"][t, 1:-1]) ** 2)
        u, nxt = nxt, u
    return J + 0.25 * np.sum(np.sin(u) ** 2), u


def test_time_loop_two_states(rng):
    """Finite differences (store-all and 2 snapshots), every snapshot
    count bitwise, and the primal against NumPy."""
    f = heat_loop_kernel().compile()
    N, M, T = 7, 6, 5
    u = rng.uniform(-1, 1, (N, M))
    args = dict(u0=u, u1=u.copy(), k=rng.uniform(0.05, 0.2, (N, M)),
                w=np.sin(np.arange(T) + 0.3), d=rng.uniform(-1, 1, (T, M)),
                n=N, m=M, steps=T, sx=3, sy=2, rx=4)
    checked(f, args)
    checked(f, args, snapshots=2)
    schedules_agree(f, args, T)
    want, state = numpy_heat(args, T)
    run = {x: v.copy() if isinstance(v, np.ndarray) else v
           for x, v in args.items()}
    assert f(**run) == pytest.approx(want, rel=1e-13)
    # T odd: the last state is in u1's buffer.
    numpy_close(run["u1"], state)


def wave_loop_kernel():
    """Three states in 1-D (leapfrog), a source w[t] at sx, receivers at
    rx, rx + 1 against d[t, i], a tail objective of the final state, and
    the total of the sums as the result."""
    n, steps, sx, rx = sa.size("n steps sx rx")
    u0, u1, u2 = (sa.Array(x, 1, active=True) for x in ("u0", "u1", "u2"))
    c = sa.Array("c", 1, active=True)
    w, d = sa.Array("w", shape=(steps,)), sa.Array("d", shape=(steps, n))
    K = sa.Kernel("wave_loop")
    loop = K.time_loop(steps, rotate=(u0, u1, u2))
    with loop as t:
        with K.domain({i: (1, n - 1)}):
            u2[i] = 2 * u1[i] - u0[i] + c[i] * (u1[i - 1] - 2 * u1[i] +
                                                  u1[i + 1])
        K.add_at(u2, sx, w[t])
        K.sum((u2[i] - d[t, i]) ** 2, {i: (rx, rx + 2)})
    last = loop.final(u1)
    K.sum(sp.exp(0.1 * last[i]) * last[i], {i: (0, n)})
    return K


def numpy_wave(a, T):
    prev, cur, nxt = a["u0"].copy(), a["u1"].copy(), a["u2"].copy()
    J, rx = 0.0, a["rx"]
    for t in range(T):
        nxt[1:-1] = 2 * cur[1:-1] - prev[1:-1] + a["c"][1:-1] * (
            cur[:-2] - 2 * cur[1:-1] + cur[2:])
        nxt[a["sx"]] += a["w"][t]
        J += np.sum((nxt[rx:rx + 2] - a["d"][t, rx:rx + 2]) ** 2)
        prev, cur, nxt = cur, nxt, prev
    return J + np.sum(np.exp(0.1 * cur) * cur)


def test_time_loop_three_states(rng):
    f = wave_loop_kernel().compile()
    N, T = 12, 6
    args = dict(u0=rng.uniform(-1, 1, N), u1=rng.uniform(-1, 1, N),
                u2=np.zeros(N), c=rng.uniform(0.1, 0.3, N),
                w=np.cos(np.arange(T)), d=rng.uniform(-1, 1, (T, N)), n=N,
                steps=T, sx=5, rx=8)
    checked(f, args)
    checked(f, args, snapshots=3)
    schedules_agree(f, args, T)
    run = {x: v.copy() if isinstance(v, np.ndarray) else v
           for x, v in args.items()}
    assert f(**run) == pytest.approx(numpy_wave(args, T), rel=1e-13)


def test_time_loop_linear_dot(rng):
    """A linear loop (three states, no sums): the dot test from the
    initial states to the states after the loop."""
    n, steps = sa.size("n steps")
    u0, u1, u2 = (sa.Array(x, 1, active=True) for x in ("u0", "u1", "u2"))
    c = sa.Array("c", 1)
    K = sa.Kernel("linear_loop")
    with K.time_loop(steps, rotate=(u0, u1, u2)):
        with K.domain({i: (1, n - 1)}):
            u2[i] = 2 * u1[i] - u0[i] + c[i] * (u1[i - 1] - 2 * u1[i] +
                                                  u1[i + 1])
    f = K.compile()
    N, T = 10, 4
    args = dict(u0=rng.uniform(-1, 1, N), u1=rng.uniform(-1, 1, N),
                u2=rng.uniform(-1, 1, N), c=rng.uniform(0.1, 0.3, N), n=N,
                steps=T)
    for count in (None, 1, 2):
        extra = {} if count is None else {"snapshots": count}
        assert sa.check_gradient(f, positional(f, args), linear=True,
                                 **extra)



@pytest.mark.parametrize("dtype,last", [("f64", 0), ("f64", 2),
                                        ("f32", 1)])
def test_time_loop_head_and_finals(rng, dtype, last):
    """A domain before the loop (the head), a table read one step ahead
    (w[t + 1]), an active scalar inside the loop, the tail reading each
    state's final buffer (loop.final of u0, u1 or u2), in f64 and f32:
    NumPy and finite differences with 2 snapshots."""
    n, steps = sa.size("n steps")
    states = [sa.Array(x, 1, dtype=dtype, active=True)
              for x in ("u0", "u1", "u2")]
    u0, u1, u2 = states
    a = sa.scalar("a", active=True)
    w = sa.Array("w", shape=(steps + 1,), dtype=dtype)
    K = sa.Kernel("head_%s_%d" % (dtype, last))
    with K.domain({i: (0, n)}):
        u1[i] = 0.5 * u0[i] + u1[i]
    loop = K.time_loop(steps, rotate=states)
    with loop as t:
        with K.domain({i: (1, n - 1)}):
            u2[i] = u1[i] - 0.05 * u0[i] + 0.1 * (
                sp.tanh(a * u1[i - 1]) - 2 * sp.tanh(a * u1[i]) +
                sp.tanh(a * u1[i + 1]))
        K.sum(w[t + 1] * u2[i] ** 2, {i: (2, 4)})
    K.sum(0.5 * loop.final(states[last])[i], {i: (0, n)})
    f = K.compile()
    N, T = 9, 5
    dt = np.float32 if dtype == "f32" else np.float64
    args = dict(u0=rng.uniform(-1, 1, N).astype(dt),
                u1=rng.uniform(-1, 1, N).astype(dt),
                u2=rng.uniform(-1, 1, N).astype(dt), a=0.8,
                w=rng.uniform(-1, 1, T + 1).astype(dt), n=N, steps=T)
    s = [args[x].astype(np.float64) for x in ("u0", "u1", "u2")]
    s[1] = 0.5 * s[0] + s[1]
    want = 0.0
    for step in range(T):
        th = np.tanh(0.8 * s[1])
        s[2][1:-1] = s[1][1:-1] - 0.05 * s[0][1:-1] + 0.1 * (
            th[:-2] - 2 * th[1:-1] + th[2:])
        want += args["w"][step + 1] * np.sum(s[2][2:4] ** 2)
        s = s[1:] + s[:1]
    want += 0.5 * np.sum(s[last])
    run = {x: v.copy() if isinstance(v, np.ndarray) else v
           for x, v in args.items()}
    assert f(**run) == pytest.approx(want, rel=1e-13 if dtype == "f64"
                                     else 1e-5)
    checked(f, args, snapshots=2)


def test_time_loop_step_in_bodies_and_bounds(rng):
    """The step t inside float expressions (a source sin(0.3 t), a weight
    t + 1 in the per-step sum), a table w[t] read in a plain domain, a
    domain that moves with t, a step count `steps - 1`: NumPy, and finite
    differences (moving bounds cannot be checked before a call)."""
    n, steps, sx = sa.size("n steps sx")
    u0, u1 = sa.Array("u0", 1, active=True), sa.Array("u1", 1, active=True)
    w = sa.Array("w", shape=(steps,))
    K = sa.Kernel("step_inside")
    with K.time_loop(steps - 1, rotate=(u0, u1)) as t:
        with K.domain({i: (1, n - 1)}):
            u1[i] = u0[i] * w[t] + 0.1 * (u0[i - 1] + u0[i + 1]) + \
                0.01 * i / n
        K.add_at(u1, sx, sp.sin(0.3 * t))
        with K.domain({i: (t, t + 2)}):
            u1[i] += 0.5 * t * w[t]
        K.sum(u1[i] ** 2 * (t + 1), {i: (0, n)})
    f = K.compile()
    N, T = 10, 5
    args = dict(u0=rng.uniform(-1, 1, N), u1=rng.uniform(-1, 1, N),
                w=rng.uniform(-1, 1, T), n=N, steps=T, sx=4)
    u, nxt, want = args["u0"].copy(), args["u1"].copy(), 0.0
    for step in range(T - 1):
        nxt[1:-1] = u[1:-1] * args["w"][step] + 0.1 * (u[:-2] + u[2:]) + \
            0.01 * np.arange(1, N - 1) / N
        nxt[4] += np.sin(0.3 * step)
        nxt[step:step + 2] += 0.5 * step * args["w"][step]
        want += np.sum(nxt ** 2) * (step + 1)
        u, nxt = nxt, u
    run = {x: v.copy() if isinstance(v, np.ndarray) else v
           for x, v in args.items()}
    assert f(**run, check_bounds=False) == pytest.approx(want, rel=1e-13)
    checked(f, args, check_bounds=False, snapshots=2)
