//===- StencilOps.h - Stencil dialect ops -------------------------*- C++ -*-===//
//
// This file declares the ops of the `stencil` dialect.
//
//===----------------------------------------------------------------------===//

#ifndef STENCIL_DIALECT_STENCILOPS_H
#define STENCIL_DIALECT_STENCILOPS_H

#include "Stencil/Dialect/StencilDialect.h"
#include "Stencil/Dialect/StencilInterfaces.h"

#include "mlir/Bytecode/BytecodeOpInterface.h"
#include "mlir/IR/AffineMap.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/OpDefinition.h"
#include "mlir/IR/OpImplementation.h"
#include "mlir/Interfaces/ControlFlowInterfaces.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

#define GET_OP_CLASSES
#include "Stencil/Dialect/StencilOps.h.inc"

#endif // STENCIL_DIALECT_STENCILOPS_H
