//===- ConvertToEmitC.cpp - The C route's conversion to EmitC -------------===//
//
// This file implements --stencil-convert-to-emitc: upstream's arith, SCF
// and func patterns and ours for math (MathToC99.cpp) to EmitC in one full
// conversion (index as size_t), the EmitC ops --stencil-c-arrays made
// retyped alike, and the preamble of the C file (includes, the OpenMP
// runtime's one function). Functions are ordered so that each is defined
// before its callers.
//
//===----------------------------------------------------------------------===//

#include "MathToC99.h"
#include "Stencil/Conversion/Passes.h"

#include "mlir/Conversion/ArithToEmitC/ArithToEmitC.h"
#include "mlir/Conversion/FuncToEmitC/FuncToEmitC.h"
#include "mlir/Conversion/SCFToEmitC/SCFToEmitC.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/EmitC/IR/EmitC.h"
#include "mlir/Dialect/EmitC/Transforms/TypeConversions.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Transforms/DialectConversion.h"

namespace mlir::stencil {
#define GEN_PASS_DEF_STENCILCONVERTTOEMITCPASS
#include "Stencil/Conversion/Passes.h.inc"
} // namespace mlir::stencil

using namespace mlir;
using namespace mlir::stencil;

/// The OpenMP runtime function the fused reset of the gather form calls
/// (lib/Gather/GatherReset.cpp).
static constexpr StringLiteral kMaxThreads = "omp_get_max_threads";

/// <omp.h> where the C file is compiled with OpenMP; without, one thread.
static constexpr StringLiteral kMaxThreadsPreamble =
    "#ifdef _OPENMP\n"
    "#include <omp.h>\n"
    "#else\n"
    "static int omp_get_max_threads(void) { return 1; }\n"
    "#endif";

namespace {
/// An EmitC op that an earlier pass built on `index` values: the same op
/// on the converted operands (size_t).
struct RetypeEmitCOp : public ConversionPattern {
  RetypeEmitCOp(const TypeConverter &converter, MLIRContext *context)
      : ConversionPattern(converter, MatchAnyOpTypeTag(), /*benefit=*/1,
                          context) {}

  LogicalResult
  matchAndRewrite(Operation *op, ArrayRef<Value> operands,
                  ConversionPatternRewriter &rewriter) const override {
    if (!isa_and_nonnull<emitc::EmitCDialect>(op->getDialect()) ||
        op->getNumRegions())
      return failure();
    SmallVector<Type> results;
    if (failed(getTypeConverter()->convertTypes(op->getResultTypes(), results)))
      return failure();
    OperationState state(op->getLoc(), op->getName(), operands, results,
                         op->getAttrs(), op->getSuccessors());
    rewriter.replaceOp(op, rewriter.create(state)->getResults());
    return success();
  }
};
} // namespace

/// Calls of omp_get_max_threads become opaque calls that the preamble
/// declares; returns whether there were any.
static bool replaceMaxThreadsCalls(ModuleOp module) {
  bool any = false;
  module.walk([&](func::CallOp call) {
    if (call.getCallee() != kMaxThreads)
      return;
    OpBuilder b(call);
    auto opaque = emitc::CallOpaqueOp::create(
        b, call.getLoc(), call.getResultTypes(), kMaxThreads, ValueRange());
    call.replaceAllUsesWith(opaque.getResults());
    call.erase();
    any = true;
  });
  if (auto decl = module.lookupSymbol<func::FuncOp>(kMaxThreads))
    decl.erase();
  return any;
}

/// Signed divisions and remainders of `index` values as int64_t ones:
/// upstream's patterns keep them on size_t, an unsigned division in C,
/// which is wrong for the negative values bound arithmetic has (the
/// expanded ceildivsi of an empty domain's trip count).
static void widenSignedIndexDivisions(ModuleOp module) {
  module.walk([](Operation *op) {
    if (!isa<arith::DivSIOp, arith::RemSIOp>(op) ||
        !op->getResult(0).getType().isIndex())
      return;
    OpBuilder b(op);
    Location loc = op->getLoc();
    Type i64 = b.getI64Type();
    Value lhs = arith::IndexCastOp::create(b, loc, i64, op->getOperand(0));
    Value rhs = arith::IndexCastOp::create(b, loc, i64, op->getOperand(1));
    Value wide = isa<arith::DivSIOp>(op)
                     ? arith::DivSIOp::create(b, loc, lhs, rhs).getResult()
                     : arith::RemSIOp::create(b, loc, lhs, rhs).getResult();
    Value result = arith::IndexCastOp::create(b, loc, b.getIndexType(), wide);
    op->getResult(0).replaceAllUsesWith(result);
    op->erase();
  });
}

/// Moves every function after the functions it calls (a DAG: the C route
/// has no recursion), so that C needs no prototypes. A verbatim right
/// before a function (its comment) moves with it.
static void orderCalleesFirst(ModuleOp module) {
  SmallVector<func::FuncOp> order;
  DenseSet<Operation *> visited;
  std::function<void(func::FuncOp)> visit = [&](func::FuncOp func) {
    if (!visited.insert(func).second)
      return;
    func.walk([&](func::CallOp call) {
      if (auto callee = module.lookupSymbol<func::FuncOp>(call.getCallee()))
        visit(callee);
    });
    order.push_back(func);
  };
  for (auto func : llvm::to_vector(module.getOps<func::FuncOp>()))
    visit(func);
  for (func::FuncOp func : order) {
    // With its comment (--stencil-c-arrays), the verbatim right before it.
    auto comment = dyn_cast_or_null<emitc::VerbatimOp>(func->getPrevNode());
    if (comment)
      comment->moveBefore(module.getBody(), module.getBody()->end());
    func->moveBefore(module.getBody(), module.getBody()->end());
  }
}

/// The C literal for `constant` where a literal means the same as a
/// variable of the constant's type: an integer in int's range (C's type of
/// a literal), not negative if the type is unsigned.
static std::optional<std::string> literalText(emitc::ConstantOp constant) {
  auto value = dyn_cast<IntegerAttr>(constant.getValue());
  if (!value)
    return std::nullopt;
  APInt bits = value.getValue();
  if (bits.getBitWidth() == 1)
    return std::string(bits.isOne() ? "true" : "false");
  Type type = constant.getType();
  bool isUnsigned = isa<emitc::SizeTType>(type) || type.isUnsignedInteger();
  if (!bits.isSignedIntN(32) || (isUnsigned && bits.isNegative()))
    return std::nullopt;
  int64_t number = bits.getSExtValue();
  return number < 0 ? "(" + std::to_string(number) + ")"
                    : std::to_string(number);
}

/// Integer constants as literals, which the printer writes where they are
/// used (`i += 1`) instead of declaring a variable for each. Only where no
/// op but a loop would then have two literal operands: an operation between
/// two int literals would be computed in int, not in the constants' type.
static void inlineIntegerConstants(ModuleOp module) {
  DenseMap<Operation *, std::string> texts;
  module.walk([&](emitc::ConstantOp constant) {
    // What the conversion folded away.
    if (constant->use_empty()) {
      constant.erase();
      return;
    }
    if (std::optional<std::string> text = literalText(constant))
      texts[constant] = *text;
  });
  auto isLiteral = [&](Value value) {
    Operation *def = value.getDefiningOp();
    return def && (texts.count(def) || isa<emitc::LiteralOp>(def));
  };
  for (auto &[op, text] : texts) {
    // A loop's bounds and step each meet its counter, of their type.
    bool alone = llvm::all_of(op->getUsers(), [&](Operation *user) {
      return isa<emitc::ForOp>(user) ||
             llvm::count_if(user->getOperands(), isLiteral) <= 1;
    });
    if (!alone)
      continue;
    OpBuilder b(op);
    Value literal = emitc::LiteralOp::create(b, op->getLoc(),
                                             op->getResult(0).getType(), text);
    op->getResult(0).replaceAllUsesWith(literal);
  }
  for (auto &[op, text] : texts)
    if (op->use_empty())
      op->erase();
}

/// Moves each OpenMP pragma (--stencil-omp-pragmas) past whatever the
/// conversion put between it and its loop, which C requires to follow the
/// pragma directly.
static void keepPragmasBeforeLoops(ModuleOp module) {
  module.walk([](emitc::VerbatimOp pragma) {
    if (!pragma->hasAttr(kOMPPragmaAttrName))
      return;
    Operation *next = pragma->getNextNode();
    while (next && !isa<emitc::ForOp>(next))
      next = next->getNextNode();
    if (next)
      pragma->moveBefore(next);
  });
}

static void addPreamble(ModuleOp module, bool maxThreads) {
  OpBuilder b = OpBuilder::atBlockBegin(module.getBody());
  Location loc = module.getLoc();
  for (StringRef header :
       {"stdint.h", "stddef.h", "stdbool.h", "stdlib.h", "math.h"})
    emitc::IncludeOp::create(b, loc, header, /*is_standard_include=*/true);
  if (maxThreads)
    emitc::VerbatimOp::create(b, loc, kMaxThreadsPreamble);
}

static void populateTypeConversions(TypeConverter &converter) {
  converter.addConversion([](Type type) -> std::optional<Type> {
    if (emitc::isSupportedEmitCType(type) ||
        isa<emitc::LValueType, emitc::OpaqueType, emitc::PointerType>(type))
      return type;
    return std::nullopt;
  });
  // Added last, so tried first: index as size_t.
  populateEmitCSizeTTypeConversions(converter);
}

namespace {
struct StencilConvertToEmitCPass
    : public stencil::impl::StencilConvertToEmitCPassBase<
          StencilConvertToEmitCPass> {
  using Base::Base;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    MLIRContext *context = &getContext();
    bool maxThreads = replaceMaxThreadsCalls(module);
    widenSignedIndexDivisions(module);
    orderCalleesFirst(module);

    TypeConverter converter;
    populateTypeConversions(converter);
    RewritePatternSet patterns(context);
    populateArithToEmitCPatterns(converter, patterns);
    stencil::populateMathToC99Patterns(converter, patterns);
    populateSCFToEmitCConversionPatterns(patterns, converter);
    populateFuncToEmitCPatterns(converter, patterns);
    patterns.add<RetypeEmitCOp>(converter, context);

    ConversionTarget target(*context);
    target.addLegalOp<ModuleOp>();
    target.addDynamicallyLegalDialect<emitc::EmitCDialect>(
        [&](Operation *op) { return converter.isLegal(op); });
    if (failed(applyFullConversion(module, target, std::move(patterns))))
      return signalPassFailure();
    inlineIntegerConstants(module);
    keepPragmasBeforeLoops(module);
    addPreamble(module, maxThreads);
  }
};
} // namespace
