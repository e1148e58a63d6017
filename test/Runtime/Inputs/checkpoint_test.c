/*===- checkpoint_test.c - Checks of the checkpointing schedule -----*- C -*-===//
 *
 * Runs stencil_ckpt schedules (Stencil/Runtime/Checkpoint.h) on a simulated
 * working state and checks, for every number of steps T and slots S in a
 * range and for a few large cases:
 *   - every action is legal: STORE keeps the working state's step in a
 *     slot at most one above the slots in use, RESTORE reads a slot that
 *     holds the step it names, ADVANCE starts at the working state's step
 *     and stays in [0, T), REVERSE runs on the state before its step
 *     (the working state, or a slot that holds it and is then dead), never
 *     right after a RESTORE (it reads the slot instead), and store-all
 *     restores nothing;
 *   - the last step is reversed first, from the working state (the
 *     schedule advances to it), never from a slot;
 *   - every step is reversed exactly once, from T - 1 down to 0;
 *   - no more than S slots are used;
 *   - the forward steps equal stencil_ckpt_forward_steps(T, S), which equals
 *     the optimum of the recurrence F(l, c) = min over m of
 *     m + F(l - m, c - 1) + F(m, c), F(1, c) = 0, F(l, 1) = l (l - 1) / 2,
 *     computed here by brute force (the reference, independent of the
 *     closed form and of the schedule);
 *   - store-all (S >= T) costs T - 1, S = 1 costs T (T - 1) / 2;
 *   - every schedule copies T - 1 states: its stores and restores add up
 *     to T - 1 (docs/TimeLoops.md, section 4, counts on it);
 *   - bad arguments give NULL;
 *   - the interface of generated code (stencil_ckpt_start, _step_action,
 *     the accessors, _finish, _last_stats) replays the same actions, uses
 *     min(snapshots, T) slots, counts the optimal forward steps, and
 *     refuses a snapshot count below 1;
 *   - a state of 0 bytes gets the schedule that reverses T - 1 .. 0 and
 *     keeps nothing;
 *   - the cost of huge schedules (T up to 2^62, few slots) is predicted at
 *     once and equals the closed form for S = 2 and 3 (C(r + 2, 3) and
 *     C(r + 3, 4) subtracted), its r found here by counting up, or is
 *     reported as above INT64_MAX;
 *   - a schedule that would recompute more steps than the limit
 *     (STENCIL_CKPT_MAX_RECOMPUTED_STEPS, or the environment variable) is
 *     refused with a message, and a limit that is not a number too.
 * Prints one line per failure and "<n> passed, <m> failed".
 *
 *===----------------------------------------------------------------------===*/

#include "Stencil/Runtime/Checkpoint.h"

#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <stdlib.h>

enum { kMaxSteps = 64, kMaxSlots = 12 };

static int passed, failed;

static void check(int ok, const char *what, long long t, long long s) {
  if (ok) {
    ++passed;
    return;
  }
  ++failed;
  printf("FAIL: %s (T = %lld, S = %lld)\n", what, t, s);
}

/* F(l, c) by brute force over the first split. */
static long long reference[kMaxSteps + 1][kMaxSlots + 1];
static void computeReference(void) {
  for (int c = 1; c <= kMaxSlots; ++c)
    for (int l = 0; l <= kMaxSteps; ++l) {
      if (l <= 1) {
        reference[l][c] = 0;
        continue;
      }
      if (c == 1) {
        reference[l][c] = (long long)l * (l - 1) / 2;
        continue;
      }
      long long best = -1;
      for (int m = 1; m < l; ++m) {
        long long cost = m + reference[l - m][c - 1] + reference[m][c];
        if (best < 0 || cost < best)
          best = cost;
      }
      reference[l][c] = best;
    }
}

/* Runs the schedule for (steps, slots); returns its forward steps, or -1
 * after reporting the first illegal action. */
static long long simulate(long long steps, long long slots) {
  stencil_ckpt_schedule *s = stencil_ckpt_init(steps, slots);
  if (!s) {
    check(0, "init returned NULL", steps, slots);
    return -1;
  }
  long long *slot = malloc((size_t)(slots + 1) * sizeof(long long));
  long long used = 0, position = 0, next = steps - 1, forward = 0;
  long long result = -1, stores = 0, restores = 0, reversedFromSlots = 0;
  int restored = 0; /* The last action was a RESTORE. */
  const char *error = NULL;
  for (long long n = 0;; ++n) {
    stencil_ckpt_action a = stencil_ckpt_next(s);
    if (a.kind == STENCIL_CKPT_DONE) {
      if (next != -1)
        error = "DONE before every step was reversed";
      else
        result = forward;
      break;
    }
    if (n > 64 * (steps + 1) * (steps + 1) + 1000) {
      error = "too many actions";
      break;
    }
    switch (a.kind) {
    case STENCIL_CKPT_STORE:
      if (a.slot < 0 || a.slot >= slots || a.slot > used)
        error = "STORE to a slot out of the stack";
      else if (a.step != position)
        error = "STORE of a step that is not the working state's";
      else {
        slot[a.slot] = position;
        used = a.slot + 1;
        ++stores;
      }
      break;
    case STENCIL_CKPT_RESTORE:
      if (a.slot < 0 || a.slot >= used || slot[a.slot] != a.step)
        error = "RESTORE of a slot that does not hold that step";
      else {
        position = a.step;
        used = a.slot + 1; /* Slots above are dead from now on. */
        ++restores;
      }
      break;
    case STENCIL_CKPT_ADVANCE:
      if (a.step != position || a.end <= a.step || a.end >= steps)
        error = "ADVANCE from elsewhere, or beyond the last step";
      else {
        forward += a.end - a.step;
        position = a.end;
      }
      break;
    case STENCIL_CKPT_REVERSE:
      if (a.step != next)
        error = "REVERSE out of order";
      else if (restored)
        error = "RESTORE right before REVERSE (the slot could be read)";
      else if (a.step == steps - 1 && a.slot != -1)
        /* The tail of a time loop (docs/TimeLoops.md) relies on it. */
        error = "the last step reversed from a slot, not the working state";
      else if (a.slot == -1 ? position != a.step
                            : a.slot < 0 || a.slot >= used ||
                                  slot[a.slot] != a.step)
        error = "REVERSE without its state";
      else {
        --next;
        reversedFromSlots += a.slot >= 0;
        if (a.slot >= 0)
          used = a.slot; /* Its last use: the adjoint may clobber it. */
      }
      break;
    default:
      error = "unknown action";
    }
    restored = a.kind == STENCIL_CKPT_RESTORE;
    if (error)
      break;
  }
  /* Store-all restores nothing: each step but the last is reversed from
   * its own slot. */
  if (!error && slots >= steps && steps > 0 &&
      (restores != 0 || reversedFromSlots != steps - 1))
    error = "store-all restores, or reverses from the working state";
  if (!error && steps > 0 && stores + restores != steps - 1)
    error = "stores and restores do not add up to T - 1";
  if (error)
    check(0, error, steps, slots);
  free(slot);
  stencil_ckpt_free(s);
  return result;
}

/* Runs the interface of generated code for (steps, snapshots) alongside
 * stencil_ckpt_next on a second schedule, and checks the statistics. */
static void checkFlatInterface(long long steps, long long snapshots) {
  stencil_ckpt_schedule *flat = stencil_ckpt_start(steps, snapshots, 8);
  long long slots = snapshots < steps ? snapshots : steps;
  if (slots < 1)
    slots = 1;
  stencil_ckpt_schedule *plain = stencil_ckpt_init(steps, slots);
  if (!flat || !plain) {
    check(0, "start or init returned NULL", steps, snapshots);
    stencil_ckpt_free(plain);
    stencil_ckpt_finish(flat);
    return;
  }
  check(stencil_ckpt_slots(flat) == slots, "slots not min(snapshots, T)",
        steps, snapshots);
  long long forward = 0, stores = 0;
  for (;;) {
    int64_t kind = stencil_ckpt_step_action(flat);
    stencil_ckpt_action a = stencil_ckpt_next(plain);
    if (kind != (int64_t)a.kind ||
        (kind != STENCIL_CKPT_DONE &&
         (stencil_ckpt_action_step(flat) != a.step ||
          (kind == STENCIL_CKPT_ADVANCE && stencil_ckpt_action_end(flat) != a.end) ||
          ((kind == STENCIL_CKPT_STORE || kind == STENCIL_CKPT_RESTORE ||
            kind == STENCIL_CKPT_REVERSE) &&
           stencil_ckpt_action_slot(flat) != a.slot)))) {
      check(0, "flat interface differs from stencil_ckpt_next", steps,
            snapshots);
      break;
    }
    if (kind == STENCIL_CKPT_DONE)
      break;
    forward += kind == STENCIL_CKPT_ADVANCE ? a.end - a.step : 0;
    stores += kind == STENCIL_CKPT_STORE;
  }
  stencil_ckpt_free(plain);
  stencil_ckpt_finish(flat);
  stencil_ckpt_stats stats = stencil_ckpt_last_stats();
  check(stats.steps == steps && stats.slots == slots &&
            stats.forward_steps == forward && stats.stores == stores,
        "statistics differ from the actions", steps, snapshots);
  check(stats.workspace_bytes >= 8 * slots && stats.slot_bytes == 8,
        "workspace smaller than the slots, or slot bytes not as asked", steps,
        snapshots);
  check(forward == stencil_ckpt_forward_steps(steps, slots),
        "flat interface not optimal", steps, snapshots);
}

/* A state of no bytes (the adjoint reads none of it): T - 1 .. 0 reversed
 * on the working state, nothing stored, no slot, no forward step. */
static void checkStateless(long long steps, long long snapshots) {
  stencil_ckpt_schedule *s = stencil_ckpt_start(steps, snapshots, 0);
  if (!s) {
    check(0, "stateless start returned NULL", steps, snapshots);
    return;
  }
  long long next = steps - 1;
  int ok = stencil_ckpt_slots(s) == 0;
  for (long long n = 0; ok; ++n) {
    int64_t kind = stencil_ckpt_step_action(s);
    if (kind == STENCIL_CKPT_DONE) {
      ok = next == -1;
      break;
    }
    ok = n <= steps && kind == STENCIL_CKPT_REVERSE &&
         stencil_ckpt_action_step(s) == next &&
         stencil_ckpt_action_slot(s) == -1;
    --next;
  }
  stencil_ckpt_finish(s);
  stencil_ckpt_stats stats = stencil_ckpt_last_stats();
  check(ok && stats.steps == steps && stats.slots == 0 &&
            stats.forward_steps == 0 && stats.stores == 0,
        "stateless schedule is not T - 1 .. 0 without stores", steps,
        snapshots);
}

/* F(l, c) for c = 2 or 3 from its closed form, r counted up one by one. */
static long long closedForm(long long l, int c) {
  __int128 r = 0, beta = 1;
  while (beta < l) {
    ++r;
    beta = c == 2 ? (r + 1) * (r + 2) / 2 : (r + 1) * (r + 2) * (r + 3) / 6;
  }
  __int128 covered = c == 2 ? (r + 2) * (r + 1) * r / 6
                            : (r + 3) * (r + 2) * (r + 1) * r / 24;
  return (long long)(r * l - covered);
}

/* The limit on recomputation, from the header and the environment. */
static void checkRecomputationLimit(void) {
  const long long huge = 1LL << 62;
  check(stencil_ckpt_recomputed_steps(1000, 1) == 499500 - 999,
        "recomputed steps of S = 1", 1000, 1);
  check(stencil_ckpt_recomputed_steps(1000, 1000) == 0,
        "store-all recomputes", 1000, 1000);
  check(stencil_ckpt_recomputed_steps(huge, 1) == -1,
        "overflowing recomputation not reported", huge, 1);
  check(stencil_ckpt_forward_steps(1000000000000LL, 2) ==
            closedForm(1000000000000LL, 2),
        "forward steps of S = 2 differ from the closed form", 1000000000000LL,
        2);
  check(stencil_ckpt_forward_steps(1000000000000LL, 3) ==
            closedForm(1000000000000LL, 3),
        "forward steps of S = 3 differ from the closed form", 1000000000000LL,
        3);
  check(stencil_ckpt_forward_steps(1LL << 40, 2) == closedForm(1LL << 40, 2),
        "forward steps of S = 2 differ from the closed form", 1LL << 40, 2);
  check(stencil_ckpt_forward_steps(huge, 2) == -1,
        "overflow of S = 2 at 2^62 steps not reported", huge, 2);
  unsetenv(STENCIL_CKPT_MAX_RECOMPUTED_ENV);
  check(stencil_ckpt_max_recomputed_steps() ==
            STENCIL_CKPT_MAX_RECOMPUTED_STEPS,
        "default limit", 0, 0);
  check(stencil_ckpt_start(huge, 1, 8) == NULL, "S = 1, T = 2^62 accepted",
        huge, 1);
  check(strstr(stencil_ckpt_last_error(),
               "would recompute more than 9223372036854775807 primal "
               "steps") != NULL,
        "recomputation refusal not recorded", huge, 1);
  check(stencil_ckpt_start(1LL << 40, 2, 8) == NULL,
        "S = 2, T = 2^40 accepted", 1LL << 40, 2);
  /* Below the default limit a schedule with S = 1 runs. */
  stencil_ckpt_schedule *one = stencil_ckpt_start(1000, 1, 8);
  check(one != NULL, "S = 1, T = 1000 refused", 1000, 1);
  stencil_ckpt_finish(one);
  /* Exactly at a limit set in the environment it runs; above, not. */
  setenv(STENCIL_CKPT_MAX_RECOMPUTED_ENV, "498501", 1);
  one = stencil_ckpt_start(1000, 1, 8);
  check(one != NULL, "S = 1 refused at the limit", 1000, 1);
  stencil_ckpt_finish(one);
  setenv(STENCIL_CKPT_MAX_RECOMPUTED_ENV, "498500", 1);
  check(stencil_ckpt_start(1000, 1, 8) == NULL, "S = 1 above the limit",
        1000, 1);
  /* Store-all and stateless loops recompute nothing. */
  setenv(STENCIL_CKPT_MAX_RECOMPUTED_ENV, "0", 1);
  one = stencil_ckpt_start(1000, 1000, 8);
  check(one != NULL, "store-all refused by a limit of 0", 1000, 1000);
  stencil_ckpt_finish(one);
  one = stencil_ckpt_start(1000, 1, 0);
  check(one != NULL, "stateless loop refused by a limit of 0", 1000, 1);
  stencil_ckpt_finish(one);
  setenv(STENCIL_CKPT_MAX_RECOMPUTED_ENV, "lots", 1);
  check(stencil_ckpt_max_recomputed_steps() == -1 &&
            stencil_ckpt_start(10, 2, 8) == NULL,
        "a limit that is not a number accepted", 10, 2);
  setenv(STENCIL_CKPT_MAX_RECOMPUTED_ENV, "9223372036854775808", 1);
  check(stencil_ckpt_max_recomputed_steps() == -1,
        "a limit above INT64_MAX accepted", 0, 0);
  setenv(STENCIL_CKPT_MAX_RECOMPUTED_ENV, "9223372036854775807", 1);
  check(stencil_ckpt_max_recomputed_steps() == INT64_MAX,
        "the largest limit refused", 0, 0);
  unsetenv(STENCIL_CKPT_MAX_RECOMPUTED_ENV);
}

int main(void) {
  computeReference();
  for (long long t = 0; t <= kMaxSteps; ++t)
    for (long long c = 1; c <= kMaxSlots; ++c) {
      long long forward = simulate(t, c);
      if (forward < 0)
        continue;
      check(forward == stencil_ckpt_forward_steps(t, c),
            "forward steps differ from stencil_ckpt_forward_steps", t, c);
      check(forward == reference[t][c],
            "forward steps differ from the brute-force optimum", t, c);
    }
  /* Large cases: the closed form's special values, and a legal, optimal
   * schedule at sizes a time loop has. */
  static const long long large[][2] = {
      {1000, 1}, {1000, 1000}, {1000, 5000}, {100000, 10},
      {100000, 50}, {3000, 2}, {65536, 16}};
  for (size_t i = 0; i < sizeof(large) / sizeof(large[0]); ++i) {
    long long t = large[i][0], c = large[i][1];
    long long forward = simulate(t, c);
    check(forward >= 0 && forward == stencil_ckpt_forward_steps(t, c),
          "large schedule not optimal", t, c);
  }
  check(stencil_ckpt_forward_steps(1000, 1) == 1000LL * 999 / 2,
        "S = 1 does not cost T (T - 1) / 2", 1000, 1);
  check(stencil_ckpt_forward_steps(1000, 1000) == 999,
        "store-all does not cost T - 1", 1000, 1000);
  check(stencil_ckpt_forward_steps(5000000000LL, 1) == -1,
        "overflow not reported", 5000000000LL, 1);
  check(stencil_ckpt_init(-1, 4) == NULL, "negative steps accepted", -1, 4);
  check(stencil_ckpt_init(10, 0) == NULL, "zero slots accepted", 10, 0);
  for (long long t = 0; t <= 40; ++t)
    for (long long c = 1; c <= t + 3; ++c)
      checkFlatInterface(t, c);
  for (long long t = 0; t <= 20; ++t)
    for (long long c = 1; c <= t + 2; c += 3)
      checkStateless(t, c);
  check(stencil_ckpt_start(10, 0, 0) == NULL,
        "zero snapshots accepted for a stateless loop", 10, 0);
  stencil_ckpt_bytes ws;
  stencil_ckpt_release_workspace();
  _mlir_ciface_stencil_ckpt_workspace(&ws, NULL);
  check(ws.aligned == NULL && ws.sizes[0] == 0, "workspace not released", 0,
        0);
  check(stencil_ckpt_start(10, 0, 8) == NULL, "zero snapshots accepted", 10, 0);
  check(stencil_ckpt_start(10, -3, 8) == NULL, "negative snapshots accepted", 10,
        -3);
  check(stencil_ckpt_start(10, 5, INT64_MAX / 2) == NULL,
        "overflowing workspace accepted", 10, 5);
  /* The refusal is also kept for callers that cannot read stderr, until
   * the next schedule starts. */
  check(strstr(stencil_ckpt_last_error(),
               "stencil: out of memory for 5 snapshots") != NULL,
        "refusal not recorded", 10, 5);
  stencil_ckpt_schedule *fine = stencil_ckpt_start(10, 5, 8);
  check(fine != NULL && stencil_ckpt_last_error()[0] == 0,
        "refusal not cleared by a schedule that runs", 10, 5);
  stencil_ckpt_finish(fine);
  checkRecomputationLimit();
  stencil_ckpt_action done = stencil_ckpt_next(NULL);
  check(done.kind == STENCIL_CKPT_DONE, "NULL schedule not DONE", 0, 0);
  printf("%d passed, %d failed\n", passed, failed);
  return failed != 0;
}
