//===- RuntimeCalls.cpp - Declarations of the distributed run-time --------===//

#include "RuntimeCalls.h"

#include "mlir/IR/BuiltinTypes.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Interfaces/ViewLikeInterface.h"

using namespace mlir;
using namespace mlir::stencil;

func::FuncOp dist::declare(ModuleOp module, Call call) {
  MLIRContext *ctx = module.getContext();
  Type ptr = LLVM::LLVMPointerType::get(ctx);
  Type i64 = IntegerType::get(ctx, 64);
  auto get = [&](StringRef name, SmallVector<Type> args, bool result) {
    return lookupOrDeclareFunction(module, name, args,
                                   result ? TypeRange{i64} : TypeRange{});
  };
  switch (call) {
  case Call::CheckGrid:
    return get("stencil_dist_check_grid", {ptr, ptr}, false);
  case Call::GridExtent:
    return get("stencil_dist_grid_extent", {ptr, i64}, true);
  case Call::GridCoord:
    return get("stencil_dist_grid_coord", {ptr, i64}, true);
  case Call::Neighbor:
    return get("stencil_dist_neighbor", {ptr, i64, i64}, true);
  case Call::SendRecv:
    return get("stencil_dist_sendrecv", {ptr, i64, ptr, i64, i64, i64}, false);
  case Call::ISendRecv:
    return get("stencil_dist_isendrecv", {ptr, i64, ptr, i64, i64, i64}, true);
  case Call::Wait:
    return get("stencil_dist_wait", {i64}, false);
  case Call::Progress:
    return get("stencil_dist_progress", {}, false);
  case Call::BlockStart:
    return get("stencil_dist_block_start", {i64, i64, i64}, true);
  case Call::BlockCount:
    return get("stencil_dist_block_count", {i64, i64, i64}, true);
  case Call::CheckExtent:
    return get("stencil_dist_check_extent", {ptr, ptr, i64, i64, i64}, false);
  case Call::CheckBlock:
    return get("stencil_dist_check_block", {ptr, ptr, i64, i64, i64}, false);
  }
  llvm_unreachable("unknown run-time call");
}

std::string dist::gridSpec(ArrayRef<int64_t> shape) {
  std::string spec;
  for (auto [k, extent] : llvm::enumerate(shape)) {
    if (k)
      spec += ",";
    spec += ShapedType::isDynamic(extent) ? "?" : std::to_string(extent);
  }
  return spec;
}

Value dist::globalString(OpBuilder &b, Location loc, StringRef name,
                         StringRef text) {
  Operation *scope = b.getInsertionBlock()->getParentOp();
  auto module = isa<ModuleOp>(scope) ? cast<ModuleOp>(scope)
                                     : scope->getParentOfType<ModuleOp>();
  if (auto global = module.lookupSymbol<LLVM::GlobalOp>(name))
    return LLVM::AddressOfOp::create(b, loc, global);
  std::string data = text.str();
  data.push_back('\0');
  Value address = LLVM::createGlobalString(loc, b, name, data,
                                           LLVM::Linkage::Internal);
  markRuntimeSymbol(module.lookupSymbol(name));
  return address;
}

Value dist::getArrayRoot(Value view) {
  while (Operation *def = view.getDefiningOp()) {
    if (auto meta = dyn_cast<memref::ExtractStridedMetadataOp>(def))
      view = meta.getSource();
    else if (auto like = dyn_cast<ViewLikeOpInterface>(def))
      view = like.getViewSource();
    else
      break;
  }
  return view;
}
