//===- MapToGPU.cpp - Parallel nests onto GPU blocks and threads -*- C++ -*-===//
//
// This file implements --stencil-map-to-gpu: each outermost scf.parallel is
// tiled by its block plan (BlockPlan.h) and its loops mapped to blocks and
// threads, the innermost dimension to x; temporaries become device memory.
// Upstream convert-parallel-loops-to-gpu then builds the launches.
//
//===----------------------------------------------------------------------===//

#include "Nests.h"
#include "Stencil/GPU/BlockPlan.h"
#include "Stencil/Dialect/StencilDialect.h"
#include "Stencil/GPU/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/GPU/Transforms/ParallelLoopMapper.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/SCF/Transforms/Transforms.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

namespace mlir::stencil {
#define GEN_PASS_DEF_STENCILMAPTOGPUPASS
#include "Stencil/GPU/Passes.h.inc"
} // namespace mlir::stencil

using namespace mlir;
using namespace mlir::stencil;

/// The processor of a loop on `axis`, for the block loop or the thread loop.
static gpu::Processor getProcessor(GPUAxis axis, bool threads) {
  switch (axis) {
  case GPUAxis::X:
    return threads ? gpu::Processor::ThreadX : gpu::Processor::BlockX;
  case GPUAxis::Y:
    return threads ? gpu::Processor::ThreadY : gpu::Processor::BlockY;
  case GPUAxis::Z:
    return threads ? gpu::Processor::ThreadZ : gpu::Processor::BlockZ;
  case GPUAxis::Sequential:
    return gpu::Processor::Sequential;
  }
  llvm_unreachable("unknown axis");
}

static LogicalResult setMapping(scf::ParallelOp loop, const BlockPlan &plan,
                                bool threads) {
  MLIRContext *ctx = loop.getContext();
  AffineMap identity = AffineMap::getMultiDimIdentityMap(1, ctx);
  SmallVector<gpu::ParallelLoopDimMappingAttr> mapping;
  for (GPUAxis axis : plan.axis)
    mapping.push_back(gpu::ParallelLoopDimMappingAttr::get(
        ctx, getProcessor(axis, threads), identity, identity));
  return gpu::setMappingAttr(loop, mapping);
}

/// Replaces the temporaries of `module`'s host code by device memory,
/// except host memory (stencil::isHostMemory).
static void allocateOnDevice(ModuleOp module) {
  IRRewriter rewriter(module.getContext());
  SmallVector<Operation *> ops;
  module.walk([&](Operation *op) {
    if (op->getParentOfType<scf::ParallelOp>())
      return;
    if (auto alloc = dyn_cast<memref::AllocOp>(op);
        alloc && !isHostMemory(alloc))
      ops.push_back(op);
    if (auto dealloc = dyn_cast<memref::DeallocOp>(op);
        dealloc && !isHostMemory(dealloc.getMemref()))
      ops.push_back(op);
  });
  // The async forms, each between a fresh token and a wait: gpu-to-llvm
  // lowers only those (to mgpuMemAlloc / mgpuMemFree on a stream).
  Type token = gpu::AsyncTokenType::get(module.getContext());
  for (Operation *op : ops) {
    rewriter.setInsertionPoint(op);
    Location loc = op->getLoc();
    Value start = gpu::WaitOp::create(rewriter, loc, token, ValueRange())
                      .getAsyncToken();
    Value done;
    if (auto alloc = dyn_cast<memref::AllocOp>(op)) {
      auto device = gpu::AllocOp::create(
          rewriter, loc, alloc.getType(), token, ValueRange{start},
          alloc.getDynamicSizes(), alloc.getSymbolOperands());
      rewriter.replaceOp(alloc, device.getMemref());
      done = device.getAsyncToken();
    } else {
      auto dealloc = cast<memref::DeallocOp>(op);
      done = gpu::DeallocOp::create(rewriter, loc, token, ValueRange{start},
                                    dealloc.getMemref())
                 .getAsyncToken();
      rewriter.eraseOp(dealloc);
    }
    gpu::WaitOp::create(rewriter, loc, Type(), ValueRange{done});
  }
}

/// Starts the innermost loop of `loop` at `plan.alignedLower` and runs its
/// body only from `plan.lower` on.
static void alignInnermost(scf::ParallelOp loop, const BlockPlan &plan) {
  unsigned inner = loop.getNumLoops() - 1;
  Location loc = loop.getLoc();
  OpBuilder b(loop);
  Value lower = loop.getLowerBound()[inner];
  loop.getLowerBoundMutable()[inner].set(
      arith::ConstantIndexOp::create(b, loc, *plan.alignedLower));
  Block *body = loop.getBody();
  Operation *terminator = body->getTerminator();
  b.setInsertionPointToStart(body);
  Value inRange = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::sge,
                                        body->getArgument(inner), lower);
  auto guard = scf::IfOp::create(b, loc, inRange, /*withElseRegion=*/false);
  Block *then = guard.thenBlock();
  then->getOperations().splice(then->getTerminator()->getIterator(),
                               body->getOperations(),
                               std::next(guard->getIterator()),
                               terminator->getIterator());
}

/// Whether `loop`'s body reads memory: loads, atomic updates, calls.
static bool readsMemory(scf::ParallelOp loop) {
  return loop.getBody()
      ->walk([](Operation *op) {
        if (isa<memref::StoreOp, scf::YieldOp, scf::IfOp, scf::ForOp>(op) ||
            isMemoryEffectFree(op))
          return WalkResult::advance();
        return WalkResult::interrupt();
      })
      .wasInterrupted();
}

/// Makes each thread of the tiled nest (`blocks`, `threads`) run `points`
/// points of the innermost loop, a block's width apart: the block loop's
/// step grows `points` times and the thread body is repeated with the
/// block's index advanced by one block width per copy. A copy runs only
/// where that index is below the upper bound; the tiling's own bounds
/// check, which the copy inherits, covers the threads beyond it.
static void repeatAlongRows(scf::ParallelOp blocks, scf::ParallelOp threads,
                            int64_t points) {
  unsigned inner = blocks.getNumLoops() - 1;
  Location loc = blocks.getLoc();
  OpBuilder b(blocks);
  Value width = blocks.getStep()[inner];
  blocks.getStepMutable()[inner].set(arith::MulIOp::create(
      b, loc, width, arith::ConstantIndexOp::create(b, loc, points)));
  Value start = blocks.getInductionVars()[inner];
  Value upper = blocks.getUpperBound()[inner];
  Block *body = threads.getBody();
  Operation *terminator = body->getTerminator();
  SmallVector<Operation *> ops;
  for (Operation &op : body->without_terminator())
    ops.push_back(&op);
  b.setInsertionPoint(terminator);
  for (int64_t p = 1; p < points; ++p) {
    Value offset = arith::MulIOp::create(
        b, loc, width, arith::ConstantIndexOp::create(b, loc, p));
    Value shifted = arith::AddIOp::create(b, loc, start, offset);
    Value inRange = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::slt,
                                          shifted, upper);
    auto guard = scf::IfOp::create(b, loc, inRange, /*withElseRegion=*/false);
    OpBuilder copy = OpBuilder::atBlockTerminator(guard.thenBlock());
    IRMapping mapping;
    mapping.map(start, shifted);
    for (Operation *op : ops)
      copy.clone(*op, mapping);
  }
}

namespace {
struct StencilMapToGPUPass
    : public mlir::stencil::impl::StencilMapToGPUPassBase<StencilMapToGPUPass> {
  using Base::Base;

  LogicalResult mapNest(scf::ParallelOp loop) {
    // scf::tileParallelLoop would drop the results; --stencil-check-gpu
    // refuses the domains with results that lower to such nests.
    if (loop.getNumReductions() != 0)
      return loop.emitOpError()
             << "cannot be mapped to the GPU: nests with reductions are not "
                "supported yet";
    std::string error;
    FailureOr<BlockPlan> plan =
        planBlockShape(loop.getNumLoops(), block, error);
    if (failed(plan))
      return loop.emitOpError() << "cannot be mapped to the GPU: " << error;
    unsigned inner = loop.getNumLoops() - 1;
    planInnerAlignment(*plan, getConstantIntValue(loop.getLowerBound()[inner]),
                       getConstantIntValue(loop.getStep()[inner]), align);
    planRowPoints(*plan, rowPoints, readsMemory(loop));
    if (report) {
      std::string json;
      llvm::raw_string_ostream os(json);
      plan->printJSON(os);
      loop.emitRemark() << "gpu block plan: " << json;
    }
    if (plan->alignedLower)
      alignInnermost(loop, *plan);
    auto [blocks, threads] =
        scf::tileParallelLoop(loop, plan->tile, /*noMinMaxBounds=*/true);
    if (failed(setMapping(blocks, *plan, /*threads=*/false)) ||
        failed(setMapping(threads, *plan, /*threads=*/true)))
      return blocks.emitOpError() << "has an invalid GPU mapping";
    if (plan->rowPoints > 1)
      repeatAlongRows(blocks, threads, plan->rowPoints);
    return success();
  }

  void runOnOperation() override {
    ModuleOp module = getOperation();
    std::string error;
    if (failed(planBlockShape(3, block, error))) {
      module.emitError() << "stencil-map-to-gpu: block=: " << error;
      return signalPassFailure();
    }
    if (rowPoints < 0 || rowPoints > kMaxRowPoints) {
      module.emitError() << "stencil-map-to-gpu: row-points= must be 0 "
                            "(chosen per nest) or 1 to "
                         << kMaxRowPoints << ", got "
                         << static_cast<int64_t>(rowPoints);
      return signalPassFailure();
    }
    for (scf::ParallelOp loop : getOutermostParallelNests(module))
      if (failed(mapNest(loop)))
        return signalPassFailure();
    allocateOnDevice(module);
  }
};
} // namespace
