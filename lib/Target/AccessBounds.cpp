//===- AccessBounds.cpp - What a function accesses of its arrays -*- C++ -*-===//
//
// This file implements the plan of the index ranges each function accesses
// of its array arguments (AccessBounds.h). Index values are bounded by
// intervals whose ends are affine expressions of the function's integer
// arguments: constants and arguments exactly, `scf.for` induction variables
// and domain coordinates by their bounds, sums and constant multiples by
// interval arithmetic. Arrays are followed through `memref.subview` and the
// memref `iter_args` of time loops. Anything else that decides an index,
// or makes an array from an argument, leaves the function unsupported, so
// that a caller never trusts a bound the plan did not prove.
//
//===----------------------------------------------------------------------===//

#include "Stencil/Target/AccessBounds.h"
#include "AccessPlanner.h"

#include "Stencil/Dialect/StencilInterfaces.h"
#include "Stencil/Dialect/StencilOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallBitVector.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/MathExtras.h"

#include <map>
#include <vector>

using namespace mlir;
using namespace mlir::stencil;

IndexExpr IndexExpr::ofArgument(unsigned argument) {
  IndexExpr e;
  e.terms.push_back({argument, 1});
  return e;
}

std::optional<IndexExpr> IndexExpr::combine(const IndexExpr &a, int64_t scale,
                                            const IndexExpr &b) {
  IndexExpr out;
  int64_t scaled;
  if (llvm::MulOverflow(scale, b.constant, scaled) ||
      llvm::AddOverflow(a.constant, scaled, out.constant))
    return std::nullopt;
  std::map<unsigned, int64_t> terms(a.terms.begin(), a.terms.end());
  for (auto [arg, coeff] : b.terms)
    if (llvm::MulOverflow(scale, coeff, scaled) ||
        llvm::AddOverflow(terms[arg], scaled, terms[arg]))
      return std::nullopt;
  for (auto [arg, coeff] : terms)
    if (coeff != 0)
      out.terms.push_back({arg, coeff});
  return out;
}

llvm::json::Value IndexExpr::toJSON() const {
  llvm::json::Array list;
  for (auto [arg, coeff] : terms)
    list.push_back(llvm::json::Array{int64_t(arg), coeff});
  return llvm::json::Object{{"constant", constant}, {"terms", std::move(list)}};
}

llvm::json::Value ValueFit::toJSON() const {
  llvm::json::Array when;
  for (const auto &[lb, ub] : nonEmpty)
    when.push_back(llvm::json::Array{lb.toJSON(), ub.toJSON()});
  return llvm::json::Object{{"lo", lo.toJSON()},
                            {"hi", hi.toJSON()},
                            {"bits", int64_t(bits)},
                            {"when", std::move(when)}};
}

llvm::json::Value FunctionAccessBounds::toJSON() const {
  llvm::json::Array list;
  for (const AccessBound &b : bounds) {
    llvm::json::Array when;
    for (const auto &[lb, ub] : b.nonEmpty)
      when.push_back(llvm::json::Array{lb.toJSON(), ub.toJSON()});
    list.push_back(llvm::json::Object{{"argument", int64_t(b.argument)},
                                      {"dim", int64_t(b.dim)},
                                      {"lo", b.lo.toJSON()},
                                      {"hi", b.hi.toJSON()},
                                      {"when", std::move(when)},
                                      {"writes", b.writes}});
  }
  llvm::json::Array groups;
  for (const auto &group : sameShape)
    groups.push_back(llvm::json::Array(group));
  llvm::json::Array fitList;
  for (const ValueFit &f : fits)
    fitList.push_back(f.toJSON());
  llvm::json::Object out{{"accesses", std::move(list)},
                         {"same_shape", std::move(groups)},
                         {"fits", std::move(fitList)}};
  if (!unsupported.empty())
    out["unsupported"] = unsupported;
  return out;
}

using namespace mlir::stencil::access_plan;

bool Planner::fail(Operation *op, const Twine &why) {
  if (out.unsupported.empty()) {
    std::string text;
    llvm::raw_string_ostream os(text);
    os << why << " (" << op->getName() << " at " << op->getLoc() << ")";
    out.unsupported = text;
  }
  return false;
}

std::optional<IndexRange> Planner::rangeOf(Value value, Operation *user) {
  auto it = ranges.find(value);
  if (it != ranges.end())
    return it->second;
  fail(user, "an index that is not an affine function of the integer "
             "arguments");
  return std::nullopt;
}

/// Evaluates `expr` over intervals: symbol `s_k` ranges over `symbols[k]`,
/// dimension `d_k` (an outer coordinate of a nonrectangular domain) over
/// `dims[k]`.
std::optional<IndexRange> Planner::evalAffine(AffineExpr expr,
                                              ArrayRef<IndexRange> symbols,
                                              Operation *user,
                                              ArrayRef<IndexRange> dims) {
  if (auto c = dyn_cast<AffineConstantExpr>(expr))
    return point(c.getValue());
  if (auto s = dyn_cast<AffineSymbolExpr>(expr))
    return symbols[s.getPosition()];
  if (auto d = dyn_cast<AffineDimExpr>(expr))
    if (d.getPosition() < dims.size())
      return dims[d.getPosition()];
  auto bin = dyn_cast<AffineBinaryOpExpr>(expr);
  if (bin && expr.getKind() == AffineExprKind::Add) {
    auto l = evalAffine(bin.getLHS(), symbols, user, dims);
    auto r = evalAffine(bin.getRHS(), symbols, user, dims);
    if (l && r)
      return add(*l, 1, *r);
    return std::nullopt;
  }
  if (bin && expr.getKind() == AffineExprKind::Mul)
    if (auto c = dyn_cast<AffineConstantExpr>(bin.getRHS()))
      if (auto l = evalAffine(bin.getLHS(), symbols, user, dims))
        return scale(*l, c.getValue());
  fail(user, "a domain bound other than a sum of symbols times constants");
  return std::nullopt;
}

/// Records the index ranges of one access of `view`, one per dimension of
/// its arguments. With `onlyIndex`, only the dimensions that `indices`
/// position decides; `skipIndices` leaves out those its positions decide.
void Planner::record(const View &view, ArrayRef<IndexRange> indices,
                     bool writes, const Conditions &when,
                     std::optional<unsigned> onlyIndex,
                     ArrayRef<unsigned> skipIndices) {
  for (auto [dim, mapping] : llvm::enumerate(view.dims)) {
    if (onlyIndex && mapping.viewDim != int64_t(*onlyIndex))
      continue;
    if (mapping.viewDim >= 0 &&
        llvm::is_contained(skipIndices, unsigned(mapping.viewDim)))
      continue;
    IndexRange r = mapping.offset;
    if (mapping.viewDim >= 0) {
      auto shifted = add(mapping.offset, mapping.stride,
                         indices[mapping.viewDim]);
      if (!shifted) {
        fail(func, "an index range that overflows");
        return;
      }
      r = *shifted;
    }
    for (unsigned arg : view.arguments) {
      AccessBound bound{arg, unsigned(dim), r.lo, r.hi, when, writes};
      std::string key;
      llvm::raw_string_ostream os(key);
      os << FunctionAccessBounds{{bound}, {}, {}, {}}.toJSON();
      if (seen.insert(key).second)
        out.bounds.push_back(std::move(bound));
    }
  }
}

/// The bit width in which `type` (an integer or index) wraps.
static unsigned wrapBits(Type type) {
  if (auto integer = dyn_cast<IntegerType>(type))
    return integer.getWidth();
  return 64;
}

void Planner::recordFit(Value value, const IndexRange &range,
                        const Conditions &when) {
  ValueFit fit{range.lo, range.hi, wrapBits(value.getType()), when};
  // A constant that fits needs no check at run time.
  if (range.lo.terms.empty() && range.hi.terms.empty() &&
      llvm::isIntN(fit.bits, range.lo.constant) &&
      llvm::isIntN(fit.bits, range.hi.constant))
    return;
  std::string key;
  llvm::raw_string_ostream os(key);
  os << fit.toJSON();
  if (seen.insert(key).second)
    out.fits.push_back(std::move(fit));
}

void Planner::access(Operation *op, Value array, ValueRange indices,
                     bool writes, const Conditions &when) {
  auto it = views.find(array);
  if (it == views.end()) {
    fail(op, kUnknownArray);
    return;
  }
  SmallVector<IndexRange> r;
  for (Value index : indices) {
    auto range = rangeOf(index, op);
    if (!range)
      return;
    r.push_back(*range);
  }
  if (!it->second.local)
    record(it->second, r, writes, when);
}

void Planner::walkSubview(memref::SubViewOp subview, Conditions &when) {
  auto it = views.find(subview.getSource());
  if (it == views.end()) {
    fail(subview, "a subview of an array the plan does not follow");
    return;
  }
  View source = it->second;
  SmallVector<OpFoldResult> offsets = subview.getMixedOffsets();
  SmallVector<OpFoldResult> sizes = subview.getMixedSizes();
  SmallVector<OpFoldResult> strides = subview.getMixedStrides();
  llvm::SmallBitVector dropped = subview.getDroppedDims();
  auto rangeOfFold = [&](OpFoldResult ofr) -> std::optional<IndexRange> {
    if (auto attr = dyn_cast<Attribute>(ofr)) {
      int64_t c = cast<IntegerAttr>(attr).getInt();
      return point(c);
    }
    return rangeOf(cast<Value>(ofr), subview);
  };
  // The subview's own region must lie in its source: record it as an access
  // of its first and last element, when it is not empty.
  View result{source.arguments, {}, source.local};
  SmallVector<IndexRange> first, last;
  Conditions regionWhen = when;
  int64_t viewDim = 0;
  for (unsigned d = 0; d < offsets.size(); ++d) {
    auto offset = rangeOfFold(offsets[d]);
    auto size = rangeOfFold(sizes[d]);
    std::optional<int64_t> stride = getConstantIntValue(strides[d]);
    if (!offset || !size)
      return;
    if (!stride || *stride < 1) {
      fail(subview, "a subview whose strides are not positive constants");
      return;
    }
    auto end = add(*offset, *stride, *size);
    auto lastIndex = end ? add(*end, -*stride, point(1)) : std::nullopt;
    if (!lastIndex) {
      fail(subview, "an index range that overflows");
      return;
    }
    first.push_back(*offset);
    last.push_back(*lastIndex);
    regionWhen.push_back({IndexExpr::ofConstant(0), size->hi});
    result.dims.push_back(
        {dropped.test(d) ? -1 : viewDim, *stride, *offset});
    if (!dropped.test(d))
      ++viewDim;
  }
  // Compose with the source's own mapping.
  View composed{source.arguments, {}, source.local};
  for (const ViewDim &outer : source.dims) {
    if (outer.viewDim < 0) {
      composed.dims.push_back(outer);
      continue;
    }
    const ViewDim &inner = result.dims[outer.viewDim];
    auto offset = add(outer.offset, outer.stride, inner.offset);
    if (!offset) {
      fail(subview, "an index range that overflows");
      return;
    }
    composed.dims.push_back({inner.viewDim, outer.stride * inner.stride,
                             *offset});
  }
  if (!source.local) {
    for (unsigned d = 0; d < first.size(); ++d)
      first[d].hi = last[d].hi;
    record(source, first, /*writes=*/false, regionWhen);
  }
  views[subview.getResult()] = composed;
}

void Planner::walkFor(scf::ForOp loop, Conditions &when) {
  auto lb = rangeOf(loop.getLowerBound(), loop);
  auto ub = rangeOf(loop.getUpperBound(), loop);
  auto step = getConstantIntValue(loop.getStep());
  if (!lb || !ub)
    return;
  if (!step || *step < 1) {
    fail(loop, "a loop whose step is not a positive constant");
    return;
  }
  auto last = lastBefore(*ub);
  if (!last) {
    fail(loop, "an index range that overflows");
    return;
  }
  ranges[loop.getInductionVar()] = IndexRange{lb->lo, last->hi};
  // The lowered loop steps `iv += step` while `iv < ub`: after the last
  // iteration the induction value is at most ub - 1 + step. The adjoint of
  // a time loop counts its steps from ub - lb.
  auto first = add(*lb, 1, point(*step));
  auto next = add(*last, 1, point(*step));
  auto span = add(*ub, -1, *lb);
  if (!first || !next || !span) {
    fail(loop, "an index range that overflows");
    return;
  }
  recordFit(loop.getInductionVar(), *span, when);
  // Memref iter_args: each may be any array of its rotation.
  auto yield = cast<scf::YieldOp>(loop.getBody()->getTerminator());
  SmallVector<unsigned> memrefArgs;
  for (auto [k, init] : llvm::enumerate(loop.getInitArgs())) {
    if (!isa<MemRefType>(init.getType())) {
      if (init.getType().isIntOrIndex()) {
        fail(loop, "an integer loop-carried value");
        return;
      }
      continue;
    }
    auto it = views.find(init);
    if (it == views.end() || it->second.local) {
      fail(loop, "a loop-carried array that is not an argument");
      return;
    }
    memrefArgs.push_back(k);
  }
  SmallVector<SmallVector<unsigned>> sets(loop.getInitArgs().size());
  for (unsigned k : memrefArgs)
    sets[k] = views[loop.getInitArgs()[k]].arguments;
  for (bool changed = true; changed;) {
    changed = false;
    for (unsigned k : memrefArgs) {
      auto from = dyn_cast<BlockArgument>(yield.getOperand(k));
      if (!from || from.getOwner() != loop.getBody() ||
          from.getArgNumber() == 0) {
        fail(loop, "a loop-carried array that is not rotated");
        return;
      }
      for (unsigned arg : sets[from.getArgNumber() - 1])
        if (!llvm::is_contained(sets[k], arg)) {
          sets[k].push_back(arg);
          changed = true;
        }
    }
  }
  for (unsigned k : memrefArgs) {
    View view = views[loop.getInitArgs()[k]];
    llvm::sort(sets[k]);
    view.arguments = sets[k];
    views[loop.getRegionIterArg(k)] = view;
    views[loop.getResult(k)] = view;
    if (sets[k].size() > 1 && !llvm::is_contained(out.sameShape, sets[k]))
      out.sameShape.push_back(sets[k]);
  }
  when.push_back({lb->lo, ub->hi});
  recordFit(loop.getInductionVar(), IndexRange{first->lo, next->hi}, when);
  walkBlock(*loop.getBody(), when);
  when.pop_back();
}

/// Records the ranges of a domain's coordinates and the conditions under
/// which its body runs (`when`); false after a failure.
bool Planner::walkBounds(DomainOp domain, ArrayRef<IndexRange> symbols,
                         Conditions &when) {
  if (!domain.isRectangular()) {
    for (unsigned d = 0; d < domain.getRank(); ++d)
      if (!walkGroupBounds(domain, d, symbols, when))
        return false;
    return true;
  }
  for (unsigned d = 0; d < domain.getRank(); ++d) {
    auto lb = evalAffine(domain.getLowerBounds().getResult(d), symbols,
                         domain);
    auto ub = evalAffine(domain.getUpperBounds().getResult(d), symbols,
                         domain);
    if (!lb || !ub)
      return false;
    auto last = lastBefore(*ub);
    auto span = add(*ub, -1, *lb);
    if (!last || !span)
      return fail(domain, "an index range that overflows");
    Value iv = domain.getInductionVars()[d];
    recordFit(iv, *lb, when);
    recordFit(iv, *ub, when);
    recordFit(iv, *span, when);
    ranges[iv] = IndexRange{lb->lo, last->hi};
    when.push_back({lb->lo, ub->hi});
  }
  return true;
}

void Planner::walkDomain(DomainOp domain, Conditions &when) {
  SmallVector<IndexRange> symbols;
  for (Value operand : domain.getBoundOperands()) {
    auto r = rangeOf(operand, domain);
    if (!r)
      return;
    symbols.push_back(*r);
  }
  size_t depth = when.size();
  if (!walkBounds(domain, symbols, when))
    return;
  for (Operation &op : *domain.getBodyBlock()) {
    auto accessOp = dyn_cast<AccessOpInterface>(&op);
    if (!accessOp) {
      if (llvm::any_of(op.getOperandTypes(), llvm::IsaPred<MemRefType>))
        fail(&op, "an array used inside a domain other than by an access");
      continue;
    }
    auto it = views.find(accessOp.getAccessedArray());
    if (it == views.end()) {
      fail(&op, kUnknownArray);
      return;
    }
    SmallVector<IndexRange> indices;
    for (auto [dim, offset] : llvm::zip(accessOp.getIterationDims(),
                                        accessOp.getArrayOffset())) {
      // A fixed dimension (`_`) reads the element `offset` itself at every
      // point; it must lie in the array like any other index.
      if (dim == kFixedDim) {
        indices.push_back(point(offset));
        continue;
      }
      auto r = add(ranges[domain.getInductionVars()[dim]], 1,
                   point(offset));
      if (!r) {
        fail(&op, "an index range that overflows");
        return;
      }
      indices.push_back(*r);
    }
    if (!it->second.local)
      recordAccess(domain, accessOp, it->second, indices, when);
  }
  when.resize(depth);
}

void Planner::walkOp(Operation *op, Conditions &when) {
  if (auto c = dyn_cast<arith::ConstantOp>(op)) {
    if (auto i = dyn_cast<IntegerAttr>(c.getValue()))
      if (c.getType().isIntOrIndex())
        ranges[c.getResult()] = point(i.getInt());
    return;
  }
  if (isa<arith::AddIOp, arith::SubIOp>(op)) {
    auto l = ranges.find(op->getOperand(0));
    auto r = ranges.find(op->getOperand(1));
    if (l != ranges.end() && r != ranges.end())
      if (auto sum = add(l->second, isa<arith::AddIOp>(op) ? 1 : -1,
                         r->second)) {
        ranges[op->getResult(0)] = *sum;
        recordFit(op->getResult(0), *sum, when);
      }
    return;
  }
  if (isa<arith::MulIOp>(op)) {
    for (unsigned k = 0; k < 2; ++k) {
      auto c = getConstantIntValue(op->getOperand(k));
      auto other = ranges.find(op->getOperand(1 - k));
      if (c && other != ranges.end())
        if (auto product = scale(other->second, *c)) {
          ranges[op->getResult(0)] = *product;
          recordFit(op->getResult(0), *product, when);
        }
    }
    return;
  }
  if (auto cast = dyn_cast<arith::IndexCastOp>(op)) {
    auto it = ranges.find(cast.getIn());
    if (it != ranges.end()) {
      ranges[cast.getResult()] = it->second;
      recordFit(cast.getResult(), it->second, when);
    }
    return;
  }
  if (isa<memref::AllocOp, memref::AllocaOp>(op)) {
    views[op->getResult(0)] = View{{}, {}, /*local=*/true};
    return;
  }
  if (auto subview = dyn_cast<memref::SubViewOp>(op))
    return walkSubview(subview, when);
  if (auto load = dyn_cast<memref::LoadOp>(op))
    return access(op, load.getMemRef(), load.getIndices(), false, when);
  if (auto store = dyn_cast<memref::StoreOp>(op))
    return access(op, store.getMemRef(), store.getIndices(), true, when);
  if (auto loop = dyn_cast<scf::ForOp>(op))
    return walkFor(loop, when);
  if (auto domain = dyn_cast<DomainOp>(op))
    return walkDomain(domain, when);
  if (isa<memref::DeallocOp, func::ReturnOp, scf::YieldOp>(op))
    return;
  if (llvm::any_of(op->getOperandTypes(), llvm::IsaPred<MemRefType>) ||
      llvm::any_of(op->getResultTypes(), llvm::IsaPred<MemRefType>)) {
    fail(op, "an op on arrays the bounds plan does not know");
    return;
  }
  for (Region &region : op->getRegions())
    for (Block &block : region)
      walkBlock(block, when);
}

void Planner::walkBlock(Block &block, Conditions &when) {
  for (Operation &op : block) {
    walkOp(&op, when);
    if (!out.unsupported.empty())
      return;
  }
}

FunctionAccessBounds Planner::run() {
  for (BlockArgument arg : func.getArguments()) {
    Type type = arg.getType();
    if (type.isIntOrIndex()) {
      IndexExpr e = IndexExpr::ofArgument(arg.getArgNumber());
      ranges[arg] = IndexRange{e, e};
    } else if (auto memref = dyn_cast<MemRefType>(type)) {
      View view{{arg.getArgNumber()}, {}, false};
      for (int64_t d = 0; d < memref.getRank(); ++d)
        view.dims.push_back({d, 1, IndexRange{}});
      views[arg] = view;
    }
  }
  Conditions when;
  walkBlock(func.getBody().front(), when);
  if (!out.unsupported.empty()) {
    out.bounds.clear();
    out.fits.clear();
  }
  return out;
}

llvm::StringMap<FunctionAccessBounds>
mlir::stencil::planAccessBounds(ModuleOp module) {
  llvm::StringMap<FunctionAccessBounds> plans;
  for (auto func : module.getOps<func::FuncOp>())
    if (!func.isExternal())
      plans[func.getSymName()] = Planner(func).run();
  return plans;
}
