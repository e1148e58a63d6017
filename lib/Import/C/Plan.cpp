//===- Plan.cpp - The import plan as JSON ----------------------------------===//

#include "Plan.h"

#include "Stencil/Dialect/StencilInterfaces.h"

#include "mlir/IR/BuiltinAttributes.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/JSON.h"

using namespace mlir;
using namespace mlir::stencil::importc;
namespace json = llvm::json;

SmallVector<unsigned> FunctionPlan::sizeParams() const {
  SmallVector<unsigned> result;
  for (auto [idx, param] : llvm::enumerate(params))
    if (param.kind == ParamKind::Size)
      result.push_back(idx);
  return result;
}

unsigned FunctionPlan::numArgs() const {
  return llvm::count_if(params, [](const ParamPlan &p) { return p.initial < 0; });
}

static std::string text(Location loc) {
  if (auto file = dyn_cast<FileLineColLoc>(loc))
    return (file.getFilename().strref() + ":" + Twine(file.getLine()) + ":" +
            Twine(file.getColumn()))
        .str();
  return "?";
}

static std::string text(Type type) {
  std::string s;
  llvm::raw_string_ostream os(s);
  os << type;
  return s;
}

static StringRef kindName(ParamKind kind) {
  switch (kind) {
  case ParamKind::Array:
    return "array";
  case ParamKind::Size:
    return "size";
  case ParamKind::Scalar:
    return "scalar";
  }
  return "?";
}

static StringRef kindName(AccessPlan::Kind kind) {
  switch (kind) {
  case AccessPlan::Kind::Read:
    return "read";
  case AccessPlan::Kind::Store:
    return "store";
  case AccessPlan::Kind::Accumulate:
    return "accumulate";
  }
  return "?";
}

static json::Array strings(ArrayRef<std::string> values) {
  json::Array result;
  for (const std::string &v : values)
    result.push_back(v);
  return result;
}

static json::Object paramJSON(const ParamPlan &p, const FunctionPlan &plan) {
  json::Object o{{"name", p.name}, {"kind", kindName(p.kind)}};
  if (p.initial >= 0) {
    o["kind"] = "pointer";
    o["starts"] = plan.params[p.initial].name;
  }
  if (p.kind != ParamKind::Size)
    o["element"] = text(p.element);
  if (p.kind == ParamKind::Array) {
    o["extents"] = strings(p.extents);
    o["linearized"] = p.linearized;
    if (p.linearized)
      o["strides"] = strings(p.strides);
    o["const"] = p.readOnly;
    o["restrict"] = p.restrict;
    o["written"] = p.written;
  }
  if (p.kind != ParamKind::Size)
    o["active"] = p.active;
  return o;
}

/// Prints `expr` with the symbols named after the C size parameters, as C
/// would write it (`2 * m - k`).
static void printAffine(AffineExpr expr, ArrayRef<std::string> symbols,
                        raw_ostream &os, ArrayRef<std::string> dims = {});

/// `c * x`, with parentheses around a sum.
static void printScaled(int64_t c, AffineExpr x, ArrayRef<std::string> symbols,
                        raw_ostream &os, ArrayRef<std::string> dims) {
  if (c != 1)
    os << c << " * ";
  bool paren = c != 1 && x.getKind() == AffineExprKind::Add;
  os << (paren ? "(" : "");
  printAffine(x, symbols, os, dims);
  os << (paren ? ")" : "");
}

/// `expr` as C writes it: symbols by their names in `symbols`, dimensions
/// (the counters of outer loops) by theirs in `dims`.
static void printAffine(AffineExpr expr, ArrayRef<std::string> symbols,
                        raw_ostream &os, ArrayRef<std::string> dims) {
  if (auto c = dyn_cast<AffineConstantExpr>(expr)) {
    os << c.getValue();
    return;
  }
  if (auto s = dyn_cast<AffineSymbolExpr>(expr)) {
    os << symbols[s.getPosition()];
    return;
  }
  if (auto d = dyn_cast<AffineDimExpr>(expr)) {
    os << dims[d.getPosition()];
    return;
  }
  auto bin = cast<AffineBinaryOpExpr>(expr);
  AffineExpr lhs = bin.getLHS(), rhs = bin.getRHS();
  auto constant = dyn_cast<AffineConstantExpr>(rhs);
  switch (bin.getKind()) {
  case AffineExprKind::Add: {
    printAffine(lhs, symbols, os, dims);
    auto mul = dyn_cast<AffineBinaryOpExpr>(rhs);
    auto factor = mul && mul.getKind() == AffineExprKind::Mul
                      ? dyn_cast<AffineConstantExpr>(mul.getRHS())
                      : AffineConstantExpr();
    if (constant && constant.getValue() < 0) {
      os << " - " << -constant.getValue();
    } else if (factor && factor.getValue() < 0) {
      os << " - ";
      printScaled(-factor.getValue(), mul.getLHS(), symbols, os, dims);
    } else {
      os << " + ";
      printAffine(rhs, symbols, os, dims);
    }
    return;
  }
  case AffineExprKind::Mul:
    if (constant) {
      printScaled(constant.getValue(), lhs, symbols, os, dims);
      return;
    }
    os << "(";
    printAffine(lhs, symbols, os, dims);
    os << ") * (";
    printAffine(rhs, symbols, os, dims);
    os << ")";
    return;
  default: {
    StringRef op = bin.getKind() == AffineExprKind::FloorDiv  ? " floordiv "
                   : bin.getKind() == AffineExprKind::CeilDiv ? " ceildiv "
                                                              : " mod ";
    os << "(";
    printAffine(lhs, symbols, os, dims);
    os << ")" << op;
    printAffine(rhs, symbols, os, dims);
    return;
  }
  }
}

/// The results of `map`, as C writes them; `counters` name its dimensions.
static json::Array affineJSON(AffineMap map, const FunctionPlan &plan,
                              ArrayRef<std::string> counters = {}) {
  SmallVector<std::string> symbols;
  for (unsigned idx : plan.sizeParams())
    symbols.push_back(plan.params[idx].name);
  json::Array result;
  for (AffineExpr expr : map.getResults()) {
    std::string s;
    llvm::raw_string_ostream os(s);
    printAffine(expr, symbols, os, counters);
    result.push_back(s);
  }
  return result;
}

static json::Object accessJSON(const AccessPlan &a, const FunctionPlan &plan) {
  json::Array dims, offsets;
  for (int64_t d : a.dims)
    dims.push_back(d == stencil::kFixedDim ? json::Value("_") : json::Value(d));
  for (int64_t o : a.offsets)
    offsets.push_back(o);
  return json::Object{{"array", plan.params[a.param].name},
                      {"kind", kindName(a.kind)},
                      {"dims", std::move(dims)},
                      {"offsets", std::move(offsets)},
                      {"loc", text(a.loc)}};
}

static json::Object nestJSON(const NestPlan &n, const FunctionPlan &plan) {
  json::Array accesses;
  for (const AccessPlan &a : n.accesses)
    accesses.push_back(accessJSON(a, plan));
  return json::Object{{"loc", text(n.loc)},
                      {"counters", strings(n.counters)},
                      {"lower", affineJSON(n.lower, plan, n.counters)},
                      {"upper", affineJSON(n.upper, plan, n.counters)},
                      {"accesses", std::move(accesses)}};
}

void mlir::stencil::importc::printPlanJSON(ArrayRef<FunctionPlan> plans,
                                           raw_ostream &os) {
  json::Array functions;
  for (const FunctionPlan &plan : plans) {
    json::Array params, nests;
    for (const ParamPlan &p : plan.params)
      params.push_back(paramJSON(p, plan));
    for (const NestPlan &n : plan.nests)
      nests.push_back(nestJSON(n, plan));
    json::Array loops;
    for (const TimeLoopPlan &t : plan.timeLoops) {
      json::Array states;
      for (unsigned s : t.states)
        states.push_back(plan.params[s].name);
      loops.push_back(json::Object{{"loc", text(t.loc)},
                                   {"counter", t.counter},
                                   {"lower", affineJSON(t.lower, plan)},
                                   {"upper", affineJSON(t.upper, plan)},
                                   {"nests", json::Array{t.firstNest, t.numNests}},
                                   {"states", std::move(states)}});
    }
    functions.push_back(json::Object{{"name", plan.name},
                                     {"loc", text(plan.loc)},
                                     {"params", std::move(params)},
                                     {"nests", std::move(nests)},
                                     {"time_loops", std::move(loops)}});
  }
  os << llvm::formatv("{0:2}",
                      json::Value(json::Object{{"functions", std::move(functions)}}))
     << "\n";
}
