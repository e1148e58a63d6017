//===- CNames.cpp - Parameter names of the generated C header ---*- C++ -*-===//
//
// This file implements the one rule that turns the names arguments carry in
// the IR into parameter names of the generated C header (docs/ABI.md,
// "Parameter names"). A name is kept only when no C or C++ compiler can
// read it as anything else; every other name gets a form that nothing the
// header includes, and no keyword, can have.
//
//===----------------------------------------------------------------------===//

#include "Stencil/Target/CInterface.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSet.h"

using namespace mlir;
using namespace mlir::stencil;

/// The keywords of C (C23 included, with GNU's `asm` and `typeof`) and C++
/// (C++23, with the alternative tokens and the identifiers of special
/// meaning), the lower-case identifiers that <stdint.h> and <stdbool.h>
/// define outside the reserved `_` and `*_t` families, and the macros
/// GCC and Clang predefine in their GNU modes outside those families.
static const llvm::StringSet<> &reservedWords() {
  static const llvm::StringSet<> words = {
      // C.
      "alignas", "alignof", "auto", "bool", "break", "case", "char", "const",
      "constexpr", "continue", "default", "do", "double", "else", "enum",
      "extern", "false", "float", "for", "goto", "if", "inline", "int",
      "long", "nullptr", "register", "restrict", "return", "short", "signed",
      "sizeof", "static", "static_assert", "struct", "switch",
      "thread_local", "true", "typedef", "typeof", "typeof_unqual", "union",
      "unsigned", "void", "volatile", "while", "asm", "fortran",
      // C++, beyond C's.
      "and", "and_eq", "bitand", "bitor", "catch", "char8_t", "char16_t",
      "char32_t", "class", "compl", "concept", "consteval", "constinit",
      "const_cast", "co_await", "co_return", "co_yield", "decltype",
      "delete", "dynamic_cast", "explicit", "export", "final", "friend",
      "import", "module", "mutable", "namespace", "new", "noexcept", "not",
      "not_eq", "operator", "or", "or_eq", "override", "private",
      "protected", "public", "reflexpr", "reinterpret_cast", "requires",
      "static_cast", "template", "this", "throw", "try", "typeid",
      "typename", "using", "virtual", "wchar_t", "xor", "xor_eq",
      // Predefined by GCC and Clang in GNU modes (the default).
      "linux", "unix", "i386",
      // The parameters the header itself declares.
      "result", "results"};
  return words;
}

/// True for the macro families of <stdint.h> (INT64_MAX, UINT8_C,
/// SIZE_MAX, ...): names without lower-case letters that start with one of
/// their prefixes.
static bool isStdintMacro(StringRef name) {
  if (llvm::any_of(name, llvm::isLower))
    return false;
  return llvm::any_of(
      ArrayRef<StringRef>{"INT", "UINT", "PTRDIFF_", "SIZE_", "SIG_ATOMIC_",
                          "WCHAR_", "WINT_"},
      [&](StringRef prefix) { return name.starts_with(prefix); });
}

/// True if `name` may stand as it is: not a reserved word, not in a family
/// the C and C++ standards reserve (`_` first, `__` inside, `*_t`), not a
/// <stdint.h> macro, and not in the namespace of Stencil/ABI/StencilABI.h
/// (`stencil_*`, `Stencil*`, `STENCIL*`) or of the header's result structs
/// (`*_results`).
static bool isSafe(StringRef name) {
  return !name.starts_with("_") && !name.contains("__") &&
         !name.ends_with("_t") && !name.ends_with("_results") &&
         !name.starts_with("stencil_") && !name.starts_with("Stencil") &&
         !name.starts_with("STENCIL") && !isStdintMacro(name) &&
         !reservedWords().contains(name);
}

std::string mlir::stencil::cParameterName(StringRef irName, unsigned index,
                                          llvm::StringSet<> &taken) {
  // Letters, digits and single `_` only, never first.
  std::string id;
  for (char c : irName) {
    char kept = llvm::isAlnum(c) ? c : '_';
    if (kept == '_' && (id.empty() || id.back() == '_'))
      continue;
    id += kept;
  }
  if (id.empty() || llvm::all_of(id, [](char c) {
        return llvm::isDigit(c) || c == '_';
      }))
    id = "arg" + std::to_string(index);
  else if (llvm::isDigit(id.front()))
    id = "arg" + id;
  if (isSafe(id) && taken.insert(id).second)
    return id;
  // No keyword, no name the included headers define or the compilers
  // predefine, and no reserved name ends in one `_` after a name that does
  // not start with `_`: `<stem>_`, then `<stem>_2_`, `<stem>_3_`, ...
  StringRef stem = StringRef(id).rtrim('_');
  std::string escaped = (stem + "_").str();
  for (unsigned k = 2; !taken.insert(escaped).second; ++k)
    escaped = (stem + "_" + Twine(k) + "_").str();
  return escaped;
}
