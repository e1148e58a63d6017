//===- TimeLoopPlanner.cpp - Planning a time loop's reversal ----*- C++ -*-===//
//
// This file computes the TimeLoopPlan of a time loop and reports every
// refusal before the user's module changes; the emitter (TimeLoopAdjoint.cpp
// and its neighbours) then builds from the complete plan and cannot fail.
//
// What a step's adjoint reads of the state, and which shadows it hands
// over, are properties of that adjoint: the planner outlines the step, the
// head and the tail and differentiates them in a scratch module (a copy of
// the user's, for the symbols their ops refer to), reads the plan off them,
// and leaves them there for the emitter to move next to the primal. The
// scalar ops around the loop are reversed by their rules, which report
// what they cannot do while they build: the planner runs them once on a
// probe in the scratch module (TimeLoopEmitter::probeScalars).
//
//===----------------------------------------------------------------------===//

#include "TimeLoopEmitter.h"

#include "Stencil/Dialect/StencilDialect.h"

#include "mlir/IR/SymbolTable.h"

using namespace mlir;
using namespace mlir::stencil;
using namespace mlir::stencil::ad;

/// The argument of `func` that `value` is, if it is one marked active.
static bool isActiveArgOf(func::FuncOp func, Value value) {
  auto arg = dyn_cast<BlockArgument>(value);
  return arg && isActiveArg(func, arg);
}

namespace {
class TimeLoopPlanner {
public:
  TimeLoopPlanner(func::FuncOp primal, scf::ForOp loop, StringRef name,
                  const TimeLoopOptions &options, TimeLoopPlan &plan,
                  TimeLoopBindings &ir)
      : primal(primal), loop(loop), options(options), plan(plan), ir(ir),
        builder(primal.getContext()) {
    plan.function = primal.getName().str();
    plan.adjoint = name.str();
  }

  LogicalResult run();

private:
  LogicalResult checkName(StringRef name, StringRef what);
  LogicalResult outlineStep();
  void setStepArguments(func::FuncOp func);
  LogicalResult outlineOutside(bool after);
  LogicalResult checkHeadReads();
  SmallVector<BlockArgument> stateArguments(func::FuncOp func);
  void findStateReads();
  void planSnapshotBoxes();
  void findTailReads();
  LogicalResult planHandOvers();

  func::FuncOp primal;
  scf::ForOp loop;
  const TimeLoopOptions &options;
  TimeLoopPlan &plan;
  TimeLoopBindings &ir;
  OpBuilder builder;
};
} // namespace

LogicalResult TimeLoopPlanner::checkName(StringRef name, StringRef what) {
  auto module = primal->getParentOfType<ModuleOp>();
  if (!SymbolTable::lookupSymbolIn(module, name))
    return success();
  return primal.emitOpError()
         << what << ": a symbol named '" << name << "' already exists";
}

void TimeLoopPlanner::setStepArguments(func::FuncOp func) {
  MLIRContext *ctx = primal.getContext();
  Block *entry = &func.getBody().front();
  for (auto [index, capture] : llvm::enumerate(ir.stepCaptures)) {
    entry->getArgument(index).setLoc(capture.getLoc());
    if (isActiveArgOf(primal, capture)) {
      func.setArgAttr(index, kActiveAttr, UnitAttr::get(ctx));
      ++plan.activeStepCaptures;
    }
  }
  unsigned index = ir.stepCaptures.size();
  for (unsigned position : plan.shape.arrays) {
    entry->getArgument(index).setLoc(loop.getInitArgs()[position].getLoc());
    func.setArgAttr(index++, kActiveAttr, UnitAttr::get(ctx));
  }
}

LogicalResult TimeLoopPlanner::outlineStep() {
  // Arguments: the captures (constants are cloned instead), the rotated
  // arrays, the loop's induction variable, the clocks' values; results:
  // the summed terms.
  SmallVector<Type> types, results;
  for (Value capture : ir.captures)
    if (!isConstant(capture))
      ir.stepCaptures.push_back(capture);
  plan.stepCaptures = ir.stepCaptures.size();
  for (Value capture : ir.stepCaptures)
    types.push_back(capture.getType());
  for (unsigned position : plan.shape.arrays)
    types.push_back(loop.getRegionIterArgs()[position].getType());
  types.push_back(loop.getInductionVar().getType());
  for (unsigned position : plan.shape.clocks)
    types.push_back(loop.getRegionIterArgs()[position].getType());
  for (Value term : ir.terms)
    results.push_back(term.getType());

  builder.setInsertionPointToEnd(ir.scratch->getBody());
  ir.step = func::FuncOp::create(builder, loop.getLoc(), plan.step,
                                 builder.getFunctionType(types, results));
  ir.step.setPrivate();
  Block *entry = ir.step.addEntryBlock();
  setStepArguments(ir.step);
  IRMapping mapping;
  mapping.map(ir.stepCaptures,
              entry->getArguments().take_front(ir.stepCaptures.size()));
  unsigned index = ir.stepCaptures.size();
  for (unsigned position : plan.shape.arrays)
    mapping.map(loop.getRegionIterArgs()[position],
                entry->getArgument(index++));
  mapping.map(loop.getInductionVar(), entry->getArgument(index++));
  for (unsigned position : plan.shape.clocks)
    mapping.map(loop.getRegionIterArgs()[position],
                entry->getArgument(index++));

  builder.setInsertionPointToStart(entry);
  for (Value capture : ir.captures)
    if (!mapping.contains(capture))
      mapping.map(capture,
                  builder.clone(*capture.getDefiningOp())->getResult(0));
  llvm::SmallPtrSet<Operation *, 4> additions(ir.additions.begin(),
                                              ir.additions.end());
  for (Operation &op : loop.getBody()->without_terminator())
    if (!additions.contains(&op))
      builder.clone(op, mapping);
  SmallVector<Value> returned;
  for (Value term : ir.terms)
    returned.push_back(mapping.lookupOrDefault(term));
  func::ReturnOp::create(builder, loop.getLoc(), returned);

  FailureOr<func::FuncOp> differentiated = differentiateStraightLine(
      ir.step, plan.stepAdjoint, options.resetOutputs);
  if (failed(differentiated))
    return failure();
  ir.stepAdjoint = *differentiated;
  // The driver passes distinct arrays to both (the rotated arrays are
  // distinct arguments, the plan keeps them apart from the captures, and
  // shadows are distinct from everything by the ABI's contract): the same
  // aliasing facts as a public function's (--stencil-prepare-abi), without
  // which the step's loops would not vectorize.
  for (func::FuncOp func : {ir.step, ir.stepAdjoint})
    func->setAttr(StencilDialect::NoaliasAttrHelper::getNameStr(),
                  builder.getUnitAttr());
  return success();
}

/// Outlines `domains` (in order) into a private function `name` at the end
/// of `module`, of the non-constant `captures` (constants are cloned in),
/// returning the domains' sums; the captures `isActive` says are active
/// arguments.
static func::FuncOp outlineDomains(OpBuilder &builder, ModuleOp module,
                                   ArrayRef<DomainOp> domains,
                                   const llvm::SetVector<Value> &captures,
                                   StringRef name,
                                   function_ref<bool(Value)> isActive) {
  SmallVector<Type> types, results;
  for (Value capture : captures)
    if (!isConstant(capture))
      types.push_back(capture.getType());
  for (DomainOp domain : domains)
    llvm::append_range(results, domain->getResultTypes());
  Location loc = DomainOp(domains.front()).getLoc();
  OpBuilder::InsertionGuard guard(builder);
  builder.setInsertionPointToEnd(module.getBody());
  auto func = func::FuncOp::create(builder, loc, name,
                                   builder.getFunctionType(types, results));
  func.setPrivate();
  Block *entry = func.addEntryBlock();
  builder.setInsertionPointToStart(entry);
  IRMapping mapping;
  unsigned index = 0;
  for (Value capture : captures) {
    if (isConstant(capture)) {
      mapping.map(capture,
                  builder.clone(*capture.getDefiningOp())->getResult(0));
      continue;
    }
    mapping.map(capture, entry->getArgument(index));
    if (isActive(capture))
      func.setArgAttr(index, kActiveAttr, builder.getUnitAttr());
    ++index;
  }
  SmallVector<Value> returned;
  for (DomainOp domain : domains)
    llvm::append_range(returned, builder.clone(*domain, mapping)->getResults());
  func::ReturnOp::create(builder, loc, returned);
  return func;
}

LogicalResult TimeLoopPlanner::outlineOutside(bool after) {
  ArrayRef<DomainOp> domains = after ? ir.tail : ir.head;
  OutsidePlan &outside = after ? plan.tail : plan.head;
  outside.domains = domains.size();
  if (domains.empty())
    return success();
  auto isActive = [&](Value capture) {
    return isFinalArray(capture, loop) || isActiveArgOf(primal, capture);
  };
  const llvm::SetVector<Value> &captures =
      after ? ir.tailCaptures : ir.headCaptures;
  // Without an active capture (a constant term of the objective) there is
  // nothing to differentiate, and nothing to run: what the head writes is
  // active.
  if (llvm::none_of(captures, isActive))
    return success();
  outside.function = (primal.getName() + (after ? "_tail" : "_head")).str();
  outside.adjoint = outside.function + "_adjoint";
  StringRef what = "cannot outline the domains before or after its time loop";
  if (failed(checkName(outside.function, what)) ||
      failed(checkName(outside.adjoint, what)))
    return failure();
  func::FuncOp func = outlineDomains(builder, *ir.scratch, domains, captures,
                                     outside.function, isActive);
  (after ? ir.tailFunction : ir.headFunction) = func;
  FailureOr<func::FuncOp> differentiated =
      differentiateStraightLine(func, outside.adjoint, options.resetOutputs);
  if (failed(differentiated))
    return failure();
  (after ? ir.tailAdjoint : ir.headAdjoint) = *differentiated;
  // Distinct arrays, as for the step: the analysis refuses arguments that
  // the loop rotates in the tail, so a final array is never also read as an
  // argument, and the head's arrays are the function's.
  for (func::FuncOp f : {func, *differentiated})
    f->setAttr(StencilDialect::NoaliasAttrHelper::getNameStr(),
               builder.getUnitAttr());
  return after ? success() : checkHeadReads();
}

LogicalResult TimeLoopPlanner::checkHeadReads() {
  // The head's adjoint runs after the schedule, which leaves the state
  // arrays as work space: it may not read them.
  Block &entry = ir.headAdjoint.getBody().front();
  unsigned index = 0;
  llvm::SmallDenseSet<Value> state(ir.writtenCaptures.begin(),
                                   ir.writtenCaptures.end());
  for (unsigned position : plan.shape.arrays)
    state.insert(loop.getInitArgs()[position]);
  for (Value capture : ir.headCaptures) {
    if (isConstant(capture))
      continue;
    BlockArgument arg = entry.getArgument(index++);
    if (!state.contains(capture) || !readsStateContents(arg))
      continue;
    Operation *user = firstUserIn(capture, ir.head);
    return user->emitOpError()
           << "reads argument #" << cast<BlockArgument>(capture).getArgNumber()
           << " before the time loop in a way whose adjoint needs its value, "
              "which the loop overwrites; not supported yet (the adjoint "
              "of the domains before the loop may read only arrays the loop "
              "does not write)";
  }
  return success();
}

/// The arguments of `func` (the step or its adjoint: captures, rotated
/// arrays, step index, ...) that hold the state, in snapshot order
/// (plan.state): the rotated arrays, then the written captures.
SmallVector<BlockArgument> TimeLoopPlanner::stateArguments(func::FuncOp func) {
  Block &entry = func.getBody().front();
  SmallVector<BlockArgument> state;
  for (const StateArrayPlan &array : plan.state)
    state.push_back(entry.getArgument(array.stepArgument));
  return state;
}

void TimeLoopPlanner::findStateReads() {
  unsigned captures = ir.stepCaptures.size();
  auto addState = [&](int64_t rotated, unsigned stepArgument) {
    StateArrayPlan array;
    array.rotated = rotated;
    array.stepArgument = stepArgument;
    plan.state.push_back(array);
  };
  for (unsigned k = 0; k < plan.shape.arrays.size(); ++k)
    addState(k, captures + k);
  for (Value capture : ir.writtenCaptures)
    addState(-1,
             llvm::find(ir.stepCaptures, capture) - ir.stepCaptures.begin());
  SmallVector<BlockArgument> state = stateArguments(ir.stepAdjoint);
  pruneUnreadStores(ir.stepAdjoint, state);
  for (auto [array, arg] : llvm::zip_equal(plan.state, state))
    array.read = readsStateContents(arg);
  // A state the step's adjoint does not read has no bytes to keep: the
  // library then schedules the reversed steps alone.
  plan.stateless = llvm::none_of(
      plan.state, [](const StateArrayPlan &array) { return array.read; });
}

void TimeLoopPlanner::planSnapshotBoxes() {
  if (!options.snapshotBorders || plan.stateless)
    return;
  // The driver has the bounds of a box if they use only constants and the
  // step's captures of index type (loop invariants).
  auto available = [&](StepBound bound) {
    return bound.argument < 0 ||
           (bound.argument < static_cast<int64_t>(ir.stepCaptures.size()) &&
            ir.stepCaptures[bound.argument].getType().isIndex());
  };
  for (auto [array, arg] :
       llvm::zip_equal(plan.state, stateArguments(ir.step))) {
    std::optional<OverwrittenBox> box = planOverwrittenBox(ir.step, arg);
    if (box && llvm::all_of(box->lower, available) &&
        llvm::all_of(box->upper, available))
      array.box = std::move(box);
  }
}

void TimeLoopPlanner::findTailReads() {
  if (!ir.tailAdjoint)
    return;
  Block &entry = ir.tailAdjoint.getBody().front();
  unsigned index = 0;
  for (Value capture : ir.tailCaptures) {
    if (isConstant(capture))
      continue;
    BlockArgument arg = entry.getArgument(index++);
    bool isState = isFinalArray(capture, loop) ||
                   llvm::is_contained(ir.writtenCaptures, capture);
    if (isState && readsStateContents(arg))
      plan.tailReadsState = true;
  }
}

LogicalResult TimeLoopPlanner::planHandOvers() {
  // The step's adjoint takes the primal's arguments (captures, rotated
  // arrays, step index, clocks), the shadows of the active captures, then
  // those of the rotated arrays.
  unsigned numArrays = plan.shape.arrays.size();
  unsigned indexArg = plan.stepCaptures + numArrays;
  unsigned first =
      indexArg + 1 + plan.shape.clocks.size() + plan.activeStepCaptures;
  Block &entry = ir.stepAdjoint.getBody().front();
  SmallVector<BlockArgument> shadows(
      entry.getArguments().slice(first, numArrays));
  // Reversing a step hands the shadow of rotated array a to array k with
  // inverse[k] == a.
  SmallVector<unsigned> inverse = plan.shape.inverse(), handedTo(numArrays);
  for (auto [k, a] : llvm::enumerate(inverse))
    handedTo[a] = k;
  // The step's index and the clocks change from step to step.
  SmallVector<BlockArgument> perStep(
      entry.getArguments().slice(indexArg, 1 + plan.shape.clocks.size()));
  planShadowHandOvers(ir.stepAdjoint, shadows, handedTo, perStep,
                      plan.handOvers, ir.handOvers);
  if (!options.deferHandOvers)
    for (HandOverPlan &handOver : plan.handOvers)
      handOver.deferred = false;
  if (plan.handOvers.empty())
    return success();
  StringRef what = "cannot outline the reversal of its time step";
  plan.steadyAdjoint = plan.stepAdjoint + "_steady";
  plan.handOverReset = plan.stepAdjoint + "_reset";
  if (plan.anyDeferred()) {
    plan.receivingAdjoint = plan.stepAdjoint + "_receiving";
    plan.handOverFlush = plan.stepAdjoint + "_flush";
  }
  for (StringRef name : {plan.steadyAdjoint, plan.handOverReset,
                         plan.receivingAdjoint, plan.handOverFlush})
    if (!name.empty() && failed(checkName(name, what)))
      return failure();
  return success();
}

LogicalResult TimeLoopPlanner::run() {
  plan.step = (primal.getName() + "_step").str();
  plan.stepAdjoint = plan.step + "_adjoint";
  llvm::raw_string_ostream type(plan.inductionType);
  loop.getInductionVar().getType().print(type);
  if (failed(checkName(plan.step, "cannot outline its time step")) ||
      failed(checkName(plan.stepAdjoint, "cannot outline its time step")) ||
      failed(checkName(plan.adjoint, "cannot create its adjoint")))
    return failure();
  // The scratch module: a copy of the user's, for the symbols the outlined
  // ops refer to (the partial derivatives of a call).
  ir.scratch = primal->getParentOfType<ModuleOp>().clone();
  if (failed(outlineStep()) || failed(outlineOutside(/*after=*/true)) ||
      failed(outlineOutside(/*after=*/false)))
    return failure();
  findStateReads();
  planSnapshotBoxes();
  findTailReads();
  if (failed(planHandOvers()))
    return failure();
  TimeLoopEmitter probe(primal, plan, ir);
  return probe.probeScalars();
}

FailureOr<func::FuncOp>
ad::differentiateTimeLoop(func::FuncOp primal, scf::ForOp loop, StringRef name,
                          const TimeLoopOptions &options) {
  if (!llvm::any_of(primal.getArguments(), [&](BlockArgument arg) {
        return isActiveArg(primal, arg);
      }))
    return primal.emitOpError() << "has no argument marked " << kActiveAttr;
  for (Type type : primal.getResultTypes())
    if (!isStencilFloat(type))
      return primal.emitOpError()
             << "returns a value of type " << type
             << "; functions to differentiate may only return f32/f64";
  TimeLoopPlan plan;
  TimeLoopBindings ir;
  auto isActive = [&](BlockArgument arg) { return isActiveArg(primal, arg); };
  if (failed(analyzeTimeLoop(primal, loop, isActive, plan.shape, ir)))
    return failure();
  TimeLoopPlanner planner(primal, loop, name, options, plan, ir);
  if (failed(planner.run()))
    return failure();
  if (options.report) {
    std::string json;
    llvm::raw_string_ostream os(json);
    os << plan.toJSON();
    loop.emitRemark() << "time-loop plan: " << json;
  }
  return TimeLoopEmitter(primal, plan, ir).emit();
}
