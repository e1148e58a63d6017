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
#include "mlir/Dialect/Shard/IR/ShardDialect.h"
#include "mlir/Dialect/Shard/IR/ShardOps.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

namespace mlir::stencil {
#define GEN_PASS_DEF_STENCILDISTRIBUTEPASS
#include "Stencil/Distribution/Passes.h.inc"
} // namespace mlir::stencil

using namespace mlir;
using namespace mlir::stencil;

/// Checks one access of a distributed function and returns the number of
/// its array among `arrays` (added when new).
static FailureOr<unsigned> checkAccess(AccessOpInterface access,
                                       func::FuncOp func, unsigned rank,
                                       SmallVectorImpl<BlockArgument> &arrays) {
  Value array = access.getAccessedArray();
  auto arg = dyn_cast<BlockArgument>(array);
  if (!arg || arg.getOwner() != &func.getBody().front())
    return access->emitOpError()
           << "accesses an array that is not an argument of the function; "
              "distributing it is not supported yet";
  auto type = cast<MemRefType>(array.getType());
  if (type.getRank() != rank || !type.getLayout().isIdentity() ||
      llvm::any_of(type.getShape(),
                   [](int64_t extent) { return !ShapedType::isDynamic(extent); }))
    return access->emitOpError()
           << "accesses an array of type " << type
           << "; a distributed array must be dynamically shaped, of the "
              "grid's rank ("
           << rank << ") and of identity layout";
  SmallVector<int64_t> dims = access.getIterationDims();
  for (unsigned k = 0; k < dims.size(); ++k)
    if (dims[k] != int64_t(k))
      return access->emitOpError()
             << "permutes the iteration dimensions (`dims`); distributing "
                "it is not supported yet";
  auto *it = llvm::find(arrays, arg);
  if (it != arrays.end())
    return unsigned(it - arrays.begin());
  arrays.push_back(arg);
  return unsigned(arrays.size() - 1);
}

/// The dimension a domain sums over first (StencilToAffine.cpp): the first
/// whose extent is not the constant 1.
static unsigned getSumDimension(DomainOp domain) {
  AffineMap lower = domain.getLowerBounds(), upper = domain.getUpperBounds();
  unsigned k = 0;
  for (; k + 1 < domain.getRank(); ++k) {
    AffineExpr extent = simplifyAffineExpr(
        upper.getResult(k) - lower.getResult(k), 0, lower.getNumSymbols());
    auto constant = dyn_cast<AffineConstantExpr>(extent);
    if (!constant || constant.getValue() != 1)
      break;
  }
  return k;
}

/// A sum is reduced across ranks slice by slice in global order, which is
/// the order of one process only when the ranks split the dimension the
/// slices are taken along, and no other.
static LogicalResult checkSum(DomainOp domain, ArrayRef<int64_t> grid) {
  unsigned sumDim = getSumDimension(domain);
  for (unsigned k = 0; k < grid.size(); ++k)
    if (k != sumDim && grid[k] > 1)
      return domain.emitOpError()
             << "computes a sum whose slices are taken along dimension "
             << sumDim << ", but the process grid splits dimension " << k
             << "; summing it in the order of one process is not supported "
                "yet";
  domain->setAttr(StencilDialect::DistributedSumAttrHelper::getNameStr(),
                  UnitAttr::get(domain.getContext()));
  return success();
}

/// Checks a domain and lists its accesses.
static LogicalResult checkDomain(DomainOp domain, func::FuncOp func,
                                 ArrayRef<int64_t> grid,
                                 SmallVectorImpl<BlockArgument> &arrays,
                                 SmallVector<DistAccess> &accesses) {
  unsigned rank = grid.size();
  if (domain.getRank() != rank)
    return domain.emitOpError()
           << "has rank " << domain.getRank()
           << "; distributing it over a process grid of rank " << rank
           << " is not supported yet";
  if (domain.getNumResults() != 0 && failed(checkSum(domain, grid)))
    return failure();
  for (Operation &op : domain.getBodyBlock()->without_terminator()) {
    auto access = dyn_cast<AccessOpInterface>(&op);
    if (!access)
      continue;
    FailureOr<unsigned> array = checkAccess(access, func, rank, arrays);
    if (failed(array))
      return failure();
    accesses.push_back(
        {*array, access.isWrite(), access.getArrayOffset()});
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

/// Collects the domains of `func` and their accesses, reporting every form
/// the distribution does not support. Domains with sums and writes are
/// split first: the sums are taken over the rank's own points only, the
/// writes may reach beyond them.
static LogicalResult collectFunction(func::FuncOp func, ArrayRef<int64_t> grid,
                                     DistributedFunction &dist) {
  unsigned rank = grid.size();
  if (!func.getBody().hasOneBlock())
    return func.emitOpError()
           << "has more than one block; distributing it is not supported yet";
  IRRewriter rewriter(func.getContext());
  for (auto domain :
       llvm::make_early_inc_range(func.getBody().front().getOps<DomainOp>()))
    if (domain.getNumResults() != 0 &&
        llvm::any_of(domain.getBodyBlock()->getOps<AccessOpInterface>(),
                     [](AccessOpInterface a) { return a.isWrite(); }))
      splitDomainResults(rewriter, domain);
  dist.func = func;
  for (Operation &op : func.getBody().front()) {
    if (auto domain = dyn_cast<DomainOp>(&op)) {
      dist.domains.push_back(domain);
      if (failed(checkDomain(domain, func, grid, dist.arrays,
                             dist.accesses.emplace_back())))
        return failure();
      continue;
    }
    if (isa<func::ReturnOp>(op) || isScalarArgumentAccess(op))
      continue;
    if (isPure(&op) && op.getNumRegions() == 0)
      continue;
    return op.emitOpError()
           << "is not supported yet in a function distributed by "
              "--stencil-distribute";
  }
  for (BlockArgument arg : func.getArguments())
    if (isa<MemRefType>(arg.getType()) && !llvm::is_contained(dist.arrays, arg))
      for (Operation *user : arg.getUsers())
        if (!isScalarArgumentAccess(*user))
          return user->emitOpError()
               << "uses a distributed array outside a domain; this is not "
                  "supported yet";
  return success();
}

static bool hasDomains(func::FuncOp func) {
  bool found = false;
  func.walk([&](DomainOp) {
    found = true;
    return WalkResult::interrupt();
  });
  return found;
}

namespace {
struct StencilDistributePass
    : public mlir::stencil::impl::StencilDistributePassBase<StencilDistributePass> {
  using StencilDistributePassBase::StencilDistributePassBase;

  LogicalResult checkOptions(ModuleOp module) {
    if (grid.empty())
      return module.emitError()
             << "--stencil-distribute needs a process grid: grid=P0,P1,...";
    for (int64_t p : grid)
      if (p < 1 || p > (1 << 20))
        return module.emitError()
               << "--stencil-distribute: every grid extent must be in [1, "
                  "2^20], got "
               << p;
    if (module.lookupSymbol(kGridName))
      return module.emitError()
             << "the module already has a symbol @" << kGridName;
    return success();
  }

  void runOnOperation() override {
    ModuleOp module = getOperation();
    if (failed(checkOptions(module)))
      return signalPassFailure();
    unsigned rank = grid.size();
    std::vector<DistributedFunction> functions;
    int64_t widest = 0;
    for (auto func : module.getOps<func::FuncOp>()) {
      if (func.isExternal() || !hasDomains(func))
        continue;
      DistributedFunction &dist = functions.emplace_back();
      if (failed(collectFunction(func, grid, dist)))
        return signalPassFailure();
      dist.plan = planDistribution(dist.accesses, dist.arrays.size(), rank);
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
    for (DistributedFunction &dist : functions)
      emitDistributedFunction(dist, grid, width);
  }
};
} // namespace
