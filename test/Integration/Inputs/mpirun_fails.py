#!/usr/bin/env python3
"""Runs an MPI launch that must fail, without ever hanging on it.

    mpirun_fails.py [--timeout SECONDS] MPIRUN [ARGS...]

The tests of the distributed run-time library's errors (a rank that finds
its block too small calls MPI_Abort) expect mpirun to fail. A launcher can
lose ranks during an abort (MPICH's hydra did in CI: its proxy went down,
`control_cb: assert (!closed) failed`, before it had killed them): the
other ranks are then left spinning in their exchanges, holding mpirun's
output pipes, and mpirun waits for them forever.

So this script makes itself the child subreaper of everything it starts
(ranks orphaned by the proxy come to it, not to init), runs the command
with a time limit, and then kills whatever is left below it. It exits 0
when the command failed or ran out of time (as `not` would), 1 when it
succeeded; what happened beyond a plain failure is said on stderr.
"""
import ctypes
import os
import signal
import subprocess
import sys

PR_SET_CHILD_SUBREAPER = 36


def descendants(root):
    """The pids of the processes below `root` that still run (zombies, which
    only wait to be reaped, pass on their children but are not listed)."""
    children = {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat") as f:
                # The command name may hold spaces: fields follow its ')'.
                fields = f.read().rsplit(")", 1)[1].split()
            state, ppid = fields[0], int(fields[1])
        except (OSError, IndexError, ValueError):
            continue
        children.setdefault(ppid, []).append((int(entry), state))
    found, todo = [], [root]
    while todo:
        for child, state in children.get(todo.pop(), []):
            if state != "Z":
                found.append(child)
            todo.append(child)
    return found


def main(argv):
    timeout = 120.0
    if len(argv) > 2 and argv[1] == "--timeout":
        timeout = float(argv[2])
        argv = argv[2:]
    if len(argv) < 2:
        sys.exit("usage: mpirun_fails.py [--timeout SECONDS] MPIRUN [ARGS...]")
    libc = ctypes.CDLL(None, use_errno=True)
    if libc.prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0) != 0:
        sys.exit("mpirun_fails.py: prctl(PR_SET_CHILD_SUBREAPER) failed")
    proc = subprocess.Popen(argv[1:])
    try:
        status = proc.wait(timeout=timeout)
    except subprocess.TimeoutExpired:
        status = None
        print(f"mpirun_fails.py: {argv[1]} did not end in {timeout:g} s; "
              "killing it and its ranks", file=sys.stderr, flush=True)
    left = descendants(os.getpid())
    for pid in left:
        try:
            os.kill(pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
    if left and status is not None:
        print(f"mpirun_fails.py: killed {len(left)} process(es) left after "
              f"{argv[1]} ended", file=sys.stderr, flush=True)
    # Reap what was killed (the subreaper inherits the orphans).
    while True:
        try:
            os.waitpid(-1, 0)
        except ChildProcessError:
            break
    sys.exit(1 if status == 0 else 0)


if __name__ == "__main__":
    main(sys.argv)
