//===- Importer.cpp - Parse C with Clang, import its stencil functions -----===//

#include "Emitter.h"

#include "Stencil/Dialect/StencilDialect.h"
#include "Stencil/Import/CImporter.h"

#include "clang/Frontend/ASTUnit.h"
#include "clang/Tooling/Tooling.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/Verifier.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/thread.h"

using namespace mlir;
using namespace mlir::stencil;
using namespace mlir::stencil::importc;

#if LLVM_ADDRESS_SANITIZER_BUILD
/// The sanitizer build (STENCIL_SANITIZE=address) of every program that links
/// the importer. LLVM's BumpPtrAllocator poisons a new slab and unpoisons each
/// allocation from it only where it is compiled with AddressSanitizer, and the
/// inline copies of one linked program disagree: Clang's headers make this
/// file instantiate the instrumented slow path, which the linker may pick for
/// the uninstrumented LLVM and MLIR libraries too, whose fast path then hands
/// out poisoned memory (a use-after-poison in MLIRContext's constructor).
/// Without the allocators' poisoning, AddressSanitizer still checks every
/// access of our code against the heap's own redzones and quarantine.
extern "C" const char *__asan_default_options() {
  return "allow_user_poisoning=0";
}
#endif

static std::vector<std::string> clangArgs(const CImportOptions &options) {
  std::vector<std::string> args = {"-x", "c", "-std=c99",
                                   "-resource-dir=" STENCIL_CLANG_RESOURCE_DIR};
  llvm::append_range(args, options.clangArgs);
  return args;
}

/// The functions of the main file to import, in source order.
static SmallVector<const clang::FunctionDecl *>
selectFunctions(clang::ASTContext &ast, const CImportOptions &options,
                const Locator &loc, StringRef path, bool &failed) {
  SmallVector<const clang::FunctionDecl *> result;
  const clang::SourceManager &sm = ast.getSourceManager();
  for (const clang::Decl *d : ast.getTranslationUnitDecl()->decls()) {
    const auto *fd = dyn_cast<clang::FunctionDecl>(d);
    if (!fd || !fd->doesThisDeclarationHaveABody() ||
        !sm.isInMainFile(sm.getExpansionLoc(fd->getLocation())))
      continue;
    if (!options.functions.empty() &&
        !llvm::is_contained(options.functions, fd->getName()))
      continue;
    result.push_back(fd);
  }
  for (const std::string &name : options.functions)
    if (llvm::none_of(result, [&](auto *fd) { return fd->getName() == name; })) {
      emitError(FileLineColLoc::get(loc.getContext(), path, 1, 1))
          << "no function '" << name << "' is defined in " << path;
      failed = true;
    }
  if (result.empty() && !failed) {
    emitError(FileLineColLoc::get(loc.getContext(), path, 1, 1))
        << path << " defines no function to import";
    failed = true;
  }
  return result;
}

/// Refuses --active names that are no parameter of any imported function.
static LogicalResult checkActiveNames(ArrayRef<FunctionPlan> plans,
                                      const CImportOptions &options,
                                      MLIRContext *ctx, StringRef path) {
  for (const std::string &name : options.active) {
    bool found = llvm::any_of(plans, [&](const FunctionPlan &plan) {
      return llvm::any_of(plan.params,
                          [&](const ParamPlan &p) { return p.name == name; });
    });
    if (!found)
      return emitError(FileLineColLoc::get(ctx, path, 1, 1))
             << "--active names '" << name
             << "', which is no parameter of the imported functions";
  }
  return success();
}

/// The most the importer takes of one function: its analysis and emission
/// recurse over expressions, so a sum of a hundred thousand terms (a macro
/// that doubles its argument a dozen times writes one in a line) would
/// overflow the stack, and their time grows with the body. Real stencil
/// bodies stay far below both (docs/Diagnostics.md).
static constexpr unsigned kMaxExprDepth = 1000;
static constexpr unsigned kMaxBodyNodes = 100000;

/// Refuses a body deeper or larger than the limits above, walking it
/// without recursion.
static LogicalResult checkBodySize(Analysis &a) {
  const clang::FunctionDecl *fd = a.ast.decl;
  SmallVector<std::pair<const clang::Stmt *, unsigned>> stack = {
      {fd->getBody(), 1}};
  unsigned nodes = 0;
  while (!stack.empty()) {
    auto [s, depth] = stack.pop_back_val();
    if (depth > kMaxExprDepth)
      return a.locator.error(s)
             << "this expression nests more than " << kMaxExprDepth
             << " operations deep: split it with local temporaries";
    if (++nodes > kMaxBodyNodes)
      return a.locator.error(fd->getLocation())
             << "the body of '" << fd->getName() << "' has more than "
             << kMaxBodyNodes
             << " expressions and statements (after macro expansion): split "
                "it into several functions";
    for (const clang::Stmt *child : s->children())
      if (child)
        stack.push_back({child, depth + 1});
  }
  return success();
}

static LogicalResult planFunction(Analysis &a) {
  const clang::FunctionDecl *fd = a.ast.decl;
  a.plan.name = fd->getName().str();
  a.plan.loc = a.locator.loc(fd->getLocation());
  if (!fd->getReturnType()->isVoidType())
    return a.locator.error(fd->getLocation())
           << "'" << fd->getName()
           << "' returns a value: an imported stencil function returns void "
              "and writes its results to arrays (a sum: 's[0] += ...')";
  if (fd->isVariadic())
    return a.locator.error(fd->getLocation())
           << "'" << fd->getName() << "' is variadic";
  if (failed(checkBodySize(a)) || failed(analyzeParams(a)) ||
      failed(planLinearized(a)) ||
      failed(analyzeBody(a)))
    return failure();
  if (failed(checkAliasing(a)))
    return failure();
  return checkRotatedAliases(a);
}

static OwningOpRef<ModuleOp> importAST(MLIRContext &context,
                                       clang::ASTUnit &unit, StringRef path,
                                       const CImportOptions &options,
                                       llvm::raw_ostream *planJSON) {
  context.loadDialect<StencilDialect, func::FuncDialect, arith::ArithDialect,
                      math::MathDialect, memref::MemRefDialect,
                      scf::SCFDialect>();
  Locator locator(unit.getASTContext(), &context);
  bool failedSelect = false;
  auto functions = selectFunctions(unit.getASTContext(), options, locator,
                                   path, failedSelect);
  if (failedSelect)
    return nullptr;
  std::vector<std::unique_ptr<Analysis>> analyses;
  bool ok = true;
  for (const clang::FunctionDecl *fd : functions) {
    auto a = std::make_unique<Analysis>(locator, options);
    a->ast.decl = fd;
    ok &= succeeded(planFunction(*a));
    analyses.push_back(std::move(a));
  }
  if (!ok)
    return nullptr;
  std::vector<FunctionPlan> plans;
  for (auto &a : analyses)
    plans.push_back(a->plan);
  if (failed(checkActiveNames(plans, options, &context, path)))
    return nullptr;
  if (planJSON)
    printPlanJSON(plans, *planJSON);
  OpBuilder builder(&context);
  OwningOpRef<ModuleOp> module =
      ModuleOp::create(FileLineColLoc::get(&context, path, 1, 1));
  for (auto &a : analyses)
    ok &= succeeded(Emitter(*a, builder).emitFunction(*module));
  if (!ok)
    return nullptr;
  if (failed(verify(*module)))
    return nullptr;
  return module;
}

/// The stack the import runs on. Clang's parser recurses once per nested
/// operator or parenthesis (parentheses stop at -fbracket-depth, 256, but
/// prefix operators such as `- - - x` do not), and so may the AST's
/// destruction: a line of a few thousand of them overflows a thread's usual
/// 8 MiB. This much address space is reserved, not used, unless a source
/// nests that deep; the importer's own walks are bounded (checkBodySize).
static constexpr unsigned kImportStackBytes = 512u << 20;

OwningOpRef<ModuleOp> mlir::stencil::importCSource(
    MLIRContext &context, StringRef code, StringRef path,
    const CImportOptions &options, llvm::raw_ostream *planJSON) {
  OwningOpRef<ModuleOp> module;
  auto import = [&] {
    std::unique_ptr<clang::ASTUnit> unit =
        clang::tooling::buildASTFromCodeWithArgs(code, clangArgs(options),
                                                 path, "stencil-import-c");
    if (unit && !unit->getDiagnostics().hasErrorOccurred())
      module = importAST(context, *unit, path, options, planJSON);
  };
  // The caller waits: the context is used by one thread at a time.
  llvm::thread worker(std::optional<unsigned>(kImportStackBytes), import);
  worker.join();
  return module;
}

OwningOpRef<ModuleOp> mlir::stencil::importCFile(MLIRContext &context,
                                                 StringRef path,
                                                 const CImportOptions &options,
                                                 llvm::raw_ostream *planJSON) {
  auto buffer = llvm::MemoryBuffer::getFile(path, /*IsText=*/true);
  if (!buffer) {
    llvm::errs() << path << ": " << buffer.getError().message() << "\n";
    return nullptr;
  }
  return importCSource(context, (*buffer)->getBuffer(), path, options,
                       planJSON);
}
