//===- stencil-translate.cpp - Stencil translation driver -------*- C++ -*-===//
//
// mlir-translate with the stencil translations: `--stencil-to-c-header`
// writes the C header of a module's C interface, and upstream's
// `--mlir-to-llvmir` turns the lowered module into LLVM IR.
//
//===----------------------------------------------------------------------===//

#include "Stencil/InitAll.h"

#include "mlir/InitAllTranslations.h"
#include "mlir/Support/LogicalResult.h"
#include "mlir/Tools/mlir-translate/MlirTranslateMain.h"

int main(int argc, char **argv) {
  mlir::registerToLLVMIRTranslation();
  mlir::stencil::registerAllStencilTranslations();
  return mlir::failed(
             mlir::mlirTranslateMain(argc, argv, "Stencil translation driver\n"))
             ? 1
             : 0;
}
