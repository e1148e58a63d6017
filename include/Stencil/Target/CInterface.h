//===- CInterface.h - The C interface of compiled stencil code ----*- C++ -*-===//
//
// This file declares the one place that knows how a stencil module is called
// from C: which functions get a `_mlir_ciface_` entry point, how each
// argument and result is passed, and the C header declaring them. Drivers,
// the CMake function and the translation all go through it (docs/ABI.md).
//
//===----------------------------------------------------------------------===//

#ifndef STENCIL_TARGET_CINTERFACE_H
#define STENCIL_TARGET_CINTERFACE_H

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/PassInstrumentation.h"
#include "Stencil/Target/AccessBounds.h"

#include "mlir/Support/LLVM.h"
#include "llvm/ADT/StringSet.h"

#include <optional>
#include <string>
#include <vector>

namespace mlir::stencil {

/// How one argument, or one result, crosses the C interface.
struct CValue {
  /// The C parameter or field name (a C identifier).
  std::string name;
  /// The C type: a scalar (`double`, `int64_t`, ...) or a descriptor
  /// (`StencilMemRef3D_f64`), passed by pointer.
  std::string type;
  /// True for memrefs, passed as a pointer to a descriptor.
  bool isDescriptor = false;
  /// The rank of a descriptor (0 for scalars).
  int64_t rank = 0;
  /// The extents of a descriptor's memref type, -1 where dynamic. Static
  /// extents (and the strides they fix) are compiled into the code.
  std::vector<int64_t> shape;
  /// The element type of a descriptor, or the scalar type: `f64`, `f32`,
  /// `index`, `i64`, ... (MLIR spelling).
  std::string element;
  /// The MLIR type, as printed, for documentation.
  std::string mlirType;
  /// What an argument is (`Argument` for results): an argument of the
  /// function, or, of an adjoint, the shadow of primal argument #`of`, the
  /// seed of primal result #`of`, or an extra argument (`snapshots`, named
  /// in `extra`).
  enum class Role { Argument, Shadow, Seed, Extra } role = Role::Argument;
  int64_t of = -1;
  std::string extra;
};

/// The `_mlir_ciface_<symbol>` entry point of one function.
struct CEntryPoint {
  std::string symbol;
  std::vector<CValue> arguments;
  std::vector<CValue> results;
  /// How results come back: `Return` for a single scalar (the C return
  /// value), `Pointer` for one memref or several results (a first
  /// parameter pointing at a descriptor or at a `<symbol>_results` struct).
  enum class ResultKind { None, Return, Pointer } resultKind = ResultKind::None;
  /// For an adjoint: the symbol of its primal (`stencil.adjoint_of`).
  std::string adjointOf;
  /// For a function distributed by --stencil-distribute
  /// (`stencil.distribution`): the process grid (empty otherwise) and the
  /// halo width of every array argument, on every side.
  std::vector<int64_t> grid;
  int64_t halo = 0;
  /// The arguments that are the rank's blocks (with halos); the other
  /// arrays are whole on every rank (replicated).
  std::vector<int64_t> blocks;
};

/// The entry point of `func`, a function with a body, whether or not it is
/// marked for the C interface. Emits an error on the function and fails for
/// a signature the interface cannot describe.
FailureOr<CEntryPoint> planEntryPoint(func::FuncOp func);

/// Computes the entry points of `module`: its public `func.func` ops with a
/// body and `llvm.emit_c_interface` (see --stencil-prepare-abi). Argument
/// names come from `NameLoc` locations of the entry block arguments where
/// present (see nameArgumentsFromSource), else `arg<i>`. Emits an error on
/// the function and fails for a signature the interface cannot describe.
FailureOr<std::vector<CEntryPoint>> planCInterface(ModuleOp module);

/// The C parameter name of argument `index`, named `irName` in the IR (""
/// if unnamed), distinct from the names in `taken`, to which it is added.
/// The one rule (docs/ABI.md, "Parameter names"): a name that is a C or C++
/// keyword, is reserved by the C or C++ standard, or may be defined by the
/// headers the generated header includes, gets a `_` appended.
std::string cParameterName(StringRef irName, unsigned index,
                           llvm::StringSet<> &taken);

/// Writes a C header declaring `entryPoints`. `source` names the input in
/// the header's first comment (bytes that could end the comment
/// percent-encoded); `guard` is its include guard.
void printCHeader(ArrayRef<CEntryPoint> entryPoints, StringRef source,
                  StringRef guard, raw_ostream &os);

/// Writes the entry points as JSON for tools that call them without a C
/// compiler (ctypes, the Python package): every argument and result with its
/// kind, C type, rank and element type, and the descriptor's fields in
/// order, so that no tool restates the layout.
/// With `bounds` (planAccessBounds of the input, by symbol), each entry point
/// also lists what it accesses of its arrays (an adjoint: its primal's).
void printCInterfaceJSON(
    ArrayRef<CEntryPoint> entryPoints, raw_ostream &os,
    const llvm::StringMap<FunctionAccessBounds> *bounds = nullptr);

/// The include guard of a header named `headerName` (from `source` if
/// empty), so that headers generated from one source under different names
/// can be included together.
std::string getHeaderGuard(StringRef source, StringRef headerName);

/// planCInterface then printCHeader, with an include guard derived from the
/// header's file name `headerName` (from `source` if empty), so that headers
/// generated from one source under different names can be included
/// together.
LogicalResult emitCHeader(ModuleOp module, StringRef source,
                          StringRef headerName, raw_ostream &os);

/// Plans the C interface where the tools need it: right after
/// --stencil-prepare-abi, when the functions are still `func.func` with
/// their memref types and every function the earlier passes added (the
/// adjoints) is there. Attach it to the pass manager that lowers the module.
struct PlanAfterPrepareABI : public PassInstrumentation {
  PlanAfterPrepareABI();
  void runAfterPass(Pass *pass, Operation *op) override;

  /// Unset until prepare-abi has run; a failure has been reported.
  std::optional<FailureOr<std::vector<CEntryPoint>>> plan;
  /// The pass's command-line argument, for messages.
  std::string prepareABI;
};

} // namespace mlir::stencil

#endif // STENCIL_TARGET_CINTERFACE_H
