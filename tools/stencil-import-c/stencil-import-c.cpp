//===- stencil-import-c.cpp - C stencil loops to the stencil dialect ------===//
//
//   stencil-import-c kernel.c [-o kernel.mlir] [--function=f,g]
//                    [--active=u,c] [--assume-no-alias] [-DN=64] [-Idir]
//                    [--extents=w:nx,ny,nz] [--print-plan]
//
// Parses kernel.c with Clang and writes its stencil functions as stencil
// IR, located at the C source, for stencil-opt and stencil-compile
// (docs/ImportC.md). Errors are reported at the C line and column.
//
//===----------------------------------------------------------------------===//

#include "Stencil/Import/CImporter.h"

#include "mlir/IR/AsmState.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/OperationSupport.h"
#include "mlir/Support/FileUtilities.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/ToolOutputFile.h"

using namespace mlir;
namespace cl = llvm::cl;

static cl::OptionCategory importOptions("Options of stencil-import-c");

static cl::opt<std::string> inputFile(cl::Positional, cl::desc("<input .c>"),
                                      cl::Required, cl::cat(importOptions));
static cl::opt<std::string> outputFile("o", cl::desc("Output file"),
                                       cl::value_desc("file"), cl::init("-"),
                                       cl::cat(importOptions));
static cl::list<std::string>
    functions("function", cl::desc("Functions to import (default: all)"),
              cl::CommaSeparated, cl::cat(importOptions));
static cl::list<std::string>
    active("active",
           cl::desc("Parameters to differentiate, besides those annotated "
                    "__attribute__((annotate(\"stencil_active\")))"),
           cl::CommaSeparated, cl::cat(importOptions));
static cl::opt<bool> assumeNoAlias(
    "assume-no-alias",
    cl::desc("Array parameters without restrict do not overlap"),
    cl::cat(importOptions));
static cl::list<std::string>
    extents("extents",
            cl::desc("The extents of a flat array indexed by hand, outermost "
                     "first (once per array)"),
            cl::value_desc("array:nx,ny,nz"), cl::cat(importOptions));
static cl::list<std::string> defines("D", cl::desc("Define a macro for Clang"),
                                     cl::Prefix, cl::cat(importOptions));
static cl::list<std::string> includes("I", cl::desc("Include directory"),
                                      cl::Prefix, cl::cat(importOptions));
static cl::list<std::string>
    clangArgs("extra-arg", cl::desc("Further argument for Clang (-std=c11)"),
              cl::cat(importOptions));
static cl::opt<bool>
    printPlan("print-plan",
              cl::desc("Write the import plan as JSON instead of the IR"),
              cl::cat(importOptions));

int main(int argc, char **argv) {
  llvm::InitLLVM init(argc, argv);
  cl::HideUnrelatedOptions(importOptions);
  cl::ParseCommandLineOptions(argc, argv,
                              "C stencil loop nests to the stencil dialect\n");
  stencil::CImportOptions options;
  options.functions.assign(functions.begin(), functions.end());
  options.active.assign(active.begin(), active.end());
  options.assumeNoAlias = assumeNoAlias;
  options.extents.assign(extents.begin(), extents.end());
  for (const std::string &d : defines)
    options.clangArgs.push_back("-D" + d);
  for (const std::string &i : includes)
    options.clangArgs.push_back("-I" + i);
  llvm::append_range(options.clangArgs, clangArgs);

  MLIRContext context;
  llvm::SourceMgr sourceMgr;
  SourceMgrDiagnosticHandler handler(sourceMgr, &context);
  std::string error;
  auto output = openOutputFile(outputFile, &error);
  if (!output) {
    llvm::errs() << error << "\n";
    return 1;
  }
  std::string plan;
  llvm::raw_string_ostream planStream(plan);
  OwningOpRef<ModuleOp> module = stencil::importCFile(
      context, inputFile, options, printPlan ? &planStream : nullptr);
  if (!module)
    return 1;
  if (printPlan)
    output->os() << plan;
  else
    module->print(output->os(), OpPrintingFlags()
                                    .enableDebugInfo(/*enable=*/true,
                                                     /*prettyForm=*/false)
                                    .printNameLocAsPrefix());
  output->keep();
  return 0;
}
