//===- CArrays.cpp - Array arguments to C pointers plus extents -----------===//
//
// This file implements --stencil-c-arrays, the first step of the C source
// route: every function's array arguments become `T *restrict` pointers
// followed by their dynamic extents (int64_t), `index` arguments int64_t,
// and array accesses subscripts at the row-major linear index. The
// signature rule is in the pass's description and docs/CSource.md.
//
//===----------------------------------------------------------------------===//

#include "MathToC99.h"
#include "Stencil/Conversion/Passes.h"
#include "Stencil/Target/CInterface.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/EmitC/IR/EmitC.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/BuiltinOps.h"
#include "llvm/ADT/BitVector.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSet.h"

namespace mlir::stencil {
#define GEN_PASS_DEF_STENCILCARRAYSPASS
#include "Stencil/Conversion/Passes.h.inc"
} // namespace mlir::stencil

using namespace mlir;
using namespace mlir::stencil;

namespace {
/// An array as C sees it: a pointer to its first element and its extents
/// (index values), row-major.
struct CArray {
  Value pointer;
  SmallVector<Value> extents;
};
} // namespace

/// The C name of an array's element type, or "" if the route has none.
static std::string cElementType(Type type) {
  if (type.isF64())
    return "double";
  if (type.isF32())
    return "float";
  if (type.isSignlessInteger(8) || type.isSignlessInteger(16) ||
      type.isSignlessInteger(32) || type.isSignlessInteger(64))
    return "int" + std::to_string(type.getIntOrFloatBitWidth()) + "_t";
  return "";
}

/// Whether the C route can take `type`: identity layout and an element
/// type with a C name.
static LogicalResult checkArrayType(Location loc, MemRefType type) {
  if (!type.getLayout().isIdentity())
    return emitError(loc) << "the C source route takes contiguous row-major "
                             "arrays only (identity layout), not "
                          << type;
  if (cElementType(type.getElementType()).empty())
    return emitError(loc) << "the C source route has no C type for the "
                             "elements of "
                          << type << " (f32, f64 and i8-i64 are supported)";
  return success();
}

static Value indexConstant(OpBuilder &b, Location loc, int64_t value) {
  return arith::ConstantIndexOp::create(b, loc, value);
}

/// The row-major linear index of `indices` in `array`.
static Value linearize(OpBuilder &b, Location loc, const CArray &array,
                       ValueRange indices) {
  if (indices.empty())
    return indexConstant(b, loc, 0);
  Value linear = indices[0];
  for (size_t d = 1; d < indices.size(); ++d) {
    linear = arith::MulIOp::create(b, loc, linear, array.extents[d]);
    linear = arith::AddIOp::create(b, loc, linear, indices[d]);
  }
  return linear;
}

/// The name `arg` has in the source (`%u` -> `u`, see
/// Stencil/Target/SourceNames.h), else `arg<i>`.
static std::string sourceName(BlockArgument arg, unsigned i) {
  if (auto name = dyn_cast<NameLoc>(arg.getLoc()))
    return name.getName().str();
  return "arg" + std::to_string(i);
}

static Value castToIndex(OpBuilder &b, Location loc, Value i64) {
  return arith::IndexCastOp::create(b, loc, b.getIndexType(), i64);
}

static bool writes(Value array) {
  return llvm::any_of(array.getUsers(), llvm::IsaPred<memref::StoreOp>);
}

/// Whether `name` can name a C function as it is.
static bool isCIdentifier(StringRef name) {
  return !name.empty() && !llvm::isDigit(name.front()) &&
         llvm::all_of(name,
                      [](char c) { return llvm::isAlnum(c) || c == '_'; });
}

namespace {
/// Rewrites one function: its signature, then its array accesses.
class FunctionRewriter {
public:
  explicit FunctionRewriter(func::FuncOp func) : func(func) {}

  LogicalResult run() {
    if (failed(checkFunction()) || failed(rewriteSignature()))
      return failure();
    // In pre-order, so that an allocation is rewritten before its uses;
    // collected first, since accesses are replaced as they are visited.
    SmallVector<Operation *> ops;
    func.getBody().walk<WalkOrder::PreOrder>(
        [&](Operation *op) { ops.push_back(op); });
    for (Operation *op : ops)
      if (failed(rewriteOp(op)))
        return failure();
    finish();
    return success();
  }

private:
  LogicalResult checkFunction();
  LogicalResult rewriteSignature();
  void finish();
  LogicalResult rewriteOp(Operation *op);
  LogicalResult rewriteAlloc(memref::AllocOp alloc);
  FailureOr<CArray *> lookup(Operation *op, Value memref);

  func::FuncOp func;
  /// The arrays: old array arguments and allocations.
  DenseMap<Value, CArray> arrays;
  /// What each C parameter is, in order, for the comment before the
  /// function.
  SmallVector<std::string> parameters;
  /// The number of old arguments, first in the entry block until run()
  /// erases them.
  unsigned replacedArguments = 0;
};
} // namespace

/// What the C route cannot give a C function: its name, several results,
/// an array result.
LogicalResult FunctionRewriter::checkFunction() {
  StringRef name = func.getSymName();
  if (!isCIdentifier(name))
    return func.emitOpError("has a name that is no C identifier, which the "
                            "C source route needs");
  // The one rule of the C header's names (docs/ABI.md): it renames what C
  // or C++ reserves or the included headers define.
  llvm::StringSet<> taken;
  if (cParameterName(name, 0, taken) != name || isC99MathFunctionName(name))
    return func.emitOpError()
           << "is named '" << name
           << "', which C reserves or its headers declare (a keyword, a "
              "<math.h> function, ...); rename it for the C source route";
  if (func.getNumResults() > 1)
    return func.emitOpError()
           << "returns " << func.getNumResults()
           << " values, and a C function returns at most one; the C source "
              "route does not support this yet";
  if (llvm::any_of(func.getResultTypes(), llvm::IsaPred<MemRefType>))
    return func.emitOpError("returns an array, which the C source route "
                            "does not support yet");
  return success();
}

/// Once every access is rewritten: drops the allocations and the old
/// arguments, the extents nothing reads, and puts the comment naming the C
/// parameters right before the function (--stencil-convert-to-emitc keeps
/// them together).
void FunctionRewriter::finish() {
  for (auto &[value, array] : arrays)
    if (Operation *alloc = value.getDefiningOp())
      alloc->erase();
  Block &entry = func.getBody().front();
  llvm::BitVector old(entry.getNumArguments());
  old.set(0, replacedArguments);
  entry.eraseArguments(old);
  // Extents and sizes nothing reads (those of dimension 0, mostly).
  for (Operation &op : llvm::make_early_inc_range(entry))
    if (isa<arith::IndexCastOp, arith::ConstantOp>(op) && op.use_empty())
      op.erase();
  OpBuilder b(func);
  emitc::VerbatimOp::create(b, func.getLoc(),
                            "// " + func.getSymName().str() + ": " +
                                llvm::join(parameters, ", "));
}

LogicalResult FunctionRewriter::rewriteSignature() {
  Block &entry = func.getBody().front();
  OpBuilder b = OpBuilder::atBlockBegin(&entry);
  MLIRContext *context = func.getContext();
  Type i64 = IntegerType::get(context, 64);
  unsigned oldCount = entry.getNumArguments();
  SmallVector<Type> types;
  // The arguments' attributes (stencil.active, ...) describe the arrays of
  // the object route; the C parameters have none.
  auto add = [&](Type type, Location loc) {
    types.push_back(type);
    return entry.addArgument(type, loc);
  };
  for (unsigned i = 0; i < oldCount; ++i) {
    BlockArgument arg = entry.getArgument(i);
    Location loc = arg.getLoc();
    std::string name = sourceName(arg, i);
    auto memref = dyn_cast<MemRefType>(arg.getType());
    if (!memref) {
      parameters.push_back(name);
      Value replacement = add(arg.getType().isIndex() ? i64 : arg.getType(),
                              loc);
      if (arg.getType().isIndex())
        replacement = castToIndex(b, loc, replacement);
      arg.replaceAllUsesWith(replacement);
      continue;
    }
    if (failed(checkArrayType(func.getLoc(), memref)))
      return failure();
    std::string pointer = (writes(arg) ? "" : "const ") +
                          cElementType(memref.getElementType()) +
                          " *restrict";
    CArray array;
    parameters.push_back(name);
    array.pointer = add(emitc::OpaqueType::get(context, pointer), loc);
    for (auto [d, size] : llvm::enumerate(memref.getShape())) {
      if (!ShapedType::isDynamic(size)) {
        array.extents.push_back(indexConstant(b, loc, size));
        continue;
      }
      parameters.push_back("extent(" + name + ", " + std::to_string(d) + ")");
      array.extents.push_back(castToIndex(b, loc, add(i64, loc)));
    }
    arrays[arg] = std::move(array);
  }
  func.setType(FunctionType::get(context, types, func.getResultTypes()));
  func.removeArgAttrsAttr();
  replacedArguments = oldCount;
  return success();
}

FailureOr<CArray *> FunctionRewriter::lookup(Operation *op, Value memref) {
  auto it = arrays.find(memref);
  if (it == arrays.end())
    return op->emitOpError("accesses an array that is neither an argument "
                           "nor a temporary of the function, which the C "
                           "source route does not support yet");
  return &it->second;
}

LogicalResult FunctionRewriter::rewriteAlloc(memref::AllocOp alloc) {
  MemRefType type = alloc.getType();
  Location loc = alloc.getLoc();
  if (failed(checkArrayType(loc, type)))
    return failure();
  OpBuilder b(alloc);
  CArray array;
  Value count;
  unsigned dynamic = 0;
  for (int64_t size : type.getShape()) {
    Value extent = ShapedType::isDynamic(size)
                       ? alloc.getDynamicSizes()[dynamic++]
                       : indexConstant(b, loc, size);
    array.extents.push_back(extent);
    count = count ? arith::MulIOp::create(b, loc, count, extent).getResult()
                  : extent;
  }
  if (!count)
    count = indexConstant(b, loc, 1);
  unsigned bytes = type.getElementTypeBitWidth() / 8;
  Value size =
      arith::MulIOp::create(b, loc, count, indexConstant(b, loc, bytes));
  // C converts malloc's void * to the element pointer implicitly.
  Type pointer = emitc::PointerType::get(type.getElementType());
  array.pointer = emitc::CallOpaqueOp::create(b, loc, pointer, "malloc",
                                              ValueRange{size})
                      .getResult(0);
  arrays[alloc.getResult()] = std::move(array);
  return success();
}

LogicalResult FunctionRewriter::rewriteOp(Operation *op) {
  Location loc = op->getLoc();
  OpBuilder b(op);
  if (auto alloc = dyn_cast<memref::AllocOp>(op))
    return rewriteAlloc(alloc);
  auto access = [&](Value memref, ValueRange indices) -> FailureOr<Value> {
    FailureOr<CArray *> array = lookup(op, memref);
    if (failed(array))
      return failure();
    Type element = cast<MemRefType>(memref.getType()).getElementType();
    Value linear = linearize(b, loc, **array, indices);
    return emitc::SubscriptOp::create(b, loc, emitc::LValueType::get(element),
                                      (*array)->pointer, ValueRange{linear})
        .getResult();
  };
  if (auto load = dyn_cast<memref::LoadOp>(op)) {
    FailureOr<Value> lvalue = access(load.getMemRef(), load.getIndices());
    if (failed(lvalue))
      return failure();
    load.replaceAllUsesWith(
        emitc::LoadOp::create(b, loc, load.getType(), *lvalue).getResult());
    load.erase();
    return success();
  }
  if (auto store = dyn_cast<memref::StoreOp>(op)) {
    FailureOr<Value> lvalue = access(store.getMemRef(), store.getIndices());
    if (failed(lvalue))
      return failure();
    emitc::AssignOp::create(b, loc, *lvalue, store.getValue());
    store.erase();
    return success();
  }
  if (auto dim = dyn_cast<memref::DimOp>(op)) {
    FailureOr<CArray *> array = lookup(op, dim.getSource());
    std::optional<int64_t> index = dim.getConstantIndex();
    if (failed(array))
      return failure();
    if (!index)
      return op->emitOpError("takes a dimension that is not a constant, "
                             "which the C source route does not support");
    dim.replaceAllUsesWith((*array)->extents[*index]);
    dim.erase();
    return success();
  }
  if (auto dealloc = dyn_cast<memref::DeallocOp>(op)) {
    FailureOr<CArray *> array = lookup(op, dealloc.getMemref());
    if (failed(array))
      return failure();
    emitc::CallOpaqueOp::create(b, loc, TypeRange(), "free",
                                ValueRange{(*array)->pointer});
    dealloc.erase();
    return success();
  }
  if (auto call = dyn_cast<func::CallOp>(op)) {
    // Index arguments are int64_t now.
    for (OpOperand &operand : call->getOpOperands())
      if (operand.get().getType().isIndex())
        operand.set(arith::IndexCastOp::create(b, loc, b.getI64Type(),
                                               operand.get()));
  }
  auto isMemRef = llvm::IsaPred<MemRefType>;
  if (llvm::any_of(op->getOperandTypes(), isMemRef) ||
      llvm::any_of(op->getResultTypes(), isMemRef))
    return op->emitOpError("uses arrays in a way the C source route does "
                           "not support yet (it takes loads, stores, "
                           "memref.dim, memref.alloc and memref.dealloc)");
  return success();
}

namespace {
struct StencilCArraysPass
    : public stencil::impl::StencilCArraysPassBase<StencilCArraysPass> {
  using Base::Base;

  void runOnOperation() override {
    for (auto func : getOperation().getOps<func::FuncOp>()) {
      if (func.isDeclaration()) {
        if (func.getSymName() == "omp_get_max_threads")
          continue;
        func.emitOpError("is a declaration; the C source route emits only "
                         "the functions the module defines");
        return signalPassFailure();
      }
      if (failed(FunctionRewriter(func).run()))
        return signalPassFailure();
    }
  }
};
} // namespace
