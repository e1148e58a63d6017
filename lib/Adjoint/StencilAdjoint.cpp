//===- StencilAdjoint.cpp - Reverse-mode AD of stencil functions -*- C++ -*-===//
//
// This file implements --stencil-adjoint. The driver only decides what to
// differentiate, replays what the reverse sweep needs, walks regions
// backwards and dispatches every op to its AdjointOpInterface rule; all
// derivative knowledge lives in the rules (lib/Adjoint/Rules/).
//
//===----------------------------------------------------------------------===//

#include "Differentiate.h"

#include "Stencil/Adjoint/AdjointOpInterface.h"
#include "Stencil/Adjoint/Passes.h"

#include "Stencil/Dialect/ReservedNames.h"
#include "Stencil/Dialect/StencilDialect.h"
#include "Stencil/Dialect/StencilOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Interfaces/CallInterfaces.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "llvm/ADT/SetVector.h"

namespace mlir::stencil {
#define GEN_PASS_DEF_STENCILADJOINTPASS
#include "Stencil/Adjoint/Passes.h.inc"
} // namespace mlir::stencil

using namespace mlir;
using namespace mlir::stencil;

using ad::isStencilFloat;
using ad::kActiveAttr;

/// Returns the arrays a domain reads and the arrays it writes.
static void getDomainArrays(DomainOp domain, llvm::SetVector<Value> &reads,
                            llvm::SetVector<Value> &writes) {
  for (Operation &op : domain.getBodyBlock()->getOperations())
    if (auto access = dyn_cast<AccessOpInterface>(op))
      (access.isWrite() ? writes : reads).insert(access.getAccessedArray());
}

SmallVector<Value> ad::getDynamicSizes(OpBuilder &builder, Location loc,
                                       Value array) {
  auto type = cast<MemRefType>(array.getType());
  SmallVector<Value> sizes;
  for (int64_t k = 0; k < type.getRank(); ++k)
    if (type.isDynamicDim(k))
      sizes.push_back(memref::DimOp::create(builder, loc, array, k));
  return sizes;
}

DomainOp ad::createFullDomain(OpBuilder &builder, Location loc,
                              MemRefType type, ValueRange dynamicSizes) {
  MLIRContext *ctx = builder.getContext();
  SmallVector<AffineExpr> lower, upper;
  unsigned next = 0;
  for (int64_t k = 0; k < type.getRank(); ++k) {
    lower.push_back(getAffineConstantExpr(0, ctx));
    upper.push_back(type.isDynamicDim(k)
                        ? getAffineSymbolExpr(next++, ctx)
                        : getAffineConstantExpr(type.getDimSize(k), ctx));
  }
  return DomainOp::create(builder, loc,
                          AffineMap::get(0, dynamicSizes.size(), lower, ctx),
                          AffineMap::get(0, dynamicSizes.size(), upper, ctx),
                          dynamicSizes);
}

/// Emits a domain at the builder's insertion point that sets every element
/// of `array` to zero (or a plain store for a rank-0 array).
static void emitZeroFill(OpBuilder &builder, Location loc, Value array) {
  auto type = cast<MemRefType>(array.getType());
  Value zero = arith::ConstantOp::create(
      builder, loc, type.getElementType(),
      builder.getFloatAttr(type.getElementType(), 0.0));
  if (type.getRank() == 0) {
    memref::StoreOp::create(builder, loc, zero, array);
    return;
  }
  DomainOp domain = ad::createFullDomain(
      builder, loc, type, ad::getDynamicSizes(builder, loc, array));
  OpBuilder::InsertionGuard guard(builder);
  builder.setInsertionPoint(domain.getYield());
  StoreOp::create(builder, loc, zero, array, /*dims=*/nullptr);
}

/// Checks that `op` may stand at the top level of a function to
/// differentiate. Loads and views are allowed on passive arrays that no
/// domain writes: the forward sweep replays them in order, and a view of an
/// active array would have no shadow.
static LogicalResult
checkTopLevelOp(Operation *op, const llvm::DenseSet<Value> &activeArrays,
                const llvm::DenseSet<Value> &written) {
  if (isa<DomainOp, func::ReturnOp, memref::AllocOp, memref::DeallocOp>(op))
    return success();
  bool readsMemory = isa<memref::LoadOp>(op);
  // A choice between scalars has a rule when its arms are pure.
  bool choice = isa<scf::IfOp>(op) && op->getNumResults() != 0;
  if ((op->getNumRegions() != 0 && !choice) ||
      (!readsMemory && !isMemoryEffectFree(op)))
    return op->emitOpError(
        "is not supported yet at the top level of a function to "
        "differentiate (expected stencil.domain, side-effect free scalar "
        "ops and scf.if with results, loads from passive arrays, "
        "memref.alloc/dealloc)");
  for (Value operand : op->getOperands()) {
    if (!isa<MemRefType>(operand.getType()))
      continue;
    if (activeArrays.contains(operand))
      return op->emitOpError(
          "reads an active array outside a domain; only passive arrays can "
          "be read at the top level of a function to differentiate (not "
          "supported yet)");
    if (written.contains(operand))
      return op->emitOpError("reads an array that a domain of the function "
                             "writes; not supported yet at the top level");
  }
  return success();
}

namespace {

/// Differentiates one function: builds `<name><suffix>` next to it.
class FunctionDifferentiator {
public:
  FunctionDifferentiator(func::FuncOp primal, StringRef adjointName,
                         bool resetOutputs)
      : primal(primal), adjointName(adjointName), resetOutputs(resetOutputs),
        builder(primal.getContext()) {}

  LogicalResult run();
  func::FuncOp getAdjoint() const { return adjoint; }

private:
  LogicalResult checkSupported();
  LogicalResult createAdjointFunction();
  void computeActivity();
  LogicalResult emitForwardSweep();
  LogicalResult emitReverseSweep();
  LogicalResult reverseDomain(DomainOp domain);
  LogicalResult checkClobberedReads(DomainOp domain, DomainOp adjointDomain);
  void emitResets(DomainOp domain, ArrayRef<StoreOp> stores);

  func::FuncOp primal;
  std::string adjointName;
  bool resetOutputs;
  OpBuilder builder;

  func::FuncOp adjoint;
  /// Indices of the active arguments of the primal.
  SmallVector<unsigned> activeArgs;
  /// The state of the top level: primal values are the forward-sweep
  /// copies, shadows the shadow arguments and allocations.
  AdjointState top;
  /// Top-level domains of the primal, in order, and whether each is
  /// replayed by the forward sweep.
  SmallVector<DomainOp> domains;
  llvm::DenseSet<Operation *> replayed;
  /// Per domain, the arrays it reads that a later replayed domain
  /// overwrites in the forward sweep, with that domain: the domain's
  /// adjoint may not read them (checkClobberedReads).
  llvm::DenseMap<Operation *, SmallVector<std::pair<Value, DomainOp>>>
      clobbered;
  /// Ops to emit at the end of the adjoint (deallocations).
  SmallVector<Operation *> deferred;
  SmallVector<Value> shadowAllocs;
};

} // namespace

LogicalResult FunctionDifferentiator::checkSupported() {
  if (primal.isExternal())
    return primal.emitOpError(
        "is a declaration; only functions with a body can be differentiated");
  if (!primal.getBody().hasOneBlock())
    return primal.emitOpError(
        "has several blocks; only straight-line functions can be "
        "differentiated");
  for (BlockArgument arg : primal.getArguments()) {
    // The dialect verifier has checked the types of active arguments.
    if (primal.getArgAttr(arg.getArgNumber(), kActiveAttr))
      activeArgs.push_back(arg.getArgNumber());
  }
  // Arrays with shadows, and arrays that domains write.
  llvm::DenseSet<Value> activeArrays, written;
  for (unsigned index : activeArgs)
    activeArrays.insert(primal.getArgument(index));
  for (Operation &op : primal.getBody().front()) {
    if (auto alloc = dyn_cast<memref::AllocOp>(op))
      activeArrays.insert(alloc.getResult());
    if (auto domain = dyn_cast<DomainOp>(op)) {
      llvm::SetVector<Value> reads, writes;
      getDomainArrays(domain, reads, writes);
      written.insert(writes.begin(), writes.end());
    }
  }
  for (Operation &op : primal.getBody().front())
    if (failed(checkTopLevelOp(&op, activeArrays, written)))
      return failure();
  for (Type type : primal.getResultTypes())
    if (!isStencilFloat(type))
      return primal.emitOpError()
             << "returns a value of type " << type
             << "; functions to differentiate may only return f32/f64";
  if (activeArgs.empty())
    return primal.emitOpError() << "has no argument marked " << kActiveAttr;
  return success();
}

/// Marks what each argument of `adjoint` is beyond the primal's (the C
/// interface reports it as the argument's role): the shadows of the primal
/// arguments `activeArgs`, a seed per primal result, the extra arguments.
static void setAdjointArgumentRoles(
    func::FuncOp adjoint, ArrayRef<unsigned> activeArgs,
    ArrayRef<std::pair<Type, StringRef>> extra) {
  Builder b(adjoint.getContext());
  SmallVector<int64_t> shadows(activeArgs.begin(), activeArgs.end());
  adjoint->setAttr(StencilDialect::ShadowsOfAttrHelper::getNameStr(),
                   b.getDenseI64ArrayAttr(shadows));
  SmallVector<Attribute> names;
  for (auto [type, argName] : extra)
    names.push_back(b.getStringAttr(argName));
  adjoint->setAttr(StencilDialect::ExtraArgsAttrHelper::getNameStr(),
                   b.getArrayAttr(names));
}

FailureOr<func::FuncOp> ad::createAdjointSignature(
    OpBuilder &builder, func::FuncOp primal, ArrayRef<unsigned> activeArgs,
    StringRef name, ArrayRef<std::pair<Type, StringRef>> extra) {
  auto module = primal->getParentOfType<ModuleOp>();
  if (SymbolTable::lookupSymbolIn(module, name))
    return primal.emitOpError()
           << "cannot create its adjoint: a symbol named '" << name
           << "' already exists";
  SmallVector<Type> types(primal.getArgumentTypes());
  for (unsigned index : activeArgs) {
    Type type = primal.getArgumentTypes()[index];
    types.push_back(isa<MemRefType>(type) ? type : MemRefType::get({}, type));
  }
  llvm::append_range(types, primal.getResultTypes());
  for (auto [type, argName] : extra)
    types.push_back(type);

  OpBuilder::InsertionGuard guard(builder);
  builder.setInsertionPointAfter(primal);
  auto adjoint = func::FuncOp::create(builder, primal.getLoc(), name,
                                      builder.getFunctionType(types, {}));
  adjoint.setVisibility(primal.getVisibility());
  adjoint->setAttr(StencilDialect::AdjointOfAttrHelper::getNameStr(),
                   FlatSymbolRefAttr::get(primal.getNameAttr()));
  Block *entry = adjoint.addEntryBlock();

  // Argument names travel as NameLoc locations (the C header takes them
  // from there): the primal's, then `<x>_b` for the shadow of x, then
  // `seed` (`seed<i>` for several), then the extra arguments.
  MLIRContext *ctx = primal.getContext();
  auto named = [&](Location loc, const Twine &argName) -> Location {
    return NameLoc::get(StringAttr::get(ctx, argName), loc);
  };
  unsigned numArgs = primal.getNumArguments();
  for (unsigned i = 0; i < numArgs; ++i)
    entry->getArgument(i).setLoc(primal.getArgument(i).getLoc());
  setAdjointArgumentRoles(adjoint, activeArgs, extra);
  for (auto [k, index] : llvm::enumerate(activeArgs)) {
    Location loc = primal.getArgument(index).getLoc();
    if (auto argName = dyn_cast<NameLoc>(loc))
      entry->getArgument(numArgs + k)
          .setLoc(named(loc, argName.getName().getValue() + "_b"));
  }
  unsigned firstSeed = numArgs + activeArgs.size();
  unsigned numSeeds = primal.getNumResults();
  for (unsigned k = 0; k < numSeeds; ++k)
    entry->getArgument(firstSeed + k)
        .setLoc(named(primal.getLoc(),
                      numSeeds == 1 ? Twine("seed") : "seed" + Twine(k)));
  for (auto [k, item] : llvm::enumerate(extra))
    entry->getArgument(firstSeed + numSeeds + k)
        .setLoc(named(primal.getLoc(), item.second));
  return adjoint;
}

LogicalResult FunctionDifferentiator::createAdjointFunction() {
  FailureOr<func::FuncOp> created =
      ad::createAdjointSignature(builder, primal, activeArgs, adjointName);
  if (failed(created))
    return failure();
  adjoint = *created;
  Block *entry = &adjoint.getBody().front();
  builder.setInsertionPointToStart(entry);
  ad::mapAdjointArguments(primal, entry, activeArgs, top);
  return success();
}

void ad::mapAdjointArguments(func::FuncOp primal, Block *entry,
                             ArrayRef<unsigned> activeArgs,
                             AdjointState &state) {
  unsigned numArgs = primal.getNumArguments();
  for (unsigned i = 0; i < numArgs; ++i)
    state.primal.map(primal.getArgument(i), entry->getArgument(i));
  for (auto [k, index] : llvm::enumerate(activeArgs)) {
    Value arg = primal.getArgument(index);
    if (isa<MemRefType>(arg.getType()))
      state.shadows[arg] = entry->getArgument(numArgs + k);
  }
}

void FunctionDifferentiator::computeActivity() {
  for (unsigned index : activeArgs)
    if (isStencilFloat(primal.getArgument(index).getType()))
      top.active.insert(primal.getArgument(index));
  // Allocated temporaries always get shadows.
  for (auto alloc : primal.getBody().getOps<memref::AllocOp>())
    if (isStencilFloat(alloc.getType().getElementType()))
      top.shadows[alloc.getResult()] = Value();

  auto anyActive = [&](Operation *op) {
    bool found = false;
    op->walk([&](Operation *nested) {
      for (Value operand : nested->getOperands())
        found |= top.active.contains(operand);
    });
    return found;
  };
  auto markResults = [&](Operation *op) {
    if (!anyActive(op))
      return;
    for (Value result : op->getResults())
      if (isStencilFloat(result.getType()))
        top.active.insert(result);
  };
  for (Operation &op : primal.getBody().front()) {
    auto domain = dyn_cast<DomainOp>(op);
    if (!domain) {
      markResults(&op);
      continue;
    }
    for (Operation &inner : domain.getBodyBlock()->getOperations()) {
      if (auto gather = dyn_cast<GatherOp>(inner)) {
        if (top.shadows.count(gather.getArray()))
          top.active.insert(gather.getResult());
        continue;
      }
      markResults(&inner);
    }
    for (auto [result, value] :
         llvm::zip_equal(domain.getResults(), domain.getYield().getValues()))
      if (top.active.contains(value))
        top.active.insert(result);
  }
}

LogicalResult FunctionDifferentiator::emitForwardSweep() {
  // A domain is replayed if a later domain reads an array it writes or if
  // its results are used by later scalar code (a result that is only
  // returned needs no primal value).
  for (auto domain : primal.getBody().getOps<DomainOp>())
    domains.push_back(domain);
  SmallVector<llvm::SetVector<Value>> reads(domains.size()),
      writes(domains.size());
  for (auto [i, domain] : llvm::enumerate(domains))
    getDomainArrays(domain, reads[i], writes[i]);
  for (size_t i = 0; i < domains.size(); ++i) {
    bool needed = llvm::any_of(domains[i]->getUsers(), [](Operation *user) {
      return !isa<func::ReturnOp>(user);
    });
    for (size_t k = i + 1; k < domains.size() && !needed; ++k)
      needed = llvm::any_of(writes[i], [&](Value array) {
        return reads[k].contains(array);
      });
    if (needed)
      replayed.insert(domains[i]);
  }
  // Replaying a domain must not clobber values an earlier domain's adjoint
  // reads: that would need a copy of the array. Whether the adjoint reads
  // them is known once it is built (a linear domain's does not).
  for (size_t k = 0; k < domains.size(); ++k)
    for (size_t j = k + 1; j < domains.size(); ++j) {
      if (!replayed.contains(domains[j]))
        continue;
      for (Value array : writes[j])
        if (reads[k].contains(array))
          clobbered[domains[k]].push_back({array, domains[j]});
    }

  for (Operation &op : primal.getBody().front()) {
    if (isa<func::ReturnOp>(op))
      continue;
    if (auto domain = dyn_cast<DomainOp>(op)) {
      if (replayed.contains(domain))
        builder.clone(op, top.primal);
      continue;
    }
    if (isa<memref::DeallocOp>(op)) {
      deferred.push_back(&op);
      continue;
    }
    Operation *copy = builder.clone(op, top.primal);
    if (auto alloc = dyn_cast<memref::AllocOp>(copy)) {
      auto shadowIt = top.shadows.find(op.getResult(0));
      if (shadowIt == top.shadows.end())
        continue;
      auto shadow = cast<memref::AllocOp>(builder.clone(*copy));
      emitZeroFill(builder, op.getLoc(), shadow.getResult());
      shadowIt->second = shadow.getResult();
      shadowAllocs.push_back(shadow.getResult());
    }
  }
  return success();
}

LogicalResult ad::reverseScalarOp(OpBuilder &builder, Operation *op,
                                  AdjointState &state) {
  if (llvm::none_of(op->getResults(),
                    [&](Value result) { return state.getAdjoint(result); }))
    return success();
  auto rule = dyn_cast<AdjointOpInterface>(op);
  if (!rule)
    return emitNoAdjointRule(op);
  return rule.emitAdjoint(builder, state);
}

Value ad::getAdjointOrZero(OpBuilder &builder, Location loc,
                           const AdjointState &state, Value value) {
  if (Value adjoint = state.getAdjoint(value))
    return adjoint;
  return arith::ConstantOp::create(builder, loc, value.getType(),
                                   builder.getFloatAttr(value.getType(), 0.0));
}

void ad::addScalarGradients(OpBuilder &builder, func::FuncOp primal,
                            Block *entry, ArrayRef<unsigned> activeArgs,
                            const AdjointState &state) {
  unsigned numArgs = primal.getNumArguments();
  Location loc = primal.getLoc();
  for (auto [k, index] : llvm::enumerate(activeArgs)) {
    Value arg = primal.getArgument(index);
    Value gradient = state.getAdjoint(arg);
    if (isa<MemRefType>(arg.getType()) || !gradient)
      continue;
    Value shadow = entry->getArgument(numArgs + k);
    Value old = memref::LoadOp::create(builder, loc, shadow);
    Value sum = arith::AddFOp::create(builder, loc, old, gradient);
    memref::StoreOp::create(builder, loc, sum, shadow);
  }
}

void FunctionDifferentiator::emitResets(DomainOp domain,
                                        ArrayRef<StoreOp> stores) {
  if (!resetOutputs || stores.empty())
    return;
  Location loc = domain.getLoc();
  SmallVector<Value> operands;
  for (Value operand : domain.getBoundOperands())
    operands.push_back(top.primal.lookupOrDefault(operand));
  auto reset = DomainOp::create(builder, loc, domain, operands);
  OpBuilder::InsertionGuard guard(builder);
  builder.setInsertionPoint(reset.getYield());
  llvm::SmallDenseMap<Type, Value> zeros;
  for (StoreOp store : stores) {
    Type type = store.getValue().getType();
    Value &zero = zeros[type];
    if (!zero)
      zero = arith::ConstantOp::create(builder, loc, type,
                                       builder.getFloatAttr(type, 0.0));
    StoreOp::create(builder, store.getLoc(), zero,
                    top.getShadow(store.getArray()), store.getDimsAttr());
  }
}

LogicalResult FunctionDifferentiator::reverseDomain(DomainOp domain) {
  Location loc = domain.getLoc();
  // Active values defined above the domain (scalars such as a coefficient)
  // receive sums over the domain: the adjoint domain returns them.
  llvm::SetVector<Value> captures;
  domain.getBody().walk([&](Operation *op) {
    for (Value operand : op->getOperands())
      if (top.isActive(operand) &&
          !domain.getBody().isAncestor(operand.getParentRegion()))
        captures.insert(operand);
  });

  SmallVector<Value> operands;
  for (Value operand : domain.getBoundOperands())
    operands.push_back(top.primal.lookupOrDefault(operand));
  SmallVector<Type> resultTypes;
  for (Value capture : captures)
    resultTypes.push_back(capture.getType());
  auto adjointDomain =
      DomainOp::create(builder, loc, domain, operands, resultTypes);
  Block *body = adjointDomain.getBodyBlock();

  AdjointState state;
  state.active = top.active;
  state.shadows = top.shadows;
  for (Value result : domain.getResults())
    state.resultSeeds.push_back(top.getAdjoint(result));
  // Values from above are seen through the forward-sweep mapping; the
  // body is recomputed from the primal arrays.
  state.primal = top.primal;
  for (auto [from, to] : llvm::zip_equal(domain.getInductionVars(),
                                         adjointDomain.getInductionVars()))
    state.primal.map(from, to);

  // Without results the domain already holds its implicit terminator.
  OpBuilder bodyBuilder = OpBuilder::atBlockEnd(body);
  if (!body->empty())
    bodyBuilder.setInsertionPoint(body->getTerminator());
  for (Operation &op : domain.getBodyBlock()->without_terminator()) {
    auto access = dyn_cast<AccessOpInterface>(op);
    if (access && access.isWrite())
      continue;
    bodyBuilder.clone(op, state.primal);
  }

  for (Operation &op : llvm::reverse(domain.getBodyBlock()->getOperations())) {
    bool relevant = isa<AccessOpInterface, YieldOp>(op) && !isa<GatherOp>(op);
    relevant |= llvm::any_of(op.getResults(), [&](Value result) {
      return state.getAdjoint(result);
    });
    if (!relevant)
      continue;
    auto rule = dyn_cast<AdjointOpInterface>(op);
    if (!rule)
      return emitNoAdjointRule(&op);
    if (failed(rule.emitAdjoint(bodyBuilder, state)))
      return failure();
  }

  if (!resultTypes.empty()) {
    SmallVector<Value> sums;
    for (Value capture : captures)
      sums.push_back(ad::getAdjointOrZero(bodyBuilder, loc, state, capture));
    YieldOp::create(bodyBuilder, loc, sums);
  }
  eraseDeadBodyOps(*body);
  if (failed(checkClobberedReads(domain, adjointDomain)))
    return failure();

  bool writes = llvm::any_of(*body, [](Operation &op) {
    auto access = dyn_cast<AccessOpInterface>(op);
    return access && access.isWrite();
  });
  // A domain through which no gradient flows (it stores constants, say)
  // has nothing to write; it goes, but its outputs' shadows are still
  // reset below. Its results, if any, are read before it could go.
  if (!writes && resultTypes.empty())
    adjointDomain.erase();
  else
    for (auto [capture, sum] :
         llvm::zip_equal(captures, adjointDomain->getResults()))
      top.addAdjoint(builder, loc, capture, sum);

  emitResets(domain, state.resets);
  return success();
}

LogicalResult
FunctionDifferentiator::checkClobberedReads(DomainOp domain,
                                            DomainOp adjointDomain) {
  for (auto [array, writer] : clobbered.lookup(domain)) {
    Value replayedArray = top.primal.lookupOrDefault(array);
    WalkResult reads = adjointDomain.getBody().walk([&](Operation *op) {
      return llvm::is_contained(op->getOperands(), replayedArray)
                 ? WalkResult::interrupt()
                 : WalkResult::advance();
    });
    if (!reads.wasInterrupted())
      continue;
    InFlightDiagnostic diag = writer.emitOpError(
        "overwrites an array that an earlier domain reads, and its result "
        "is needed later; differentiating this would need a copy of the "
        "array, which is not supported yet");
    diag.attachNote(domain.getLoc())
        << "earlier domain reading it, whose adjoint needs its old values";
    return diag;
  }
  return success();
}

LogicalResult FunctionDifferentiator::emitReverseSweep() {
  Block &entry = adjoint.getBody().front();
  unsigned numArgs = primal.getNumArguments();
  unsigned firstSeed = numArgs + activeArgs.size();

  auto ret = cast<func::ReturnOp>(primal.getBody().front().getTerminator());
  for (auto [i, operand] : llvm::enumerate(ret.getOperands()))
    top.addAdjoint(builder, ret.getLoc(), operand,
                   entry.getArgument(firstSeed + i));

  for (Operation &op : llvm::reverse(primal.getBody().front())) {
    if (isa<func::ReturnOp, memref::AllocOp, memref::DeallocOp>(op))
      continue;
    LogicalResult result = isa<DomainOp>(op)
                               ? reverseDomain(cast<DomainOp>(op))
                               : ad::reverseScalarOp(builder, &op, top);
    if (failed(result))
      return failure();
  }

  // Gradients of active scalars are added to their shadow memrefs.
  ad::addScalarGradients(builder, primal, &entry, activeArgs, top);

  for (Operation *op : deferred)
    builder.clone(*op, top.primal);
  for (Value shadow : shadowAllocs)
    memref::DeallocOp::create(builder, primal.getLoc(), shadow);
  func::ReturnOp::create(builder, primal.getLoc());
  return success();
}

LogicalResult FunctionDifferentiator::run() {
  if (failed(checkSupported()) || failed(createAdjointFunction()))
    return failure();
  computeActivity();
  if (succeeded(emitForwardSweep()) && succeeded(emitReverseSweep()))
    return success();
  adjoint.erase();
  return failure();
}

FailureOr<func::FuncOp>
ad::differentiateStraightLine(func::FuncOp primal, StringRef name,
                                  bool resetOutputs) {
  FunctionDifferentiator differentiator(primal, name, resetOutputs);
  if (failed(differentiator.run()))
    return failure();
  return differentiator.getAdjoint();
}

/// Returns the time loop at the top level of `func`, if it has one.
static scf::ForOp findTimeLoop(func::FuncOp func) {
  if (func.isExternal() || !func.getBody().hasOneBlock())
    return {};
  auto loops = func.getBody().front().getOps<scf::ForOp>();
  return loops.empty() ? scf::ForOp() : *loops.begin();
}

namespace {
struct StencilAdjointPass
    : public mlir::stencil::impl::StencilAdjointPassBase<StencilAdjointPass> {
  using Base::Base;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    if (failed(checkReservedSymbols(module)))
      return signalPassFailure();
    SmallVector<func::FuncOp> targets;
    if (!functions.empty()) {
      for (const std::string &name : functions) {
        auto func = module.lookupSymbol<func::FuncOp>(name);
        if (!func) {
          module.emitError() << "stencil-adjoint: no function named '"
                             << name << "'";
          return signalPassFailure();
        }
        targets.push_back(func);
      }
    } else {
      for (auto func : module.getOps<func::FuncOp>())
        if (!func.isExternal() &&
            llvm::any_of(func.getArguments(), [&](BlockArgument arg) {
              return func.getArgAttr(arg.getArgNumber(), kActiveAttr);
            }))
          targets.push_back(func);
    }
    bool failed = false;
    for (func::FuncOp func : targets) {
      if (StencilDialect::DistributionAttrHelper(&getContext())
              .isAttrPresent(func)) {
        func.emitOpError()
            << "is already distributed by --stencil-distribute, whose "
               "run-time calls and block views have no adjoint; run "
               "--stencil-adjoint before --stencil-distribute";
        failed = true;
        continue;
      }
      std::string name = (func.getName() + suffix).str();
      FailureOr<func::FuncOp> adjoint;
      if (scf::ForOp loop = findTimeLoop(func))
        adjoint = ad::differentiateTimeLoop(
            func, loop, name,
            ad::TimeLoopOptions{resetOutputAdjoints, snapshotBorders,
                                deferHandOvers, report});
      else
        adjoint =
            ad::differentiateStraightLine(func, name, resetOutputAdjoints);
      failed |= mlir::failed(adjoint);
      // Only for what was differentiated: a refusal says enough.
      if (mlir::succeeded(adjoint))
        ad::warnIfNoActiveOutput(func);
    }
    if (failed)
      signalPassFailure();
  }
};
} // namespace
