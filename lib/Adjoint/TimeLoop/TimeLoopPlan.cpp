//===- TimeLoopPlan.cpp - The reversal of a time loop, as data --*- C++ -*-===//
//
// This file implements TimeLoopPlan.h: the plan's derived facts and its JSON
// form, which `--stencil-adjoint=report=1` prints for each time loop.
//
//===----------------------------------------------------------------------===//

#include "TimeLoopPlan.h"

#include "llvm/ADT/STLExtras.h"

using namespace mlir::stencil::ad;
using llvm::json::Array;
using llvm::json::Object;
using llvm::json::Value;

llvm::SmallVector<unsigned> LoopShape::inverse() const {
  llvm::SmallVector<unsigned> result(rotation.size());
  for (auto [k, from] : llvm::enumerate(rotation))
    result[from] = k;
  return result;
}

bool TimeLoopPlan::anyDeferred() const {
  return llvm::any_of(handOvers,
                      [](const HandOverPlan &h) { return h.deferred; });
}

static Array toJSON(llvm::ArrayRef<unsigned> values) { return Array(values); }

/// A bound of a box: `{"constant": c}` or `{"step_arg": k, "offset": c}`.
static Array toJSON(llvm::ArrayRef<StepBound> bounds) {
  Array result;
  for (const StepBound &bound : bounds)
    result.push_back(bound.argument < 0 ? Object{{"constant", bound.constant}}
                                        : Object{{"step_arg", bound.argument},
                                                 {"offset", bound.constant}});
  return result;
}

static Value toJSON(const StateArrayPlan &array) {
  Value box = nullptr;
  if (array.box)
    box = Object{{"lower", toJSON(array.box->lower)},
                 {"upper", toJSON(array.box->upper)}};
  Object result{{"step_arg", array.stepArgument},
                {"read", array.read},
                {"box", std::move(box)},
                {"border", array.border()}};
  if (array.rotated >= 0)
    result["rotated"] = array.rotated;
  return result;
}

static Value toJSON(const HandOverPlan &handOver) {
  return Object{
      {"from", handOver.from},         {"to", handOver.to},
      {"deferred", handOver.deferred}, {"from_arg", handOver.fromArg},
      {"to_arg", handOver.toArg},      {"receiver_arg", handOver.receiverArg}};
}

/// A name, or null where there is none.
static Value nameOrNull(const std::string &name) {
  return name.empty() ? Value(nullptr) : Value(name);
}

static Value toJSON(const OutsidePlan &outside) {
  return Object{{"domains", outside.domains},
                {"function", nameOrNull(outside.function)},
                {"adjoint", nameOrNull(outside.adjoint)}};
}

/// The schedule: the steps it counts (T, or T + 1 with the tail as step T)
/// and the actions the driver dispatches.
static Value scheduleJSON(const TimeLoopPlan &plan) {
  // A stateless schedule only reverses.
  Array actions = plan.stateless
                      ? Array{"reverse"}
                      : Array{"store", "restore", "advance", "reverse"};
  return Object{{"steps", plan.tailIsScheduled() ? "T+1" : "T"},
                {"actions", std::move(actions)},
                {"stateless", plan.stateless}};
}

Value TimeLoopPlan::toJSON() const {
  Array stateJSON, handOversJSON;
  for (const StateArrayPlan &array : state)
    stateJSON.push_back(::toJSON(array));
  for (const HandOverPlan &handOver : handOvers)
    handOversJSON.push_back(::toJSON(handOver));
  return Object{
      {"function", function},
      {"adjoint", adjoint},
      {"induction_type", inductionType},
      {"rotated", ::toJSON(shape.arrays)},
      {"rotation", ::toJSON(shape.rotation)},
      {"accumulators", ::toJSON(shape.accumulators)},
      {"clocks", ::toJSON(shape.clocks)},
      {"step", Object{{"function", step},
                      {"adjoint", stepAdjoint},
                      {"captures", stepCaptures},
                      {"active_captures", activeStepCaptures}}},
      {"state", std::move(stateJSON)},
      {"hand_overs", std::move(handOversJSON)},
      {"hand_over_functions",
       Object{{"steady", nameOrNull(steadyAdjoint)},
              {"receiving", nameOrNull(receivingAdjoint)},
              {"reset", nameOrNull(handOverReset)},
              {"flush", nameOrNull(handOverFlush)}}},
      {"head", ::toJSON(head)},
      {"tail", ::toJSON(tail)},
      {"tail_reads_state", tailReadsState},
      {"schedule", scheduleJSON(*this)},
  };
}
