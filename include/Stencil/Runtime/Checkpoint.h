/*===- Checkpoint.h - Binomial checkpointing schedules --------------*- C -*-===//
 *
 * The run-time schedule of a reversed time loop: which states to keep,
 * which steps to recompute, in which order to run the adjoint steps.
 * The adjoint of T steps needs the state before each step, in reverse
 * order; with S snapshot slots (the caller's memory budget, counting the
 * slot that holds the initial state) the schedule is Griewank and Walther's
 * binomial checkpointing (Revolve, ACM TOMS 26(1), 2000), which recomputes
 * the fewest steps possible:
 *
 *   r T - C(S + r, r - 1)  forward steps,  r the least with C(S + r, r) >= T,
 *
 * T - 1 when S >= T (store all), T (T - 1) / 2 when S = 1.
 *
 * The schedule is a stream of actions that the caller carries out on one
 * working state:
 *
 *   STENCIL_CKPT_STORE    copy the working state (before step `step`) into
 *                         slot `slot`;
 *   STENCIL_CKPT_RESTORE  copy slot `slot` (the state before step `step`)
 *                         into the working state;
 *   STENCIL_CKPT_ADVANCE  run the primal steps [step, end) on it;
 *   STENCIL_CKPT_REVERSE  run the adjoint of step `step` on the state
 *                         before it: the working state when `slot` is -1,
 *                         else slot `slot`, which this is the last use of
 *                         (the adjoint may clobber it; the working state is
 *                         left as it is);
 *   STENCIL_CKPT_DONE     every step has been reversed.
 *
 * Steps are reversed from T - 1 down to 0, each once, the last one first,
 * from the working state (the schedule advances to it). Slots are used as a
 * stack: slot k is only written while slots 0 .. k-1 hold live states. The
 * schedule is computed as it goes, in O(S) memory and O(log T) time per
 * action (the binomial split of each interval is found by bisection on the
 * convex cost of its two parts).
 *
 *===----------------------------------------------------------------------===*/

#ifndef STENCIL_RUNTIME_CHECKPOINT_H
#define STENCIL_RUNTIME_CHECKPOINT_H

#include "Stencil/ABI/StencilABI.h"

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The names under which generated code calls the functions below that the
 * compiler declares, and the prefix of every name of this library (for the
 * GPU route's checks). */
#define STENCIL_CKPT_PREFIX "stencil_ckpt_"
#define STENCIL_CKPT_START_NAME "stencil_ckpt_start"
#define STENCIL_CKPT_WORKSPACE_NAME "stencil_ckpt_workspace"

typedef enum stencil_ckpt_kind {
  STENCIL_CKPT_STORE,
  STENCIL_CKPT_RESTORE,
  STENCIL_CKPT_ADVANCE,
  STENCIL_CKPT_REVERSE,
  STENCIL_CKPT_DONE,
} stencil_ckpt_kind;

typedef struct stencil_ckpt_action {
  stencil_ckpt_kind kind;
  int64_t step; /* STORE, RESTORE, REVERSE: the step; ADVANCE: the first. */
  int64_t end;  /* ADVANCE: one past the last step run. */
  int64_t slot; /* STORE, RESTORE; REVERSE: -1 or the slot it reads. */
} stencil_ckpt_action;

/* The schedule's state: an explicit stack of the intervals still to
 * reverse. Opaque; sized by stencil_ckpt_init. */
typedef struct stencil_ckpt_schedule stencil_ckpt_schedule;

/* A schedule for `steps` >= 0 steps and `slots` >= 1 snapshot slots, or
 * NULL (bad arguments, or no memory). Free it with stencil_ckpt_free. */
stencil_ckpt_schedule *stencil_ckpt_init(int64_t steps, int64_t slots);

/* The next action; STENCIL_CKPT_DONE from then on once all are reversed. */
stencil_ckpt_action stencil_ckpt_next(stencil_ckpt_schedule *schedule);

void stencil_ckpt_free(stencil_ckpt_schedule *schedule);

/* The primal steps the whole schedule runs (the sum of end - step over its
 * ADVANCE actions): the optimum above, or -1 if it exceeds INT64_MAX. */
int64_t stencil_ckpt_forward_steps(int64_t steps, int64_t slots);

/* The steps it recomputes: its forward steps beyond the T - 1 of one sweep
 * (0 for store-all, (T - 1) (T - 2) / 2 for S = 1), or -1 if they exceed
 * INT64_MAX or the arguments are bad. */
int64_t stencil_ckpt_recomputed_steps(int64_t steps, int64_t slots);

/* The limit on recomputation. stencil_ckpt_start predicts a schedule's
 * recomputed steps (above, in O(log T)) before anything runs, and refuses
 * one that would recompute more than the limit: a snapshot count far too
 * small for the step count (S = 1 with T = 2^32 recomputes about 2^63
 * steps) would otherwise run for years. The limit is
 * STENCIL_CKPT_MAX_RECOMPUTED_STEPS, 2^32 (minutes of a tiny state's steps,
 * hours of a real one's), unless the environment variable named
 * STENCIL_CKPT_MAX_RECOMPUTED_ENV holds another one: a non-negative decimal
 * integer (9223372036854775807 lifts it). stencil_ckpt_max_recomputed_steps
 * returns the limit in force, or -1 if the variable holds anything else (a
 * schedule is then refused). A stateless loop (below) recomputes nothing. */
#define STENCIL_CKPT_MAX_RECOMPUTED_STEPS ((int64_t)1 << 32)
#define STENCIL_CKPT_MAX_RECOMPUTED_ENV "STENCIL_CKPT_MAX_RECOMPUTED_STEPS"
int64_t stencil_ckpt_max_recomputed_steps(void);

/* The interface that the reversed time loops of --stencil-adjoint call
 * (docs/TimeLoops.md): scalars and an opaque pointer only, so that generated
 * code needs no struct layout.
 *
 * stencil_ckpt_start checks the caller's snapshot count (>= 1) and the
 * steps the schedule would recompute (at most the limit above), makes the
 * calling thread's workspace hold min(snapshots, steps) slots of
 * `bytesPerSlot` bytes, and returns a schedule for that many slots, or NULL
 * after printing why to stderr ("stencil: ..."); the adjoint then returns
 * without computing anything. `bytesPerSlot` = 0 says that the step's
 * adjoint reads nothing of the state (a loop linear in it, with passive
 * coefficients): the schedule then keeps and recomputes nothing, reversing
 * T - 1 .. 0 on the working state (0 slots, 0 forward steps). The
 * workspace (64-byte aligned) is kept by the thread for its next adjoint,
 * so that repeated gradients (an inversion's iterations) do not fault
 * fresh memory in at every call; stencil_ckpt_release_workspace frees it.
 * _mlir_ciface_stencil_ckpt_workspace describes it to generated code as a
 * memref<?xi8> (the MLIR C interface returns a memref through a descriptor
 * pointer passed first). stencil_ckpt_slots is the number of snapshot
 * slots the schedule uses. stencil_ckpt_step_action moves to the next
 * action and returns its kind (a stencil_ckpt_kind); the accessors read
 * its fields. stencil_ckpt_finish records the schedule's statistics
 * (below) and frees
 * it. */
stencil_ckpt_schedule *stencil_ckpt_start(int64_t steps, int64_t snapshots,
                                          int64_t bytesPerSlot);
/* stencil_ckpt_start with the workspace in other memory: `reserve(bytes)`
 * makes it hold `bytes` (0 on success, else the schedule is refused as out
 * of memory). The GPU run-time library keeps it in device memory with this
 * (Stencil/Runtime/GPURuntime.h); the calling thread's host workspace is
 * then left alone. */
stencil_ckpt_schedule *stencil_ckpt_start_with(int64_t steps,
                                               int64_t snapshots,
                                               int64_t bytesPerSlot,
                                               int (*reserve)(int64_t bytes));
int64_t stencil_ckpt_slots(const stencil_ckpt_schedule *schedule);
int64_t stencil_ckpt_step_action(stencil_ckpt_schedule *schedule);
int64_t stencil_ckpt_action_step(const stencil_ckpt_schedule *schedule);
int64_t stencil_ckpt_action_end(const stencil_ckpt_schedule *schedule);
int64_t stencil_ckpt_action_slot(const stencil_ckpt_schedule *schedule);
void stencil_ckpt_finish(stencil_ckpt_schedule *schedule);

/* The workspace as a rank-1 descriptor of bytes (StencilABI.h). */
typedef struct stencil_ckpt_bytes {
  STENCIL_ABI_DESCRIPTOR_FIELDS(STENCIL_ABI_MEMBER, char, 1)
} stencil_ckpt_bytes;
void _mlir_ciface_stencil_ckpt_workspace(stencil_ckpt_bytes *result,
                                         stencil_ckpt_schedule *schedule);
void stencil_ckpt_release_workspace(void);

/* Why the calling thread's last stencil_ckpt_start refused to schedule (the
 * message it printed, without the newline), or "" when it did not: the
 * adjoint of a time loop returns normally either way, so callers that must
 * not take untouched shadows for gradients (the Python package) ask. */
const char *stencil_ckpt_last_error(void);

/* What the last schedule finished by stencil_ckpt_finish in this process
 * did: its steps, its slots (snapshots the adjoint allocated), the primal
 * steps its ADVANCE actions ran, its STORE actions, the bytes of the
 * calling thread's workspace after it, and the bytes of one slot (what a
 * STORE copies). For tests and benchmarks; not synchronised between
 * threads. The fields, as a table like STENCIL_ABI_DESCRIPTOR_FIELDS, are
 * also what `stencil-compile --abi-json` describes ("runtime_structs"), so
 * that callers without a C compiler read the struct through ctypes. */
#define STENCIL_CKPT_STATS_FIELDS(X, T, R)                                     \
  X(steps, i64, 1, T, R)                                                       \
  X(slots, i64, 1, T, R)                                                       \
  X(forward_steps, i64, 1, T, R)                                               \
  X(stores, i64, 1, T, R)                                                      \
  X(workspace_bytes, i64, 1, T, R)                                             \
  X(slot_bytes, i64, 1, T, R)
typedef struct stencil_ckpt_stats {
  STENCIL_CKPT_STATS_FIELDS(STENCIL_ABI_MEMBER, void, 0)
} stencil_ckpt_stats;
stencil_ckpt_stats stencil_ckpt_last_stats(void);

#ifdef __cplusplus
} /* extern "C" */
#endif

#endif /* STENCIL_RUNTIME_CHECKPOINT_H */
