"""The checks made before every call: nothing reaches compiled code that
could make it read or write out of bounds, or compute with a view it
misreads. Each failure names the argument.

- scalars: an int for integer arguments, a real number for float ones;
- arrays: a NumPy array of the element type and rank of the signature,
  positive strides that are whole elements with the last dimension
  contiguous (other views are refused, never misread), writeable when the
  function writes it;
- shapes: every index the function accesses lies inside the array (the
  "bounds" of the C interface's JSON, affine in the integer arguments), the
  arrays a time loop rotates have one shape, a shadow has its array's;
- integers: every integer argument fits its C type; every value the
  compiled code computes from them to bound a loop or index an array (the
  JSON's "fits": each index result, loop span and next induction value)
  fits its type, so that the compiled wrapping arithmetic equals the exact
  arithmetic the bounds are checked in;
- overlap: no two arrays share memory (numpy.shares_memory) unless the
  function writes neither.
"""

import numbers

from ._deps import require
from .abi import ELEMENT_DTYPES

np = require("numpy", "python3-numpy")

# numpy.shares_memory's work bound; beyond it the arrays count as
# overlapping (refused), which is the safe answer.
_OVERLAP_WORK = 100000
_INT64 = (-(1 << 63), (1 << 63) - 1)
# The width of each integer C type of the JSON.
_INT_BITS = {"int64_t": 64, "int32_t": 32, "int16_t": 16, "int8_t": 8}
_TOO_HARD = getattr(getattr(np, "exceptions", np), "TooHardError")


def scalar(value, arg, where):
    """The Python value for scalar argument `arg` (an ABI entry)."""
    element = arg["element"]
    if element in ("f64", "f32"):
        if isinstance(value, (bool, np.bool_)) or not isinstance(
                value, numbers.Real):
            raise TypeError("%s: argument '%s' must be a real number (%s), not "
                            "%s" % (where, arg["name"], element,
                                    type(value).__name__))
        return float(value)
    if isinstance(value, (bool, np.bool_)) and element != "i1":
        raise TypeError("%s: argument '%s' must be an integer (%s), not bool"
                        % (where, arg["name"], element))
    if not isinstance(value, numbers.Integral):
        raise TypeError("%s: argument '%s' must be an integer (%s), not %s"
                        % (where, arg["name"], element, type(value).__name__))
    value = int(value)
    bits = _INT_BITS.get(arg.get("c_type"), 64)
    if arg.get("c_type") == "bool":
        if value not in (0, 1):
            raise ValueError("%s: argument '%s' = %d is not a bool (0 or 1)"
                             % (where, arg["name"], value))
    elif not _fits(value, bits):
        raise ValueError("%s: argument '%s' = %d does not fit in %d bits"
                         % (where, arg["name"], value, bits))
    return value


def _fits(value, bits=64):
    return -(1 << (bits - 1)) <= value < (1 << (bits - 1))


class Wraps(Exception):
    """An expression of the plan whose value, or a partial sum of it,
    leaves the signed 64-bit range: the compiled code would wrap."""


def array(value, arg, where, written):
    """Checks array argument `arg`; returns the array."""
    name = arg["name"]
    if not isinstance(value, np.ndarray):
        raise TypeError("%s: argument '%s' must be a numpy.ndarray (%s), not %s"
                        % (where, name, arg["mlir_type"], type(value).__name__))
    dtype = ELEMENT_DTYPES[arg["element"]]
    if value.dtype != dtype:
        raise TypeError("%s: argument '%s' must have dtype %s, not %s"
                        % (where, name, dtype, value.dtype))
    if value.ndim != arg["rank"]:
        raise ValueError("%s: argument '%s' must have %d dimension(s), not %d"
                         % (where, name, arg["rank"], value.ndim))
    static = arg.get("shape") or [None] * value.ndim
    for k, want in enumerate(static):
        if want is not None and value.shape[k] != want:
            raise ValueError("%s: argument '%s' must have extent %d in "
                             "dimension %d (%s), not %d"
                             % (where, name, want, k, arg["mlir_type"],
                                value.shape[k]))
    # Row-major strides, innermost first (a Python product: np.prod on a
    # tuple costs microseconds, and this runs on every call).
    row_major, running = [], value.itemsize
    for extent in reversed(value.shape):
        row_major.append(running)
        running *= extent
    row_major.reverse()
    for k, (extent, stride) in enumerate(zip(value.shape, value.strides)):
        if extent <= 1:
            continue
        last = k == value.ndim - 1
        # Behind static extents the stride is compiled in: row-major.
        fixed = all(e is not None for e in static[k + 1:])
        if stride <= 0 or stride % value.itemsize or (
                last and stride != value.itemsize) or (
                fixed and stride != row_major[k]):
            raise ValueError(
                "%s: argument '%s' has strides %s (bytes); the compiled code "
                "takes arrays whose last dimension is contiguous, whose "
                "other strides are positive whole elements, and which are "
                "row-major behind static extents (pass "
                "numpy.ascontiguousarray(%s))"
                % (where, name, value.strides, name))
    if written and not value.flags.writeable:
        raise ValueError("%s: argument '%s' is written by the function but "
                         "the array is read-only" % (where, name))
    return value


def evaluate(expr, ints):
    """An affine expression of the JSON over the integer arguments, in
    64-bit arithmetic: raises Wraps when a term or a partial sum leaves the
    signed 64-bit range (exact Python integers, each step checked)."""
    total = expr["constant"]
    for a, c in expr["terms"]:
        term = c * ints[a]
        total += term
        if not (_fits(term) and _fits(total)):
            raise Wraps()
    return total


def _used(exprs):
    return {a for e in exprs for a, _ in e["terms"]}


def _given(args, ints, used):
    return ", ".join("%s = %d" % (args[a]["name"], ints[a])
                     for a in sorted(used))


def _happens(when, ints):
    """Whether every [lb, ub) of `when` is non-empty."""
    return all(evaluate(lb, ints) < evaluate(ub, ints) for lb, ub in when)


def no_wrap(plan, args, ints, where):
    """Every value of the plan's "fits" that the call computes, and every
    bound and index of its accesses, fits its type: the compiled code's
    wrapping arithmetic then equals the exact arithmetic checked here."""
    items = [(f["when"], (f["lo"], f["hi"]), f["bits"])
             for f in plan.get("fits", [])]
    items += [(a["when"], (a["lo"], a["hi"]), 64) for a in plan["accesses"]]
    for when, ends, bits in items:
        exprs = list(ends) + [e for pair in when for e in pair]
        try:
            if not _happens(when, ints):
                continue
            values = [evaluate(e, ints) for e in ends]
            ok = all(_fits(v, bits) for v in values)
        except Wraps:
            ok = False
        if not ok:
            raise ValueError(
                "%s: with %s, the compiled index arithmetic would wrap (a "
                "loop bound, loop step or index leaves the signed %d-bit "
                "range); refused" % (where, _given(args, ints, _used(exprs)),
                                     bits))


def bounds(plan, args, values, where):
    """Every access of `plan` (the entry point's "bounds") inside its array;
    the rotated arrays of a time loop of one shape."""
    if "unsupported" in plan:
        raise NotImplementedError(
            "%s: the accesses of this function cannot be bounded (%s), so a "
            "call cannot be checked; pass check_bounds=False to call it "
            "unchecked" % (where, plan["unsupported"]))
    if "fits" not in plan:
        raise NotImplementedError(
            "%s: the library's description does not say which values must "
            "not wrap (a compiler older than the package?); pass "
            "check_bounds=False to call it unchecked" % where)
    ints = {k: v for k, v in enumerate(values) if isinstance(v, int)}
    no_wrap(plan, args, ints, where)
    # The union, per array dimension, of the accesses that happen.
    spans = {}
    for access in plan["accesses"]:
        if not _happens(access["when"], ints):
            continue
        key = (access["argument"], access["dim"])
        lo, hi = evaluate(access["lo"], ints), evaluate(access["hi"], ints)
        used = _used((access["lo"], access["hi"]))
        old = spans.get(key)
        if old:
            lo, hi = min(lo, old[0]), max(hi, old[1])
            used |= old[3]
        spans[key] = (lo, hi, access["writes"] or bool(old and old[2]), used)
    for (k, dim), (lo, hi, writes, used) in sorted(spans.items()):
        if lo >= 0 and hi < values[k].shape[dim]:
            continue
        given = _given(args, ints, used)
        raise ValueError(
            "%s: argument '%s' has shape %s, but the function %s its "
            "dimension %d at indices %d..%d%s"
            % (where, args[k]["name"], values[k].shape,
               "writes" if writes else "reads", dim, lo, hi,
               " (with %s)" % given if given else ""))
    for group in plan["same_shape"]:
        shapes = {values[k].shape for k in group}
        if len(shapes) > 1:
            names = ", ".join("'%s' %s" % (args[k]["name"], values[k].shape)
                              for k in group)
            raise ValueError("%s: the arrays a time loop rotates must have "
                             "one shape: %s" % (where, names))


def same_shape(shadow, primal, shadow_arg, primal_arg, where):
    if shadow.shape != primal.shape:
        raise ValueError("%s: shadow '%s' must have the shape of '%s', %s, "
                         "not %s" % (where, shadow_arg["name"],
                                     primal_arg["name"], primal.shape,
                                     shadow.shape))


def no_overlap(named_arrays, where):
    """No two of [(name, array, written)] share memory where either is
    written: arrays that the call only reads may alias."""
    for i, (a_name, a, a_written) in enumerate(named_arrays):
        for b_name, b, b_written in named_arrays[i + 1:]:
            if not (a_written or b_written) or not np.may_share_memory(a, b):
                continue
            try:
                shared = np.shares_memory(a, b, max_work=_OVERLAP_WORK)
            except _TOO_HARD:
                shared = True
            if shared:
                raise ValueError("%s: arguments '%s' and '%s' share memory; "
                                 "arrays of one call must not overlap where "
                                 "the function writes either"
                                 % (where, a_name, b_name))


def written_arguments(plan):
    """The argument numbers the function writes."""
    return {a["argument"] for a in plan.get("accesses", []) if a["writes"]}


def maybe_written(plan, params):
    """The argument numbers that may be written: those the plan says, or
    every array when the plan could not bound the function."""
    if "unsupported" in plan:
        return {k for k, p in enumerate(params) if p["kind"] == "descriptor"}
    return written_arguments(plan)
