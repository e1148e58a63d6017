//===- StencilInterfaces.td - Stencil op interfaces --------*- tablegen -*-===//
//
// This file declares the interface shared by the ops that access an array
// relative to the current iteration point.
//
//===----------------------------------------------------------------------===//

#ifndef STENCIL_DIALECT_STENCILINTERFACES_TD
#define STENCIL_DIALECT_STENCILINTERFACES_TD

include "mlir/IR/OpBase.td"

def Stencil_AccessOpInterface : OpInterface<"AccessOpInterface"> {
  let cppNamespace = "::mlir::stencil";
  let description = [{
    An op that reads or writes one array element relative to the current
    iteration point of its enclosing `stencil.domain`. Array dimension `a` is
    indexed by `iv[dims[a]] + offset[a]`, where `iv` are the block arguments
    of the domain. Passes query accesses through this interface rather than
    through `isa<>` chains over concrete ops.
  }];

  let methods = [
    InterfaceMethod<
      /*desc=*/"Returns the array (memref) that the op accesses.",
      /*retTy=*/"::mlir::TypedValue<::mlir::MemRefType>",
      /*methodName=*/"getAccessedArray",
      /*args=*/(ins)>,
    InterfaceMethod<
      /*desc=*/[{Returns the constant offset added to each array index, one
                 entry per array dimension (all zero for centre accesses).}],
      /*retTy=*/"::llvm::SmallVector<int64_t>",
      /*methodName=*/"getArrayOffset",
      /*args=*/(ins)>,
    InterfaceMethod<
      /*desc=*/[{Returns, for each array dimension, the iteration dimension
                 that indexes it. When the op carries no `dims` attribute
                 this is the identity and the array rank equals the domain
                 rank.}],
      /*retTy=*/"::llvm::SmallVector<int64_t>",
      /*methodName=*/"getIterationDims",
      /*args=*/(ins)>,
    InterfaceMethod<
      /*desc=*/"Returns true if the op writes the array (store or accumulate).",
      /*retTy=*/"bool",
      /*methodName=*/"isWrite",
      /*args=*/(ins)>,
  ];

  let extraClassDeclaration = [{
    /// Returns true if every entry of the array offset is zero.
    bool isCentre() {
      return ::llvm::all_of(getArrayOffset(), [](int64_t o) { return o == 0; });
    }
  }];
}

#endif // STENCIL_DIALECT_STENCILINTERFACES_TD
