//===- CutPlan.cpp - Shared values a scatter domain stores once -*- C++ -*-===//
//
// This file implements planCuts (CutPlan.h). The gather form evaluates each
// statement at its own shift, so a value that statements at s distinct
// shifts depend on is computed s times per point, with everything it
// depends on. Stored once per point, it is read back at each shift instead.
// The greedy choice needs only slices: bit vectors over the body's ops.
//
//===----------------------------------------------------------------------===//

#include "CutPlan.h"
#include "Stencil/Dialect/StencilDialect.h"
#include "Stencil/Gather/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Matchers.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "llvm/ADT/BitVector.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/Support/raw_ostream.h"

#include <map>

using namespace mlir;
using namespace mlir::stencil;

namespace {
/// The body of one domain as a DAG over indices, with its statements
/// grouped by shift.
struct BodyGraph {
  SmallVector<Operation *> ops;
  /// For each op, the indices of the body ops it uses (its operands and
  /// those of its nested ops).
  SmallVector<SmallVector<unsigned>> deps;
  /// For each op, whether it costs nothing (a constant).
  llvm::BitVector free;
  /// For each distinct write offset, the ops whose values are written.
  SmallVector<SmallVector<unsigned>> shiftRoots;
  /// The distinct write offsets, in the order of shiftRoots.
  SmallVector<SmallVector<int64_t>> shiftOffsets;

  explicit BodyGraph(DomainOp domain);

  /// The slice of each op with the ops in `cut` as leaves.
  SmallVector<llvm::BitVector> slices(const llvm::BitVector &cut) const;
  /// The union of the slices of each shift's roots.
  SmallVector<llvm::BitVector>
  shiftSlices(ArrayRef<llvm::BitVector> slices) const;
  /// The non-free ops set in `bits`.
  uint64_t cost(const llvm::BitVector &bits) const {
    llvm::BitVector paid = bits;
    paid.reset(free);
    return paid.count();
  }
  /// Whether op `i` may be stored in a temporary array.
  bool isCandidate(unsigned i) const;
};
} // namespace

BodyGraph::BodyGraph(DomainOp domain) {
  Block *body = domain.getBodyBlock();
  llvm::DenseMap<Operation *, unsigned> index;
  for (Operation &op : body->without_terminator()) {
    index[&op] = ops.size();
    ops.push_back(&op);
  }
  deps.resize(ops.size());
  free.resize(ops.size());
  for (auto [i, op] : llvm::enumerate(ops)) {
    free[i] = matchPattern(op, m_Constant());
    op->walk([&, i = i](Operation *nested) {
      for (Value operand : nested->getOperands())
        if (Operation *def = operand.getDefiningOp())
          if (auto it = index.find(def); it != index.end())
            deps[i].push_back(it->second);
    });
  }
  unsigned rank = domain.getRank();
  std::map<SmallVector<int64_t>, unsigned> shiftIndex;
  for (Operation *op : ops) {
    auto access = dyn_cast<AccessOpInterface>(op);
    if (!access || !access.isWrite())
      continue;
    SmallVector<int64_t> offset = *getIterationOffset(access, rank);
    auto [it, inserted] = shiftIndex.insert({offset, shiftRoots.size()});
    if (inserted) {
      shiftRoots.emplace_back();
      shiftOffsets.push_back(offset);
    }
    // The write itself: its value's slice is its own minus the write.
    shiftRoots[it->second].push_back(index[op]);
  }
}

SmallVector<llvm::BitVector>
BodyGraph::slices(const llvm::BitVector &cut) const {
  SmallVector<llvm::BitVector> result(ops.size(),
                                      llvm::BitVector(ops.size()));
  // Body ops come in dominance order: operands before users.
  for (unsigned i = 0; i < ops.size(); ++i) {
    result[i].set(i);
    if (cut[i])
      continue;
    for (unsigned d : deps[i])
      result[i] |= result[d];
  }
  return result;
}

SmallVector<llvm::BitVector>
BodyGraph::shiftSlices(ArrayRef<llvm::BitVector> slices) const {
  SmallVector<llvm::BitVector> result;
  for (ArrayRef<unsigned> roots : shiftRoots) {
    llvm::BitVector bits(ops.size());
    for (unsigned root : roots)
      for (unsigned d : deps[root])
        bits |= slices[d];
    result.push_back(std::move(bits));
  }
  return result;
}

bool BodyGraph::isCandidate(unsigned i) const {
  Operation *op = ops[i];
  return op->getNumResults() == 1 && op->getNumRegions() == 0 && !free[i] &&
         isa<FloatType>(op->getResult(0).getType()) && !isa<GatherOp>(op) &&
         isPure(op);
}

CutPlan mlir::stencil::planCuts(DomainOp domain, uint64_t minGain) {
  BodyGraph graph(domain);
  CutPlan plan;
  llvm::BitVector cut(graph.ops.size());
  auto total = [&](ArrayRef<llvm::BitVector> perShift) {
    uint64_t sum = 0;
    for (const llvm::BitVector &bits : perShift)
      sum += graph.cost(bits);
    return sum;
  };
  while (true) {
    SmallVector<llvm::BitVector> slices = graph.slices(cut);
    SmallVector<llvm::BitVector> perShift = graph.shiftSlices(slices);
    if (plan.cuts.empty())
      plan.opsBefore = total(perShift);
    plan.opsAfter = total(perShift);
    std::optional<CutValue> best;
    unsigned bestIndex = 0;
    for (unsigned i = 0; i < graph.ops.size(); ++i) {
      if (cut[i] || !graph.isCandidate(i))
        continue;
      unsigned shifts = llvm::count_if(
          perShift, [&](const llvm::BitVector &bits) { return bits[i]; });
      if (shifts < 2)
        continue;
      uint64_t sliceOps = graph.cost(slices[i]);
      uint64_t gain = (shifts - 1) * sliceOps;
      if (gain >= minGain && (!best || gain > best->gain)) {
        best = CutValue{graph.ops[i], shifts, sliceOps, gain};
        bestIndex = i;
      }
    }
    if (!best)
      return plan;
    plan.cuts.push_back(*best);
    cut.set(bestIndex);
  }
}

bool mlir::stencil::readsOffCentre(DomainOp domain, const CutPlan &plan,
                                   Value array) {
  BodyGraph graph(domain);
  llvm::BitVector cut(graph.ops.size());
  for (const CutValue &value : plan.cuts)
    cut.set(llvm::find(graph.ops, value.op) - graph.ops.begin());
  SmallVector<llvm::BitVector> perShift =
      graph.shiftSlices(graph.slices(cut));
  for (auto [offset, bits] : llvm::zip_equal(graph.shiftOffsets, perShift)) {
    if (llvm::all_of(offset, [](int64_t o) { return o == 0; }))
      continue;
    for (unsigned i : bits.set_bits()) {
      auto read = dyn_cast<GatherOp>(graph.ops[i]);
      if (read && read.getArray() == array)
        return true;
    }
  }
  return false;
}

/// Whether `value` is a cut value times finite constants of the body.
static bool isScaledCut(Value value, const llvm::DenseSet<Operation *> &cuts,
                        Block *body) {
  Operation *def = value.getDefiningOp();
  if (!def || def->getBlock() != body)
    return false;
  if (cuts.contains(def))
    return true;
  if (auto neg = dyn_cast<arith::NegFOp>(def))
    return isScaledCut(neg.getOperand(), cuts, body);
  auto mul = dyn_cast<arith::MulFOp>(def);
  if (!mul)
    return false;
  auto isFiniteConstant = [](Value v) {
    FloatAttr attr;
    return matchPattern(v, m_Constant(&attr)) && attr.getValue().isFinite();
  };
  return (isScaledCut(mul.getLhs(), cuts, body) &&
          isFiniteConstant(mul.getRhs())) ||
         (isFiniteConstant(mul.getLhs()) &&
          isScaledCut(mul.getRhs(), cuts, body));
}

void mlir::stencil::planPaddedGather(DomainOp domain, CutPlan &plan) {
  if (plan.cuts.empty() || domain.getNumResults() != 0)
    return;
  llvm::DenseSet<Operation *> cuts;
  for (const CutValue &cut : plan.cuts)
    cuts.insert(cut.op);
  Block *body = domain.getBodyBlock();
  unsigned rank = domain.getRank();
  SmallVector<int64_t> lo(rank, 0), hi(rank, 0);
  bool first = true;
  // The gather form writes each array through one `dims`: the first
  // accumulate's.
  llvm::DenseMap<Value, std::optional<ArrayRef<int64_t>>> dimsOf;
  for (Operation &op : body->without_terminator()) {
    auto access = dyn_cast<AccessOpInterface>(&op);
    if (!access || !access.isWrite())
      continue;
    auto acc = dyn_cast<AccumulateOp>(&op);
    if (!acc || !isScaledCut(acc.getValue(), cuts, body))
      return;
    auto [it, inserted] = dimsOf.try_emplace(acc.getArray(), acc.getDims());
    if (!inserted && it->second != acc.getDims())
      return;
    SmallVector<int64_t> offset = *getIterationOffset(access, rank);
    for (unsigned k = 0; k < rank; ++k) {
      lo[k] = first ? offset[k] : std::min(lo[k], offset[k]);
      hi[k] = first ? offset[k] : std::max(hi[k], offset[k]);
    }
    first = false;
  }
  PaddedGather padded;
  for (unsigned k = 0; k < rank; ++k)
    padded.span.push_back(hi[k] - lo[k]);
  plan.padded = padded;
}

int64_t mlir::stencil::planRingPlanes(DomainOp domain) {
  auto func = domain->getParentOfType<func::FuncOp>();
  if (domain.getRank() < 2 || !func ||
      !StencilDialect::NoaliasAttrHelper(domain.getContext())
           .isAttrPresent(func))
    return 0;
  int64_t lo = 0, hi = 0;
  for (Operation &op : domain.getBodyBlock()->without_terminator())
    if (auto access = dyn_cast<AccessOpInterface>(&op);
        access && access.isWrite()) {
      int64_t o = (*getIterationOffset(access, domain.getRank()))[0];
      lo = std::min(lo, o);
      hi = std::max(hi, o);
    }
  int64_t planes = hi - lo + 1;
  return planes <= kMaxRingPlanes ? planes : 0;
}

void CutPlan::printJSON(raw_ostream &os) const {
  os << "{\"ops_before\": " << opsBefore << ", \"ops_after\": " << opsAfter
     << ", \"ring\": " << (ring ? "true" : "false")
     << ", \"ring_planes\": " << ringPlanes << ", \"padded\": ";
  if (padded) {
    os << "[";
    llvm::interleaveComma(padded->span, os);
    os << "]";
  } else {
    os << "null";
  }
  os << ", \"cuts\": [";
  llvm::interleaveComma(cuts, os, [&](const CutValue &cut) {
    os << "{\"op\": \"" << cut.op->getName() << "\", \"shifts\": "
       << cut.shifts << ", \"slice_ops\": " << cut.sliceOps
       << ", \"gain\": " << cut.gain << "}";
  });
  os << "]}";
}
