"""Every check made before a call refuses what it must, naming the
argument, and nothing is called: the arrays are unchanged afterwards."""

import numpy as np
import pytest

import stencilad
from conftest import EXAMPLES, example, wave3d_args


@pytest.fixture
def wave():
    return example("wave3d").wave3d


def refused(f, args, error, match, **kwargs):
    before = [a.copy() for a in args if isinstance(a, np.ndarray)]
    with pytest.raises(error, match=match):
        f(*args, **kwargs)
    after = [a for a in args if isinstance(a, np.ndarray)]
    for x, y in zip(before, after):
        assert x.tobytes() == y.tobytes(), "the refused call ran"


def with_arg(args, k, value):
    out = list(args)
    out[k] = value
    return out


def test_not_an_array(wave, rng):
    args = wave3d_args(rng)
    refused(wave, with_arg(args, 3, args[3].tolist()), TypeError,
            "'c' must be a numpy.ndarray")


def test_dtype(wave, rng):
    args = wave3d_args(rng)
    refused(wave, with_arg(args, 3, args[3].astype(np.float32)), TypeError,
            "'c' must have dtype float64, not float32")


def test_rank(wave, rng):
    args = wave3d_args(rng)
    refused(wave, with_arg(args, 1, args[1][0]), ValueError,
            "'u_1' must have 3 dimension")


@pytest.mark.parametrize("dim", [0, 1, 2])
def test_too_small_in_each_dimension(wave, rng, dim):
    args = wave3d_args(rng)
    small = np.take(args[1], range(args[1].shape[dim] - 1), axis=dim)
    refused(wave, with_arg(args, 1, small), ValueError,
            "'u_1' has shape .* reads its dimension %d at indices 0..9" % dim)


def test_size_argument_too_large(wave, rng):
    args = wave3d_args(rng)
    refused(wave, with_arg(args, 5, 11), ValueError,
            r"'u_1' has shape \(10, 10, 10\), but the function reads its "
            r"dimension 0 at indices 0..10 \(with n = 11\)")


def test_negative_stride(wave, rng):
    args = wave3d_args(rng)
    refused(wave, with_arg(args, 3, args[3][::-1]), ValueError,
            "'c' has strides")


def test_last_dimension_not_contiguous(wave, rng):
    args = wave3d_args(rng)
    big = rng.uniform(-1, 1, (10, 10, 20))
    refused(wave, with_arg(args, 3, big[:, :, ::2]), ValueError,
            "'c' has strides .* last dimension is contiguous")


def test_fortran_order(wave, rng):
    args = wave3d_args(rng)
    refused(wave, with_arg(args, 3, np.asfortranarray(args[3])), ValueError,
            "'c' has strides")


def test_stride_not_whole_elements(wave, rng):
    args = wave3d_args(rng)
    # Planes 804 bytes apart: not a whole number of doubles.
    raw = np.zeros(10 * 804, dtype=np.uint8).view(np.float64)
    odd = np.lib.stride_tricks.as_strided(raw, shape=(10, 10, 10),
                                          strides=(804, 80, 8))
    refused(wave, with_arg(args, 3, odd), ValueError, "'c' has strides")


def test_read_only_output(wave, rng):
    args = wave3d_args(rng)
    args[0].setflags(write=False)
    refused(wave, args, ValueError, "'u' is written by the function but the "
            "array is read-only")


def test_read_only_input_is_fine(wave, rng):
    args = wave3d_args(rng)
    args[3].setflags(write=False)
    wave(*args)


def test_same_array_twice(wave, rng):
    """u is written: no other argument may share its memory."""
    args = wave3d_args(rng)
    refused(wave, with_arg(args, 1, args[0]), ValueError,
            "'u' and 'u_1' share memory; arrays of one call must not "
            "overlap where the function writes either")


def test_overlapping_views(wave, rng):
    args = wave3d_args(rng)
    big = rng.uniform(-1, 1, (15, 10, 10))
    refused(wave, with_arg(with_arg(args, 0, big[:10]), 3, big[5:]),
            ValueError, "'u' and 'c' share memory")


def test_arrays_only_read_may_alias(wave, rng):
    """u_1, u_2 and c are only read, by the primal and by the adjoint: one
    array may be passed as several of them, with the results of copies."""
    args = wave3d_args(rng)
    aliased = with_arg(with_arg(args, 2, args[1]), 3, args[1][:])
    copies = [a.copy() if isinstance(a, np.ndarray) else a for a in aliased]
    wave(*aliased)
    wave(*copies)
    assert aliased[0].tobytes() == copies[0].tobytes()
    w = rng.uniform(-1, 1, args[0].shape)
    g = wave.adjoint(*aliased, u_b=w.copy())
    h = wave.adjoint(*copies, u_b=w.copy())
    for name in ("u_1", "u_2"):
        assert g[name].tobytes() == h[name].tobytes(), name
    with pytest.raises(ValueError, match="'u_1' and 'u_1_b' share memory"):
        wave.adjoint(*aliased, u_1_b=args[1])


def test_disjoint_views_of_one_buffer_are_fine(wave, rng):
    args = wave3d_args(rng)
    big = rng.uniform(-1, 1, (20, 10, 10))
    wave(*with_arg(with_arg(args, 1, big[:10]), 3, big[10:]))


@pytest.mark.parametrize("k,value,match", [
    (5, 10.0, "'n' must be an integer .*not float"),
    (5, True, "'n' must be an integer .*not bool"),
    (5, "10", "'n' must be an integer"),
    (4, "0.1", "'D' must be a real number"),
    (4, None, "'D' must be a real number"),
    (4, 1j, "'D' must be a real number"),
])
def test_scalar_types(wave, rng, k, value, match):
    refused(wave, with_arg(wave3d_args(rng), k, value), TypeError, match)


def test_integer_too_large(wave, rng):
    refused(wave, with_arg(wave3d_args(rng), 5, 1 << 70), ValueError,
            "does not fit in 64 bits")


def test_numpy_scalars_are_accepted(wave, rng):
    args = wave3d_args(rng)
    wave(*with_arg(with_arg(args, 4, np.float64(0.1)), 5, np.int64(10)))


def test_binding(wave, rng):
    args = wave3d_args(rng)
    with pytest.raises(TypeError, match="missing argument.*n"):
        wave(*args[:5])
    with pytest.raises(TypeError, match="takes 6 arguments, 7 given"):
        wave(*args, 1)
    with pytest.raises(TypeError, match="unexpected argument 'm'"):
        wave(*args, m=1)
    with pytest.raises(TypeError, match="argument 'n' twice"):
        wave(*args, n=10)
    wave(*args[:4], D=0.1, n=10)


def test_adjoint_shadow_shape(wave, rng):
    args = wave3d_args(rng)
    with pytest.raises(ValueError, match="shadow 'u_1_b' must have the shape "
                       "of 'u_1'"):
        wave.adjoint(*args, u_1_b=np.zeros((10, 10, 9)))


def test_adjoint_shadow_overlaps_primal(wave, rng):
    args = wave3d_args(rng)
    with pytest.raises(ValueError, match="'u_1' and 'u_b' share memory"):
        wave.adjoint(*args, u_b=args[1])


def test_adjoint_positional_shadows(wave, rng):
    args = wave3d_args(rng)
    with pytest.raises(TypeError, match="pass shadows, seeds and snapshots "
                       "by name"):
        wave.adjoint(*args, np.zeros((10, 10, 10)))


def test_threads_argument(wave, rng):
    args = wave3d_args(rng)
    for bad in (0, -1, 1.5, True):
        with pytest.raises(ValueError, match="threads must be a positive int"):
            wave(*args, threads=bad)


def test_snapshots(rng):
    f = example("fwi/fwi.mlir").fwi
    from test_examples import fwi_args
    args = fwi_args(rng, steps=4)
    with pytest.raises(ValueError, match="at least 1 snapshot"):
        f.adjoint(*args, snapshots=0)
    with pytest.raises(TypeError, match="snapshots must be an int"):
        f.adjoint(*args, snapshots=2.0)


def test_time_loop_state_shapes(rng):
    """The arrays a time loop rotates must have one shape."""
    f = example("fwi/fwi.mlir").fwi
    from test_examples import fwi_args
    args = fwi_args(rng, steps=4)
    args[2] = np.zeros((11, 10, 10))
    with pytest.raises(ValueError, match="rotates must have one shape"):
        f(*args)


def test_time_loop_trip_count_bounds_the_data(rng):
    """More steps than the traces hold: refused (the data d and the wavelet
    w are read at the step index)."""
    f = example("fwi/fwi.mlir").fwi
    from test_examples import fwi_args
    args = fwi_args(rng, steps=4)
    args[-1] = 5
    with pytest.raises(ValueError, match="'(w|d)' has shape .* dimension 0 at "
                       r"indices 0..4 \(with steps = 5\)"):
        f(*args)


def test_source_outside_the_grid(rng):
    f = example("fwi/fwi.mlir").fwi
    from test_examples import fwi_args
    args = fwi_args(rng, steps=4)
    args[7] = 10   # sx
    with pytest.raises(ValueError, match=r"'u0' has shape .* writes its "
                       r"dimension 0 at indices 0..10 \(with n = 10, sx = 10\)"):
        f(*args)


UNBOUNDED = """
func.func @dyn(%a: memref<?xf64> {stencil.active}, %b: memref<?xf64>,
               %n: index) {
  %c2 = arith.constant 2 : index
  %h = arith.divui %n, %c2 : index
  stencil.domain (%i) = (0) to (%h) {
    %x = stencil.gather %a[0] : memref<?xf64>
    %y = arith.mulf %x, %x : f64
    stencil.store %y to %b : memref<?xf64>
  }
  return
}
"""


def test_unbounded_function_is_refused():
    f = stencilad.compile(UNBOUNDED, adjoint=False).dyn
    with pytest.raises(NotImplementedError, match="cannot be bounded"):
        f(np.zeros(8), np.zeros(8), 8)


def test_gradient_check_of_an_unbounded_time_loop():
    """wave1d_clock's receiver moves with a scalar its time loop carries,
    so its accesses cannot be bounded: calls are refused unless the caller
    opts out, and check_gradient passes the opt-out to every call it
    makes."""
    import os
    from conftest import ROOT
    f = stencilad.compile(os.path.join(
        ROOT, "test", "Integration", "Inputs", "time-loops.mlir")).wave1d_clock
    gen = np.random.default_rng(3)
    n, T = 16, 7
    args = [gen.uniform(-1, 1, n), gen.uniform(-1, 1, n),
            gen.uniform(-1, 1, n), gen.uniform(0.1, 0.4, n),
            gen.uniform(0.05, 0.2, T), gen.uniform(-1, 1, T), 0.3, 2.5, n, 5,
            11, T]
    with pytest.raises(NotImplementedError, match="cannot be bounded"):
        stencilad.check_gradient(f, args)
    report = stencilad.check_gradient(f, args, threads=(1, 2), snapshots=2,
                                      check_bounds=False)
    assert report.ok, str(report)


def test_compile_error_has_the_diagnostic():
    with pytest.raises(stencilad.CompileError, match="<string>:3:"):
        stencilad.compile("func.func @f(%a: memref<?xf64>) {\n"
                          "  return\n  %x = arith.bogus\n}\n")


def test_unknown_pipeline_option():
    with pytest.raises(stencilad.CompileError, match="no_such_option"):
        stencilad.compile(UNBOUNDED, adjoint=False,
                          options={"no_such_option": 1})


def test_bounds_remembered_per_shape_and_integers(wave, rng):
    """A combination of shapes and integer arguments that passed is not
    re-evaluated, but any other one is: a smaller array after a good call
    is still refused."""
    args = wave3d_args(rng)
    wave(*args)
    wave(*args)
    small = args[1][:, :, :9].copy()
    refused(wave, with_arg(args, 1, small), ValueError,
            "'u_1' has shape .* reads its dimension 2 at indices 0..9")
    refused(wave, with_arg(args, 5, 11), ValueError, r"\(with n = 11\)")


def test_refused_schedule_raises():
    """The runtime refuses a store-all workspace that cannot exist (2^40
    steps of 8 MB states): the adjoint computes nothing, and Python raises
    instead of returning the untouched shadows as gradients."""
    import os
    from conftest import ROOT
    f = stencilad.compile(os.path.join(
        ROOT, "test", "Integration", "Inputs", "time-loops.mlir")).decay1d
    n = 1 << 20
    a, b = np.zeros(n), np.zeros(n)
    with pytest.raises(RuntimeError, match="out of memory for .* snapshots"):
        f.adjoint(a, b, 0.5, n, 3, 1 << 40)
    # A schedule that can run clears the error.
    g = f.adjoint(np.ones(16), np.ones(16), 0.5, 16, 3, 4, snapshots=2)
    assert np.any(g["a0"] != 0)


def test_distributed_call_needs_blocks(wave, rng):
    """A function compiled with distribute= runs on MPI processes, each on
    its block (docs/Python.md, "Distributed functions"): called without
    this process's blocks it is refused before anything runs (and before
    MPI is needed); a function that is not distributed takes no blocks."""
    import re
    mod = stencilad.compile(EXAMPLES + "/wave3d.mlir", distribute="auto")
    assert mod.wave3d.distribution["grid"] == [0, 0, 0]
    assert mod.wave3d.distribution["blocks"] == [0, 1, 2, 3]
    args = wave3d_args(rng)
    grid = re.escape("over a 0x0x0 process grid (0: chosen at run time): "
                     "pass blocks=")
    refused(mod.wave3d, args, TypeError, "wave3d is distributed " + grid)
    refused(mod.wave3d.adjoint, args, TypeError,
            "wave3d_adjoint is distributed " + grid)
    refused(wave, args, TypeError, "wave3d is not distributed: it takes no "
            "blocks=", blocks=object())
    with pytest.raises(TypeError, match="wave3d is not distributed"):
        wave.blocks((8, 8, 8))


def test_check_gradient_by_name():
    """A dict of the arguments by name is the list in the function's
    order; a missing or unknown name is a TypeError naming it."""
    import stencilad as sa
    i = sa.indices("i")
    n = sa.size("n")
    u, r = sa.Array("u", 1, active=True), sa.Array("r", 1, active=True)
    k = sa.Kernel("named_check")
    with k.domain({i: (1, n - 1)}):
        r[i] = u[i - 1] * u[i + 1]
    f = k.compile()
    rng = np.random.default_rng(0)
    args = {"n": 9, "r": np.zeros(9), "u": rng.standard_normal(9)}
    assert stencilad.check_gradient(f, args).ok
    with pytest.raises(TypeError, match="unknown x; missing r"):
        stencilad.check_gradient(f, {"n": 9, "u": args["u"], "x": 1})
