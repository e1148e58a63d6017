//===- stencil-compile.cpp - Stencil IR to a native object -------*- C++ -*-===//
//
// The one compile chain from stencil IR to native code, used by the CMake
// function `stencil_add_kernel`, the tests, the bench and the examples:
//
//   stencil-compile in.mlir -o out.o [--header out.h] [--shared]
//                   [<passes, as for stencil-opt; default --convert-to-omp>]
//
// It runs the passes in process, takes the C header from the module as
// --stencil-prepare-abi leaves it (lib/Target/CInterface.cpp), translates the
// result to LLVM IR in process and compiles that with clang-22 -fopenmp
// (-O3 -march=native unless told otherwise). With --emit=c it writes C99
// source instead (default passes --convert-to-c, printed by EmitC's
// translateToCpp in process; docs/CSource.md).
//
//===----------------------------------------------------------------------===//

#include "Stencil/InitAll.h"
#include "Stencil/Pipelines/Pipelines.h"
#include "Stencil/Support/HelpOptions.h"
#include "Stencil/Target/CInterface.h"
#include "Stencil/Target/Passes.h"
#include "Stencil/Target/SourceNames.h"

#include "mlir/AsmParser/AsmParser.h"
#include "mlir/AsmParser/AsmParserState.h"
#include "mlir/Dialect/EmitC/IR/EmitC.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/InitAllPasses.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassInstrumentation.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"
#include "mlir/Support/FileUtilities.h"
#include "mlir/Target/Cpp/CppEmitter.h"
#include "mlir/Target/LLVMIR/Dialect/All.h"
#include "mlir/Target/LLVMIR/Export.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FileUtilities.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/ToolOutputFile.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;
namespace cl = llvm::cl;

/// The options of this tool, which --help lists; every other option linked
/// in (LLVM's code generators, MLIR's, the list of passes) is hidden
/// (Stencil/Support/HelpOptions.h).
static cl::OptionCategory compileOptions("Options of stencil-compile");

static cl::opt<std::string> inputFile(cl::Positional, cl::desc("<input .mlir>"),
                                      cl::Required, cl::cat(compileOptions));
static cl::opt<std::string>
    outputFile("o",
               cl::desc("Object file, shared library with --shared, C "
                        "source with --emit=c"),
               cl::value_desc("file"), cl::Required, cl::cat(compileOptions));
static cl::opt<std::string>
    headerFile("header", cl::desc("Also write the C header of the entry points"),
               cl::value_desc("file"), cl::cat(compileOptions));
static cl::opt<std::string> abiJSONFile(
    "abi-json",
    cl::desc("Also write the entry points and the descriptor layout as JSON"),
    cl::value_desc("file"), cl::cat(compileOptions));
static cl::opt<bool> shared("shared",
                            cl::desc("Build a shared library (-shared -fPIC)"),
                            cl::cat(compileOptions));
static cl::opt<std::string> march("march", cl::desc("-march for clang"),
                                  cl::init("native"), cl::cat(compileOptions));
static cl::opt<unsigned> optLevel("O", cl::desc("Optimisation level of clang"),
                                  cl::Prefix, cl::init(3),
                                  cl::cat(compileOptions));
static cl::opt<std::string> keepLL("keep-ll",
                                   cl::desc("Also keep the LLVM IR here"),
                                   cl::value_desc("file"),
                                   cl::cat(compileOptions));
static cl::opt<std::string> sourceName(
    "source-name",
    cl::desc("Name the input so in locations: diagnostics, and the messages "
             "of the run-time checks (default: its path)"),
    cl::value_desc("name"), cl::cat(compileOptions));
static cl::opt<bool> verbose("v", cl::desc("Print the clang command"),
                             cl::cat(compileOptions));
/// What -o gets: native code, or C source (docs/CSource.md).
enum class EmitKind { Object, C };
static const std::string emitCDescription =
    ("C99 source with OpenMP pragmas, through EmitC (default passes: --" +
     stencil::kConvertToCPipeline + "; docs/CSource.md)")
        .str();
static cl::opt<EmitKind>
    emit("emit", cl::desc("What -o gets"),
         cl::values(clEnumValN(EmitKind::Object, "obj",
                               "a native object, or a shared library with "
                               "--shared (default)"),
                    clEnumValN(EmitKind::C, "c", emitCDescription)),
         cl::init(EmitKind::Object), cl::cat(compileOptions));
static cl::list<std::string>
    exports("export",
            cl::desc("Keep only these functions external (comma-separated)"),
            cl::CommaSeparated, cl::value_desc("symbol"),
            cl::cat(compileOptions));

static LogicalResult writeFile(StringRef path, StringRef contents) {
  std::string error;
  std::unique_ptr<llvm::ToolOutputFile> file = openOutputFile(path, &error);
  if (!file) {
    llvm::errs() << "stencil-compile: " << error << "\n";
    return failure();
  }
  file->os() << contents;
  file->keep();
  return success();
}

/// The path of this executable, for finding the run-time library.
static std::string executablePath;

/// Returns lib/<name> beside this tool's bin/, in the build tree and in an
/// installation alike: the run-time libraries (lib/Runtime).
static std::string libraryBesideTool(StringRef name) {
  SmallString<256> path(llvm::sys::path::parent_path(
      llvm::sys::path::parent_path(executablePath)));
  llvm::sys::path::append(path, "lib", name);
  return std::string(path);
}

/// The run-time library that reversed time loops call.
static std::string runtimeLibrary() {
  return libraryBesideTool("libStencilRuntime.a");
}

static std::string distRuntimeLibrary() {
  return libraryBesideTool("libStencilDistRuntime.a");
}

/// What a shared library of GPU functions (convert-to-gpu) links besides:
/// the GPU run-time library and the CUDA driver library.
static LogicalResult appendGPULibraries(SmallVectorImpl<std::string> &args) {
  std::string runtime = libraryBesideTool("libStencilGPURuntime.a");
  StringRef driver = STENCIL_CUDA_DRIVER_LIBRARY;
  if (driver.empty() || !llvm::sys::fs::exists(runtime)) {
    llvm::errs() << "stencil-compile: the module has GPU kernels, but this "
                    "build found no CUDA toolkit (no "
                 << runtime
                 << "); compile an object (without --shared) and link it "
                    "with a GPU runtime yourself\n";
    return failure();
  }
  args.push_back(runtime);
  // The GPU run-time library's checkpointing (stencil_gpu_ckpt_start) uses
  // the host one's schedule: the archive again, after it.
  args.push_back(runtimeLibrary());
  args.push_back(driver.str());
  args.push_back("-lpthread");
  return success();
}

/// What a shared library of distributed functions (--stencil-distribute)
/// links besides: the distributed run-time library and MPI.
static LogicalResult appendDistLibraries(SmallVectorImpl<std::string> &args) {
  std::string runtime = distRuntimeLibrary();
  StringRef mpi = STENCIL_MPI_LIBRARIES;
  if (mpi.empty() || !llvm::sys::fs::exists(runtime)) {
    llvm::errs() << "stencil-compile: the module has distributed functions, "
                    "but this build has no MPI (libmpich-dev) or no "
                 << runtime << "\n";
    return failure();
  }
  args.push_back(runtime);
  SmallVector<StringRef> libraries;
  mpi.split(libraries, '|', -1, /*KeepEmpty=*/false);
  for (StringRef library : libraries)
    args.push_back(library.str());
  return success();
}

/// Compiles the LLVM IR at `ll` with clang-22, as the ABI expects
/// (docs/ABI.md): -O3, OpenMP, and for shared libraries the run-time
/// library, libm and the rpath of LLVM's libomp (and, for `distributed`
/// modules, the distributed run-time library and MPI; for `gpu` modules, the
/// GPU run-time library and the CUDA driver).
static LogicalResult compileWithClang(StringRef ll, bool distributed,
                                      bool gpu) {
  std::string clang = STENCIL_CLANG;
  if (const char *env = std::getenv("CLANG"))
    clang = env;
  // Rows of a gather nest are short at the sizes time loops run (44
  // points at n = 48): with 8 doubles per vector, LLVM leaves up to 7 of
  // them to a scalar remainder unless it vectorizes that remainder too,
  // which by default it does only from 16 lanes on (6-7% of wave3d's
  // adjoint at n = 48 and 64, docs/Performance.md).
  SmallVector<std::string> args = {clang,
                                   "-O" + std::to_string(optLevel),
                                   "-march=" + march,
                                   "-fopenmp",
                                   "-Wno-override-module",
                                   "-mllvm",
                                   "-epilogue-vectorization-minimum-VF=8"};
  if (shared)
    llvm::append_range(args, SmallVector<std::string>{
                                 "-shared", "-fPIC", "-L" STENCIL_LLVM_LIB_DIR,
                                 "-Wl,-rpath," STENCIL_LLVM_LIB_DIR, "-lm"});
  else
    args.push_back("-c");
  llvm::append_range(args,
                     SmallVector<std::string>{ll.str(), "-o", outputFile});
  if (shared) {
    std::string runtime = runtimeLibrary();
    if (!llvm::sys::fs::exists(runtime)) {
      llvm::errs() << "stencil-compile: the run-time library " << runtime
                   << " is missing\n";
      return failure();
    }
    args.push_back(runtime);
    if (distributed && failed(appendDistLibraries(args)))
      return failure();
    if (gpu && failed(appendGPULibraries(args)))
      return failure();
  }
  SmallVector<StringRef> argRefs(args.begin(), args.end());
  if (verbose) {
    llvm::interleave(argRefs, llvm::errs(), " ");
    llvm::errs() << "\n";
  }
  std::string error;
  int status = llvm::sys::ExecuteAndWait(clang, argRefs, std::nullopt, {}, 0,
                                         0, &error);
  if (status != 0) {
    llvm::errs() << "stencil-compile: clang failed (" << status << ")"
                 << (error.empty() ? "" : ": " + error) << "\n";
    return failure();
  }
  return success();
}

/// Translates the lowered module to LLVM IR in the file `ll`.
static LogicalResult translateToLLVMIR(ModuleOp module, StringRef ll) {
  llvm::LLVMContext llvmContext;
  std::unique_ptr<llvm::Module> llvmModule =
      translateModuleToLLVMIR(module, llvmContext, inputFile);
  if (!llvmModule)
    return failure();
  // Several objects built from one source (one per pipeline variant) each
  // hold a copy of the primal: only the listed entry points stay external,
  // and clang drops the rest.
  if (!exports.empty()) {
    llvm::StringSet<> keep;
    for (const std::string &name : exports)
      keep.insert(name);
    for (llvm::Function &function : *llvmModule)
      if (!function.isDeclaration() && !keep.contains(function.getName()))
        function.setLinkage(llvm::GlobalValue::InternalLinkage);
  }
  std::string text;
  llvm::raw_string_ostream os(text);
  llvmModule->print(os, nullptr);
  return writeFile(ll, text);
}

static LogicalResult reportError(const Twine &message) {
  llvm::errs() << "stencil-compile: " << message << "\n";
  return failure();
}

/// Parses the input into a module, keeping what the parser saw of the
/// argument names (nameArgumentsFromSource).
static OwningOpRef<ModuleOp> parseInput(MLIRContext &context,
                                        llvm::SourceMgr &sourceMgr) {
  std::string error;
  std::unique_ptr<llvm::MemoryBuffer> buffer = openInputFile(inputFile, &error);
  if (!buffer) {
    (void)reportError(error);
    return nullptr;
  }
  // A caller that compiles a copy (stencilad) names the original.
  if (!sourceName.empty())
    buffer = llvm::MemoryBuffer::getMemBufferCopy(buffer->getBuffer(),
                                                  sourceName);
  sourceMgr.AddNewSourceBuffer(std::move(buffer), llvm::SMLoc());
  return stencil::parseSourceWithNames(
      sourceMgr, context, sourceName.empty() ? inputFile : sourceName);
}

/// Runs the passes (default convert-to-omp), then --stencil-verify-lowered;
/// returns the C interface as --stencil-prepare-abi left it, if it ran.
static FailureOr<std::optional<std::vector<stencil::CEntryPoint>>>
runPasses(ModuleOp module, const PassPipelineCLParser &passes,
          std::string &prepareABI) {
  PassManager pm(module.getContext());
  if (passes.hasAnyOccurrences()) {
    if (failed(passes.addToPipeline(pm, reportError)))
      return failure();
  } else if (failed(parsePassPipeline("convert-to-omp", pm))) {
    return failure();
  }
  // Whatever the passes, only LLVM and OpenMP ops may reach the
  // translation; anything else gets a located error here.
  pm.addPass(stencil::createStencilVerifyLoweredPass());
  auto *abi = new stencil::PlanAfterPrepareABI();
  pm.addInstrumentation(std::unique_ptr<PassInstrumentation>(abi));
  prepareABI = abi->prepareABI;
  if (failed(pm.run(module)) || (abi->plan && failed(*abi->plan)))
    return failure();
  if (!abi->plan)
    return std::optional<std::vector<stencil::CEntryPoint>>();
  return std::optional<std::vector<stencil::CEntryPoint>>(
      std::move(**abi->plan));
}

/// Writes --header and --abi-json from the C interface plan.
static LogicalResult
writeABIFiles(const std::optional<std::vector<stencil::CEntryPoint>> &plan,
              StringRef prepareABI,
              const llvm::StringMap<stencil::FunctionAccessBounds> &bounds) {
  if (headerFile.empty() && abiJSONFile.empty())
    return success();
  if (!plan)
    return reportError("--header and --abi-json need the C interface, but "
                       "the passes do not run " +
                       prepareABI +
                       " (--convert-to-omp runs it unless c-interface=0)");
  std::string header, json;
  llvm::raw_string_ostream headerOS(header), jsonOS(json);
  stencil::printCHeader(*plan, inputFile,
                        stencil::getHeaderGuard(inputFile, headerFile),
                        headerOS);
  stencil::printCInterfaceJSON(*plan, jsonOS, &bounds);
  if (!headerFile.empty() && failed(writeFile(headerFile, header)))
    return failure();
  if (!abiJSONFile.empty() && failed(writeFile(abiJSONFile, json)))
    return failure();
  return success();
}

/// --emit=c: runs the passes (default convert-to-c) and prints the EmitC
/// module they leave as C99 to -o.
static LogicalResult emitCSource(ModuleOp module,
                                 const PassPipelineCLParser &passes) {
  if (shared || !headerFile.empty() || !abiJSONFile.empty() ||
      !exports.empty() || !keepLL.empty() || optLevel.getNumOccurrences() ||
      march.getNumOccurrences() || verbose)
    return reportError("--emit=c writes C source only: --shared, --header, "
                       "--abi-json, --export, --keep-ll, -O, --march and -v "
                       "do not apply");
  PassManager pm(module.getContext());
  if (passes.hasAnyOccurrences()) {
    if (failed(passes.addToPipeline(pm, reportError)))
      return failure();
  } else if (failed(parsePassPipeline(stencil::kConvertToCPipeline, pm))) {
    return failure();
  }
  if (failed(pm.run(module)))
    return failure();
  // Whatever the passes, only EmitC ops may reach the printer.
  WalkResult walk = module.walk([](Operation *op) {
    if (isa<ModuleOp>(op) ||
        isa_and_nonnull<emitc::EmitCDialect>(op->getDialect()))
      return WalkResult::advance();
    op->emitOpError("is not in the EmitC dialect: --emit=c needs passes "
                    "that end in EmitC, such as --")
        << stencil::kConvertToCPipeline;
    return WalkResult::interrupt();
  });
  if (walk.wasInterrupted())
    return failure();
  std::string text;
  llvm::raw_string_ostream os(text);
  if (failed(emitc::translateToCpp(module, os)))
    return failure();
  return writeFile(outputFile, text);
}

static LogicalResult run(MLIRContext &context,
                         const PassPipelineCLParser &passes) {
  llvm::SourceMgr sourceMgr;
  SourceMgrDiagnosticHandler diagnostics(sourceMgr, &context);
  OwningOpRef<ModuleOp> module = parseInput(context, sourceMgr);
  if (!module)
    return failure();
  DialectRegistry lowered;
  stencil::registerAllStencilDialects(lowered);
  registerAllToLLVMIRTranslations(lowered);
  context.appendDialectRegistry(lowered);
  if (emit == EmitKind::C)
    return emitCSource(*module, passes);
  // What each function accesses of its arrays, planned on the input IR
  // (before the passes lower the domains) for --abi-json.
  llvm::StringMap<stencil::FunctionAccessBounds> bounds =
      stencil::planAccessBounds(*module);
  std::string prepareABI;
  FailureOr<std::optional<std::vector<stencil::CEntryPoint>>> plan =
      runPasses(*module, passes, prepareABI);
  if (failed(plan) || failed(writeABIFiles(*plan, prepareABI, bounds)))
    return failure();

  SmallString<128> ll(keepLL);
  if (ll.empty() &&
      llvm::sys::fs::createTemporaryFile("stencil-compile", "ll", ll))
    return reportError("cannot create a temporary file");
  llvm::FileRemover removeLL(keepLL.empty() ? ll.str() : StringRef());
  bool distributed = module->lookupSymbol("stencil_dist_check_grid");
  bool gpu = !module->getOps<gpu::BinaryOp>().empty();
  if (failed(translateToLLVMIR(*module, ll)))
    return failure();
  return compileWithClang(ll, distributed, gpu);
}

int main(int argc, char **argv) {
  llvm::InitLLVM init(argc, argv);
  executablePath = llvm::sys::fs::getMainExecutable(
      argv[0], reinterpret_cast<void *>(&runtimeLibrary));
  stencil::registerAllStencilPasses();
  registerAllPasses();
  // The passes as stencil-opt takes them: one flag per pass, or a textual
  // pipeline with -p.
  PassPipelineCLParser passes("", "The passes to run (default: --convert-to-omp)",
                              "p");
  // Every option but ours and the generic ones (--help), the pass list
  // included, only in --help-hidden.
  stencil::hideRegisteredOptions({&compileOptions});
  cl::ParseCommandLineOptions(
      argc, argv,
      "Compile stencil IR to a native object or shared library, with its C "
      "header (docs/ABI.md)\n\n"
      "The passes run are given as for stencil-opt: one flag per pass (with "
      "its options, --convert-to-omp=\"scatter=atomic\") or a textual "
      "pipeline with -p; without any, --convert-to-omp. `stencil-opt "
      "--help` lists the passes and their options; --help-hidden lists "
      "every option of this tool, LLVM's included.\n");
  // The input is parsed with the dialects a stencil program is written in;
  // those the passes lower to are added once it is parsed (InitAll.h).
  DialectRegistry input;
  stencil::registerStencilInputDialects(input);
  MLIRContext context(input);
  // Located errors, without a dump of the op they are about.
  context.printOpOnDiagnostic(false);
  return failed(run(context, passes)) ? 1 : 0;
}
