"""stencilad.torch's backward takes grad_output as torch hands it: an
expanded tensor (the gradient of .sum(), stride 0), a strided view, or a
contiguous one give bitwise the same gradients, and grad_output is not
modified (the adjoint adds into a copy). PyTorch is required: without it
the import fails, the test is not skipped."""

import torch

import stencilad as sa
import stencilad.torch as st


def layer():
    i, j = sa.indices("i j")
    n = sa.size("n")
    u = sa.Array("u", 2, active=True)
    w = sa.Array("w", 2, shape=(3, 3), active=True)
    r = sa.Array("r", 2, active=True)
    K = sa.Kernel("grad_output_layer")
    with K.domain({i: (1, n - 1), j: (1, n - 1)}):
        r[i, j] = sum(w[a, b] * u[i + a - 1, j + b - 1]
                      for a in range(3) for b in range(3))
    return st.function(K)


def grads(op, u, w, r0, grad):
    u.grad = w.grad = None
    op(u, w, r0, 7).backward(grad)
    return u.grad.clone(), w.grad.clone()


def test_grad_output_strides():
    op = layer()
    gen = torch.Generator().manual_seed(1)
    u = torch.rand(7, 7, dtype=torch.float64, generator=gen).requires_grad_()
    w = torch.rand(3, 3, dtype=torch.float64, generator=gen).requires_grad_()
    r0 = torch.rand(7, 7, dtype=torch.float64, generator=gen)
    ones = grads(op, u, w, r0, torch.ones(7, 7, dtype=torch.float64))
    expanded = torch.ones((), dtype=torch.float64).expand(7, 7)
    assert expanded.stride() == (0, 0)
    for got in (grads(op, u, w, r0, expanded), grads(
            op, u, w, r0, torch.ones(7, 14, dtype=torch.float64)[:, ::2])):
        assert all(torch.equal(a, b) for a, b in zip(got, ones))
    wide = torch.rand(7, 14, dtype=torch.float64, generator=gen)
    before = wide.clone()
    strided = grads(op, u, w, r0, wide[:, ::2])
    assert torch.equal(wide, before)
    contiguous = grads(op, u, w, r0, wide[:, ::2].contiguous())
    assert all(torch.equal(a, b) for a, b in zip(strided, contiguous))
    # Not trivially equal: the gradients depend on grad_output.
    assert not torch.equal(strided[1], ones[1])
