//===- HeaderCheck.h - stencil-fuzz: the C header must compile ----*- C++ -*-===//
//
// The fuzz target compiles every C header it generates, as C and as C++,
// with the clang the project was configured with.
//
//===----------------------------------------------------------------------===//

#ifndef STENCIL_FUZZ_HEADERCHECK_H
#define STENCIL_FUZZ_HEADERCHECK_H

#include "Stencil/Target/AccessBounds.h"
#include "Stencil/Target/CInterface.h"

#include "mlir/Support/LLVM.h"

namespace stencil_fuzz {

/// Returns the C header of `entryPoints`, as stencil-compile --header
/// writes it for the input `source`; aborts, printing it, if their
/// --abi-json does not parse as JSON.
std::string getCInterface(
    llvm::ArrayRef<mlir::stencil::CEntryPoint> entryPoints,
    llvm::StringRef source,
    const llvm::StringMap<mlir::stencil::FunctionAccessBounds> &bounds);

/// Compiles headers with clang as C11 and as C++17, each included twice
/// (which tests its include guard), and aborts, printing the header and
/// clang's errors, when one does not compile. Of the headers not compiled
/// before, it compiles kHeadersPerInput, picked by `choice`: the pipelines
/// of one input make headers that differ in little, and each compile takes
/// two runs of clang.
void compileHeaders(llvm::ArrayRef<std::string> headers, uint64_t choice);

} // namespace stencil_fuzz

#endif // STENCIL_FUZZ_HEADERCHECK_H
