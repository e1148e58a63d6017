//===- MathToC99.h - Math ops as calls of C99's <math.h> ---------*- C++ -*-===//
//
// The math patterns of the C source route (--stencil-convert-to-emitc).
//
//===----------------------------------------------------------------------===//

#ifndef STENCIL_CONVERSION_STENCILTOEMITC_MATHTOC99_H
#define STENCIL_CONVERSION_STENCILTOEMITC_MATHTOC99_H

#include "llvm/ADT/StringRef.h"

namespace mlir {
class RewritePatternSet;
class TypeConverter;
} // namespace mlir

namespace mlir::stencil {

/// Patterns turning each math op on f32/f64 scalars that has a C99 function
/// of the same meaning into an `emitc.call_opaque` of it (`sqrt`, `sqrtf`).
void populateMathToC99Patterns(const TypeConverter &converter,
                               RewritePatternSet &patterns);

/// Whether the C source calls a <math.h> function of this name (with the
/// f suffix of float too): a module function of that name would clash.
bool isC99MathFunctionName(llvm::StringRef name);

} // namespace mlir::stencil

#endif // STENCIL_CONVERSION_STENCILTOEMITC_MATHTOC99_H
