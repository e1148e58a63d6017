//===- StencilDialect.cpp - Stencil dialect ---------------------*- C++ -*-===//
//
// This file implements the `stencil` dialect class.
//
//===----------------------------------------------------------------------===//

#include "Stencil/Dialect/StencilDialect.h"
#include "Stencil/Dialect/StencilOps.h"

using namespace mlir;
using namespace mlir::stencil;

#include "Stencil/Dialect/StencilOpsDialect.cpp.inc"

void StencilDialect::initialize() {
  addOperations<
#define GET_OP_LIST
#include "Stencil/Dialect/StencilOps.cpp.inc"
      >();
}
