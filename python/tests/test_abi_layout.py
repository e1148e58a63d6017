"""The run-time library's structs as the package builds them from the ABI
description (stencil-compile --abi-json, "runtime_structs"): read through
ctypes after a time loop's adjoint, stencil_ckpt_stats must hold what the
schedule did (steps, slots, the optimal forward steps), which it
does only if the fields the JSON lists are the struct the compiled runtime
returns, in its order. smooth1 (conftest.py) is the time loop."""

import ctypes

import numpy as np
import pytest


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
    u0, u1, c = (rng.uniform(0.5, 1.0, n) for _ in range(3))
    smooth1.adjoint(u0, u1, c, n, 0, steps, snapshots=snapshots,
                    u0_b=np.ones(n))
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
