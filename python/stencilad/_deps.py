"""The package's third-party imports, each with a message that says what is
missing and how to fix it: NumPy for the whole package, SymPy for its front
end (docs/Python.md, "Install").

A `python3` that is not Debian's (a virtual environment without
`--system-site-packages`, pyenv, conda) does not see Debian's
`python3-numpy` and `python3-sympy`; a bare "No module named 'numpy'" does
not say so."""

import importlib
import sys


def missing_message(module, debian_package, error=None):
    """Why `module` cannot be imported by this interpreter and the three
    ways to fix that."""
    version = "%d.%d" % sys.version_info[:2]
    lines = [
        "stencilad needs the Python module '%s', which this interpreter "
        "cannot import:" % module,
        "  %s (Python %s)%s" % (sys.executable or "<unknown interpreter>",
                                version, "" if error is None
                                else "\n  " + str(error)),
        "Either",
        "  - run Debian's /usr/bin/python3, which has it from the Debian "
        "package %s (apt-get install %s),"
        % (debian_package, debian_package),
        "  - install it into this interpreter: %s -m pip install %s, or"
        % (sys.executable or "python3", module),
        "  - in a virtual environment, create it with "
        "`/usr/bin/python3 -m venv --system-site-packages DIR` so that it "
        "sees Debian's packages.",
        "(The first python3 on PATH need not be Debian's: `which -a python3`.)",
    ]
    return "\n".join(lines)


def require(module, debian_package):
    """`module` imported, or a ModuleNotFoundError (an ImportError) whose
    message names this interpreter, the Debian package that provides the
    module and the other ways to get it."""
    try:
        return importlib.import_module(module)
    except ImportError as error:
        raise ModuleNotFoundError(missing_message(module, debian_package,
                                                  error),
                                  name=module) from error
