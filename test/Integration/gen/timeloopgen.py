#!/usr/bin/env python3
# ===- timeloopgen.py - Random time loops for adjoint testing -------------=== #
#
# Generates random time-loop functions (docs/TimeLoops.md, section 1) and
# the JSON description that check_adjoint.py uses to call them and their
# `--stencil-adjoint` adjoints. The domain bodies come from stencilgen.py
# (the same read patterns, linear and nonlinear bodies over every rule);
# this file builds the loop around them. Standard library only.
#
# Every case is one public function `@loop<K>` with
#   * dimension 1-3, one `scf.for` over `%steps` steps;
#   * 1-3 states: with 2 or 3, rotated through memref iter_args (the step
#     writes the last from the others, then yields them rotated by one:
#     `b = f(a)`, or a leapfrog `next = f(cur, prev)`); with 1, written in
#     place through a temporary argument (`t = f(u)`, then `u = g(t)`);
#   * a step of one random stencil domain from the states, or two chained
#     through an active temporary argument, storing or accumulating (linear
#     cases) into the new state; sometimes reading an active array the loop
#     does not write (a coefficient), passive coefficient arrays, an active
#     scalar, and a per-step passive table loaded at the step's index;
#   * an objective: a sum over the new state per step (an f64 iter_arg; with
#     one state, over the temporary), from the final state after the loop
#     (the tail), both, or none (the arrays alone);
#   * sometimes domains before the loop (the head): an active coefficient
#     computed from an active array, the second state from the first, a
#     penalty summed into the objective;
#   * values kept bounded over the steps: a nonlinear step's value is
#     scaled to magnitude <= 1, so its inputs stay where stencilgen's bodies
#     are smooth (no division by zero, no singular tan).
# Linear cases (every domain linear in the arrays) get the dot-product test.
# The sizes combine extents from empty domains up with T = 0, 1, 2 and
# random larger T; the snapshot counts start with store-all (steps + 1:
# with a tail the schedule reverses T + 1 steps) followed by random counts
# from 1 up, every one of which check_adjoint.py compares bitwise with it.
# What the generator leaves out because the compiler refuses it or gets it
# wrong is listed below (SKIPPED) and printed with its number of cases.
#
# Usage:
#   timeloopgen.py --seed 1 --count 24 -o loops.mlir --json loops.json
# STENCIL_GEN_SCALE=K multiplies --count and the largest T (by hand, for a
# larger batch than CI's).
#
# ===----------------------------------------------------------------------=== #

import argparse
import json
import os
import random
import sys
import types

sys.path.insert(0, os.path.dirname(os.path.realpath(__file__)))
import stencilgen as sg  # noqa: E402

# Largest extent per dimension, by rank, and the largest T of a case.
MAX_SIZE = {1: 11, 2: 7, 3: 5}
MAX_STEPS = 12
# Largest read radius per rank (two chained domains share it).
MAX_RADIUS = {1: 3, 2: 2, 3: 1}


# What the generator leaves out, each a limit or a defect of the compiler
# that a generated case met (printed with the number of cases it changed).
# Not skipped but steered around: a per-step sum of a state the step wrote
# in place after an earlier domain read it is refused when that domain's
# adjoint needs the old state ("overwrites an array that an earlier domain
# reads", docs/Adjoint.md, section 3.3): a nonlinear step, or a linear one
# times an active scalar. Those one-state loops sum their temporary
# instead; the others sum the state.
SKIPPED = {}
# stencilgen's ops the steps leave out: fmod(3x, ...) has slope 3, which
# T steps compound into gradients of 3^T that central differences cannot
# resolve (a 12-step 3-D loop's gradient of 1.8e6 missed by 118 while the
# gather and serial adjoints agreed).
EXCLUDED_OPS = ("remf",)


def skip(reason):
    """Counts a feature left out of a case; returns True."""
    SKIPPED[reason] = SKIPPED.get(reason, 0) + 1
    return True


def scale_from_env():
    """STENCIL_GEN_SCALE: a whole factor for a batch run by hand."""
    value = os.environ.get("STENCIL_GEN_SCALE", "1")
    try:
        scale = int(value)
    except ValueError:
        sys.exit("STENCIL_GEN_SCALE must be a whole number, not %r" % value)
    return max(1, scale)


class Loop:
    """The parts of one generated case, and its text as it grows."""

    def __init__(self, rng, index, dim, linear):
        self.rng = rng
        self.dim = dim
        self.linear = linear
        self.fn = sg.Function("loop%d" % index)
        self.args = []
        self.rules = set()
        self.domains = []     # (lo, hi) of every domain, for the sizes
        self.head = []        # lines before the loop
        self.body = []        # lines of the loop's body
        self.tail = []        # lines after the loop

    def ty(self):
        return sg.memref_type(self.dim)

    def add_array(self, name, active, init=(-1.0, 1.0), shape=None):
        self.args.append({"name": name, "kind": "array",
                          "rank": len(shape) if shape else self.dim,
                          "shape": shape or ["n%d" % k for k in range(self.dim)],
                          "active": active, "init": list(init)})

    def new_body(self):
        return sg.Body(self.fn, self.rng, self.dim)

    def domain(self, body, lo, hi, out, indent, result=None):
        """Appends a domain of `body` (its lines) to `out`; `result` names
        the sum it yields."""
        ivs = ", ".join("%%i%d" % k for k in range(self.dim))
        head = "stencil.domain (%s) = %s" % (ivs, sg.bounds_text(self.dim, lo, hi))
        if result:
            out.append("%s%s = %s -> (f64) {" % (indent, result[0], head))
        else:
            out.append("%s%s {" % (indent, head))
        out.extend(indent + line for line in body.lines)
        if result:
            out.append("%s    stencil.yield %s : f64" % (indent, result[1]))
        out.append(indent + "}")
        self.rules.update(body.rules)
        self.domains.append((lo, hi))


def reach(body, rng, dim, slack=1):
    lo, hi = sg.extent(body.accesses, dim)
    return sg.pad(lo, hi, rng, dim, slack)


def step_value(loop, body, reads, radius, scalar, table):
    """The value of one step domain: a stencilgen body over `reads` (name,
    bound) at a random pattern, bounded by 1."""
    rng = loop.rng
    shape = rng.choice(sg.SHAPES)
    if shape == "dense" and loop.dim > 1:
        radius = 1
    offs = sg.offsets_for(rng, loop.dim, shape, radius)
    leaves = [body.gather(rng.choice(reads)[0], o, 1.0) for o in offs]
    for name, bound in reads:
        if not any(key[0] == name for key in body.gathers):
            leaves.append(body.gather(name, rng.choice(offs), bound))
    coefs = [(c, [tuple(rng.randint(-radius, radius) for _ in range(loop.dim))
                  for _ in range(2)]) for c in loop.coefs]
    if table and not loop.linear:
        leaves.append(sg.Term(table, 1.0))
    if loop.linear:
        value = sg.linear_body(body, leaves, coefs, scalar)
        if table:
            value = body.bin("mulf", value, sg.Term(table, 1.5), value.bound * 1.5)
    else:
        value = sg.nonlinear_body(body, leaves, coefs, scalar)
    return body.normalise(value, 1.0), shape


def objective_value(loop, body, array, extra=None):
    """A sum's point value from `array` (and passive `extra`) at star
    offsets of radius 1: linear, or a square under a smooth op."""
    rng = loop.rng
    offs = rng.sample(sg.offsets_for(rng, loop.dim, "star", 1), rng.randint(1, 2))
    leaves = [body.gather(array, o, 1.0) for o in offs]
    if loop.linear:
        if extra:
            c = body.gather(extra, (0,) * loop.dim, 1.5)
            leaves[0] = body.bin("mulf", leaves[0], c, 1.5)
        return sg.linear_body(body, leaves, [], None)
    x = leaves[0]
    for y in leaves[1:]:
        x = body.bin("addf", x, y, x.bound + y.bound)
    if extra:
        d = body.gather(extra, (0,) * loop.dim, 1.0)
        x = body.bin("subf", x, d, x.bound + 1.0)
    value = body.normalise(body.bin("mulf", x, x, x.bound ** 2))
    if rng.random() < 0.5:
        value = sg.unary_nonlinear(body, value)
    return value


def draw_features(rng, dim, linear):
    """What one case has (see the file's header)."""
    f = types.SimpleNamespace()
    f.states = rng.choice((1, 2, 2, 3))
    f.chained = f.states == 1 or rng.random() < 0.3
    f.param = not linear and rng.random() < 0.4
    f.head_coef = f.param and rng.random() < 0.5
    f.head_first = f.states >= 2 and rng.random() < 0.3
    f.penalty = rng.random() < 0.2
    f.scalar = rng.random() < 0.35
    f.table = rng.random() < 0.3
    f.per_step = rng.random() < 0.6
    f.final = rng.random() < 0.45
    f.accumulate = linear and rng.random() < 0.35
    f.radius = rng.randint(1, MAX_RADIUS[dim])
    if f.chained:
        f.radius = max(1, f.radius // 2 + (dim == 1))
    return f


def add_arguments(loop, f, states):
    """The signature's arguments, in order."""
    for s in states:
        loop.add_array(s, True)
    if f.chained:
        loop.add_array("t", True)
    if f.param:
        loop.add_array("c", True)
    if f.head_coef or f.penalty or f.head_first:
        loop.add_array("v", True)
    loop.coefs = ["c%d" % k for k in range(loop.rng.choice((0, 0, 1, 2)))]
    for c in loop.coefs:
        loop.add_array(c, False, (0.5, 1.5))
    f.tail_data = f.final and loop.rng.random() < 0.5
    if f.tail_data:
        loop.add_array("dT", False)
    if f.table:
        loop.add_array("w", False, (0.5, 1.5), ["steps"])
    if f.scalar:
        loop.args.append({"name": "s", "kind": "scalar", "type": "f64",
                          "active": True, "init": [0.5, 1.0]})
    for k in range(loop.dim):
        loop.args.append({"name": "n%d" % k, "kind": "size"})
    loop.args.append({"name": "steps", "kind": "size"})


def build_step(loop, f, inputs, new_state):
    """The step's domains: `new_state` from `inputs`, through the temporary
    if chained. Returns the first domain's read pattern."""
    if f.table:
        loop.body.append("    %wt = memref.load %w[%it] : memref<?xf64>")
    scalar = sg.Term("%s", 1.0) if f.scalar else None
    reads = [(x, 1.0) for x in inputs] + ([("c", 1.0)] if f.param else [])
    kind = "accumulate" if f.accumulate else "store"
    b1 = loop.new_body()
    v1, shape = step_value(loop, b1, reads, f.radius, scalar,
                           "%wt" if f.table else None)
    if f.chained:
        b1.emit("stencil.store %s to %%t : %s" % (v1.ssa, loop.ty()))
    else:
        write(loop, b1, v1, new_state, kind)
    lo, hi = reach(b1, loop.rng, loop.dim)
    loop.domain(b1, lo, hi, loop.body, "    ")
    if f.chained:
        more = f.states >= 2 and loop.rng.random() < 0.4
        b2 = loop.new_body()
        v2, _ = step_value(loop, b2, [("t", 1.0)] + (reads if more else []),
                           f.radius, None, None)
        write(loop, b2, v2, new_state, kind)
        lo, hi = reach(b2, loop.rng, loop.dim)
        loop.domain(b2, lo, hi, loop.body, "    ")
    return shape


def build_loop(loop, f, states, iters, new_state):
    """The per-step sum, then the scf.for around the body; returns
    {iter name: result name}."""
    yields = iters[1:] + iters[:1]
    types_ = [loop.ty()] * len(iters)
    inits = list(states) if iters else []
    iters = list(iters)
    if f.per_step:
        # With one state, the sum reads the temporary where a sum of the
        # state the step overwrote is refused (see SKIPPED above).
        b = loop.new_body()
        reads_state = f.states >= 2 or (loop.linear and not f.scalar)
        value = objective_value(loop, b, new_state if reads_state else "t")
        lo, hi = reach(b, loop.rng, loop.dim)
        loop.domain(b, lo, hi, loop.body, "    ", ("%term", value.ssa))
        loop.body.append("    %J1 = arith.addf %J, %term : f64")
        iters.append("J")
        yields.append("J1")
        types_.append("f64")
        inits.append("zf")
    return emit_loop(loop, iters, inits, yields, types_)


def build_total(loop, f, results, final_state, head_sum):
    """The tail and the returned objective; returns its SSA name or None."""
    total = results.get("J")
    if f.final:
        b = loop.new_body()
        value = objective_value(loop, b, final_state.lstrip("%"),
                                "dT" if f.tail_data else None)
        lo, hi = reach(b, loop.rng, loop.dim)
        loop.domain(b, lo, hi, loop.tail, "  ", ("%tail", value.ssa))
        total = add_term(loop, total, "%tail", loop.rng.choice((1.0, 0.5, 3.0)))
    if head_sum:
        total = add_term(loop, total, head_sum, 0.5 if loop.linear else 0.01)
    loop.tail.append("  return%s" % (" %s : f64" % total if total else ""))
    return total


def make_loop_case(rng, index, dim, linear, max_steps):
    """Returns (mlir text, description dict) of one time-loop case."""
    loop = Loop(rng, index, dim, linear)
    f = draw_features(rng, dim, linear)
    states = ["x%d" % k for k in range(f.states)]
    add_arguments(loop, f, states)
    head_sum = build_head(loop, states, f.head_coef, f.head_first, f.penalty)
    # The step reads its states by their iter_args, or by the argument
    # written in place; it writes the last.
    iters = ["a%d" % k for k in range(f.states)] if f.states >= 2 else []
    cur = iters or states
    new_state = cur[-1]
    shape = build_step(loop, f, cur[:-1] if iters else cur, new_state)
    results = build_loop(loop, f, states, iters, new_state)
    # The final state: the loop's result in place of the state the last
    # step wrote (a rotated array), or the argument written in place.
    final_state = results[new_state] if iters else states[0]
    total = build_total(loop, f, results, final_state, head_sum)

    text = signature(loop, total is not None) + "\n".join(
        loop.head + loop.body + loop.tail) + "\n}\n"
    desc = {
        "name": loop.fn.name,
        "kind": "loop",
        "dim": dim,
        "linear": linear,
        "pattern": shape,
        "states": f.states,
        "rotated": f.states >= 2,
        "head": bool(f.head_coef or f.head_first or f.penalty),
        "objective": [k for k, on in (("per-step", f.per_step),
                                      ("final", f.final),
                                      ("head", head_sum is not None)) if on],
        "results": 1 if total else 0,
        "rules": sorted(loop.rules),
        "args": loop.args,
        "sizes": sizes(rng, loop, max_steps),
        "snapshots": snapshot_counts(rng),
    }
    return text, desc


def write(loop, body, value, array, kind):
    if kind == "store":
        body.emit("stencil.store %s to %%%s : %s" % (value.ssa, array, loop.ty()))
        return
    o = tuple(loop.rng.randint(-1, 1) for _ in range(loop.dim))
    body.emit("stencil.accumulate %s to %%%s[%s] : %s" %
              (value.ssa, array, ", ".join(map(str, o)), loop.ty()))
    body.accesses.append(o)


def build_head(loop, states, head_coef, head_first, penalty):
    """Domains before the loop; returns the SSA name of the head's sum."""
    rng, dim = loop.rng, loop.dim
    if head_coef:
        # c = g(v) everywhere (nonlinear cases only: the steps multiply c).
        b = loop.new_body()
        x = b.gather("v", (0,) * dim, 1.0)
        value = b.normalise(sg.unary_nonlinear(b, x), 1.0)
        b.emit("stencil.store %s to %%c : %s" % (value.ssa, loop.ty()))
        loop.domain(b, [0] * dim, [0] * dim, loop.head, "  ")
    if head_first:
        # x1 = 1/2 x0 + 1/2 f(v): linear in x0, whose values the loop
        # overwrites (the head's adjoint may not need them).
        b = loop.new_body()
        x0 = b.scale(b.gather(states[0], (0,) * dim, 1.0), 0.5)
        offs = sg.offsets_for(rng, dim, "star", 1)
        leaves = [b.gather("v", o, 1.0) for o in rng.sample(offs, 2)]
        if loop.linear:
            f = sg.linear_body(b, leaves, [], None)
        else:
            f = sg.nonlinear_body(b, leaves, [], None)
        f = b.normalise(f, 1.0)
        half = b.scale(f, 0.5)
        value = b.bin("addf", x0, half, 1.0)
        b.emit("stencil.store %s to %%%s : %s" % (value.ssa, states[1], loop.ty()))
        lo, hi = reach(b, rng, dim, 0)
        loop.domain(b, lo, hi, loop.head, "  ")
    if not penalty:
        return None
    b = loop.new_body()
    x = b.gather("v", (0,) * dim, 1.0)
    value = b.scale(x, 0.5) if loop.linear else b.bin("mulf", x, x, 1.0)
    loop.domain(b, [0] * dim, [0] * dim, loop.head, "  ", ("%pen", value.ssa))
    return "%pen"


def emit_loop(loop, iters, inits, yields, types):
    """Wraps the body in the scf.for; returns {iter name: result name}."""
    pre = ["  %zi = arith.constant 0 : index",
           "  %oi = arith.constant 1 : index"]
    if "J" in iters:
        pre.append("  %zf = arith.constant 0.0 : f64")
    head = "scf.for %it = %zi to %steps step %oi"
    if not iters:
        loop.head[:0] = pre
        loop.body[:0] = ["  %s {" % head]
        loop.body.append("  }")
        return {}
    results = {}
    if len(iters) == 1:
        lhs = "%res"
        results[iters[0]] = "%res"
    else:
        lhs = "%%res:%d" % len(iters)
        for k, name in enumerate(iters):
            results[name] = "%%res#%d" % k
    carried = ", ".join("%%%s = %%%s" % (i, x) for i, x in zip(iters, inits))
    loop.head[:0] = pre
    loop.body[:0] = ["  %s = %s iter_args(%s) -> (%s) {" %
                     (lhs, head, carried, ", ".join(types))]
    loop.body.append("    scf.yield %s : %s" % (
        ", ".join("%" + y for y in yields), ", ".join(types)))
    loop.body.append("  }")
    return results


def add_term(loop, total, term, weight):
    scaled = loop.fn.new()
    loop.tail.append("  %s = arith.constant %s : f64" % (scaled, sg.fmt(weight)))
    product = loop.fn.new()
    loop.tail.append("  %s = arith.mulf %s, %s : f64" % (product, scaled, term))
    if total is None:
        return product
    out = loop.fn.new()
    loop.tail.append("  %s = arith.addf %s, %s : f64" % (out, total, product))
    return out


def signature(loop, returns):
    sig = []
    for a in loop.args:
        if a["kind"] == "array":
            ty = sg.memref_type(a["rank"])
        elif a["kind"] == "scalar":
            ty = "f64"
        else:
            ty = "index"
        attr = " {stencil.active}" if a.get("active") else ""
        sig.append("%%%s: %s%s" % (a["name"], ty, attr))
    return "func.func @%s(%s)%s {\n" % (loop.fn.name, ", ".join(sig),
                                         " -> f64" if returns else "")


def sizes(rng, loop, max_steps):
    """Extents from empty domains (upper < lower, upper = lower) through
    one point up, each with T in 0, 1, 2 or a random larger count."""
    dim = loop.dim
    need = [max(lo[k] + hi[k] for lo, hi in loop.domains) for k in range(dim)]
    top = [max(MAX_SIZE[dim], n + 2) for n in need]
    spatial = [[max(0, n - 1) for n in need], list(need), [n + 1 for n in need],
               [rng.randint(n + 1, t) for n, t in zip(need, top)], top]
    steps = [2, 1, 0, rng.randint(3, max_steps), rng.randint(2, max_steps)]
    rng.shuffle(steps)
    out = []
    for ext, t in zip(spatial, steps):
        entry = {"n%d" % k: ext[k] for k in range(dim)}
        entry["steps"] = t
        out.append(entry)
    # Every case runs its longest loop on the largest extents.
    entry = {"n%d" % k: top[k] for k in range(dim)}
    entry["steps"] = max_steps
    out.append(entry)
    return out


def snapshot_counts(rng):
    """Store-all first (T + 1 covers a tail's extra step), then random
    counts: all of 1..T, or a few of them and counts beyond T."""
    pick = rng.random()
    if pick < 0.4:
        more = ["1..steps"]
    elif pick < 0.8:
        more = ["1", "2", "steps+%d" % rng.randint(2, 5)]
    else:
        more = ["1", "3", "2..steps"]
    return ["steps+1"] + more


def summary(cases):
    """One line on what a batch covers."""
    def n(pred):
        return sum(1 for c in cases if pred(c))
    return ("timeloopgen: %d cases: %d/%d/%d with 1/2/3 states, %d linear, "
            "%d per-step sums, %d final-state objectives, %d heads, T up to %d"
            % (len(cases), n(lambda c: c["states"] == 1),
               n(lambda c: c["states"] == 2), n(lambda c: c["states"] == 3),
               n(lambda c: c["linear"]),
               n(lambda c: "per-step" in c["objective"]),
               n(lambda c: "final" in c["objective"]),
               n(lambda c: c["head"]),
               max([s["steps"] for c in cases for s in c["sizes"]] + [0])))


def generate(seed, count, dims=(1, 2, 3), linear_fraction=0.35,
             max_steps=MAX_STEPS, first=0):
    """Returns (module text, description) for `count` cases numbered from
    `first`."""
    rng = random.Random(seed)
    SKIPPED.clear()
    sg.EXCLUDED.clear()
    sg.EXCLUDED.update(EXCLUDED_OPS)
    parts = ["// Generated by timeloopgen.py --seed %d --count %d. Do not edit.\n"
             % (seed, count), sg.CALLEES]
    cases = []
    for index in range(first, first + count):
        dim = dims[index % len(dims)]
        linear = rng.random() < linear_fraction
        text, desc = make_loop_case(rng, index, dim, linear, max_steps)
        parts.append(text)
        cases.append(desc)
    return "\n".join(parts), {"seed": seed, "cases": cases}


def main():
    p = argparse.ArgumentParser(
        description="Generate random time-loop functions and their JSON description.")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--count", type=int, default=24)
    p.add_argument("--dims", default="1,2,3",
                   help="comma-separated ranks, cycled over the cases")
    p.add_argument("--max-steps", type=int, default=MAX_STEPS)
    p.add_argument("--linear-fraction", type=float, default=0.35)
    p.add_argument("-o", dest="output", required=True, help="output .mlir")
    p.add_argument("--json", required=True, help="output description")
    a = p.parse_args()
    scale = scale_from_env()
    dims = tuple(int(d) for d in a.dims.split(","))
    text, desc = generate(a.seed, a.count * scale, dims, a.linear_fraction,
                          a.max_steps * scale)
    print(summary(desc["cases"]))
    print("timeloopgen: not generated: %s (see EXCLUDED_OPS)"
          % ", ".join(EXCLUDED_OPS))
    for reason, count in sorted(SKIPPED.items()):
        print("timeloopgen: left out of %d case(s): %s" % (count, reason))
    with open(a.output, "w") as f:
        f.write(text)
    with open(a.json, "w") as f:
        json.dump(desc, f, indent=1)
        f.write("\n")


if __name__ == "__main__":
    main()
