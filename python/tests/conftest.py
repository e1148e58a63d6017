"""Fixtures of the stencilad tests: the repository's examples compiled once
per session, into a cache of the session's own (STENCILAD_CACHE, which the
lit test sets; a temporary folder otherwise)."""

import os

import numpy as np
import pytest

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
EXAMPLES = os.path.join(ROOT, "examples")

import stencilad  # noqa: E402  (PYTHONPATH=<build>/python)


@pytest.fixture(scope="session", autouse=True)
def _cache(tmp_path_factory):
    if not os.environ.get("STENCILAD_CACHE"):
        os.environ["STENCILAD_CACHE"] = str(tmp_path_factory.mktemp("cache"))


_modules = {}


def example(name, **kwargs):
    """examples/<name>.mlir (or a path under examples/), compiled once."""
    path = os.path.join(EXAMPLES, name if name.endswith(".mlir")
                        else name + ".mlir")
    key = (path, tuple(sorted(kwargs.items())))
    if key not in _modules:
        _modules[key] = stencilad.compile(path, **kwargs)
    return _modules[key]


# A time loop for the checkpointing tests: a 1-D smoother through two
# rotated buffers whose lower bound and step count are arguments.
SMOOTH1 = """
func.func @smooth1(%u0: memref<?xf64> {stencil.active},
                  %u1: memref<?xf64> {stencil.active},
                  %c: memref<?xf64> {stencil.active},
                  %n: index, %lb: index, %steps: index) {
  %c1 = arith.constant 1 : index
  %nm1 = arith.subi %n, %c1 : index
  %r:2 = scf.for %t = %lb to %steps step %c1 iter_args(%a = %u0, %b = %u1)
      -> (memref<?xf64>, memref<?xf64>) {
    stencil.domain (%i) = (1) to (%nm1) {
      %l = stencil.gather %a[-1] : memref<?xf64>
      %r = stencil.gather %a[1] : memref<?xf64>
      %cl = stencil.gather %c[-1] : memref<?xf64>
      %cr = stencil.gather %c[1] : memref<?xf64>
      %x = arith.mulf %l, %cl : f64
      %y = arith.mulf %r, %cr : f64
      %s = arith.addf %x, %y : f64
      stencil.store %s to %b : memref<?xf64>
    }
    scf.yield %b, %a : memref<?xf64>, memref<?xf64>
  }
  return
}
"""


@pytest.fixture(scope="session")
def smooth1(tmp_path_factory):
    path = tmp_path_factory.mktemp("smooth1") / "smooth1.mlir"
    path.write_text(SMOOTH1)
    return stencilad.compile(str(path)).smooth1


@pytest.fixture
def rng():
    return np.random.default_rng(12345)


def wave3d_args(rng, n=10):
    grids = [rng.uniform(-1, 1, (n, n, n)) for _ in range(4)]
    grids[0][:] = 0.0
    return grids + [0.1, n]
