//===- AnnotateNoAlias.cpp - noalias on array data pointers -----*- C++ -*-===//
//
// This file implements --stencil-annotate-noalias: after the LLVM lowering,
// the data pointers of the array arguments recorded by --stencil-prepare-abi
// are marked `llvm.noalias`.
//
//===----------------------------------------------------------------------===//

#include "Stencil/Conversion/Passes.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/IR/BuiltinOps.h"

namespace mlir::stencil {
#define GEN_PASS_DEF_STENCILANNOTATENOALIASPASS
#include "Stencil/Conversion/Passes.h.inc"
} // namespace mlir::stencil

using namespace mlir;

/// Follows `ptr` back through GEPs and through the memref descriptor
/// (extractvalue of an insertvalue chain) to the value it was derived from:
/// for an array access, the function argument holding the data pointer.
/// Returns null if the chain leads elsewhere.
static Value traceBasePointer(Value ptr) {
  while (ptr) {
    if (auto gep = ptr.getDefiningOp<LLVM::GEPOp>()) {
      ptr = gep.getBase();
      continue;
    }
    auto extract = ptr.getDefiningOp<LLVM::ExtractValueOp>();
    if (!extract)
      return ptr;
    Value container = extract.getContainer();
    ptr = Value();
    while (auto insert = container.getDefiningOp<LLVM::InsertValueOp>()) {
      if (insert.getPosition() == extract.getPosition()) {
        ptr = insert.getValue();
        break;
      }
      container = insert.getContainer();
    }
  }
  return Value();
}

/// Gives every load and store of `func` that provably accesses the array
/// held by argument pair `arrays[2k], arrays[2k+1]` the alias scope of that
/// array, and marks it as not aliasing the other arrays. Unlike `noalias`
/// on arguments, this metadata stays on the accesses when the OpenMP
/// translation outlines a parallel region into a function that receives
/// the pointers through a struct.
static void annotateAliasScopes(LLVM::LLVMFuncOp func,
                                ArrayRef<int32_t> arrays) {
  MLIRContext *ctx = func.getContext();
  auto domain = LLVM::AliasScopeDomainAttr::get(
      ctx, StringAttr::get(ctx, "arrays of @" + func.getName().str()));
  llvm::DenseMap<Value, unsigned> arrayOf;
  SmallVector<Attribute> scopes;
  for (size_t k = 0; k + 1 < arrays.size(); k += 2) {
    arrayOf[func.getArgument(arrays[k])] = scopes.size();
    arrayOf[func.getArgument(arrays[k + 1])] = scopes.size();
    scopes.push_back(LLVM::AliasScopeAttr::get(
        domain, StringAttr::get(ctx, "array " + std::to_string(k / 2))));
  }
  if (scopes.size() < 2)
    return;
  func.walk([&](LLVM::AliasAnalysisOpInterface access) {
    SmallVector<Value> pointers = access.getAccessedOperands();
    if (pointers.size() != 1)
      return;
    auto it = arrayOf.find(traceBasePointer(pointers.front()));
    if (it == arrayOf.end())
      return;
    SmallVector<Attribute> others;
    for (auto [index, scope] : llvm::enumerate(scopes))
      if (index != it->second)
        others.push_back(scope);
    access.setAliasScopes(ArrayAttr::get(ctx, {scopes[it->second]}));
    access.setNoAliasScopes(ArrayAttr::get(ctx, others));
  });
}

namespace {
struct StencilAnnotateNoAliasPass
    : public mlir::stencil::impl::StencilAnnotateNoAliasPassBase<
          StencilAnnotateNoAliasPass> {
  using Base::Base;

  void runOnOperation() override {
    Builder builder(&getContext());
    for (auto func : getOperation().getOps<LLVM::LLVMFuncOp>()) {
      auto arrays = func->getAttrOfType<DenseI32ArrayAttr>(
          "stencil.noalias_args");
      if (!arrays || func.isExternal())
        continue;
      func->removeAttr("stencil.noalias_args");
      // The positions were computed from the original signature; check that
      // each still names a pointer before marking it.
      unsigned numArgs = func.getNumArguments();
      if (!llvm::all_of(arrays.asArrayRef(), [&](int32_t position) {
            return position >= 0 && static_cast<unsigned>(position) < numArgs &&
                   isa<LLVM::LLVMPointerType>(
                       func.getArgumentTypes()[position]);
          }))
        continue;
      for (int32_t position : arrays.asArrayRef())
        func.setArgAttr(position, "llvm.noalias", builder.getUnitAttr());
      annotateAliasScopes(func, arrays.asArrayRef());
    }
  }
};
} // namespace
