//===- stencil-opt.cpp - Stencil optimizer driver ---------------*- C++ -*-===//
//
// This file implements `stencil-opt`, the MlirOptMain driver that parses the
// stencil dialect and runs its passes and pipelines, together with the
// upstream passes the lowering uses.
//
//===----------------------------------------------------------------------===//

#include "Stencil/Dialect/StencilDialect.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/ControlFlow/IR/ControlFlow.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/OpenMP/OpenMPDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/InitAllExtensions.h"
#include "mlir/InitAllPasses.h"
#include "mlir/Tools/mlir-opt/MlirOptMain.h"

int main(int argc, char **argv) {
  mlir::DialectRegistry registry;
  // Only the dialects that inputs and tests are written in need registering;
  // passes load the dialects they create.
  registry.insert<mlir::stencil::StencilDialect, mlir::affine::AffineDialect,
                  mlir::arith::ArithDialect, mlir::cf::ControlFlowDialect,
                  mlir::func::FuncDialect, mlir::LLVM::LLVMDialect,
                  mlir::math::MathDialect, mlir::memref::MemRefDialect,
                  mlir::omp::OpenMPDialect, mlir::scf::SCFDialect,
                  mlir::vector::VectorDialect>();
  // Without the extensions --convert-to-llvm silently converts nothing.
  mlir::registerAllExtensions(registry);
  mlir::registerAllPasses();
  return mlir::asMainReturnCode(
      mlir::MlirOptMain(argc, argv, "Stencil optimizer driver\n", registry));
}
