"""C loop nests as stencil IR: `stencil-import-c` from Python.

    import stencilad as sa
    mod = sa.compile(sa.import_c("kernel.c", active=["u", "c"]))

The text keeps the C locations, so what `compile` reports about it points
at the C source (docs/ImportC.md lists what is imported).
"""

import os
import subprocess

from .compiler import CompileError, tool_path


def _list(option, values):
    return ["--%s=%s" % (option, ",".join(values))] if values else []


def import_c(path, *, functions=None, active=None, assume_no_alias=False,
             extents=None, defines=None, includes=None):
    """The stencil IR of the C file `path` (`stencil-import-c`), as text.

    `functions`, `active`: names (default: every function; the parameters
    annotated `stencil_active`); `extents`: {"w": ("nx", "ny", "nz")} for
    flat arrays; `defines`: {"N": 64} or ["N=64"]; `includes`: directories.
    Raises CompileError with the importer's messages, located at the C
    source."""
    cmd = [tool_path("stencil-import-c"), os.fspath(path)]
    cmd += _list("function", functions) + _list("active", active)
    if assume_no_alias:
        cmd.append("--assume-no-alias")
    for name, sizes in (extents or {}).items():
        cmd.append("--extents=%s:%s" % (name, ",".join(sizes)))
    if isinstance(defines, dict):
        defines = ["%s=%s" % item for item in defines.items()]
    cmd += ["-D%s" % d for d in defines or ()]
    cmd += ["-I%s" % os.fspath(i) for i in includes or ()]
    done = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                          text=True)
    if done.returncode != 0:
        raise CompileError("stencil-import-c failed on %s:\n%s" % (
            path, done.stderr.rstrip()))
    return done.stdout
