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
- overlap: no two arrays share memory (numpy.shares_memory).
"""

import numbers

import numpy as np

from .abi import ELEMENT_DTYPES

# numpy.shares_memory's work bound; beyond it the arrays count as
# overlapping (refused), which is the safe answer.
_OVERLAP_WORK = 100000
_INT64 = (-(1 << 63), (1 << 63) - 1)
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
    if not _INT64[0] <= value <= _INT64[1]:
        raise ValueError("%s: argument '%s' = %d does not fit in 64 bits"
                         % (where, arg["name"], value))
    return value


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
    for k, (extent, stride) in enumerate(zip(value.shape, value.strides)):
        if extent <= 1:
            continue
        last = k == value.ndim - 1
        # Behind static extents the stride is compiled in: row-major.
        fixed = all(e is not None for e in static[k + 1:])
        row_major = value.itemsize * int(np.prod(value.shape[k + 1:]))
        if stride <= 0 or stride % value.itemsize or (
                last and stride != value.itemsize) or (
                fixed and stride != row_major):
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
    """An affine expression of the JSON over the integer arguments."""
    return expr["constant"] + sum(c * ints[a] for a, c in expr["terms"])


def bounds(plan, args, values, where):
    """Every access of `plan` (the entry point's "bounds") inside its array;
    the rotated arrays of a time loop of one shape."""
    if "unsupported" in plan:
        raise NotImplementedError(
            "%s: the accesses of this function cannot be bounded (%s), so a "
            "call cannot be checked; pass check_bounds=False to call it "
            "unchecked" % (where, plan["unsupported"]))
    ints = {k: v for k, v in enumerate(values) if isinstance(v, int)}
    # The union, per array dimension, of the accesses that happen.
    spans = {}
    for access in plan["accesses"]:
        if any(evaluate(lb, ints) >= evaluate(ub, ints)
               for lb, ub in access["when"]):
            continue
        key = (access["argument"], access["dim"])
        lo, hi = evaluate(access["lo"], ints), evaluate(access["hi"], ints)
        used = {a for e in (access["lo"], access["hi"]) for a, _ in e["terms"]}
        old = spans.get(key)
        if old:
            lo, hi = min(lo, old[0]), max(hi, old[1])
            used |= old[3]
        spans[key] = (lo, hi, access["writes"] or bool(old and old[2]), used)
    for (k, dim), (lo, hi, writes, used) in sorted(spans.items()):
        if lo >= 0 and hi < values[k].shape[dim]:
            continue
        given = ", ".join("%s = %d" % (args[a]["name"], ints[a])
                          for a in sorted(used))
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
    """No two of [(name, array)] share memory."""
    for i, (a_name, a) in enumerate(named_arrays):
        for b_name, b in named_arrays[i + 1:]:
            if not np.may_share_memory(a, b):
                continue
            try:
                shared = np.shares_memory(a, b, max_work=_OVERLAP_WORK)
            except _TOO_HARD:
                shared = True
            if shared:
                raise ValueError("%s: arguments '%s' and '%s' share memory; "
                                 "the arrays of one call must not overlap"
                                 % (where, a_name, b_name))


def written_arguments(plan):
    """The argument numbers the function writes."""
    return {a["argument"] for a in plan.get("accesses", []) if a["writes"]}
