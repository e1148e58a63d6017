//===- RingCut.cpp - Cut temporaries as rings of planes -----------*- C++ -*-===//
//
// This file implements --stencil-ring-cut, after --convert-stencil-to-affine.
// A cut (--stencil-cut-shared) fills temporaries the size of the grid in
// one parallel nest and reads them, shifted, in the gather nest after it:
// a write and a read of each through memory. Where the gather nest is one
// parallel loop over dimension 0 that reads the temporaries at planes
// `i + o` for constant offsets `o` in [lo, hi], the two nests become one:
// each thread takes a contiguous block of planes and keeps, for each
// temporary, a ring of `hi - lo + 1` planes of its own; before the rows of
// plane `i` it fills plane `i + hi` of the ring (after a prologue of the
// first planes). The ring stays in the caches; each value is still
// computed once per point, by the same ops, and read back by the same
// loads: results do not change (docs/Performance.md, "A ring of planes").
//
// The pass computes a plan per fill nest (RingPlan) and then rewrites.
//
//===----------------------------------------------------------------------===//

#include "Stencil/Target/Passes.h"
#include "Stencil/Dialect/StencilDialect.h"
#include "Stencil/Support/Declare.h"
#include "Stencil/Support/IndexOffset.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/IntegerSet.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

namespace mlir::stencil {
#define GEN_PASS_DEF_STENCILRINGCUTPASS
#include "Stencil/Target/Passes.h.inc"
} // namespace mlir::stencil

using namespace mlir;
using namespace mlir::stencil;

namespace {
/// A parallel nest over dimension 0 at the top of a function, possibly
/// inside an `scf.if` (the lowering's non-empty guard).
struct PlaneNest {
  Operation *top = nullptr; ///< The op in the function's block.
  scf::IfOp guard;          ///< Null if `top` is the loop itself.
  affine::AffineParallelOp loop;
};

/// One fill nest and the gather nest that reads its temporaries.
struct RingPlan {
  PlaneNest fill, gather;
  SmallVector<memref::AllocOp> temps;
  SmallVector<memref::DeallocOp> deallocs;
  int64_t lo = 0, hi = 0; ///< Offsets of dimension 0 the gather reads.
  bool hasOffsets = false;
  /// Arrays the fill reads and the gather writes (the fused point reset of
  /// an output adjoint): written by the gather only at plane `i`, with
  /// values of the indices alone. A block leaves these writes on the
  /// planes that a neighbour's fill reads (its first `hi`, its last `-lo`);
  /// a second parallel loop writes them there once every block is done.
  SmallVector<Value, 1> deferred;
  int64_t planes() const { return hi - lo + 1; }
};
} // namespace

//===----------------------------------------------------------------------===//
// The plan
//===----------------------------------------------------------------------===//

/// The plane nest `op` belongs to, if its top-level op is one.
static std::optional<PlaneNest> getPlaneNest(Operation *op, Block *body) {
  Operation *top = op;
  while (top && top->getBlock() != body)
    top = top->getParentOp();
  if (!top)
    return std::nullopt;
  PlaneNest nest{top, {}, {}};
  Operation *inner = top;
  if (auto guard = dyn_cast<scf::IfOp>(top)) {
    if (guard.getNumResults() != 0 || !guard.getElseRegion().empty() ||
        guard.thenBlock()->getOperations().size() != 2)
      return std::nullopt;
    nest.guard = guard;
    inner = &guard.thenBlock()->front();
  }
  auto loop = dyn_cast<affine::AffineParallelOp>(inner);
  if (!loop || loop.getNumDims() != 1 || loop.getNumResults() != 0 ||
      loop.getLowerBoundsMap().getNumResults() != 1 ||
      loop.getUpperBoundsMap().getNumResults() != 1 ||
      loop.getSteps()[0] != 1)
    return std::nullopt;
  nest.loop = loop;
  return nest;
}

/// The constant `c` with `map`'s first result = `iv` + c.
static std::optional<int64_t> getPlaneOffset(AffineMap map,
                                             ValueRange operands, Value iv) {
  return getIndexOffset(map, operands, /*result=*/0, iv);
}

/// The arrays `nest` loads from (`writes`: stores to).
static llvm::DenseSet<Value> accessedArrays(Operation *nest, bool writes) {
  llvm::DenseSet<Value> arrays;
  nest->walk([&](Operation *op) {
    if (auto load = dyn_cast<affine::AffineLoadOp>(op); load && !writes)
      arrays.insert(load.getMemRef());
    else if (auto load = dyn_cast<memref::LoadOp>(op); load && !writes)
      arrays.insert(load.getMemRef());
    else if (auto store = dyn_cast<affine::AffineStoreOp>(op); store && writes)
      arrays.insert(store.getMemRef());
    else if (auto store = dyn_cast<memref::StoreOp>(op); store && writes)
      arrays.insert(store.getMemRef());
  });
  return arrays;
}

/// Checks the uses of temporary `temp` for `plan`, extending its nests and
/// offsets: stores in the fill nest at plane `i`, loads in the gather nest
/// at planes `i + c`, and one dealloc.
static LogicalResult addTemporary(memref::AllocOp temp, RingPlan &plan,
                                  Block *body) {
  bool stored = false, loaded = false;
  for (Operation *user : temp->getUsers()) {
    if (auto dealloc = dyn_cast<memref::DeallocOp>(user)) {
      if (dealloc->getBlock() != body)
        return failure();
      plan.deallocs.push_back(dealloc);
      continue;
    }
    std::optional<PlaneNest> nest = getPlaneNest(user, body);
    if (!nest)
      return failure();
    if (auto store = dyn_cast<affine::AffineStoreOp>(user)) {
      if (store.getValueToStore() == temp.getResult() ||
          (plan.fill.top && plan.fill.top != nest->top))
        return failure();
      plan.fill = *nest;
      std::optional<int64_t> offset = getPlaneOffset(
          store.getAffineMap(), store.getMapOperands(), nest->loop.getIVs()[0]);
      if (offset != 0)
        return failure();
      stored = true;
    } else if (auto load = dyn_cast<affine::AffineLoadOp>(user)) {
      if (plan.gather.top && plan.gather.top != nest->top)
        return failure();
      plan.gather = *nest;
      std::optional<int64_t> offset = getPlaneOffset(
          load.getAffineMap(), load.getMapOperands(), nest->loop.getIVs()[0]);
      if (!offset)
        return failure();
      plan.lo = plan.hasOffsets ? std::min(plan.lo, *offset) : *offset;
      plan.hi = plan.hasOffsets ? std::max(plan.hi, *offset) : *offset;
      plan.hasOffsets = loaded = true;
    } else {
      return failure();
    }
  }
  if (!stored || !loaded || plan.deallocs.size() != plan.temps.size() + 1)
    return failure();
  plan.temps.push_back(temp);
  return success();
}

/// True if the value `store` writes, and where and whether it writes it,
/// depend on no memory: its slice within `root` (operands, the conditions
/// and bounds of the ops around it, transitively) reads nothing.
static bool dependsOnIndicesOnly(Operation *store, Operation *root) {
  SmallVector<Value> worklist(store->getOperands());
  for (Operation *up = store->getParentOp(); up && up != root;
       up = up->getParentOp())
    llvm::append_range(worklist, up->getOperands());
  llvm::DenseSet<Operation *> seen;
  while (!worklist.empty()) {
    Operation *def = worklist.pop_back_val().getDefiningOp();
    if (!def || !root->isAncestor(def) || !seen.insert(def).second)
      continue;
    WalkResult walk = def->walk([&](Operation *op) {
      if (op->getNumRegions() == 0 && !isMemoryEffectFree(op))
        return WalkResult::interrupt();
      llvm::append_range(worklist, op->getOperands());
      return WalkResult::advance();
    });
    if (walk.wasInterrupted())
      return false;
  }
  return true;
}

/// True if every access to `array` in `nest` is an affine load or store at
/// plane `i` (the nest's iv), a store only where `stores` and then of a
/// value of the indices alone.
static bool accessesPlaneOnly(PlaneNest nest, Value array,
                              bool stores) {
  Value iv = nest.loop.getIVs()[0];
  WalkResult walk = nest.loop.walk([&](Operation *op) {
    if (op->getNumRegions() == 0 && !isMemoryEffectFree(op) &&
        !isa<affine::AffineLoadOp, affine::AffineStoreOp, memref::LoadOp,
             memref::StoreOp>(op))
      return WalkResult::interrupt();
    if (isa<memref::LoadOp, memref::StoreOp>(op) &&
        llvm::is_contained(op->getOperands(), array))
      return WalkResult::interrupt();
    if (auto load = dyn_cast<affine::AffineLoadOp>(op);
        load && load.getMemRef() == array &&
        getPlaneOffset(load.getAffineMap(), load.getMapOperands(), iv) != 0)
      return WalkResult::interrupt();
    if (auto store = dyn_cast<affine::AffineStoreOp>(op);
        store && store.getMemRef() == array &&
        (!stores ||
         getPlaneOffset(store.getAffineMap(), store.getMapOperands(), iv) !=
             0 ||
         !dependsOnIndicesOnly(store, nest.loop)))
      return WalkResult::interrupt();
    return WalkResult::advance();
  });
  return !walk.wasInterrupted();
}

/// True if the fill nest may run plane by plane inside the gather nest: it
/// comes right before it (side-effect free ops between), writes only the
/// temporaries, reads nothing the gather nest writes (but the deferred
/// arrays, which both access at plane `i` only), and the gather nest reads
/// the ring no further back than it can hold.
static bool canInterleave(RingPlan &plan) {
  Operation *fill = plan.fill.top, *gather = plan.gather.top;
  if (fill->getBlock() != gather->getBlock() || !fill->isBeforeInBlock(gather))
    return false;
  for (Operation *op = fill->getNextNode(); op != gather;
       op = op->getNextNode())
    if (!isMemoryEffectFree(op))
      return false;
  llvm::DenseSet<Value> temps;
  for (memref::AllocOp temp : plan.temps)
    temps.insert(temp.getResult());
  for (Value written : accessedArrays(fill, /*writes=*/true))
    if (!temps.contains(written))
      return false;
  llvm::DenseSet<Value> fillReads = accessedArrays(fill, /*writes=*/false);
  for (Value written : accessedArrays(gather, /*writes=*/true)) {
    if (temps.contains(written))
      return false;
    if (!fillReads.contains(written))
      continue;
    if (!accessesPlaneOnly(plan.fill, written, /*stores=*/false) ||
        !accessesPlaneOnly(plan.gather, written, /*stores=*/true))
      return false;
    plan.deferred.push_back(written);
  }
  // A ring of one plane: no block reads another's planes, nothing waits.
  if (plan.lo == 0 && plan.hi == 0)
    plan.deferred.clear();
  return plan.lo <= 0 && plan.hi >= 0;
}

/// The ring plans of `func`: one per fill nest whose temporaries qualify.
static SmallVector<RingPlan> planRings(func::FuncOp func) {
  SmallVector<RingPlan> plans;
  if (func.isExternal() || !StencilDialect::NoaliasAttrHelper(
                               func.getContext()).isAttrPresent(func))
    return plans;
  Block *body = &func.getBody().front();
  llvm::MapVector<Operation *, RingPlan> byFill;
  llvm::DenseSet<Operation *> rejected;
  for (auto alloc : body->getOps<memref::AllocOp>()) {
    // The cut decided which temporaries may become rings (stencil.ring).
    if (!StencilDialect::RingAttrHelper(func.getContext())
             .isAttrPresent(alloc) ||
        alloc.getType().getRank() < 2 || !alloc.getSymbolOperands().empty())
      continue;
    // Find the fill nest first, then extend its plan.
    Operation *fillTop = nullptr;
    for (Operation *user : alloc->getUsers())
      if (isa<affine::AffineStoreOp>(user))
        if (std::optional<PlaneNest> nest = getPlaneNest(user, body))
          fillTop = nest->top;
    if (!fillTop || rejected.contains(fillTop))
      continue;
    RingPlan copy = byFill.lookup(fillTop);
    if (failed(addTemporary(alloc, copy, body))) {
      rejected.insert(fillTop);
      continue;
    }
    byFill[fillTop] = std::move(copy);
  }
  for (auto &[fill, plan] : byFill)
    if (!rejected.contains(fill) && canInterleave(plan))
      plans.push_back(std::move(plan));
  return plans;
}

//===----------------------------------------------------------------------===//
// The rewrite
//===----------------------------------------------------------------------===//

namespace {
class RingEmitter {
public:
  RingEmitter(RingPlan &plan) : plan(plan), b(plan.gather.top) {}
  void emit();

private:
  AffineExpr bound(affine::AffineParallelOp loop, bool upper,
                   SmallVectorImpl<Value> &symbols);
  void emitChunkCount();
  void emitChunk(Value chunk);
  /// Which writes of the gather's rows a copy keeps: all of them, all but
  /// those to the deferred arrays, or only those.
  enum class Writes { All, NotDeferred, OnlyDeferred };
  void emitFill(Value plane, AffineExpr planeExpr, ValueRange dims);
  void emitRows(Value plane, Writes writes);
  void emitInteriorOrEdge(Value chunk, Value plane);
  void emitDeferredSweep();
  AffineMap chunkMap(ArrayRef<AffineExpr> results) const;
  SmallVector<Value> chunkOperands(Value chunk) const;
  AffineExpr chunkStart() const;
  affine::AffineParallelOp buildChunkLoop();
  void retarget(Operation *root, bool stores);

  RingPlan &plan;
  OpBuilder b;
  Value chunkSize, chunkCount;
  SmallVector<Value> rings;
  /// Symbols of the bounds: the gather's and the fill's operands.
  SmallVector<Value> symbols;
  AffineExpr gatherLower, gatherUpper, fillLower, fillUpper;
};
} // namespace

/// `loop`'s lower or upper bound as an expression of `symbols` (its
/// operands appended), its dimensions none.
AffineExpr RingEmitter::bound(affine::AffineParallelOp loop, bool upper,
                              SmallVectorImpl<Value> &symbols) {
  AffineMap map =
      upper ? loop.getUpperBoundsMap() : loop.getLowerBoundsMap();
  ValueRange operands = upper ? loop.getUpperBoundsOperands()
                              : loop.getLowerBoundsOperands();
  // Every operand becomes a symbol (they are symbols where the loop is).
  SmallVector<AffineExpr> dims, syms;
  for (auto [i, operand] : llvm::enumerate(operands)) {
    AffineExpr e = getAffineSymbolExpr(symbols.size(), b.getContext());
    symbols.push_back(operand);
    (i < map.getNumDims() ? dims : syms).push_back(e);
  }
  return map.getResult(0).replaceDimsAndSymbols(dims, syms);
}

/// Blocks of dimension 0, one per thread: computed before the gather's
/// top-level op, where they are affine symbols.
void RingEmitter::emitChunkCount() {
  Location loc = plan.gather.loop.getLoc();
  ModuleOp module = plan.gather.top->getParentOfType<ModuleOp>();
  func::FuncOp threadsFn = lookupOrDeclareFunction(
      module, "omp_get_max_threads", {}, b.getI32Type());
  Value threads = arith::IndexCastOp::create(
      b, loc, b.getIndexType(),
      func::CallOp::create(b, loc, threadsFn, ValueRange{}).getResult(0));
  MLIRContext *ctx = b.getContext();
  Value extent = affine::AffineApplyOp::create(
      b, loc, AffineMap::get(0, symbols.size(), gatherUpper - gatherLower, ctx),
      symbols);
  Value one = arith::ConstantIndexOp::create(b, loc, 1);
  extent = arith::MaxSIOp::create(b, loc, extent, one);
  chunkSize = arith::MaxSIOp::create(
      b, loc, arith::CeilDivSIOp::create(b, loc, extent, threads), one);
  chunkCount = arith::CeilDivSIOp::create(b, loc, extent, chunkSize);
}

/// Makes the accesses to the temporaries under `root` access their rings
/// at plane (first index) mod the ring's planes.
void RingEmitter::retarget(Operation *root, bool stores) {
  int64_t planes = plan.planes();
  auto ringMap = [&](AffineMap map) {
    SmallVector<AffineExpr> results(map.getResults());
    results[0] = results[0] % planes;
    return AffineMap::get(map.getNumDims(), map.getNumSymbols(), results,
                          map.getContext());
  };
  root->walk([&](Operation *op) {
    for (auto [temp, ring] : llvm::zip_equal(plan.temps, rings)) {
      if (auto load = dyn_cast<affine::AffineLoadOp>(op);
          load && !stores && load.getMemRef() == temp.getResult()) {
        OpBuilder at(load);
        auto repl = affine::AffineLoadOp::create(
            at, load.getLoc(), ring, ringMap(load.getAffineMap()),
            load.getMapOperands());
        load.replaceAllUsesWith(repl.getResult());
        load.erase();
        return;
      }
      if (auto store = dyn_cast<affine::AffineStoreOp>(op);
          store && stores && store.getMemRef() == temp.getResult()) {
        OpBuilder at(store);
        affine::AffineStoreOp::create(at, store.getLoc(),
                                      store.getValueToStore(), ring,
                                      ringMap(store.getAffineMap()),
                                      store.getMapOperands());
        store.erase();
        return;
      }
    }
  });
}

/// Plane `plane` (= planeExpr of dims) of the fill nest into the rings, if
/// it is one of the fill's planes (and its guard holds).
void RingEmitter::emitFill(Value plane, AffineExpr planeExpr,
                           ValueRange dims) {
  Location loc = plan.fill.loop.getLoc();
  MLIRContext *ctx = b.getContext();
  SmallVector<Value> operands(dims);
  llvm::append_range(operands, symbols);
  IntegerSet inRange = IntegerSet::get(
      dims.size(), symbols.size(),
      {planeExpr - fillLower, fillUpper - planeExpr - 1}, {false, false});
  auto check = affine::AffineIfOp::create(b, loc, inRange, operands,
                                          /*withElseRegion=*/false);
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(check.getThenBlock());
  if (plan.fill.guard) {
    auto cond = scf::IfOp::create(b, loc, plan.fill.guard.getCondition(),
                                  /*withElseRegion=*/false);
    b.setInsertionPointToStart(cond.thenBlock());
  }
  if (!plane)
    plane = affine::AffineApplyOp::create(
        b, loc, AffineMap::get(dims.size(), 0, planeExpr, ctx), dims);
  IRMapping mapping;
  mapping.map(plan.fill.loop.getIVs()[0], plane);
  for (Operation &op : plan.fill.loop.getBody()->without_terminator()) {
    Operation *clone = b.clone(op, mapping);
    retarget(clone, /*stores=*/true);
  }
}

/// Erases the ops of `block` that are trivially dead, until none is.
static void eraseDeadOps(Block *block) {
  bool changed = true;
  while (changed) {
    changed = false;
    block->walk<WalkOrder::PostOrder>([&](Operation *op) {
      if (isOpTriviallyDead(op)) {
        op->erase();
        changed = true;
      }
    });
  }
}

/// A copy of the gather nest's rows for plane `plane`, their loads of the
/// temporaries retargeted to the rings unless only the deferred writes are
/// kept (then nothing reads memory: their values depend on none).
void RingEmitter::emitRows(Value plane, Writes writes) {
  IRMapping mapping;
  mapping.map(plan.gather.loop.getIVs()[0], plane);
  SmallVector<Operation *> clones;
  for (Operation &op : plan.gather.loop.getBody()->without_terminator())
    clones.push_back(b.clone(op, mapping));
  if (writes == Writes::All) {
    for (Operation *clone : clones)
      retarget(clone, /*stores=*/false);
    return;
  }
  SmallVector<Operation *> dropped;
  for (Operation *clone : clones)
    clone->walk([&](Operation *op) {
      if (!isa<affine::AffineStoreOp, memref::StoreOp>(op))
        return;
      bool deferred = llvm::is_contained(plan.deferred, op->getOperand(1));
      if (deferred != (writes == Writes::OnlyDeferred))
        dropped.push_back(op);
    });
  for (Operation *op : dropped)
    op->erase();
  eraseDeadOps(b.getInsertionBlock());
  if (writes == Writes::NotDeferred)
    for (Operation &op : *b.getInsertionBlock())
      retarget(&op, /*stores=*/false);
}

/// A map of (chunk)[symbols, chunk size] with `results`.
AffineMap RingEmitter::chunkMap(ArrayRef<AffineExpr> results) const {
  return AffineMap::get(1, symbols.size() + 1, results, b.getContext());
}

/// The operands of a chunkMap: `chunk`, the symbols, the chunk size.
SmallVector<Value> RingEmitter::chunkOperands(Value chunk) const {
  SmallVector<Value> operands{chunk};
  llvm::append_range(operands, symbols);
  operands.push_back(chunkSize);
  return operands;
}

/// The first plane of block d0 (chunkMap's dimension): lower + d0 * size.
AffineExpr RingEmitter::chunkStart() const {
  MLIRContext *ctx = b.getContext();
  return gatherLower + getAffineDimExpr(0, ctx) *
                           getAffineSymbolExpr(symbols.size(), ctx);
}

/// A parallel loop over the blocks, [0, chunkCount), at the builder's
/// point.
affine::AffineParallelOp RingEmitter::buildChunkLoop() {
  MLIRContext *ctx = b.getContext();
  return affine::AffineParallelOp::create(
      b, plan.gather.loop.getLoc(), TypeRange{},
      ArrayRef<arith::AtomicRMWKind>{},
      ArrayRef<AffineMap>{AffineMap::get(0, 0, getAffineConstantExpr(0, ctx),
                                         ctx)},
      ValueRange{},
      ArrayRef<AffineMap>{AffineMap::get(0, 1, getAffineSymbolExpr(0, ctx),
                                         ctx)},
      ValueRange{chunkCount}, ArrayRef<int64_t>{1});
}

/// The rows of plane `plane` of block `chunk`: with every write where no
/// neighbouring block's fill reads the plane (from its first plane + hi
/// to its end + lo), else without the writes to the deferred arrays.
void RingEmitter::emitInteriorOrEdge(Value chunk, Value plane) {
  if (plan.deferred.empty())
    return emitRows(plane, Writes::All);
  MLIRContext *ctx = b.getContext();
  // Dims (plane, block start); symbols: the bounds' operands, the size.
  AffineExpr i = getAffineDimExpr(0, ctx), start = getAffineDimExpr(1, ctx);
  AffineExpr size = getAffineSymbolExpr(symbols.size(), ctx);
  Location loc = plan.gather.loop.getLoc();
  SmallVector<Value> operands = chunkOperands(chunk);
  operands[0] = affine::AffineApplyOp::create(b, loc, chunkMap(chunkStart()),
                                              operands);
  operands.insert(operands.begin(), plane);
  IntegerSet interior = IntegerSet::get(
      2, symbols.size() + 1,
      {i - start - plan.hi, start + size + plan.lo - i - 1,
       gatherUpper + plan.lo - i - 1},
      {false, false, false});
  auto check = affine::AffineIfOp::create(b, loc, interior, operands,
                                          /*withElseRegion=*/true);
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(check.getThenBlock());
  emitRows(plane, Writes::All);
  b.setInsertionPointToStart(check.getElseBlock());
  emitRows(plane, Writes::NotDeferred);
}

/// After the blocks: the deferred writes on each block's first `hi` planes
/// and last `-lo` planes (on some planes twice: the values are the same).
void RingEmitter::emitDeferredSweep() {
  Location loc = plan.gather.loop.getLoc();
  auto chunks = buildChunkLoop();
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(chunks.getBody());
  AffineExpr start = chunkStart();
  AffineExpr end = start + getAffineSymbolExpr(symbols.size(), b.getContext());
  SmallVector<Value> operands = chunkOperands(chunks.getIVs()[0]);
  // [start, start + hi), [end + lo, end) and [upper + lo, upper), each
  // clipped to the block.
  SmallVector<std::pair<SmallVector<AffineExpr>, SmallVector<AffineExpr>>>
      ranges;
  if (plan.hi > 0)
    ranges.push_back({{start}, {start + plan.hi, end, gatherUpper}});
  if (plan.lo < 0) {
    ranges.push_back({{start, end + plan.lo}, {end, gatherUpper}});
    ranges.push_back({{start, gatherUpper + plan.lo}, {end, gatherUpper}});
  }
  for (auto &[from, to] : ranges) {
    auto loop = affine::AffineForOp::create(b, loc, operands, chunkMap(from),
                                            operands, chunkMap(to));
    OpBuilder::InsertionGuard inLoop(b);
    b.setInsertionPointToStart(loop.getBody());
    emitRows(loop.getInductionVar(), Writes::OnlyDeferred);
  }
}

/// One thread's block `chunk` of the gather nest's planes: its rings, the
/// prologue, and each plane's fill and rows.
void RingEmitter::emitChunk(Value chunk) {
  Location loc = plan.gather.loop.getLoc();
  MLIRContext *ctx = b.getContext();
  // Rings: the planes times the temporary's other extents.
  for (memref::AllocOp temp : plan.temps) {
    MemRefType type = temp.getType();
    SmallVector<int64_t> shape(type.getShape());
    shape[0] = plan.planes();
    SmallVector<Value> sizes;
    unsigned dynamic = 0;
    for (auto [k, extent] : llvm::enumerate(type.getShape())) {
      if (!ShapedType::isDynamic(extent))
        continue;
      if (k != 0)
        sizes.push_back(temp.getDynamicSizes()[dynamic]);
      ++dynamic;
    }
    auto ringType = MemRefType::get(shape, type.getElementType());
    rings.push_back(memref::AllocOp::create(b, loc, ringType, sizes,
                                            b.getI64IntegerAttr(64)));
  }
  // [start, min(start + size, upper)), start = lower + chunk * size.
  AffineExpr size = getAffineSymbolExpr(symbols.size(), ctx);
  SmallVector<Value> operands = chunkOperands(chunk);
  AffineExpr start = chunkStart();
  AffineMap lower = chunkMap(start);
  AffineMap upper = chunkMap({start + size, gatherUpper});
  // The prologue: planes start + lo .. start + hi - 1.
  auto prologue = affine::AffineForOp::create(
      b, loc, operands, chunkMap(start + plan.lo), operands,
      chunkMap(start + plan.hi));
  {
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(prologue.getBody());
    Value p = prologue.getInductionVar();
    emitFill(p, getAffineDimExpr(0, ctx), ValueRange{p});
  }
  auto planes = affine::AffineForOp::create(b, loc, operands, lower,
                                            operands, upper);
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(planes.getBody());
  Value i = planes.getInductionVar();
  emitFill(Value(), getAffineDimExpr(0, ctx) + plan.hi, ValueRange{i});
  emitInteriorOrEdge(chunk, i);
  b.setInsertionPointAfter(planes);
  for (Value ring : rings)
    memref::DeallocOp::create(b, loc, ring);
}

void RingEmitter::emit() {
  gatherLower = bound(plan.gather.loop, false, symbols);
  gatherUpper = bound(plan.gather.loop, true, symbols);
  fillLower = bound(plan.fill.loop, false, symbols);
  fillUpper = bound(plan.fill.loop, true, symbols);
  b.setInsertionPoint(plan.gather.top);
  emitChunkCount();
  b.setInsertionPoint(plan.gather.loop);
  auto chunks = buildChunkLoop();
  {
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(chunks.getBody());
    emitChunk(chunks.getIVs()[0]);
  }
  if (!plan.deferred.empty()) {
    b.setInsertionPointAfter(chunks);
    emitDeferredSweep();
  }
  plan.gather.loop.erase();
  plan.fill.top->erase();
  for (memref::DeallocOp dealloc : plan.deallocs)
    dealloc.erase();
  for (memref::AllocOp temp : plan.temps)
    temp.erase();
}

namespace {
struct StencilRingCutPass
    : public mlir::stencil::impl::StencilRingCutPassBase<StencilRingCutPass> {
  void runOnOperation() override {
    SmallVector<func::FuncOp> funcs(getOperation().getOps<func::FuncOp>());
    for (func::FuncOp func : funcs)
      for (RingPlan &plan : planRings(func))
        RingEmitter(plan).emit();
    // Temporaries left whole lose the mark: nothing after reads it.
    auto ring = StencilDialect::RingAttrHelper(&getContext());
    getOperation().walk([&](memref::AllocOp alloc) {
      ring.removeAttr(alloc);
    });
  }
};
} // namespace
