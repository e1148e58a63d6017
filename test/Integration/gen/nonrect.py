#!/usr/bin/env python3
# ===- nonrect.py - Nonrectangular domains for the random stencils --------=== #
#
# Clips the domains of stencilgen.py's cases (`stencilgen.py --nonrect`) to
# nonrectangular ones: each domain's box [lo_k, n_k - hi_k), which keeps
# every access inside the arrays, intersected with random affine
# half-spaces. Since the clipped domain is a subset of the box, every access
# still stays in bounds. Standard library only.
#
# Dimension k >= 1 gets at most a few extra bounds over the coordinates of
# the dimensions before it (%i0 .. %i<k-1>), the sizes and a constant, with
# coefficients in -2..2:
#   triangle   j from i: max(lo, %i0 + c), or j up to i: min(n - hi, %i0 + c)
#   anti       the other diagonal: min(n - hi, %n1 - %i0 + c)
#   band       a skewed strip (parallelogram, clipped to a trapezoid):
#              max(lo, %i0 - a) and min(n - hi, %i0 + b)
#   steep      slope 2: min(n - hi, %i0 * 2 + c), max(lo, %n1 - %i0 * 2 + c)
#   wedge      in 3-D, k bounded by both outer coordinates:
#              min(n - hi, %i0 + %i1 + c), max(lo, %i0 - %i1 + c)
#   random     a random half-space over every outer coordinate and a size
#   none       the box's bounds alone
# Dimension 0 has no outer coordinate: its bounds stay symbol-only, the
# box's bound with, sometimes, the max/min of more expressions of the sizes
# (`max(1, %n0 - 7)`, `min(%n0 - 1, %n1 + 1)`, `min(%n0 - 2, %n0 * 2 - 9)`).
# So rows are empty or partly empty, and for small sizes whole domains are.
# A clip is drawn again (up to a limit, then a fixed triangle or, in 1-D, a
# one-point cap is used) until it leaves a point at the largest size of the
# case's list and differs from the box at some size.
#
# Chained domains through temporaries: an active array argument `t` is an
# input too, so the elements a clipped domain does not write keep their
# values and every chain may be clipped. A memref.alloc temporary holds
# garbage outside what the first domain writes, so in a chain through an
# allocation the first domain (the writer) stays its box; the reading
# domain, whose box reads only inside the writer's box (stencilgen.py
# makes sure of that), may be clipped like every other.
#
# Domains with sums (results, or an adjoint that reduces into the active
# scalar or the parameter array) keep dimension 0 a single range, as the
# lowering requires (SUMS_CUT_OUTER below): their inner dimensions are
# clipped, and a 1-D one stays its box. stencilgen.py prints how many
# domains this changed.
#
# The choices come from a generator seeded by the seed and the case, so
# a case's body, box and sizes are those of the same case without
# --nonrect; the case's JSON gets, per domain, the bounds as written
# ("lower", "upper": one string per dimension) and two more sizes that
# differ per dimension. check_adjoint.py needs nothing else: the sizes are
# symbols.
#
# As a script: `nonrect.py --coverage cases.json` counts, over the cases and
# sizes of a description, the domains that are empty, have empty rows, or
# are partly empty, against their boxes.
#
# ===----------------------------------------------------------------------=== #

import argparse
import json
import re
import sys

# How many draws of a clip before the fixed fallback.
MAX_DRAWS = 30
# Shares of the cases whose dimension 0 gets more bounds.
OUTER_CUT = {1: 1.0, 2: 0.3, 3: 0.3}
INNER_KINDS = ["triangle", "anti", "band", "steep", "random", "none"]
# Whether domains with sums (their primal's results, or their adjoint's
# reductions: an active scalar, a parameter array read through a
# non-permutation) may take a max/min in dimension 0. The lowering runs
# sums in slices of dimension 0, which must then be a single range of the
# sizes; it refuses the others with a located error.
SUMS_CUT_OUTER = False


def has_sum(lines, scalar, result):
    """Whether a domain with body `lines` sums: it yields results, reads
    the active scalar `scalar` or the parameter array `%p`."""
    if result:
        return True
    for line in lines:
        tokens = re.split(r"[\s,:]+", line.strip())
        if "%p[" in line or (scalar and scalar in tokens):
            return True
    return False


# ===----------------------------------------------------------------------=== #
# Affine expressions
# ===----------------------------------------------------------------------=== #


class Expr:
    """sum(coef * name) + const over coordinates `i<k>` and sizes `n<k>`."""

    def __init__(self, coefs, const=0):
        self.coefs = {n: c for n, c in coefs.items() if c}
        self.const = const

    def eval(self, env):
        """The value with the names bound by `env`."""
        return self.const + sum(c * env[n] for n, c in self.coefs.items())

    def text(self):
        """The expression as the domain's bound lists spell it, e.g.
        `%n1 - %i0 * 2 + 3`: positive terms first."""
        def order(name):
            return (name[0] != "i", name)
        terms = [(c, "%" + n) for n, c in sorted(self.coefs.items(),
                                                 key=lambda t: order(t[0]))]
        if self.const:
            terms.append((self.const, None))
        if not terms:
            return "0"
        terms.sort(key=lambda t: t[0] < 0)
        out = ""
        for c, name in terms:
            mag = abs(c)
            if name is None:
                piece = "%d" % mag
            else:
                piece = name if mag == 1 else "%s * %d" % (name, mag)
            if not out:
                out = ("-" if c < 0 else "") + piece
            else:
                out += (" - " if c < 0 else " + ") + piece
        return out


def group_text(exprs, keyword):
    """One dimension's bound: the expression, or `max(...)`/`min(...)`."""
    if len(exprs) == 1:
        return exprs[0].text()
    return "%s(%s)" % (keyword, ", ".join(e.text() for e in exprs))


# ===----------------------------------------------------------------------=== #
# Domains
# ===----------------------------------------------------------------------=== #


class Domain:
    """Per dimension, the lower (max) and upper (min) expressions."""

    def __init__(self, lower, upper):
        self.lower = lower
        self.upper = upper

    @staticmethod
    def box(dim, lo, hi):
        """The box [lo_k, n<k> - hi_k)."""
        return Domain([[Expr({}, lo[k])] for k in range(dim)],
                      [[Expr({"n%d" % k: 1}, -hi[k])] for k in range(dim)])

    def texts(self):
        """(lower, upper): one bound string per dimension."""
        return ([group_text(g, "max") for g in self.lower],
                [group_text(g, "min") for g in self.upper])

    def bounds_text(self):
        lower, upper = self.texts()
        return "(%s) to (%s)" % (", ".join(lower), ", ".join(upper))

    def rows(self, sizes, k=0, env=None):
        """Yields (k, lower, upper) for every row of dimension k (and of the
        dimensions inside it) at the outer points of the domain: the row is
        empty if upper <= lower."""
        env = dict(sizes) if env is None else env
        lower = max(e.eval(env) for e in self.lower[k])
        upper = min(e.eval(env) for e in self.upper[k])
        yield k, lower, upper
        if k + 1 < len(self.lower):
            for i in range(lower, upper):
                env["i%d" % k] = i
                yield from self.rows(sizes, k + 1, env)
            env.pop("i%d" % k, None)

    def points(self, sizes, k=0, env=None, outer=()):
        """Yields every point of the domain at `sizes`, in order."""
        env = dict(sizes) if env is None else env
        lower = max(e.eval(env) for e in self.lower[k])
        upper = min(e.eval(env) for e in self.upper[k])
        for i in range(lower, upper):
            if k + 1 == len(self.lower):
                yield outer + (i,)
                continue
            env["i%d" % k] = i
            yield from self.points(sizes, k + 1, env, outer + (i,))
        env.pop("i%d" % k, None)

    def count(self, sizes):
        """The number of points at `sizes` ({"n0": .., ...})."""
        dim = len(self.lower)
        return sum(max(0, u - l) for k, l, u in self.rows(sizes) if k == dim - 1)

    def has_empty_row(self, sizes):
        return any(u <= l for _, l, u in self.rows(sizes))


def uniform_sizes(dim, value):
    """Every size symbol of a rank-`dim` case equal to `value`."""
    return {"n%d" % k: value for k in range(dim)}


# ===----------------------------------------------------------------------=== #
# Drawing clips
# ===----------------------------------------------------------------------=== #


def outer_cut(rng, dim):
    """Extra symbol-only bounds of dimension 0: (lower, upper) lists."""
    n0 = "n0"
    other = "n%d" % rng.randrange(1, dim) if dim > 1 else n0
    kind = rng.choice(["tail", "head", "other", "small-empty", "both"])
    if kind == "tail":        # the last points only
        return [Expr({n0: 1}, -rng.randint(3, 9))], []
    if kind == "head":        # the first points only
        return [], [Expr({}, rng.randint(2, 7))]
    if kind == "other":       # tied to another dimension's size
        return [], [Expr({other: 1}, rng.randint(-2, 1))]
    if kind == "small-empty":  # empty below a size, the box above
        return [], [Expr({n0: 2}, -rng.randint(5, 12))]
    return ([Expr({n0: 1}, -rng.randint(5, 10)), Expr({}, rng.randint(1, 3))],
            [Expr({other: 2}, -rng.randint(2, 6))])


def inner_cut(rng, dim, k):
    """Extra bounds of dimension k >= 1 over the outer coordinates."""
    j = rng.randrange(k)
    i, nk = "i%d" % j, "n%d" % k
    kinds = INNER_KINDS + (["wedge", "wedge"] if k == 2 else [])
    kind = rng.choice(kinds)
    if kind == "triangle":
        if rng.random() < 0.5:
            return [Expr({i: 1}, rng.randint(-2, 2))], []
        return [], [Expr({i: 1}, rng.randint(-1, 3))]
    if kind == "anti":
        side = Expr({nk: 1, i: -1}, rng.randint(-3, 1))
        return ([side], []) if rng.random() < 0.3 else ([], [side])
    if kind == "band":
        return ([Expr({i: 1}, -rng.randint(0, 3))],
                [Expr({i: 1}, rng.randint(1, 4))])
    if kind == "steep":
        if rng.random() < 0.5:
            return [], [Expr({i: 2}, rng.randint(-3, 2))]
        return [Expr({nk: 1, i: -2}, rng.randint(-2, 3))], []
    if kind == "wedge":
        upper = [Expr({"i0": 1, "i1": 1}, rng.randint(-4, 0))]
        lower = [Expr({"i0": 1, "i1": -1}, rng.randint(-2, 2))] \
            if rng.random() < 0.5 else []
        return lower, upper
    if kind == "random":
        lower, upper = [], []
        for side in (lower, upper):
            if rng.random() < 0.6:
                coefs = {"i%d" % m: rng.randint(-2, 2) for m in range(k)}
                coefs["n%d" % rng.randrange(dim)] = rng.randint(-1, 1)
                side.append(Expr(coefs, rng.randint(-3, 3)))
        return lower, upper
    return [], []


def draw(rng, dim, lo, hi, outer=True):
    """One random clip of the box (lo, hi); dimension 0 keeps its box
    unless `outer`."""
    dom = Domain.box(dim, lo, hi)
    if rng.random() < OUTER_CUT[dim] and outer:
        lower, upper = outer_cut(rng, dim)
        dom.lower[0] += lower
        dom.upper[0] += upper
    for k in range(1, dim):
        lower, upper = inner_cut(rng, dim, k)
        dom.lower[k] += lower
        dom.upper[k] += upper
    return dom


def fallback(dim, lo, hi):
    """A clip that always cuts: a triangle, or in 1-D a one-point cap."""
    dom = Domain.box(dim, lo, hi)
    if dim == 1:
        dom.upper[0].append(Expr({}, lo[0] + 1))
    else:
        dom.lower[1].append(Expr({"i0": 1}, lo[1] - lo[0]))
    return dom


class Clipper:
    """Draws the clipped bounds of one case's domains, from its own
    generator `rng`; `max_size` is the largest extent of the case's sizes."""

    def __init__(self, rng, dim, max_size):
        self.rng = rng
        self.dim = dim
        self.max_size = max_size
        self.domains = []
        # Domains with sums whose dimension 0 kept a single range, of all
        # domains with sums.
        self.steered = [0, 0]

    def bounds_text(self, lo, hi, box=False, lines=(), scalar=None,
                    result=False):
        """The bound lists of a domain with box (lo, hi) and body `lines`,
        clipped unless `box`. `scalar` names the active scalar, `result`
        says the domain yields a sum."""
        dim = self.dim
        dom = Domain.box(dim, lo, hi)
        sums = has_sum(lines, scalar, result)
        if sums:
            self.steered[1] += 1
            self.steered[0] += int(not SUMS_CUT_OUTER)
        if not box and not (sums and dim == 1 and not SUMS_CUT_OUTER):
            dom = self.clip(lo, hi, SUMS_CUT_OUTER or not sums)
        self.domains.append(dom)
        return dom.bounds_text()

    def clip(self, lo, hi, outer):
        dim = self.dim
        box = Domain.box(dim, lo, hi)
        top = max(self.max_size, max(lo[k] + hi[k] + 2 for k in range(dim)))
        checks = [uniform_sizes(dim, n) for n in range(top + 1)]
        for _ in range(MAX_DRAWS):
            dom = draw(self.rng, dim, lo, hi, outer)
            if dom.count(checks[-1]) == 0:
                continue
            if any(dom.count(s) != box.count(s) for s in checks):
                return dom
        return fallback(dim, lo, hi)

    def describe(self, desc):
        """Adds the bounds to the case's JSON and two sizes that differ per
        dimension (before the last, large one)."""
        for entry, dom in zip(desc["domains"], self.domains):
            entry["lower"], entry["upper"] = dom.texts()
        if self.dim == 1:
            return
        sizes = desc["sizes"]
        need = [max(d["lo"][k] + d["hi"][k] for d in desc["domains"])
                for k in range(self.dim)]
        top = max(max(s.values()) for s in sizes[:-1])
        for _ in range(2):
            extra = {"n%d" % k: self.rng.randint(need[k], top)
                     for k in range(self.dim)}
            if extra not in sizes:
                sizes.insert(len(sizes) - 1, extra)


def summary(clips):
    """The line stencilgen.py prints: what SUMS_CUT_OUTER changed."""
    steered = [sum(c.steered[k] for c in clips) for k in range(2)]
    return ("nonrect: %d of %d domains with sums keep dimension 0 a single "
            "range" % tuple(steered))


# ===----------------------------------------------------------------------=== #
# Coverage of a description
# ===----------------------------------------------------------------------=== #


def parse_expr(text, rename=None):
    """An Expr from a bound as written: terms `%x`, `%x * c`, `c * %x` and
    `c` joined by `+` and `-` (no parentheses); `rename` maps names."""
    coefs, const = {}, 0
    text = text.replace("-", "+-").replace(" ", "")
    for term in filter(None, text.split("+")):
        sign = -1 if term.startswith("-") else 1
        factors = term.lstrip("-").split("*")
        names = [f[1:] for f in factors if f.startswith("%")]
        mag = sign
        for f in factors:
            if not f.startswith("%"):
                mag *= int(f)
        if len(names) > 1:
            raise ValueError("not affine: %s" % text)
        if names:
            name = (rename or {}).get(names[0], names[0])
            coefs[name] = coefs.get(name, 0) + mag
        else:
            const += mag
    return Expr(coefs, const)


def parse_group(text, rename=None):
    """One dimension's bound: an expression or `max(...)`/`min(...)`."""
    text = text.strip()
    if text.startswith(("max(", "min(")):
        return [parse_expr(t, rename) for t in text[4:-1].split(",")]
    return [parse_expr(text, rename)]


def coverage(desc):
    """Counts (domain, size) pairs by what the clip leaves of the box."""
    counts = {"pairs": 0, "empty box": 0, "empty (box not)": 0,
              "empty rows": 0, "partial": 0, "whole box": 0}
    for case in desc["cases"]:
        for d in case["domains"]:
            if "lower" not in d:
                continue
            dim = len(d["lo"])
            dom = Domain([parse_group(t) for t in d["lower"]],
                         [parse_group(t) for t in d["upper"]])
            box = Domain.box(dim, d["lo"], d["hi"])
            for sizes in case["sizes"]:
                if max(sizes.values()) > 40:
                    continue
                counts["pairs"] += 1
                have, full = dom.count(sizes), box.count(sizes)
                if full == 0:
                    counts["empty box"] += 1
                elif have == 0:
                    counts["empty (box not)"] += 1
                elif have == full:
                    counts["whole box"] += 1
                else:
                    counts["partial"] += 1
                if have and dom.has_empty_row(sizes):
                    counts["empty rows"] += 1
    return counts


def main():
    p = argparse.ArgumentParser(description="Coverage of nonrectangular "
                                "domains in a stencilgen.py description.")
    p.add_argument("--coverage", required=True, metavar="JSON")
    a = p.parse_args()
    with open(a.coverage) as f:
        desc = json.load(f)
    for key, value in coverage(desc).items():
        print("%-16s %d" % (key, value))


if __name__ == "__main__":
    sys.exit(main())
