//===- NarrowArithmetic.h - 32-bit loop index arithmetic ---------*- C++ -*-===//
//
// The second half of --stencil-narrow-gpu-indices: in the 32-bit clone of a
// nest, i32 copies of the index arithmetic (loop indices, the bounds checks
// of the tiling, the guards of the gather form), each with a bound on its
// magnitude so that no copy can overflow where the index value would not.
// Values from outside the nest are bounded by a run-time check on the host.
//
//===----------------------------------------------------------------------===//

#ifndef STENCIL_LIB_GPU_NARROWARITHMETIC_H
#define STENCIL_LIB_GPU_NARROWARITHMETIC_H

#include "mlir/Dialect/SCF/IR/SCF.h"
#include "llvm/ADT/DenseMap.h"

namespace mlir::stencil {

class IndexArithmetic32 {
public:
  /// The magnitude bound the host checks on every index value from outside
  /// the nest (2^28): sums of a few of them and loop indices stay far from
  /// 2^31.
  static constexpr int64_t kOutsideBound = int64_t(1) << 28;

  /// Index values defined outside `root` that it uses (its bounds too).
  static SmallVector<Value> getOutsideValues(scf::ParallelOp root);

  /// Builds i32 copies of the index ops in `root`, a clone whose outside
  /// values the host has bounded; compares are replaced by their copies.
  void run(scf::ParallelOp root);

  /// The i32 copy of index value `v`, or null.
  Value lookup(Value v) const;

private:
  struct Narrow {
    Value value;
    int64_t bound;
  };
  FailureOr<Narrow> get(Value v, OpBuilder &b);
  FailureOr<int64_t> getBound(Value v);
  void narrowOp(Operation *op);

  scf::ParallelOp root;
  llvm::DenseMap<Value, Narrow> narrowed;
};

} // namespace mlir::stencil

#endif // STENCIL_LIB_GPU_NARROWARITHMETIC_H
