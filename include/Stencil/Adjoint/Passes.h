//===- Passes.h - Stencil transformation passes -------------------*- C++ -*-===//
//
// This file declares the stencil transformation passes and their
// registration hook generated from Passes.td.
//
//===----------------------------------------------------------------------===//

#ifndef STENCIL_ADJOINT_PASSES_H
#define STENCIL_ADJOINT_PASSES_H

#include "Stencil/Dialect/StencilDialect.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Pass/Pass.h"

namespace mlir::stencil {

#define GEN_PASS_DECL
#include "Stencil/Adjoint/Passes.h.inc"

#define GEN_PASS_REGISTRATION
#include "Stencil/Adjoint/Passes.h.inc"

} // namespace mlir::stencil

#endif // STENCIL_ADJOINT_PASSES_H
