//===- StencilAttributes.cpp - The dialect's discardable attributes -*- C++ -*-===//
//
// This file verifies the `stencil.` attributes that sit on other dialects'
// ops and on function arguments (declared in StencilDialect.td). Every
// consumer reads them through the dialect's attribute helpers, so the name
// and the meaning of each are defined once.
//
//===----------------------------------------------------------------------===//

#include "Stencil/Dialect/StencilDialect.h"
#include "Stencil/Dialect/StencilOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Interfaces/CallInterfaces.h"
#include "mlir/Interfaces/FunctionInterfaces.h"

using namespace mlir;
using namespace mlir::stencil;

static bool isStencilFloat(Type type) { return type.isF32() || type.isF64(); }

/// True for the types `stencil.active` may mark: f32/f64 scalars and memrefs
/// of f32/f64.
static bool isDifferentiable(Type type) {
  if (auto memref = dyn_cast<MemRefType>(type))
    return isStencilFloat(memref.getElementType());
  return isStencilFloat(type);
}

/// `stencil.partials` on a call: one function symbol per operand, one result.
static LogicalResult verifyPartials(Operation *op, Attribute value) {
  StringLiteral name = StencilDialect::PartialsAttrHelper::getNameStr();
  auto call = dyn_cast<CallOpInterface>(op);
  if (!call)
    return op->emitOpError() << "'" << name << "' is only valid on a call";
  auto partials = dyn_cast<ArrayAttr>(value);
  if (!partials || !llvm::all_of(partials, llvm::IsaPred<FlatSymbolRefAttr>))
    return op->emitOpError() << "'" << name
                           << "' must be an array of function symbols";
  if (op->getNumResults() != 1 ||
      partials.size() != call.getArgOperands().size())
    return op->emitOpError() << "'" << name
                           << "' needs a call with one result and one entry "
                              "per operand; this call has "
                           << op->getNumResults() << " result(s), "
                           << call.getArgOperands().size()
                           << " operand(s) and " << partials.size()
                           << " entries";
  return success();
}

/// `stencil.adjoint_of` and `stencil.noalias` on a function.
static LogicalResult verifyFunctionAttr(Operation *op, NamedAttribute attr,
                                        bool isSymbol) {
  if (!isa<FunctionOpInterface>(op))
    return op->emitOpError() << "'" << attr.getName().getValue()
                           << "' is only valid on a function";
  if (isSymbol ? !isa<FlatSymbolRefAttr>(attr.getValue())
               : !isa<UnitAttr>(attr.getValue()))
    return op->emitOpError() << "'" << attr.getName().getValue() << "' must be "
                           << (isSymbol ? "a function symbol" : "a unit attribute");
  return success();
}

/// `stencil.shadows_of` (non-negative indices) and `stencil.extra_args`
/// (strings) on a function.
static LogicalResult verifyAdjointRoles(Operation *op, NamedAttribute attr) {
  StringRef name = attr.getName().getValue();
  if (!isa<FunctionOpInterface>(op))
    return op->emitOpError() << "'" << name << "' is only valid on a function";
  if (auto indices = dyn_cast<DenseI64ArrayAttr>(attr.getValue()))
    if (name == StencilDialect::ShadowsOfAttrHelper::getNameStr() &&
        llvm::all_of(indices.asArrayRef(), [](int64_t i) { return i >= 0; }))
      return success();
  if (auto names = dyn_cast<ArrayAttr>(attr.getValue()))
    if (name == StencilDialect::ExtraArgsAttrHelper::getNameStr() &&
        llvm::all_of(names, llvm::IsaPred<StringAttr>))
      return success();
  return op->emitOpError() << "'" << name << "' must be "
                           << (name == StencilDialect::ShadowsOfAttrHelper::
                                           getNameStr()
                                   ? "an array of non-negative indices"
                                   : "an array of strings");
}

/// `stencil.distribution` on a function: `grid`, extents of at least 1
/// or 0 (chosen at run time), `halo`, a non-negative width, optionally
/// `blocks`, the numbers of the arguments that are blocks, and nothing
/// else.
static LogicalResult verifyDistribution(Operation *op, NamedAttribute attr) {
  auto dict = dyn_cast<DictionaryAttr>(attr.getValue());
  auto grid = dict ? dict.getAs<DenseI64ArrayAttr>("grid") : nullptr;
  auto halo = dict ? dict.getAs<IntegerAttr>("halo") : nullptr;
  auto blocks = dict ? dict.get("blocks") : nullptr;
  auto func = dyn_cast<FunctionOpInterface>(op);
  auto isArgument = [&](int64_t a) {
    return a >= 0 && a < int64_t(func.getNumArguments());
  };
  bool blocksOk =
      !blocks || (isa<DenseI64ArrayAttr>(blocks) && func &&
                  llvm::all_of(cast<DenseI64ArrayAttr>(blocks).asArrayRef(),
                               isArgument));
  if (!func || !grid || grid.empty() ||
      llvm::any_of(grid.asArrayRef(), [](int64_t p) { return p < 0; }) ||
      !halo || halo.getInt() < 0 || !blocksOk ||
      dict.size() != (blocks ? 3u : 2u))
    return op->emitOpError()
           << "'" << attr.getName().getValue()
           << "' must be {grid = array<i64: P0, ...>, halo = N[, blocks = "
              "array<i64: argument numbers>]} with every P >= 0 (0: chosen "
              "at run time) and N >= 0, on a function";
  return success();
}

bool mlir::stencil::isHostMemory(Value memref) {
  auto alloc = memref.getDefiningOp<memref::AllocOp>();
  return alloc &&
         alloc->hasAttr(StencilDialect::HostMemoryAttrHelper::getNameStr());
}

/// `stencil.exchange_finish`: on an scf.execute_region without results,
/// `{dim, axis, lo, hi}` non-negative integers and the grid's `spec`.
static LogicalResult verifyExchangeFinish(Operation *op, NamedAttribute attr) {
  auto fields = dyn_cast<DictionaryAttr>(attr.getValue());
  bool valid = fields && op->getName().getStringRef() == "scf.execute_region" &&
               op->getNumResults() == 0 && fields.getAs<StringAttr>("spec");
  for (StringRef key : {"dim", "axis", "lo", "hi"}) {
    auto value = fields ? fields.getAs<IntegerAttr>(key) : IntegerAttr();
    valid = valid && value && value.getInt() >= 0;
  }
  if (!valid)
    return op->emitOpError()
           << "'" << attr.getName().getValue()
           << "' must be {dim, axis, lo, hi} (non-negative integers) and "
              "{spec} (a string) on an scf.execute_region without results";
  return success();
}

static constexpr StringLiteral kSumDim = "dim", kSumSplit = "split",
                               kWholeSlices = "slices", kBoxes = "boxes";

/// `stencil.distributed_sum`: {dim, split} on a stencil.domain with
/// results or reductions, `dim` one of its dimensions.
static LogicalResult verifyDistributedSum(Operation *op, NamedAttribute attr) {
  auto domain = dyn_cast<DomainOp>(op);
  auto fields = dyn_cast<DictionaryAttr>(attr.getValue());
  auto dim = fields ? fields.getAs<IntegerAttr>(kSumDim) : IntegerAttr();
  auto split = fields ? fields.getAs<StringAttr>(kSumSplit) : StringAttr();
  if (!domain || (domain.getNumResults() == 0 && !domain.hasReduction()) ||
      !dim || dim.getInt() < 0 ||
      dim.getInt() >= int64_t(domain.getRank()) || !split ||
      (split.getValue() != kWholeSlices && split.getValue() != kBoxes) ||
      fields.size() != 2)
    return op->emitOpError()
           << "'" << attr.getName().getValue()
           << "' must be {dim = <one of its dimensions>, split = \"slices\" "
              "or \"boxes\"} on a stencil.domain with results or "
              "reductions";
  return success();
}

void mlir::stencil::setDistributedSum(Operation *domain, DistributedSum sum) {
  Builder b(domain->getContext());
  domain->setAttr(
      StencilDialect::DistributedSumAttrHelper::getNameStr(),
      b.getDictionaryAttr(
          {b.getNamedAttr(kSumDim, b.getI64IntegerAttr(sum.dim)),
           b.getNamedAttr(kSumSplit, b.getStringAttr(sum.wholeSlices
                                                         ? kWholeSlices
                                                         : kBoxes))}));
}

std::optional<DistributedSum>
mlir::stencil::getDistributedSum(Operation *domain) {
  auto fields = domain->getAttrOfType<DictionaryAttr>(
      StencilDialect::DistributedSumAttrHelper::getNameStr());
  if (!fields)
    return std::nullopt;
  DistributedSum sum;
  sum.dim = fields.getAs<IntegerAttr>(kSumDim).getInt();
  sum.wholeSlices = fields.getAs<StringAttr>(kSumSplit).getValue() == kWholeSlices;
  return sum;
}

LogicalResult StencilDialect::verifyOperationAttribute(Operation *op,
                                                       NamedAttribute attr) {
  StringRef name = attr.getName().getValue();
  if (name == PartialsAttrHelper::getNameStr())
    return verifyPartials(op, attr.getValue());
  if (name == AdjointOfAttrHelper::getNameStr())
    return verifyFunctionAttr(op, attr, /*isSymbol=*/true);
  if (name == NoaliasAttrHelper::getNameStr())
    return verifyFunctionAttr(op, attr, /*isSymbol=*/false);
  if (name == ShadowsOfAttrHelper::getNameStr() ||
      name == ExtraArgsAttrHelper::getNameStr())
    return verifyAdjointRoles(op, attr);
  if (name == ActiveAttrHelper::getNameStr())
    return op->emitOpError() << "'" << name
                           << "' is only valid on a function argument";
  if (name == DistributionAttrHelper::getNameStr())
    return verifyDistribution(op, attr);
  if (name == DistinctArraysAttrHelper::getNameStr()) {
    if (!isa<FunctionOpInterface>(op) || !isa<UnitAttr>(attr.getValue()))
      return op->emitOpError() << "'" << name
                               << "' must be a unit attribute on a function";
    return success();
  }
  if (name == SnapshotBordersAttrHelper::getNameStr()) {
    auto constant = dyn_cast<arith::ConstantOp>(op);
    if (!constant || !constant.getType().isInteger(1) ||
        !isa<UnitAttr>(attr.getValue()))
      return op->emitOpError() << "'" << name
                               << "' must be a unit attribute on an i1 "
                                  "arith.constant";
    return success();
  }
  if (name == RuntimeAttrHelper::getNameStr()) {
    if (!SymbolTable::getSymbolName(op) || !isa<UnitAttr>(attr.getValue()))
      return op->emitOpError() << "'" << name
                               << "' must be a unit attribute on a symbol";
    return success();
  }
  if (name == GlobalIndexAttrHelper::getNameStr()) {
    auto dim = dyn_cast<IntegerAttr>(attr.getValue());
    if (!dim || !dim.getType().isInteger(64) || dim.getInt() < 0 ||
        op->getNumResults() != 1 || !op->getResult(0).getType().isIndex())
      return op->emitOpError() << "'" << name
                               << "' must be a non-negative i64 on an op "
                                  "with one index result";
    return success();
  }
  if (name == HostMemoryAttrHelper::getNameStr() ||
      name == RingAttrHelper::getNameStr()) {
    if (!isa<memref::AllocOp>(op) || !isa<UnitAttr>(attr.getValue()))
      return op->emitOpError() << "'" << name
                               << "' must be a unit attribute on a "
                                  "memref.alloc";
    return success();
  }
  if (name == DistributedSumAttrHelper::getNameStr())
    return verifyDistributedSum(op, attr);
  if (name == ExchangeFinishAttrHelper::getNameStr())
    return verifyExchangeFinish(op, attr);
  return op->emitOpError() << "unknown attribute '" << name
                         << "' of the stencil dialect";
}

LogicalResult StencilDialect::verifyRegionArgAttribute(Operation *op,
                                                       unsigned regionIndex,
                                                       unsigned argIndex,
                                                       NamedAttribute attr) {
  StringRef name = attr.getName().getValue();
  if (name != ActiveAttrHelper::getNameStr())
    return op->emitOpError() << "'" << name
                           << "' is not an argument attribute (argument #"
                           << argIndex << ")";
  // Function arguments arrive here even for declarations, which have no
  // block: take the type from the signature.
  auto func = dyn_cast<FunctionOpInterface>(op);
  if (!func || regionIndex != 0 || argIndex >= func.getNumArguments())
    return op->emitOpError() << "'" << name
                           << "' is only valid on a function argument";
  if (!isa<UnitAttr>(attr.getValue()))
    return op->emitOpError() << "'" << name << "' must be a unit attribute";
  Type type = func.getArgumentTypes()[argIndex];
  if (!isDifferentiable(type))
    return op->emitOpError() << "argument #" << argIndex << " is marked "
                           << name << " but has type " << type
                           << "; only f32/f64 scalars and memrefs of f32/f64 "
                              "can be active";
  return success();
}
