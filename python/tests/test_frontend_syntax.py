"""The front end's one home for the dialect's syntax (frontend/mlir.py):
every TextBuilder method's text goes through `stencil-opt` (parse and
verify, print, re-parse the printed form, print again: the same text) and
means what the builder was asked for: its generic form equals that of the
same ops written here by hand. Whole kernels using every construct of the
front end round-trip too, and the bounds `Affine.text()` writes are checked
against hand-written maps and numerically in a compiled kernel."""

import math
import struct
import subprocess

import numpy as np
import pytest

import stencilad as sa
from stencilad.compiler import tool_path
from stencilad.frontend.mlir import (Affine, Loc, TextBuilder, float_literal,
                                     memref_type, strided_layout)

import sympy as sp  # noqa: E402  (a dependency of the front end)

M2 = "memref<?x?xf64>"
HERE = Loc(__file__, 7, 3)


def opt(text, *flags):
    """stencil-opt's print of `text` (it parses and verifies it)."""
    done = subprocess.run([tool_path("stencil-opt"), "-"] + list(flags),
                          input=text, capture_output=True, text=True)
    assert done.returncode == 0, "stencil-opt refused:\n%s\n%s" % (
        done.stderr, text)
    return done.stdout


def roundtrip(text):
    """Parse, print, re-parse the print: the same text, custom and generic,
    with and without locations. Returns the generic form."""
    first = opt(text)
    assert opt(first) == first
    generic = opt(text, "--mlir-print-op-generic")
    assert opt(first, "--mlir-print-op-generic") == generic
    located = opt(text, "--mlir-print-debuginfo")
    assert opt(located, "--mlir-print-debuginfo") == located
    return generic


def check(builder, expected):
    """The builder's text round-trips and is the hand-written `expected`
    (both in MLIR's generic form, which spells out every attribute)."""
    assert roundtrip(builder.text()) == opt(expected,
                                            "--mlir-print-op-generic")


def func(b, args, results=(), name="f"):
    """A function of (name, type[, active]) arguments."""
    return b.func(name, [("%" + a[0], a[1], a[2] if len(a) > 2 else False,
                          HERE) for a in args], list(results), HERE)


# -- one case per group of methods: (builder function, hand-written IR) ----
def case_func(b):
    b.comment("a comment\n\nover lines")
    with func(b, [("u", M2, True), ("x", "f32"), ("n", "index")],
              ["f64", "f32"]):
        c = b.constant_float(2.5, "f64", HERE)
        b.ret([c, "%x"], ["f64", "f32"], HERE)
    with func(b, [], name="g"):
        b.ret(loc=HERE)
    with func(b, [("y", "f64")], ["f64"], name="h"):
        b.ret(["%y"], ["f64"])


FUNC = """
// a comment
func.func @f(%u: memref<?x?xf64> {stencil.active}, %x: f32, %n: index)
    -> (f64, f32) {
  %c = arith.constant 2.5 : f64
  return %c, %x : f64, f32
}
func.func @g() { return }
func.func @h(%y: f64) -> f64 { return %y : f64 }
"""

# Values, their f64 bits and f32 bits, written by struct (not by the
# builder's float_literal).
VALUES = [1.5, -0.0, 0.0, 0.1, -2.0, 1e-300, 5e-324, 1.7976931348623157e308,
          3.0e10, math.inf, -math.inf, math.nan, 1 / 3]


def bits64(v):
    return "0x%016X" % struct.unpack("<Q", struct.pack("<d", v))[0]


def bits32(v):
    return "0x%08X" % struct.unpack("<I", struct.pack("<f", v))[0]


def case_constants(b):
    with func(b, []):
        for v in VALUES:
            b.constant_float(v, "f64", HERE)
        for v in [0.5, -0.0, math.inf, -math.inf, math.nan, 1e30]:
            b.constant_float(v, "f32", HERE)
        b.constant_index(-3, HERE)
        b.constant_index(7)
        b.constant_bool(True, HERE)
        b.constant_bool(False)
        b.constant_i32(-2, HERE)
        b.ret()


CONSTANTS = "func.func @f() {\n%s\n%s\n%s\n  return\n}" % (
    "\n".join("  %%a%d = arith.constant %s : f64" % (k, bits64(v))
              for k, v in enumerate(VALUES)),
    "\n".join("  %%b%d = arith.constant %s : f32" % (k, bits32(v))
              for k, v in enumerate([0.5, -0.0, math.inf, -math.inf,
                                     math.nan, 1e30])),
    """  %i = arith.constant -3 : index
  %j = arith.constant 7 : index
  %t = arith.constant true
  %f = arith.constant false
  %k = arith.constant -2 : i32""")


def case_arith_math(b):
    with func(b, [("x", "f64"), ("y", "f64"), ("n", "index")], ["f64"]):
        v = b.arith("addf", ["%x", "%y"], "f64", HERE)
        v = b.arith("subf", [v, "%y"], "f64")
        v = b.arith("mulf", [v, v], "f64", HERE)
        v = b.arith("divf", [v, "%x"], "f64")
        v = b.arith("negf", [v], "f64")
        v = b.arith("maximumf", [v, "%x"], "f64")
        v = b.arith("minimumf", [v, "%y"], "f64")
        for op in ("sin", "cos", "exp", "log", "sqrt", "rsqrt", "tanh",
                   "absf", "floor", "ceil"):
            v = b.math(op, [v], "f64", HERE)
        v = b.math("powf", [v, "%x"], "f64")
        v = b.math("atan2", [v, "%y"], "f64")
        v = b.fpowi(v, b.constant_i32(3), "f64", HERE)
        k = b.arith("addi", ["%n", "%n"], "index")
        k = b.arith("muli", [k, "%n"], "index")
        b.arith("subi", [k, "%n"], "index")
        t = b.constant_bool(True)
        c = b.arith("andi", [t, t], "i1")
        c = b.arith("ori", [c, t], "i1")
        b.arith("xori", [c, t], "i1")
        b.ret([v], ["f64"])


ARITH_MATH = """
func.func @f(%x: f64, %y: f64, %n: index) -> f64 {
  %0 = arith.addf %x, %y : f64
  %1 = arith.subf %0, %y : f64
  %2 = arith.mulf %1, %1 : f64
  %3 = arith.divf %2, %x : f64
  %4 = arith.negf %3 : f64
  %5 = arith.maximumf %4, %x : f64
  %6 = arith.minimumf %5, %y : f64
  %7 = math.sin %6 : f64
  %8 = math.cos %7 : f64
  %9 = math.exp %8 : f64
  %10 = math.log %9 : f64
  %11 = math.sqrt %10 : f64
  %12 = math.rsqrt %11 : f64
  %13 = math.tanh %12 : f64
  %14 = math.absf %13 : f64
  %15 = math.floor %14 : f64
  %16 = math.ceil %15 : f64
  %17 = math.powf %16, %x : f64
  %18 = math.atan2 %17, %y : f64
  %three = arith.constant 3 : i32
  %19 = math.fpowi %18, %three : f64, i32
  %k0 = arith.addi %n, %n : index
  %k1 = arith.muli %k0, %n : index
  %k2 = arith.subi %k1, %n : index
  %t = arith.constant true
  %c0 = arith.andi %t, %t : i1
  %c1 = arith.ori %c0, %t : i1
  %c2 = arith.xori %c1, %t : i1
  return %19 : f64
}
"""

RELATIONS = ["<", "<=", ">", ">=", "==", "!="]


def case_compare(b):
    with func(b, [("x", "f32"), ("y", "f32"), ("n", "index"),
                  ("m", "index")], ["f32"]):
        v = "%x"
        for r in RELATIONS:
            c = b.cmp(r, "%x", "%y", "f32", HERE)
            v = b.select(c, v, "%y", "f32", HERE)
        for r in RELATIONS:
            c = b.cmp(r, "%n", "%m", "index")
            v = b.select(c, v, "%x", "f32")
        w = b.index_to_float("%n", "f32", HERE)
        v = b.arith("addf", [v, w], "f32")
        b.ret([v], ["f32"])


COMPARE = """
func.func @f(%x: f32, %y: f32, %n: index, %m: index) -> f32 {
  %c0 = arith.cmpf olt, %x, %y : f32
  %v0 = arith.select %c0, %x, %y : f32
  %c1 = arith.cmpf ole, %x, %y : f32
  %v1 = arith.select %c1, %v0, %y : f32
  %c2 = arith.cmpf ogt, %x, %y : f32
  %v2 = arith.select %c2, %v1, %y : f32
  %c3 = arith.cmpf oge, %x, %y : f32
  %v3 = arith.select %c3, %v2, %y : f32
  %c4 = arith.cmpf oeq, %x, %y : f32
  %v4 = arith.select %c4, %v3, %y : f32
  %c5 = arith.cmpf une, %x, %y : f32
  %v5 = arith.select %c5, %v4, %y : f32
  %d0 = arith.cmpi slt, %n, %m : index
  %w0 = arith.select %d0, %v5, %x : f32
  %d1 = arith.cmpi sle, %n, %m : index
  %w1 = arith.select %d1, %w0, %x : f32
  %d2 = arith.cmpi sgt, %n, %m : index
  %w2 = arith.select %d2, %w1, %x : f32
  %d3 = arith.cmpi sge, %n, %m : index
  %w3 = arith.select %d3, %w2, %x : f32
  %d4 = arith.cmpi eq, %n, %m : index
  %w4 = arith.select %d4, %w3, %x : f32
  %d5 = arith.cmpi ne, %n, %m : index
  %w5 = arith.select %d5, %w4, %x : f32
  %i = arith.index_cast %n : index to i64
  %f = arith.sitofp %i : i64 to f32
  %s = arith.addf %w5, %f : f32
  return %s : f32
}
"""


def case_memref(b):
    m3 = memref_type((None, None, None), "f64")
    s3 = memref_type((10, 4, 5), "f64")
    w2 = memref_type((3, 3), "f32")
    with func(b, [("d", m3), ("s", s3), ("w", w2), ("n", "index")],
              ["f32"]):
        t = b.alloc(["%n"], memref_type((None, 4), "f64"), HERE)
        u = b.alloc([], memref_type((2,), "f32"))
        one = b.constant_index(1)
        n1 = b.dim("%d", one, m3, HERE)
        x = b.load("%w", [one, one], w2, HERE)
        b.load(u, [one], memref_type((2,), "f32"))
        b.subview("%d", [one, 0, 0], [1, "%n", n1], m3,
                  memref_type((None, None), "f64", strided_layout(
                      [None, 1])), HERE)
        b.subview("%s", [one, 0, 0], [1, 4, 5], s3,
                  memref_type((4, 5), "f64", strided_layout([5, 1])))
        b.subview("%s", [0, one, 0], [10, 1, 5], s3,
                  memref_type((10, 5), "f64", strided_layout([20, 1])))
        b.dealloc(t, memref_type((None, 4), "f64"), HERE)
        b.dealloc(u, memref_type((2,), "f32"))
        b.ret([x], ["f32"])


MEMREF = """
func.func @f(%d: memref<?x?x?xf64>, %s: memref<10x4x5xf64>,
             %w: memref<3x3xf32>, %n: index) -> f32 {
  %t = memref.alloc(%n) : memref<?x4xf64>
  %u = memref.alloc() : memref<2xf32>
  %one = arith.constant 1 : index
  %n1 = memref.dim %d, %one : memref<?x?x?xf64>
  %x = memref.load %w[%one, %one] : memref<3x3xf32>
  %y = memref.load %u[%one] : memref<2xf32>
  %v = memref.subview %d[%one, 0, 0] [1, %n, %n1] [1, 1, 1]
      : memref<?x?x?xf64> to memref<?x?xf64, strided<[?, 1], offset: ?>>
  %v2 = memref.subview %s[%one, 0, 0] [1, 4, 5] [1, 1, 1]
      : memref<10x4x5xf64> to memref<4x5xf64, strided<[5, 1], offset: ?>>
  %v3 = memref.subview %s[0, %one, 0] [10, 1, 5] [1, 1, 1]
      : memref<10x4x5xf64> to memref<10x5xf64, strided<[20, 1], offset: ?>>
  memref.dealloc %t : memref<?x4xf64>
  memref.dealloc %u : memref<2xf32>
  return %x : f32
}
"""


def case_domains(b):
    m1, w2 = "memref<?xf64>", "memref<3x3xf64>"
    args = [("u", M2, True), ("r", M2), ("v", m1), ("w", w2),
            ("s", "memref<f64>"), ("n", "index")]
    with func(b, args, ["f64", "f64"]):
        lo, hi = [Affine({}, 1)] * 2, [Affine({"%n": 1}, -1)] * 2
        with b.domain(["%i", "%j"], lo, hi, (), HERE) as none:
            assert none == []
            a = b.gather("%u", [-1, 0], [0, 1], M2, HERE)     # identity
            c = b.gather("%u", [0, 2], [1, 0], M2)            # permuted
            d = b.gather("%v", [1], [1], m1)                  # selected
            e = b.gather("%w", [1, 2], [None, None], w2)      # fixed
            f = b.gather("%u", [0, 2], [0, None], M2)         # one fixed
            g = b.gather("%s", [], [], "memref<f64>")         # rank 0
            x = b.arith("addf", [a, c], "f64")
            for y in (d, e, f, g):
                x = b.arith("addf", [x, y], "f64")
            b.store(x, "%r", [0, 1], M2, HERE)
        with b.domain(["%i", "%j"], lo, hi) as none:
            a = b.gather("%u", [0, 0], [0, 1], M2)
            b.store(a, "%r", [1, 0], M2)                      # permuted
        with b.domain(["%i", "%j"], lo, hi) as none:
            a = b.gather("%u", [0, 0], [0, 1], M2)
            b.accumulate(a, "%r", [0, 0], [0, 1], M2, HERE)   # identity
            b.accumulate(a, "%v", [0], [1], m1)               # reduction
            b.accumulate(a, "%s", [], [], "memref<f64>")      # rank 0
        with b.domain(["%i", "%j"], lo, hi) as none:
            a = b.gather("%u", [0, 0], [0, 1], M2)
            b.accumulate(a, "%r", [1, -1], [1, 0], M2)        # scatter
        with b.domain(["%i"], [Affine({}, 0)], [Affine({"%n": 1})],
                      ["f64"], HERE) as one:
            a = b.gather("%v", [0], [0], m1)
            b.stencil_yield([a], ["f64"], HERE)
        with b.domain(["%i"], [Affine({}, 0)], [Affine({"%n": 1})],
                      ["f64", "f64"]) as two:
            a = b.gather("%v", [0], [0], m1)
            b.stencil_yield([a, a], ["f64", "f64"])
        b.ret([one[0], two[1]], ["f64", "f64"])


DOMAINS = """
func.func @f(%u: memref<?x?xf64> {stencil.active}, %r: memref<?x?xf64>,
             %v: memref<?xf64>, %w: memref<3x3xf64>, %s: memref<f64>,
             %n: index) -> (f64, f64) {
  stencil.domain (%i, %j) = (1, 1) to (%n - 1, %n - 1) {
    %a = stencil.gather %u[-1, 0] : memref<?x?xf64>
    %c = stencil.gather %u[0, 2] dims [1, 0] : memref<?x?xf64>
    %d = stencil.gather %v[1] dims [1] : memref<?xf64>
    %e = stencil.gather %w[1, 2] dims [_, _] : memref<3x3xf64>
    %f = stencil.gather %u[0, 2] dims [0, _] : memref<?x?xf64>
    %g = stencil.gather %s[] dims [] : memref<f64>
    %x0 = arith.addf %a, %c : f64
    %x1 = arith.addf %x0, %d : f64
    %x2 = arith.addf %x1, %e : f64
    %x3 = arith.addf %x2, %f : f64
    %x4 = arith.addf %x3, %g : f64
    stencil.store %x4 to %r : memref<?x?xf64>
  }
  stencil.domain (%i, %j) = (1, 1) to (%n - 1, %n - 1) {
    %a = stencil.gather %u[0, 0] : memref<?x?xf64>
    stencil.store %a to %r dims [1, 0] : memref<?x?xf64>
  }
  stencil.domain (%i, %j) = (1, 1) to (%n - 1, %n - 1) {
    %a = stencil.gather %u[0, 0] : memref<?x?xf64>
    stencil.accumulate %a to %r[0, 0] : memref<?x?xf64>
    stencil.accumulate %a to %v[0] dims [1] : memref<?xf64>
    stencil.accumulate %a to %s[] dims [] : memref<f64>
  }
  stencil.domain (%i, %j) = (1, 1) to (%n - 1, %n - 1) {
    %a = stencil.gather %u[0, 0] : memref<?x?xf64>
    stencil.accumulate %a to %r[1, -1] dims [1, 0] : memref<?x?xf64>
  }
  %one = stencil.domain (%i) = (0) to (%n) -> (f64) {
    %a = stencil.gather %v[0] : memref<?xf64>
    stencil.yield %a : f64
  }
  %two:2 = stencil.domain (%i) = (0) to (%n) -> (f64, f64) {
    %a = stencil.gather %v[0] : memref<?xf64>
    stencil.yield %a, %a : f64, f64
  }
  return %one, %two#1 : f64, f64
}
"""


def case_loops(b):
    m1 = "memref<?xf64>"
    with func(b, [("a", m1), ("c", m1), ("n", "index")], ["f64"]):
        c0, c1 = b.constant_index(0), b.constant_index(1)
        z = b.constant_float(0.0, "f64")
        with b.for_loop(c0, "%n", c1, [], HERE) as (t, carried, res):
            assert carried == [] and res == []
            b.scf_yield([], [], HERE)
        with b.for_loop(c0, "%n", c1, [(z, "f64")]) as (t, carried, one):
            x = b.index_to_float(t, "f64")
            b.scf_yield([b.arith("addf", [carried[0], x], "f64")], ["f64"])
        with b.for_loop(c0, "%n", c1, [("%a", m1), ("%c", m1)],
                        HERE) as (t, (p, q), two):
            with b.domain(["%i"], [Affine({}, 1)], [Affine({"%n": 1}, -1)]):
                g = b.gather(p, [-1], [0], m1)
                b.store(g, q, [0], m1)
            b.scf_yield([q, p], [m1, m1])
        b.ret([one[0]], ["f64"])


LOOPS = """
func.func @f(%a: memref<?xf64>, %c: memref<?xf64>, %n: index) -> f64 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %z = arith.constant 0.0 : f64
  scf.for %t = %c0 to %n step %c1 {
  }
  %one = scf.for %t = %c0 to %n step %c1 iter_args(%s = %z) -> (f64) {
    %ti = arith.index_cast %t : index to i64
    %tf = arith.sitofp %ti : i64 to f64
    %s1 = arith.addf %s, %tf : f64
    scf.yield %s1 : f64
  }
  %two:2 = scf.for %t = %c0 to %n step %c1 iter_args(%p = %a, %q = %c)
      -> (memref<?xf64>, memref<?xf64>) {
    stencil.domain (%i) = (1) to (%n - 1) {
      %g = stencil.gather %p[-1] : memref<?xf64>
      stencil.store %g to %q : memref<?xf64>
    }
    scf.yield %q, %p : memref<?xf64>, memref<?xf64>
  }
  return %one : f64
}
"""

# Bounds: (Affine, the same bound written by hand).
FLOOR = Affine.divide("floordiv", Affine({"%n": 1}, 1), 2)
CEIL = Affine.divide("ceildiv", Affine({"%n": 3, "%m": -1}), 4)
MOD = Affine.divide("mod", Affine({"%m": 1}, -1), 3)
BOUNDS = [
    (Affine(), "0"),
    (Affine({}, -4), "-4"),
    (Affine({"%n": 2}, -3), "%n * 2 - 3"),
    (Affine({"%n": -1, "%m": 1}, 5), "%n * -1 + %m + 5"),
    (Affine({"%n": -3}), "0 - %n * 3"),
    (Affine({"%n": 0, "%m": 1}), "%m"),
    (Affine({"%n": 1, FLOOR: -1}), "%n - (%n + 1) floordiv 2"),
    (Affine({CEIL: 2}, 1), "((%n * 3 - %m) ceildiv 4) * 2 + 1"),
    (Affine({MOD: -1, "%n": 1}), "((%m - 1) mod 3) * -1 + %n"),
    (Affine({Affine.divide("floordiv", Affine({FLOOR: 1}, 3), 5): 1}),
     "((%n + 1) floordiv 2 + 3) floordiv 5"),
]


def case_bounds(b):
    with func(b, [("n", "index"), ("m", "index")]):
        for bound, _ in BOUNDS:
            with b.domain(["%i"], [bound], [bound]):
                pass
        b.ret()


BOUNDS_IR = "func.func @f(%%n: index, %%m: index) {\n%s\n  return\n}" % \
    "\n".join("  stencil.domain (%%i) = (%s) to (%s) {\n  }" % (t, t)
              for _, t in BOUNDS)

CASES = [(case_func, FUNC), (case_constants, CONSTANTS),
         (case_arith_math, ARITH_MATH), (case_compare, COMPARE),
         (case_memref, MEMREF), (case_domains, DOMAINS),
         (case_loops, LOOPS), (case_bounds, BOUNDS_IR)]


@pytest.mark.parametrize("case,expected", CASES,
                         ids=[c.__name__ for c, _ in CASES])
def test_builder_text(case, expected):
    for locations in (True, False):
        b = TextBuilder(locations)
        case(b)
        check(b, expected)


def test_every_method_is_round_tripped():
    """A method of TextBuilder that no case calls fails here: give it one."""
    called = set()

    class Recording(TextBuilder):
        def __getattribute__(self, name):
            if not name.startswith("_"):
                called.add(name)
            return super().__getattribute__(name)

    for case, expected in CASES:
        b = Recording()
        case(b)
        check(b, expected)
    public = {n for n in dir(TextBuilder) if not n.startswith("_") and
              callable(getattr(TextBuilder, n))}
    assert public - called == set()


def test_locations_reach_the_ops():
    """Each op carries the builder's Loc: stencil-opt prints it back."""
    b = TextBuilder()
    case_domains(b)
    located = opt(b.text(), "--mlir-print-debuginfo")
    plain = opt(_text(case_domains, False), "--mlir-print-debuginfo")
    assert HERE.text()[4:-1] in located and HERE.text()[4:-1] not in plain
    assert 'loc("u"(' in opt(b.text(), "--mlir-print-debuginfo",
                             "--mlir-print-local-scope")


def _text(case, locations):
    b = TextBuilder(locations)
    case(b)
    return b.text()


@pytest.mark.parametrize("value", VALUES + [np.nextafter(1.0, 2.0), 1e-310,
                                            -123456.789e-7])
def test_float_literal_parses_to_the_value(value):
    """float_literal's text is the value's exact bits (f64), and f32's
    nearest (f32)."""
    for ftype, bits in (("f64", bits64), ("f32", bits32)):
        if ftype == "f32" and math.isfinite(value) and abs(value) > 3e38:
            continue
        value_t = value if ftype == "f64" else float(np.float32(value))
        ours = "func.func @f() -> %s {\n  %%c = arith.constant %s : %s\n" \
            "  return %%c : %s\n}\n" % (ftype, float_literal(value_t, ftype),
                                        ftype, ftype)
        theirs = ours.replace(float_literal(value_t, ftype), bits(value_t))
        assert opt(ours, "--mlir-print-op-generic") == opt(
            theirs, "--mlir-print-op-generic")


# -- whole kernels --------------------------------------------------------
def every_construct():
    """Kernels that use every construct of the front end's API."""
    i, j = sa.indices("i j")
    n, m, sx, steps = sa.size("n m sx steps")
    D = sa.scalar("D", active=True)
    u = sa.Array("u", 2, active=True)
    r = sa.Array("r", 2, active=True)
    v = sa.Array("v", 1, active=True)
    w = sa.Array("w", shape=(3, 3))
    s = sa.Array("s", 0)
    k = sa.Kernel("every")
    tmp = k.temporary("tmp", (n, m))
    with k.domain({i: (1, n - 1), j: (1, m - 1)}):
        tmp[i, j] = (D * (u[i - 1, j] + u(i + 1, j) - 2 * u[i, j]) +
                     w[1, 2] * s[()] + sp.sin(u[i, j]) ** 2 +
                     sp.Piecewise((u[i, j], u[i, j] > 0),
                                  (sp.exp(u[i, j]), i < 3),
                                  (0.5, True)) +
                     sp.Max(u[i, j], 0) - sp.Min(u[i, j], 1) +
                     sp.sqrt(sp.Abs(u[i, j])) + sp.log(1 + u[i, j] ** 2) +
                     sp.tanh(u[i, j]) / (1 + i + j) + u[i, j] ** -2 +
                     sp.cos(u[i, j]) ** sp.Rational(3, 2) +
                     sp.atan2(u[i, j], 2) + u[i, j] ** D)
    with k.domain({i: (1, n - 1), j: (1, m - 1)}):
        r[j, i] = tmp[i, j] - tmp[i, j - 1]
    d = k.domain({i: (0, n), j: (0, m)})
    d.increment(v[j], u[i, j] * u[i, j])
    d.increment(s[()], u[i, j])
    with k.domain({i: (1, n - 1), j: (1, m - 1)}):
        u[i + 1, j] += tmp[i, j]
    k.add_at(v, (sx,), D)
    with k.domain({i: (sp.floor(n / 2), sp.ceiling(n / 3) + n),
                   j: (sp.Mod(m, 4), 2 * m - sp.floor((m + 1) / 2))}):
        w[i, j] = 0
    J = k.sum(r[i, j] ** 2, {i: (0, n), j: (0, m)})
    k.returns(0.5 * J + D)

    a, b, c = (sa.Array(x, 2, active=True) for x in ("a", "b", "c"))
    vel = sa.Array("vel", 2, active=True)
    src = sa.Array("src", shape=(steps,))
    data = sa.Array("data", shape=(steps, n))
    loop_k = sa.Kernel("loop")
    loop = loop_k.time_loop(steps, rotate=(a, b, c))
    with loop as t:
        with loop_k.domain({i: (1, n - 1), j: (1, n - 1)}):
            c[i, j] = 2 * b[i, j] - a[i, j] + vel[i, j] * (
                b[i - 1, j] + b[i + 1, j] - 2 * b[i, j])
        loop_k.add_at(c, (sx, sx), src[t])
        loop_k.sum((b[i, 1] - data[t, i]) ** 2, {i: (0, n)})
    final = loop.final(b)
    loop_k.sum(final[i, j], {i: (0, n), j: (0, n)})

    x = sa.Array("x", 1, dtype="f32", active=True)
    y = sa.Array("y", 1, dtype="f32", active=True)
    h = sa.scalar("h", dtype="f32")
    single = sa.Kernel("single")
    with single.domain({i: (1, n - 1)}):
        y[i] = h * x[i - 1] + x[i + 1] / 3 + sp.Float(0.1)
    return [k, loop_k, single]


def test_every_construct_round_trips():
    kernels = every_construct()
    for kernel in kernels:
        roundtrip(kernel.mlir)
        roundtrip(str(kernel))
        assert opt(str(kernel), "--mlir-print-op-generic") == opt(
            kernel.mlir, "--mlir-print-op-generic")
        assert __file__ in opt(kernel.mlir, "--mlir-print-debuginfo")
    roundtrip("".join(k.mlir for k in kernels))


def test_every_construct_compiles():
    """The kernels also pass the whole pipeline, adjoint included."""
    sa.compile(every_construct())


# -- bounds, numerically ----------------------------------------------------
def test_affine_bounds_numerically():
    """A domain bounded by floordiv, ceildiv, mod, coefficients and a
    leading negative term writes exactly the points NumPy says."""
    i = sa.indices("i")
    n, m = sa.size("n m")
    out = sa.Array("out", 1)
    k = sa.Kernel("bounds")
    with k.domain({i: (sp.Mod(m, 3) - n + 2 * sp.floor((n + 1) / 2),
                       3 * sp.ceiling(m / 4) - sp.floor(n / 5) + 1)}):
        out[i] = 1.0
    f = k.compile(adjoint=False)
    for nv in range(0, 12):
        for mv in range(0, 13):
            buf = np.zeros(40)
            # The checks of a call bound only sums of sizes times
            # constants; the points written are what this test checks.
            f(out=buf, n=nv, m=mv, check_bounds=False)
            lo = mv % 3 - nv + 2 * ((nv + 1) // 2)
            hi = 3 * (-(-mv // 4)) - nv // 5 + 1
            want = np.zeros(40)
            want[max(lo, 0):max(hi, 0)] = 1.0
            assert np.array_equal(buf, want), (nv, mv, lo, hi)
