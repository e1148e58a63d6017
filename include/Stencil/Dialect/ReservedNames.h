//===- ReservedNames.h - Symbols of the generated code and runtimes -*- C++ -*-===//
//
// The one list of the symbol names that the passes, the lowering and the
// run-time libraries the compiled code links define or call: a user symbol
// of such a name would be called instead of the library's function, clash
// with a declaration the passes add, or break the LLVM module. Passes mark
// what they add themselves (`stencil.runtime`); checkReservedSymbols
// refuses every other symbol in these namespaces, at the symbol. libm's
// names are checked apart (--stencil-check-libm-names), from upstream's own
// list.
//
//===----------------------------------------------------------------------===//

#ifndef STENCIL_DIALECT_RESERVEDNAMES_H
#define STENCIL_DIALECT_RESERVEDNAMES_H

#include "mlir/IR/BuiltinOps.h"
#include "llvm/ADT/StringRef.h"

namespace mlir::stencil {

/// The process grid's symbol in a distributed module (--stencil-distribute).
inline constexpr llvm::StringLiteral kGridName = "stencil_grid";

/// A name, or prefix of names, that generated code or a library owns.
struct ReservedName {
  llvm::StringLiteral name;
  bool prefix;
  /// Who owns it, for the error message.
  llvm::StringLiteral owner;
};

/// Every reserved name and prefix (ReservedNames.cpp).
ArrayRef<ReservedName> getReservedNames();

/// The entry of getReservedNames that `symbol` falls under, or null.
const ReservedName *findReservedName(StringRef symbol);

/// Marks `op`, a symbol a pass added for generated code or a run-time
/// library, as the pipeline's own.
void markRuntimeSymbol(Operation *op);

/// Whether `op` carries the mark of markRuntimeSymbol.
bool isRuntimeSymbol(Operation *op);

/// Reports, at each symbol of `module` (its top level) whose name is
/// reserved and that no pass marked, that it must be renamed. Fails if
/// there is any.
LogicalResult checkReservedSymbols(ModuleOp module);

} // namespace mlir::stencil

#endif // STENCIL_DIALECT_RESERVEDNAMES_H
