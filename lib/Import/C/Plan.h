//===- Plan.h - The import plan of a C function ----------------*- C++ -*-===//
//
// What the importer decided about a C function before it builds any IR: how
// each parameter maps to an argument, the loop nests with their bounds, and
// every array access with its dimensions and offsets. Plain data, printed as
// JSON by `stencil-import-c --print-plan`; Emit.cpp builds the IR from it.
//
//===----------------------------------------------------------------------===//

#ifndef STENCIL_LIB_IMPORT_C_PLAN_H
#define STENCIL_LIB_IMPORT_C_PLAN_H

#include "mlir/IR/AffineMap.h"
#include "mlir/IR/Location.h"
#include "mlir/IR/Types.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/Support/raw_ostream.h"

#include <string>
#include <vector>

namespace mlir::stencil::importc {

/// How a C parameter becomes a function argument.
enum class ParamKind {
  Array,  ///< an array or pointer: a memref
  Size,   ///< an integer: an `index`, a symbol of the loop bounds
  Scalar, ///< a float: an f64/f32 value
};

struct ParamPlan {
  std::string name;
  ParamKind kind = ParamKind::Scalar;
  LocationAttr loc;
  Type element; ///< f64 or f32 (arrays and scalars)
  /// The memref shape (ShapedType::kDynamic where the extent is not a
  /// constant), outermost first.
  llvm::SmallVector<int64_t> shape;
  /// The extents as written in C ("n", "8"), "?" where C does not say.
  llvm::SmallVector<std::string> extents;
  /// A pointer indexed with linearized subscripts (`u[(i*ny + j)*nz + k]`).
  bool linearized = false;
  /// The strides of a linearized array, as C expressions, outermost first.
  llvm::SmallVector<std::string> strides;
  /// A pointer local (`double *cur = u1;`), not an argument: the index of
  /// the array it starts as. -1 for a parameter. Locals follow the
  /// parameters in FunctionPlan::params.
  int initial = -1;
  bool active = false;
  bool readOnly = false; ///< `const` elements
  bool restrict = false;
  bool written = false;
  bool used = false;
};

/// One array access in a loop body.
struct AccessPlan {
  enum class Kind { Read, Store, Accumulate };
  unsigned param = 0; ///< index into FunctionPlan::params
  Kind kind = Kind::Read;
  /// Per array dimension: the iteration dimension that indexes it, or
  /// kFixedDim for a constant index.
  llvm::SmallVector<int64_t> dims;
  /// Per array dimension: the constant offset (the index itself for a
  /// fixed dimension).
  llvm::SmallVector<int64_t> offsets;
  LocationAttr loc;
};

/// A perfect loop nest: a stencil.domain.
struct NestPlan {
  LocationAttr loc;
  /// Empty for a point update of a time step (`next[sx] += w[t];`): a
  /// domain of one point, bounds [index, index + 1) in each dimension.
  llvm::SmallVector<std::string> counters;
  /// Symbol-only maps over the function's size parameters (symbol k is the
  /// k-th Size parameter); the upper bounds are exclusive.
  AffineMap lower, upper;
  std::vector<AccessPlan> accesses;
};

/// A loop over time steps around nests (an scf.for whose iteration
/// arguments are the pointer locals the step rotates).
struct TimeLoopPlan {
  LocationAttr loc;
  std::string counter;
  /// Symbol-only maps as for nests; one result each.
  AffineMap lower, upper;
  /// The nests of the step: [firstNest, firstNest + numNests).
  unsigned firstNest = 0, numNests = 0;
  /// The pointer locals the step assigns, in declaration order.
  llvm::SmallVector<unsigned> states;
};

struct FunctionPlan {
  std::string name;
  LocationAttr loc;
  /// The parameters, then the pointer locals.
  std::vector<ParamPlan> params;
  std::vector<NestPlan> nests;
  std::vector<TimeLoopPlan> timeLoops;

  /// The number of parameters (the function's arguments).
  unsigned numArgs() const;

  /// The indices of the Size parameters, in order: the symbols of the
  /// bound maps.
  llvm::SmallVector<unsigned> sizeParams() const;
};

/// Writes the plans as one JSON object `{"functions": [...]}`.
void printPlanJSON(llvm::ArrayRef<FunctionPlan> plans, llvm::raw_ostream &os);

} // namespace mlir::stencil::importc

#endif // STENCIL_LIB_IMPORT_C_PLAN_H
