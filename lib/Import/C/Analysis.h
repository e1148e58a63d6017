//===- Analysis.h - From a C function's AST to its import plan -*- C++ -*-===//
//
// The Clang-facing half of the importer's planning: which parameters are
// arrays, sizes and scalars (Params.cpp), which statements are loop nests
// and what their bounds are (Nests.cpp), and how each subscript reads or
// writes its array (Accesses.cpp). The result is a FunctionPlan (Plan.h)
// plus the index from AST nodes to plan entries that Emit.cpp needs.
//
//===----------------------------------------------------------------------===//

#ifndef STENCIL_LIB_IMPORT_C_ANALYSIS_H
#define STENCIL_LIB_IMPORT_C_ANALYSIS_H

#include "Locator.h"
#include "Plan.h"

#include "Stencil/Import/CImporter.h"

#include "clang/AST/Decl.h"
#include "clang/AST/Expr.h"
#include "clang/AST/Stmt.h"
#include "llvm/ADT/DenseMap.h"

#include <memory>

namespace mlir::stencil::importc {

/// The AST side of a FunctionPlan.
struct FunctionAST {
  const clang::FunctionDecl *decl = nullptr;
  llvm::DenseMap<const clang::ValueDecl *, unsigned> paramIndex;
  /// The declaration of each entry of FunctionPlan::params.
  llvm::SmallVector<const clang::ValueDecl *> declOf;
  struct Nest {
    const clang::ForStmt *outer = nullptr;
    llvm::SmallVector<const clang::VarDecl *> counters;
    const clang::Stmt *body = nullptr;
    /// Per access: its expression.
    std::vector<const clang::Expr *> exprs;
    /// Per access: the branches it is in, as (if statement, arm) from the
    /// outermost; two assignments in different arms of one `if` exclude
    /// each other.
    std::vector<llvm::SmallVector<std::pair<const clang::Stmt *, int>, 2>>
        arms;
  };
  /// Parallel to FunctionPlan::nests.
  std::vector<Nest> nests;
  /// Per time loop of the plan: its statement.
  std::vector<const clang::ForStmt *> timeLoops;
  /// An access expression (the outermost subscript, or `*p`) -> its
  /// (nest, access) in the plan.
  llvm::DenseMap<const clang::Expr *, std::pair<unsigned, unsigned>> accessOf;
};

struct LinearizedState;

/// Shared state of the analysis of one function.
struct Analysis {
  const Locator &locator;
  const CImportOptions &options;
  FunctionPlan plan;
  FunctionAST ast;
  /// Linearized.cpp: the atoms and layouts of linearized arrays.
  std::shared_ptr<LinearizedState> linearized;

  Analysis(const Locator &locator, const CImportOptions &options)
      : locator(locator), options(options) {}

  const ParamPlan *paramOf(const clang::ValueDecl *decl) const {
    auto it = ast.paramIndex.find(decl);
    return it == ast.paramIndex.end() ? nullptr : &plan.params[it->second];
  }
};

/// Params.cpp: classifies the parameters (plan.params, ast.paramIndex).
LogicalResult analyzeParams(Analysis &a);
/// Params.cpp: refuses arrays that may alias (after the accesses are known).
LogicalResult checkAliasing(Analysis &a);

/// Nests.cpp: the function body as a sequence of loop nests and scalar
/// locals; fills plan.nests and ast.nests (the accesses through
/// analyzeAccesses).
LogicalResult analyzeBody(Analysis &a);
/// `s` as a `for` loop: the loop itself, or the loop under OpenMP loop
/// pragmas (`#pragma omp parallel for`, `simd`, ... in C parsed with
/// -fopenmp), which say how to run it, as the lowering decides anyway.
/// Null for other statements.
const clang::ForStmt *asForLoop(const clang::Stmt *s);
/// Nests.cpp: a perfect nest (plan.nests, ast.nests, its accesses).
LogicalResult analyzeNest(Analysis &a, const clang::ForStmt *outer);
/// Nests.cpp: one loop's counter and bounds (maps of one result).
struct LoopBounds {
  const clang::VarDecl *counter;
  AffineMap lower, upper;
};
FailureOr<LoopBounds> analyzeLoopHeader(Analysis &a, const clang::ForStmt *f);
/// Nests.cpp: an integer expression affine in the size parameters (the
/// messages say "bound").
FailureOr<AffineExpr> analyzeSizeExpr(Analysis &a, const clang::Expr *e);
/// Nests.cpp: declarations outside the nests: counters, float scalars,
/// pointer locals (arrays of the plan after the parameters).
LogicalResult declareLocals(Analysis &a, const clang::DeclStmt *decl);
/// Nests.cpp: true if `v` is a counter of nest `nest`.
bool isLoopCounter(const Analysis &a, unsigned nest, const clang::VarDecl *v);

/// TimeLoops.cpp: a loop whose body holds nests and pointer rotations.
bool isTimeLoop(const clang::ForStmt *f);
LogicalResult analyzeTimeLoop(Analysis &a, const clang::ForStmt *f);
/// TimeLoops.cpp: refuses a nest that writes an array and accesses a
/// pointer that may be the same array (after the plan is complete).
LogicalResult checkRotatedAliases(Analysis &a);

/// Accesses.cpp: the array of `u[a][b]` (what remains under the subscripts)
/// and its indices, outermost first.
const clang::Expr *
subscriptChain(const clang::Expr *e,
               llvm::SmallVectorImpl<const clang::Expr *> &indices);

/// Accesses.cpp: the accesses of nest `nest`'s body.
LogicalResult analyzeAccesses(Analysis &a, unsigned nest);

/// Linearized.cpp: before the nests, the layout of each one-dimensional
/// array parameter whose subscripts are linearized multi-dimensional
/// indices (`w[(i*ny + j)*nz + k]`): its plan becomes linearized, with the
/// delinearized rank.
LogicalResult planLinearized(Analysis &a);

/// Linearized.cpp: a one-subscript access of a pointer whose index is not
/// `counter + constant` (a linearized multi-dimensional index). DELINEARIZE
/// HOOK: fills `access` (dims/offsets over the array's delinearized rank)
/// and the array's plan (shape, extents, strides, linearized).
LogicalResult analyzeLinearized(Analysis &a, unsigned nest,
                                const clang::Expr *index, unsigned param,
                                AccessPlan &access);

} // namespace mlir::stencil::importc

#endif // STENCIL_LIB_IMPORT_C_ANALYSIS_H
