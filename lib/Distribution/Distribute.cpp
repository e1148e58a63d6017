//===- Distribute.cpp - Block decomposition over an MPI process grid ------===//
//
// This file implements --stencil-distribute: it checks that each function
// with stencil domains has a form the distribution supports, plans it
// (DistributionPlan.h), and builds the distributed function from the plan
// (DistributeEmitter.cpp).
//
//===----------------------------------------------------------------------===//

#include "DistributeEmitter.h"
#include "Stencil/Distribution/DistributionPlan.h"
#include "Stencil/Distribution/Passes.h"
#include "Stencil/Dialect/StencilOps.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/DLTI/DLTI.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Shard/IR/ShardDialect.h"
#include "mlir/Dialect/Shard/IR/ShardOps.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "llvm/Support/CheckedArithmetic.h"

namespace mlir::stencil {
#define GEN_PASS_DEF_STENCILDISTRIBUTEPASS
#include "Stencil/Distribution/Passes.h.inc"
} // namespace mlir::stencil

using namespace mlir;
using namespace mlir::stencil;

/// Whether `type` can be a distributed array over a grid of rank `rank`.
static bool isDistributable(Type type, unsigned rank) {
  auto memref = dyn_cast<MemRefType>(type);
  return memref && memref.getRank() == rank &&
         memref.getLayout().isIdentity() &&
         llvm::all_of(memref.getShape(), ShapedType::isDynamic);
}

/// Whether `value` is a state of the time loop `loop` (a memref iter_arg).
static bool isLoopState(Value value, scf::ForOp loop) {
  auto arg = dyn_cast<BlockArgument>(value);
  return loop && arg && arg.getOwner() == loop.getBody() &&
         arg.getArgNumber() >= loop.getNumInductionVars() &&
         isa<MemRefType>(arg.getType());
}

/// Whether `value` is an array result of the time loop `loop` (a final
/// state, which domains after the loop read).
static bool isFinalState(Value value, scf::ForOp loop) {
  return loop && value.getDefiningOp() == loop.getOperation() &&
         isa<MemRefType>(value.getType());
}

/// The argument of `func` that `array` is, or is a subview of (through
/// any number of subviews); null for anything else.
static BlockArgument getArgumentRoot(Value array, func::FuncOp func) {
  while (auto view = array.getDefiningOp<memref::SubViewOp>())
    array = view.getSource();
  auto arg = dyn_cast<BlockArgument>(array);
  return arg && arg.getOwner() == &func.getBody().front() ? arg : nullptr;
}

/// Whether `access` reads an array that every rank holds whole (the caller
/// passes the global array to each): through a subview of an argument, an
/// argument whose rank is not the grid's, or `dims` that are not a
/// permutation (a selection, repetition or fixed element). Its indices are
/// global, so it needs neither a view nor an exchange.
static bool isReplicatedRead(AccessOpInterface access, func::FuncOp func,
                             unsigned rank) {
  Value array = access.getAccessedArray();
  BlockArgument root = getArgumentRoot(array, func);
  return !access.isWrite() && root &&
         (root != array ||
          cast<MemRefType>(array.getType()).getRank() != int64_t(rank) ||
          !isPermutationAccess(access, rank));
}

/// Whether `acc` is a reduction into an argument (its `dims` are not a
/// permutation: a filter tap, a rank-0 parameter, a layered coefficient's
/// `vb[k]`). Such an array is replicated: each rank passes its terms to the
/// run-time library, which adds every rank's in the order of one process,
/// and every rank adds the same sums into its copy.
static bool isArgumentReduction(AccumulateOp acc, func::FuncOp func) {
  return acc.isReduction() &&
         getArgumentRoot(acc.getArray(), func) == acc.getArray();
}

/// Checks one access of a distributed function and returns the number of
/// its array among `dist.arrays` (added when new), or nothing for a
/// replicated array (its argument is added to `dist.replicated`).
static FailureOr<std::optional<unsigned>>
checkAccess(AccessOpInterface access, DistributedFunction &dist,
            unsigned rank) {
  if (auto acc = dyn_cast<AccumulateOp>(access.getOperation());
      acc && acc.isReduction()) {
    if (!isArgumentReduction(acc, dist.func))
      return access->emitOpError()
             << "sums into a view of an array across ranks (a reduction "
                "into a subview), which is not supported yet in a "
                "distributed function; reductions into an argument are";
    dist.replicated.insert(getArgumentRoot(acc.getArray(), dist.func));
    return std::optional<unsigned>();
  }
  if (isReplicatedRead(access, dist.func, rank)) {
    dist.replicated.insert(getArgumentRoot(access.getAccessedArray(), dist.func));
    return std::optional<unsigned>();
  }
  Value array = access.getAccessedArray();
  auto arg = dyn_cast<BlockArgument>(array);
  bool isArgument = arg && arg.getOwner() == &dist.func.getBody().front();
  if (!isArgument && !isLoopState(array, dist.loop) &&
      !isFinalState(array, dist.loop))
    return access->emitOpError()
           << "accesses an array that is not an argument of the function, "
              "a state of its time loop or one of the loop's results; "
              "distributing it is not supported yet";
  auto type = cast<MemRefType>(array.getType());
  if (!isDistributable(type, rank))
    return access->emitOpError()
           << "accesses an array of type " << type
           << "; a distributed array must be dynamically shaped, of the "
              "grid's rank ("
           << rank << ") and of identity layout";
  SmallVector<int64_t> dims = access.getIterationDims();
  for (unsigned k = 0; k < dims.size(); ++k)
    if (dims[k] != int64_t(k))
      return access->emitOpError()
             << (isPermutationAccess(access, rank)
                     ? "permutes the iteration dimensions (`dims`)"
                     : "reads a block of a distributed array through `dims` "
                       "that are not a permutation (a selection, repetition "
                       "or fixed element)")
             << "; distributing it is not supported yet";
  SmallVectorImpl<Value> &arrays = dist.arrays;
  auto *it = llvm::find(arrays, array);
  if (it != arrays.end())
    return std::optional<unsigned>(it - arrays.begin());
  arrays.push_back(array);
  return std::optional<unsigned>(arrays.size() - 1);
}

/// The dimension a domain sums over first (StencilToAffine.cpp): the first
/// whose extent is the constant 1 in no bound form, after the constant
/// operands are folded into the bounds (as the lowering folds them first,
/// so that one process picks the same dimension).
static unsigned getSumDimension(DomainOp domain) {
  domain.foldConstantBounds();
  unsigned k = 0;
  for (; k + 1 < domain.getRank(); ++k) {
    AffineMap lower = domain.getLowerBoundMap(k);
    AffineMap upper = domain.getUpperBoundMap(k);
    if (lower.getNumResults() != 1 || upper.getNumResults() != 1)
      break;
    AffineExpr extent = simplifyAffineExpr(
        upper.getResult(0) - lower.getResult(0),
        std::max(lower.getNumDims(), upper.getNumDims()),
        lower.getNumSymbols());
    auto constant = dyn_cast<AffineConstantExpr>(extent);
    if (!constant || constant.getValue() != 1)
      break;
  }
  return k;
}

/// Marks a domain with sums: their slices are taken along `dim`; each rank
/// holds whole slices where the grid splits no other dimension, else a box
/// whose terms the run-time library folds in the order of one process.
static void markSum(DomainOp domain, ArrayRef<int64_t> grid) {
  DistributedSum sum;
  sum.dim = getSumDimension(domain);
  for (unsigned k = 0; k < grid.size(); ++k)
    if (k != sum.dim && grid[k] != 1)
      sum.wholeSlices = false;
  setDistributedSum(domain, sum);
}

/// Checks a domain and lists its accesses.
static LogicalResult checkDomain(DomainOp domain, DistributedFunction &dist,
                                 ArrayRef<int64_t> grid,
                                 SmallVector<DistAccess> &accesses) {
  unsigned rank = grid.size();
  if (domain.getRank() != rank)
    return domain.emitOpError()
           << "has rank " << domain.getRank()
           << "; distributing it over a process grid of rank " << rank
           << " is not supported yet";
  if (domain.getNumResults() != 0 || domain.hasReduction())
    markSum(domain, grid);
  for (Operation &op : domain.getBodyBlock()->without_terminator()) {
    auto access = dyn_cast<AccessOpInterface>(&op);
    if (!access)
      continue;
    FailureOr<std::optional<unsigned>> array = checkAccess(access, dist, rank);
    if (failed(array))
      return failure();
    if (*array)
      accesses.push_back(
          {**array, access.isWrite(), access.getArrayOffset()});
  }
  return success();
}

/// A load or store of a scalar argument (the shadow of an active scalar):
/// every rank holds a copy, and the sums it gets are the same on each.
static bool isScalarArgumentAccess(Operation &op) {
  Value memref;
  if (auto load = dyn_cast<memref::LoadOp>(op))
    memref = load.getMemRef();
  else if (auto store = dyn_cast<memref::StoreOp>(op))
    memref = store.getMemRef();
  return memref && isa<BlockArgument>(memref) &&
         cast<MemRefType>(memref.getType()).getRank() == 0;
}

static bool hasDomains(Operation *op) {
  bool found = false;
  op->walk([&](DomainOp) {
    found = true;
    return WalkResult::interrupt();
  });
  return found;
}

/// Whether `func` has domains that run on blocks: at the top level or in
/// the body of a top-level loop.
static bool hasBlockDomains(func::FuncOp func) {
  for (Operation &op : func.getBody().front()) {
    if (isa<DomainOp>(op))
      return true;
    if (auto loop = dyn_cast<scf::ForOp>(op))
      if (!loop.getBody()->getOps<DomainOp>().empty())
        return true;
  }
  return false;
}

/// The value symbol or dimension `expr` of a domain's bounds stands for.
static Value getBoundOperand(DomainOp domain, AffineMap map, AffineExpr expr) {
  if (auto symbol = dyn_cast<AffineSymbolExpr>(expr))
    return domain.getBoundOperands()[map.getNumDims() + symbol.getPosition()];
  if (auto dim = dyn_cast<AffineDimExpr>(expr))
    return domain.getBoundOperands()[dim.getPosition()];
  return {};
}

/// Whether `domain` runs over whole arrays point by point: from 0 to the
/// extents (`memref.dim`) of an array argument of the grid's rank, every
/// access at offset 0 in identity `dims`, no results. On a rank it does to
/// the block and its halo what it does on one process to the whole array,
/// so the distribution leaves it as it is: the time-loop adjoint copies
/// its snapshots so.
static bool isWholeArrayDomain(DomainOp domain, unsigned rank) {
  if (domain.getRank() != rank || domain.getNumResults() != 0)
    return false;
  AffineMap lower = domain.getLowerBounds(), upper = domain.getUpperBounds();
  for (unsigned k = 0; k < rank; ++k) {
    auto zero = dyn_cast<AffineConstantExpr>(lower.getResult(k));
    Value extent = getBoundOperand(domain, upper, upper.getResult(k));
    auto dim = extent ? extent.getDefiningOp<memref::DimOp>() : nullptr;
    if (!zero || zero.getValue() != 0 || !dim ||
        dim.getConstantIndex() != std::optional<int64_t>(k))
      return false;
    auto arg = dyn_cast<BlockArgument>(dim.getSource());
    if (!arg || !isa<func::FuncOp>(arg.getOwner()->getParentOp()) ||
        !isDistributable(arg.getType(), rank))
      return false;
  }
  for (auto access : domain.getBodyBlock()->getOps<AccessOpInterface>()) {
    SmallVector<int64_t> dims = access.getIterationDims();
    for (unsigned k = 0; k < dims.size(); ++k)
      if (dims[k] != int64_t(k))
        return false;
    if (llvm::any_of(access.getArrayOffset(),
                     [](int64_t offset) { return offset != 0; }))
      return false;
  }
  return true;
}

/// Whether `domain` copies a part of a border snapshot: it is in the
/// branch of an `scf.if` that the flag marked `stencil.snapshot_borders`
/// selects. Its parts are bounded by the box a step overwrites, which
/// localizeGlobalIndices states in the rank's terms, and by the local
/// extents: on a rank it copies the border of the rank's block.
static bool isBorderCopy(DomainOp domain) {
  for (auto choice = domain->getParentOfType<scf::IfOp>(); choice;
       choice = choice->getParentOfType<scf::IfOp>()) {
    auto flag = choice.getCondition().getDefiningOp<arith::ConstantOp>();
    if (flag &&
        flag->hasAttr(StencilDialect::SnapshotBordersAttrHelper::getNameStr()))
      return choice.getThenRegion().isAncestor(domain->getParentRegion());
  }
  return false;
}

/// Checks that the domains of a function without block domains are whole
/// array ones or copies of border snapshots.
static LogicalResult checkNestedDomains(func::FuncOp func, unsigned rank) {
  WalkResult result = func.walk([&](DomainOp domain) {
    if (isWholeArrayDomain(domain, rank) || isBorderCopy(domain))
      return WalkResult::advance();
    domain.emitOpError()
        << "is nested in a region other than a function's body or its "
           "time loop's; distributing it is not supported yet";
    return WalkResult::interrupt();
  });
  return failure(result.wasInterrupted());
}

/// The time loop of `func`: its one top-level `scf.for` with domains, or
/// null.
static FailureOr<scf::ForOp> findTimeLoop(func::FuncOp func) {
  scf::ForOp loop;
  for (auto forOp : func.getBody().front().getOps<scf::ForOp>()) {
    if (!hasDomains(forOp))
      continue;
    if (loop)
      return forOp.emitOpError()
             << "is a second time loop with domains in one function; "
                "distributing it is not supported yet";
    loop = forOp;
  }
  return loop;
}

/// Collects the domains of `block` (the function's body or its time
/// loop's) and their accesses, reporting every form the distribution does
/// not support.
static LogicalResult collectBlock(Block &block, ArrayRef<int64_t> grid,
                                  DistributedFunction &dist) {
  for (Operation &op : block) {
    if (auto domain = dyn_cast<DomainOp>(&op)) {
      dist.domains.push_back(domain);
      if (failed(checkDomain(domain, dist, grid, dist.accesses.emplace_back())))
        return failure();
      continue;
    }
    if (&op == dist.loop.getOperation()) {
      dist.head = dist.domains.size();
      if (failed(collectBlock(*dist.loop.getBody(), grid, dist)))
        return failure();
      dist.body = dist.domains.size() - dist.head;
      continue;
    }
    if (isa<func::ReturnOp, scf::YieldOp>(op) || isScalarArgumentAccess(op) ||
        isa<memref::LoadOp>(op))
      continue;
    if (isPure(&op) && op.getNumRegions() == 0)
      continue;
    return op.emitOpError()
           << "is not supported yet in a function distributed by "
              "--stencil-distribute";
  }
  return success();
}

/// Whether `user`, a user of a function argument that no domain accesses
/// as a block, treats it as every rank's whole copy (reads, subviews that
/// domains read, checkAccess saw to that) or starts a loop state from it.
static bool isReplicatedUse(Operation *user, scf::ForOp loop) {
  return isScalarArgumentAccess(*user) ||
         isa<memref::LoadOp, memref::DimOp, memref::SubViewOp>(user) ||
         user->getParentOfType<DomainOp>() || user == loop.getOperation();
}

/// Whether every use of `arg` other than starting a state of the time loop
/// `loop` is before the loop: domains before it may write the array a
/// state starts from (the head), where no state aliases it yet.
static bool isUsedBeforeLoopOnly(BlockArgument arg, scf::ForOp loop) {
  return llvm::all_of(arg.getUsers(), [&](Operation *user) {
    if (user == loop.getOperation())
      return true;
    Operation *top = loop->getBlock()->findAncestorOpInBlock(*user);
    return top && top->isBeforeInBlock(loop);
  });
}

/// Checks that the loop yields its states as a permutation of them: each
/// state buffer is then exactly one result, and no two arrays the plan
/// keeps apart alias.
static LogicalResult checkRotation(scf::ForOp loop) {
  llvm::SmallDenseSet<Value> seen;
  for (auto [state, yielded] :
       llvm::zip(loop.getRegionIterArgs(), loop.getYieldedValues())) {
    if (!isa<MemRefType>(state.getType()))
      continue;
    if (!isLoopState(yielded, loop) || !seen.insert(yielded).second)
      return loop.emitOpError()
             << "yields its arrays other than as a permutation of its states "
                "(scf.yield %cur, %next, %prev); distributing it is not "
                "supported yet";
  }
  return success();
}

/// Checks that every use of the loop's array results is in a domain after
/// it (the tail reads the final states).
static LogicalResult checkFinalStateUses(scf::ForOp loop) {
  for (Value result : loop.getResults()) {
    if (!isa<MemRefType>(result.getType()))
      continue;
    for (Operation *user : result.getUsers())
      if (!user->getParentOfType<DomainOp>())
        return user->emitOpError()
               << "uses a final state of the time loop outside a domain; "
                  "distributing it is not supported yet";
  }
  return success();
}

/// Checks that distributed arrays are used in domains only, replicated
/// arrays only read, and the time loop's states started from arguments
/// and rotated by its `scf.yield` alone.
static LogicalResult checkArrayUses(DistributedFunction &dist, unsigned rank) {
  scf::ForOp loop = dist.loop;
  for (BlockArgument arg : dist.func.getArguments()) {
    if (!isa<MemRefType>(arg.getType()))
      continue;
    bool distributed = llvm::is_contained(dist.arrays, arg);
    if (distributed && dist.replicated.contains(arg))
      return emitError(arg.getLoc())
             << "argument " << arg.getArgNumber()
             << " is accessed both as a block (through the identity `dims`) "
                "and whole (through a subview, a selection, a fixed element "
                "or a reduction); distributing it is not "
                "supported yet";
    for (Operation *user : arg.getUsers()) {
      if (distributed ? bool(user->getParentOfType<DomainOp>())
                      : isReplicatedUse(user, loop))
        continue;
      if (distributed && user == loop.getOperation()) {
        if (isUsedBeforeLoopOnly(arg, loop))
          continue;
        return user->emitOpError()
               << "starts a state from an array that domains in or after "
                  "the loop also access directly; distributing it is not "
                  "supported yet";
      }
      if (distributed)
        return user->emitOpError()
               << "uses a distributed array outside a domain; this is not "
                  "supported yet";
      return user->emitOpError()
             << "uses an array that no domain accesses, which every rank "
                "holds whole, other than by reading it; this is not "
                "supported yet";
    }
  }
  if (!loop)
    return success();
  SmallVector<Value> starts;
  for (auto [init, state, result] : llvm::zip(
           loop.getInitArgs(), loop.getRegionIterArgs(), loop.getResults())) {
    if (!isa<MemRefType>(state.getType()))
      continue;
    auto arg = dyn_cast<BlockArgument>(init);
    // An argument domains access directly was checked above: only the
    // head may.
    if (!arg || arg.getOwner() != &dist.func.getBody().front() ||
        dist.replicated.contains(arg) || llvm::is_contained(starts, arg))
      return loop.emitOpError()
             << "starts a state from a value that is not an argument of the "
                "function used nowhere else; distributing it is not "
                "supported yet";
    if (!isDistributable(state.getType(), rank))
      return loop.emitOpError()
             << "has a state of type " << state.getType()
             << "; a distributed array must be dynamically shaped, of the "
                "grid's rank ("
             << rank << ") and of identity layout";
    starts.push_back(arg);
    for (Operation *user : state.getUsers())
      if (!isa<scf::YieldOp>(user) && !user->getParentOfType<DomainOp>())
        return user->emitOpError()
               << "uses a time-loop state outside a domain; distributing it "
                  "is not supported yet";
  }
  if (failed(checkRotation(loop)))
    return failure();
  return checkFinalStateUses(loop);
}

/// Splits the domains of `block` that compute sums (results, reductions)
/// and write otherwise: the sums are taken over the rank's own points only,
/// the writes may reach beyond them.
static void splitSumDomains(Block &block) {
  IRRewriter rewriter(block.getParentOp()->getContext());
  for (auto domain : llvm::make_early_inc_range(block.getOps<DomainOp>()))
    if ((domain.getNumResults() != 0 || domain.hasReduction()) &&
        llvm::any_of(*domain.getBodyBlock(), isPermutationWrite))
      splitDomainResults(rewriter, domain);
}

/// Collects the domains of `func` and their accesses and plans them.
static LogicalResult collectFunction(func::FuncOp func, ArrayRef<int64_t> grid,
                                     DistributedFunction &dist) {
  if (!func.getBody().hasOneBlock())
    return func.emitOpError()
           << "has more than one block; distributing it is not supported yet";
  FailureOr<scf::ForOp> loop = findTimeLoop(func);
  if (failed(loop))
    return failure();
  dist.func = func;
  dist.loop = *loop;
  splitSumDomains(func.getBody().front());
  if (dist.loop)
    splitSumDomains(*dist.loop.getBody());
  if (failed(collectBlock(func.getBody().front(), grid, dist)) ||
      failed(checkArrayUses(dist, grid.size())))
    return failure();
  if (!dist.loop) {
    dist.plan = planDistribution(dist.accesses, dist.arrays.size(), grid.size());
    return success();
  }
  SmallVector<bool> invariant;
  for (Value array : dist.arrays) {
    auto arg = dyn_cast<BlockArgument>(array);
    invariant.push_back(arg && arg.getOwner() == &func.getBody().front());
  }
  unsigned tail = dist.domains.size() - dist.head - dist.body;
  dist.plan = planTimeLoopDistribution(dist.accesses, dist.head, tail,
                                       dist.arrays.size(), grid.size(),
                                       invariant);
  return success();
}

/// Functions that call a distributed function (the adjoint of a time loop
/// calls its step functions) gain the global extents too, and pass them on
/// at every such call.
static void distributeCallers(ModuleOp module,
                              DenseSet<Operation *> &distributed,
                              ArrayRef<int64_t> grid, int64_t halo) {
  unsigned rank = grid.size();
  auto callsDistributed = [&](func::FuncOp func) {
    bool found = false;
    func.walk([&](func::CallOp call) {
      if (distributed.contains(module.lookupSymbol(call.getCalleeAttr())))
        found = true;
    });
    return found;
  };
  for (bool changed = true; changed;) {
    changed = false;
    for (auto func : module.getOps<func::FuncOp>())
      if (!func.isExternal() && !distributed.contains(func) &&
          callsDistributed(func)) {
        markDistributed(func, grid, halo);
        distributed.insert(func);
        changed = true;
      }
  }
  module.walk([&](func::CallOp call) {
    if (!distributed.contains(module.lookupSymbol(call.getCalleeAttr())))
      return;
    auto caller = call->getParentOfType<func::FuncOp>();
    call.getOperandsMutable().append(
        caller.getArguments().take_back(rank));
  });
}

/// The border snapshots of a reversed time loop (`--stencil-adjoint`,
/// snapshot-borders) keep what lies outside the box a step overwrites. Its
/// bounds, marked `stencil.global_index`, become each rank's
/// (localizeGlobalIndices). In a function whose flag selects borders
/// without such marks, the snapshots keep whole arrays on every rank: this
/// sets the flag to false and folds what tests it (the copies' `scf.if`,
/// the slot sizes' `arith.select`).
static void dropUnmarkedSnapshotBorders(ModuleOp module) {
  SmallVector<arith::ConstantOp> flags;
  for (auto func : module.getOps<func::FuncOp>()) {
    bool marked = false;
    func.walk([&](Operation *op) {
      marked |= op->hasAttr(
          StencilDialect::GlobalIndexAttrHelper::getNameStr());
    });
    if (marked)
      continue;
    func.walk([&](arith::ConstantOp op) {
      if (op->hasAttr(StencilDialect::SnapshotBordersAttrHelper::getNameStr()))
        flags.push_back(op);
    });
  }
  for (arith::ConstantOp flag : flags) {
    for (Operation *user : llvm::make_early_inc_range(flag->getUsers())) {
      if (auto select = dyn_cast<arith::SelectOp>(user)) {
        select.replaceAllUsesWith(select.getFalseValue());
        select.erase();
      } else if (auto choice = dyn_cast<scf::IfOp>(user);
                 choice && choice.getNumResults() == 0 &&
                 !choice.getElseRegion().empty()) {
        Block &whole = choice.getElseRegion().front();
        choice->getBlock()->getOperations().splice(
            choice->getIterator(), whole.getOperations(), whole.begin(),
            whole.getTerminator()->getIterator());
        choice.erase();
      }
    }
    if (flag->use_empty())
      flag.erase();
  }
}

/// The widest halo the option accepts: every width and offset derived from
/// it (twice it, plus a plan's widths) then fits in int64.
static constexpr int64_t kMaxHalo = kMaxIndexConstant;
/// The most processes along one dimension, and in all: MPI counts ranks in
/// an `int`.
static constexpr int64_t kMaxGridExtent = int64_t(1) << 20;
static constexpr int64_t kMaxProcesses = INT32_MAX;
/// The most grid dimensions (STENCIL_DIST_MAX_DIMS of Distributed.h).
static constexpr size_t kMaxGridRank = 8;

/// Parses the `grid` option (`P0,P1,...`, each a count or `?`, or `auto`:
/// left empty here) into `grid`, with an error that says what is wrong
/// with it.
static LogicalResult parseGrid(ModuleOp module, StringRef spec,
                               SmallVectorImpl<int64_t> &grid) {
  if (spec.trim().empty())
    return module.emitError()
           << "--stencil-distribute needs a process grid: grid=P0,P1,... "
              "(`?` for an extent chosen at run time) or grid=auto";
  grid.clear();
  if (spec.trim() == "auto")
    return success();
  SmallVector<StringRef> parts;
  spec.split(parts, ',');
  if (parts.size() > kMaxGridRank)
    return module.emitError()
           << "--stencil-distribute: grid='" << spec << "' has "
           << parts.size() << " extents; at most " << kMaxGridRank
           << " are supported";
  int64_t processes = 1;
  for (auto [k, part] : llvm::enumerate(parts)) {
    if (part.trim() == "?") {
      grid.push_back(kRunTimeExtent);
      continue;
    }
    int64_t p;
    if (part.trim().getAsInteger(10, p))
      return module.emitError()
             << "--stencil-distribute: grid='" << spec << "' is not a "
             << "comma-separated list of process counts or `?` (e.g. "
                "grid=2,2 or grid=?,1): "
             << "entry " << k << " ('" << part << "') is not an integer";
    if (p < 1 || p > kMaxGridExtent)
      return module.emitError()
             << "--stencil-distribute: every grid extent must be in [1, "
                "2^20], got "
             << p;
    std::optional<int64_t> product = llvm::checkedMul(processes, p);
    if (!product || *product > kMaxProcesses)
      return module.emitError()
             << "--stencil-distribute: grid='" << spec
             << "' has more than 2^31 - 1 processes (the product of its "
                "extents); MPI counts ranks in an int";
    processes = *product;
    grid.push_back(p);
  }
  return success();
}

namespace {
struct StencilDistributePass
    : public mlir::stencil::impl::StencilDistributePassBase<StencilDistributePass> {
  using StencilDistributePassBase::StencilDistributePassBase;

  /// The process grid, parsed from `grid` by checkOptions.
  SmallVector<int64_t> grid;

  LogicalResult checkOptions(ModuleOp module) {
    if (failed(parseGrid(module, gridSpec, grid)))
      return failure();
    if (grid.empty() && failed(chooseAutoGrid(module)))
      return failure();
    if (halo < -1 || halo > kMaxHalo)
      return module.emitError()
             << "--stencil-distribute: halo must be -1 (the widest any "
                "function needs) or in [0, 2^40], got "
             << int64_t(halo);
    if (module.lookupSymbol(kGridName))
      return module.emitError()
             << "the module is already distributed (it has the process "
                "grid @"
             << kGridName << "); --stencil-distribute runs once";
    return success();
  }

  /// grid=auto: every extent chosen at run time, as many as the
  /// dimensions of the first function's domains.
  LogicalResult chooseAutoGrid(ModuleOp module) {
    for (auto func : module.getOps<func::FuncOp>()) {
      if (func.isExternal() || !hasBlockDomains(func))
        continue;
      DomainOp first;
      func.walk([&](DomainOp domain) {
        if (!first)
          first = domain;
      });
      if (first.getRank() > kMaxGridRank)
        return first.emitOpError()
               << "has rank " << first.getRank() << "; grid=auto distributes "
               << "at most " << kMaxGridRank << " dimensions";
      grid.assign(first.getRank(), kRunTimeExtent);
      return success();
    }
    return module.emitError()
           << "--stencil-distribute: grid=auto takes the grid's rank from "
              "the functions' domains, but no function has any to distribute";
  }

  void runOnOperation() override {
    ModuleOp module = getOperation();
    if (failed(checkReservedSymbols(module)) ||
        failed(checkOptions(module)))
      return signalPassFailure();
    WalkResult nonrect = module.walk([](DomainOp domain) {
      return failed(domain.requireRectangular("--stencil-distribute"))
                 ? WalkResult::interrupt()
                 : WalkResult::advance();
    });
    if (nonrect.wasInterrupted())
      return signalPassFailure();
    dropUnmarkedSnapshotBorders(module);
    unsigned rank = grid.size();
    std::vector<DistributedFunction> functions;
    int64_t widest = 0;
    for (auto func : module.getOps<func::FuncOp>()) {
      if (func.isExternal() || !hasDomains(func))
        continue;
      if (!hasBlockDomains(func)) {
        if (failed(checkNestedDomains(func, rank)))
          return signalPassFailure();
        continue;
      }
      DistributedFunction &dist = functions.emplace_back();
      if (failed(collectFunction(func, grid, dist)))
        return signalPassFailure();
      widest = std::max(widest, dist.plan.maxHalo());
      if (report) {
        std::string json;
        llvm::raw_string_ostream os(json);
        dist.plan.printJSON(os);
        func.emitRemark() << "distribution plan: " << json;
      }
    }
    if (halo >= 0 && halo < widest) {
      module.emitError() << "--stencil-distribute: halo=" << int64_t(halo)
                         << " is narrower than the " << widest
                         << " points the functions need";
      return signalPassFailure();
    }
    int64_t width = halo >= 0 ? int64_t(halo) : widest;
    emitGrid(module, grid);
    DenseSet<Operation *> distributed;
    BlockArgumentSets blocks;
    for (DistributedFunction &dist : functions) {
      for (BlockArgument arg : getBlockArguments(dist))
        blocks[dist.func].insert(arg.getArgNumber());
      emitDistributedFunction(dist, grid, width);
      distributed.insert(dist.func);
    }
    distributeCallers(module, distributed, grid, width);
    recordBlockArguments(module, distributed, blocks);
    for (auto func : module.getOps<func::FuncOp>())
      if (distributed.contains(func) &&
          failed(localizeGlobalIndices(func, grid, width)))
        return signalPassFailure();
  }
};
} // namespace
