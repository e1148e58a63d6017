"""The paper's PerforAD scripts (examples/perforad/) run as scripts with the
package under test: what they print, the primal and the module of the
adjoint, compiled and compared with examples/wave3d.mlir and
examples/burgers1d.mlir compiled directly (primal outputs, and the
gradients the adjoint leaves in the shadows), to 1e-15 relative (SymPy
orders the arithmetic its own way; the differences seen are below 2e-16).
And printfunction(file=...) and the inclusive bounds of makeLoopNest
against NumPy."""

import os
import subprocess
import sys

import numpy as np
import pytest
import sympy as sp

import stencilad
from conftest import EXAMPLES, example
from frontend_compare import assert_close, copies
from stencilad.perforad import makeLoopNest, printfunction

REL = 1e-15
PACKAGE_PARENT = os.path.dirname(os.path.dirname(os.path.abspath(
    stencilad.__file__)))


def run_script(name):
    """(primal text, adjoint module text) that examples/perforad/<name>.py
    prints: a function, then the module `--stencil-adjoint` made."""
    env = dict(os.environ, PYTHONPATH=PACKAGE_PARENT)
    done = subprocess.run(
        [sys.executable, os.path.join(EXAMPLES, "perforad", name + ".py")],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)
    assert done.returncode == 0, done.stderr
    primal, sep, adjoint = done.stdout.partition("\nmodule {")
    assert sep and primal.startswith("func.func @%s(" % name), done.stdout
    return primal + "\n", sep.lstrip("\n") + adjoint


@pytest.fixture(scope="module")
def scripts():
    out = {}
    for name in ("wave3d", "burgers1d"):
        primal, adjoint = run_script(name)
        out[name] = (stencilad.compile(primal, adjoint=False)[name],
                     stencilad.compile(adjoint, adjoint=False)[
                         name + "_perf_b"])
    return out


def compare(scripts, name, args, active, rng):
    """The script's primal and adjoint against examples/<name>.mlir's
    (called by keyword, the shadows the same random arrays)."""
    primal, perf_b = scripts[name]
    direct = example(name)[name]
    a, b = copies(args), copies(args)
    primal(**a)
    direct(**b)
    for key, value in args.items():
        if isinstance(value, np.ndarray):
            assert_close(a[key], b[key], "%s output %s" % (name, key), REL)
    shadows = {x + "_b": rng.uniform(-1, 1, args[x].shape) for x in active}
    mine = copies(shadows)
    perf_b(**copies(args), **mine)
    grads = direct.adjoint(**copies(args), **copies(shadows))
    for x in active:
        assert np.any(grads[x] != 0) or x == "u"
        assert_close(mine[x + "_b"], grads[x],
                     "%s gradient of %s" % (name, x), REL)


def test_wave3d_script(scripts, rng):
    N = 7
    args = dict(u=np.zeros((N, N, N)), u_1=rng.uniform(-1, 1, (N, N, N)),
                u_2=rng.uniform(-1, 1, (N, N, N)),
                c=rng.uniform(0, 1, (N, N, N)), D=0.1, n=N)
    compare(scripts, "wave3d", args, ["u", "u_1", "u_2"], rng)


def test_burgers1d_script(scripts, rng):
    N = 40
    args = dict(u=np.zeros(N), u_1=rng.uniform(-1, 1, N), C=0.3, D=0.2,
                n=N)
    compare(scripts, "burgers1d", args, ["u", "u_1"], rng)


def test_printfunction_file(tmp_path, capsys):
    """file= writes the text (and prints nothing); the text returned is
    the same, and compiles."""
    u, v = sp.Function("u"), sp.Function("v")
    i, n = sp.symbols("i n")
    lp = makeLoopNest(lhs=v(i), rhs=3 * u(i - 1), counters=[i],
                      bounds={i: [1, n - 1]})
    path = tmp_path / "shift.mlir"
    text = printfunction(name="shift", loopnestlist=[lp], file=str(path))
    assert capsys.readouterr().out == ""
    assert path.read_text() == text
    assert text.startswith("func.func @shift(")
    f = stencilad.compile(str(path), adjoint=False).shift
    x, y = np.arange(6.0), np.zeros(6)
    f(u=x, v=y, n=6)
    np.testing.assert_array_equal(y, np.r_[0.0, 3 * x[:-1]])


def test_makeloopnest_inclusive_bounds(tmp_path, capsys):
    """bounds={i: [2, n-3], j: [1, m-2]} is 2 <= i <= n-3, 1 <= j <= m-2:
    exactly those points are written."""
    u, v = sp.Function("u"), sp.Function("v")
    i, j, n, m = sp.symbols("i j n m")
    lp = makeLoopNest(lhs=v(i, j), rhs=2 * u(i, j) + 1, counters=[i, j],
                      bounds={i: [2, n - 3], j: [1, m - 2]})
    text = printfunction(name="inclusive", loopnestlist=[lp])
    assert capsys.readouterr().out == text
    f = stencilad.compile(text, adjoint=False).inclusive
    N, M = 9, 7
    x = np.random.default_rng(3).uniform(-1, 1, (N, M))
    y = np.full((N, M), -7.0)
    f(u=x, v=y, n=N, m=M)
    expected = np.full((N, M), -7.0)
    expected[2:N - 2, 1:M - 1] = 2 * x[2:N - 2, 1:M - 1] + 1
    np.testing.assert_array_equal(y, expected)
