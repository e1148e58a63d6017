"""Kernels to the stencil dialect: each kernel becomes a `func.func`.

The arguments are the arrays, scalars and sizes the kernel uses (in the
order they were made, or the kernel's `args`); each domain becomes a
`stencil.domain`, a sum a domain with a result, a time loop an `scf.for`
whose `iter_args` are the rotated states and the per-step sums
(docs/TimeLoops.md). Reads of a table at the step (`w[t]`, `d[t, i, j]`)
become a `memref.load` or a `memref.subview` before the domain. All text
comes from `mlir.TextBuilder`.
"""

from .access import classify, reads
from .expr import ExprLowering, affine
from .mlir import TextBuilder, memref_type, strided_layout
from .symbols import (Array, Counter, FrontendError, Scalar, Size, SumValue,
                      array_of, sp)


def emit(kernels, locations=True):
    """The MLIR text of a module holding `kernels`; `locations` puts the
    Python line of each op on it (what is compiled, so that diagnostics
    point at the script)."""
    b = TextBuilder(locations)
    for k, kernel in enumerate(kernels):
        if k:
            b.comment("")
        _KernelEmitter(b, kernel).run()
    return b.text()


def _is_loop(item):
    """A kernel.TimeLoop (kernel.py builds on this module, not the other
    way round)."""
    return getattr(item, "is_time_loop", False)


def _order(obj):
    return getattr(obj, "uid", None) or getattr(obj, "_uid", None) or 0


class _KernelEmitter:
    def __init__(self, builder, kernel):
        self.b, self.k = builder, kernel
        self.env = {}        # Array or symbol -> (SSA name, type)
        self.sums = {}       # SumValue -> SSA name
        self.finals = {}     # (TimeLoop, index) -> SSA name

    # -- what the kernel uses --------------------------------------------
    def _walk(self):
        """(domains, index expressions, float expressions) of the kernel."""
        domains, ints, floats = [], [], []
        for item in self.k.items:
            if _is_loop(item):
                ints.append(item.steps)
                domains.extend(item.items)
            else:
                domains.append(item)
        for d in domains:
            ints += d.lower + d.upper
            floats += [s.value for s in d.statements] + [
                s.target for s in d.statements]
            if d.summand is not None:
                floats.append(d.summand)
        for t in self.k.temporaries:
            ints += [sp.sympify(e) for e in t.shape if e is not None]
        if self.k.result:
            floats.append(self.k.result[0])
        return domains, ints, floats

    def _signature(self):
        domains, ints, floats = self._walk()
        counters = {c for d in domains for c in d.counters}
        arrays, symbols = set(), set()
        for e in floats + ints:
            for r in sp.sympify(e).atoms(sp.core.function.AppliedUndef):
                a = array_of(r.func)
                if a is not None and not a.temporary and a.final_of is None:
                    arrays.add(a)
        for item in self.k.items:
            if _is_loop(item):
                arrays.update(item.rotate)
        index_syms = {s for e in ints for s in sp.sympify(e).free_symbols}
        for e in floats + ints:
            symbols |= sp.sympify(e).free_symbols
        symbols = {s for s in symbols if s not in counters and
                   not isinstance(s, (Counter, SumValue))}
        dtypes = {a.dtype for a in arrays | set(self.k.temporaries)}
        dtypes |= {s.dtype for s in symbols
                   if isinstance(s, Scalar) and s.dtype}
        if len(dtypes) > 1:
            typed = sorted(
                "%s %s (%s)" % (x.dtype, _name(x), getattr(x, "loc", "")) for
                x in arrays | set(self.k.temporaries) | symbols
                if getattr(x, "dtype", None))
            raise FrontendError(
                "%s mixes f32 and f64: %s; one float type per kernel is "
                "supported, so give them all the same dtype=" % (
                    self.k.name, ", ".join(typed)), self.k.loc)
        self.ftype = dtypes.pop() if dtypes else "f64"
        if self.k.args is not None:
            params = list(self.k.args)
            missing = (arrays | symbols) - set(params)
            if missing:
                raise FrontendError(
                    "%s uses %s, which args= does not list: add it to args= "
                    "(or leave args= out for arrays, scalars, then sizes)" % (
                        self.k.name,
                        ", ".join(sorted(_name(x) for x in missing))),
                    self.k.loc)
        else:
            params = sorted(arrays | symbols, key=lambda x: (
                _kind_rank(x, index_syms), _order(x) == 0, _order(x),
                _name(x)))
        return [(p, self._type(p, index_syms)) for p in params]

    def _type(self, p, index_syms):
        if isinstance(p, Array):
            return memref_type(p.static_shape(), p.dtype)
        if isinstance(p, Size) or (not isinstance(p, Scalar) and
                                   p in index_syms):
            return "index"
        return self.ftype

    # -- the function -----------------------------------------------------
    def run(self):
        params = self._signature()
        names = [_name(p) for p, _ in params]
        if len(set(names)) != len(names):
            dup = [p for p, _ in params if names.count(_name(p)) > 1]
            dup.sort(key=_order)
            raise FrontendError(
                "%s has two arguments named %s (the other made at %s): give "
                "them different names, the C interface's parameters" % (
                    self.k.name, _name(dup[-1]), getattr(dup[0], "loc", "?")),
                getattr(dup[-1], "loc", None) or self.k.loc)
        self.arg_names = set(names)
        args = [("%" + _name(p), t, getattr(p, "active", False),
                 getattr(p, "loc", None) or self.k.loc) for p, t in params]
        for (p, t), (ssa, _, _, _) in zip(params, args):
            self.env[p] = (ssa, t)
        result = self.k.result is not None or self._all_sums()
        with self.b.func(self.k.name, args, [self.ftype] if result else [],
                         self.k.loc):
            self.top = self._lowering(None)
            for t in self.k.temporaries:
                self._alloc(t)
            for item in self.k.items:
                if _is_loop(item):
                    self._loop(item)
                else:
                    total = self._domain(item, self.top)
                    if item.sum_value is not None:
                        self.sums[item.sum_value] = total
            values = []
            if result:
                expr, loc = self.k.result or (sp.Add(*self._all_sums()),
                                              self.k.loc)
                self.top.loc = loc
                values = [self.top.float(expr)]
            for t in self.k.temporaries:
                self.b.dealloc(self.env[t][0], self.env[t][1])
            self.b.ret(values, [self.ftype] * len(values))

    def _all_sums(self):
        out = []
        for item in self.k.items:
            for d in item.items if _is_loop(item) else [item]:
                if d.sum_value is not None:
                    out.append(d.sum_value)
        return out

    def _alloc(self, t):
        low = self.top
        low.loc = t.loc
        sizes = [low.index(e) for e in t.shape
                 if not (isinstance(e, int) and not isinstance(e, bool))]
        type_ = memref_type(t.static_shape(), t.dtype)
        self.env[t] = (self.b.alloc(sizes, type_, t.loc), type_)

    # -- scopes -----------------------------------------------------------
    def _lookup(self, scope):
        def lookup(sym, loc):
            if scope and sym in scope:
                return scope[sym]
            if sym in self.env:
                return self.env[sym]
            if isinstance(sym, SumValue) and sym in self.sums:
                return self.sums[sym], self.ftype
            raise FrontendError(
                "%s is not a counter of this domain, an argument or a sum "
                "computed before this point; a counter stands for the point "
                "only in the domains it bounds" % sym, loc)
        return lookup

    def _lowering(self, scope, read=None):
        return ExprLowering(self.b, self.ftype, self._lookup(scope), read)

    def _array(self, array, scope):
        if array.final_of is not None:     # read after its loop (kernel.py)
            a = array.final_of[0].rotate[array.final_of[1]]
            return self.finals[array.final_of], self.env[a][1]
        if scope and array in scope:
            return scope[array]
        return self.env[array]

    # -- domains ----------------------------------------------------------
    def _domain(self, d, outer, scope=None):
        """Emits domain `d` in the region of `outer` (an ExprLowering);
        returns its result's SSA name for a sum."""
        hoisted = self._hoist_time_reads(d, outer, scope)
        lookup = self._lookup(scope)
        lower = [affine(e, lookup, d.loc) for e in d.lower]
        upper = [affine(e, lookup, d.loc) for e in d.upper]
        ivs = []
        for c in d.counters:
            name = "%" + str(c)
            ivs.append(name if str(c).isidentifier() and str(c) not in
                       self.arg_names and name not in ivs else self.b.fresh())
        inner = dict(scope or {})
        inner.update({c: (iv, "index") for c, iv in zip(d.counters, ivs)})
        types = [self.ftype] if d.summand is not None else []
        with self.b.domain(ivs, lower, upper, types, d.loc) as results:
            low = self._lowering(inner, self._reader(d, inner, hoisted))
            for s in d.statements:
                low.loc = s.loc
                self._statement(low, s, inner)
            if d.summand is not None:
                low.loc = d.loc
                self.b.stencil_yield([low.float(d.summand)], types, d.loc)
        return results[0] if results else None

    def _statement(self, low, s, scope):
        value = low.float(s.value)
        ssa, type_ = self._array(s.access.array, scope)
        if s.increment:
            self.b.accumulate(value, ssa, s.access.offsets(),
                              s.access.dims(), type_, s.loc)
        else:
            self.b.store(value, ssa, s.access.dims(), type_, s.loc)

    def _reader(self, d, scope, hoisted):
        def read(expr, loc):
            access = classify(expr, d.counters, d.time, loc)
            if expr in hoisted:
                kind, ssa, type_ = hoisted[expr]
                if kind == "value":
                    return ssa
            else:
                ssa, type_ = self._array(access.array, scope)
            return self.b.gather(ssa, access.offsets(), access.dims(), type_,
                                 loc)
        return read

    def _hoist_time_reads(self, d, outer, scope):
        """Loads (`w[t]`) and slices (`d[t, i, j]`) of tables at the step,
        made before the domain: {read: (kind, SSA name, type)}."""
        exprs = [s.value for s in d.statements]
        if d.summand is not None:
            exprs.append(d.summand)
        out, views = {}, {}
        for e in exprs:
            for r in reads(e):
                access = classify(r, d.counters, d.time, None)
                if access.has_time():
                    out[r] = self._time_read(access, outer, scope, views)
        return out

    def _time_read(self, access, low, scope, views):
        array = access.array
        ssa, type_ = self._array(array, scope)
        if all(p[0] != "dim" for p in access.parts):
            idx = [low.index(self.time_counter + p[1]) if p[0] == "time"
                   else low.index(p[1]) for p in access.parts]
            return ("value", self.b.load(ssa, idx, type_), None)
        key = (array, tuple(p if p[0] == "time" else None
                            for p in access.parts))
        if key not in views:
            views[key] = self._view(array, ssa, type_, access, low)
        return ("view",) + views[key]

    def _view(self, array, ssa, type_, access, low):
        shape = array.static_shape()
        offsets, sizes, kept, strides = [], [], [], []
        for k, p in enumerate(access.parts):
            if p[0] == "time":
                offsets.append(low.index(self.time_counter + p[1]))
                sizes.append(1)
            else:
                offsets.append(0)
                extent = array.shape[k]      # given (kernel.py checks)
                sizes.append(shape[k] if shape[k] is not None else
                             low.index(extent))
                kept.append(shape[k])
                later = shape[k + 1:]
                strides.append(None if None in later else
                               _product(later))
        view_type = memref_type(kept, array.dtype, strided_layout(strides))
        return self.b.subview(ssa, offsets, sizes, type_, view_type), \
            view_type

    # -- time loops -------------------------------------------------------
    def _loop(self, loop):
        self.top.loc = loop.loc
        c0, c1 = self.top.index(0), self.top.index(1)
        steps = self.top.index(loop.steps)
        sums = [d for d in loop.items if d.sum_value is not None]
        zero = self.top.float(0.0) if sums else None
        states = [self.env[a] for a in loop.rotate]
        carried_in = states + [(zero, self.ftype)] * len(sums)
        with self.b.for_loop(c0, steps, c1, carried_in, loop.loc) as (
                t, carried, results):
            self.time_counter = loop.counter
            scope = {loop.counter: (t, "index")}
            scope.update({a: (c, s[1]) for a, c, s in
                          zip(loop.rotate, carried, states)})
            body = self._lowering(scope)
            accs = []
            for d in loop.items:
                term = self._domain(d, body, scope)
                if d.sum_value is not None:
                    k = len(states) + len(accs)
                    body.loc = d.loc
                    accs.append(self.b.arith("addf", [carried[k], term],
                                             self.ftype, d.loc))
            rotated = carried[1:len(states)] + carried[:1]
            self.b.scf_yield(rotated + accs,
                             [s[1] for s in states[1:] + states[:1]] +
                             [self.ftype] * len(accs), loop.loc)
        for k in range(len(states)):
            self.finals[(loop, k)] = results[k]
        for d, r in zip(sums, results[len(states):]):
            self.sums[d.sum_value] = r


def _kind_rank(p, index_syms):
    """Arrays first, then float scalars, then sizes (as the examples in
    MLIR have them)."""
    if isinstance(p, Array):
        return 0
    return 2 if isinstance(p, Size) or (not isinstance(p, Scalar) and
                                        p in index_syms) else 1


def _product(values):
    out = 1
    for v in values:
        out *= v
    return out


def _name(p):
    return p.name
