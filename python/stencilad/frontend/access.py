"""How an array is indexed: each index is a counter plus an integer
constant (an offset along that iteration dimension), an integer constant
(a fixed element), or, in a time loop, the step plus a constant (a
per-step slice of a passive table). Anything else is refused at the
user's line; the stencil dialect's accesses can say nothing else.
"""

from .expr import describe
from .symbols import FrontendError, array_of, sp

AppliedUndef = sp.core.function.AppliedUndef


class Access:
    """One array access: per array dimension ("dim", k, offset),
    ("fixed", index) or ("time", offset)."""

    def __init__(self, expr, array, parts):
        self.expr, self.array, self.parts = expr, array, parts

    def offsets(self):
        return [p[-1] for p in self.parts if p[0] != "time"]

    def dims(self):
        return [p[1] if p[0] == "dim" else None for p in self.parts
                if p[0] != "time"]

    def has_time(self):
        return any(p[0] == "time" for p in self.parts)

    def is_point(self):
        """Indexed by the counters themselves (offset 0), each once."""
        used = [p[1] for p in self.parts if p[0] == "dim" and p[2] == 0]
        return len(used) == len(self.parts) and len(set(used)) == len(used)


def resolve(expr, loc):
    """The Array of a read or written `u[...]`."""
    array = array_of(expr.func)
    if array is None:
        raise FrontendError("%s: %s is not an array of the front end (make "
                            "it with stencilad.Array)" % (describe(expr),
                                                          expr.func), loc)
    return array


def classify(expr, counters, time, loc):
    """The Access of `expr` (an application `u(i - 1, j)`) in a domain
    over `counters`, inside the time loop of counter `time` (or None)."""
    array = resolve(expr, loc)
    parts = [_part(expr, index, counters, time, loc) for index in expr.args]
    return Access(expr, array, parts)


def _part(expr, index, counters, time, loc):
    index = sp.expand(index)
    if index.is_Integer:
        if index < 0:
            raise FrontendError(
                "%s: the fixed index %s is negative; fixed indices count from "
                "0 (Python's counting from the end is not supported)" % (
                    describe(expr), index), loc)
        return ("fixed", int(index))
    for k, c in enumerate(counters):
        offset = sp.expand(index - c)
        if offset.is_Integer:
            return ("dim", k, int(offset))
        if not offset.has(c) and offset.is_number:
            raise FrontendError(
                "%s: the offset %s of %s is not an integer constant; offsets "
                "are whole points (%s + 1): read the neighbours and "
                "interpolate between them" % (
                    describe(expr), float(offset) if offset.is_Float else
                    offset, c, c), loc)
    if time is not None:
        offset = sp.expand(index - time)
        if offset.is_Integer:
            return ("time", int(offset))
    raise FrontendError(
        "%s: the index %s is not a counter plus an integer constant (i + 1) "
        "or an integer constant%s" % (
            describe(expr), describe(index),
            " (counters here: %s)" % ", ".join(map(str, counters))
            if counters else ""), loc)


def reads(expr):
    """The array reads in an expression, in a stable order."""
    found = sp.sympify(expr).atoms(AppliedUndef)
    return sorted(found, key=sp.default_sort_key)
