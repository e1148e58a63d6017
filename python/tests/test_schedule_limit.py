"""The limit on a time-loop adjoint's recomputation (docs/TimeLoops.md,
section 2): the runtime predicts the steps a checkpointing schedule would
recompute before running it, and refuses one above the limit
(STENCIL_CKPT_MAX_RECOMPUTED_STEPS, in the environment, raises or lowers
it). The package raises the refusal as a RuntimeError, as it does the
out-of-memory one, instead of running O(T^2) steps or returning untouched
shadows as gradients."""

import numpy as np
import pytest

LIMIT = "STENCIL_CKPT_MAX_RECOMPUTED_STEPS"

# smooth1, the time loop of these tests, is compiled in conftest.py.


def arrays(n=16):
    rng = np.random.default_rng(7)
    return [rng.uniform(0.1, 1.0, n) for _ in range(3)]


def test_huge_schedule_is_refused_at_once(smooth1, monkeypatch):
    """2^62 steps with one snapshot would recompute about 2^123 steps: the
    call raises at once, naming the limit."""
    monkeypatch.delenv(LIMIT, raising=False)
    with pytest.raises(RuntimeError, match="would recompute more than "
                       "9223372036854775807 primal steps, more than the "
                       "limit of [0-9]+; give it more snapshots, or set "
                       + LIMIT):
        smooth1.adjoint(*arrays(), 16, 0, 2**62, snapshots=1)
    # Store-all of 2^40 steps recomputes nothing: refused for its memory.
    with pytest.raises(RuntimeError, match="out of memory for .* snapshots"):
        smooth1.adjoint(*arrays(), 16, 0, 2**40)


def test_limit_from_the_environment(smooth1, monkeypatch):
    """With the limit at 0, one snapshot for 6 steps (10 recomputed) is
    refused, store-all is not; the same gradient comes back with the limit
    lifted."""
    monkeypatch.setenv(LIMIT, "0")
    with pytest.raises(RuntimeError, match="of 6 steps with 1 snapshots "
                       "would recompute 10 primal steps, more than the "
                       "limit of 0"):
        smooth1.adjoint(*arrays(), 16, 0, 6, snapshots=1)
    # The objective: the sum of the final state (u0 after an even count).
    stored = smooth1.adjoint(*arrays(), 16, 0, 6, u0_b=np.ones(16))
    assert np.any(stored["u0"] != 0) and np.any(stored["c"] != 0)
    monkeypatch.setenv(LIMIT, "10")
    again = smooth1.adjoint(*arrays(), 16, 0, 6, snapshots=1,
                           u0_b=np.ones(16))
    for name in ("u0", "u1", "c"):
        np.testing.assert_array_equal(again[name], stored[name])


def test_limit_that_is_not_a_number(smooth1, monkeypatch):
    monkeypatch.setenv(LIMIT, "-5")
    with pytest.raises(RuntimeError, match=LIMIT + " must be a decimal "
                       "integer from 0 to 9223372036854775807"):
        smooth1.adjoint(*arrays(), 16, 0, 6, snapshots=2)
