//===- HelpOptions.h - What the tools' --help lists -------------*- C++ -*-===//
//
// The libraries a tool links in register options of their own before main
// (LLVM's code generators, AMDGPU's among them, Polly's): a thousand lines
// of --help that a user of our tools never sets. hideRegisteredOptions
// hides what is registered so far, but for the generic options (--help,
// --version) and the categories a tool keeps; the hidden options still
// parse, and --help-hidden / --help-list-hidden list them.
//
//===----------------------------------------------------------------------===//

#ifndef STENCIL_SUPPORT_HELPOPTIONS_H
#define STENCIL_SUPPORT_HELPOPTIONS_H

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/Support/CommandLine.h"

namespace mlir::stencil {

/// Marks cl::Hidden every option registered so far that is in none of
/// `keep` nor in the generic category. Unlike cl::HideUnrelatedOptions,
/// which makes them cl::ReallyHidden, this keeps them in --help-hidden.
inline void
hideRegisteredOptions(llvm::ArrayRef<llvm::cl::OptionCategory *> keep) {
  auto &options = llvm::cl::getRegisteredOptions();
  // The generic category is not exposed; --help is in it.
  llvm::SmallVector<llvm::cl::OptionCategory *> shown(keep);
  if (llvm::cl::Option *help = options.lookup("help"))
    shown.append(help->Categories.begin(), help->Categories.end());
  for (auto &entry : options) {
    llvm::cl::Option *option = entry.second;
    bool kept = llvm::any_of(option->Categories, [&](auto *category) {
      return llvm::is_contained(shown, category);
    });
    if (!kept && option->getOptionHiddenFlag() == llvm::cl::NotHidden)
      option->setHiddenFlag(llvm::cl::Hidden);
  }
}

} // namespace mlir::stencil

#endif // STENCIL_SUPPORT_HELPOPTIONS_H
