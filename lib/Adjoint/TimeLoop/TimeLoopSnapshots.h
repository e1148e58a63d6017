//===- TimeLoopSnapshots.h - Snapshots of a reversed time loop --*- C++ -*-===//
//
// Where the states that the reversal of a time loop keeps live in the
// run-time library's workspace, and the copies into and out of them
// (docs/TimeLoops.md, section 3).
//
//===----------------------------------------------------------------------===//

#ifndef STENCIL_LIB_ADJOINT_TIMELOOPSNAPSHOTS_H
#define STENCIL_LIB_ADJOINT_TIMELOOPSNAPSHOTS_H

#include "TimeLoopPlan.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinTypes.h"

namespace mlir::stencil::ad {

/// The box of a state array that the step overwrites before reading it
/// (planOverwrittenBox), in the driver's values: a slot keeps the rest.
struct SnapshotBox {
  SmallVector<Value> lower, upper;
};

/// `box` (in the step's terms) in the values of the step's caller, where
/// `argumentValue(k)` is the loop-invariant index it passes as argument k
/// of the step, for each argument a bound uses.
SnapshotBox materializeBox(OpBuilder &builder, Location loc,
                           const OverwrittenBox &box,
                           function_ref<Value(int64_t)> argumentValue);

/// The parts of a snapshot of an array with a SnapshotBox: its border, as
/// boxes (offset and size per dimension) packed one after the other.
struct BorderParts {
  SmallVector<SmallVector<Value>> offsets, sizes;
  /// The element each part starts at in the slot's border block, and the
  /// elements of the whole border.
  SmallVector<Value> starts;
  Value elements;
};

/// The snapshot slots of a state of several arrays: slot k of state array j
/// starts at byte k * slotBytes() + offset j, each array on a cache line.
///
/// A schedule that stores every state (store-all) never restores a slot:
/// it only reverses steps from them, so its slots keep only the arrays the
/// step's adjoint reads (`read`); other schedules restore slots to advance
/// from them and keep the whole state. Whether the schedule is store-all is
/// known at run time only (`storeAll`, an i1), so the offsets and the slot
/// size are selected then.
///
/// An array with a box (`borders`) that no step's adjoint reads keeps only
/// its border under the other schedules, where the flag constant marked
/// `stencil.snapshot_borders` is true (--stencil-distribute sets it to
/// false); its whole contents where it is false.
class SnapshotLayout {
public:
  /// Emits the layout of state arrays of types `types` with the dynamic
  /// extents `sizes`, planned as `state` (what the step's adjoint reads,
  /// which arrays keep only their border), where `boxes` are the boxes of
  /// the plan in the driver's values.
  SnapshotLayout(OpBuilder &builder, Location loc, ArrayRef<MemRefType> types,
                 ArrayRef<SmallVector<Value>> sizes,
                 ArrayRef<StateArrayPlan> state,
                 ArrayRef<std::optional<SnapshotBox>> boxes, Value storeAll);

  /// The bytes of one slot, for the library to size the workspace.
  Value slotBytes() const { return stride; }
  /// The workspace (a memref<?xi8>), once the library has sized it.
  void setWorkspace(Value bytes) { workspace = bytes; }

  /// Copies the working `arrays` into slot `slot` (`restore`: the other
  /// way), the arrays it keeps.
  void emitCopies(OpBuilder &builder, Location loc, Value slot,
                  ValueRange arrays, bool restore) const;
  /// The arrays to reverse a step from when its state is in `slot`: views
  /// of the slot for what the step's adjoint reads, `working` for the
  /// rest. Requires identity layouts (snapshotsCanStandIn).
  SmallVector<Value> reversedFrom(OpBuilder &builder, Location loc, Value slot,
                                  ValueRange working) const;
  /// Whether views of the slots can be passed where the arrays are: the
  /// arrays have the identity layout, as the views do.
  bool snapshotsCanStandIn() const;

private:
  /// The byte at which array `array`'s part of slot `slot` starts.
  Value partStart(OpBuilder &builder, Location loc, Value slot,
                  unsigned array) const;
  Value view(OpBuilder &builder, Location loc, Value slot,
             unsigned array) const;
  /// Whether array `array` is left out of the slots under store-all.
  bool leftOutOfStoreAll(unsigned array) const;
  /// The bytes array `array` takes in a slot outside store-all, of whole
  /// `bytes` (its border's where the flag selects them).
  Value slotPartBytes(OpBuilder &builder, Location loc, unsigned array,
                      Value bytes);
  void emitWholeCopy(OpBuilder &builder, Location loc, Value slot,
                     unsigned array, Value working, bool restore) const;
  void emitBorderCopy(OpBuilder &builder, Location loc, Value slot,
                      unsigned array, Value working, bool restore) const;

  SmallVector<MemRefType> types;
  SmallVector<SmallVector<Value>> sizes;
  SmallVector<bool> read;
  /// The border of each array with a box; the flag that selects them.
  SmallVector<std::optional<BorderParts>> borders;
  Value bordersFlag;
  Value storeAll, stride, workspace;
  SmallVector<Value> offsets;
};

} // namespace mlir::stencil::ad

#endif // STENCIL_LIB_ADJOINT_TIMELOOPSNAPSHOTS_H
