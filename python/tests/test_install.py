"""`pip install <build>/python` into a virtual environment, as a user of a
venv does it (docs/Python.md, "Install"): the venv sees Debian's NumPy
(--system-site-packages), pip installs the build tree's package without a
package index (--no-deps --no-build-isolation --no-index), and the
installed copy, run from another folder without PYTHONPATH or
STENCILAD_COMPILE, finds the build tree's stencil-compile, compiles a
stencil and calls it."""

import importlib.util
import os
import subprocess
import sys
import textwrap

import pytest

import stencilad

# The folder holding the package under test (PYTHONPATH=<build>/python):
# what a user hands to pip.
BUILD_PYTHON = os.path.dirname(os.path.dirname(os.path.abspath(
    stencilad.__file__)))

# What `python3 -m venv` and a pip build without isolation need of this
# interpreter, by the Debian package that provides it.
TOOLS = [
    ("ensurepip", "python3-venv"),       # pip and setuptools in the venv
    ("setuptools", "python3-setuptools"),  # the build backend
    ("wheel", "python3-wheel"),          # setuptools' bdist_wheel
]

KERNEL = """
func.func @pair(%u: memref<?xf64> {stencil.active},
                %v: memref<?xf64> {stencil.active}, %n: index) {
  %c1 = arith.constant 1 : index
  %nm1 = arith.subi %n, %c1 : index
  stencil.domain (%i) = (1) to (%nm1) {
    %l = stencil.gather %u[-1] : memref<?xf64>
    %r = stencil.gather %u[1] : memref<?xf64>
    %s = arith.addf %l, %r : f64
    stencil.store %s to %v : memref<?xf64>
  }
  return
}
"""

# Run by the venv's python: the installed copy (not the build tree's), its
# compiler, and v[i] = u[i-1] + u[i+1] on the interior against NumPy.
SCRIPT = """
import os, sys
import numpy as np
import stencilad
from stencilad.compiler import compiler_path

site = os.path.realpath(sys.prefix)
assert os.path.realpath(stencilad.__file__).startswith(site + os.sep), \\
    stencilad.__file__
print("compiler", compiler_path())
mod = stencilad.compile("pair.mlir", adjoint=False)
u = np.random.default_rng(0).uniform(-1, 1, 9)
v = np.zeros(9)
mod.pair(u, v, 9)
want = np.zeros(9)
want[1:-1] = u[:-2] + u[2:]
assert np.array_equal(v, want), (v, want)
print("ok", stencilad.__version__)
"""


def _clean_env(tmp_path):
    """The environment of a user's shell in another folder: no PYTHONPATH,
    no STENCILAD_COMPILE, no pip configuration, a cache of the test's."""
    env = {k: v for k, v in os.environ.items()
           if k not in ("PYTHONPATH", "STENCILAD_COMPILE", "PYTHONHOME")
           and not k.startswith("PIP_")}
    env["PIP_CONFIG_FILE"] = os.devnull
    env["PIP_DISABLE_PIP_VERSION_CHECK"] = "1"
    env["STENCILAD_CACHE"] = str(tmp_path / "cache")
    return env


def _run(args, env, cwd):
    proc = subprocess.run(args, env=env, cwd=cwd, capture_output=True,
                          text=True)
    assert proc.returncode == 0, "%s failed (%d):\n%s%s" % (
        " ".join(map(str, args)), proc.returncode, proc.stdout, proc.stderr)
    return proc.stdout


def test_pip_install_into_venv(tmp_path):
    missing = ["%s (the module %s)" % (package, module)
               for module, package in TOOLS
               if importlib.util.find_spec(module) is None]
    if missing:
        pytest.fail("%s cannot build a virtual environment with the package: "
                    "install the Debian packages %s (scripts/install-deps.sh)"
                    % (sys.executable, ", ".join(missing)))
    assert os.path.isfile(os.path.join(BUILD_PYTHON, "pyproject.toml")), \
        "no pyproject.toml in %s (python/CMakeLists.txt configures it)" \
        % BUILD_PYTHON

    env = _clean_env(tmp_path)
    venv = tmp_path / "venv"
    _run([sys.executable, "-m", "venv", "--system-site-packages", str(venv)],
         env, tmp_path)
    python = str(venv / "bin" / "python")
    _run([python, "-m", "pip", "install", "--no-deps", "--no-build-isolation",
          "--no-index", BUILD_PYTHON], env, tmp_path)

    work = tmp_path / "work"
    work.mkdir()
    (work / "pair.mlir").write_text(KERNEL)
    (work / "script.py").write_text(textwrap.dedent(SCRIPT))
    out = _run([python, "script.py"], env, work)
    compiler = os.path.join(os.path.dirname(BUILD_PYTHON), "bin",
                            "stencil-compile")
    assert "compiler %s\n" % os.path.normpath(compiler) in out, out
    assert "ok %s\n" % stencilad.__version__ in out, out
