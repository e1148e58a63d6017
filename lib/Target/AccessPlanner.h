//===- AccessPlanner.h - The planner of AccessBounds.h ---------*- C++ -*-===//
//
// The planner of the index ranges a function accesses (AccessBounds.h),
// shared by AccessBounds.cpp (functions, loops, rectangular domains) and
// AccessBoundsNonrect.cpp (the coordinates of nonrectangular domains).
// Private to lib/Target.
//
//===----------------------------------------------------------------------===//

#ifndef STENCIL_LIB_TARGET_ACCESSPLANNER_H
#define STENCIL_LIB_TARGET_ACCESSPLANNER_H

#include "Stencil/Dialect/StencilInterfaces.h"
#include "Stencil/Dialect/StencilOps.h"
#include "Stencil/Target/AccessBounds.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "llvm/ADT/StringSet.h"

#include <optional>
#include <vector>

namespace mlir::stencil::access_plan {

/// An interval [lo, hi] of index values.
struct IndexRange {
  IndexExpr lo, hi;
};

inline std::optional<IndexRange> add(const IndexRange &a, int64_t scale, const IndexRange &b) {
  const IndexExpr &bLo = scale >= 0 ? b.lo : b.hi;
  const IndexExpr &bHi = scale >= 0 ? b.hi : b.lo;
  auto lo = IndexExpr::combine(a.lo, scale, bLo);
  auto hi = IndexExpr::combine(a.hi, scale, bHi);
  if (!lo || !hi)
    return std::nullopt;
  return IndexRange{*lo, *hi};
}

/// The interval holding `c` alone.
inline IndexRange point(int64_t c) {
  return IndexRange{IndexExpr::ofConstant(c), IndexExpr::ofConstant(c)};
}

/// [lb, ub) as an inclusive interval: its last element is ub - 1.
inline std::optional<IndexRange> lastBefore(const IndexRange &ub) {
  return add(ub, -1, point(1));
}

inline std::optional<IndexRange> scale(const IndexRange &a, int64_t factor) {
  return add(IndexRange{}, factor, a);
}

/// How one dimension of an array value maps to its argument: the value's
/// dimension `viewDim` (-1: dropped by a rank-reducing subview) times
/// `stride`, plus `offset`.
struct ViewDim {
  int64_t viewDim;
  int64_t stride;
  IndexRange offset;
};

/// Where an array value comes from: any of `arguments` (several when a time
/// loop rotates them), seen through `dims` (one per argument dimension);
/// `local` for arrays the function allocates.
struct View {
  SmallVector<unsigned> arguments;
  SmallVector<ViewDim> dims;
  bool local = false;
};

inline constexpr const char *kUnknownArray =
    "an array that is neither an argument, a subview of one, a time-loop "
    "rotation of them nor allocated here";

class Planner {
public:
  explicit Planner(func::FuncOp func) : func(func) {}
  FunctionAccessBounds run();

private:
  using Conditions = SmallVector<std::pair<IndexExpr, IndexExpr>>;

  bool fail(Operation *op, const Twine &why);
  std::optional<IndexRange> rangeOf(Value value, Operation *user);
  std::optional<IndexRange> evalAffine(AffineExpr expr,
                                       ArrayRef<IndexRange> symbols,
                                       Operation *user,
                                       ArrayRef<IndexRange> dims = {});
  bool walkBounds(DomainOp domain, ArrayRef<IndexRange> symbols,
                  Conditions &when);
  bool walkGroupBounds(DomainOp domain, unsigned d,
                       ArrayRef<IndexRange> symbols, Conditions &when);
  bool rowEnds(DomainOp domain, unsigned d, ArrayRef<IndexRange> symbols,
               ArrayRef<IndexRange> outer, SmallVectorImpl<IndexExpr> &los,
               SmallVectorImpl<IndexExpr> &ends);
  void record(const View &view, ArrayRef<IndexRange> indices, bool writes,
              const Conditions &when,
              std::optional<unsigned> onlyIndex = std::nullopt,
              ArrayRef<unsigned> skipIndices = {});
  void recordAccess(DomainOp domain, AccessOpInterface access,
                    const View &view, ArrayRef<IndexRange> indices,
                    const Conditions &when);
  void recordFit(Value value, const IndexRange &range, const Conditions &when);
  void walkBlock(Block &block, Conditions &when);
  void walkOp(Operation *op, Conditions &when);
  void walkFor(scf::ForOp loop, Conditions &when);
  void walkDomain(DomainOp domain, Conditions &when);
  void walkSubview(memref::SubViewOp subview, Conditions &when);
  void access(Operation *op, Value array, ValueRange indices, bool writes,
              const Conditions &when);

  /// A range of a nonrectangular domain's coordinate that holds under
  /// `conditions`: one per choice of its tightest lower and upper ends.
  struct Alternative {
    IndexRange range;
    Conditions conditions;
  };
  bool appendChoices(DomainOp domain, ArrayRef<IndexExpr> los,
                     ArrayRef<IndexExpr> ends, const Conditions &base,
                     std::vector<Alternative> &out);

  func::FuncOp func;
  DenseMap<Value, IndexRange> ranges;
  DenseMap<Value, std::vector<Alternative>> alternatives;
  DenseMap<Value, View> views;
  FunctionAccessBounds out;
  llvm::StringSet<> seen;
};

} // namespace mlir::stencil::access_plan

#endif // STENCIL_LIB_TARGET_ACCESSPLANNER_H
