//===- Locator.h - C source locations as MLIR locations --------*- C++ -*-===//
//
// Every op and every diagnostic of the importer is located at the C source:
// at the expansion of a macro (the user's line), with a note at its
// definition.
//
//===----------------------------------------------------------------------===//

#ifndef STENCIL_LIB_IMPORT_C_LOCATOR_H
#define STENCIL_LIB_IMPORT_C_LOCATOR_H

#include "clang/AST/ASTContext.h"
#include "clang/AST/Stmt.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Lex/Lexer.h"

#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/Location.h"
#include "mlir/IR/MLIRContext.h"

namespace mlir::stencil::importc {

class Locator {
public:
  Locator(clang::ASTContext &ast, MLIRContext *context)
      : ast(ast), context(context) {}

  MLIRContext *getContext() const { return context; }
  clang::ASTContext &getAST() const { return ast; }

  /// The user's line: the expansion of a macro, not its definition.
  Location loc(clang::SourceLocation l) const {
    return fileLoc(ast.getSourceManager().getExpansionLoc(l));
  }
  Location loc(const clang::Stmt *s) const { return loc(exprLoc(s)); }

  /// An error at `l`, with a note at the macro definition `l` comes from.
  InFlightDiagnostic error(clang::SourceLocation l) const {
    InFlightDiagnostic diag = emitError(loc(l));
    const clang::SourceManager &sm = ast.getSourceManager();
    if (l.isMacroID()) {
      StringRef macro =
          clang::Lexer::getImmediateMacroName(l, sm, ast.getLangOpts());
      // A token of a macro argument: where the #define uses the argument.
      clang::SourceLocation def = l;
      while (sm.isMacroArgExpansion(def))
        def = sm.getImmediateExpansionRange(def).getBegin();
      diag.attachNote(fileLoc(sm.getSpellingLoc(def)))
          << "expanded from macro '" << macro << "'";
    }
    return diag;
  }
  InFlightDiagnostic error(const clang::Stmt *s) const {
    return error(exprLoc(s));
  }

  /// The C text of `s`, for messages.
  std::string source(const clang::Stmt *s) const {
    std::string text;
    llvm::raw_string_ostream os(text);
    s->printPretty(os, nullptr, ast.getPrintingPolicy());
    return text;
  }

private:
  static clang::SourceLocation exprLoc(const clang::Stmt *s) {
    if (const auto *e = llvm::dyn_cast<clang::Expr>(s))
      return e->getExprLoc();
    return s->getBeginLoc();
  }
  Location fileLoc(clang::SourceLocation l) const {
    clang::PresumedLoc p = ast.getSourceManager().getPresumedLoc(l);
    if (p.isInvalid())
      return UnknownLoc::get(context);
    return FileLineColLoc::get(context, p.getFilename(), p.getLine(),
                               p.getColumn());
  }

  clang::ASTContext &ast;
  MLIRContext *context;
};

} // namespace mlir::stencil::importc

#endif // STENCIL_LIB_IMPORT_C_LOCATOR_H
