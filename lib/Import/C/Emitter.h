//===- Emitter.h - Builds the IR of an import plan -------------*- C++ -*-===//
//
// Walks the C function again, with its plan: the function and its domains
// (Emit.cpp), statements and branches (EmitStmt.cpp), expressions and calls
// (EmitExpr.cpp). Every op is built with the dialects' C++ builders and
// located at its C source.
//
//===----------------------------------------------------------------------===//

#ifndef STENCIL_LIB_IMPORT_C_EMITTER_H
#define STENCIL_LIB_IMPORT_C_EMITTER_H

#include "Analysis.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/Builders.h"
#include "llvm/ADT/DenseSet.h"

#include <map>
#include <vector>

namespace mlir::stencil::importc {

/// A write of the body waiting for its value to leave a branch.
struct Effect {
  unsigned access; ///< index into the nest's accesses
  Value value;
};

class Emitter {
public:
  Emitter(const Analysis &a, OpBuilder &builder) : a(a), b(builder) {}

  /// Emit.cpp: the function with its domains, appended to `module`.
  LogicalResult emitFunction(ModuleOp module);

private:
  // Emit.cpp
  LogicalResult emitTopLevel(const clang::Stmt *s, unsigned &nextNest,
                             unsigned &nextLoop);
  LogicalResult emitTimeLoop(unsigned index, unsigned &nextNest);
  LogicalResult emitPoint(unsigned index,
                          const clang::CompoundAssignOperator *update);
  /// A read of an array in a time step, outside its nests: a load.
  FailureOr<Value> emitStepRead(const clang::Expr *e);
  LogicalResult checkRotation(const TimeLoopPlan &plan, scf::ForOp loop,
                              ArrayRef<Value> yields);
  LogicalResult emitNest(unsigned nest);
  /// The memref an array of the plan (a parameter or a pointer local) is now.
  Value array(unsigned param) const;
  LogicalResult emitLocal(const clang::VarDecl *var);
  void emitEffect(const Effect &effect);

  // EmitStmt.cpp
  LogicalResult emitStmt(const clang::Stmt *s);
  LogicalResult emitAssign(const clang::BinaryOperator *assign);
  LogicalResult emitIf(const clang::IfStmt *s);
  FailureOr<Value> emitTernary(const clang::ConditionalOperator *c);
  /// Replaces the arms' temporary if by one that yields `thenValues` and
  /// `elseValues`; folds it into selects when both arms are safe to run at
  /// every point. Returns the results.
  SmallVector<Value> finishIf(scf::IfOp tmp, ArrayRef<Value> thenValues,
                              ArrayRef<Value> elseValues);

  // EmitExpr.cpp
  FailureOr<Value> emitFloat(const clang::Expr *e);
  FailureOr<Value> emitIndex(const clang::Expr *e);
  FailureOr<Value> emitCond(const clang::Expr *e);
  FailureOr<Value> emitCast(const clang::CastExpr *c);
  FailureOr<Value> emitBinary(const clang::BinaryOperator *op);
  FailureOr<Value> emitCall(const clang::CallExpr *call);
  FailureOr<Value> emitRead(const clang::Expr *e);
  FailureOr<Value> emitVar(const clang::DeclRefExpr *ref);
  FailureOr<Value> convert(Value v, Type to, const clang::Expr *e);

  Location loc(const clang::Stmt *s) const { return a.locator.loc(s); }
  Type floatType(clang::QualType type) const;

  const Analysis &a;
  OpBuilder &b;
  func::FuncOp func;
  /// Parameters, counters and locals in scope.
  DenseMap<const clang::ValueDecl *, Value> values;
  /// The nest being emitted (-1 outside the nests), its domain.
  int nest = -1;
  /// The gathers of the nest's body, by (array, dims, offsets): one read
  /// per element.
  std::map<std::vector<int64_t>, Value> gathers;
  /// The locals declared in the nest's body.
  llvm::DenseSet<const clang::VarDecl *> bodyLocals;
  /// Writes collected in a branch (null at the top of a body).
  SmallVector<Effect> *pending = nullptr;
  /// True while emitting a time step (outside its nests).
  bool inStep = false;
  /// The outermost branch being emitted: gathers go before it, so that
  /// branches only compute.
  Operation *anchor = nullptr;
};

} // namespace mlir::stencil::importc

#endif // STENCIL_LIB_IMPORT_C_EMITTER_H
