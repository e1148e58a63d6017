//===- CheckABIBounds.cpp - Bounds checks at the C entry points -*- C++ -*-===//
//
// This file implements --stencil-check-abi-bounds: at entry, every public
// function checks that its array arguments cover what the call accesses,
// from the plan behind --abi-json (AccessBounds.h), with the bounds
// computed without wrap-around, and reports a failure the way the
// distributed code's run-time checks do (`FILE:LINE:COL: 'f': error: ...`
// on stderr, then abort).
//
//===----------------------------------------------------------------------===//

#include "Stencil/Target/Passes.h"

#include "Stencil/Dialect/StencilDialect.h"
#include "Stencil/Target/AccessBounds.h"
#include "Stencil/Support/Declare.h"
#include "Stencil/Target/CInterface.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/SymbolTable.h"

namespace mlir::stencil {
#define GEN_PASS_DEF_STENCILCHECKABIBOUNDSPASS
#include "Stencil/Target/Passes.h.inc"
} // namespace mlir::stencil

using namespace mlir;
using namespace mlir::stencil;

//===----------------------------------------------------------------------===//
// The report function
//===----------------------------------------------------------------------===//

namespace {

/// The module-level pieces the checks share: the private report function
/// and the strings it prints, made on first use.
class Reporter {
public:
  explicit Reporter(ModuleOp module)
      : module(module), symbols(module), b(module.getContext()) {}

  /// A pointer to a private constant holding `text`, NUL-terminated.
  Value string(OpBuilder &at, Location loc, StringRef text);
  /// The report function, or failure (reported) if the module's own
  /// symbols take the C library names it calls.
  FailureOr<LLVM::LLVMFuncOp> function();

private:
  FailureOr<LLVM::LLVMFuncOp> libcFunction(StringRef name,
                                           LLVM::LLVMFunctionType type);
  void buildBody(LLVM::LLVMFuncOp report, LLVM::LLVMFuncOp dprintf,
                 LLVM::LLVMFuncOp abort);

  ModuleOp module;
  SymbolTable symbols;
  OpBuilder b;
  llvm::StringMap<LLVM::GlobalOp> strings;
  std::optional<FailureOr<LLVM::LLVMFuncOp>> report;
};

} // namespace

Value Reporter::string(OpBuilder &at, Location loc, StringRef text) {
  LLVM::GlobalOp &global = strings[text];
  if (!global) {
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(module.getBody());
    std::string value = (text + Twine('\0')).str();
    auto type = LLVM::LLVMArrayType::get(b.getI8Type(), value.size());
    global = LLVM::GlobalOp::create(b, module.getLoc(), type,
                                    /*isConstant=*/true,
                                    LLVM::Linkage::Internal,
                                    "stencil_abi_text", b.getStringAttr(value));
    symbols.insert(global);
  }
  return LLVM::AddressOfOp::create(at, loc, global);
}

/// Declares the C library's `name`, or returns the module's declaration of
/// it; any other symbol of that name would capture the call and is refused.
FailureOr<LLVM::LLVMFuncOp>
Reporter::libcFunction(StringRef name, LLVM::LLVMFunctionType type) {
  Operation *existing = symbols.lookup(name);
  if (!existing) {
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(module.getBody());
    auto decl = LLVM::LLVMFuncOp::create(b, module.getLoc(), name, type);
    symbols.insert(decl);
    return decl;
  }
  auto decl = dyn_cast<LLVM::LLVMFuncOp>(existing);
  if (decl && decl.isExternal() && decl.getFunctionType() == type)
    return decl;
  return existing->emitError()
         << "the symbol '" << name
         << "' is the C library function that the bounds checks of the C "
            "entry points call; rename it, or turn the checks off "
            "(check-bounds=0)";
}

FailureOr<LLVM::LLVMFuncOp> Reporter::function() {
  if (report)
    return *report;
  MLIRContext *context = module.getContext();
  Type ptr = LLVM::LLVMPointerType::get(context);
  Type i32 = b.getI32Type(), i64 = b.getI64Type();
  Type voidType = LLVM::LLVMVoidType::get(context);
  FailureOr<LLVM::LLVMFuncOp> dprintf = libcFunction(
      "dprintf", LLVM::LLVMFunctionType::get(i32, {i32, ptr}, true));
  FailureOr<LLVM::LLVMFuncOp> abort =
      libcFunction("abort", LLVM::LLVMFunctionType::get(voidType, {}));
  if (failed(dprintf) || failed(abort)) {
    report = failure();
    return failure();
  }
  // (where, argument, verb, dim, lo, hi, extent, overflow).
  auto type = LLVM::LLVMFunctionType::get(
      voidType, {ptr, ptr, ptr, i64, i64, i64, i64, b.getI1Type()});
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToEnd(module.getBody());
  auto fn = LLVM::LLVMFuncOp::create(b, module.getLoc(),
                                     "stencil_abi_bounds_error", type,
                                     LLVM::Linkage::Internal);
  symbols.insert(fn);
  buildBody(fn, *dprintf, *abort);
  report = fn;
  return fn;
}

/// Prints one of two messages to file descriptor 2 and aborts:
///
///   FILE:LINE:COL: 'f': error: argument 'u' has 10 points in dimension 0,
///   but the call reads it at indices 0..10
///
/// or, when a bound does not fit in 64 bits, that it does not.
void Reporter::buildBody(LLVM::LLVMFuncOp report, LLVM::LLVMFuncOp dprintf,
                         LLVM::LLVMFuncOp abort) {
  Location loc = report.getLoc();
  Block *entry = report.addEntryBlock(b);
  Block *tooSmall = b.createBlock(&report.getBody());
  Block *overflow = b.createBlock(&report.getBody());
  auto args = entry->getArguments();
  b.setInsertionPointToEnd(entry);
  LLVM::CondBrOp::create(b, loc, args[7], overflow, tooSmall);
  auto emit = [&](Block *block, StringRef format, ValueRange values) {
    b.setInsertionPointToEnd(block);
    SmallVector<Value> operands = {
        LLVM::ConstantOp::create(b, loc, b.getI32Type(), 2),
        string(b, loc, format)};
    llvm::append_range(operands, values);
    LLVM::CallOp::create(b, loc, dprintf, operands);
    LLVM::CallOp::create(b, loc, abort, ValueRange{});
    LLVM::UnreachableOp::create(b, loc);
  };
  emit(tooSmall,
       "%s: error: argument '%s' has %lld points in dimension %lld, but the "
       "call %s it at indices %lld..%lld (docs/ABI.md, \"Bounds checks\")\n",
       {args[0], args[1], args[6], args[3], args[2], args[4], args[5]});
  emit(overflow,
       "%s: error: the indices the call accesses in dimension %lld of "
       "argument '%s' do not fit in 64 bits (docs/ABI.md, \"Bounds "
       "checks\")\n",
       {args[0], args[3], args[1]});
}

//===----------------------------------------------------------------------===//
// The checks of one function
//===----------------------------------------------------------------------===//

namespace {

/// An exact 128-bit value and whether computing it overflowed 128 bits
/// (only sums of several products near 2^126 can).
struct Exact {
  Value value, overflow;
};

/// Emits the checks of one function at the start of its body.
class CheckEmitter {
public:
  CheckEmitter(func::FuncOp func, const CEntryPoint &entry, Reporter &reporter)
      : func(func), entry(entry), reporter(reporter), b(func.getContext()),
        loc(func.getLoc()) {
    b.setInsertionPointToStart(&func.getBody().front());
  }

  LogicalResult emit(const FunctionAccessBounds &plan);

private:
  Value constant(Type type, int64_t c) {
    return arith::ConstantIntOp::create(b, loc, type, c);
  }
  Value wide(int64_t c) {
    Type i128 = b.getIntegerType(128);
    return arith::ConstantOp::create(
        b, loc, IntegerAttr::get(i128, APInt(128, c, /*isSigned=*/true)));
  }
  Value cmp(arith::CmpIPredicate predicate, Value l, Value r) {
    return arith::CmpIOp::create(b, loc, predicate, l, r);
  }
  Value any(Value l, Value r) { return arith::OrIOp::create(b, loc, l, r); }
  Value argument(unsigned index);
  Exact add(Exact a, Value x);
  Exact evaluate(const IndexExpr &expr);
  Value fitsIn64(Value x);
  LogicalResult check(const AccessBound &bound);

  func::FuncOp func;
  const CEntryPoint &entry;
  Reporter &reporter;
  OpBuilder b;
  Location loc;
  DenseMap<unsigned, Value> arguments;
  Value where;
};

} // namespace

/// Integer argument `index` in 128 bits, sign-extended as `arith.index_cast`
/// extends it in the function's own index computations.
Value CheckEmitter::argument(unsigned index) {
  Value &value = arguments[index];
  if (!value) {
    Value arg = func.getArgument(index);
    if (arg.getType().isIndex())
      arg = arith::IndexCastOp::create(b, loc, b.getI64Type(), arg);
    value = arith::ExtSIOp::create(b, loc, b.getIntegerType(128), arg);
  }
  return value;
}

/// `a + x`, flagged if the sum overflows 128 bits: both operands have one
/// sign and the sum the other.
Exact CheckEmitter::add(Exact a, Value x) {
  // Every intermediate named: the IR must not depend on the host
  // compiler's order of evaluating arguments.
  Value sum = arith::AddIOp::create(b, loc, a.value, x);
  Value fromA = arith::XOrIOp::create(b, loc, a.value, sum);
  Value fromX = arith::XOrIOp::create(b, loc, x, sum);
  Value signs = arith::AndIOp::create(b, loc, fromA, fromX);
  return {sum, any(a.overflow, cmp(arith::CmpIPredicate::slt, signs, wide(0)))};
}

/// `constant + sum of coefficient * argument`, exactly: each product of two
/// 64-bit numbers fits in 128 bits.
Exact CheckEmitter::evaluate(const IndexExpr &expr) {
  Exact sum{wide(expr.constant), constant(b.getI1Type(), 0)};
  for (auto [k, term] : llvm::enumerate(expr.terms)) {
    auto [arg, coefficient] = term;
    Value product = argument(arg);
    if (coefficient != 1)
      product = arith::MulIOp::create(b, loc, product, wide(coefficient));
    // The first term needs no addition when the constant is 0.
    sum = k == 0 && expr.constant == 0 ? Exact{product, sum.overflow}
                                       : add(sum, product);
  }
  return sum;
}

/// Whether the 128-bit `x` is a 64-bit number.
Value CheckEmitter::fitsIn64(Value x) {
  Value narrow = arith::TruncIOp::create(b, loc, b.getI64Type(), x);
  return cmp(arith::CmpIPredicate::eq,
             arith::ExtSIOp::create(b, loc, x.getType(), narrow), x);
}

/// What the call does at the indices of `bound` to `value`: an adjoint
/// adds into a shadow where the primal reads or writes its array.
static StringRef verb(const CValue &value, const AccessBound &bound) {
  if (value.role == CValue::Role::Shadow)
    return "accesses";
  return bound.writes ? "writes" : "reads";
}

/// Checks `bound` on the arguments it applies to: the primal argument it is
/// about and, in an adjoint, its shadows. The access happens when every
/// interval around it is non-empty, in exact arithmetic as in the compiled
/// code; then `lo` and `hi` must lie in [0, extent).
LogicalResult CheckEmitter::check(const AccessBound &bound) {
  Value happens = constant(b.getI1Type(), 1);
  Value overflow = constant(b.getI1Type(), 0);
  for (const auto &[lb, ub] : bound.nonEmpty) {
    Exact l = evaluate(lb), u = evaluate(ub);
    happens = arith::AndIOp::create(
        b, loc, happens, cmp(arith::CmpIPredicate::slt, l.value, u.value));
    overflow = any(overflow, any(l.overflow, u.overflow));
  }
  Exact lo = evaluate(bound.lo), hi = evaluate(bound.hi);
  overflow = any(overflow, any(lo.overflow, hi.overflow));
  for (auto [k, value] : llvm::enumerate(entry.arguments)) {
    bool applies =
        (value.role == CValue::Role::Argument && k == bound.argument) ||
        (value.role == CValue::Role::Shadow && value.of == bound.argument);
    if (!applies || !value.isDescriptor)
      continue;
    Value dim = arith::ConstantIndexOp::create(b, loc, bound.dim);
    Value extent = arith::IndexCastOp::create(
        b, loc, b.getI64Type(),
        memref::DimOp::create(b, loc, func.getArgument(k), dim));
    Value wideExtent =
        arith::ExtSIOp::create(b, loc, b.getIntegerType(128), extent);
    Value below = cmp(arith::CmpIPredicate::slt, lo.value, wide(0));
    Value above = cmp(arith::CmpIPredicate::sge, hi.value, wideExtent);
    Value outside = any(below, above);
    Value failed = any(overflow, arith::AndIOp::create(b, loc, happens, outside));
    FailureOr<LLVM::LLVMFuncOp> report = reporter.function();
    if (::mlir::failed(report))
      return failure();
    auto ifOp = scf::IfOp::create(b, loc, failed, /*withElseRegion=*/false);
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(ifOp.thenBlock());
    Value loFits = fitsIn64(lo.value);
    Value hiFits = fitsIn64(hi.value);
    Value fits = arith::AndIOp::create(b, loc, loFits, hiFits);
    Value tooWide = any(overflow, cmp(arith::CmpIPredicate::eq, fits,
                                      constant(b.getI1Type(), 0)));
    LLVM::CallOp::create(
        b, loc, *report,
        ValueRange{where, reporter.string(b, loc, value.name),
                   reporter.string(b, loc, verb(value, bound)),
                   constant(b.getI64Type(), bound.dim),
                   arith::TruncIOp::create(b, loc, b.getI64Type(), lo.value),
                   arith::TruncIOp::create(b, loc, b.getI64Type(), hi.value),
                   extent, tooWide});
  }
  return success();
}

/// The key of a bound without its constant parts: bounds that share it
/// differ only in how far they reach, and one check covers them all.
static std::string shapeKey(const AccessBound &bound) {
  AccessBound shape = bound;
  shape.lo.constant = shape.hi.constant = 0;
  shape.writes = false;
  std::string key;
  llvm::raw_string_ostream os(key);
  os << FunctionAccessBounds{{shape}, {}, {}, {}}.toJSON();
  return key;
}

/// The bounds of `plan`, merged where one check covers several: the lowest
/// `lo` and the highest `hi` of bounds that differ only in their constants.
static std::vector<AccessBound> mergeBounds(const FunctionAccessBounds &plan) {
  std::vector<AccessBound> merged;
  llvm::StringMap<size_t> index;
  for (const AccessBound &bound : plan.bounds) {
    auto [it, inserted] = index.try_emplace(shapeKey(bound), merged.size());
    if (inserted) {
      merged.push_back(bound);
      continue;
    }
    AccessBound &into = merged[it->second];
    into.lo.constant = std::min(into.lo.constant, bound.lo.constant);
    into.hi.constant = std::max(into.hi.constant, bound.hi.constant);
    into.writes |= bound.writes;
  }
  return merged;
}

/// True if `plan`, made on `planned`, reads in `func` as it does there:
/// every argument it names is, in `func`, of the type it has in `planned`
/// (an adjoint takes its primal's arguments first), and its integers are
/// signless and at most 64 bits wide.
static bool appliesTo(const FunctionAccessBounds &plan, func::FuncOp planned,
                      func::FuncOp func) {
  auto same = [&](unsigned k) {
    return k < planned.getNumArguments() && k < func.getNumArguments() &&
           planned.getArgument(k).getType() == func.getArgument(k).getType();
  };
  // The checks compute with signless integers of at most 64 bits.
  auto integer = [&](unsigned k) {
    Type type = func.getArgument(k).getType();
    return type.isIndex() ||
           (type.isSignlessInteger() && type.getIntOrFloatBitWidth() <= 64);
  };
  auto sameTerms = [&](const IndexExpr &e) {
    return llvm::all_of(e.terms, [&](auto term) {
      return same(term.first) && integer(term.first);
    });
  };
  return llvm::all_of(plan.bounds, [&](const AccessBound &bound) {
    return same(bound.argument) && sameTerms(bound.lo) &&
           sameTerms(bound.hi) &&
           llvm::all_of(bound.nonEmpty, [&](const auto &interval) {
             return sameTerms(interval.first) && sameTerms(interval.second);
           });
  });
}

LogicalResult CheckEmitter::emit(const FunctionAccessBounds &plan) {
  std::vector<AccessBound> bounds = mergeBounds(plan);
  if (bounds.empty())
    return success();
  where = reporter.string(b, loc, describeForRuntime(func));
  for (const AccessBound &bound : bounds)
    if (failed(check(bound)))
      return failure();
  return success();
}

//===----------------------------------------------------------------------===//
// The pass
//===----------------------------------------------------------------------===//

/// The entry point of `func` if it gets checks: public, with a body, not
/// distributed, with a signature the C interface describes. An adjoint is
/// checked if its primal is not distributed and its arguments have the
/// types of its primal's (appliesTo).
static std::optional<CEntryPoint> getCheckedEntryPoint(func::FuncOp func) {
  if (func.isExternal() || !func.isPublic() ||
      func->hasAttr(StencilDialect::DistributionAttrHelper::getNameStr()))
    return std::nullopt;
  // A signature the interface cannot describe is reported when the header
  // is made, not here.
  ScopedDiagnosticHandler quiet(func.getContext(),
                                [](Diagnostic &) { return success(); });
  FailureOr<CEntryPoint> entry = planEntryPoint(func);
  if (failed(entry))
    return std::nullopt;
  return std::move(*entry);
}

namespace {
struct StencilCheckABIBoundsPass
    : public mlir::stencil::impl::StencilCheckABIBoundsPassBase<
          StencilCheckABIBoundsPass> {
  using Base::Base;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    llvm::StringMap<FunctionAccessBounds> plans = planAccessBounds(module);
    Reporter reporter(module);
    SmallVector<func::FuncOp> funcs(module.getOps<func::FuncOp>());
    for (func::FuncOp func : funcs) {
      std::optional<CEntryPoint> entry = getCheckedEntryPoint(func);
      if (!entry)
        continue;
      // An adjoint accesses its primal arguments where its primal does
      // (as --abi-json reports it).
      StringRef planned =
          entry->adjointOf.empty() ? func.getSymName() : entry->adjointOf;
      auto plan = plans.find(planned);
      auto primal = module.lookupSymbol<func::FuncOp>(planned);
      if (plan == plans.end() || !plan->second.unsupported.empty() ||
          !primal || primal.isExternal() ||
          primal->hasAttr(
              StencilDialect::DistributionAttrHelper::getNameStr()) ||
          !appliesTo(plan->second, primal, func))
        continue;
      if (failed(CheckEmitter(func, *entry, reporter).emit(plan->second)))
        return signalPassFailure();
    }
  }
};
} // namespace
