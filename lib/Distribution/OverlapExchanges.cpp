//===- OverlapExchanges.cpp - Interior work while halos are in flight -----===//
//
// This file implements --stencil-overlap-exchanges. An exchange that
// --stencil-lower-halo-exchange=overlap=1 started is followed by its finish
// (an scf.execute_region marked stencil.exchange_finish: the wait and the
// unpacking of one dimension, d). The pass first plans, per group of
// finishes, the run of parallel loop nests after them that may start
// before the wait, with the rows of d each reads beyond its own; then it
// cuts each nest's parallel loop into the interior (the rows whose reads
// stay inside this process's block), left before the finishes, and two
// rims, after them. Iterations of a parallel loop are independent, so every
// point is computed as before: results stay bitwise the same.
//
//===----------------------------------------------------------------------===//

#include "RuntimeCalls.h"
#include "Stencil/Dialect/StencilDialect.h"
#include "Stencil/Distribution/Passes.h"
#include "Stencil/Support/IndexOffset.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Builders.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Interfaces/ViewLikeInterface.h"
#include "llvm/Support/JSON.h"

namespace mlir::stencil {
#define GEN_PASS_DEF_STENCILOVERLAPEXCHANGESPASS
#include "Stencil/Distribution/Passes.h.inc"
} // namespace mlir::stencil

using namespace mlir;
using namespace mlir::stencil;

namespace {
/// A started exchange: its finish and what the finish says of it.
struct Exchange {
  scf::ExecuteRegionOp finish;
  Value array; ///< The exchanged view: what the finish unpacks into.
  Value root;  ///< The array it is a view of.
  int64_t dim = 0, axis = 0, lo = 0, hi = 0;
  std::string spec;
};

/// A nest of the run: the op in the finishes' block, its parallel loop,
/// the rows of the exchanged dimension it reads below and above its own,
/// and the arrays (roots) it reads and writes.
struct Nest {
  Operation *top = nullptr;
  affine::AffineParallelOp loop;
  int64_t below = 0, above = 0;
  llvm::SmallDenseSet<Value, 4> reads, writes;
};

/// The plan of one group: its exchanges, the nests that start before their
/// wait, and why the run ends.
struct GroupPlan {
  SmallVector<Exchange> exchanges;
  SmallVector<Nest> nests;
  std::string stop;
  llvm::json::Object toJSON() const;
};
} // namespace

llvm::json::Object GroupPlan::toJSON() const {
  llvm::json::Array exchangeList, nestList;
  for (const Exchange &x : exchanges)
    exchangeList.push_back(
        llvm::json::Object{{"dim", x.dim}, {"lo", x.lo}, {"hi", x.hi}});
  for (const Nest &nest : nests)
    nestList.push_back(
        llvm::json::Object{{"below", nest.below}, {"above", nest.above}});
  return llvm::json::Object{{"exchanges", std::move(exchangeList)},
                            {"nests", std::move(nestList)},
                            {"stop", stop}};
}

//===----------------------------------------------------------------------===//
// The plan
//===----------------------------------------------------------------------===//

/// Whether `view` is `array` seen in global coordinates: rebuilt from it by
/// reinterpret casts (as the distribution builds the views domains read).
static bool isRebuiltFrom(Value view, Value array) {
  while (view != array) {
    Operation *def = view.getDefiningOp();
    if (auto meta = dyn_cast_or_null<memref::ExtractStridedMetadataOp>(def))
      view = meta.getSource();
    else if (auto cast = dyn_cast_or_null<memref::ReinterpretCastOp>(def))
      view = cast.getSource();
    else
      return false;
  }
  return true;
}

static FailureOr<Exchange> getExchange(scf::ExecuteRegionOp finish) {
  auto fields = finish->getAttrOfType<DictionaryAttr>(
      StencilDialect::ExchangeFinishAttrHelper::getNameStr());
  Exchange x;
  x.finish = finish;
  auto integer = [&](StringRef name, int64_t &value) {
    auto attr = fields ? fields.getAs<IntegerAttr>(name) : IntegerAttr();
    if (attr)
      value = attr.getInt();
    return bool(attr);
  };
  auto spec = fields ? fields.getAs<StringAttr>("spec") : StringAttr();
  if (!spec || !integer("dim", x.dim) || !integer("axis", x.axis) ||
      !integer("lo", x.lo) || !integer("hi", x.hi))
    return failure();
  x.spec = spec.str();
  finish.walk([&](memref::StoreOp store) { x.array = store.getMemRef(); });
  if (!x.array)
    return failure();
  x.root = dist::getArrayRoot(x.array);
  return x;
}

static bool isFinish(Operation *op) {
  return isa<scf::ExecuteRegionOp>(op) &&
         op->hasAttr(StencilDialect::ExchangeFinishAttrHelper::getNameStr());
}

namespace {
/// Plans the run of nests after a group of finishes.
class RunPlanner {
public:
  RunPlanner(GroupPlan &plan) : plan(plan) {}
  /// Adds `op` to the run if it may start before the wait; otherwise says
  /// why in the plan and returns false.
  bool add(Operation *op);

private:
  FailureOr<affine::AffineParallelOp> getLoop(Operation *top);
  LogicalResult collect(Nest &nest);
  LogicalResult access(Nest &nest, Operation *op, Value memref, bool write);
  const Exchange *exchangeOf(Value root) const {
    for (const Exchange &x : plan.exchanges)
      if (x.root == root)
        return &x;
    return nullptr;
  }
  LogicalResult fail(const Twine &why) {
    plan.stop = why.str();
    return failure();
  }

  GroupPlan &plan;
};
} // namespace

/// The parallel loop of `top` (itself, or the only op of an scf.if guard).
FailureOr<affine::AffineParallelOp> RunPlanner::getLoop(Operation *top) {
  Operation *inner = top;
  if (auto guard = dyn_cast<scf::IfOp>(top)) {
    if (guard.getNumResults() != 0 || !guard.getElseRegion().empty() ||
        guard.thenBlock()->getOperations().size() != 2)
      return fail("an scf.if that is not a guard of one loop nest");
    inner = &guard.thenBlock()->front();
  }
  auto loop = dyn_cast<affine::AffineParallelOp>(inner);
  if (!loop)
    return fail("an op that is not a parallel loop nest");
  if (loop.getNumDims() != 1 || loop.getNumResults() != 0 ||
      loop.getSteps()[0] != 1)
    return fail("a parallel loop of several dimensions, results or steps");
  return loop;
}

/// Records an access of `op` to `memref` in `nest`.
LogicalResult RunPlanner::access(Nest &nest, Operation *op, Value memref,
                                 bool write) {
  Value root = dist::getArrayRoot(memref);
  if (Operation *def = root.getDefiningOp())
    if (nest.top->isAncestor(def))
      return success(); // A temporary of the nest's own.
  (write ? nest.writes : nest.reads).insert(root);
  const Exchange *x = exchangeOf(root);
  if (!x)
    return success();
  if (write)
    return fail("a nest that writes an exchanged array");
  auto load = dyn_cast<affine::AffineLoadOp>(op);
  if (!load || !isRebuiltFrom(memref, x->array))
    return fail("a nest that reads an exchanged array other than through "
                "its exchanged view");
  std::optional<int64_t> offset =
      getIndexOffset(load.getAffineMap(), load.getMapOperands(), x->dim,
                   nest.loop.getIVs()[0]);
  if (!offset)
    return fail("a nest whose parallel loop does not run over the exchanged "
                "dimension");
  nest.below = std::max(nest.below, -*offset);
  nest.above = std::max(nest.above, *offset);
  return success();
}

/// Records what `nest` reads and writes, and how far it reads beyond its
/// row; fails on what the plan cannot follow.
LogicalResult RunPlanner::collect(Nest &nest) {
  WalkResult result = nest.top->walk([&](Operation *op) -> WalkResult {
    if (op->hasTrait<OpTrait::HasRecursiveMemoryEffects>() ||
        isMemoryEffectFree(op))
      return WalkResult::advance();
    if (auto load = dyn_cast<affine::AffineLoadOp>(op))
      return access(nest, op, load.getMemRef(), false);
    if (auto store = dyn_cast<affine::AffineStoreOp>(op))
      return access(nest, op, store.getMemRef(), true);
    auto effects = dyn_cast<MemoryEffectOpInterface>(op);
    if (!effects)
      return fail("a nest with an op of unknown effects (" +
                  op->getName().getStringRef() + ")");
    SmallVector<MemoryEffects::EffectInstance> list;
    effects.getEffects(list);
    for (auto &effect : list) {
      Value value = effect.getValue();
      if (!value || !isa<MemRefType>(value.getType()))
        return fail("a nest with an op of unknown effects (" +
                    op->getName().getStringRef() + ")");
      bool write = !isa<MemoryEffects::Read>(effect.getEffect());
      if (failed(access(nest, op, value, write)))
        return failure();
    }
    return WalkResult::advance();
  });
  return failure(result.wasInterrupted());
}

bool RunPlanner::add(Operation *op) {
  if (op->getNumRegions() == 0 && isMemoryEffectFree(op))
    return true;
  FailureOr<affine::AffineParallelOp> loop = getLoop(op);
  if (failed(loop))
    return false;
  Nest nest;
  nest.top = op;
  nest.loop = *loop;
  if (failed(collect(nest)))
    return false;
  auto meets = [](const auto &a, const auto &b) {
    return llvm::any_of(a, [&](Value v) { return b.contains(v); });
  };
  for (const Nest &earlier : plan.nests)
    if (meets(earlier.writes, nest.reads) ||
        meets(earlier.writes, nest.writes) ||
        meets(earlier.reads, nest.writes)) {
      plan.stop = "a nest that depends on an earlier one";
      return false;
    }
  plan.nests.push_back(std::move(nest));
  return true;
}

/// Plans the group of finishes that starts with `first` (the finishes
/// after it with only ops free of memory effects between them) and the run
/// of nests after the group.
static GroupPlan planGroup(scf::ExecuteRegionOp first) {
  GroupPlan plan;
  RunPlanner planner(plan);
  Operation *op = first;
  for (; op && !op->hasTrait<OpTrait::IsTerminator>(); op = op->getNextNode()) {
    if (!isFinish(op)) {
      if (!planner.add(op))
        break;
      continue;
    }
    FailureOr<Exchange> x = getExchange(cast<scf::ExecuteRegionOp>(op));
    bool fits = succeeded(x) && plan.nests.empty() &&
                (plan.exchanges.empty() || (x->dim == plan.exchanges[0].dim &&
                                            x->spec == plan.exchanges[0].spec));
    if (!fits) {
      plan.stop = "another exchange";
      break;
    }
    plan.exchanges.push_back(*x);
  }
  if (plan.stop.empty())
    plan.stop = "the end of the block";
  return plan;
}

//===----------------------------------------------------------------------===//
// Emission
//===----------------------------------------------------------------------===//

/// The argument of `func` that holds the global extent of dimension `dim`.
static Value getGlobalExtent(func::FuncOp func, int64_t dim) {
  auto extras = func->getAttrOfType<ArrayAttr>(
      StencilDialect::ExtraArgsAttrHelper::getNameStr());
  if (!extras || extras.size() > func.getNumArguments())
    return {};
  std::string name = dist::globalExtentName(dim);
  for (auto [j, attr] : llvm::enumerate(extras))
    if (auto text = dyn_cast<StringAttr>(attr); text && text == name)
      return func.getArgument(func.getNumArguments() - extras.size() + j);
  return {};
}

static affine::AffineParallelOp getLoopOf(Operation *top) {
  if (auto guard = dyn_cast<scf::IfOp>(top))
    return cast<affine::AffineParallelOp>(guard.thenBlock()->front());
  return cast<affine::AffineParallelOp>(top);
}

/// Adds `bounds`, expressions of the symbols `start` (s0) and `end` (s1),
/// to the lower (a maximum) or upper (a minimum) bounds of `loop`'s only
/// dimension.
static void addBounds(affine::AffineParallelOp loop, bool upper, Value start,
                      Value end, ArrayRef<AffineExpr> bounds) {
  AffineMap map = upper ? loop.getUpperBoundsMap() : loop.getLowerBoundsMap();
  SmallVector<Value> operands(upper ? loop.getUpperBoundsOperands()
                                    : loop.getLowerBoundsOperands());
  unsigned symbols = map.getNumSymbols();
  SmallVector<AffineExpr> results(map.getResults());
  for (AffineExpr bound : bounds)
    results.push_back(bound.shiftSymbols(2, symbols));
  operands.push_back(start);
  operands.push_back(end);
  map = AffineMap::get(map.getNumDims(), symbols + 2, results,
                       loop.getContext());
  Builder b(loop.getContext());
  auto groups = b.getI32TensorAttr({int32_t(results.size())});
  if (upper) {
    loop.setUpperBounds(operands, map);
    loop.setUpperBoundsGroupsAttr(groups);
  } else {
    loop.setLowerBounds(operands, map);
    loop.setLowerBoundsGroupsAttr(groups);
  }
}

namespace {
/// This process's block of the exchanged dimension: [start, end).
struct OwnedRows {
  Value start, end;
};
} // namespace

static OwnedRows buildOwnedRows(OpBuilder &b, Location loc, const Exchange &x,
                                Value extent) {
  auto module = x.finish->getParentOfType<ModuleOp>();
  Type i64 = b.getI64Type();
  auto call = [&](dist::Call callee, ValueRange args) {
    return func::CallOp::create(b, loc, dist::declare(module, callee), args)
        .getResult(0);
  };
  auto constant = [&](int64_t v) {
    return arith::ConstantIntOp::create(b, loc, i64, v);
  };
  Value spec = dist::globalString(b, loc, x.spec, "");
  Value parts = call(dist::Call::GridExtent, {spec, constant(x.axis)});
  Value coord = call(dist::Call::GridCoord, {spec, constant(x.axis)});
  Value n = arith::IndexCastOp::create(b, loc, i64, extent);
  Value start = call(dist::Call::BlockStart, {n, parts, coord});
  Value count = call(dist::Call::BlockCount, {n, parts, coord});
  Value end = arith::AddIOp::create(b, loc, start, count);
  auto toIndex = [&](Value v) {
    return arith::IndexCastOp::create(b, loc, b.getIndexType(), v);
  };
  return {toIndex(start), toIndex(end)};
}

/// Cuts `nest` into its interior, left in place, and two rims inserted
/// before `rimPoint`.
static void cutNest(const Nest &nest, OwnedRows rows, Operation *rimPoint,
                    unsigned chunks) {
  // With lb, ub the loop's bounds, start + below = S and end - above = E:
  // [lb, min(ub, S)), [max(lb, S), min(ub, E)) and [max(lb, S, E), ub)
  // are disjoint and cover [lb, ub), whatever the block's size. The
  // interior runs in `chunks` parts [C_k, C_k+1), C_k = S + k (E - S) / K
  // (rounded down; C_0 = S, C_K = E), with a call between them that lets
  // MPI move the messages in flight.
  affine::AffineParallelOp loop = nest.loop;
  MLIRContext *ctx = loop.getContext();
  AffineExpr start = getAffineSymbolExpr(0, ctx) + nest.below;
  AffineExpr end = getAffineSymbolExpr(1, ctx) - nest.above;
  auto cut = [&](unsigned k) {
    return start + (int64_t(k) * (end - start)).floorDiv(chunks);
  };
  OpBuilder rims(rimPoint);
  Operation *low = rims.clone(*nest.top);
  Operation *high = rims.clone(*nest.top);
  addBounds(getLoopOf(low), /*upper=*/true, rows.start, rows.end, {start});
  addBounds(getLoopOf(high), /*upper=*/false, rows.start, rows.end,
            {start, end});
  OpBuilder interior(nest.top);
  auto module = nest.top->getParentOfType<ModuleOp>();
  for (unsigned k = 0; k + 1 < chunks; ++k) {
    Operation *part = interior.clone(*nest.top);
    addBounds(getLoopOf(part), /*upper=*/false, rows.start, rows.end,
              k ? SmallVector<AffineExpr>{start, cut(k)}
                : SmallVector<AffineExpr>{start});
    addBounds(getLoopOf(part), /*upper=*/true, rows.start, rows.end,
              {end, cut(k + 1)});
    func::CallOp::create(interior, nest.top->getLoc(),
                         dist::declare(module, dist::Call::Progress),
                         ValueRange{});
  }
  addBounds(loop, /*upper=*/false, rows.start, rows.end,
            chunks > 1 ? SmallVector<AffineExpr>{start, cut(chunks - 1)}
                       : SmallVector<AffineExpr>{start});
  addBounds(loop, /*upper=*/true, rows.start, rows.end, {end});
}

/// Moves the group's finishes after its run and cuts the run's nests.
static void emitGroup(const GroupPlan &plan, unsigned chunks) {
  Operation *last = plan.nests.back().top;
  for (const Exchange &x : llvm::reverse(plan.exchanges))
    x.finish->moveAfter(last);
  Operation *rimPoint = plan.exchanges.back().finish->getNextNode();
  const Exchange &x = plan.exchanges.front();
  auto func = x.finish->getParentOfType<func::FuncOp>();
  // At the top of the function, before the op that holds the first nest:
  // the rows are then affine symbols of every nest.
  Operation *anchor = plan.nests.front().top;
  while (anchor->getParentOp() != func)
    anchor = anchor->getParentOp();
  OpBuilder b(anchor);
  OwnedRows rows =
      buildOwnedRows(b, x.finish->getLoc(), x, getGlobalExtent(func, x.dim));
  for (const Nest &nest : plan.nests)
    cutNest(nest, rows, rimPoint, chunks);
}

namespace {
struct StencilOverlapExchangesPass
    : public mlir::stencil::impl::StencilOverlapExchangesPassBase<
          StencilOverlapExchangesPass> {
  using Base::Base;

  void runOnOperation() override {
    getOperation().walk([&](func::FuncOp func) { runOnFunction(func); });
  }

  void runOnFunction(func::FuncOp func) {
    SmallVector<scf::ExecuteRegionOp> finishes;
    func.walk([&](scf::ExecuteRegionOp op) {
      if (isFinish(op))
        finishes.push_back(op);
    });
    llvm::SmallPtrSet<Operation *, 8> planned;
    std::vector<GroupPlan> plans;
    for (scf::ExecuteRegionOp finish : finishes) {
      if (planned.contains(finish))
        continue;
      plans.push_back(planGroup(finish));
      GroupPlan &plan = plans.back();
      for (const Exchange &x : plan.exchanges)
        planned.insert(x.finish);
      requireGlobalExtent(plan, func);
    }
    if (report && !plans.empty()) {
      llvm::json::Array groups;
      for (const GroupPlan &plan : plans)
        groups.push_back(plan.toJSON());
      std::string text;
      llvm::raw_string_ostream os(text);
      os << llvm::json::Value(llvm::json::Object{
          {"function", func.getSymName()}, {"groups", std::move(groups)}});
      func.emitRemark() << "overlap plan: " << text;
    }
    for (const GroupPlan &plan : plans)
      if (!plan.nests.empty())
        emitGroup(plan, std::max<unsigned>(chunks, 1));
  }

  /// Drops the run of a group whose function has no global extent of the
  /// exchanged dimension.
  static void requireGlobalExtent(GroupPlan &plan, func::FuncOp func) {
    if (!plan.exchanges.empty() &&
        !getGlobalExtent(func, plan.exchanges[0].dim)) {
      plan.nests.clear();
      plan.stop = "a function without the global extents";
    }
  }
};
} // namespace
