//===- Coarsen.cpp - Several outer points per GPU thread --------*- C++ -*-===//
//
// This file implements --stencil-coarsen-gpu-nests. A 2-D or 3-D nest of
// the GPU form becomes a nest over blocks of `factor` consecutive indices
// of its outermost dimension, so that each GPU thread computes `factor`
// points along it, one after the other in straight-line code. Neighbouring
// points along that dimension read the same taps (a 3x3x3 stencil reads 18
// of its 27 values again at the next point), and with `noalias` kernel
// pointers the NVPTX back end loads each of them once per thread instead
// of once per point: the loads move from the L1 into registers.
//
//   scf.parallel (%i, %j, ...) = (%lo, ...) to (%hi, ...) { body(%i) }
//
// becomes
//
//   scf.parallel (%b, %j, ...) = (0, ...) to (ceildiv(%hi - %lo, F), ...) {
//     %i0 = %lo + %b * F
//     scf.if %i0 + F <= %hi {
//       body(%i0); body(%i0 + 1); ...; body(%i0 + F - 1)
//     } else {
//       scf.for %i = %i0 to %hi { body(%i) }
//     }
//   }
//
// The gather form's body ends in a branch between the unguarded core
// statements and the guarded sums of the boundary layers. Unrolled, those
// branches would separate the copies' loads, so the full blocks test once
// whether all their points are interior and then run the core bodies one
// after the other (the branch is "unswitched"); each point otherwise takes
// its own branch as before. Every point still runs the same statements in
// the same order: results do not change.
//
//===----------------------------------------------------------------------===//

#include "Nests.h"
#include "Stencil/GPU/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "llvm/Support/JSON.h"

namespace mlir::stencil {
#define GEN_PASS_DEF_STENCILCOARSENGPUNESTSPASS
#include "Stencil/GPU/Passes.h.inc"
} // namespace mlir::stencil

using namespace mlir;
using namespace mlir::stencil;

namespace {
/// What the pass does with one nest: the factor and whether the body's
/// trailing branch is unswitched, or why the nest stays as it is.
struct CoarsenPlan {
  int64_t factor = 1;
  /// The body's last op is a branch without results after pure ops.
  bool unswitch = false;
  /// Ops of one body copy, the terminator excluded (nested ones counted).
  int64_t bodyOps = 0;
  std::string reason;
};
} // namespace

/// The branch that ends `loop`'s body, if every op before it is pure (it
/// can then be evaluated for all copies before any of them runs).
static scf::IfOp getTrailingBranch(scf::ParallelOp loop) {
  Block *body = loop.getBody();
  if (body->getOperations().size() < 2)
    return nullptr;
  auto branch = dyn_cast<scf::IfOp>(*std::prev(body->end(), 2));
  if (!branch || branch.getNumResults() != 0)
    return nullptr;
  for (Operation &op : body->without_terminator())
    if (&op != branch.getOperation() && !isPure(&op))
      return nullptr;
  return branch;
}

/// The automatic factor: 16 bytes of the widest element the body loads
/// (2 for f64, 4 for f32) for a body without branches, 1 (none) for one
/// with branches, such as the gather form's, or atomic updates (nothing
/// to share: the scatter baseline stays as it is). Measured on an H100
/// (docs/GPU.md, run 5): the primal of a 27-point stencil ran 1.23x (f64, 2
/// points) and 1.49x (f32, 4 points) faster than with one point per
/// thread; the branching gather adjoints ran slower coarsened.
static int64_t getAutoFactor(scf::ParallelOp loop, std::string &reason) {
  int64_t bytes = 0;
  bool branches = false, atomic = false;
  for (Operation &top : loop.getBody()->without_terminator())
    top.walk([&](Operation *op) {
      branches |= op->getNumRegions() != 0;
      atomic |= isa<memref::AtomicRMWOp>(op);
      auto load = dyn_cast<memref::LoadOp>(op);
      if (load && load.getType().isIntOrFloat())
        bytes = std::max<int64_t>(
            bytes, llvm::divideCeil(load.getType().getIntOrFloatBitWidth(), 8));
    });
  if (branches)
    reason = "automatic: the body branches";
  else if (atomic)
    reason = "automatic: the body updates atomically";
  else if (bytes == 0)
    reason = "automatic: the body loads no scalars";
  else if (bytes >= 16)
    reason = "automatic: elements of 16 bytes or more";
  return reason.empty() ? 16 / bytes : 1;
}

static CoarsenPlan planNest(scf::ParallelOp loop, int64_t factor,
                            int64_t maxOps) {
  CoarsenPlan plan;
  std::optional<int64_t> step = getConstantIntValue(loop.getStep()[0]);
  loop.getBody()->walk([&](Operation *) { ++plan.bodyOps; });
  --plan.bodyOps;
  if (factor == 0)
    factor = getAutoFactor(loop, plan.reason);
  if (!plan.reason.empty())
    return plan;
  if (factor <= 1)
    plan.reason = "factor 1";
  else if (loop.getNumLoops() < 2 || loop.getNumLoops() > 3)
    plan.reason = "only nests of 2 or 3 dimensions are coarsened";
  else if (loop.getNumReductions() != 0)
    plan.reason = "the nest reduces";
  else if (step != 1)
    plan.reason = "the outermost step is not 1";
  else if (plan.bodyOps * (2 * factor + 1) > maxOps)
    plan.reason = "the copies would exceed max-ops";
  if (!plan.reason.empty())
    return plan;
  plan.factor = factor;
  plan.unswitch = getTrailingBranch(loop) != nullptr;
  return plan;
}

static void printPlan(raw_ostream &os, const CoarsenPlan &plan) {
  llvm::json::Object object{{"factor", plan.factor},
                            {"unswitch", plan.unswitch},
                            {"body_ops", plan.bodyOps}};
  if (!plan.reason.empty())
    object["reason"] = plan.reason;
  os << llvm::json::Value(std::move(object));
}

/// Clones the ops of `body` but its terminator and `skip` at `b`, mapping
/// in `map` its outermost index to `index` and the others to `indices`.
static void cloneBody(OpBuilder &b, Block *body, Value index,
                      ValueRange indices, IRMapping &map,
                      Operation *skip = nullptr) {
  map.map(body->getArgument(0), index);
  for (auto [from, to] : llvm::zip(body->getArguments().drop_front(),
                                   indices.drop_front()))
    map.map(from, to);
  for (Operation &op : body->without_terminator())
    if (&op != skip)
      b.clone(op, map);
}

/// The full block's straight-line copies at `b`, for outer indices
/// `first + u`, u < factor.
static void buildFullBlock(OpBuilder &b, scf::ParallelOp loop,
                           const CoarsenPlan &plan, Value first,
                           ValueRange indices) {
  Location loc = loop.getLoc();
  Block *body = loop.getBody();
  SmallVector<Value> points;
  for (int64_t u = 0; u < plan.factor; ++u)
    points.push_back(u == 0 ? first
                            : arith::AddIOp::create(
                                  b, loc, first,
                                  arith::ConstantIndexOp::create(b, loc, u)));
  if (!plan.unswitch) {
    for (Value point : points) {
      IRMapping map;
      cloneBody(b, body, point, indices, map);
    }
    return;
  }
  // The pure ops of every copy first (they compute the conditions), then
  // either every copy's then-region or every copy's own branch.
  auto branch = cast<scf::IfOp>(*std::prev(body->end(), 2));
  SmallVector<IRMapping> maps(points.size());
  Value all = arith::ConstantIntOp::create(b, loc, 1, 1);
  for (auto [point, map] : llvm::zip(points, maps)) {
    cloneBody(b, body, point, indices, map, branch);
    all = arith::AndIOp::create(b, loc, all,
                                map.lookupOrDefault(branch.getCondition()));
  }
  auto split = scf::IfOp::create(b, loc, all, /*withElseRegion=*/true);
  OpBuilder inner = OpBuilder::atBlockTerminator(split.thenBlock());
  for (IRMapping &map : maps)
    for (Operation &op : branch.thenBlock()->without_terminator())
      inner.clone(op, map);
  inner.setInsertionPoint(split.elseBlock()->getTerminator());
  for (IRMapping &map : maps)
    inner.clone(*branch, map);
}

static void coarsenNest(scf::ParallelOp loop, const CoarsenPlan &plan) {
  OpBuilder b(loop);
  Location loc = loop.getLoc();
  Value lower = loop.getLowerBound()[0];
  Value upper = loop.getUpperBound()[0];
  Value factor = arith::ConstantIndexOp::create(b, loc, plan.factor);
  Value zero = arith::ConstantIndexOp::create(b, loc, 0);
  Value extent = arith::SubIOp::create(b, loc, upper, lower);
  Value blocks = arith::CeilDivSIOp::create(b, loc, extent, factor);
  SmallVector<Value> lowers(loop.getLowerBound());
  SmallVector<Value> uppers(loop.getUpperBound());
  lowers[0] = zero;
  uppers[0] = blocks;
  auto coarse = scf::ParallelOp::create(b, loc, lowers, uppers,
                                        loop.getStep(), ValueRange());
  coarse->setDiscardableAttrs(loop->getDiscardableAttrDictionary());

  b.setInsertionPointToStart(coarse.getBody());
  SmallVector<Value> indices(coarse.getInductionVars());
  Value scaled = arith::MulIOp::create(b, loc, indices[0], factor);
  Value first = arith::AddIOp::create(b, loc, lower, scaled);
  Value end = arith::AddIOp::create(b, loc, first, factor);
  Value full =
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::sle, end, upper);
  auto branch = scf::IfOp::create(b, loc, full, /*withElseRegion=*/true);

  OpBuilder inner = OpBuilder::atBlockTerminator(branch.thenBlock());
  buildFullBlock(inner, loop, plan, first, indices);
  inner.setInsertionPoint(branch.elseBlock()->getTerminator());
  Value one = arith::ConstantIndexOp::create(inner, loc, 1);
  auto rest = scf::ForOp::create(inner, loc, first, upper, one);
  inner.setInsertionPoint(rest.getBody()->getTerminator());
  IRMapping map;
  cloneBody(inner, loop.getBody(), rest.getInductionVar(), indices, map);
  loop->erase();
}

namespace {
struct StencilCoarsenGPUNestsPass
    : public mlir::stencil::impl::StencilCoarsenGPUNestsPassBase<
          StencilCoarsenGPUNestsPass> {
  using Base::Base;

  void runOnOperation() override {
    if (factor < 0) {
      getOperation().emitError()
          << "stencil-coarsen-gpu-nests: factor must be at least 0, got "
          << static_cast<int64_t>(factor);
      return signalPassFailure();
    }
    for (scf::ParallelOp loop : getOutermostParallelNests(getOperation())) {
      CoarsenPlan plan = planNest(loop, factor, maxOps);
      if (report) {
        std::string json;
        llvm::raw_string_ostream os(json);
        printPlan(os, plan);
        loop.emitRemark() << "coarsening plan: " << json;
      }
      if (plan.reason.empty())
        coarsenNest(loop, plan);
    }
  }
};
} // namespace
