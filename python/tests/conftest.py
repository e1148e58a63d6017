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


@pytest.fixture
def rng():
    return np.random.default_rng(12345)


def wave3d_args(rng, n=10):
    grids = [rng.uniform(-1, 1, (n, n, n)) for _ in range(4)]
    grids[0][:] = 0.0
    return grids + [0.1, n]
