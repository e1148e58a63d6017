"""Compiler warnings reach Python: a function whose adjoint can only be 0
(its output is not marked stencil.active) compiles, with a CompileWarning
located in the caller's source, from a fresh build and from the cache."""

import warnings

import pytest

import stencilad

UNMARKED_OUTPUT = """
func.func @smooth(%u: memref<?xf64> {stencil.active}, %v: memref<?xf64>,
                  %n: index) {
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


def _compile_warnings(path):
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        mod = stencilad.compile(path)
    return mod, [w for w in caught
                 if issubclass(w.category, stencilad.CompileWarning)]


def test_unmarked_output_warns_at_the_users_line(tmp_path):
    path = tmp_path / "smooth.mlir"
    path.write_text(UNMARKED_OUTPUT)
    for build in ("fresh", "cached"):
        mod, caught = _compile_warnings(str(path))
        assert len(caught) == 1, build
        text = str(caught[0].message)
        assert "writes no argument marked stencil.active" in text
        # The location is the user's file and line, not the build copy.
        assert "%s:2:" % path in text, text
        assert "kernel.mlir" not in text
        assert caught[0].filename == __file__
        assert hasattr(mod.smooth, "adjoint")


def test_clean_function_does_not_warn(tmp_path):
    path = tmp_path / "marked.mlir"
    path.write_text(UNMARKED_OUTPUT.replace(
        "%v: memref<?xf64>,", "%v: memref<?xf64> {stencil.active},"))
    _, caught = _compile_warnings(str(path))
    assert caught == []


if __name__ == "__main__":
    pytest.main([__file__])
