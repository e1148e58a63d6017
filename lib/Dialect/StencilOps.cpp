//===- StencilOps.cpp - Stencil dialect ops ---------------------*- C++ -*-===//
//
// This file implements the builders, the access interface methods and the
// op verifiers (the custom assembly of `stencil.domain` is in
// DomainSyntax.cpp).
//
//===----------------------------------------------------------------------===//

#include "Stencil/Dialect/StencilOps.h"
#include "DomainBounds.h"

#include "mlir/IR/PatternMatch.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/OpImplementation.h"
#include "mlir/Interfaces/CallInterfaces.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/STLExtras.h"

using namespace mlir;
using namespace mlir::stencil;

//===----------------------------------------------------------------------===//
// DomainOp: builder
//===----------------------------------------------------------------------===//

/// Adds the body of a rank-`rank` domain to `state`: one block with an index
/// argument per dimension and, without results, the implicit terminator.
static void addBody(OpBuilder &builder, OperationState &state, unsigned rank,
                    TypeRange resultTypes) {
  state.addTypes(resultTypes);
  Region *body = state.addRegion();
  auto *block = new Block();
  body->push_back(block);
  for (unsigned i = 0; i < rank; ++i)
    block->addArgument(builder.getIndexType(), state.location);
  if (resultTypes.empty())
    DomainOp::ensureTerminator(*body, builder, state.location);
}

void DomainOp::build(OpBuilder &builder, OperationState &state,
                     AffineMap lowerBounds, AffineMap upperBounds,
                     ValueRange boundOperands, TypeRange resultTypes) {
  state.addOperands(boundOperands);
  Properties &props = state.getOrAddProperties<Properties>();
  props.lowerBounds = AffineMapAttr::get(lowerBounds);
  props.upperBounds = AffineMapAttr::get(upperBounds);
  addBody(builder, state, lowerBounds.getNumResults(), resultTypes);
}

/// Whether `map` uses one of its dimensions.
static bool usesDims(AffineMap map) {
  return llvm::any_of(map.getResults(), [&](AffineExpr expr) {
    for (unsigned d = 0, e = map.getNumDims(); d < e; ++d)
      if (expr.isFunctionOfDim(d))
        return true;
    return false;
  });
}

void DomainOp::build(OpBuilder &builder, OperationState &state,
                     AffineMap lowerBounds, ArrayRef<int32_t> lowerCounts,
                     AffineMap upperBounds, ArrayRef<int32_t> upperCounts,
                     ValueRange boundOperands, TypeRange resultTypes) {
  auto allOnes = [](ArrayRef<int32_t> counts) {
    return llvm::all_of(counts, [](int32_t c) { return c == 1; });
  };
  unsigned rank = lowerCounts.empty() ? lowerBounds.getNumResults()
                                      : lowerCounts.size();
  bool boxed = !usesDims(lowerBounds) && !usesDims(upperBounds) &&
               allOnes(lowerCounts) && allOnes(upperCounts);
  // The rectangular form: symbol-only maps, one result per dimension.
  auto normalize = [&](AffineMap map) {
    unsigned numDims = boxed ? 0 : rank;
    SmallVector<AffineExpr> dims;
    for (unsigned d = 0, e = map.getNumDims(); d < e; ++d)
      dims.push_back(getAffineDimExpr(d, builder.getContext()));
    return AffineMap::get(numDims, map.getNumSymbols(),
                          boxed ? map.getResults()
                                : map.replaceDimsAndSymbols(
                                         dims, {}, numDims, 0)
                                      .getResults(),
                          builder.getContext());
  };
  state.addOperands(boundOperands);
  Properties &props = state.getOrAddProperties<Properties>();
  props.lowerBounds = AffineMapAttr::get(normalize(lowerBounds));
  props.upperBounds = AffineMapAttr::get(normalize(upperBounds));
  if (!allOnes(lowerCounts))
    props.lowerCounts = builder.getDenseI32ArrayAttr(lowerCounts);
  if (!allOnes(upperCounts))
    props.upperCounts = builder.getDenseI32ArrayAttr(upperCounts);
  addBody(builder, state, rank, resultTypes);
}

void DomainOp::build(OpBuilder &builder, OperationState &state,
                     DomainOp other, ValueRange boundOperands,
                     TypeRange resultTypes) {
  state.addOperands(boundOperands);
  Properties &props = state.getOrAddProperties<Properties>();
  props.lowerBounds = other.getLowerBoundsAttr();
  props.upperBounds = other.getUpperBoundsAttr();
  props.lowerCounts = other.getLowerCountsAttr();
  props.upperCounts = other.getUpperCountsAttr();
  addBody(builder, state, other.getRank(), resultTypes);
}

LogicalResult DomainOp::requireRectangular(StringRef what) {
  if (isRectangular())
    return success();
  return emitOpError() << "is nonrectangular (a bound uses an outer "
                          "coordinate or takes a max/min), which "
                       << what
                       << " does not support yet; it supports rectangular "
                          "domains, whose bounds are single expressions of "
                          "the symbols";
}

ArrayRef<AffineExpr> mlir::stencil::getBoundGroup(
    AffineMap map, std::optional<ArrayRef<int32_t>> counts, unsigned k) {
  if (!counts)
    return map.getResults().slice(k, 1);
  unsigned start = 0;
  for (unsigned d = 0; d < k; ++d)
    start += (*counts)[d];
  return map.getResults().slice(start, (*counts)[k]);
}

/// Dimension `k`'s bound as a map over the coordinates before it and the
/// symbols of `map`.
static AffineMap boundMap(AffineMap map,
                          std::optional<ArrayRef<int32_t>> counts,
                          unsigned k) {
  unsigned numDims = map.getNumDims() == 0 ? 0 : k;
  return AffineMap::get(numDims, map.getNumSymbols(),
                        getBoundGroup(map, counts, k), map.getContext());
}

AffineMap DomainOp::getLowerBoundMap(unsigned k) {
  return boundMap(getLowerBounds(), getLowerCounts(), k);
}

AffineMap DomainOp::getUpperBoundMap(unsigned k) {
  return boundMap(getUpperBounds(), getUpperCounts(), k);
}

YieldOp DomainOp::getYield() {
  return cast<YieldOp>(getBodyBlock()->getTerminator());
}

bool DomainOp::hasScatter() {
  return llvm::any_of(getBodyBlock()->getOps<AccumulateOp>(),
                      [](AccumulateOp acc) { return acc.isScatter(); });
}

bool DomainOp::hasReduction() {
  return llvm::any_of(getBodyBlock()->getOps<AccumulateOp>(),
                      [](AccumulateOp acc) { return acc.isReduction(); });
}

/// The value of `operand` if it is an integer constant.
static std::optional<int64_t> getConstantBound(Value operand) {
  APInt value;
  if (!matchPattern(operand, m_ConstantInt(&value)))
    return std::nullopt;
  return value.getSExtValue();
}

bool DomainOp::foldConstantBounds() {
  AffineMap lower = getLowerBounds(), upper = getUpperBounds();
  MLIRContext *ctx = getContext();
  SmallVector<AffineExpr> symbols;
  SmallVector<Value> kept;
  bool folded = false;
  for (Value operand : getBoundOperands()) {
    if (std::optional<int64_t> value = getConstantBound(operand)) {
      symbols.push_back(getAffineConstantExpr(*value, ctx));
      folded = true;
      continue;
    }
    symbols.push_back(getAffineSymbolExpr(kept.size(), ctx));
    kept.push_back(operand);
  }
  if (!folded)
    return false;
  // The dimensions (the coordinates of a nonrectangular domain) stay.
  auto fold = [&](AffineMap map) {
    SmallVector<AffineExpr> dims;
    for (unsigned d = 0, e = map.getNumDims(); d < e; ++d)
      dims.push_back(getAffineDimExpr(d, ctx));
    return AffineMapAttr::get(simplifyAffineMap(map.replaceDimsAndSymbols(
        dims, symbols, map.getNumDims(), kept.size())));
  };
  setLowerBoundsAttr(fold(lower));
  setUpperBoundsAttr(fold(upper));
  getBoundOperandsMutable().assign(kept);
  return true;
}

LogicalResult DomainOp::canonicalize(DomainOp op, PatternRewriter &rewriter) {
  if (llvm::none_of(op.getBoundOperands(), [](Value operand) {
        return getConstantBound(operand).has_value();
      }))
    return failure();
  rewriter.modifyOpInPlace(op, [&] { op.foldConstantBounds(); });
  return success();
}

bool DomainOp::hasSameBounds(DomainOp other) {
  return getLowerBounds() == other.getLowerBounds() &&
         getUpperBounds() == other.getUpperBounds() &&
         getLowerCountsAttr() == other.getLowerCountsAttr() &&
         getUpperCountsAttr() == other.getUpperCountsAttr() &&
         getBoundOperands() == other.getBoundOperands();
}


//===----------------------------------------------------------------------===//
// DomainOp: verification
//===----------------------------------------------------------------------===//

/// Checks the constants of bound `expr` (#`index`, printed as `text`): every
/// divisor of `mod`, `floordiv` and `ceildiv` is positive, and no constant
/// exceeds kMaxIndexConstant in magnitude. Pure affine expressions have
/// constant right-hand sides, so each divisor is a constant.
static LogicalResult verifyBoundConstants(DomainOp op, AffineExpr expr,
                                          StringRef which, size_t index,
                                          StringRef text) {
  LogicalResult result = success();
  expr.walk([&](AffineExpr sub) {
    if (failed(result))
      return;
    auto binary = dyn_cast<AffineBinaryOpExpr>(sub);
    if (binary && binary.getKind() != AffineExprKind::Add &&
        binary.getKind() != AffineExprKind::Mul) {
      auto divisor = dyn_cast<AffineConstantExpr>(binary.getRHS());
      if (divisor && divisor.getValue() <= 0) {
        result = op.emitOpError()
                 << which << " bound #" << index << " divides by "
                 << divisor.getValue() << ": " << text
                 << "; the divisor of mod, floordiv and ceildiv must be a "
                    "positive constant";
        return;
      }
    }
    auto constant = dyn_cast<AffineConstantExpr>(sub);
    if (constant && (constant.getValue() > kMaxIndexConstant ||
                     constant.getValue() < -kMaxIndexConstant))
      result = op.emitOpError()
               << which << " bound #" << index << " has the constant "
               << constant.getValue() << ": " << text
               << "; constants in bounds must lie in [-2^40, 2^40] so that "
                  "index arithmetic cannot overflow";
  });
  return result;
}

/// Checks the counts of bound map `map`: one positive count per dimension
/// that add up to its results (one result per dimension without counts).
static LogicalResult verifyBoundCounts(DomainOp op, AffineMap map,
                                       std::optional<ArrayRef<int32_t>> counts,
                                       StringRef which, unsigned rank) {
  if (!counts) {
    if (map.getNumResults() != rank)
      return op.emitOpError() << "has " << map.getNumResults() << " " << which
                              << " bounds but " << rank << " dimensions";
    return success();
  }
  if (counts->size() != rank)
    return op.emitOpError() << "has " << counts->size() << " " << which
                            << " bound counts but " << rank << " dimensions";
  int64_t total = 0;
  for (int32_t count : *counts) {
    if (count < 1)
      return op.emitOpError()
             << which << " bound counts must be positive, one or more "
                "expressions per dimension";
    total += count;
  }
  if (total != map.getNumResults())
    return op.emitOpError() << which << " bound counts add up to " << total
                            << " but the map has " << map.getNumResults()
                            << " results";
  return success();
}

/// Checks that `map` is a valid bound map of a rank-`rank` domain with
/// `numOperands` symbol operands: over no dimension or over the `rank`
/// coordinates, each dimension's expressions using only the coordinates
/// before it.
static LogicalResult verifyBoundMap(DomainOp op, AffineMap map,
                                    std::optional<ArrayRef<int32_t>> counts,
                                    StringRef which, unsigned rank,
                                    unsigned numOperands) {
  if (failed(verifyBoundCounts(op, map, counts, which, rank)))
    return failure();
  if (map.getNumDims() != 0 && map.getNumDims() != rank)
    return op.emitOpError()
           << which << " bounds have " << map.getNumDims()
           << " dimensions; a bound map is over the " << rank
           << " coordinates of the domain, or over none";
  if (map.getNumSymbols() != numOperands)
    return op.emitOpError() << which << " bounds expect "
                            << map.getNumSymbols() << " symbols but "
                            << numOperands << " bound operands are given";
  for (unsigned k = 0; k < rank; ++k) {
    for (AffineExpr expr : getBoundGroup(map, counts, k)) {
      std::string text;
      llvm::raw_string_ostream os(text);
      expr.print(os);
      for (unsigned d = k; d < map.getNumDims(); ++d)
        if (expr.isFunctionOfDim(d))
          return op.emitOpError()
                 << which << " bound #" << k
                 << " uses the coordinate of dimension " << d << " (" << text
                 << "); a bound may use only the coordinates of the "
                    "dimensions before its own";
      if (!expr.isPureAffine())
        return op.emitOpError()
               << which << " bound #" << k
               << " is not affine in the symbols and outer coordinates: "
               << text;
      if (failed(verifyBoundConstants(op, expr, which, k, text)))
        return failure();
    }
  }
  return success();
}

/// Checks that no access op of `domain`'s body sits in a nested region (an
/// `scf.if` arm, say), with a message that says how to write the same
/// choice. Runs before the ops of the body are verified, so it reports
/// instead of their parent-op check. Accesses in a nested domain are left
/// to its own "cannot be nested".
static LogicalResult verifyNestedAccesses(DomainOp domain) {
  WalkResult walk = domain.getBody().walk([&](Operation *op) {
    auto access = dyn_cast<AccessOpInterface>(op);
    Operation *parent = op->getParentOp();
    if (!access || isa<DomainOp>(parent))
      return WalkResult::advance();
    InFlightDiagnostic diag = op->emitOpError();
    if (!access.isWrite())
      diag << "reads an array inside '" << parent->getName()
           << "', but access ops must sit directly in the stencil.domain "
              "body; read it before the '"
           << parent->getName()
           << "' and use the value there (every read is in bounds at every "
              "point, so reading it on both paths is safe)";
    else
      diag << "writes an array inside '" << parent->getName()
           << "', but access ops must sit directly in the stencil.domain "
              "body, so that every point writes once; choose the value "
              "instead, with arith.select (C's `?:`) where both values are "
              "defined at every point or as a result of an scf.if, and "
              "write it once after the choice (an accumulate adds 0 on the "
              "other path)";
    return WalkResult::interrupt();
  });
  return failure(walk.wasInterrupted());
}

LogicalResult DomainOp::verify() {
  unsigned rank = getRank();
  if (rank == 0)
    return emitOpError("must have at least one dimension");
  if (failed(verifyBoundMap(*this, getLowerBounds(), getLowerCounts(),
                            "lower", rank, getBoundOperands().size())) ||
      failed(verifyBoundMap(*this, getUpperBounds(), getUpperCounts(),
                            "upper", rank, getBoundOperands().size())))
    return failure();
  Block *block = getBodyBlock();
  if (block->getNumArguments() != rank)
    return emitOpError() << "body has " << block->getNumArguments()
                         << " argument(s) but the domain has " << rank
                         << " dimension(s)";
  if (!llvm::all_of(block->getArgumentTypes(),
                    [](Type t) { return t.isIndex(); }))
    return emitOpError("body arguments must be of index type");
  if ((*this)->getParentOfType<DomainOp>())
    return emitOpError("cannot be nested in another stencil.domain");
  return verifyNestedAccesses(*this);
}

LogicalResult DomainOp::verifyRegions() {
  YieldOp yield = getYield();
  if (yield.getValues().getTypes() != getResultTypes()) {
    InFlightDiagnostic diag = yield.emitOpError("yields (");
    llvm::interleaveComma(yield.getValues().getTypes(), diag);
    diag << ") but the domain returns (";
    llvm::interleaveComma(getResultTypes(), diag);
    return diag << ")";
  }

  // Arrays read and written in this domain, with the first op of each kind.
  llvm::MapVector<Value, Operation *> reads, stores, accumulates;
  WalkResult walk = getBody().walk([&](Operation *op) -> WalkResult {
    if (auto access = dyn_cast<AccessOpInterface>(op)) {
      Value array = access.getAccessedArray();
      if (!access.isWrite()) {
        reads.insert({array, op});
        return WalkResult::advance();
      }
      if (isa<StoreOp>(op)) {
        if (Operation *prev = stores.lookup(array)) {
          op->emitOpError("assigns an array that is already assigned in "
                          "this domain")
                  .attachNote(prev->getLoc())
              << "first assignment here";
          return WalkResult::interrupt();
        }
        stores.insert({array, op});
      } else {
        accumulates.insert({array, op});
      }
      return WalkResult::advance();
    }
    if (isa<DomainOp, YieldOp>(op) || isa<CallOpInterface>(op))
      return WalkResult::advance();
    // An op with regions (scf.if) has the effects of the ops it holds, which
    // the walk checks one by one: a call in an arm is allowed as elsewhere.
    if (op->hasTrait<OpTrait::HasRecursiveMemoryEffects>() &&
        !isa<MemoryEffectOpInterface>(op))
      return WalkResult::advance();
    if (!isMemoryEffectFree(op)) {
      op->emitOpError("has memory effects, which a stencil.domain body does "
                      "not allow; access arrays with stencil.gather, "
                      "stencil.store and stencil.accumulate");
      return WalkResult::interrupt();
    }
    return WalkResult::advance();
  });
  if (walk.wasInterrupted())
    return failure();

  for (auto [array, store] : stores)
    if (Operation *acc = accumulates.lookup(array)) {
      acc->emitOpError("accumulates into an array that is also assigned in "
                       "this domain")
              .attachNote(store->getLoc())
          << "assignment here";
      return failure();
    }
  for (auto &writes : {stores, accumulates})
    for (auto [array, write] : writes)
      if (Operation *read = reads.lookup(array)) {
        write->emitOpError("writes an array that is also read in this domain "
                           "(points may run in parallel; read and write "
                           "different arrays)")
                .attachNote(read->getLoc())
            << "read here";
        return failure();
      }
  return success();
}

//===----------------------------------------------------------------------===//
// Access ops
//===----------------------------------------------------------------------===//

/// Returns `dims` if present, otherwise the identity of the array rank.
static SmallVector<int64_t> iterationDims(std::optional<ArrayRef<int64_t>> dims,
                                          MemRefType type) {
  if (dims)
    return SmallVector<int64_t>(*dims);
  return llvm::to_vector(llvm::seq<int64_t>(0, type.getRank()));
}

/// Checks the `dims` entries of an access: each an iteration dimension of
/// the rank-`rank` domain or `_`, whose offset is then an index that must
/// lie in the array (when its extent is static).
static LogicalResult verifyDims(Operation *op, MemRefType type,
                                ArrayRef<int64_t> offset,
                                ArrayRef<int64_t> dims, int64_t rank) {
  if (static_cast<int64_t>(dims.size()) != type.getRank())
    return op->emitOpError() << "dims has " << dims.size()
                             << " entries but the array has rank "
                             << type.getRank();
  for (auto [a, dim] : llvm::enumerate(dims)) {
    if (dim == kFixedDim) {
      if (offset.empty())
        return op->emitOpError()
               << "dims entry " << a
               << " is fixed (`_`), which needs an offset to give the index";
      int64_t extent = type.getDimSize(a);
      if (offset[a] < 0 || (!ShapedType::isDynamic(extent) &&
                            offset[a] >= extent))
        return op->emitOpError()
               << "fixed index " << offset[a] << " of array dimension " << a
               << " is outside the array (extent "
               << (ShapedType::isDynamic(extent) ? std::string("?")
                                                 : std::to_string(extent))
               << ")";
      continue;
    }
    if (dim < 0 || dim >= rank)
      return op->emitOpError()
             << "dims entry " << dim << " is not an iteration dimension of "
             << "the rank-" << rank << " domain";
  }
  return success();
}

/// Verifies the offset and dims of an access op against its array and the
/// rank of the enclosing domain. A store (`isAssign`) must index the array
/// with a permutation of the iteration dimensions.
static LogicalResult verifyAccess(Operation *op, MemRefType type,
                                  std::optional<ArrayRef<int64_t>> offset,
                                  std::optional<ArrayRef<int64_t>> dims,
                                  bool isAssign) {
  auto domain = op->getParentOfType<DomainOp>();
  int64_t rank = domain.getRank();
  int64_t arrayRank = type.getRank();
  if (offset && static_cast<int64_t>(offset->size()) != arrayRank)
    return op->emitOpError() << "offset has " << offset->size()
                             << " entries but the array has rank "
                             << arrayRank;
  if (offset)
    for (int64_t o : *offset)
      if (o > kMaxIndexConstant || o < -kMaxIndexConstant)
        return op->emitOpError()
               << "offset " << o
               << " is out of range; offsets must lie in [-2^40, 2^40] so "
                  "that index arithmetic on them cannot overflow";
  if (dims) {
    if (failed(verifyDims(op, type, offset.value_or(ArrayRef<int64_t>()),
                          *dims, rank)))
      return failure();
  } else if (arrayRank != rank) {
    return op->emitOpError()
           << "accesses a rank-" << arrayRank << " array in a rank-" << rank
           << " domain; give `dims` to map iteration dimensions onto array "
              "dimensions";
  }
  if (isAssign &&
      !isPermutationAccess(cast<AccessOpInterface>(op), rank))
    return op->emitOpError()
           << "must index the array with a permutation of the iteration "
              "dimensions: at a subset, a repetition or a fixed element "
              "several points would assign the same element; sum them with "
              "`stencil.accumulate` instead";
  return success();
}

/// Parses the optional `dims [d, _, ...]` of an access op; `_` is a fixed
/// dimension (kFixedDim).
static ParseResult parseAccessDims(OpAsmParser &parser,
                                   DenseI64ArrayAttr &dims) {
  if (parser.parseOptionalKeyword("dims"))
    return success();
  SmallVector<int64_t> entries;
  auto parseEntry = [&]() -> ParseResult {
    if (succeeded(parser.parseOptionalKeyword("_"))) {
      entries.push_back(kFixedDim);
      return success();
    }
    int64_t dim;
    SMLoc loc = parser.getCurrentLocation();
    if (parser.parseInteger(dim))
      return failure();
    if (dim == kFixedDim)
      return parser.emitError(loc, "write a fixed dimension as `_`");
    entries.push_back(dim);
    return success();
  };
  if (parser.parseCommaSeparatedList(OpAsmParser::Delimiter::Square,
                                     parseEntry))
    return failure();
  dims = parser.getBuilder().getDenseI64ArrayAttr(entries);
  return success();
}

static void printAccessDims(OpAsmPrinter &p, Operation *,
                            DenseI64ArrayAttr dims) {
  if (!dims)
    return;
  p << " dims [";
  llvm::interleaveComma(dims.asArrayRef(), p, [&](int64_t dim) {
    if (dim == kFixedDim)
      p << "_";
    else
      p << dim;
  });
  p << "]";
}

// GatherOp

LogicalResult GatherOp::verify() {
  return verifyAccess(*this, getArray().getType(), getOffset(), getDims(),
                      /*isAssign=*/false);
}
TypedValue<MemRefType> GatherOp::getAccessedArray() { return getArray(); }
SmallVector<int64_t> GatherOp::getArrayOffset() {
  return SmallVector<int64_t>(getOffset());
}
SmallVector<int64_t> GatherOp::getIterationDims() {
  return iterationDims(getDims(), getArray().getType());
}
bool GatherOp::isWrite() { return false; }

// StoreOp

LogicalResult StoreOp::verify() {
  return verifyAccess(*this, getArray().getType(), std::nullopt, getDims(),
                      /*isAssign=*/true);
}
TypedValue<MemRefType> StoreOp::getAccessedArray() { return getArray(); }
SmallVector<int64_t> StoreOp::getArrayOffset() {
  return SmallVector<int64_t>(getArray().getType().getRank(), 0);
}
SmallVector<int64_t> StoreOp::getIterationDims() {
  return iterationDims(getDims(), getArray().getType());
}
bool StoreOp::isWrite() { return true; }

// AccumulateOp

LogicalResult AccumulateOp::verify() {
  return verifyAccess(*this, getArray().getType(), getOffset(), getDims(),
                      /*isAssign=*/false);
}
bool AccumulateOp::isReduction() {
  auto domain = (*this)->getParentOfType<DomainOp>();
  return domain && !isPermutationAccess(*this, domain.getRank());
}
TypedValue<MemRefType> AccumulateOp::getAccessedArray() { return getArray(); }
SmallVector<int64_t> AccumulateOp::getArrayOffset() {
  return SmallVector<int64_t>(getOffset());
}
SmallVector<int64_t> AccumulateOp::getIterationDims() {
  return iterationDims(getDims(), getArray().getType());
}
bool AccumulateOp::isWrite() { return true; }

#define GET_OP_CLASSES
#include "Stencil/Dialect/StencilOps.cpp.inc"

//===----------------------------------------------------------------------===//
// Utilities
//===----------------------------------------------------------------------===//

bool mlir::stencil::isPermutationWrite(Operation &op) {
  auto access = dyn_cast<AccessOpInterface>(&op);
  auto acc = dyn_cast<AccumulateOp>(&op);
  return access && access.isWrite() && !(acc && acc.isReduction());
}

void mlir::stencil::eraseDeadBodyOps(RewriterBase &rewriter, DomainOp domain) {
  for (Operation &op :
       llvm::make_early_inc_range(llvm::reverse(*domain.getBodyBlock())))
    if (isOpTriviallyDead(&op))
      rewriter.eraseOp(&op);
}

/// Splits the sums (results, reductions) off a domain: a copy without the
/// other writes computes them, `domain` keeps those writes and loses its
/// sums. Returns the domain that remains to convert.
DomainOp mlir::stencil::splitDomainResults(RewriterBase &rewriter,
                                           DomainOp domain) {
  if (domain.getNumResults() == 0 && !domain.hasReduction())
    return domain;
  rewriter.setInsertionPoint(domain);
  auto reduction = cast<DomainOp>(rewriter.clone(*domain));
  for (Operation &op : llvm::make_early_inc_range(*reduction.getBodyBlock()))
    if (isPermutationWrite(op))
      rewriter.eraseOp(&op);
  eraseDeadBodyOps(rewriter, reduction);
  rewriter.replaceAllUsesWith(domain.getResults(), reduction.getResults());
  auto writes =
      DomainOp::create(rewriter, domain.getLoc(), domain,
                       domain.getBoundOperands());
  rewriter.eraseOp(writes.getYield());
  rewriter.inlineRegionBefore(domain.getBody(), writes.getBody(),
                              writes.getBody().end());
  rewriter.eraseBlock(&writes.getBody().front());
  YieldOp yield = writes.getYield();
  rewriter.setInsertionPoint(yield);
  rewriter.replaceOpWithNewOp<YieldOp>(yield, ValueRange());
  rewriter.eraseOp(domain);
  for (Operation &op : llvm::make_early_inc_range(*writes.getBodyBlock()))
    if (auto acc = dyn_cast<AccumulateOp>(&op); acc && acc.isReduction())
      rewriter.eraseOp(&op);
  eraseDeadBodyOps(rewriter, writes);
  return writes;
}
