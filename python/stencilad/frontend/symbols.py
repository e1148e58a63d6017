"""What a stencil is written with: arrays, scalars, sizes and counters.

    i, j = stencilad.indices("i j")         # counters (SymPy symbols)
    n = stencilad.size("n")                  # an `index` argument
    D = stencilad.scalar("D")                # a float argument
    u = stencilad.Array("u", 2, active=True) # an array argument
    u[i - 1, j] or u(i - 1, j)               # a read: a SymPy expression

Reads are SymPy expressions (applications of an undefined function per
array), so that every SymPy operation works on them; the front end maps
them back to their `Array` when it lowers a statement. Assigning through
`u[i, j] = ...` (or `+=`) inside `with kernel.domain(...)` records a
statement (kernel.py).
"""

import itertools
import sys
import weakref

from .._deps import require

sp = require("sympy", "python3-sympy")

_uids = itertools.count(1)
# Array of each undefined function the front end made, by its uid.
_ARRAYS = weakref.WeakValueDictionary()

DTYPES = ("f32", "f64")


class FrontendError(ValueError):
    """A stencil the front end refuses, located at the user's line (the
    message starts with `file:line:`)."""

    def __init__(self, message, loc=None):
        self.loc = loc
        self.filename = getattr(loc, "file", None)
        self.lineno = getattr(loc, "line", None)
        super().__init__("%s: %s" % (loc, message) if loc else message)


def expression(value, what, loc):
    """`value` (a number or a SymPy expression) as a SymPy expression;
    a string, None or another object is refused (SymPy would parse a
    string into symbols of its own)."""
    try:
        return sp.sympify(value, strict=True)
    except sp.SympifyError:
        raise FrontendError("%s is %r, not a number or an expression of "
                            "the front end's symbols and array reads" % (
                                what, value), loc) from None


def _check_dtype(dtype):
    if dtype not in DTYPES:
        raise FrontendError("dtype must be one of %s, not %r" % (
            ", ".join(map(repr, DTYPES)), dtype), caller())
    return dtype


def _check_name(name):
    if not isinstance(name, str) or not name.isidentifier():
        raise FrontendError("a name must be a Python identifier (it names "
                            "the C function's parameter), not %r" % (name,),
                            caller())
    return name


class Array:
    """An array argument of a kernel (or a temporary it allocates).

    rank    the number of dimensions (or give `shape`);
    shape   extents: ints make static dimensions (a 3x3 filter), anything
            else (None, a size symbol) a dynamic one;
    dtype   "f64" (default) or "f32";
    active  the kernel is differentiated with respect to it (its shadow
            `<name>_b` is an argument of the adjoint).
    """

    def __init__(self, name, rank=None, dtype="f64", *, shape=None,
                 active=False):
        self.name = _check_name(name)
        if shape is None:
            if rank is None or isinstance(rank, bool) or \
                    not isinstance(rank, int) or rank < 0:
                raise FrontendError("Array %s: give a rank >= 0 "
                                    "(Array(%r, 2)) or a shape" % (name, name),
                                    caller())
            shape = (None,) * rank
        else:
            for extent in shape:
                if extent is not None and not isinstance(extent, int):
                    expression(extent, "an extent of %s" % name, caller())
        if rank is not None and rank != len(shape):
            raise FrontendError("Array %s: rank %d but a shape of %d "
                                "extents; give one of them" % (
                                    name, rank, len(shape)), caller())
        self.shape = tuple(shape)
        self.rank = len(self.shape)
        self.dtype = _check_dtype(dtype)
        self.active = bool(active)
        self.uid = next(_uids)
        self.func = sp.Function(name, stencilad_id=self.uid)
        # The function holds its Array: a read keeps the Array alive, also
        # one made inline and dropped (`loop.final(u)[i, j]`), which the
        # weak registry alone let go before the read was used.
        self.func.stencilad_array = self
        _ARRAYS[self.uid] = self
        self.temporary = False   # allocated by the kernel (kernel.temporary)
        self.final_of = None     # (TimeLoop, state index) for loop.final(u)
        self.loc = caller()

    def static_shape(self):
        """Extents as the memref type has them: ints, or None (dynamic)."""
        return tuple(d if isinstance(d, int) and not isinstance(d, bool)
                     else None for d in self.shape)

    def _read(self, index):
        if not isinstance(index, tuple):
            index = (index,)
        if len(index) != self.rank:
            raise FrontendError("%s has rank %d but is indexed with %d "
                                "indices" % (self.name, self.rank, len(index)),
                                caller())
        return self.func(*index)

    def __getitem__(self, index):
        return self._read(index)

    def __call__(self, *index):
        return self._read(tuple(index))

    def _sympy_(self):
        """An array in an expression without its indices."""
        raise FrontendError("%s is an array: read an element, %s[i, ...] "
                            "(%s[()] for rank 0)" % (
                                self.name, self.name, self.name), caller())

    # Not a sequence: without this, `list(u)` would index u[0], u[1], ...
    # for ever through __getitem__.
    __iter__ = None

    def __setitem__(self, index, value):
        current_domain("%s[...] = ..." % self.name).write(
            self._read(index), value, None, caller())

    def __repr__(self):
        return "Array(%r, %d, %r%s)" % (self.name, self.rank, self.dtype,
                                        ", active=True" if self.active else "")


# The domains whose `with` block runs (kernel.Domain pushes itself), so
# that `u[i] = ...` knows which domain the statement belongs to.
OPEN_DOMAINS = []


def current_domain(what):
    """The domain whose `with` block is running."""
    if not OPEN_DOMAINS:
        raise FrontendError("%s outside a `with kernel.domain(...)` block: "
                            "a statement belongs to a domain" % what,
                            caller())
    return OPEN_DOMAINS[-1]


def array_of(func):
    """The Array of an undefined function the front end made, or None."""
    array = getattr(func, "stencilad_array", None)
    if array is not None:
        return array
    uid = getattr(func, "stencilad_id", None)
    return _ARRAYS.get(uid) if uid is not None else None


class _Tagged(sp.Symbol):
    """A SymPy symbol with a role: equal only to itself (two scalars named
    alike stay apart), printed by its name."""

    def __new__(cls, name, **assumptions):
        obj = sp.Symbol.__xnew__(cls, _check_name(name), **assumptions)
        obj._uid = next(_uids)
        obj.loc = caller()
        return obj

    def _hashable_content(self):
        return super()._hashable_content() + (self._uid,)

    def __getnewargs_ex__(self):
        return ((self.name,), {})


class Scalar(_Tagged):
    """A float argument (`D`, a time step); `active` asks for its
    gradient."""

    def __new__(cls, name, dtype=None, active=False):
        obj = super().__new__(cls, name, real=True)
        obj.dtype = None if dtype is None else _check_dtype(dtype)
        obj.active = bool(active)
        return obj


class Size(_Tagged):
    """An `index` argument: extents, bounds, coordinates (`n`, `sx`)."""

    def __new__(cls, name):
        return super().__new__(cls, name, integer=True)


class Counter(_Tagged):
    """An iteration counter of a domain (`i`), or of a time loop (`t`)."""

    def __new__(cls, name):
        return super().__new__(cls, name, integer=True)


class SumValue(_Tagged):
    """The value of a `kernel.sum(...)`: a float usable in the kernel's
    result (`kernel.returns(0.5 * J)`)."""

    def __new__(cls, name, sum_item):
        obj = super().__new__(cls, name, real=True)
        obj.item = sum_item
        return obj


def indices(names):
    """Counters: `i, j, k = indices("i j k")` (one for a single name)."""
    made = [Counter(n) for n in names.replace(",", " ").split()]
    return made[0] if len(made) == 1 else tuple(made)


def size(names):
    """`index` arguments: `n, m = size("n m")`."""
    made = [Size(n) for n in names.replace(",", " ").split()]
    return made[0] if len(made) == 1 else tuple(made)


def scalar(names, dtype=None, active=False):
    """Float arguments, of the kernel's float type unless `dtype` says;
    `active=True` for their gradient."""
    made = [Scalar(n, dtype, active) for n in names.replace(",", " ").split()]
    return made[0] if len(made) == 1 else tuple(made)


# -- where the user's code is ---------------------------------------------
# The package's own folder (stencilad/), not just the front end's: calls
# from stencilad.perforad are located at the user's script too.
_HERE = __file__.rsplit("/", 2)[0] + "/"
_SKIP = (_HERE, "/sympy/", "<frozen", "/contextlib.py")


def caller():
    """The location (mlir.Loc) of the innermost frame outside the front
    end, SymPy and the standard library's context managers: the user's
    line."""
    from .mlir import Loc
    frame = sys._getframe(1)
    while frame is not None:
        name = frame.f_code.co_filename
        if not any(s in name for s in _SKIP):
            col = 1
            try:
                import inspect
                pos = inspect.getframeinfo(frame).positions
                if pos is not None and pos.col_offset is not None:
                    col = pos.col_offset + 1
            except (AttributeError, ValueError):
                pass
            return Loc(name, frame.f_lineno, col)
        frame = frame.f_back
    return None
