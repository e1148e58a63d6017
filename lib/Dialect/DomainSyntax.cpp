//===- DomainSyntax.cpp - Custom assembly of stencil.domain ----*- C++ -*-===//
//
// This file implements the custom assembly format of `stencil.domain`:
// the bound lists `(1, max(%i, 2), %n - 1)`, parsed into one affine map per
// side over the coordinates (dimensions) and the operands (symbols), with
// per-dimension counts when a dimension takes a max or a min
// (docs/Dialect.md, "Syntax").
//
//===----------------------------------------------------------------------===//

#include "DomainBounds.h"
#include "Stencil/Dialect/StencilOps.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/OpImplementation.h"
#include "llvm/ADT/STLExtras.h"

using namespace mlir;
using namespace mlir::stencil;

//===----------------------------------------------------------------------===//
// DomainOp: custom assembly
//===----------------------------------------------------------------------===//

/// The bounds of a domain as they are parsed: per dimension, the
/// expressions of its max (lower) or min (upper), over the coordinates (as
/// dimensions) and `operands` (as symbols).
namespace {
struct ParsedBounds {
  SmallVector<AffineExpr> exprs;
  SmallVector<int32_t> counts;
};
} // namespace

/// Parses one bound list, `(1, max(%i, 2), %n - 1)` (`keyword` is `max` for
/// lower bounds, `min` for upper ones). Ids that name a coordinate of the
/// domain (`ivs`) become dimensions; every other id, bare or `symbol(...)`,
/// a symbol, appended to `operands` when not seen before.
static ParseResult
parseBoundList(OpAsmParser &parser, ArrayRef<OpAsmParser::Argument> ivs,
               StringRef keyword,
               SmallVectorImpl<OpAsmParser::UnresolvedOperand> &operands,
               ParsedBounds &bounds) {
  MLIRContext *ctx = parser.getContext();
  auto remap = [&](const OpAsmParser::UnresolvedOperand &id) -> AffineExpr {
    auto same = [&](const OpAsmParser::UnresolvedOperand &other) {
      return other.name == id.name && other.number == id.number;
    };
    for (auto [k, iv] : llvm::enumerate(ivs))
      if (same(iv.ssaName))
        return getAffineDimExpr(k, ctx);
    for (auto [index, known] : llvm::enumerate(operands))
      if (same(known))
        return getAffineSymbolExpr(index, ctx);
    operands.push_back(id);
    return getAffineSymbolExpr(operands.size() - 1, ctx);
  };
  // Rewrites `expr` over the parser's own dims and symbols (`dimIds`, then
  // `symIds`) into the domain's.
  auto rewrite = [&](AffineExpr expr,
                     ArrayRef<OpAsmParser::UnresolvedOperand> dimIds,
                     ArrayRef<OpAsmParser::UnresolvedOperand> symIds) {
    SmallVector<AffineExpr> dims, syms;
    for (const auto &id : dimIds)
      dims.push_back(remap(id));
    for (const auto &id : symIds)
      syms.push_back(remap(id));
    return expr.replaceDimsAndSymbols(dims, syms);
  };
  auto parseOne = [&]() -> ParseResult {
    if (succeeded(parser.parseOptionalKeyword(keyword))) {
      SmallVector<OpAsmParser::UnresolvedOperand> ids;
      Attribute attr;
      NamedAttrList scratch;
      if (parser.parseAffineMapOfSSAIds(ids, attr, "bounds", scratch,
                                        OpAsmParser::Delimiter::Paren))
        return failure();
      AffineMap map = cast<AffineMapAttr>(attr).getValue();
      ArrayRef<OpAsmParser::UnresolvedOperand> all(ids);
      for (AffineExpr expr : map.getResults())
        bounds.exprs.push_back(rewrite(expr, all.take_front(map.getNumDims()),
                                       all.drop_front(map.getNumDims())));
      bounds.counts.push_back(map.getNumResults());
      return success();
    }
    SmallVector<OpAsmParser::UnresolvedOperand> dimIds, symIds;
    AffineExpr expr;
    if (parser.parseAffineExprOfSSAIds(dimIds, symIds, expr))
      return failure();
    bounds.exprs.push_back(rewrite(expr, dimIds, symIds));
    bounds.counts.push_back(1);
    return success();
  };
  return parser.parseCommaSeparatedList(OpAsmParser::Delimiter::Paren,
                                        parseOne);
}

/// Prints dimension bounds `map` (counts `counts`) as `(e0, max(e1, e2))`
/// with the names of the coordinates `ivs` and of the symbols `operands`.
static void printBoundList(OpAsmPrinter &p, AffineMap map,
                           std::optional<ArrayRef<int32_t>> counts,
                           StringRef keyword, unsigned rank, ValueRange ivs,
                           ValueRange operands) {
  // The printer would spell symbols `symbol(%n)`: print them as dimensions
  // after the coordinates.
  MLIRContext *ctx = map.getContext();
  SmallVector<AffineExpr> dims, asDims;
  for (unsigned d = 0, e = map.getNumDims(); d < e; ++d)
    dims.push_back(getAffineDimExpr(d, ctx));
  for (unsigned i = 0, e = map.getNumSymbols(); i < e; ++i)
    asDims.push_back(getAffineDimExpr(map.getNumDims() + i, ctx));
  SmallVector<Value> names(ivs.take_front(map.getNumDims()));
  llvm::append_range(names, operands);
  auto printExpr = [&](AffineExpr expr) {
    p.printAffineExprOfSSAIds(expr.replaceDimsAndSymbols(dims, asDims), names,
                              /*symOperands=*/{});
  };
  p << '(';
  for (unsigned k = 0; k < rank; ++k) {
    if (k != 0)
      p << ", ";
    ArrayRef<AffineExpr> group = getBoundGroup(map, counts, k);
    if (group.size() == 1) {
      printExpr(group.front());
      continue;
    }
    p << keyword << '(';
    llvm::interleaveComma(group, p, printExpr);
    p << ')';
  }
  p << ')';
}

/// Builds the bound map of `bounds` over `rank` coordinates (none when no
/// expression uses one) and `numSymbols` symbols, and its counts (none
/// when each dimension has one expression).
static void buildBoundMap(MLIRContext *ctx, const ParsedBounds &bounds,
                          unsigned rank, unsigned numSymbols,
                          AffineMapAttr &map, DenseI32ArrayAttr &counts) {
  AffineMap full = AffineMap::get(rank, numSymbols, bounds.exprs, ctx);
  bool usesDims = llvm::any_of(llvm::seq(0u, rank), [&](unsigned d) {
    return llvm::any_of(
        bounds.exprs, [&](AffineExpr expr) { return expr.isFunctionOfDim(d); });
  });
  map = AffineMapAttr::get(
      usesDims ? full : AffineMap::get(0, numSymbols, bounds.exprs, ctx));
  if (llvm::any_of(bounds.counts, [](int32_t c) { return c != 1; }))
    counts = DenseI32ArrayAttr::get(ctx, bounds.counts);
}

ParseResult DomainOp::parse(OpAsmParser &parser, OperationState &result) {
  Builder &builder = parser.getBuilder();
  SmallVector<OpAsmParser::Argument> ivs;
  if (parser.parseArgumentList(ivs, OpAsmParser::Delimiter::Paren,
                               /*allowType=*/false) ||
      parser.parseEqual())
    return failure();

  SmallVector<OpAsmParser::UnresolvedOperand> operands;
  ParsedBounds lower, upper;
  SMLoc boundsLoc = parser.getCurrentLocation();
  if (parseBoundList(parser, ivs, "max", operands, lower) ||
      parser.parseKeyword("to") ||
      parseBoundList(parser, ivs, "min", operands, upper))
    return failure();
  if (lower.counts.size() != ivs.size() || upper.counts.size() != ivs.size())
    return parser.emitError(boundsLoc)
           << "expected " << ivs.size()
           << " lower and upper bounds, one per iteration dimension";
  // A bound may name only coordinates of outer dimensions; the verifier
  // says so, but a domain whose bound names an inner coordinate is still
  // built, over the same dimensions.
  Properties &props = result.getOrAddProperties<Properties>();
  MLIRContext *ctx = builder.getContext();
  // Both lists share the symbols: the maps are built once both are parsed.
  buildBoundMap(ctx, lower, ivs.size(), operands.size(), props.lowerBounds,
                props.lowerCounts);
  buildBoundMap(ctx, upper, ivs.size(), operands.size(), props.upperBounds,
                props.upperCounts);
  if (props.lowerBounds.getValue().getNumDims() !=
      props.upperBounds.getValue().getNumDims()) {
    // One list uses coordinates: both maps are over them.
    auto widen = [&](AffineMapAttr &attr) {
      AffineMap map = attr.getValue();
      attr = AffineMapAttr::get(AffineMap::get(ivs.size(), map.getNumSymbols(),
                                               map.getResults(), ctx));
    };
    widen(props.lowerBounds.getValue().getNumDims() ? props.upperBounds
                                                    : props.lowerBounds);
  }
  if (parser.resolveOperands(operands, builder.getIndexType(), result.operands))
    return failure();

  if (parser.parseOptionalArrowTypeList(result.types))
    return failure();

  for (OpAsmParser::Argument &iv : ivs)
    iv.type = builder.getIndexType();
  Region *body = result.addRegion();
  if (parser.parseRegion(*body, ivs))
    return failure();
  if (result.types.empty())
    ensureTerminator(*body, builder, result.location);

  return parser.parseOptionalAttrDictWithKeyword(result.attributes);
}

void DomainOp::print(OpAsmPrinter &p) {
  unsigned rank = getRank();
  p << " (" << getInductionVars() << ") = ";
  printBoundList(p, getLowerBounds(), getLowerCounts(), "max", rank,
                 getInductionVars(), getBoundOperands());
  p << " to ";
  printBoundList(p, getUpperBounds(), getUpperCounts(), "min", rank,
                 getInductionVars(), getBoundOperands());
  if (!getResults().empty()) {
    p << " -> (";
    llvm::interleaveComma(getResultTypes(), p);
    p << ')';
  }
  p << ' ';
  p.printRegion(getBody(), /*printEntryBlockArgs=*/false,
                /*printBlockTerminators=*/!getResults().empty());
  p.printOptionalAttrDictWithKeyword(
      (*this)->getAttrs(),
      {"lowerBounds", "upperBounds", "lowerCounts", "upperCounts"});
}
