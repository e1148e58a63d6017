//===- stencil-import-c-fuzz.cpp - libFuzzer target for the C importer ----===//
//
// This file implements `stencil-import-c-fuzz`, a libFuzzer target: each
// input is C source, imported as stencil-import-c imports a file
// (importCSource, with the options its comments give: see
// getImportOptions), and, when the import succeeds, printed as
// stencil-import-c prints it, parsed back, and run through the first
// pipeline of stencil-fuzz (RunPipelines.h: stencil-adjoint,convert-to-omp,
// the adjoint, its gather form and the lowering, then the translation to
// LLVM IR and the C header), so that importer output that breaks a later
// pass is found too. Malformed C must get diagnostics, never a crash; what the fuzzer
// reports are crashes, sanitizer errors, hangs (-timeout) and these
// invariant violations, which abort:
//   - an error of the importer without a location;
//   - IR built by the importer that does not verify (during the import,
//     the verifier's errors are the ones an operation reports, with the
//     "see current operation" note that the importer's own refusals never
//     have);
//   - a plan (--print-plan) that is not JSON;
//   - printed IR that does not parse back;
//   - whatever stencil-fuzz checks of its pipelines.
// docs/Testing.md says how to run it (scripts/fuzz-import-c.sh).
//
//===----------------------------------------------------------------------===//

#include "RunPipelines.h"

#include "Stencil/Import/CImporter.h"
#include "Stencil/Target/SourceNames.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/OperationSupport.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdlib>

using namespace mlir;

/// Where an input's pipelines stop: one pipeline takes longer than the
/// import (0.3 s against 0.1 s under the sanitizers), and stencil-fuzz runs
/// the others on stencil IR; the throughput is better spent on the importer.
static constexpr size_t kMaxPipelines = 1;
static constexpr double kBudgetSeconds = 3;
/// At most this many -D flags come from an input's comments.
static constexpr unsigned kMaxDefines = 4;

/// The options of the stencil-import-c command lines in `text`'s comments
/// (the seeds' RUN lines), so that the fuzzer mutates them as it mutates
/// the C: --function=, --active=, --assume-no-alias and -D. Other flags
/// (-I, --extra-arg) would let an input read the file system and are left
/// out.
static stencil::CImportOptions getImportOptions(StringRef text) {
  stencil::CImportOptions options;
  SmallVector<StringRef> lines;
  text.split(lines, '\n');
  unsigned defines = 0;
  for (StringRef line : lines) {
    if (!line.ltrim().starts_with("//") || !line.contains("stencil-import-c"))
      continue;
    SmallVector<StringRef> words;
    line.split(words, ' ', -1, /*KeepEmpty=*/false);
    for (StringRef word : words) {
      auto addList = [&](StringRef list, std::vector<std::string> &to) {
        SmallVector<StringRef> names;
        list.split(names, ',', -1, /*KeepEmpty=*/false);
        for (StringRef name : names)
          to.push_back(name.str());
      };
      if (word == "--assume-no-alias")
        options.assumeNoAlias = true;
      else if (word.consume_front("--active="))
        addList(word, options.active);
      else if (word.consume_front("--function="))
        addList(word, options.functions);
      else if (word.starts_with("-D") && word.size() > 2 &&
               defines++ < kMaxDefines)
        options.clangArgs.push_back(word.str());
    }
  }
  return options;
}

/// An error that an operation reported: the verifier's (Operation's
/// emitError attaches the operation it is about).
static bool isFromOperation(Diagnostic &diag) {
  return llvm::any_of(diag.getNotes(), [](Diagnostic &note) {
    return StringRef(note.str()).starts_with("see current operation");
  });
}

/// Prints `module` as stencil-import-c does and parses it back as
/// stencil-opt would; aborts if that fails.
static void checkRoundTrip(MLIRContext &context, ModuleOp module) {
  std::string printed;
  llvm::raw_string_ostream os(printed);
  module.print(os, OpPrintingFlags()
                       .enableDebugInfo(/*enable=*/true, /*prettyForm=*/false)
                       .printNameLocAsPrefix());
  llvm::SourceMgr sourceMgr;
  sourceMgr.AddNewSourceBuffer(
      llvm::MemoryBuffer::getMemBufferCopy(printed, "printed"), llvm::SMLoc());
  if (stencil::parseSourceWithNames(sourceMgr, context, "printed"))
    return;
  llvm::errs() << "stencil-import-c-fuzz: the imported module does not "
                  "parse back:\n"
               << printed << "\n";
  std::abort();
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  StringRef text(reinterpret_cast<const char *>(data), size);
  stencil::CImportOptions options = getImportOptions(text);
  MLIRContext context(stencil_fuzz::getAllRegistry(),
                      MLIRContext::Threading::DISABLED);
  bool sawError = false, importing = true;
  // STENCIL_FUZZ_VERBOSE=1 prints the diagnostics and each pipeline (to
  // replay a finding).
  static const bool verbose = std::getenv("STENCIL_FUZZ_VERBOSE");
  ScopedDiagnosticHandler handler(&context, [&](Diagnostic &diag) {
    if (verbose)
      llvm::errs() << diag.getLocation() << ": " << diag << "\n";
    if (diag.getSeverity() != DiagnosticSeverity::Error)
      return success();
    sawError = true;
    if (isa<UnknownLoc>(diag.getLocation())) {
      llvm::errs() << "stencil-import-c-fuzz: an error without a location: "
                   << diag << "\n";
      std::abort();
    }
    if (importing && isFromOperation(diag)) {
      llvm::errs() << "stencil-import-c-fuzz: the importer built IR that "
                      "does not verify: "
                   << diag.getLocation() << ": " << diag << "\n";
      std::abort();
    }
    return success();
  });
  std::string plan;
  llvm::raw_string_ostream planOS(plan);
  OwningOpRef<ModuleOp> module =
      stencil::importCSource(context, text, "input.c", options, &planOS);
  importing = false;
  if (!plan.empty()) {
    if (auto json = llvm::json::parse(plan); !json) {
      llvm::errs() << "stencil-import-c-fuzz: the plan is not JSON ("
                   << llvm::toString(json.takeError()) << "):\n"
                   << plan << "\n";
      std::abort();
    }
  }
  if (!module)
    return 0;
  checkRoundTrip(context, *module);
  stencil_fuzz::RunLimits limits;
  limits.maxPipelines = kMaxPipelines;
  limits.budgetSeconds = kBudgetSeconds;
  stencil_fuzz::runPipelines(context, *module, text, sawError, limits);
  return 0;
}
