//===- SourceNames.h - Argument names from the parsed source ------*- C++ -*-===//
//
// The C interface names each argument after its name in the source (`%u`
// -> `u`, see CInterface.h). This is the one place that reads those names
// from what the parser saw; stencil-compile and the fuzz target use it.
//
//===----------------------------------------------------------------------===//

#ifndef STENCIL_TARGET_SOURCENAMES_H
#define STENCIL_TARGET_SOURCENAMES_H

#include "mlir/AsmParser/AsmParser.h"
#include "mlir/AsmParser/AsmParserState.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "llvm/ADT/STLExtras.h"

namespace mlir::stencil {

/// Names every function argument after its name in the source (`%u` -> `u`)
/// by giving it a NameLoc location: locations travel with the IR, so the
/// names reach the C header even through passes that build new functions
/// (the adjoint takes the primal's names, see StencilAdjoint.cpp).
inline void nameArgumentsFromSource(ModuleOp module,
                                    const AsmParserState &state) {
  module.walk([&](func::FuncOp func) {
    if (func.isExternal())
      return;
    const AsmParserState::BlockDefinition *def =
        state.getBlockDef(&func.getBody().front());
    if (!def)
      return;
    for (auto [arg, argDef] : llvm::zip(func.getArguments(), def->arguments)) {
      llvm::SMRange range = argDef.loc;
      StringRef text(range.Start.getPointer(),
                     range.End.getPointer() - range.Start.getPointer());
      text.consume_front("%");
      if (!text.empty())
        arg.setLoc(NameLoc::get(StringAttr::get(func.getContext(), text),
                                arg.getLoc()));
    }
  });
}

/// Parses the main buffer of `sourceMgr` as the tools do: a file holding
/// one explicit module is that module, the module's location names
/// `fileName`, and arguments are named after the source. Null on a parse
/// error (reported through the context).
inline OwningOpRef<ModuleOp> parseSourceWithNames(llvm::SourceMgr &sourceMgr,
                                                  MLIRContext &context,
                                                  StringRef fileName) {
  AsmParserState asmState;
  OwningOpRef<ModuleOp> module =
      ModuleOp::create(FileLineColLoc::get(&context, fileName, 1, 1));
  if (failed(parseAsmSourceFile(sourceMgr, module->getBody(),
                                ParserConfig(&context), &asmState)))
    return nullptr;
  if (llvm::hasSingleElement(*module->getBody()))
    if (auto inner = dyn_cast<ModuleOp>(module->getBody()->front())) {
      inner->remove();
      module = inner;
    }
  nameArgumentsFromSource(*module, asmState);
  return module;
}

} // namespace mlir::stencil

#endif // STENCIL_TARGET_SOURCENAMES_H
