/*===- Checkpoint.c - Binomial checkpointing schedules --------------*- C -*-===//
 *
 * This file implements Stencil/Runtime/Checkpoint.h. The schedule reverses
 * an interval [b, e) whose first state is kept in slot k, with the c = S - k
 * slots from k on at its disposal:
 *
 *   e - b == 1:  reverse b;
 *   c == 1:      repeatedly restore b, advance to e - 1, reverse e - 1;
 *   otherwise:   restore b, advance to a split m, keep m in slot k + 1,
 *                reverse [m, e) with c - 1 slots, then [b, m) with c.
 *
 * The split minimises m + F(e - m - b, c - 1) + F(m - b, c), where F(l, c)
 * = r l - C(c + r, r - 1) is the optimal cost of l steps with c slots
 * (Griewank and Walther). F is convex and piecewise linear in l, so the sum
 * is convex in m and its least minimiser is found by bisection on its
 * forward difference. A state is stored only when the interval advances
 * past it, so a last step is reversed without a copy.
 *
 *===----------------------------------------------------------------------===*/

#include "Stencil/Runtime/Checkpoint.h"

#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

typedef __int128 wide;

/* One interval still to reverse. */
typedef struct frame {
  int64_t begin, end;
  int stored; /* The state before `begin` is in slot `depth`. */
} frame;

struct stencil_ckpt_schedule {
  int64_t slots;
  int64_t depth;    /* Index of the top frame (and its slot); -1: done. */
  int64_t position; /* Step the working state is before; -1: unknown. */
  frame *frames;    /* min(slots, steps) + 1 entries. */
  int64_t steps;
  stencil_ckpt_action current; /* The last action stencil_ckpt_step_action
                                  returned. */
  int64_t forwardSteps, stores, slotBytes;
  int stateless; /* Nothing to keep: reverse T - 1 .. 0 on the spot. */
};

/* C(c + r, r) for c, r >= 0, built up as C(n + i, i) for i = 1 .. min(c,
 * r), n = max(c, r), each step exact; with cap > 0, stops at the first
 * value >= cap. Each step at least doubles the value, so a cap below 2^63
 * is passed within 64 steps and the product stays below 2^127. */
static wide binomial(int64_t c, int64_t r, wide cap) {
  int64_t k = c < r ? c : r, n = c < r ? r : c;
  wide value = 1;
  for (int64_t i = 1; i <= k && (cap <= 0 || value < cap); ++i)
    value = value * (n + i) / i;
  return value;
}

/* The least r >= 1 with C(c + r, r) >= l (the repetitions of Revolve),
 * for l >= 2 and c >= 1. */
static int64_t repetitions(int64_t l, int64_t c) {
  /* Few repetitions (the usual case): count them up. */
  wide beta = 1;
  for (int64_t r = 1; r <= 64; ++r) {
    beta = beta * (c + r) / r;
    if (beta >= l)
      return r;
  }
  /* Many (few slots for a huge l): bracket by doubling, then bisect, so
   * that a schedule is predicted in O(log l) even for l near 2^63. The
   * answer is at most l - 1 (C(c + l - 1, l - 1) >= l). */
  int64_t lo = 64, hi = 128;
  while (hi < l - 1 && binomial(c, hi, l) < l) {
    lo = hi;
    hi = hi > (l - 1) / 2 ? l - 1 : 2 * hi;
  }
  while (hi - lo > 1) {
    int64_t mid = lo + (hi - lo) / 2;
    if (binomial(c, mid, l) >= l)
      hi = mid;
    else
      lo = mid;
  }
  return hi;
}

/* F(l, c): forward steps to reverse l steps with c >= 1 slots, the first
 * holding the state before the first step. */
static wide optimalCost(int64_t l, int64_t c) {
  if (l <= 1)
    return 0;
  if (c == 1)
    return (wide)l * (l - 1) / 2;
  /* beta = C(c + r, r), the most steps r repetitions cover. */
  int64_t r = repetitions(l, c);
  wide beta = binomial(c, r, 0);
  /* C(c + r, r - 1) = C(c + r, r) * r / (c + 1). */
  return (wide)r * l - beta * r / (c + 1);
}

/* The least minimiser m in [1, l - 1] of
 * m + F(l - m, c - 1) + F(m, c), for l >= 2 and c >= 2. */
static int64_t split(int64_t l, int64_t c) {
  int64_t lo = 1, hi = l - 1; /* The answer is in [lo, hi]. */
  while (lo < hi) {
    int64_t m = lo + (hi - lo) / 2;
    wide delta = 1 + optimalCost(l - m - 1, c - 1) -
                 optimalCost(l - m, c - 1) + optimalCost(m + 1, c) -
                 optimalCost(m, c);
    if (delta >= 0)
      hi = m;
    else
      lo = m + 1;
  }
  return lo;
}

stencil_ckpt_schedule *stencil_ckpt_init(int64_t steps, int64_t slots) {
  if (steps < 0 || slots < 1)
    return NULL;
  /* One frame per slot, plus the one-step frame the last slot advances to;
   * nested frames start at distinct steps, so never more than steps + 1. */
  int64_t frames = (slots < steps ? slots : steps) + 1;
  stencil_ckpt_schedule *s = malloc(sizeof(*s));
  if (!s)
    return NULL;
  s->frames = malloc((size_t)frames * sizeof(frame));
  if (!s->frames) {
    free(s);
    return NULL;
  }
  s->slots = slots;
  s->steps = steps;
  s->current = (stencil_ckpt_action){STENCIL_CKPT_DONE, 0, 0, 0};
  s->forwardSteps = 0;
  s->stores = 0;
  s->slotBytes = 0;
  s->stateless = 0;
  s->position = 0;
  s->depth = steps > 0 ? 0 : -1;
  s->frames[0] = (frame){0, steps, 0};
  return s;
}

void stencil_ckpt_free(stencil_ckpt_schedule *schedule) {
  if (!schedule)
    return;
  free(schedule->frames);
  free(schedule);
}

static stencil_ckpt_action action(stencil_ckpt_kind kind, int64_t step,
                                  int64_t end, int64_t slot) {
  return (stencil_ckpt_action){kind, step, end, slot};
}

/* Brings the working state to the top frame's first state, storing it
 * first if it is about to be advanced past; returns the action to emit, or
 * DONE when there is none. */
static stencil_ckpt_action prepare(stencil_ckpt_schedule *s, frame *top) {
  if (s->position == top->begin) {
    if (top->stored)
      return action(STENCIL_CKPT_DONE, 0, 0, 0);
    top->stored = 1;
    return action(STENCIL_CKPT_STORE, top->begin, 0, s->depth);
  }
  /* Away from its first state, so it was advanced past it: stored. */
  s->position = top->begin;
  return action(STENCIL_CKPT_RESTORE, top->begin, 0, s->depth);
}

stencil_ckpt_action stencil_ckpt_next(stencil_ckpt_schedule *s) {
  if (!s || s->depth < 0)
    return action(STENCIL_CKPT_DONE, 0, 0, 0);
  frame *top = &s->frames[s->depth];
  if (s->stateless) {
    /* The one frame counts down its end. */
    if (--top->end == top->begin)
      s->depth = -1;
    return action(STENCIL_CKPT_REVERSE, top->end, 0, -1);
  }
  int64_t length = top->end - top->begin;
  if (length == 1) {
    int64_t step = top->begin;
    /* Away from the step, its state is in the frame's slot, which this is
     * the last use of: the adjoint reads it there instead of restoring it
     * (one copy of the state fewer per reversed step), and the working
     * state stays where it is. */
    int64_t from = s->position == step ? -1 : s->depth;
    /* The slot is free again; the parent resumes below its split. */
    --s->depth;
    return action(STENCIL_CKPT_REVERSE, step, 0, from);
  }
  stencil_ckpt_action pending = prepare(s, top);
  if (pending.kind != STENCIL_CKPT_DONE)
    return pending;
  int64_t c = s->slots - s->depth;
  if (c == 1) {
    /* Advance to the last step; the next call reverses it. */
    int64_t last = top->end - 1;
    s->position = last;
    top->end = last;
    /* A frame of one step for the last one. It is reversed from the
     * working state without being stored, so it needs no slot. */
    ++s->depth;
    s->frames[s->depth] = (frame){last, last + 1, 0};
    return action(STENCIL_CKPT_ADVANCE, top->begin, last, 0);
  }
  int64_t m = top->begin + split(length, c);
  int64_t end = top->end;
  s->position = m;
  top->end = m;
  ++s->depth;
  s->frames[s->depth] = (frame){m, end, 0};
  return action(STENCIL_CKPT_ADVANCE, top->begin, m, 0);
}

int64_t stencil_ckpt_forward_steps(int64_t steps, int64_t slots) {
  if (steps < 0 || slots < 1)
    return -1;
  wide cost = optimalCost(steps, slots);
  return cost > INT64_MAX ? -1 : (int64_t)cost;
}

int64_t stencil_ckpt_recomputed_steps(int64_t steps, int64_t slots) {
  if (steps < 0 || slots < 1)
    return -1;
  /* One sweep runs every step but the last. */
  wide extra = optimalCost(steps, slots) - (steps > 0 ? steps - 1 : 0);
  return extra > INT64_MAX ? -1 : (int64_t)extra;
}

int64_t stencil_ckpt_max_recomputed_steps(void) {
  const char *text = getenv(STENCIL_CKPT_MAX_RECOMPUTED_ENV);
  if (!text || !*text)
    return STENCIL_CKPT_MAX_RECOMPUTED_STEPS;
  /* Decimal digits only, at most INT64_MAX. */
  int64_t value = 0;
  for (const char *c = text; *c; ++c) {
    if (*c < '0' || *c > '9' || value > (INT64_MAX - (*c - '0')) / 10)
      return -1;
    value = value * 10 + (*c - '0');
  }
  return value;
}

/* The interface of generated code. */

static stencil_ckpt_stats lastStats;

/* The calling thread's workspace: snapshots of the last adjoint, kept for
 * the next. */
static _Thread_local char *workspace;
static _Thread_local int64_t workspaceBytes;

/* Makes the workspace hold `bytes`; 0 on success. */
static int reserveWorkspace(int64_t bytes) {
  if (bytes <= workspaceBytes)
    return 0;
  if (bytes > INT64_MAX - 63)
    return 1;
  free(workspace);
  workspace = NULL;
  workspaceBytes = 0;
  /* aligned_alloc wants a multiple of the alignment. */
  int64_t rounded = (bytes + 63) / 64 * 64;
  workspace = aligned_alloc(64, (size_t)rounded);
  if (!workspace)
    return 1;
  workspaceBytes = rounded;
  return 0;
}

void stencil_ckpt_release_workspace(void) {
  free(workspace);
  workspace = NULL;
  workspaceBytes = 0;
}

void _mlir_ciface_stencil_ckpt_workspace(stencil_ckpt_bytes *result,
                                         stencil_ckpt_schedule *schedule) {
  (void)schedule;
  result->allocated = workspace;
  result->aligned = workspace;
  result->offset = 0;
  result->sizes[0] = workspaceBytes;
  result->strides[0] = 1;
}

/* Why the calling thread's last stencil_ckpt_start refused, or "". */
static _Thread_local char lastError[512];

/* Records and prints why a schedule cannot run. */
static void refuse(const char *format, ...) {
  va_list args;
  va_start(args, format);
  vsnprintf(lastError, sizeof(lastError), format, args);
  va_end(args);
  fprintf(stderr, "%s\n", lastError);
}

const char *stencil_ckpt_last_error(void) { return lastError; }

/* Refuses (and returns 1) if the schedule of `steps` steps with `slots`
 * slots would recompute more steps than the limit allows, or if the limit
 * is not a number; predicted before anything runs. */
static int refuseRecomputation(int64_t steps, int64_t slots) {
  int64_t limit = stencil_ckpt_max_recomputed_steps();
  if (limit < 0) {
    refuse("stencil: %s must be a decimal integer from 0 to %" PRId64
           " (got \"%.64s\"); nothing was computed",
           STENCIL_CKPT_MAX_RECOMPUTED_ENV, INT64_MAX,
           getenv(STENCIL_CKPT_MAX_RECOMPUTED_ENV));
    return 1;
  }
  int64_t extra = stencil_ckpt_recomputed_steps(steps, slots);
  if (extra >= 0 && extra <= limit)
    return 0;
  char count[32];
  if (extra < 0)
    snprintf(count, sizeof(count), "more than %" PRId64, INT64_MAX);
  else
    snprintf(count, sizeof(count), "%" PRId64, extra);
  refuse("stencil: the adjoint of a time loop of %" PRId64 " steps with %"
         PRId64 " snapshots would recompute %s primal steps, more than the "
         "limit of %" PRId64 "; give it more snapshots, or set %s to a "
         "higher limit; nothing was computed",
         steps, slots, count, limit, STENCIL_CKPT_MAX_RECOMPUTED_ENV);
  return 1;
}

stencil_ckpt_schedule *stencil_ckpt_start(int64_t steps, int64_t snapshots,
                                          int64_t bytesPerSlot) {
  return stencil_ckpt_start_with(steps, snapshots, bytesPerSlot,
                                 reserveWorkspace);
}

stencil_ckpt_schedule *stencil_ckpt_start_with(int64_t steps,
                                               int64_t snapshots,
                                               int64_t bytesPerSlot,
                                               int (*reserve)(int64_t)) {
  lastError[0] = 0;
  if (snapshots < 1) {
    refuse("stencil: the adjoint of a time loop needs at least 1 snapshot "
           "(got %" PRId64 "); nothing was computed",
           snapshots);
    return NULL;
  }
  if (steps < 0)
    steps = 0;
  /* More slots than steps are never used. */
  int64_t slots = snapshots < steps ? snapshots : steps;
  if (slots < 1)
    slots = 1;
  /* A state of no bytes: the adjoint reads nothing of it, so nothing is
   * kept or recomputed. */
  int stateless = bytesPerSlot == 0;
  if (!stateless && refuseRecomputation(steps, slots))
    return NULL;
  if (!stateless &&
      (bytesPerSlot < 0 || slots > INT64_MAX / bytesPerSlot ||
       reserve(slots * bytesPerSlot))) {
    refuse("stencil: out of memory for %" PRId64 " snapshots of %" PRId64
           " bytes for the adjoint of a time loop; nothing was computed",
           slots, bytesPerSlot);
    return NULL;
  }
  stencil_ckpt_schedule *s = stencil_ckpt_init(steps, slots);
  if (!s) {
    refuse("stencil: out of memory for the checkpointing schedule of a time "
           "loop; nothing was computed");
    return NULL;
  }
  if (stateless) {
    s->stateless = 1;
    s->slots = 0;
  }
  s->slotBytes = bytesPerSlot;
  return s;
}

int64_t stencil_ckpt_step_action(stencil_ckpt_schedule *s) {
  stencil_ckpt_action a = stencil_ckpt_next(s);
  if (a.kind == STENCIL_CKPT_ADVANCE)
    s->forwardSteps += a.end - a.step;
  if (a.kind == STENCIL_CKPT_STORE)
    ++s->stores;
  s->current = a;
  return a.kind;
}

int64_t stencil_ckpt_slots(const stencil_ckpt_schedule *s) {
  return s->slots;
}

int64_t stencil_ckpt_action_step(const stencil_ckpt_schedule *s) {
  return s->current.step;
}

int64_t stencil_ckpt_action_end(const stencil_ckpt_schedule *s) {
  return s->current.end;
}

int64_t stencil_ckpt_action_slot(const stencil_ckpt_schedule *s) {
  return s->current.slot;
}

void stencil_ckpt_finish(stencil_ckpt_schedule *s) {
  if (!s)
    return;
  lastStats = (stencil_ckpt_stats){s->steps,      s->slots,
                                   s->forwardSteps, s->stores,
                                   workspaceBytes, s->slotBytes};
  stencil_ckpt_free(s);
}

stencil_ckpt_stats stencil_ckpt_last_stats(void) { return lastStats; }
