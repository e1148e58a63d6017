"""The stencil dialect's text, written in one place.

Every op the front end generates is spelled here and nowhere else: the
lowering (`lower.py`, `kernel.py`) calls a `TextBuilder` method per op and
gets back the SSA name of the result, as it would call an `OpBuilder` in
C++. The syntax is the one docs/Dialect.md describes (custom forms of
`stencil.domain`, `stencil.gather`, `stencil.store`, `stencil.accumulate`,
`stencil.yield`) and the upstream forms of `func`, `arith`, `math`, `scf`
and `memref`. python/tests/test_frontend_syntax.py round-trips every
method's output through `stencil-opt`.

Each op may carry a location, a `Loc` (file, line, column) of the Python
line that made it, printed as `loc("file":line:col)`, so that the
compiler's diagnostics point at the user's script.
"""

import contextlib
import math
import struct

FLOAT_TYPES = ("f32", "f64")

# Integer comparison predicates of arith.cmpi, and the float ones (ordered,
# except `une`: not equal is true for NaN, as in C) of arith.cmpf.
CMPI = {"<": "slt", "<=": "sle", ">": "sgt", ">=": "sge", "==": "eq",
        "!=": "ne"}
CMPF = {"<": "olt", "<=": "ole", ">": "ogt", ">=": "oge", "==": "oeq",
        "!=": "une"}


class Loc:
    """A source location: the Python line an op comes from."""

    __slots__ = ("file", "line", "col")

    def __init__(self, file, line, col=1):
        self.file, self.line, self.col = file, line, col

    def text(self):
        name = self.file.replace("\\", "\\\\").replace('"', '\\"')
        return 'loc("%s":%d:%d)' % (name, self.line, self.col)

    def named(self, name):
        """A NameLoc: `loc("u"("file":3:1))`, how an argument keeps its
        name through passes that print the IR (the C interface names
        arguments after it)."""
        return 'loc("%s"(%s))' % (name, self.text()[4:-1])

    def __str__(self):
        return "%s:%d" % (self.file, self.line)


def memref_type(shape, dtype, strided=None):
    """`memref<?x3xf64>` for shape (None, 3); `strided` is the layout text
    of a view (`strided<[?, 1], offset: ?>`)."""
    dims = "".join(("?" if d is None else str(int(d))) + "x" for d in shape)
    layout = ", " + strided if strided else ""
    return "memref<%s%s%s>" % (dims, dtype, layout)


def strided_layout(strides):
    """The layout of a view: `strided<[?, 1], offset: ?>` (None is a
    dynamic stride)."""
    return "strided<[%s], offset: ?>" % ", ".join(
        "?" if s is None else str(int(s)) for s in strides)


def float_literal(value, ftype):
    """An arith.constant literal that parses back to `value` exactly: the
    shortest decimal that round-trips (Python's repr), or the bit pattern
    for infinities and NaN."""
    value = float(value)
    if math.isfinite(value):
        # MLIR's float literals need a point before any exponent: Python's
        # `1e-300` is `1.0e-300` there.
        mantissa, e, exponent = repr(value).partition("e")
        if "." not in mantissa:
            mantissa += ".0"
        return mantissa + e + exponent
    if ftype == "f32":
        return "0x%08X" % struct.unpack("<I", struct.pack("<f", value))[0]
    return "0x%016X" % struct.unpack("<Q", struct.pack("<d", value))[0]


class Affine:
    """An affine expression of `index` SSA values and integer constants:
    sum(coef * atom) + const, where an atom is an SSA name or a floordiv,
    ceildiv or mod of an affine expression by a positive constant."""

    def __init__(self, terms=None, const=0):
        self.terms = dict(terms or {})    # atom text -> int coefficient
        self.const = int(const)

    def add(self, atom, coef):
        self.terms[atom] = self.terms.get(atom, 0) + int(coef)

    @staticmethod
    def divide(kind, inner, k):
        """The atom `(inner) floordiv k` (kind: floordiv, ceildiv, mod)."""
        assert kind in ("floordiv", "ceildiv", "mod") and k > 0
        return "((%s) %s %d)" % (inner.text(), kind, k)

    def text(self):
        parts = []
        for atom, coef in self.terms.items():
            if coef == 0:
                continue
            mag = abs(coef)
            term = atom if mag == 1 else "%s * %d" % (atom, mag)
            parts.append(("- " if coef < 0 else "+ ") + term)
        if self.const or not parts:
            parts.append(("- " if self.const < 0 else "+ ") +
                         str(abs(self.const)))
        text = " ".join(parts)
        return text[2:] if text.startswith("+ ") else "-" + text[2:]


def _access(array, offsets, dims, rank_equals_domain):
    """`%u[-1, 0]` and, unless the access is the identity, ` dims [1, _]`."""
    text = "%s[%s]" % (array, ", ".join(str(int(o)) for o in offsets))
    identity = rank_equals_domain and dims == list(range(len(dims)))
    if not identity:
        text += " dims [%s]" % ", ".join("_" if d is None else str(d)
                                         for d in dims)
    return text


class TextBuilder:
    """Writes one module of MLIR text, op by op."""

    def __init__(self, locations=True):
        self.locations = locations
        self._lines = []
        self._depth = 0
        self._count = 0
        self._domain_rank = []

    # -- plumbing ---------------------------------------------------------
    def fresh(self):
        """A new SSA name (`%7`): numbers, never an identifier, so that
        they cannot clash with the users' names of arguments."""
        self._count += 1
        return "%%%d" % self._count

    def _emit(self, text, loc=None):
        suffix = " " + loc.text() if loc is not None and self.locations \
            else ""
        self._lines.append("  " * self._depth + text + suffix)

    def _result(self, text, loc=None):
        name = self.fresh()
        self._emit("%s = %s" % (name, text), loc)
        return name

    def text(self):
        return "\n".join(self._lines) + "\n"

    def comment(self, text):
        for line in text.splitlines():
            self._emit("// " + line if line else "//")

    # -- functions --------------------------------------------------------
    @contextlib.contextmanager
    def func(self, name, args, result_types=(), loc=None):
        """`func.func @name(%a: type {attrs} loc(...), ...) -> (types)`;
        `args` are (ssa name, type, active, Loc or None) tuples."""
        params = ", ".join("%s: %s%s%s" % (
            n, t, " {stencil.active}" if a else "",
            " " + where.named(n[1:]) if where is not None and
            self.locations else "")
            for n, t, a, where in args)
        results = ""
        if result_types:
            results = " -> " + (result_types[0] if len(result_types) == 1
                                else "(%s)" % ", ".join(result_types))
        self._emit("func.func @%s(%s)%s {" % (name, params, results))
        self._depth += 1
        yield
        self._depth -= 1
        self._emit("}", loc)

    def ret(self, values=(), types=(), loc=None):
        if values:
            self._emit("return %s : %s" % (", ".join(values),
                                           ", ".join(types)), loc)
        else:
            self._emit("return", loc)

    # -- scalars ----------------------------------------------------------
    def constant_float(self, value, ftype, loc=None):
        return self._result("arith.constant %s : %s" % (
            float_literal(value, ftype), ftype), loc)

    def constant_index(self, value, loc=None):
        return self._result("arith.constant %d : index" % int(value), loc)

    def constant_bool(self, value, loc=None):
        return self._result("arith.constant %s" % (
            "true" if value else "false"), loc)

    def arith(self, op, operands, type_, loc=None):
        """`arith.<op>` of operands of one type (`addf`, `mulf`, `maximumf`,
        `addi`, `andi`, `negf`, ...)."""
        return self._result("arith.%s %s : %s" % (op, ", ".join(operands),
                                                  type_), loc)

    def math(self, op, operands, type_, loc=None):
        """`math.<op>` (`sin`, `sqrt`, `powf`, `absf`, `atan2`, ...)."""
        return self._result("math.%s %s : %s" % (op, ", ".join(operands),
                                                 type_), loc)

    def fpowi(self, base, exponent, ftype, loc=None):
        return self._result("math.fpowi %s, %s : %s, i32" % (
            base, exponent, ftype), loc)

    def constant_i32(self, value, loc=None):
        return self._result("arith.constant %d : i32" % int(value), loc)

    def cmp(self, relation, lhs, rhs, type_, loc=None):
        """arith.cmpf for a float type, arith.cmpi for `index`; `relation`
        is the Python operator (`<`, `==`, ...)."""
        if type_ in FLOAT_TYPES:
            return self._result("arith.cmpf %s, %s, %s : %s" % (
                CMPF[relation], lhs, rhs, type_), loc)
        return self._result("arith.cmpi %s, %s, %s : %s" % (
            CMPI[relation], lhs, rhs, type_), loc)

    def select(self, cond, a, b, type_, loc=None):
        return self._result("arith.select %s, %s, %s : %s" % (cond, a, b,
                                                             type_), loc)

    def index_to_float(self, value, ftype, loc=None):
        """An `index` value as a float: index_cast to i64, then sitofp."""
        wide = self._result("arith.index_cast %s : index to i64" % value, loc)
        return self._result("arith.sitofp %s : i64 to %s" % (wide, ftype), loc)

    # -- arrays outside domains -------------------------------------------
    def alloc(self, sizes, type_, loc=None):
        return self._result("memref.alloc(%s) : %s" % (", ".join(sizes),
                                                       type_), loc)

    def dealloc(self, array, type_, loc=None):
        self._emit("memref.dealloc %s : %s" % (array, type_), loc)

    def dim(self, array, index_value, type_, loc=None):
        return self._result("memref.dim %s, %s : %s" % (array, index_value,
                                                        type_), loc)

    def load(self, array, indices, type_, loc=None):
        return self._result("memref.load %s[%s] : %s" % (
            array, ", ".join(indices), type_), loc)

    def subview(self, array, offsets, sizes, src_type, dst_type, loc=None):
        """A rank-reducing `memref.subview` with unit strides: `offsets`
        and `sizes` are SSA names or integers."""
        def listing(values):
            return ", ".join(str(v) for v in values)
        return self._result(
            "memref.subview %s[%s] [%s] [%s] : %s to %s" % (
                array, listing(offsets), listing(sizes),
                ", ".join("1" for _ in offsets), src_type, dst_type), loc)

    # -- stencil ----------------------------------------------------------
    @contextlib.contextmanager
    def domain(self, ivs, lower, upper, result_types=(), loc=None):
        """`stencil.domain (%i, ...) = (lower) to (upper) [-> (types)]`;
        `lower`/`upper` are `Affine`s. Yields the result names."""
        results = [self.fresh() for _ in result_types]
        head = ""
        if len(results) == 1:
            head = results[0] + " = "
        elif results:
            head = "%s:%d = " % (results[0], len(results))
            results = ["%s#%d" % (results[0], k) for k in range(len(results))]
        arrow = (" -> (%s)" % ", ".join(result_types)) if result_types else ""
        self._emit("%sstencil.domain (%s) = (%s) to (%s)%s {" % (
            head, ", ".join(ivs), ", ".join(b.text() for b in lower),
            ", ".join(b.text() for b in upper), arrow))
        self._depth += 1
        self._domain_rank.append(len(ivs))
        yield results
        self._domain_rank.pop()
        self._depth -= 1
        self._emit("}", loc)

    def _full(self, dims):
        return len(dims) == self._domain_rank[-1]

    def gather(self, array, offsets, dims, type_, loc=None):
        """`stencil.gather %u[offsets] dims [dims] : type`; a `None` in
        `dims` is a fixed dimension (`_`), whose offset is the index."""
        return self._result("stencil.gather %s : %s" % (
            _access(array, offsets, dims, self._full(dims)), type_), loc)

    def store(self, value, array, dims, type_, loc=None):
        text = "stencil.store %s to %s" % (value, array)
        if not (self._full(dims) and dims == list(range(len(dims)))):
            text += " dims [%s]" % ", ".join(str(d) for d in dims)
        self._emit("%s : %s" % (text, type_), loc)

    def accumulate(self, value, array, offsets, dims, type_, loc=None):
        self._emit("stencil.accumulate %s to %s : %s" % (
            value, _access(array, offsets, dims, self._full(dims)), type_),
            loc)

    def stencil_yield(self, values, types, loc=None):
        self._emit("stencil.yield %s : %s" % (", ".join(values),
                                              ", ".join(types)), loc)

    # -- time loops -------------------------------------------------------
    @contextlib.contextmanager
    def for_loop(self, lower, upper, step, iter_args, loc=None):
        """`scf.for %t = lower to upper step step iter_args(...)`; yields
        (induction variable, [iter_arg names], [result names])."""
        iv = self.fresh()
        carried = [self.fresh() for _ in iter_args]
        result = self.fresh()
        count = len(iter_args)
        results = [result] if count == 1 else [
            "%s#%d" % (result, k) for k in range(count)]
        head = ""
        if count:
            head = (result if count == 1 else "%s:%d" % (result, count)) + \
                " = "
        text = "%sscf.for %s = %s to %s step %s" % (head, iv, lower, upper,
                                                    step)
        if count:
            text += " iter_args(%s) -> (%s)" % (
                ", ".join("%s = %s" % (c, init)
                          for c, (init, _) in zip(carried, iter_args)),
                ", ".join(t for _, t in iter_args))
        self._emit(text + " {")
        self._depth += 1
        yield iv, carried, results
        self._depth -= 1
        self._emit("}", loc)

    def scf_yield(self, values, types, loc=None):
        if values:
            self._emit("scf.yield %s : %s" % (", ".join(values),
                                              ", ".join(types)), loc)
        else:
            self._emit("scf.yield", loc)
