"""An array the front end made and the program dropped still serves its
reads: `loop.final(u)[i, j]` written inline (the view of the last state is
not kept in a variable) compiles, and gives the value of the same kernel
with the view kept, against NumPy."""

import gc

import numpy as np

import stencilad as sa


def _heat(inline):
    i, j = sa.indices("i j")
    n, steps = sa.size("n steps")
    u0, u1 = sa.Array("u0", 2, active=True), sa.Array("u1", 2, active=True)
    K = sa.Kernel("heat_final_%s" % ("inline" if inline else "kept"))
    loop = K.time_loop(steps, rotate=(u0, u1))
    with loop:
        with K.domain({i: (1, n - 1), j: (1, n - 1)}):
            u1[i, j] = u0[i, j] + 0.2 * (u0[i - 1, j] + u0[i + 1, j]
                                         + u0[i, j - 1] + u0[i, j + 1]
                                         - 4 * u0[i, j])
    if inline:
        read = loop.final(u0)[i, j]
    else:
        last = loop.final(u0)
        read = last[i, j]
    gc.collect()
    K.returns(K.sum(read ** 2, {i: (0, n), j: (0, n)}))
    return K.compile()


def _numpy(u, steps):
    u = u.copy()
    for _ in range(steps):
        nxt = u.copy()
        nxt[1:-1, 1:-1] += 0.2 * (u[:-2, 1:-1] + u[2:, 1:-1] + u[1:-1, :-2]
                                  + u[1:-1, 2:] - 4 * u[1:-1, 1:-1])
        u = nxt
    return float(np.sum(u ** 2))


def test_inline_final_view(rng):
    u = rng.uniform(-1, 1, (9, 9))
    for steps in (4, 5):
        want = _numpy(u, steps)
        for inline in (True, False):
            f = _heat(inline)
            got = f(u0=u.copy(), u1=u.copy(), n=9, steps=steps)
            assert abs(got - want) <= 1e-12 * want, (inline, steps)
