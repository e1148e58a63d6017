"""Importing stencilad where NumPy is missing says what is missing and how
to fix it (docs/Python.md, "Install"): the interpreter that ran, Debian's
package, pip, a venv with --system-site-packages. The same helper serves
SymPy for the front end."""

import os
import subprocess
import sys

import pytest

import stencilad
from stencilad._deps import require

BUILD_PYTHON = os.path.dirname(os.path.dirname(os.path.abspath(
    stencilad.__file__)))


def _assert_explains(message, python, module, package):
    for part in ("'%s'" % module, python, package,
                 "%s -m pip install %s" % (python, module),
                 "/usr/bin/python3", "--system-site-packages"):
        assert part in message, (part, message)


def test_import_without_numpy(tmp_path):
    # A venv that does not see Debian's packages: the first python3 on PATH
    # in many a user's shell.
    venv = tmp_path / "bare"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(venv)],
                   check=True)
    python = str(venv / "bin" / "python")
    env = {k: v for k, v in os.environ.items() if k != "PYTHONHOME"}
    env["PYTHONPATH"] = BUILD_PYTHON
    numpy = subprocess.run([python, "-c", "import numpy"], env=env,
                           capture_output=True, text=True)
    assert numpy.returncode != 0, "%s imports numpy: nothing to test" % python

    proc = subprocess.run([python, "-c", "import stencilad"], env=env,
                          cwd=tmp_path, capture_output=True, text=True)
    assert proc.returncode != 0
    last = proc.stderr[proc.stderr.rindex("ModuleNotFoundError: "):]
    _assert_explains(last, python, "numpy", "python3-numpy")


def test_require_sympy_missing(monkeypatch):
    monkeypatch.setitem(sys.modules, "sympy", None)   # import fails
    with pytest.raises(ImportError) as info:
        require("sympy", "python3-sympy")
    assert info.value.name == "sympy"
    _assert_explains(str(info.value), sys.executable, "sympy",
                     "python3-sympy")


def test_require_present():
    import json
    assert require("json", "libpython3-stdlib") is json
