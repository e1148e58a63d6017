"""stencilad.import_c: C loop nests imported by stencil-import-c, compiled
by stencilad, the primal against NumPy and the gradient against finite
differences and the dot-product test; refusals and later errors raise
CompileError located at the C source."""

import os

import numpy as np
import pytest

import stencilad as sa
from stencilad.compiler import tool_path

if not os.path.exists(tool_path("stencil-import-c")):
    pytest.skip("stencil-import-c was not built (Clang's development "
                "packages missing)", allow_module_level=True)

HEAT = """\
void heat(int n, double alpha, double u[restrict n][n],
          const double u0[restrict n][n]) {
  for (int i = 1; i < n - 1; i++)
    for (int j = 1; j < n - 1; j++)
      u[i][j] = u0[i][j] + alpha * (u0[i-1][j] + u0[i+1][j] + u0[i][j-1]
                                    + u0[i][j+1] - 4.0 * u0[i][j]);
}
"""

IN_PLACE = """\
void gs(int n, double *restrict u) {
  for (int i = 1; i < n; i++)
    u[i] = 0.5 * (u[i - 1] + u[i]);
}
"""


def write(tmp_path, text, name="kernel.c"):
    path = tmp_path / name
    path.write_text(text)
    return path


def test_heat_primal_and_gradient(tmp_path):
    mod = sa.compile(sa.import_c(write(tmp_path, HEAT), active=["u", "u0"]))
    n, alpha = 9, 0.2
    u0 = np.random.default_rng(0).random((n, n))
    u = np.zeros((n, n))
    mod.heat(n=n, alpha=alpha, u=u, u0=u0)
    ref = u0[1:-1, 1:-1] + alpha * (u0[:-2, 1:-1] + u0[2:, 1:-1]
                                    + u0[1:-1, :-2] + u0[1:-1, 2:]
                                    - 4.0 * u0[1:-1, 1:-1])
    np.testing.assert_allclose(u[1:-1, 1:-1], ref, rtol=1e-15, atol=0)
    report = sa.check_gradient(mod.heat, dict(n=n, alpha=alpha, u=u, u0=u0),
                               linear=True)
    assert report.ok, str(report)
    assert any(line.startswith("ok   heat dot") for line in
               str(report).splitlines()), str(report)


def test_refusal_is_located_at_the_c_line(tmp_path):
    with pytest.raises(sa.CompileError) as err:
        sa.import_c(write(tmp_path, IN_PLACE))
    assert "kernel.c:3:19: error: 'u' is read here and written" in str(err.value)


def test_later_error_is_located_at_the_c_line(tmp_path):
    text = sa.import_c(write(tmp_path, HEAT.replace("heat", "omp_heat")))
    with pytest.raises(sa.CompileError) as err:
        sa.compile(text)
    assert "kernel.c:1:6: error:" in str(err.value)
    assert "reserved for the OpenMP runtime" in str(err.value)


def test_options_reach_the_importer(tmp_path):
    source = "#ifndef SCALE\n#error SCALE\n#endif\n" + HEAT.replace(
        "alpha * (", "SCALE * alpha * (")
    path = write(tmp_path, source)
    with pytest.raises(sa.CompileError):
        sa.import_c(path)
    text = sa.import_c(path, defines={"SCALE": 2.0}, functions=["heat"])
    assert "func.func @heat" in text and "stencil.active" not in text
