"""The torch examples' own checks can fail: run briefly (too few steps),
each script prints FAIL and exits 1; run long enough, PASS and 0
(test/Integration/python-torch-examples.test runs them at their CI
sizes and checks their pictures)."""

import os
import subprocess
import sys

import pytest

from conftest import EXAMPLES

RUNS = {
    "learn_filter_torch": ["--size", "16", "--pairs", "1"],
    "invert_diffusion": ["--size", "10", "--steps", "8", "--snapshots",
                         "2"],
}
STEPS = {"learn_filter_torch": "--steps", "invert_diffusion": "--iterations"}


def run(name, steps, out):
    script = os.path.join(EXAMPLES, "torch", name + ".py")
    return subprocess.run(
        [sys.executable, script, *RUNS[name], STEPS[name], str(steps),
         "--out", str(out)], capture_output=True, text=True, env=os.environ)


@pytest.mark.parametrize("name", sorted(RUNS))
def test_example_check_can_fail(name, tmp_path):
    short = run(name, 2, tmp_path)
    assert short.returncode == 1, short.stdout + short.stderr
    assert "FAIL" in short.stdout


def test_examples_pass(tmp_path):
    for name, steps in (("learn_filter_torch", 200),
                        ("invert_diffusion", 60)):
        done = run(name, steps, tmp_path / name)
        assert done.returncode == 0, done.stdout + done.stderr
        assert "PASS" in done.stdout
        assert len(os.listdir(tmp_path / name)) == 2
