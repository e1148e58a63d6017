"""stencilad.torch: compiled stencils as torch ops and layers.

torch.autograd.gradcheck (float64) on the examples' kernels and on kernels
with several inputs and outputs, an active scalar as a 0-d tensor, a
passive input, a reduction into a filter, a result, and a time loop at
several snapshot counts; the gradients bitwise equal to the package's own
adjoint; composition with torch ops and torch.no_grad(); written arrays'
initial values and their gradients; bitwise reproducible training (twice,
at 1 and 2 threads); torch's conv2d as an independent reference; and the
refusals (dtype, contiguity, device, arguments, outputs=, double
backward)."""

import importlib.util
import os

import numpy as np
import pytest
import torch

import stencilad as sa
import stencilad.torch as st
from conftest import EXAMPLES

F64 = torch.float64


def load_example(name):
    path = os.path.join(EXAMPLES, "torch", name + ".py")
    spec = importlib.util.spec_from_file_location("example_" + name, path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


FILTER = load_example("learn_filter_torch")
DIFFUSION = load_example("invert_diffusion")
_compiled = {}


def compiled(name):
    """The kernels below, compiled once (with their adjoints)."""
    if name not in _compiled:
        _compiled[name] = KERNELS[name]().compile(adjoint=True)
    return _compiled[name]


def filter_f32():
    i, j = sa.indices("i j")
    n, m = sa.size("n m")
    u = sa.Array("u", 2, dtype="f32", active=True)
    w = sa.Array("w", shape=(3, 3), dtype="f32", active=True)
    r = sa.Array("r", 2, dtype="f32", active=True)
    K = sa.Kernel("filter3x3_f32")
    with K.domain({i: (1, n - 1), j: (1, m - 1)}):
        r[i, j] = sum(w[a, b] * u[i + a - 1, j + b - 1]
                      for a in range(3) for b in range(3))
    return K


def two_outputs():
    """Two written arrays from two active inputs, an active and a passive
    scalar and a passive array."""
    i = sa.indices("i")
    n = sa.size("n")
    x, y = sa.Array("x", 1, active=True), sa.Array("y", 1, active=True)
    c = sa.Array("c", 1)
    a, b = sa.Array("a", 1, active=True), sa.Array("b", 1, active=True)
    D = sa.scalar("D", active=True)
    s = sa.scalar("s")
    K = sa.Kernel("two_outputs")
    with K.domain({i: (1, n - 1)}):
        a[i] = D * x[i - 1] * y[i] + s * c[i]
        b[i] = x[i] * x[i + 1] - y[i] * c[i] * D
    return K


def accumulate():
    """`+=` into a written array: its initial value is the start."""
    i, j = sa.indices("i j")
    n = sa.size("n")
    x = sa.Array("x", 2, active=True)
    v = sa.Array("v", 1, active=True)
    K = sa.Kernel("accumulate")
    with K.domain({i: (0, n), j: (0, n)}):
        v[j] += x[i, j] * x[i, j]
    return K


def energy():
    """A result: a sum over the grid, no written array."""
    i = sa.indices("i")
    n = sa.size("n")
    p, q = sa.Array("p", 1, active=True), sa.Array("q", 1, active=True)
    K = sa.Kernel("energy")
    K.returns(0.5 * K.sum(p[i] * q[i] ** 2, {i: (0, n)}))
    return K


def both():
    """A written array and a result."""
    i = sa.indices("i")
    n = sa.size("n")
    p, q = sa.Array("p", 1, active=True), sa.Array("q", 1, active=True)
    r = sa.Array("r", 1, active=True)
    K = sa.Kernel("both")
    with K.domain({i: (0, n - 1)}):
        r[i] = p[i] * q[i + 1]
    K.returns(K.sum(p[i] * q[i] ** 2, {i: (0, n)}))
    return K


KERNELS = {"filter": FILTER.kernel, "diffusion": DIFFUSION.kernel,
           "filter_f32": filter_f32, "two_outputs": two_outputs,
           "accumulate": accumulate, "energy": energy, "both": both}


def rand(*shape, seed=0, grad=False, dtype=F64):
    g = torch.Generator().manual_seed(seed)
    t = torch.rand(*shape, generator=g, dtype=torch.float64) - 0.5
    return t.to(dtype).requires_grad_(grad)


def gradcheck(fn, inputs):
    assert torch.autograd.gradcheck(fn, inputs, eps=1e-6, atol=1e-8,
                                    rtol=1e-6)


# -- gradcheck ------------------------------------------------------------

def test_gradcheck_filter_example():
    op = st.function(compiled("filter"))
    U, W, R0 = rand(7, 6, grad=True), rand(3, 3, seed=1, grad=True), \
        rand(7, 6, seed=2, grad=True)
    # r's initial value is an input: its border is kept (gradient 1 there,
    # 0 inside)
    gradcheck(lambda u, w, r: op(u, w, r, 7, 6), (U, W, R0))


@pytest.mark.parametrize("snapshots", [1, 2, 5])
def test_gradcheck_diffusion_example(snapshots):
    op = st.function(compiled("diffusion"), snapshots=snapshots)
    n, T = 6, 5
    u = rand(n, n, grad=True)
    k = (0.05 + 0.1 * rand(n, n, seed=1).abs()).requires_grad_()
    d, u1 = rand(T, n, n, seed=2), rand(n, n, seed=3, grad=True)
    # both states' initial values are inputs (u1's border is kept)
    gradcheck(lambda u, u1, k: op(u0=u, u1=u1, k=k, d=d, n=n, steps=T),
              (u, u1, k))


@pytest.mark.parametrize("snapshots", [1, 5])
def test_gradcheck_time_loop_states(snapshots):
    """The rotated states as outputs (the buffers passed as u0 and u1, as
    the call leaves them) with the result."""
    op = st.function(compiled("diffusion"), outputs=["u0", "u1", "result"],
                     snapshots=snapshots)
    n, T = 6, 5
    u0, u1 = rand(n, n, grad=True), rand(n, n, seed=3, grad=True)
    k = (0.05 + 0.1 * rand(n, n, seed=1).abs()).requires_grad_()
    d = rand(T, n, n, seed=2)
    keep = (u0.detach().clone(), u1.detach().clone())
    gradcheck(lambda a, b, k: op(u0=a, u1=b, k=k, d=d, n=n, steps=T),
              (u0, u1, k))
    s0, s1, J = op(u0=u0, u1=u1, k=k, d=d, n=n, steps=T)
    (s0.sum() + (s1 * s1).sum() + J).backward()
    assert torch.equal(u0.detach(), keep[0])         # inputs untouched
    assert torch.equal(u1.detach(), keep[1])


def test_snapshot_counts_bitwise():
    f, n, T = compiled("diffusion"), 8, 7
    u, d = rand(n, n), rand(T, n, n, seed=2)
    grads = []
    for s in (1, 2, 3, T, 100):
        k = (0.05 + 0.1 * rand(n, n, seed=1).abs()).requires_grad_()
        st.function(f, snapshots=s)(u0=u, u1=u, k=k, d=d, n=n,
                                    steps=T).backward()
        grads.append(k.grad)
    assert all(torch.equal(g, grads[0]) for g in grads)


def test_gradcheck_two_outputs_scalar_and_passive():
    op = st.function(compiled("two_outputs"))
    n = 9
    x, y = rand(n, grad=True), rand(n, seed=1, grad=True)
    c = rand(n, seed=2)
    D = torch.tensor(0.7, dtype=F64, requires_grad=True)
    a0, b0 = rand(n, seed=3), rand(n, seed=4)
    gradcheck(lambda x, y, D: op(x, y, c, a0, b0, D, 0.3, n), (x, y, D))
    a, b = op(x=x, y=y, c=c, a=a0, b=b0, D=D, s=0.3, n=n)
    assert a.requires_grad and b.requires_grad
    # a passive array that requires grad gets none
    c.requires_grad_()
    (a.sum() + b.sum()).backward()
    assert c.grad is None and D.grad.dim() == 0 and x.grad.shape == (n,)


def test_gradcheck_accumulate_start():
    op = st.function(compiled("accumulate"))
    n = 5
    x, v0 = rand(n, n, grad=True), rand(n, seed=1, grad=True)
    gradcheck(lambda x, v: op(x, v, n), (x, v0))
    v = op(x, v0, n)
    assert torch.allclose(v, v0 + (x * x).sum(0), rtol=1e-14, atol=1e-14)


def test_gradcheck_result():
    op = st.function(compiled("energy"))
    p, q = rand(11, grad=True), rand(11, seed=1, grad=True)
    gradcheck(lambda p, q: op(p, q, 11), (p, q))
    J = op(p, q, 11)
    assert J.dim() == 0
    assert torch.allclose(J, 0.5 * (p * q * q).sum(), rtol=1e-14)


def test_result_and_array_outputs():
    f = compiled("both")
    p, q = rand(7, grad=True), rand(7, seed=1, grad=True)
    r0 = rand(7, seed=2, grad=True)
    J = st.function(f)(p, q, r0, 7)
    assert J.dim() == 0                       # the default: the result
    op = st.function(f, outputs=["r", "result"])
    gradcheck(lambda p, q, r0: op(p, q, r0, 7), (p, q, r0))
    r, J2 = op(p=p, q=q, r=r0, n=7)
    assert torch.equal(J2, J) and r.shape == (7,)
    # one output unused: its gradient is zero, the other's flows
    J2.backward()
    assert torch.equal(r0.grad, torch.zeros(7, dtype=F64))
    assert torch.allclose(p.grad, q.detach() ** 2, rtol=1e-14)


def test_module_parameters_and_arguments():
    f = compiled("filter")
    w = torch.zeros(3, 3, dtype=F64)
    w[1, 1] = 1.0
    layer = st.Module(f, params={"w": w})
    assert [n for n, _ in layer.named_parameters()] == ["w"]
    U, R = rand(6, 5), torch.zeros(6, 5, dtype=F64)
    a = layer(U, R, 6, 5)
    b = layer(u=U, r=R, n=6, m=5)
    c = layer(U, R, n=6, m=5)
    assert torch.equal(a, b) and torch.equal(a, c)
    assert torch.equal(a[1:-1, 1:-1], U[1:-1, 1:-1])   # the identity
    a.sum().backward()
    assert layer.w.grad.shape == (3, 3)
    with pytest.raises(TypeError, match="twice"):
        layer(U, R, 6, 5, u=U)
    with pytest.raises(TypeError, match="besides its parameters"):
        layer(U, R, 6, 5, 1)


def test_float32_against_float64():
    op32, op64 = st.function(compiled("filter_f32")), \
        st.function(compiled("filter"))
    U, W, G = rand(9, 8), rand(3, 3, seed=1), rand(9, 8, seed=2)
    grads = []
    for op, dtype in ((op32, torch.float32), (op64, F64)):
        u, w = U.to(dtype).requires_grad_(), W.to(dtype).requires_grad_()
        r = op(u, w, torch.zeros(9, 8, dtype=dtype), 9, 8)
        assert r.dtype == dtype
        r.backward(G.to(dtype))
        grads.append((r.detach(), u.grad, w.grad))
    for a, b in zip(*grads):
        assert a.dtype == torch.float32
        assert torch.allclose(a.double(), b, rtol=1e-5, atol=1e-6)


# -- the same numbers as the package's own adjoint -----------------------

def test_bitwise_equal_to_adjoint():
    f = compiled("filter")
    U, W = rand(12, 10, grad=True), rand(3, 3, seed=1, grad=True)
    seed = rand(12, 10, seed=2)
    st.function(f)(U, W, torch.zeros(12, 10, dtype=F64), 12, 10).backward(
        seed)
    g = f.adjoint(U.detach().numpy().copy(), W.detach().numpy().copy(),
                  np.zeros((12, 10)), 12, 10, r_b=seed.numpy().copy(),
                  threads=torch.get_num_threads())
    assert np.array_equal(U.grad.numpy(), g["u"])
    assert np.array_equal(W.grad.numpy(), g["w"])


def test_bitwise_equal_to_value_and_grad():
    f, n, T = compiled("diffusion"), 8, 6
    u, d = rand(n, n), rand(T, n, n, seed=2)
    k = (0.05 + 0.1 * rand(n, n, seed=1).abs()).requires_grad_()
    J = st.function(f, snapshots=2)(u0=u, u1=u, k=k, d=d, n=n, steps=T)
    J.backward()
    ref = f.value_and_grad(u0=u.numpy().copy(), u1=u.numpy().copy(),
                           k=k.detach().numpy().copy(), d=d.numpy(), n=n,
                           steps=T, snapshots=2)
    assert J.item() == ref.value
    assert np.array_equal(k.grad.numpy(), ref.grads["k"])


# -- composition ------------------------------------------------------------

def test_composes_with_torch_ops():
    op = st.function(compiled("filter"))
    x, W = rand(8, 7, grad=True), rand(3, 3, seed=1, grad=True)

    def loss(x, W):
        r = op(x.exp(), W * 2.0, torch.zeros(8, 7, dtype=F64), 8, 7)
        return (r * r).mean()

    gradcheck(loss, (x, W))
    L = loss(x, W)
    L.backward()
    u = x.detach().exp()
    ref = torch.nn.functional.conv2d(u[None, None], 2 * W.detach()[None,
                                                                   None])
    assert torch.allclose(L.detach(), (ref * ref).sum() / 56, rtol=1e-13)


def test_no_grad():
    op = st.function(compiled("filter"))
    U, W = rand(6, 6, grad=True), rand(3, 3, seed=1, grad=True)
    with torch.no_grad():
        r = op(U, W, torch.zeros(6, 6, dtype=F64), 6, 6)
    assert not r.requires_grad and r.grad_fn is None


def test_written_arrays_are_initial_values():
    op = st.function(compiled("filter"))
    U, W = rand(6, 7), rand(3, 3, seed=1)
    R0 = rand(6, 7, seed=2, grad=True)
    keep = R0.detach().clone()
    r = op(U, W, R0, 6, 7)
    assert torch.equal(R0.detach(), keep)             # not modified
    inner = (slice(1, -1), slice(1, -1))
    border = torch.ones(6, 7, dtype=torch.bool)
    border[inner] = False
    assert torch.equal(r.detach()[border], keep[border])
    seed = rand(6, 7, seed=3)
    r.backward(seed)
    expect = seed.clone()
    expect[inner] = 0.0
    assert torch.equal(R0.grad, expect)


# -- reproducible training ----------------------------------------------------

def training_run(threads=None, torch_threads=None, steps=5):
    f = compiled("filter")
    old = torch.get_num_threads()
    if torch_threads:
        torch.set_num_threads(torch_threads)
    try:
        us = FILTER.images(2, 24)
        w_true = torch.tensor(FILTER.W_TRUE, dtype=F64)
        with torch.no_grad():
            ts = torch.nn.functional.conv2d(us[:, None], w_true[None, None])
        layer = st.Module(f, params={"w": torch.eye(3, dtype=F64)},
                          threads=threads)
        FILTER.train(layer, [(us[0], ts[0, 0]), (us[1], ts[1, 0])], steps)
        return layer.w.detach().clone()
    finally:
        torch.set_num_threads(old)


def test_training_bitwise_reproducible():
    first = training_run()
    assert not torch.equal(first, torch.eye(3, dtype=F64))
    assert torch.equal(first, training_run())
    assert torch.equal(training_run(threads=1), training_run(threads=2))
    assert torch.equal(training_run(torch_threads=1),
                       training_run(torch_threads=2))
    assert torch.equal(first, training_run(threads=1))


# -- torch's own conv2d is the reference --------------------------------------

def conv_path(U, W):
    return torch.nn.functional.conv2d(U[None, None], W[None, None])[0, 0]


def test_against_conv2d():
    op = st.function(compiled("filter"))
    n, m = 14, 11
    G = rand(n - 2, m - 2, seed=5)
    results = []
    for path in ("stencil", "conv2d"):
        U, W = rand(n, m, grad=True), rand(3, 3, seed=1, grad=True)
        if path == "stencil":
            r = op(U, W, torch.zeros(n, m, dtype=F64), n, m)[1:-1, 1:-1]
        else:
            r = conv_path(U, W)
        (r * G).sum().backward()
        results.append((r.detach(), U.grad, W.grad))
    for a, b in zip(*results):
        assert torch.allclose(a, b, rtol=0, atol=1e-12)
    # the comparison can fail: a flipped filter is a convolution, not
    # torch's cross-correlation
    U, W = rand(n, m), rand(3, 3, seed=1)
    flipped = conv_path(U, W.flip(0, 1))
    assert (flipped - results[0][0]).abs().max() > 1e-3


# -- refusals -------------------------------------------------------------

def test_refusals():
    op = st.function(compiled("filter"))
    U, W, R = rand(6, 6), rand(3, 3, seed=1), torch.zeros(6, 6, dtype=F64)
    with pytest.raises(TypeError, match=r"\.to\(torch\.float64\)"):
        op(U.float(), W, R, 6, 6)
    with pytest.raises(TypeError, match=r"\.contiguous\(\)"):
        op(U.t(), W, R, 6, 6)
    with pytest.raises(TypeError, match=r"\.cpu\(\)"):
        op(torch.empty(6, 6, dtype=F64, device="meta"), W, R, 6, 6)
    with pytest.raises(TypeError, match="takes a tensor"):
        op(U.numpy(), W, R, 6, 6)
    with pytest.raises(TypeError):
        op(U, W, R)
    with pytest.raises(ValueError, match="outputs= names the arrays"):
        st.function(compiled("filter"), outputs="u")
    with pytest.raises(ValueError, match="has no argument"):
        st.Module(compiled("filter"), params={"v": W})


def test_double_backward_refused():
    op = st.function(compiled("filter"))
    U, W = rand(6, 6, grad=True), rand(3, 3, seed=1, grad=True)
    r = op(U, W, torch.zeros(6, 6, dtype=F64), 6, 6)
    (gw,) = torch.autograd.grad((r * r).sum(), W, create_graph=True)
    with pytest.raises(RuntimeError, match="once_differentiable"):
        gw.sum().backward()
    with pytest.raises(RuntimeError):
        torch.autograd.gradgradcheck(
            lambda u, w: op(u, w, torch.zeros(6, 6, dtype=F64), 6, 6),
            (U, W))


def test_repeated_calls_are_checked_per_shape_and_size():
    """A call like one checked before skips the checks; a call with other
    sizes or shapes is checked again: sizes past the arrays are refused,
    not run out of bounds."""
    op = st.function(compiled("filter"))
    n, m = 10, 9
    U, W = rand(n, m), rand(3, 3, seed=1)
    first = op(U, W, torch.zeros(n, m, dtype=F64), n, m)
    again = op(U, W, torch.zeros(n, m, dtype=F64), n, m)
    assert torch.equal(first, again)
    with pytest.raises(ValueError):
        op(U, W, torch.zeros(n, m, dtype=F64), n + 1, m)
    with pytest.raises(ValueError):
        op(rand(n - 1, m), W, torch.zeros(n, m, dtype=F64), n, m)
    with pytest.raises(TypeError):
        op(U, W, torch.zeros(n, m, dtype=F64), n, 2.5)
