//===- CImporter.h - C loop nests to the stencil dialect ---------*- C++ -*-===//
//
// The C front end: parses a C file with Clang's libraries and imports the
// stencil loop nests of its functions as stencil-dialect IR, every op located
// at the C line and column it comes from. docs/ImportC.md lists the subset
// of C it accepts; everything else is refused with a located diagnostic.
//
//===----------------------------------------------------------------------===//

#ifndef STENCIL_IMPORT_CIMPORTER_H
#define STENCIL_IMPORT_CIMPORTER_H

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/OwningOpRef.h"
#include "llvm/Support/raw_ostream.h"

#include <string>
#include <vector>

namespace mlir::stencil {

/// What to import and how.
struct CImportOptions {
  /// The functions to import; empty: every function defined in the file.
  std::vector<std::string> functions;
  /// Parameters to mark `{stencil.active}`, besides those annotated
  /// `__attribute__((annotate("stencil_active")))`.
  std::vector<std::string> active;
  /// Assume that array parameters without `restrict` do not alias.
  bool assumeNoAlias = false;
  /// The extents of flat arrays indexed by hand, one `name:e0,e1,...` per
  /// array, outermost first, over the integer parameters (`w:nx,ny,nz`):
  /// the array gets that layout instead of the one its subscripts show.
  std::vector<std::string> extents;
  /// Further arguments for Clang (`-DN=64`, `-Iinclude`, `-std=c11`).
  std::vector<std::string> clangArgs;
};

/// Imports `path`. Returns null after reporting at least one error: Clang's
/// own (for C that does not compile) on stderr, the importer's through the
/// context's diagnostic handler, located at the C source. With `planJSON`,
/// also writes the import plan (parameters, nests, accesses) as JSON.
OwningOpRef<ModuleOp> importCFile(MLIRContext &context, llvm::StringRef path,
                                  const CImportOptions &options,
                                  llvm::raw_ostream *planJSON = nullptr);

/// As importCFile, for C source text in memory named `path` (the fuzzer's
/// entry point; includes are resolved relative to `path`).
OwningOpRef<ModuleOp> importCSource(MLIRContext &context, llvm::StringRef code,
                                    llvm::StringRef path,
                                    const CImportOptions &options,
                                    llvm::raw_ostream *planJSON = nullptr);

} // namespace mlir::stencil

#endif // STENCIL_IMPORT_CIMPORTER_H
