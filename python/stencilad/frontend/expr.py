"""SymPy expressions to ops: the body of a statement, a bound, a result.

`ExprLowering` walks a SymPy expression and calls the `TextBuilder` once
per distinct subexpression (SymPy's expressions are hashable, so a read or
a product used twice is computed once per domain). Which symbols mean what
(an argument, a counter, a sum) and how an array is read are the caller's:
`lookup(symbol)` returns (SSA name, type) and `read(expression)` the SSA
name of the value read.

The SymPy constructs and the ops they become:

    a + b, a - b, -a, a * b, a / b   arith.addf, subf, negf, mulf, divf
    a**k (integer k), a**(k/2)        products, math.sqrt, math.rsqrt
    a**b (other)                      math.powf
    sin cos tan exp log sqrt tanh sinh cosh atan atan2 Abs floor ceiling
                                      math.* (math.absf for Abs)
    Max, Min                          arith.maximumf, arith.minimumf
    Piecewise((a, c), ..., (z, True)) arith.select of arith.cmpf/cmpi
    counters and sizes in a float     arith.index_cast + arith.sitofp
"""

import math

from .mlir import Affine, FLOAT_TYPES
from .symbols import FrontendError, sp

# From this magnitude on, a value rounds to an infinite f32: the largest
# finite f32, (2 - 2**-23) * 2**127, plus half its last place.
F32_OVERFLOW = 2.0 ** 128 - 2.0 ** 103
LARGEST = {"f32": "3.4e38", "f64": "1.8e308"}

# What SymPy's conditions are (a Symbol is a Boolean too, so not that).
CONDITIONS = (sp.core.relational.Relational, sp.logic.boolalg.BooleanAtom,
              sp.logic.boolalg.BooleanFunction)

# SymPy functions of one float argument and their math op.
UNARY = {
    sp.sin: "sin", sp.cos: "cos", sp.tan: "tan", sp.exp: "exp",
    sp.tanh: "tanh", sp.sinh: "sinh", sp.cosh: "cosh", sp.atan: "atan",
    sp.Abs: "absf", sp.floor: "floor", sp.ceiling: "ceil",
}


def describe(expr):
    """An expression as the user wrote it, for messages."""
    return sp.sstr(expr, full_prec=False)      # 0.5, not 0.500000000000000


class ExprLowering:
    """Lowers expressions of one scope (a domain body, or the function's
    top level) with one float type."""

    def __init__(self, builder, ftype, lookup, read=None):
        self.b = builder
        self.ftype = ftype
        self.lookup = lookup
        self.read = read
        self.loc = None
        self._cache = {}

    def _fail(self, expr, why):
        raise FrontendError("%s: %s" % (describe(expr), why), self.loc)

    def _memo(self, key, make):
        if key not in self._cache:
            self._cache[key] = make()
        return self._cache[key]

    # -- floats -----------------------------------------------------------
    def float(self, expr):
        """The SSA name of `expr` as a value of the float type."""
        expr = sp.sympify(expr)
        return self._memo(("f", expr), lambda: self._float(expr))

    def _const(self, value):
        return self._memo(("c", float(value)), lambda: self.b.constant_float(
            value, self.ftype, self.loc))

    def _float(self, e):
        if isinstance(e, CONDITIONS):
            self._fail(e, "is a condition, not a value; for 1 where it "
                       "holds and 0 elsewhere write sp.Piecewise((1, cond), "
                       "(0, True))")
        if e.is_Number or e.is_NumberSymbol or (e.is_number and
                                                 e.is_real is False):
            if not e.is_real or not e.is_finite:
                self._fail(e, "is not a finite real number; write a finite "
                       "constant, or pass the value as a scalar argument")
            limit = F32_OVERFLOW if self.ftype == "f32" else math.inf
            if abs(float(e)) >= limit:
                self._fail(e, "overflows %s (its largest value is about "
                           "%s), so it would be infinity; scale the "
                           "stencil%s" % (self.ftype, LARGEST[self.ftype],
                                          " or use dtype='f64'" if
                                          self.ftype == "f32" else ""))
            return self._const(e)
        if e.is_Symbol:
            name, type_ = self.lookup(e, self.loc)
            if type_ in FLOAT_TYPES:     # the kernel's one float type
                return name
            return self.b.index_to_float(name, self.ftype, self.loc)
        if isinstance(e, sp.core.function.AppliedUndef):
            if self.read is None:
                self._fail(e, "reads an array outside a domain; the result "
                           "is made of sums and scalars: read the array in "
                           "kernel.sum(expr, bounds)")
            return self.read(e, self.loc)
        if e.is_Add:
            return self._add(e)
        if e.is_Mul:
            return self._mul(e)
        if e.is_Pow:
            return self._pow(e.base, e.exp)
        return self._function(e)

    def _arith(self, op, *operands):
        return self.b.arith(op, list(operands), self.ftype, self.loc)

    def _add(self, e):
        plus = [t for t in e.args if not t.could_extract_minus_sign()]
        minus = [-t for t in e.args if t.could_extract_minus_sign()]
        if plus:
            acc = self.float(plus[0])
            for t in plus[1:]:
                acc = self._arith("addf", acc, self.float(t))
        else:
            acc = self._arith("negf", self.float(minus.pop(0)))
        for t in minus:
            acc = self._arith("subf", acc, self.float(t))
        return acc

    def _mul(self, e):
        if e.could_extract_minus_sign():
            return self._arith("negf", self.float(-e))
        num, den = [], []
        for f in e.args:
            if f.is_Pow and f.exp.is_Integer and f.exp < 0:
                den.append(f.base ** -f.exp)
            elif f.is_Rational and not f.is_Integer and f.p == 1:
                den.append(sp.Integer(f.q))
            else:
                num.append(f)
        acc = self.float(num[0]) if num else self._const(1.0)
        for f in num[1:]:
            acc = self._arith("mulf", acc, self.float(f))
        if den:
            d = self.float(den[0])
            for f in den[1:]:
                d = self._arith("mulf", d, self.float(f))
            acc = self._arith("divf", acc, d)
        return acc

    def _pow(self, base, exp):
        if exp.is_Integer:
            k = int(exp)
            if k == 0:
                return self._const(1.0)
            if k < 0:
                return self._arith("divf", self._const(1.0),
                                   self.float(base ** -k))
            return self._int_power(self.float(base), k)
        if exp.is_Rational and exp.q == 2:
            root = self.b.math("sqrt", [self.float(base)], self.ftype,
                               self.loc)
            if exp.p == 1:
                return root
            if exp.p == -1:
                return self.b.math("rsqrt", [self.float(base)], self.ftype,
                                   self.loc)
            power = self._int_power(root, abs(exp.p))
            if exp.p > 0:
                return power
            return self._arith("divf", self._const(1.0), power)
        return self.b.math("powf", [self.float(base), self.float(exp)],
                           self.ftype, self.loc)

    def _int_power(self, value, k):
        """value**k (k >= 1) by repeated squaring."""
        result, square = None, value
        while k:
            if k & 1:
                result = square if result is None else self._arith(
                    "mulf", result, square)
            k >>= 1
            if k:
                square = self._arith("mulf", square, square)
        return result

    def _function(self, e):
        f = e.func
        if f in UNARY:
            return self.b.math(UNARY[f], [self.float(e.args[0])], self.ftype,
                               self.loc)
        if f is sp.log:
            value = self.b.math("log", [self.float(e.args[0])], self.ftype,
                                self.loc)
            if len(e.args) == 2:
                value = self._arith("divf", value, self.b.math(
                    "log", [self.float(e.args[1])], self.ftype, self.loc))
            return value
        if f is sp.atan2:
            return self.b.math("atan2", [self.float(a) for a in e.args],
                               self.ftype, self.loc)
        if f in (sp.Max, sp.Min):
            op = "maximumf" if f is sp.Max else "minimumf"
            acc = self.float(e.args[0])
            for a in e.args[1:]:
                acc = self._arith(op, acc, self.float(a))
            return acc
        if f is sp.Piecewise:
            return self._piecewise(e)
        self._fail(e, "uses %s, which the front end does not support (see "
                   "docs/Frontend.md, \"Bodies\", for what a stencil body "
                   "may hold)" % getattr(f, "__name__", f))

    def _piecewise(self, e):
        last_value, last_cond = e.args[-1]
        if last_cond is not sp.true:
            self._fail(e, "has no otherwise branch (a last pair (value, "
                       "True)): the value would be undefined where no "
                       "condition holds")
        acc = self.float(last_value)
        for value, cond in reversed(e.args[:-1]):
            acc = self.b.select(self.cond(cond), self.float(value), acc,
                                self.ftype, self.loc)
        return acc

    # -- conditions -------------------------------------------------------
    def cond(self, c):
        return self._memo(("b", c), lambda: self._cond(c))

    def _cond(self, c):
        if c is sp.true or c is sp.false:
            return self.b.constant_bool(c is sp.true, self.loc)
        if isinstance(c, sp.core.relational.Relational):
            if is_index_expr(c.lhs) and is_index_expr(c.rhs):
                return self.b.cmp(c.rel_op, self.index(c.lhs),
                                  self.index(c.rhs), "index", self.loc)
            return self.b.cmp(c.rel_op, self.float(c.lhs), self.float(c.rhs),
                              self.ftype, self.loc)
        if isinstance(c, (sp.And, sp.Or)):
            op = "andi" if isinstance(c, sp.And) else "ori"
            acc = self.cond(c.args[0])
            for a in c.args[1:]:
                acc = self.b.arith(op, [acc, self.cond(a)], "i1", self.loc)
            return acc
        if isinstance(c, sp.Not):
            return self.b.arith("xori", [self.cond(c.args[0]),
                                         self.cond(sp.true)], "i1", self.loc)
        self._fail(c, "is not a condition the front end supports (a "
                   "comparison, And, Or, Not)")

    # -- integers ---------------------------------------------------------
    def index(self, expr):
        """An integer expression of counters, sizes and constants as an
        `index` value."""
        expr = sp.sympify(expr)
        return self._memo(("i", expr), lambda: self._index(expr))

    def _index(self, e):
        if e.is_Integer:
            return self.b.constant_index(int(e), self.loc)
        if e.is_Symbol:
            name, type_ = self.lookup(e, self.loc)
            if type_ != "index":
                self._fail(e, "is a float where an integer is needed; make "
                           "it a size, stencilad.size(%r)" % str(e))
            return name
        if e.is_Add:
            acc = None
            for t in e.args:
                neg = t.could_extract_minus_sign()
                v = self.index(-t if neg else t)
                if acc is None:
                    acc = self.b.arith("subi", [self.index(0), v], "index",
                                       self.loc) if neg else v
                else:
                    acc = self.b.arith("subi" if neg else "addi", [acc, v],
                                       "index", self.loc)
            return acc
        if e.is_Mul:
            coef, rest = e.as_coeff_Mul()
            if coef.is_Integer and rest != e:
                return self.b.arith("muli", [self.index(rest),
                                             self.index(coef)], "index",
                                    self.loc)
        self._fail(e, "is not an integer expression of counters, sizes and "
                   "integer constants (a sum of integer multiples); pass a "
                   "product of sizes as a size of its own")


def is_index_expr(e):
    """Whether `e` is an integer expression (of integer symbols and
    integer constants only)."""
    e = sp.sympify(e)
    return bool(e.is_integer) and not e.atoms(sp.core.function.AppliedUndef)


def affine(expr, lookup, loc):
    """A bound (or a shape) as an `Affine` of the `index` arguments it
    uses: integer combinations, floor(a / k), ceiling(a / k), Mod(a, k)."""
    expr = sp.expand(sp.sympify(expr))
    out = Affine()
    for term, coef in expr.as_coefficients_dict().items():
        if not coef.is_Integer:
            raise FrontendError(
                "%s: a bound must have integer coefficients; round a quotient "
                "with sp.floor(n / 2) or sp.ceiling(n / 2)" % describe(expr),
                loc)
        if term == 1:
            out.const += int(coef)
            continue
        out.add(_affine_atom(term, lookup, loc), int(coef))
    return out


def _affine_atom(term, lookup, loc):
    if term.is_Symbol:
        name, type_ = lookup(term, loc)
        if type_ != "index":
            raise FrontendError(
                "%s: a bound may use sizes (index arguments), not the float "
                "%s; make it a size, stencilad.size(%r)" % (
                    term, term, str(term)), loc)
        return name
    kinds = {sp.floor: "floordiv", sp.ceiling: "ceildiv"}
    if term.func in kinds or isinstance(term, sp.Mod):
        if isinstance(term, sp.Mod):
            inner, k, kind = term.args[0], term.args[1], "mod"
        else:
            num, den = sp.fraction(sp.together(term.args[0]))
            inner, k, kind = num, den, kinds[term.func]
        if k.is_Integer and k > 0:
            return Affine.divide(kind, affine(inner, lookup, loc), int(k))
    raise FrontendError("%s: a bound must be affine in the sizes (+, -, "
                        "integer multiples, floor, ceiling and Mod by a "
                        "positive integer); pass a product of sizes as a "
                        "size of its own" % describe(term), loc)
