//===- AnnotateNoAlias.cpp - noalias on array data pointers -----*- C++ -*-===//
//
// This file implements --stencil-annotate-noalias: after the LLVM lowering,
// the data pointers of the array arguments of functions that
// --stencil-prepare-abi marked `stencil.noalias` become `llvm.noalias`, and
// their loads and stores, and those of the functions' own allocations, get
// alias scopes.
//
//===----------------------------------------------------------------------===//

#include "Stencil/Target/Passes.h"
#include "Stencil/Dialect/StencilDialect.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Matchers.h"
#include "llvm/ADT/MapVector.h"

namespace mlir::stencil {
#define GEN_PASS_DEF_STENCILANNOTATENOALIASPASS
#include "Stencil/Target/Passes.h.inc"
} // namespace mlir::stencil

using namespace mlir;

/// The value of `v` if it is an integer constant, or the difference of two
/// (the lowering computes the alignment's pad as `a - 1`, unfolded).
static std::optional<APInt> constantOf(Value v) {
  APInt value, lhs, rhs;
  if (matchPattern(v, m_ConstantInt(&value)))
    return value;
  auto sub = v.getDefiningOp<LLVM::SubOp>();
  if (sub && matchPattern(sub.getLhs(), m_ConstantInt(&lhs)) &&
      matchPattern(sub.getRhs(), m_ConstantInt(&rhs)))
    return lhs - rhs;
  return std::nullopt;
}

/// The pointer that `aligned` rounds up, if it is the memref lowering's
/// alignment of an allocation: `inttoptr((p + c) - ((p + c) urem a))` with
/// `p = ptrtoint base` and constants `0 <= c < a`, which lies in `[p, p +
/// c]`, inside the allocation (the lowering allocates `a` bytes more).
/// Null otherwise.
static Value traceAlignedAllocation(LLVM::IntToPtrOp aligned) {
  auto sub = aligned.getArg().getDefiningOp<LLVM::SubOp>();
  if (!sub)
    return Value();
  auto rem = sub.getRhs().getDefiningOp<LLVM::URemOp>();
  auto bumped = sub.getLhs().getDefiningOp<LLVM::AddOp>();
  if (!rem || !bumped || rem.getLhs() != sub.getLhs())
    return Value();
  std::optional<APInt> pad = constantOf(bumped.getRhs());
  std::optional<APInt> alignment = constantOf(rem.getRhs());
  if (!pad || !alignment || pad->isNegative() || !pad->ult(*alignment))
    return Value();
  auto address = bumped.getLhs().getDefiningOp<LLVM::PtrToIntOp>();
  return address ? address.getArg() : Value();
}

/// Follows `ptr` back through GEPs, through the memref descriptor
/// (extractvalue of an insertvalue chain) and through the alignment of an
/// allocation to the value it was derived from: for an array access, the
/// function argument holding the data pointer; for a temporary, the
/// allocation. Returns null if the chain leads elsewhere.
static Value traceBasePointer(Value ptr) {
  while (ptr) {
    if (auto gep = ptr.getDefiningOp<LLVM::GEPOp>()) {
      ptr = gep.getBase();
      continue;
    }
    if (auto aligned = ptr.getDefiningOp<LLVM::IntToPtrOp>()) {
      ptr = traceAlignedAllocation(aligned);
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

/// Returns true if `type` is a memref descriptor of the default calling
/// convention: a struct starting with the allocated pointer, the aligned
/// pointer and the offset.
static bool isMemRefDescriptor(Type type) {
  auto descriptor = dyn_cast<LLVM::LLVMStructType>(type);
  if (!descriptor || descriptor.getBody().size() < 3)
    return false;
  ArrayRef<Type> body = descriptor.getBody();
  return isa<LLVM::LLVMPointerType>(body[0]) &&
         isa<LLVM::LLVMPointerType>(body[1]) && body[2].isInteger(64);
}

/// Finds the arrays among the arguments of `func`, from the IR rather than
/// from positions: the LLVM lowering passes a memref as (allocated pointer,
/// aligned pointer, offset, sizes, strides) and packs them back into a
/// descriptor with an `llvm.insertvalue` chain in the entry block. Returns,
/// for each descriptor so built, the pointer arguments stored into its
/// fields 0 and 1. (An array the function never uses is not packed, and
/// needs no marking.)
static SmallVector<SmallVector<BlockArgument, 2>>
findArrayArguments(LLVM::LLVMFuncOp func) {
  Block &entry = func.getBody().front();
  llvm::MapVector<Value, SmallVector<BlockArgument, 2>> byDescriptor;
  for (auto insert : entry.getOps<LLVM::InsertValueOp>()) {
    auto arg = dyn_cast<BlockArgument>(insert.getValue());
    ArrayRef<int64_t> position = insert.getPosition();
    if (!arg || arg.getOwner() != &entry || position.size() != 1 ||
        position[0] > 1 || !isMemRefDescriptor(insert.getType()))
      continue;
    Value root = insert.getContainer();
    while (auto previous = root.getDefiningOp<LLVM::InsertValueOp>())
      root = previous.getContainer();
    byDescriptor[root].push_back(arg);
  }
  // Number the arrays in argument order.
  SmallVector<SmallVector<BlockArgument, 2>> arrays;
  for (auto &entry : byDescriptor)
    arrays.push_back(std::move(entry.second));
  llvm::sort(arrays, [](const auto &a, const auto &b) {
    return a.front().getArgNumber() < b.front().getArgNumber();
  });
  return arrays;
}

/// The memory `func` allocates itself: `llvm.alloca` and calls of the C
/// library's allocators (the memref lowering's `malloc`, `aligned_alloc`).
/// Each result is an object that no argument and no other live allocation
/// overlaps.
static SmallVector<Value> findAllocations(LLVM::LLVMFuncOp func) {
  SmallVector<Value> allocations;
  func.walk([&](Operation *op) {
    if (auto alloca = dyn_cast<LLVM::AllocaOp>(op)) {
      allocations.push_back(alloca.getResult());
      return;
    }
    auto call = dyn_cast<LLVM::CallOp>(op);
    std::optional<StringRef> callee = call ? call.getCallee() : std::nullopt;
    if (callee && (*callee == "malloc" || *callee == "aligned_alloc") &&
        call.getNumResults() == 1)
      allocations.push_back(call.getResult());
  });
  return allocations;
}

/// Gives every load and store of `func` that provably accesses one of
/// `arrays`, or memory `func` allocates, the alias scope of that array or
/// allocation, and marks it as not aliasing the other arrays and
/// allocations. Unlike `noalias` on arguments, this metadata stays on the
/// accesses when the OpenMP translation outlines a parallel region into a
/// function that receives the pointers through a struct. Why the
/// allocations need scopes too: Passes.td.
static void
annotateAliasScopes(LLVM::LLVMFuncOp func,
                    ArrayRef<SmallVector<BlockArgument, 2>> arrays) {
  MLIRContext *ctx = func.getContext();
  auto domain = LLVM::AliasScopeDomainAttr::get(
      ctx, StringAttr::get(ctx, "arrays of @" + func.getName().str()));
  llvm::DenseMap<Value, unsigned> arrayOf;
  SmallVector<Attribute> scopes;
  for (auto [index, pointers] : llvm::enumerate(arrays)) {
    for (BlockArgument pointer : pointers)
      arrayOf[pointer] = index;
    scopes.push_back(LLVM::AliasScopeAttr::get(
        domain, StringAttr::get(ctx, "array " + std::to_string(index))));
  }
  for (auto [index, allocation] : llvm::enumerate(findAllocations(func))) {
    arrayOf[allocation] = scopes.size();
    scopes.push_back(LLVM::AliasScopeAttr::get(
        domain, StringAttr::get(ctx, "allocation " + std::to_string(index))));
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
    StringLiteral marker = stencil::StencilDialect::NoaliasAttrHelper::getNameStr();
    for (auto func : getOperation().getOps<LLVM::LLVMFuncOp>()) {
      if (!func->removeAttr(marker) || func.isExternal())
        continue;
      SmallVector<SmallVector<BlockArgument, 2>> arrays =
          findArrayArguments(func);
      for (ArrayRef<BlockArgument> pointers : arrays)
        for (BlockArgument pointer : pointers)
          func.setArgAttr(pointer.getArgNumber(),
                          LLVM::LLVMDialect::getNoAliasAttrName(),
                          builder.getUnitAttr());
      annotateAliasScopes(func, arrays);
    }
  }
};
} // namespace
