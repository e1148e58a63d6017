"""Compiling stencil IR: one call of `stencil-compile`, cached.

The package has no compile chain of its own: `stencil-compile` (the same
tool the CMake function, the benchmarks and the tests use) builds the shared
library and writes the C interface as JSON (`--abi-json`, docs/ABI.md),
from which the callables are made. Libraries are cached under `cache_dir()`
by a hash of the source, the passes and the compiler binary.
"""

import hashlib
import json
import os
import shutil
import subprocess
import sys
import tempfile
import warnings

from .function import Module

try:
    from . import _config
except ImportError:     # the source tree, not configured by CMake
    _config = None

# Bump when what the package reads from the cache changes.
_CACHE_FORMAT = 4


class CompileError(RuntimeError):
    """stencil-compile rejected the input; the message holds its
    diagnostics."""


class CompileWarning(UserWarning):
    """stencil-compile compiled the input but warned about it (for example
    an adjoint through which no gradient can flow); the message holds the
    compiler's diagnostics, located in the caller's source."""


def cache_dir():
    """Where compiled libraries are kept: $STENCILAD_CACHE, else
    $XDG_CACHE_HOME/stencilad, else ~/.cache/stencilad."""
    explicit = os.environ.get("STENCILAD_CACHE")
    if explicit:
        return explicit
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(
        os.path.expanduser("~"), ".cache")
    return os.path.join(base, "stencilad")


def compiler_path():
    """The stencil-compile this package calls ($STENCILAD_COMPILE, else the
    one it was built or installed with)."""
    if os.environ.get("STENCILAD_COMPILE"):
        return os.environ["STENCILAD_COMPILE"]
    if _config is not None:
        return _config.STENCIL_COMPILE
    return shutil.which("stencil-compile") or "stencil-compile"


def tool_path(name):
    """Another tool of the project (`stencil-opt`), installed beside the
    stencil-compile this package calls."""
    return os.path.join(os.path.dirname(compiler_path()), name)


def _read_source(source):
    """(IR text, a name for messages) of a path, of IR text, or of front-end
    kernels (one, or a list)."""
    kernels = source if isinstance(source, (list, tuple)) else [source]
    if kernels and all(hasattr(k, "mlir") for k in kernels):
        # Front-end kernels (stencilad.frontend.Kernel): each is a module's
        # worth of functions, so the texts join into one module.
        return "".join(k.mlir for k in kernels), "kernel " + ", ".join(
            k.name for k in kernels)
    if isinstance(source, os.PathLike) or (
            isinstance(source, str) and "\n" not in source
            and source.endswith(".mlir")):
        path = os.fspath(source)
        with open(path, encoding="utf-8") as f:
            return f.read(), path
    if not isinstance(source, str):
        raise TypeError("source must be IR text or the path of a .mlir file, "
                        "not %s" % type(source).__name__)
    return source, "<string>"


def _option_text(value):
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def _pipeline_flag(options):
    """--convert-to-omp with `options` (a dict, or the option text itself);
    stencil-compile checks the names and values."""
    if not options:
        return "--convert-to-omp"
    if isinstance(options, dict):
        text = " ".join("%s=%s" % (k, _option_text(v))
                        for k, v in sorted(options.items()))
    else:
        text = str(options)
    return "--convert-to-omp=" + text


def _distribute_flag(distribute):
    """--stencil-distribute with a grid ("auto", "?,1,1", "2,2") or a dict
    of its options ({"grid": "?,1,1", "halo": 2})."""
    if isinstance(distribute, dict):
        text = " ".join("%s=%s" % (k, _option_text(v))
                        for k, v in sorted(distribute.items()))
    else:
        text = "grid=" + str(distribute)
    return "--stencil-distribute=" + text


def compile(source, adjoint=True, options=None, *, cache=True, march=None,
            distribute=None, export=None, comm=None):
    """Compiles stencil IR (text, or the path of a .mlir file) to a shared
    library and returns its Module.

    adjoint     run --stencil-adjoint first: each function with an argument
                marked stencil.active gets `f.adjoint`.
    options     options of the convert-to-omp pipeline, as a dict
                ({"boundary": "exact"}) or as text ("boundary=exact").
    cache       reuse a library compiled before from the same source, passes
                and compiler.
    march       -march for clang (default: stencil-compile's, `native`).
    distribute  run the functions on MPI processes (--stencil-distribute,
                docs/Distributed.md): the grid ("auto", "?,1,1", "2,2") or
                a dict of the pass's options ({"grid": "auto", "halo": 2}).
    export      keep only these functions (names), dropping the others
                first (a function the distribution does not support).
    comm        an mpi4py communicator whose processes all compile the same:
                process 0 builds, the others wait and load its library.
    Raises CompileError with the compiler's diagnostics."""
    text, name = _read_source(source)
    passes = []
    if export:
        passes += ["--symbol-privatize=exclude=" + ",".join(export),
                   "--symbol-dce"]
    passes += ["--stencil-adjoint"] if adjoint else []
    if distribute:
        passes.append(_distribute_flag(distribute))
    passes.append(_pipeline_flag(options))
    if march:
        passes.append("--march=" + march)
    tool = compiler_path()
    try:
        stat = os.stat(tool)
    except OSError:
        raise CompileError("stencil-compile not found at %s (set "
                           "STENCILAD_COMPILE)" % tool) from None
    # The name is part of the key: the library's located messages (the
    # run-time checks') name the caller's file.
    key = hashlib.sha256(json.dumps(
        [_CACHE_FORMAT, text, name, passes, os.path.realpath(tool),
         stat.st_mtime_ns, stat.st_size]).encode()).hexdigest()[:40]
    root = cache_dir()
    folder = os.path.join(root, key)
    lib = os.path.join(folder, "kernel.so")
    abi = os.path.join(folder, "abi.json")
    if comm is not None:
        _build_once(comm, cache, lib, abi, tool, text, name, passes, root,
                    folder)
    elif not (cache and os.path.exists(lib) and os.path.exists(abi)):
        _build(tool, text, name, passes, root, folder)
    with open(abi, encoding="utf-8") as f:
        description = json.load(f)
    _warn_from(os.path.join(folder, _WARNINGS), name)
    return Module(lib, description, name)


def _build_once(comm, cache, lib, abi, tool, text, name, passes, root,
                folder):
    """Process 0 of `comm` builds (unless cached); every process learns
    whether it succeeded, and the others raise the same CompileError."""
    error, failure = None, None
    if comm.rank == 0 and not (cache and os.path.exists(lib)
                               and os.path.exists(abi)):
        try:
            _build(tool, text, name, passes, root, folder)
        except Exception as e:      # every process must hear of it
            error, failure = str(e), e
    error = comm.bcast(error, root=0)
    if failure is not None:
        raise failure
    if error:
        raise CompileError("process 0 could not build the library: " + error)


# The compiler's warnings of a build, kept beside the library so that a
# cached library warns as the first build did.
_WARNINGS = "warnings.txt"


def _warn_from(path, name):
    """Issues the kept warnings of a build as one CompileWarning, at the
    first caller outside the package (the user's line, also when the
    compile comes through `Kernel.compile` or `stencilad.perforad`)."""
    try:
        with open(path, encoding="utf-8") as f:
            text = f.read().strip()
    except OSError:
        return
    if text:
        warnings.warn(CompileWarning(
            "stencil-compile warned on %s:\n%s" % (
                name, text)),
            stacklevel=_outside_package())


_PACKAGE = os.path.dirname(os.path.abspath(__file__)) + os.sep


def _outside_package():
    """The `stacklevel` of warnings.warn, called here, that names the
    innermost frame outside this package."""
    frame, level = sys._getframe(1), 1
    while frame is not None and \
            os.path.abspath(frame.f_code.co_filename).startswith(_PACKAGE):
        frame, level = frame.f_back, level + 1
    return level


def _mlir_escaped(name):
    """`name` as MLIR prints it in a location (llvm::printEscapedString:
    bytes outside printable ASCII, and the quote, as \\XX)."""
    out = []
    for byte in name.encode("utf-8"):
        if byte == 0x5C:
            out.append("\\\\")
        elif 0x20 <= byte < 0x7F and byte != 0x22:
            out.append(chr(byte))
        else:
            out.append("\\%02X" % byte)
    return "".join(out)


def _quoted(text):
    """`text` as it stands inside a JSON string."""
    return json.dumps(text, ensure_ascii=False)[1:-1]


def _build(tool, text, name, passes, root, folder):
    """Compiles into a fresh folder, then moves it to `folder` (so that a
    concurrent or interrupted build never leaves half a library there)."""
    os.makedirs(root, exist_ok=True)
    work = tempfile.mkdtemp(prefix="build-", dir=root)
    try:
        src = os.path.join(work, "kernel.mlir")
        with open(src, "w", encoding="utf-8") as f:
            f.write(text)
        # The compiler reads the copy but names the caller's file in
        # its diagnostics and in the library's run-time messages.
        cmd = [tool, src, "--source-name", name, "--shared",
               "-o", os.path.join(work, "kernel.so"),
               "--abi-json", os.path.join(work, "abi.json")] + passes
        done = subprocess.run(cmd, stdout=subprocess.PIPE,
                              stderr=subprocess.STDOUT, text=True)
        if done.returncode != 0:
            raise CompileError("stencil-compile failed on %s:\n%s" % (
                name, done.stdout.rstrip()))
        if "warning:" in done.stdout:
            with open(os.path.join(work, _WARNINGS), "w",
                      encoding="utf-8") as f:
                f.write(done.stdout)
        # Locations in the JSON are printed by MLIR, which escapes the
        # bytes of a non-ASCII name: keep the name as the caller gave it.
        abi = os.path.join(work, "abi.json")
        with open(abi, encoding="utf-8") as f:
            description = f.read().replace(_quoted(_mlir_escaped(name)),
                                           _quoted(name))
        with open(abi, "w", encoding="utf-8") as f:
            f.write(description)
        if os.path.isdir(folder):
            shutil.rmtree(folder, ignore_errors=True)
        try:
            os.rename(work, folder)
            work = None
        except OSError:
            if not os.path.isdir(folder):
                raise
    finally:
        if work:
            shutil.rmtree(work, ignore_errors=True)
