#!/usr/bin/env python3
# ===- stencilgen.py - Random stencil functions for adjoint testing -------=== #
#
# Generates random `stencil` functions (primal only) and a JSON description
# that check_adjoint.py uses to call them and their `--stencil-adjoint`
# adjoints. Standard library only.
#
# Every case is one public function `@case<K>` with
#   * dimension 1-3 and offset radius 1-3,
#   * a read pattern: star, dense (full cube), sparse (random subset of the
#     cube), one-sided (offsets of one sign per dimension) or gapped (no
#     centre point, e.g. u[i+1] - u[i-1]),
#   * a linear body (constant and passive-coefficient-array weighted sums,
#     divisions by passive values) or a nonlinear body mixing the supported
#     derivative rules with values kept in safe domains (log(1+x*x),
#     sqrt(1+x*x), exp(0.1*x), x/(2+y*y), ...),
#   * an output that is assigned (stencil.store) or accumulated, possibly at
#     non-zero offsets (stencil.accumulate: the primal then scatters),
#   * optionally an active scalar coefficient (sometimes transformed by a
#     top-level scalar op before use),
#   * optionally a second domain chained through a temporary: an active
#     array argument, or a memref.alloc,
#   * optionally a reduction returned by the function (it gets a seed),
#   * optionally an active parameter array `p` read through `dims` that are
#     not a permutation (its adjoint is a reduction): a selection
#     (`%p[o] dims [k]`), a repetition (`%p[o, o] dims [k, k]`), fixed
#     elements (`%p[2] dims [_]` of a memref<3xf64>, or `%p[1, o] dims [_, k]`
#     of a memref<3x?xf64>) or a rank-0 array (`%p[] dims []`); added to a
#     linear body (which stays linear) or multiplied into a nonlinear one.
#     Its choices come from a second generator seeded by the seed and the
#     case, so the other choices of a seed stay what they were.
# Bounds are symbolic, `(lo_k) to (%n<k> - hi_k)`, with lo/hi at least the
# radius the domain needs so that every access stays inside arrays of
# extents (%n0, ..., %n<d-1>); every dimension has its own size symbol.
#
# With --nonrect, nonrect.py clips every domain (but the writer of an
# allocated temporary) to its box intersected with random affine
# half-spaces in the outer coordinates and the sizes: triangles,
# trapezoids, wedges, skews; the other choices stay those of the seed.
#
# Usage:
#   stencilgen.py --seed 1 --count 60 -o cases.mlir --json cases.json
#
# As a module: `generate(seed, count, dims=(1, 2, 3))` returns
# (mlir_text, description) where description is the JSON object.
#
# Not generated (see docs/Adjoint.md): f32 values and arith.extf/truncf
# (finite differences at 1e-6 cannot resolve f32 rounding), and arrays that
# are read, then overwritten while still needed (the pass rejects them).
#
# ===----------------------------------------------------------------------=== #

import argparse
import itertools
import json
import math
import random
import sys

# Largest extent per dimension the size lists go up to, by rank; every size
# up to it is checked, then one large size.
MAX_SIZE = {1: 12, 2: 12, 3: 8}
LARGE_SIZE = {1: 1500, 2: 40, 3: 17}
# Largest read radius per rank (dense 3-D stencils stay at radius 1).
MAX_RADIUS = {1: 3, 2: 3, 3: 2}
SHAPES = ["star", "dense", "sparse", "one-sided", "gapped"]
# Ops left out unless --exclude-ops says otherwise (none).
DEFAULT_EXCLUDED = ()
# Ops the current generation leaves out (set by generate()).
EXCLUDED = set(DEFAULT_EXCLUDED)

# Helper functions with user-given partial derivatives, for func.call with
# `stencil.partials`. g(a, b) = a * sin(b); h(a, b) = a * b + 0.5 * a.
CALLEES = """\
func.func private @gen_g(%a: f64, %b: f64) -> f64 {
  %s = math.sin %b : f64
  %m = arith.mulf %a, %s : f64
  return %m : f64
}
func.func private @gen_dg_da(%a: f64, %b: f64) -> f64 {
  %s = math.sin %b : f64
  return %s : f64
}
func.func private @gen_dg_db(%a: f64, %b: f64) -> f64 {
  %c = math.cos %b : f64
  %m = arith.mulf %a, %c : f64
  return %m : f64
}
func.func private @gen_h(%a: f64, %b: f64) -> f64 {
  %half = arith.constant 0.5 : f64
  %m = arith.mulf %a, %b : f64
  %h = arith.mulf %half, %a : f64
  %s = arith.addf %m, %h : f64
  return %s : f64
}
func.func private @gen_dh_da(%a: f64, %b: f64) -> f64 {
  %half = arith.constant 0.5 : f64
  %s = arith.addf %b, %half : f64
  return %s : f64
}
func.func private @gen_dh_db(%a: f64, %b: f64) -> f64 {
  return %a : f64
}
"""


def fmt(value):
    """An f64 literal MLIR parses back to the same double."""
    return "%.17e" % value


def memref_type(rank):
    return "memref<%sf64>" % ("?x" * rank)


# ===----------------------------------------------------------------------=== #
# Read patterns
# ===----------------------------------------------------------------------=== #


def offsets_for(rng, dim, shape, radius):
    """Returns a sorted list of offset tuples for the read pattern."""
    zero = (0,) * dim
    if shape == "star":
        offs = {zero}
        for k in range(dim):
            for r in range(1, radius + 1):
                for sign in (-1, 1):
                    o = [0] * dim
                    o[k] = sign * r
                    offs.add(tuple(o))
    elif shape == "dense":
        offs = set(itertools.product(range(-radius, radius + 1), repeat=dim))
    elif shape == "sparse":
        cube = list(itertools.product(range(-radius, radius + 1), repeat=dim))
        count = rng.randint(2, min(len(cube), 7))
        offs = set(rng.sample(cube, count))
        # Make sure the radius is reached in some dimension.
        o = [0] * dim
        o[rng.randrange(dim)] = rng.choice((-radius, radius))
        offs.add(tuple(o))
    elif shape == "one-sided":
        signs = [rng.choice((-1, 1)) for _ in range(dim)]
        offs = {zero}
        for k in range(dim):
            for r in range(1, radius + 1):
                o = [0] * dim
                o[k] = signs[k] * r
                offs.add(tuple(o))
        if dim > 1:
            offs.add(tuple(signs[k] * rng.randint(0, radius) for k in range(dim)))
    elif shape == "gapped":
        # Centred differences without the centre: u[p+e] - u[p-e] per dim.
        offs = set()
        for k in range(dim):
            r = rng.randint(1, radius)
            for sign in (-1, 1):
                o = [0] * dim
                o[k] = sign * r
                offs.add(tuple(o))
        o = [0] * dim
        o[0] = radius
        offs.add(tuple(o))
        o[0] = -radius
        offs.add(tuple(o))
    else:
        raise ValueError(shape)
    return sorted(offs)


def extent(offsets, dim):
    """(lo, hi) per dimension: how far the offsets reach below and above."""
    lo = [0] * dim
    hi = [0] * dim
    for o in offsets:
        for k in range(dim):
            lo[k] = max(lo[k], -o[k])
            hi[k] = max(hi[k], o[k])
    return lo, hi


# ===----------------------------------------------------------------------=== #
# Domain bodies
# ===----------------------------------------------------------------------=== #


class Term:
    """A value in a body: SSA name and a bound on its magnitude."""

    def __init__(self, ssa, bound):
        self.ssa = ssa
        self.bound = bound


class Body:
    """Builds the ops of one domain body."""

    def __init__(self, fn, rng, dim):
        self.fn = fn
        self.rng = rng
        self.dim = dim
        self.lines = []
        self.gathers = {}
        self.consts = {}
        self.rules = set()
        self.accesses = []  # offsets of every access (reads and writes)

    def emit(self, text):
        self.lines.append("    " + text)

    def new(self):
        return self.fn.new()

    def const(self, value):
        key = fmt(value)
        if key not in self.consts:
            name = self.new()
            self.emit("%s = arith.constant %s : f64" % (name, key))
            self.consts[key] = name
        return self.consts[key]

    def gather(self, array, offset, bound=1.0):
        key = (array, offset)
        if key not in self.gathers:
            name = self.new()
            self.emit("%s = stencil.gather %%%s[%s] : %s" %
                      (name, array, ", ".join(map(str, offset)),
                       memref_type(self.dim)))
            self.gathers[key] = name
            self.accesses.append(offset)
        return Term(self.gathers[key], bound)

    def op(self, text, bound, rule=None):
        name = self.new()
        self.emit("%s = %s" % (name, text))
        if rule:
            self.rules.add(rule)
        return Term(name, bound)

    # Shorthands for binary and unary float ops.
    def bin(self, opname, x, y, bound):
        return self.op("arith.%s %s, %s : f64" % (opname, x.ssa, y.ssa), bound,
                       "arith." + opname)

    def un(self, dialect_op, x, bound):
        return self.op("%s %s : f64" % (dialect_op, x.ssa), bound, dialect_op)

    def scale(self, x, k):
        return self.op("arith.mulf %s, %s : f64" % (x.ssa, self.const(k)),
                       x.bound * abs(k), "arith.mulf")

    def one_plus_square(self, x):
        sq = self.bin("mulf", x, x, x.bound ** 2)
        return self.op("arith.addf %s, %s : f64" % (self.const(1.0), sq.ssa),
                       1 + x.bound ** 2, "arith.addf")

    def normalise(self, x, limit=4.0):
        """Scales `x` down if its bound grew past `limit`."""
        if x.bound <= limit:
            return x
        return self.scale(x, round(1.0 / x.bound, 6) or 1e-6)


def random_coefficient(rng):
    value = 0.0
    while abs(value) < 0.25:
        value = round(rng.uniform(-2.0, 2.0), 3)
    return value


def linear_body(body, leaves, coefs, scalar):
    """A weighted sum of the leaves: linear in every active array."""
    rng = body.rng
    terms = []
    for leaf in leaves:
        pick = rng.random()
        if coefs and pick < 0.3:
            c = body.gather(coefs[0][0], rng.choice(coefs[0][1]), 1.5)
            terms.append(body.bin("mulf", c, leaf, 1.5))
        elif coefs and pick < 0.4:
            c = body.gather(coefs[-1][0], rng.choice(coefs[-1][1]), 1.5)
            terms.append(body.bin("divf", leaf, c, 2.0))
        elif pick < 0.5:
            terms.append(body.un("arith.negf", leaf, 1.0))
        elif pick < 0.6:
            k = body.const(random_coefficient(rng))
            terms.append(body.op("arith.divf %s, %s : f64" % (leaf.ssa, k), 4.0,
                                 "arith.divf"))
        else:
            terms.append(body.scale(leaf, random_coefficient(rng)))
    rng.shuffle(terms)
    acc = terms[0]
    for t in terms[1:]:
        acc = body.bin(rng.choice(("addf", "subf")), acc, t, acc.bound + t.bound)
    if scalar is not None:
        acc = body.bin("mulf", acc, scalar, acc.bound * scalar.bound)
    return acc


def unary_nonlinear(body, x):
    """Applies a random smooth (or piecewise smooth) op to `x`."""
    rng = body.rng
    b = max(x.bound, 1.0)
    choice = rng.choice([op for op in (
        "sin", "cos", "tanh", "atan", "exp", "exp2", "expm1", "log", "log2",
        "log10", "log1p", "sqrt", "rsqrt", "cbrt", "sinh", "cosh", "tan",
        "absf", "floor", "ceil", "fpowi", "negf", "square") if op not in EXCLUDED])
    if choice in ("sin", "cos", "tanh"):
        return body.un("math." + choice, x, 1.0)
    if choice == "atan":
        return body.un("math.atan", x, min(x.bound, 1.6))
    if choice in ("exp", "exp2", "expm1"):
        k = 0.1 if b <= 10 else round(1.0 / b, 6)
        y = body.scale(x, k)
        return body.un("math." + choice, y, math.exp(k * b))
    if choice in ("log", "log2", "log10", "sqrt", "rsqrt", "cbrt"):
        y = body.one_plus_square(x)
        bound = {"log": math.log(y.bound), "log2": math.log2(y.bound),
                 "log10": math.log10(y.bound), "sqrt": math.sqrt(y.bound),
                 "rsqrt": 1.0, "cbrt": y.bound ** (1.0 / 3.0)}[choice]
        return body.un("math." + choice, y, bound)
    if choice == "log1p":
        y = body.bin("mulf", x, x, x.bound ** 2)
        return body.un("math.log1p", y, math.log1p(y.bound))
    if choice in ("sinh", "cosh", "tan"):
        y = body.scale(x, round(1.0 / b, 6))
        return body.un("math." + choice, y, 1.6)
    if choice == "absf":
        return body.un("math.absf", x, x.bound)
    if choice in ("floor", "ceil"):
        # Zero derivative; keep x itself in the value so the sum still
        # depends on its operands: x + 0.25 * floor(x).
        f = body.un("math." + choice, x, x.bound + 1)
        g = body.scale(f, 0.25)
        return body.bin("addf", x, g, x.bound * 1.25 + 0.25)
    if choice == "fpowi":
        n = rng.choice((2, 3))
        k = body.new()
        body.emit("%s = arith.constant %d : i32" % (k, n))
        y = body.op("math.fpowi %s, %s : f64, i32" % (x.ssa, k), x.bound ** n,
                    "math.fpowi")
        return body.normalise(y)
    if choice == "negf":
        return body.un("arith.negf", x, x.bound)
    return body.normalise(body.bin("mulf", x, x, x.bound ** 2))


def binary_nonlinear(body, x, y):
    """Combines two values with a random op."""
    rng = body.rng
    choice = rng.choice([op for op in (
        "addf", "subf", "mulf", "divf", "maximumf", "minimumf", "maxnumf",
        "minnumf", "select", "remf", "powf", "atan2", "copysign", "call")
        if op not in EXCLUDED])
    if choice in ("addf", "subf"):
        return body.bin(choice, x, y, x.bound + y.bound)
    if choice == "mulf":
        return body.normalise(body.bin("mulf", x, y, x.bound * y.bound))
    if choice == "divf":
        # x / (2 + y*y)
        sq = body.bin("mulf", y, y, y.bound ** 2)
        den = body.op("arith.addf %s, %s : f64" % (body.const(2.0), sq.ssa),
                      2 + y.bound ** 2, "arith.addf")
        return body.bin("divf", x, den, x.bound / 2)
    if choice in ("maximumf", "minimumf", "maxnumf", "minnumf"):
        return body.bin(choice, x, y, max(x.bound, y.bound))
    if choice == "select":
        pred = rng.choice(("ogt", "olt", "oge", "ole", "ugt", "ult"))
        if rng.random() < 0.3:
            cond = body.op("arith.cmpf %s, %s, %s : f64" %
                           (pred, x.ssa, body.const(0.125)), 0, "arith.cmpf")
        else:
            cond = body.op("arith.cmpf %s, %s, %s : f64" % (pred, x.ssa, y.ssa),
                           0, "arith.cmpf")
        return body.op("arith.select %s, %s, %s : f64" % (cond.ssa, x.ssa, y.ssa),
                       max(x.bound, y.bound), "arith.select")
    if choice == "remf":
        # fmod(3x, 0.7 + 0.1*y*y): quotients of a few units, so the
        # derivative with respect to the divisor is non-trivial.
        a = body.scale(x, 3.0)
        sq = body.bin("mulf", y, y, y.bound ** 2)
        small = body.scale(sq, 0.1)
        den = body.op("arith.addf %s, %s : f64" % (body.const(0.7), small.ssa),
                      0.7 + 0.1 * y.bound ** 2, "arith.addf")
        return body.bin("remf", a, den, den.bound)
    if choice == "powf":
        # (1 + x*x) ^ (k*y) with |k*y| <= 1
        base = body.one_plus_square(x)
        e = body.scale(y, round(1.0 / max(y.bound, 1.0), 6))
        return body.normalise(body.op(
            "math.powf %s, %s : f64" % (base.ssa, e.ssa), base.bound, "math.powf"))
    if choice == "atan2":
        den = body.one_plus_square(y)
        return body.op("math.atan2 %s, %s : f64" % (x.ssa, den.ssa), 1.6,
                       "math.atan2")
    if choice == "copysign":
        return body.op("math.copysign %s, %s : f64" % (x.ssa, y.ssa), x.bound,
                       "math.copysign")
    callee = rng.choice(("g", "h"))
    bound = x.bound if callee == "g" else x.bound * (y.bound + 0.5)
    return body.normalise(body.op(
        "func.call @gen_%s(%s, %s) {stencil.partials = [@gen_d%s_da, @gen_d%s_db]}"
        " : (f64, f64) -> f64" % (callee, x.ssa, y.ssa, callee, callee),
        bound, "func.call"))


def nonlinear_body(body, leaves, coefs, scalar):
    """Combines all leaves with random nonlinear ops."""
    rng = body.rng
    terms = list(leaves)
    if coefs:
        for _ in range(rng.randint(1, 2)):
            name, offs = rng.choice(coefs)
            c = body.gather(name, rng.choice(offs), 1.5)
            i = rng.randrange(len(terms))
            terms[i] = body.bin("mulf", terms[i], c, terms[i].bound * 1.5)
    if scalar is not None:
        i = rng.randrange(len(terms))
        terms[i] = body.bin("mulf", terms[i], scalar,
                            terms[i].bound * scalar.bound)
    # At least two nonlinear unary ops, then a random mix.
    for _ in range(rng.randint(2, 3)):
        i = rng.randrange(len(terms))
        terms[i] = unary_nonlinear(body, terms[i])
    while len(terms) > 1:
        rng.shuffle(terms)
        x, y = terms.pop(), terms.pop()
        if rng.random() < 0.55:
            z = body.bin(rng.choice(("addf", "subf")), x, y, x.bound + y.bound)
        else:
            z = binary_nonlinear(body, x, y)
        if rng.random() < 0.25:
            z = unary_nonlinear(body, z)
        terms.append(body.normalise(z, 8.0))
    return terms[0]


# ===----------------------------------------------------------------------=== #
# Functions
# ===----------------------------------------------------------------------=== #


class Function:
    def __init__(self, name):
        self.name = name
        self.counter = 0

    def new(self):
        self.counter += 1
        return "%%v%d" % self.counter


def bounds_text(dim, lo, hi):
    lows = ", ".join(str(l) for l in lo)
    highs = ", ".join(("%%n%d - %d" % (k, h)) if h else ("%%n%d" % k)
                      for k, h in enumerate(hi))
    return "(%s) to (%s)" % (lows, highs)


def domain_header(dim, lo, hi, results="", bounds=None):
    ivs = ", ".join("%%i%d" % k for k in range(dim))
    return "  %sstencil.domain (%s) = %s%s {" % (
        "", ivs, bounds or bounds_text(dim, lo, hi), results)


def pad(lo, hi, rng, dim, slack):
    """Adds 0..slack extra points to each side."""
    return ([l + rng.randint(0, slack) for l in lo],
            [h + rng.randint(0, slack) for h in hi])


# Kinds of non-permutation reads of the parameter array `p`.
PARAM_KINDS = ["selection", "repetition", "fixed", "channel", "rank0"]
# The share of cases with a parameter array.
PARAM_FRACTION = 0.4


class Param:
    """An active array `p` that a domain reads through `dims` that are not a
    permutation of the iteration dimensions."""

    def __init__(self, prng, dim, kinds=PARAM_KINDS):
        self.kind = prng.choice(kinds)
        self.k = prng.randrange(dim)
        self.fixed = prng.randrange(3)
        if self.kind == "selection":
            self.type, self.shape = "memref<?xf64>", ["n%d" % self.k]
        elif self.kind == "repetition":
            self.type = "memref<?x?xf64>"
            self.shape = ["n%d" % self.k, "n%d" % self.k]
        elif self.kind == "fixed":
            self.type, self.shape = "memref<3xf64>", ["3"]
        elif self.kind == "channel":
            self.type, self.shape = "memref<3x?xf64>", ["3", "n%d" % self.k]
        else:
            self.type, self.shape = "memref<f64>", []

    def arg(self):
        return {"name": "p", "kind": "array", "rank": len(self.shape),
                "shape": self.shape, "active": True, "init": [0.5, 1.5]}

    def read(self, body, offset):
        """Emits the read at the iteration offset `offset` (one of the
        domain's read offsets, so it stays inside the array)."""
        o = offset[self.k]
        index, dims = {
            "selection": ([o], [self.k]),
            "repetition": ([o, o], [self.k, self.k]),
            "fixed": ([self.fixed], ["_"]),
            "channel": ([self.fixed, o], ["_", self.k]),
            "rank0": ([], []),
        }[self.kind]
        name = body.new()
        body.emit("%s = stencil.gather %%p[%s] dims [%s] : %s" %
                  (name, ", ".join(map(str, index)),
                   ", ".join(map(str, dims)), self.type))
        return Term(name, 1.5)


def add_param(body, prng, param, value, offsets, linear):
    """Adds the parameter's read to `value`: a scaled term of a linear body,
    a factor of a nonlinear one."""
    p = param.read(body, prng.choice(offsets))
    if linear:
        term = body.scale(p, random_coefficient(prng))
        return body.bin("addf", value, term, value.bound + term.bound)
    return body.normalise(body.bin("mulf", value, p, value.bound * p.bound),
                          8.0)


def make_case(rng, index, dim, linear, temp_kinds=("arg",), prng=None,
              clip=None, param_kinds=PARAM_KINDS):
    """Returns (mlir text, description dict) of one case. `prng` draws the
    parameter array's choices (none without it); `clip` (a
    nonrect.Clipper) clips the domains to nonrectangular ones."""
    fn = Function("case%d" % index)

    def bounds(lo, hi, box=False, lines=(), result=False):
        if clip is None:
            return bounds_text(dim, lo, hi)
        return clip.bounds_text(lo, hi, box, lines, scalar_name, result)

    param = None
    if prng is not None and prng.random() < PARAM_FRACTION:
        param = Param(prng, dim, param_kinds)
        # The domain (of two chained ones) that reads it.
        param_domain = prng.randrange(2)
    max_size = MAX_SIZE[dim]
    shape = rng.choice(SHAPES)
    if shape == "dense" and dim == 3:
        radius = 1
    elif shape == "dense" and dim == 2:
        radius = rng.randint(1, 2)
    else:
        radius = rng.randint(1, MAX_RADIUS[dim])
    chained = rng.random() < 0.35
    temp_kind = rng.choice(temp_kinds) if chained else None
    has_scalar = rng.random() < 0.5
    scalar_op = has_scalar and rng.random() < 0.4
    second_input = rng.random() < 0.35
    n_coefs = rng.choice((0, 1, 1, 2))
    out_kind = rng.choice(("store", "store", "accumulate"))
    reduction = rng.random() < 0.35

    if chained:
        # Two domains share the radius budget: each dimension must fit both
        # plus two interior points at the largest size.
        budget = max(1, (max_size - 2) // 4)
        radius = min(radius, budget)
        radius2 = rng.randint(1, budget)
    offs = offsets_for(rng, dim, shape, radius)

    # Arguments, in order.
    args = []
    arrays = []  # (name, active)

    def add_array(name, active, init):
        args.append({"name": name, "kind": "array", "rank": dim,
                     "shape": ["n%d" % k for k in range(dim)],
                     "active": active, "init": init})
        arrays.append(name)

    add_array("r", True, [-1.0, 1.0])
    add_array("u", True, [-1.0, 1.0])
    if second_input:
        add_array("v", True, [-1.0, 1.0])
    coefs = []
    for c in range(n_coefs):
        add_array("c%d" % c, False, [0.5, 1.5])
    if param:
        args.append(param.arg())
    if temp_kind == "arg":
        add_array("t", True, [-1.0, 1.0])
    if has_scalar:
        args.append({"name": "s", "kind": "scalar", "type": "f64",
                     "active": True, "init": [0.5, 1.5]})
    for k in range(dim):
        args.append({"name": "n%d" % k, "kind": "size"})

    def coef_offsets():
        return [tuple(rng.randint(-radius, radius) for _ in range(dim))
                for _ in range(2)]

    lines = []
    sig = []
    for a in args:
        if a["name"] == "p" and param:
            ty = param.type
        elif a["kind"] == "array":
            ty = memref_type(dim)
        elif a["kind"] == "scalar":
            ty = "f64"
        else:
            ty = "index"
        attr = " {stencil.active}" if a.get("active") else ""
        sig.append("%%%s: %s%s" % (a["name"], ty, attr))
    ret = " -> f64" if reduction else ""
    lines.append("func.func @%s(%s)%s {" % (fn.name, ", ".join(sig), ret))

    rules = set()
    scalar_name = "%s" if has_scalar else None
    if scalar_op:
        op = rng.choice(("mulf", "sin", "exp", "addf"))
        sname = fn.new()
        if op == "mulf":
            lines.append("  %s = arith.mulf %%s, %%s : f64" % sname)
        elif op == "addf":
            lines.append("  %s = arith.addf %%s, %%s : f64" % sname)
        else:
            lines.append("  %s = math.%s %%s : f64" % (sname, op))
        rules.add("top-level " + op)
        scalar_name = sname
    scalar_bound = 3.0 if scalar_op else 1.5

    if temp_kind == "alloc":
        t_name = fn.new()
        dims = ", ".join("%%n%d" % k for k in range(dim))
        lines.append("  %s = memref.alloc(%s) : %s" % (t_name, dims, memref_type(dim)))
        t_ref = t_name[1:]
    else:
        t_ref = "t"

    active_inputs = ["u"] + (["v"] if second_input else [])
    coef_names = ["c%d" % c for c in range(n_coefs)]
    domains = []
    built = []

    def build_domain(read_arrays, read_offs, out, kind, lin, slack_lo=None):
        body = Body(fn, rng, dim)
        leaves = []
        for o in read_offs:
            name = rng.choice(read_arrays)
            leaves.append(body.gather(name, o, read_arrays_bound.get(name, 1.0)))
        # Every read array is read at least once.
        for name in read_arrays:
            if not any(key[0] == name for key in body.gathers):
                leaves.append(body.gather(name, rng.choice(read_offs),
                                          read_arrays_bound.get(name, 1.0)))
        cs = [(c, coef_offsets()) for c in coef_names]
        scalar = Term(scalar_name, scalar_bound) if scalar_name and rng.random() < 0.8 else None
        value = (linear_body if lin else nonlinear_body)(body, leaves, cs, scalar)
        if param and (len(built) == param_domain or not chained):
            value = add_param(body, prng, param, value, read_offs, lin)
        built.append(body)
        writes = []
        if kind == "store":
            body.emit("stencil.store %s to %%%s : %s" % (value.ssa, out, memref_type(dim)))
        else:
            n_acc = rng.randint(1, 2)
            for a in range(n_acc):
                o = tuple(rng.randint(-1, 1) for _ in range(dim)) if rng.random() < 0.7 else (0,) * dim
                v = value if a == 0 else body.scale(leaves[rng.randrange(len(leaves))], random_coefficient(rng))
                body.emit("stencil.accumulate %s to %%%s[%s] : %s" %
                          (v.ssa, out, ", ".join(map(str, o)), memref_type(dim)))
                writes.append(o)
                body.accesses.append(o)
        rules.update(body.rules)
        return body, value.bound

    read_arrays_bound = {}
    if chained:
        # Domain 1: t = f(inputs); domain 2: r = g(t, inputs).
        b1, t_bound = build_domain(active_inputs, offs, t_ref, "store", linear)
        lo1, hi1 = extent(b1.accesses, dim)
        lo1, hi1 = pad(lo1, hi1, rng, dim, 1)
        read_arrays_bound[t_ref] = t_bound
        offs2 = offsets_for(rng, dim, rng.choice(SHAPES) if dim < 3 else "star", radius2)
        reads2 = [t_ref] + (active_inputs if rng.random() < 0.4 else [])
        b2, _ = build_domain(reads2, offs2, "r", out_kind, linear)
        lo2, hi2 = extent(b2.accesses, dim)
        if temp_kind == "alloc":
            # Reads of the uninitialised allocation must stay where domain 1
            # wrote it.
            t_offs = [o for (name, o) in b2.gathers if name == t_ref]
            tlo, thi = extent(t_offs, dim)
            lo2 = [max(lo2[k], lo1[k] + tlo[k]) for k in range(dim)]
            hi2 = [max(hi2[k], hi1[k] + thi[k]) for k in range(dim)]
        domains.append((b1, lo1, hi1))
        lo2, hi2 = pad(lo2, hi2, rng, dim, 1 if max(lo2 + hi2) < 4 else 0)
        domains.append((b2, lo2, hi2))
    else:
        b1, _ = build_domain(active_inputs, offs, "r", out_kind, linear)
        lo1, hi1 = extent(b1.accesses, dim)
        lo1, hi1 = pad(lo1, hi1, rng, dim, 1)
        domains.append((b1, lo1, hi1))

    for n, (body, lo, hi) in enumerate(domains):
        # An allocation's writer keeps its box (nonrect.py says why).
        box = temp_kind == "alloc" and n == 0
        lines.append(domain_header(dim, lo, hi,
                                   bounds=bounds(lo, hi, box, body.lines)))
        lines.extend(body.lines)
        lines.append("  }")

    red_lo = red_hi = None
    if reduction:
        body = Body(fn, rng, dim)
        src = rng.choice(["r", "r", "u"])
        red_offs = rng.sample(offsets_for(rng, dim, "star", 1), rng.randint(1, 2))
        leaves = [body.gather(src, o, 2.0) for o in red_offs]
        if linear:
            value = linear_body(body, leaves, [], None)
        else:
            x = leaves[0]
            for y in leaves[1:]:
                x = body.bin("addf", x, y, x.bound + y.bound)
            value = body.normalise(body.bin("mulf", x, x, x.bound ** 2))
            if rng.random() < 0.5:
                value = unary_nonlinear(body, value)
        rules.update(body.rules)
        red_lo, red_hi = extent(body.accesses, dim)
        red_lo, red_hi = pad(red_lo, red_hi, rng, dim, 1)
        res = fn.new()
        ivs = ", ".join("%%i%d" % k for k in range(dim))
        lines.append("  %s = stencil.domain (%s) = %s -> (f64) {" %
                     (res, ivs, bounds(red_lo, red_hi, result=True)))
        lines.extend(body.lines)
        lines.append("    stencil.yield %s : f64" % value.ssa)
        lines.append("  }")
        domains.append((body, red_lo, red_hi))
        if has_scalar and not linear and rng.random() < 0.5:
            scaled = fn.new()
            lines.append("  %s = arith.mulf %s, %%s : f64" % (scaled, res))
            res = scaled
        ret_val = res
    if temp_kind == "alloc":
        lines.append("  memref.dealloc %s : %s" % (t_name, memref_type(dim)))
    lines.append("  return %s" % ("%s : f64" % ret_val if reduction else ""))
    lines.append("}")

    # Sizes: the smallest extent at which every domain is empty in a
    # dimension (minus one, so that upper < lower occurs), one-point
    # domains, then larger ones.
    need = [max(lo[k] + hi[k] for _, lo, hi in domains) for k in range(dim)]
    sizes = size_list(rng, dim, need, max_size)

    desc = {
        "name": fn.name,
        "dim": dim,
        "linear": linear,
        "pattern": shape,
        "radius": radius,
        "offsets": [list(o) for o in offs],
        "output": out_kind,
        "temporary": temp_kind,
        "scalar": has_scalar,
        "parameter": param.kind if param else None,
        "results": 1 if reduction else 0,
        "rules": sorted(rules),
        "args": args,
        "sizes": sizes,
        "domains": [{"lo": lo, "hi": hi} for _, lo, hi in domains],
    }
    if clip:
        clip.describe(desc)
    return "\n".join(lines) + "\n", desc


def size_list(rng, dim, need, max_size):
    """Size dicts {n0: .., n1: ..}: empty (upper < lower and upper = lower),
    one-point and larger domains."""
    def as_dict(t):
        return {"n%d" % k: t[k] for k in range(dim)}

    # Room for at least two interior points at the largest size.
    max_size = max([max_size] + [n + 2 for n in need])

    large = max(LARGE_SIZE[dim], max_size + 1)
    if dim == 1:
        start = max(0, need[0] - 1)
        return [as_dict((n,)) for n in range(start, max_size + 1)] + \
            [as_dict((large,))]
    tuples = []
    # Every size along the diagonal, from empty domains to the largest.
    for step in range(0, max_size + 1):
        tuples.append(tuple(min(max_size, max(0, n - 1) + step)
                            for n in need))
    lows = [max(0, n - 1) for n in need]
    tuples.append(tuple(lows))                                  # upper < lower
    tuples.append(tuple(need))                                  # empty
    tuples.append(tuple(n + 1 for n in need))                   # one point
    tuples.append(tuple(max_size for _ in need))                # largest
    for k in range(dim):
        t = [max_size] * dim
        t[k] = need[k]                                          # one dim empty
        tuples.append(tuple(t))
        t[k] = need[k] + 1                                      # one dim thin
        tuples.append(tuple(t))
    for _ in range(2):
        tuples.append(tuple(rng.randint(n + 1, max_size) for n in need))
    seen = []
    for t in tuples:
        t = tuple(min(max_size, x) for x in t)
        if t not in seen:
            seen.append(t)
    seen.append(tuple(large for _ in need))                     # one large
    return [as_dict(t) for t in seen]


def generate(seed, count, dims=(1, 2, 3), linear_fraction=0.4,
             temp_kinds=("arg",), excluded=DEFAULT_EXCLUDED, params=True,
             nonrect=False):
    """Returns (module text, description) for `count` cases. `temp_kinds`
    lists the temporaries chained domains may use: "arg" (an active array
    argument) and/or "alloc" (a memref.alloc in the function). `excluded`
    names ops the bodies must not use (e.g. "cbrt", "call", "remf").
    `params` lets cases read a parameter array through a non-permutation;
    `nonrect` clips the domains (nonrect.py)."""
    if nonrect:
        import nonrect as clipping
    EXCLUDED.clear()
    EXCLUDED.update(excluded)
    rng = random.Random(seed)
    parts = ["// Generated by stencilgen.py --seed %d --count %d%s. Do not edit.\n"
             % (seed, count, " --nonrect" if nonrect else ""),
             CALLEES]
    cases = []
    clips = []
    for index in range(count):
        dim = dims[index % len(dims)]
        linear = rng.random() < linear_fraction
        prng = random.Random("%d/%d" % (seed, index)) if params else None
        clip = clipping.Clipper(random.Random("nonrect/%d/%d" % (seed, index)),
                                dim, MAX_SIZE[dim]) if nonrect else None
        text, desc = make_case(rng, index, dim, linear, temp_kinds, prng, clip)
        parts.append(text)
        cases.append(desc)
        clips.append(clip)
    if nonrect:
        print(clipping.summary(clips))
    return "\n".join(parts), {"seed": seed, "cases": cases}


def main():
    p = argparse.ArgumentParser(
        description="Generate random stencil functions and their JSON description.")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--count", type=int, default=60)
    p.add_argument("--dims", default="1,2,3",
                   help="comma-separated ranks, cycled over the cases")
    p.add_argument("--linear-fraction", type=float, default=0.4)
    p.add_argument("--temporaries", default="arg,alloc",
                   help="comma-separated kinds of temporaries between chained "
                        "domains: arg, alloc (default: %(default)s)")
    p.add_argument("--exclude-ops", default=",".join(DEFAULT_EXCLUDED),
                   help="comma-separated ops bodies must not use, by the "
                        "generator's names (cbrt, call, remf, select, ...; "
                        "default: %(default)s)")
    p.add_argument("--no-params", action="store_true",
                   help="no parameter arrays read through non-permutations")
    p.add_argument("--nonrect", action="store_true",
                   help="clip the domains to nonrectangular ones (nonrect.py)")
    p.add_argument("-o", dest="output", required=True, help="output .mlir")
    p.add_argument("--json", required=True, help="output description")
    a = p.parse_args()
    dims = tuple(int(d) for d in a.dims.split(","))
    kinds = tuple(k for k in a.temporaries.split(",") if k)
    for k in kinds:
        if k not in ("arg", "alloc"):
            p.error("unknown temporary kind '%s'" % k)
    excluded = tuple(k for k in a.exclude_ops.split(",") if k)
    text, desc = generate(a.seed, a.count, dims, a.linear_fraction, kinds,
                          excluded, not a.no_params, a.nonrect)
    with open(a.output, "w") as f:
        f.write(text)
    with open(a.json, "w") as f:
        json.dump(desc, f, indent=1)
        f.write("\n")


if __name__ == "__main__":
    main()
