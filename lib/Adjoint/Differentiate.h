//===- Differentiate.h - Entry points of --stencil-adjoint ------*- C++ -*-===//
//
// The two ways --stencil-adjoint differentiates a function, shared between
// the straight-line differentiator (StencilAdjoint.cpp) and the reversal of
// time loops (TimeLoopAdjoint.cpp), which differentiates the loop's body as a
// straight-line step function. Internal to lib/Adjoint.
//
//===----------------------------------------------------------------------===//

#ifndef STENCIL_LIB_ADJOINT_DIFFERENTIATE_H
#define STENCIL_LIB_ADJOINT_DIFFERENTIATE_H

#include "Stencil/Dialect/StencilDialect.h"
#include "Stencil/Dialect/StencilOps.h"
#include "Stencil/Adjoint/AdjointOpInterface.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/SCF/IR/SCF.h"

namespace mlir::stencil::ad {

/// The argument attribute that selects what to differentiate.
inline constexpr StringLiteral kActiveAttr =
    StencilDialect::ActiveAttrHelper::getNameStr();

/// Returns true if `type` is f32 or f64.
inline bool isStencilFloat(Type type) { return type.isF32() || type.isF64(); }

/// Returns the extents of the dynamic dimensions of `array` (memref.dim).
SmallVector<Value> getDynamicSizes(OpBuilder &builder, Location loc,
                                   Value array);

/// Creates, at the builder's insertion point, a domain over every element of
/// an array of type `type` (rank >= 1) whose dynamic extents are
/// `dynamicSizes`, and returns it; its body holds only the yield.
DomainOp createFullDomain(OpBuilder &builder, Location loc, MemRefType type,
                          ValueRange dynamicSizes);

/// Creates `name`, the empty adjoint of `primal`, next to it, with the
/// signature of docs/Adjoint.md: the primal's arguments, a shadow per
/// argument in `activeArgs` (an array, or a `memref<T>` for a scalar), a
/// seed per result, then the `extra` (type, name) arguments. Names its
/// arguments and gives it an entry block. Fails (reported) if the name is
/// taken.
FailureOr<func::FuncOp>
createAdjointSignature(OpBuilder &builder, func::FuncOp primal,
                       ArrayRef<unsigned> activeArgs, StringRef name,
                       ArrayRef<std::pair<Type, StringRef>> extra = {});

/// Maps the arguments of `primal` to those of the adjoint's entry block
/// (created by createAdjointSignature) in `state`, and each active array
/// to its shadow argument.
void mapAdjointArguments(func::FuncOp primal, Block *entry,
                         ArrayRef<unsigned> activeArgs, AdjointState &state);

/// Reverses the function-level op `op` by its rule, if any of its results
/// has an adjoint; reports an op without a rule.
LogicalResult reverseScalarOp(OpBuilder &builder, Operation *op,
                              AdjointState &state);

/// Returns the adjoint of `value` so far, or a zero of its type.
Value getAdjointOrZero(OpBuilder &builder, Location loc,
                       const AdjointState &state, Value value);

/// Adds the gradient of each active scalar argument of `primal` (its
/// adjoint in `state`) to its `memref<T>` shadow argument of `entry`.
void addScalarGradients(OpBuilder &builder, func::FuncOp primal, Block *entry,
                        ArrayRef<unsigned> activeArgs,
                        const AdjointState &state);

/// Builds `name`, the adjoint of the straight-line function `primal`, next
/// to it (docs/Adjoint.md). Reports and returns failure on unsupported
/// input, leaving the module as it was.
FailureOr<func::FuncOp> differentiateStraightLine(func::FuncOp primal,
                                                  StringRef name,
                                                  bool resetOutputs);

/// Warns, at `func`, if it has no output through which a gradient flows
/// back: no result and no write of an argument marked stencil.active
/// (through a time loop's iter_args too). Its adjoint would then compute 0
/// for every gradient; the warning names the arguments it writes that are
/// not marked (ActiveOutputs.cpp).
void warnIfNoActiveOutput(func::FuncOp func);

/// How a time loop is reversed (the options of --stencil-adjoint).
struct TimeLoopOptions {
  /// Reset the shadows of assigned arrays once consumed.
  bool resetOutputs = true;
  /// Snapshots keep only the borders of the arrays a step overwrites
  /// before reading them (docs/TimeLoops.md, section 4).
  bool snapshotBorders = true;
  /// Hand-overs whose value depends on the shadow handed over alone are
  /// stored by the next step reversed (docs/TimeLoops.md, section 3).
  bool deferHandOvers = true;
  /// Print each time loop's plan as a JSON remark at the loop.
  bool report = false;
};

/// Builds `name`, the adjoint of `primal`, whose body holds the time loop
/// `loop` (docs/TimeLoops.md), together with the step function it calls and
/// the step's adjoint. Plans the whole reversal first (TimeLoop/
/// TimeLoopPlan.h) and reports every refusal before the module changes.
FailureOr<func::FuncOp> differentiateTimeLoop(func::FuncOp primal,
                                              scf::ForOp loop, StringRef name,
                                              const TimeLoopOptions &options);

} // namespace mlir::stencil::ad

#endif // STENCIL_LIB_ADJOINT_DIFFERENTIATE_H
