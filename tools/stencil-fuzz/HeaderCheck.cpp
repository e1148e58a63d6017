//===- HeaderCheck.cpp - stencil-fuzz: the C header must compile ----------===//
//
// Compiles each generated header with clang -fsyntax-only, as C11 and as
// C++17, against the project's include/ (Stencil/ABI/StencilABI.h). The
// paths come from CMake (STENCIL_FUZZ_CLANG, STENCIL_FUZZ_INCLUDE_DIR).
// Headers already compiled cleanly by this process are not compiled again:
// most mutations of an input leave its headers unchanged.
//
//===----------------------------------------------------------------------===//

#include "HeaderCheck.h"

#include "llvm/ADT/DenseSet.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FileUtilities.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/Support/xxhash.h"

#include <cstdlib>

using namespace mlir;

namespace {
/// A temporary file that is removed when this goes out of scope.
struct TempFile {
  explicit TempFile(StringRef suffix) {
    if (llvm::sys::fs::createTemporaryFile("stencil-fuzz", suffix, path)) {
      llvm::errs() << "stencil-fuzz: cannot create a temporary file\n";
      std::abort();
    }
    remover.setFile(path);
  }
  void write(StringRef contents) {
    std::error_code error;
    llvm::raw_fd_ostream os(path, error);
    os << contents;
    if (error) {
      llvm::errs() << "stencil-fuzz: cannot write " << path << "\n";
      std::abort();
    }
  }
  SmallString<128> path;
  llvm::FileRemover remover;
};
} // namespace

[[noreturn]] static void reportFinding(StringRef what, StringRef text,
                                       StringRef details) {
  llvm::errs() << "stencil-fuzz: " << what << "\n"
               << "----- generated:\n"
               << text << "\n----- " << details << "\n";
  std::abort();
}

/// Compiles `header` with clang as `language` (`c` or `c++`) in `standard`;
/// aborts with clang's output if it fails.
static void compileHeader(StringRef header, StringRef language,
                          StringRef standard) {
  TempFile headerFile("h"), mainFile("c"), output("txt");
  headerFile.write(header);
  mainFile.write(("#include \"" + headerFile.path + "\"\n#include \"" +
                  headerFile.path + "\"\n")
                     .str());
  std::string stdFlag = ("-std=" + standard).str();
  StringRef clang = STENCIL_FUZZ_CLANG;
  SmallVector<StringRef> args = {clang,    "-fsyntax-only",
                                 "-x",     language,
                                 stdFlag,  "-I",
                                 STENCIL_FUZZ_INCLUDE_DIR, mainFile.path};
  std::optional<StringRef> redirects[] = {std::nullopt, output.path.str(),
                                          output.path.str()};
  std::string error;
  int status = llvm::sys::ExecuteAndWait(clang, args, std::nullopt, redirects,
                                         /*SecondsToWait=*/60, 0, &error);
  if (status == 0)
    return;
  if (status < 0) {
    llvm::errs() << "stencil-fuzz: cannot run " << clang << ": " << error
                 << "\n";
    std::abort();
  }
  std::string diagnostics = "(no output)";
  if (auto buffer = llvm::MemoryBuffer::getFile(output.path))
    diagnostics = (*buffer)->getBuffer().str();
  reportFinding(("the C header does not compile as " + language + " (" +
                 stdFlag + ")")
                    .str(),
                header, "clang says:\n" + diagnostics);
}

std::string stencil_fuzz::getCInterface(
    ArrayRef<stencil::CEntryPoint> entryPoints, StringRef source,
    const llvm::StringMap<stencil::FunctionAccessBounds> &bounds) {
  std::string json;
  llvm::raw_string_ostream jsonOS(json);
  stencil::printCInterfaceJSON(entryPoints, jsonOS, &bounds);
  if (llvm::Expected<llvm::json::Value> parsed = llvm::json::parse(json);
      !parsed)
    reportFinding("the --abi-json output is not JSON", json,
                  llvm::toString(parsed.takeError()));
  std::string header;
  llvm::raw_string_ostream headerOS(header);
  stencil::printCHeader(entryPoints, source,
                        stencil::getHeaderGuard(source, ""), headerOS);
  return header;
}

/// How many new headers one input compiles.
static constexpr size_t kHeadersPerInput = 2;

void stencil_fuzz::compileHeaders(ArrayRef<std::string> headers,
                                  uint64_t choice) {
  // The headers this process compiled cleanly, by hash (bounded).
  static llvm::DenseSet<uint64_t> clean;
  SmallVector<StringRef> fresh;
  llvm::DenseSet<uint64_t> seen;
  for (const std::string &header : headers) {
    uint64_t hash = llvm::xxh3_64bits(header);
    if (!clean.contains(hash) && seen.insert(hash).second)
      fresh.push_back(header);
  }
  size_t count = std::min(fresh.size(), kHeadersPerInput);
  for (size_t k = 0; k < count; ++k) {
    StringRef header = fresh[(choice + k * fresh.size() / count) %
                             fresh.size()];
    if (std::getenv("STENCIL_FUZZ_VERBOSE"))
      llvm::errs() << "stencil-fuzz: compiling the header\n" << header;
    compileHeader(header, "c", "c11");
    compileHeader(header, "c++", "c++17");
    if (clean.size() > (1u << 16))
      clean.clear();
    clean.insert(llvm::xxh3_64bits(header));
  }
}
