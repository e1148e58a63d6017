//===- Linearized.cpp - Linearized subscripts of pointers ------------------===//
//
// DELINEARIZE HOOK: `u[(i*ny + j)*nz + k]` on a `double *u`.
//
//===----------------------------------------------------------------------===//

#include "Analysis.h"

using namespace mlir;
using namespace mlir::stencil::importc;

LogicalResult mlir::stencil::importc::analyzeLinearized(Analysis &a, unsigned,
                                                        const clang::Expr *index,
                                                        unsigned,
                                                        AccessPlan &) {
  return a.locator.error(index)
         << "the index '" << a.locator.source(index)
         << "' is not a loop counter plus a constant (linearized indices are "
            "not supported yet)";
}
