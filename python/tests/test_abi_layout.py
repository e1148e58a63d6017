"""The run-time library's structs as the package builds them from the ABI
description (stencil-compile --abi-json, "runtime_structs"): read through
ctypes after a time loop's adjoint, stencil_ckpt_stats must hold what the
schedule did (steps, slots, the optimal forward steps), which it
does only if the fields the JSON lists are the struct the compiled runtime
returns, in its order."""

import ctypes

import numpy as np
import pytest

import stencilad

# A 1-D smoother of two rotated buffers over `steps` steps.
SMOOTH = """
func.func @smooth1(%u0: memref<?xf64> {stencil.active},
                  %u1: memref<?xf64> {stencil.active},
                  %n: index, %steps: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %nm1 = arith.subi %n, %c1 : index
  %r:2 = scf.for %t = %c0 to %steps step %c1 iter_args(%a = %u0, %b = %u1)
      -> (memref<?xf64>, memref<?xf64>) {
    stencil.domain (%i) = (1) to (%nm1) {
      %l = stencil.gather %a[-1] : memref<?xf64>
      %r = stencil.gather %a[1] : memref<?xf64>
      %p = arith.mulf %l, %r : f64
      stencil.store %p to %b : memref<?xf64>
    }
    scf.yield %b, %a : memref<?xf64>, memref<?xf64>
  }
  return
}
"""


@pytest.fixture(scope="module")
def smooth1(tmp_path_factory):
    path = tmp_path_factory.mktemp("layout") / "smooth1.mlir"
    path.write_text(SMOOTH)
    return stencilad.compile(str(path)).smooth1


def last_stats(function):
    module = function.module
    stats = module._lib.stencil_ckpt_last_stats
    stats.restype = module._layout.runtime_struct("stencil_ckpt_stats")
    stats.argtypes = []
    return stats()


@pytest.mark.parametrize("steps,snapshots", [(10, 3), (7, 2), (5, 8)])
def test_checkpoint_stats_through_ctypes(smooth1, steps, snapshots):
    n = 12
    rng = np.random.default_rng(3)
    u0, u1 = rng.uniform(0.5, 1.0, n), rng.uniform(0.5, 1.0, n)
    smooth1.adjoint(u0, u1, n, steps, snapshots=snapshots,
                    u0_b=np.ones(n), u1_b=np.ones(n))
    got = last_stats(smooth1)
    slots = min(snapshots, steps)
    assert (got.steps, got.slots) == (steps, slots)
    # The runtime's own closed form of the optimum, a scalar call.
    optimum = smooth1.module._lib.stencil_ckpt_forward_steps
    optimum.restype = ctypes.c_int64
    optimum.argtypes = [ctypes.c_int64, ctypes.c_int64]
    assert got.forward_steps == optimum(steps, slots)
    assert 1 <= got.stores <= got.forward_steps + 1
    assert got.slot_bytes >= n * 8
    assert got.workspace_bytes >= slots * got.slot_bytes


def test_struct_fields_come_from_the_description(smooth1):
    """The struct is the description's table, field for field."""
    layout = smooth1.module._layout
    fields = layout.runtime_structs["stencil_ckpt_stats"]
    cls = layout.runtime_struct("stencil_ckpt_stats")
    assert [name for name, _ in cls._fields_] == [f["name"] for f in fields]
    assert ctypes.sizeof(cls) == 8 * len(fields)
    with pytest.raises(KeyError, match="no struct stencil_no_such"):
        layout.runtime_struct("stencil_no_such")
