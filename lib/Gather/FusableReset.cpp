//===- FusableReset.cpp - The reset after a scatter domain ------*- C++ -*-===//
//
// This file implements matchFusableReset (FusableReset.h).
//
//===----------------------------------------------------------------------===//

#include "FusableReset.h"
#include "Stencil/Conversion/AffineEmitter.h"

#include "mlir/IR/Matchers.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

using namespace mlir;
using namespace mlir::stencil;

std::optional<FusableReset>
mlir::stencil::matchFusableReset(DomainOp scatter) {
  // Skip ops without memory effects (the reset value's constant).
  Operation *op = scatter->getNextNode();
  while (op && !isa<DomainOp>(op) && isMemoryEffectFree(op))
    op = op->getNextNode();
  auto next = dyn_cast_or_null<DomainOp>(op);
  if (!next || next.getNumResults() != 0 || !next.hasSameBounds(scatter))
    return std::nullopt;
  // One store; anything else is free of effects (the constant).
  StoreOp store;
  for (Operation &bodyOp : next.getBodyBlock()->without_terminator()) {
    if (auto s = dyn_cast<StoreOp>(bodyOp); s && !store)
      store = s;
    else if (!isMemoryEffectFree(&bodyOp))
      return std::nullopt;
  }
  unsigned rank = next.getRank();
  SmallVector<int64_t> centre(rank, 0);
  auto atCentre = [&](Operation *op) {
    auto access = cast<AccessOpInterface>(op);
    return getAccessMap(access, rank, centre).isIdentity();
  };
  TypedAttr value;
  if (!store || !matchPattern(store.getValue(), m_Constant(&value)) ||
      !atCentre(store))
    return std::nullopt;
  Value array = store.getArray();
  WalkResult walk = scatter.getBody().walk([&](Operation *op) {
    auto access = dyn_cast<AccessOpInterface>(op);
    if (access && access.getAccessedArray() == array &&
        (access.isWrite() || !atCentre(op)))
      return WalkResult::interrupt();
    return WalkResult::advance();
  });
  if (walk.wasInterrupted())
    return std::nullopt;
  return FusableReset{next, array, value};
}
