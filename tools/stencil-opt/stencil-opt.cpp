//===- stencil-opt.cpp - Stencil optimizer driver ---------------*- C++ -*-===//
//
// This file implements `stencil-opt`, the MlirOptMain driver that parses the
// stencil dialect and runs its passes and pipelines, together with the
// upstream passes the lowering uses.
//
//===----------------------------------------------------------------------===//

#include "Stencil/InitAll.h"
#include "Stencil/Support/HelpOptions.h"

#include "mlir/IR/DialectRegistry.h"
#include "mlir/InitAllPasses.h"
#include "mlir/Tools/mlir-opt/MlirOptMain.h"

int main(int argc, char **argv) {
  mlir::DialectRegistry registry;
  // The dialects stencil IR and our tests are written in, the adjoint rules
  // and the upstream extensions (ConvertToLLVM interfaces, ...).
  mlir::stencil::registerAllStencilDialects(registry);
  mlir::stencil::registerAllStencilPasses();
  // Upstream passes, so that every stage of the lowering can be run alone.
  mlir::registerAllPasses();
  // What the libraries linked in registered before main (LLVM's code
  // generators, ...) only in --help-hidden; MlirOptMain's options and the
  // pass list, registered below, stay in --help.
  mlir::stencil::hideRegisteredOptions({});
  return mlir::asMainReturnCode(
      mlir::MlirOptMain(argc, argv, "Stencil optimizer driver\n", registry));
}
