"""Errors at the user's line: each refusal of the front end (a
`raise FrontendError` or `_fail` in python/stencilad/frontend/ and
stencilad/perforad.py) is a sa.FrontendError whose message starts with
`<this file>:<line>:` of the statement that caused it and names the
expression; and the compiler's refusals of front-end kernels come back as a
CompileError located at this file's lines.

Each case below marks its offending line with `# <- here`. A raise site of
the front end that no case reaches fails `test_every_refusal_is_tested`."""

import ast
import inspect
import os

import numpy as np
import pytest

import stencilad as sa
from stencilad.perforad import makeLoopNest, printfunction

import sympy as sp  # noqa: E402  (a dependency of the front end)

PACKAGE = os.path.dirname(sa.__file__)
SOURCES = [os.path.join(PACKAGE, "frontend", f) for f in sorted(
    os.listdir(os.path.join(PACKAGE, "frontend"))) if f.endswith(".py")] + \
    [os.path.join(PACKAGE, "perforad.py")]


def arrays(names, rank=1, **kw):
    return [sa.Array(x, rank, **kw) for x in names.split()]


# -- the cases: each returns what its message must name ---------------------
def case_offset_float():
    i = sa.indices("i")
    u, r = arrays("u r")
    with sa.Kernel("k").domain({i: (1, 5)}):
        r[i] = u[i + 0.5]  # <- here
    return ["u(i + 0.5)", "0.5", "integer"]


def case_offset_size():
    i = sa.indices("i")
    n = sa.size("n")
    u, r = arrays("u r")
    with sa.Kernel("k").domain({i: (1, n)}):
        r[i] = u[i + n]  # <- here
    return ["u(i + n)", "i + n", "counter plus an integer constant"]


def case_index_product():
    i = sa.indices("i")
    u, r = arrays("u r")
    with sa.Kernel("k").domain({i: (1, 5)}):
        r[i] = u[2 * i]  # <- here
    return ["u(2*i)", "2*i", "(i + 1)"]


def case_index_two_counters():
    i, j = sa.indices("i j")
    u = sa.Array("u", 1)
    r = sa.Array("r", 2)
    with sa.Kernel("k").domain({i: (1, 5), j: (1, 5)}):
        r[i, j] = u[i * j]  # <- here
    return ["u(i*j)", "i*j"]


def case_fixed_negative():
    i = sa.indices("i")
    w = sa.Array("w", shape=(3, 3))
    r = sa.Array("r", 1)
    with sa.Kernel("k").domain({i: (1, 5)}):
        r[i] = w[1, -1]  # <- here
    return ["w(1, -1)", "-1"]


def case_not_an_array():
    i = sa.indices("i")
    r = sa.Array("r", 1)
    f = sp.Function("f")
    with sa.Kernel("k").domain({i: (1, 5)}):
        r[i] = f(i)  # <- here
    return ["f(i)", "stencilad.Array"]


def case_read_written():
    i = sa.indices("i")
    u, r, s = arrays("u r s")
    with sa.Kernel("k").domain({i: (1, 5)}):
        r[i] = u[i]
        s[i] = r[i - 1]  # <- here
    return ["r(i - 1)", "r is written in this domain"]


def case_write_read():
    i = sa.indices("i")
    u, r = arrays("u r")
    with sa.Kernel("k").domain({i: (1, 5)}):
        r[i] = u[i + 1]
        u[i] = 1.0  # <- here
    return ["u(i)", "u is read in this domain"]


def case_write_not_permutation():
    i, j = sa.indices("i j")
    u, r = arrays("u r", 2)
    with sa.Kernel("k").domain({i: (1, 5), j: (1, 5)}):
        r[i, i] = u[i, j]  # <- here
    return ["r(i, i)", "each counter once"]


def case_write_shifted():
    i = sa.indices("i")
    u, r = arrays("u r")
    with sa.Kernel("k").domain({i: (1, 5)}):
        r[i + 1] = u[i]  # <- here
    return ["r(i + 1)", "shift the reads"]


def case_assigned_twice():
    i = sa.indices("i")
    u, r = arrays("u r")
    with sa.Kernel("k").domain({i: (1, 5)}):
        r[i] = u[i]
        r[i] = 2 * u[i]  # <- here
    return ["r(i)", "already assigned"]


def case_outside_domain():
    i = sa.indices("i")
    r = sa.Array("r", 1)
    sa.Kernel("k")
    r[i] = 1.0  # <- here
    return ["r[...] = ...", "with kernel.domain"]


def case_nested_domains():
    i, j = sa.indices("i j")
    k = sa.Kernel("k")
    with k.domain({i: (0, 4)}):
        with k.domain({j: (0, 4)}):  # <- here
            pass
    return ["inside another domain"]


def case_rank_mismatch():
    i, j = sa.indices("i j")
    u, r = arrays("u r")
    with sa.Kernel("k").domain({i: (1, 5)}):
        r[i] = u[i, j]  # <- here
    return ["u has rank 1", "2 indices"]


def case_piecewise_otherwise():
    i = sa.indices("i")
    u, r = arrays("u r")
    k = sa.Kernel("k")
    with k.domain({i: (1, 5)}):
        r[i] = sp.Piecewise((u[i], u[i] > 0))  # <- here
    k.mlir
    return ["Piecewise((u(i), u(i) > 0))", "otherwise", "True"]


def case_unsupported_function():
    i = sa.indices("i")
    u, r = arrays("u r")
    k = sa.Kernel("k")
    with k.domain({i: (1, 5)}):
        r[i] = sp.gamma(u[i])  # <- here
    k.mlir
    return ["gamma(u(i))", "gamma"]


def case_not_finite():
    i = sa.indices("i")
    u, r = arrays("u r")
    k = sa.Kernel("k")
    with k.domain({i: (1, 5)}):
        r[i] = u[i] + sp.oo  # <- here
    k.mlir
    return ["oo", "finite"]


def case_f32_overflow():
    i = sa.indices("i")
    x, y = arrays("x y", dtype="f32")
    k = sa.Kernel("k")
    with k.domain({i: (1, 5)}):
        y[i] = x[i] * 1e39  # <- here
    k.mlir
    return ["1.0e+39", "overflows f32", "dtype='f64'"]


def test_f64_overflow():
    """The same refusal in f64, where only SymPy's numbers can be that
    large (the site is case_f32_overflow's)."""
    i = sa.indices("i")
    x, y = arrays("x y")
    k = sa.Kernel("k")
    with k.domain({i: (1, 5)}):
        y[i] = x[i] * sp.Integer(10) ** 400
    line = inspect.currentframe().f_lineno - 1
    with pytest.raises(sa.FrontendError) as info:
        k.mlir
    assert str(info.value).startswith("%s:%d: " % (__file__, line))
    assert "overflows f64" in str(info.value)


def test_f32_largest_constant():
    """The largest finite f32 is accepted, and is what the constant
    holds."""
    i = sa.indices("i")
    x, y = arrays("x y", dtype="f32")
    k = sa.Kernel("f32_largest")
    with k.domain({i: (1, 5)}):
        y[i] = x[i] * 3.4028234663852886e38
    xs, ys = np.full(6, 0.5, np.float32), np.zeros(6, np.float32)
    k.compile(adjoint=False)(x=xs, y=ys)
    assert np.array_equal(ys[1:5], np.float32(3.4028234663852886e38) *
                          xs[1:5])


def case_condition_as_value():
    i = sa.indices("i")
    u, r = arrays("u r")
    k = sa.Kernel("k")
    with k.domain({i: (1, 5)}):
        r[i] = u[i] > 0  # <- here
    k.mlir
    return ["u(i) > 0", "condition, not a value", "sp.Piecewise((1, cond)"]


def case_array_without_indices():
    i = sa.indices("i")
    u, r = arrays("u r")
    with sa.Kernel("k").domain({i: (1, 5)}):
        r[i] = u[i - 1] + u  # <- here
    return ["u is an array", "u[i, ...]"]


def case_not_an_expression():
    i = sa.indices("i")
    sa.Kernel("k").domain({i: (0, "n")})  # <- here
    return ["upper bound of i", "'n'", "not a number or an expression"]


def test_more_values_refused():
    """Other values that are no expression of the stencil: an imaginary
    constant, None as a bound, a string result, an array as a result; and
    rotate= of one array."""
    i = sa.indices("i")
    n = sa.size("n")
    u, r = arrays("u r")
    k = sa.Kernel("k")
    with k.domain({i: (0, n)}):
        r[i] = sp.I * u[i]
    with pytest.raises(sa.FrontendError, match="I: is not a finite real"):
        k.mlir
    with pytest.raises(sa.FrontendError, match="upper bound of i is None"):
        k.domain({i: (0, None)})
    with pytest.raises(sa.FrontendError, match="result is 'abc'"):
        k.returns("abc")
    with pytest.raises(sa.FrontendError, match="u is an array"):
        k.returns(u)
    with pytest.raises(sa.FrontendError, match="an extent of t is 'n'"):
        k.temporary("t", ("n",))


def case_condition():
    i = sa.indices("i")
    u, r = arrays("u r")
    k = sa.Kernel("k")
    with k.domain({i: (1, 5)}):
        r[i] = sp.Piecewise((u[i], sp.Xor(u[i] > 0, u[i] < 1)),  # <- here
                            (0, True))
    k.mlir
    return ["(u(i) > 0) ^ (u(i) < 1)", "comparison"]


def case_read_at_top_level():
    i = sa.indices("i")
    u, r = arrays("u r")
    k = sa.Kernel("k")
    J = k.sum(u[i], {i: (0, 4)})
    k.returns(J + r[0])  # <- here
    k.mlir
    return ["r(0)", "outside a domain"]


def case_bound_not_affine():
    i = sa.indices("i")
    n, m = sa.size("n m")
    u, r = arrays("u r")
    k = sa.Kernel("k")
    with k.domain({i: (0, n * m)}):  # <- here
        r[i] = u[i]
    k.mlir
    return ["m*n", "affine"]


def case_bound_fraction():
    i = sa.indices("i")
    n = sa.size("n")
    u, r = arrays("u r")
    k = sa.Kernel("k")
    with k.domain({i: (0, n / 2)}):  # <- here
        r[i] = u[i]
    k.mlir
    return ["n/2", "integer coefficients", "sp.floor(n / 2)"]


def case_bound_float():
    i = sa.indices("i")
    D = sa.scalar("D")
    u, r = arrays("u r")
    k = sa.Kernel("k")
    with k.domain({i: (0, D)}):  # <- here
        r[i] = u[i] * D
    k.mlir
    return ["D", "sizes"]


def case_steps_float():
    i = sa.indices("i")
    n = sa.size("n")
    D = sa.scalar("D")
    a, b = arrays("a b", active=True)
    k = sa.Kernel("k")
    with k.time_loop(D, rotate=(a, b)):  # <- here
        with k.domain({i: (1, n - 1)}):
            b[i] = a[i - 1] * D
    k.mlir
    return ["D", "integer"]


def case_shape_not_integer():
    i = sa.indices("i")
    n, m = sa.size("n m")
    u = sa.Array("u", 1)
    k = sa.Kernel("k")
    t = k.temporary("t", (n * m,))  # <- here
    with k.domain({i: (0, n)}):
        t[i] = u[i]
    k.mlir
    return ["m*n", "integer expression"]


def case_foreign_counter():
    i, j = sa.indices("i j")
    u, r = arrays("u r")
    k = sa.Kernel("k")
    with k.domain({i: (0, 4)}):
        r[i] = u[i] * j  # <- here
    k.mlir
    return ["j", "counter of this domain"]


def case_mixed_float_types():
    i = sa.indices("i")
    u = sa.Array("u", 1, dtype="f32")
    r = sa.Array("r", 1)
    k = sa.Kernel("k")  # <- here
    with k.domain({i: (0, 4)}):
        r[i] = u[i]
    k.mlir
    return ["f32 u", "f64 r", "same dtype="]


def case_args_missing():
    i = sa.indices("i")
    u, r = arrays("u r")
    k = sa.Kernel("k", args=[u])  # <- here
    with k.domain({i: (0, 4)}):
        r[i] = u[i]
    k.mlir
    return ["k uses r", "add it to args="]


def case_same_names():
    i = sa.indices("i")
    u = sa.Array("u", 1)
    v = sa.Array("u", 1)  # <- here
    k = sa.Kernel("k")
    with k.domain({i: (0, 4)}):
        v[i] = u[i]
    k.mlir
    return ["two arguments named u", "different names"]


def case_bounds_form():
    i = sa.indices("i")
    sa.Kernel("k").domain([i, 0, 4])  # <- here
    return ["{i: (lo, hi)}"]


def case_bounds_pair():
    i = sa.indices("i")
    sa.Kernel("k").domain({i: (0, 1, 2)})  # <- here
    return ["(lo, hi)", "i"]


def case_no_counter():
    sa.Kernel("k").domain({})  # <- here
    return ["at least one counter"]


def case_counter_twice():
    i = sa.indices("i")
    sa.Kernel("k").domain({i: (0, 4)}, (i, 0, 4))  # <- here
    return ["twice", "i"]


def case_bound_own_counter():
    i = sa.indices("i")
    sa.Kernel("k").domain({i: (0, i + 1)})  # <- here
    return ["own counter i"]


def case_left_side():
    i = sa.indices("i")
    u, r = arrays("u r")
    d = sa.Kernel("k").domain({i: (0, 4)})
    d.assign(r[i] + 1, u[i])  # <- here
    return ["r(i) + 1", "array element"]


def case_write_at_step():
    i = sa.indices("i")
    n, steps = sa.size("n steps")
    a, b = arrays("a b", active=True)
    data = sa.Array("data", shape=(steps, n))
    k = sa.Kernel("k")
    with k.time_loop(steps, rotate=(a, b)) as t:
        with k.domain({i: (0, n)}):
            data[t, i] = a[i]  # <- here
    return ["data(t, i)", "at the step"]


def case_table_without_extents():
    i = sa.indices("i")
    n, steps = sa.size("n steps")
    a, b = arrays("a b", active=True)
    data = sa.Array("data", 2)
    k = sa.Kernel("k")
    with k.time_loop(steps, rotate=(a, b)) as t:
        with k.domain({i: (1, n - 1)}):
            b[i] = a[i] * data[t, i]  # <- here
    k.mlir
    return ["data(t, i)", "shape=(steps, n, ...)"]


def case_rotate_empty():
    steps = sa.size("steps")
    sa.Kernel("k").time_loop(steps, rotate=())  # <- here
    return ["rotate="]


def test_rotate_one_array():
    """rotate=u (not a tuple) is refused, not iterated for ever."""
    steps = sa.size("steps")
    a = sa.Array("a", 1)
    with pytest.raises(sa.FrontendError, match="rotate=.u_prev, u, u_next"):
        sa.Kernel("k").time_loop(steps, rotate=a)
    with pytest.raises(TypeError, match="not iterable"):
        list(a)


def case_rotate_twice():
    steps = sa.size("steps")
    a = sa.Array("a", 1)
    sa.Kernel("k").time_loop(steps, rotate=(a, a))  # <- here
    return ["rotate=", "twice"]


def case_final_not_rotated():
    steps = sa.size("steps")
    a, b, c = arrays("a b c")
    loop = sa.Kernel("k").time_loop(steps, rotate=(a, b))
    loop.final(c)  # <- here
    return ["c is not rotated"]


def case_final_inside_loop():
    i = sa.indices("i")
    n, steps = sa.size("n steps")
    a, b, r = arrays("a b r", active=True)
    k = sa.Kernel("k")
    loop = k.time_loop(steps, rotate=(a, b))
    with loop:
        with k.domain({i: (1, n - 1)}):
            r[i] = loop.final(b)[i]  # <- here
    return ["b_final", "after the loop's `with` block"]


def case_rotated_after_loop():
    i = sa.indices("i")
    n, steps = sa.size("n steps")
    a, b, r = arrays("a b r", active=True)
    k = sa.Kernel("k")
    with k.time_loop(steps, rotate=(a, b)):
        with k.domain({i: (1, n - 1)}):
            b[i] = a[i - 1]
    with k.domain({i: (0, n)}):
        r[i] = b[i]  # <- here
    return ["b", "loop.final(b)"]


def case_second_loop():
    steps = sa.size("steps")
    a, b = arrays("a b")
    k = sa.Kernel("k")
    k.time_loop(steps, rotate=(a, b))
    k.time_loop(steps, rotate=(a, b))  # <- here
    return ["second time loop"]


def case_kernel_name():
    sa.Kernel("my kernel")  # <- here
    return ["'my kernel'", "identifier"]


def case_dtype():
    sa.Array("u", 1, dtype="float64")  # <- here
    return ["'float64'", "'f32', 'f64'"]


def case_name():
    sa.scalar("D", dtype="f64"), sa.size("n"), sa.Array("2u", 1)  # <- here
    return ["'2u'", "identifier"]


def case_rank_missing():
    sa.Array("u")  # <- here
    return ["Array u", "Array('u', 2)"]


def case_rank_and_shape():
    sa.Array("u", 2, shape=(3,))  # <- here
    return ["Array u", "rank 2", "1 extents"]


# PerforAD's API.
def case_perforad_lhs():
    i = sp.Symbol("i")
    u = sp.Function("u")
    makeLoopNest(lhs=i, rhs=u(i), counters=[i], bounds={i: [1, 4]})  # <- here
    return ["lhs", "u(i, j)"]


def case_perforad_bounds():
    i, j = sp.symbols("i j")
    u, r = sp.Function("u"), sp.Function("r")
    makeLoopNest(lhs=r(i, j), rhs=u(i, j), counters=[i, j],  # <- here
                 bounds={i: [1, 4]})
    return ["bounds", "j"]


def case_perforad_shadow_name():
    i = sp.Symbol("i")
    u, r = sp.Function("u"), sp.Function("r")
    lp = makeLoopNest(lhs=r(i), rhs=u(i) ** 2, counters=[i],
                      bounds={i: [1, 4]})
    lp.diff({u: sp.Function("ub"), r: sp.Function("r_b")})  # <- here
    return ["u_b", "ub"]


def case_perforad_ranks():
    i, j = sp.symbols("i j")
    u, r = sp.Function("u"), sp.Function("r")
    lp = makeLoopNest(lhs=r(i), rhs=u(i) + u(i, j), counters=[i],
                      bounds={i: [1, 4]})
    printfunction(name="f", loopnestlist=[lp], file=os.devnull)  # <- here
    return ["u is used with"]


def case_perforad_adjoint_name():
    i = sp.Symbol("i")
    u, r = sp.Function("u"), sp.Function("r")
    lp = makeLoopNest(lhs=r(i), rhs=u(i) ** 2, counters=[i],
                      bounds={i: [1, 4]})
    printfunction("adjoint", lp.diff({u: sp.Function("u_b"),  # <- here
                                      r: sp.Function("r_b")}),
                  file=os.devnull)
    return ["adjoint", "<primal>_<suffix>"]


def case_perforad_mixed_list():
    i = sp.Symbol("i")
    u, r = sp.Function("u"), sp.Function("r")
    lp = makeLoopNest(lhs=r(i), rhs=u(i) ** 2, counters=[i],
                      bounds={i: [1, 4]})
    adj = lp.diff({u: sp.Function("u_b"), r: sp.Function("r_b")})
    printfunction("f_b", [lp] + adj, file=os.devnull)  # <- here
    return ["printfunction", "not both"]


CASES = [f for name, f in sorted(globals().items())
         if name.startswith("case_")]


def marked_line(case):
    lines, start = inspect.getsourcelines(case)
    marked = [start + k for k, line in enumerate(lines) if "# <- here" in line]
    assert len(marked) == 1, case.__name__
    return marked[0]


def raise_site(error):
    """(file, line) of the front end's statement that raised `error`: the
    innermost frame in the package (the caller of ExprLowering._fail)."""
    frames = []
    tb = error.__traceback__
    while tb is not None:
        if tb.tb_frame.f_code.co_filename.startswith(PACKAGE):
            frames.append((tb.tb_frame.f_code, tb.tb_lineno))
        tb = tb.tb_next
    code, line = frames[-1]
    if code.co_name == "_fail":
        code, line = frames[-2]
    return code.co_filename, line


def refusal(case):
    with pytest.raises(sa.FrontendError) as info:
        case()
    return info.value


@pytest.mark.parametrize("case", CASES, ids=[c.__name__[5:] for c in CASES])
def test_refusal_at_the_users_line(case):
    error = refusal(case)
    message = str(error)
    assert message.startswith("%s:%d: " % (__file__, marked_line(case))), \
        message
    assert (error.filename, error.lineno) == (__file__, marked_line(case))
    expected = _names(case)
    for text in expected:
        assert text in message, (text, message)


def _names(case):
    """What the message must name: the list the case returns (read from
    its source, since the refusal stops the case before its return)."""
    tree = ast.parse(inspect.getsource(case))
    ret = tree.body[0].body[-1]
    return ast.literal_eval(ret.value)


def sites():
    """Every refusal in the front end's source: the lines of each
    `raise FrontendError(...)` and `self._fail(...)` call."""
    out = set()
    for path in SOURCES:
        with open(path, encoding="utf-8") as f:
            tree = ast.parse(f.read())
        for node in ast.walk(tree):
            if isinstance(node, ast.FunctionDef) and node.name == "_fail":
                continue
            call = None
            if isinstance(node, ast.Raise) and isinstance(node.exc, ast.Call):
                call = node.exc
                if getattr(call.func, "id", None) != "FrontendError":
                    continue
            elif isinstance(node, ast.Call) and \
                    getattr(node.func, "attr", None) == "_fail":
                call = node
            if call is not None:
                out.add((path, node.lineno, node.end_lineno))
    # The raise inside _fail itself is its callers' refusal.
    for path in SOURCES:
        with open(path, encoding="utf-8") as f:
            tree = ast.parse(f.read())
        for node in ast.walk(tree):
            if isinstance(node, ast.FunctionDef) and node.name == "_fail":
                out = {s for s in out if not (
                    s[0] == path and node.lineno <= s[1] <= node.end_lineno)}
    return out


def test_every_refusal_is_tested():
    """Each raise site is reached by a case: a new refusal needs a case."""
    found = sites()
    assert len(found) > 40
    hit = set()
    for case in CASES:
        path, line = raise_site(refusal(case))
        spans = [s for s in found if s[0] == path and s[1] <= line <= s[2]]
        assert len(spans) == 1, (case.__name__, path, line)
        hit.add(spans[0])
    missing = sorted(found - hit)
    assert not missing, "refusals without a case: %s" % missing


# -- the compiler's refusals, located at this file's lines ------------------
def compile_passive_rotation():
    i = sa.indices("i")
    n, steps = sa.size("n steps")
    a = sa.Array("a", 1)                       # passive, but rotated
    b, vel = arrays("b vel", active=True)
    k = sa.Kernel("passive_rotation")
    loop = k.time_loop(steps, rotate=(a, b))  # <- here
    with loop:
        with k.domain({i: (1, n - 1)}):
            b[i] = a[i] * vel[i]
    k.sum(loop.final(b)[i] ** 2, {i: (0, n)})
    k.compile()
    return ["rotated array #0", "stencil.active"]


def compile_overwritten_read():
    i = sa.indices("i")
    n = sa.size("n")
    u, r, q = arrays("u r q", active=True)
    k = sa.Kernel("overwritten_read")
    with k.domain({i: (0, n)}):
        r[i] = u[i] ** 2
    with k.domain({i: (0, n)}):  # <- here
        u[i] = r[i] + 1
    with k.domain({i: (0, n)}):
        q[i] = u[i] * 3
    k.compile()
    return ["overwrites an array that an earlier domain reads"]


def compile_fixed_out_of_extent():
    i = sa.indices("i")
    n = sa.size("n")
    w = sa.Array("w", shape=(3, 3), active=True)
    r = sa.Array("r", 1, active=True)
    k = sa.Kernel("fixed_out_of_extent")
    with k.domain({i: (0, n)}):
        r[i] = 2 * w[5, 0]  # <- here
    k.compile()
    return ["fixed index 5", "extent 3"]


COMPILE_CASES = [compile_passive_rotation, compile_overwritten_read,
                 compile_fixed_out_of_extent]


@pytest.mark.parametrize("case", COMPILE_CASES,
                         ids=[c.__name__[8:] for c in COMPILE_CASES])
def test_compiler_refusal_at_the_users_line(case):
    """The front end lets these through; the compiler's error is located at
    the statement of this file that made the refused op."""
    with pytest.raises(sa.CompileError) as info:
        case()
    message = str(info.value)
    errors = [line for line in message.splitlines() if ": error: " in line]
    assert errors, message
    assert errors[0].startswith("%s:%d:" % (__file__, marked_line(case))), \
        message
    for text in _names(case):
        assert text in message, (text, message)


def test_compiler_note_at_the_users_line():
    """A note of the compiler (the earlier domain whose adjoint needs the
    overwritten values) points at this file too."""
    with pytest.raises(sa.CompileError) as info:
        compile_overwritten_read()
    where = "%s:%d:" % (__file__, marked_line(compile_overwritten_read) - 2)
    notes = [line for line in str(info.value).splitlines()
             if ": note: earlier domain" in line]
    assert len(notes) == 1 and notes[0].startswith(where), str(info.value)


def test_compiler_warning_at_the_users_line():
    """A warning (no gradient flows: the output is passive) is located at
    the Kernel(...) line, with a note at the statement that writes."""
    i = sa.indices("i")
    n = sa.size("n")
    x = sa.Array("x", 1, active=True)
    y = sa.Array("y", 1)
    k = sa.Kernel("passive_output")
    kernel_line = inspect.currentframe().f_lineno - 1
    with k.domain({i: (1, n - 1)}):
        y[i] = x[i - 1] * x[i + 1]
    write_line = inspect.currentframe().f_lineno - 1
    with pytest.warns(sa.CompileWarning) as caught:
        k.compile()
    message = str(caught[0].message)
    lines = message.splitlines()
    warning = [t for t in lines if ": warning: " in t]
    note = [t for t in lines if ": note: " in t]
    assert warning[0].startswith("%s:%d:" % (__file__, kernel_line)), message
    assert note[0].startswith("%s:%d:" % (__file__, write_line)), message
