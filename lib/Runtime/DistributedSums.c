/*===- DistributedSums.c - Sums of distributed domains in one order -------===//
 *
 * See Stencil/Runtime/Distributed.h, "Sums". One process sums a domain
 * slice by slice along its summation dimension: each slice serially, in
 * row-major order from zero, then the slices' partial sums in order from
 * zero (docs/Dialect.md, "Reductions"). The functions here reproduce that
 * order across ranks, so every rank gets the bits of one process:
 *
 *   - stencil_dist_sum_f64/f32: each rank holds whole slices (the grid
 *     splits only the summation dimension) and passes their partial sums;
 *   - stencil_dist_sum_terms_f64/f32: each rank holds a box of the domain
 *     and passes its terms. Every slice gets an owner among the ranks that
 *     hold part of it; the owner receives the slice's terms, folds them in
 *     global row-major order, and the owners' partial sums are added in
 *     slice order;
 *   - stencil_dist_reduce_terms_f64/f32: the same for a reduction through
 *     some of the dimensions (`vb[k] += t`): the owner of a slice folds its
 *     terms into one partial sum per coordinate of the kept dimensions,
 *     each from the value the caller gives, and every rank gets every
 *     slice's partial sums.
 *
 *===----------------------------------------------------------------------===*/

#include "DistributedInternal.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/*===----------------------- Element types -------------------------------===*/

/* The element type of a sum: its MPI type, its size, and the serial fold
 * from zero of `count` values (the order of one process). */
typedef struct {
  MPI_Datatype mpi;
  size_t size;
  void (*fold)(const void *values, int64_t count, void *sum);
  /* sums[at[i]] += values[i] for i = 0 .. count, in order. */
  void (*accumulate)(const void *values, int64_t count, const int64_t *at,
                     void *sums);
} sumType;

static void foldF64(const void *values, int64_t count, void *sum) {
  const double *v = values;
  double s = 0.0;
  for (int64_t i = 0; i < count; ++i)
    s += v[i];
  *(double *)sum = s;
}

static void foldF32(const void *values, int64_t count, void *sum) {
  const float *v = values;
  float s = 0.0f;
  for (int64_t i = 0; i < count; ++i)
    s += v[i];
  *(float *)sum = s;
}

static void accumulateF64(const void *values, int64_t count, const int64_t *at,
                          void *sums) {
  const double *v = values;
  double *s = sums;
  for (int64_t i = 0; i < count; ++i)
    s[at[i]] += v[i];
}

static void accumulateF32(const void *values, int64_t count, const int64_t *at,
                          void *sums) {
  const float *v = values;
  float *s = sums;
  for (int64_t i = 0; i < count; ++i)
    s[at[i]] += v[i];
}

static const sumType f64Type = {MPI_DOUBLE, sizeof(double), foldF64,
                                accumulateF64};
static const sumType f32Type = {MPI_FLOAT, sizeof(float), foldF32,
                                accumulateF32};

static void *allocate(size_t count, size_t size) {
  void *memory = malloc(size * (count > 0 ? count : 1));
  if (!memory) {
    fprintf(stderr,
            "stencil: rank %d: out of memory summing a distributed "
            "domain (%zu values)\n",
            stencil_dist_rank(), count);
    stencil_dist_fail();
  }
  return memory;
}

/* An MPI count: fails past INT_MAX values. */
static int mpiCount(int64_t count) {
  if (count > INT_MAX) {
    fprintf(stderr,
            "stencil: rank %d: a distributed sum moves %lld values "
            "in one message, more than MPI's int counts hold\n",
            stencil_dist_rank(), (long long)count);
    stencil_dist_fail();
  }
  return (int)count;
}

/*===----------------------- Whole slices --------------------------------===*/

/* Gathers every rank's `count` values in rank order; returns them
 * (malloc'd) and their number. */
static void *gatherAll(const void *values, int64_t count, const sumType *type,
                       int64_t *total) {
  MPI_Comm comm = stencil_dist_comm();
  int ranks = 0;
  MPI_Comm_size(comm, &ranks);
  int mine = mpiCount(count);
  int *counts = allocate((size_t)ranks, sizeof(int));
  int *offsets = allocate((size_t)ranks, sizeof(int));
  MPI_Allgather(&mine, 1, MPI_INT, counts, 1, MPI_INT, comm);
  *total = 0;
  for (int r = 0; r < ranks; ++r) {
    offsets[r] = mpiCount(*total);
    *total += counts[r];
  }
  void *all = allocate((size_t)*total, type->size);
  MPI_Allgatherv(values, mine, type->mpi, all, counts, offsets, type->mpi,
                 comm);
  free(counts);
  free(offsets);
  return all;
}

static void sumSlices(const void *partials, int64_t count, const sumType *type,
                      void *sum) {
  int64_t total = 0;
  void *all = gatherAll(partials, count, type, &total);
  type->fold(all, total, sum);
  free(all);
}

double stencil_dist_sum_f64(const double *partials, int64_t count) {
  double sum;
  sumSlices(partials, count, &f64Type, &sum);
  return sum;
}

float stencil_dist_sum_f32(const float *partials, int64_t count) {
  float sum;
  sumSlices(partials, count, &f32Type, &sum);
  return sum;
}

/*===----------------------- Boxes of terms ------------------------------===*/

/* Every rank's box of the domain, and who owns which slice. A rank takes
 * part if its box has a point; the ranks that hold the same range of
 * slices form a group (the block decomposition gives ranges that are equal
 * or disjoint), and slice s of a group belongs to its member of index
 * s mod size, so that the folding is shared. */
typedef struct {
  int ranks, me, rank, dim;
  int64_t *boxes;   /* per rank: lower[rank], extent[rank] */
  int64_t *volumes; /* per rank: terms per slice (0: takes no part) */
  int *group;       /* per rank: the lowest rank of its group, or -1 */
  int *index;       /* per rank: its index in the group */
  int *size;        /* per rank: its group's size */
  int *members;     /* the groups' members, in slice order, then rank */
  int *start;       /* per rank: where its group's members start */
  int taking;       /* how many ranks take part (members' length) */
} termsLayout;

static const int64_t *lowerOf(const termsLayout *l, int r) {
  return l->boxes + (size_t)r * 2 * (size_t)l->rank;
}
static const int64_t *extentOf(const termsLayout *l, int r) {
  return lowerOf(l, r) + l->rank;
}
static int64_t firstSlice(const termsLayout *l, int r) {
  return lowerOf(l, r)[l->dim];
}
static int64_t sliceCount(const termsLayout *l, int r) {
  return extentOf(l, r)[l->dim];
}

static int64_t modulo(int64_t a, int64_t b) { return (a % b + b) % b; }

/* The slices of rank r's range that rank `owner` (of the same group)
 * owns: those s with s mod size = the owner's index. */
static int64_t ownedSlices(const termsLayout *l, int r, int owner) {
  int64_t n = sliceCount(l, r), size = l->size[r];
  int64_t first = modulo(l->index[owner] - firstSlice(l, r), size);
  return first < n ? (n - first + size - 1) / size : 0;
}
/* The owner of slice `slice` of rank r's group. */
static int ownerOf(const termsLayout *l, int r, int64_t slice) {
  return l->members[l->start[r] + modulo(slice, l->size[r])];
}

static void layoutFail(const termsLayout *l, const char *what) {
  fprintf(stderr,
          "stencil: rank %d: the boxes of a distributed sum %s "
          "(an internal error of the distribution)\n",
          l->me, what);
  stencil_dist_fail();
}

/* A rank that takes part, by its range of slices. */
typedef struct {
  int64_t first, count;
  int rank;
} sliceRange;

static int compareRanges(const void *a, const void *b) {
  const sliceRange *x = a, *y = b;
  if (x->first != y->first)
    return x->first < y->first ? -1 : 1;
  if (x->count != y->count)
    return x->count < y->count ? -1 : 1;
  return (x->rank > y->rank) - (x->rank < y->rank);
}

/* Groups the ranks that take part by their range of slices: sorted by
 * range, then rank, the members of each group are consecutive (in rank
 * order) and the groups come in slice order. */
static void groupRanks(termsLayout *l) {
  sliceRange *ranges = allocate((size_t)l->ranks, sizeof(sliceRange));
  int taking = 0;
  for (int r = 0; r < l->ranks; ++r) {
    l->group[r] = -1;
    l->index[r] = l->size[r] = l->start[r] = 0;
    if (l->volumes[r])
      ranges[taking++] = (sliceRange){firstSlice(l, r), sliceCount(l, r), r};
  }
  qsort(ranges, (size_t)taking, sizeof(sliceRange), compareRanges);
  for (int i = 0, leader = -1; i < taking; ++i) {
    int r = ranges[i].rank;
    l->members[i] = r;
    int same = leader >= 0 && firstSlice(l, leader) == ranges[i].first &&
               sliceCount(l, leader) == ranges[i].count;
    if (!same) {
      if (leader >= 0 &&
          firstSlice(l, leader) + sliceCount(l, leader) > ranges[i].first)
        layoutFail(l, "share some slices but not all");
      leader = r;
      l->start[r] = i;
    }
    l->group[r] = leader;
    l->index[r] = l->size[leader]++;
  }
  for (int r = 0; r < l->ranks; ++r)
    if (l->group[r] >= 0) {
      l->size[r] = l->size[l->group[r]];
      l->start[r] = l->start[l->group[r]];
    }
  l->taking = taking;
  free(ranges);
}

static void makeLayout(termsLayout *l, int64_t rank, int64_t dim,
                       const int64_t *box) {
  MPI_Comm comm = stencil_dist_comm();
  MPI_Comm_size(comm, &l->ranks);
  MPI_Comm_rank(comm, &l->me);
  l->rank = (int)rank;
  l->dim = (int)dim;
  if (rank < 1 || rank > STENCIL_DIST_MAX_DIMS || dim < 0 || dim >= rank)
    layoutFail(l, "have no valid rank or summation dimension");
  size_t n = (size_t)l->ranks;
  int64_t mine[2 * STENCIL_DIST_MAX_DIMS];
  for (int k = 0; k < l->rank; ++k) {
    mine[k] = box[k];
    mine[l->rank + k] = box[l->rank + k] > 0 ? box[l->rank + k] : 0;
  }
  l->boxes = allocate(n * 2 * (size_t)rank, sizeof(int64_t));
  MPI_Allgather(mine, 2 * l->rank, MPI_INT64_T, l->boxes, 2 * l->rank,
                MPI_INT64_T, comm);
  l->volumes = allocate(n, sizeof(int64_t));
  l->group = allocate(n, sizeof(int));
  l->index = allocate(n, sizeof(int));
  l->size = allocate(n, sizeof(int));
  l->members = allocate(n, sizeof(int));
  l->start = allocate(n, sizeof(int));
  for (int r = 0; r < l->ranks; ++r) {
    const int64_t *extent = extentOf(l, r);
    int64_t volume = extent[l->dim] > 0 ? 1 : 0;
    for (int k = 0; k < l->rank; ++k) {
      if (k < l->dim && extent[k] > 1)
        layoutFail(l, "have more than one point before the summation "
                      "dimension");
      if (k != l->dim)
        volume *= extent[k];
    }
    l->volumes[r] = volume;
  }
  groupRanks(l);
}

static void freeLayout(termsLayout *l) {
  free(l->boxes);
  free(l->volumes);
  free(l->group);
  free(l->index);
  free(l->size);
  free(l->members);
  free(l->start);
}

/* Sends each of this rank's slices to its owner and receives the slices it
 * owns; returns the received terms (malloc'd), per source rank in rank
 * order, each source's slices in order. */
static void *exchangeTerms(const termsLayout *l, const void *terms,
                           const sumType *type, int *recvCounts,
                           int *recvOffsets) {
  size_t n = (size_t)l->ranks, size = type->size;
  int *sendCounts = allocate(n, sizeof(int));
  int *sendOffsets = allocate(n, sizeof(int));
  int64_t sent = 0, received = 0;
  for (int r = 0; r < l->ranks; ++r) {
    int together =
        l->volumes[r] && l->volumes[l->me] && l->group[r] == l->group[l->me];
    int64_t out = together ? ownedSlices(l, l->me, r) * l->volumes[l->me] : 0;
    int64_t in = together ? ownedSlices(l, r, l->me) * l->volumes[r] : 0;
    sendOffsets[r] = mpiCount(sent);
    sendCounts[r] = mpiCount(out);
    recvOffsets[r] = mpiCount(received);
    recvCounts[r] = mpiCount(in);
    sent += out;
    received += in;
  }
  /* The send buffer, by destination: each owner's slices in order. */
  char *packed = allocate((size_t)sent, size);
  int64_t volume = l->volumes[l->me], slices = sliceCount(l, l->me);
  int64_t first = firstSlice(l, l->me);
  for (int64_t s = 0; volume && s < slices; ++s) {
    int owner = ownerOf(l, l->me, first + s);
    memcpy(packed + (size_t)sendOffsets[owner] * size,
           (const char *)terms + (size_t)(s * volume) * size,
           (size_t)volume * size);
    sendOffsets[owner] += (int)volume;
  }
  for (int r = 0; r < l->ranks; ++r)
    sendOffsets[r] -= sendCounts[r];
  void *mine = allocate((size_t)received, size);
  MPI_Alltoallv(packed, sendCounts, sendOffsets, type->mpi, mine, recvCounts,
                recvOffsets, type->mpi, stencil_dist_comm());
  free(packed);
  free(sendCounts);
  free(sendOffsets);
  return mine;
}

/* Copies one slice of a box's terms, `source` (row-major over `extent` of
 * the dimensions after the summation dimension), into the slice buffer
 * `slice` (row-major over `whole`, starting at `origin`), where the box
 * starts at `lower`. */
static void placeBox(const termsLayout *l, const char *source,
                     const int64_t *lower, const int64_t *extent,
                     const int64_t *origin, const int64_t *whole, char *slice,
                     size_t size) {
  int first = l->dim + 1, last = l->rank - 1;
  int64_t index[STENCIL_DIST_MAX_DIMS] = {0};
  int64_t row = first <= last ? extent[last] : 1;
  int64_t rows = 1;
  for (int k = first; k < last; ++k)
    rows *= extent[k];
  for (int64_t r = 0; r < rows; ++r) {
    int64_t at = 0;
    for (int k = first; k <= last; ++k)
      at = at * whole[k] + (lower[k] - origin[k] + (k < last ? index[k] : 0));
    memcpy(slice + (size_t)at * size, source + (size_t)(r * row) * size,
           (size_t)row * size);
    for (int k = last - 1; k >= first && ++index[k] == extent[k]; --k)
      index[k] = 0;
  }
}

/* The box of a group's slices: the bounding box of its members' boxes
 * after the summation dimension, and its volume (which their volumes must
 * fill). */
static int64_t groupBox(const termsLayout *l, int64_t *origin, int64_t *whole) {
  int64_t filled = 0, volume = 1;
  for (int k = l->dim + 1; k < l->rank; ++k) {
    int64_t lo = INT64_MAX, hi = INT64_MIN;
    for (int i = 0; i < l->size[l->me]; ++i) {
      int r = l->members[l->start[l->me] + i];
      const int64_t *lower = lowerOf(l, r), *extent = extentOf(l, r);
      lo = lower[k] < lo ? lower[k] : lo;
      hi = lower[k] + extent[k] > hi ? lower[k] + extent[k] : hi;
    }
    origin[k] = lo;
    whole[k] = hi - lo;
    volume *= whole[k];
  }
  for (int i = 0; i < l->size[l->me]; ++i)
    filled += l->volumes[l->members[l->start[l->me] + i]];
  if (filled != volume)
    layoutFail(l, "do not tile the domain");
  return volume;
}

/* How the terms of a slice are folded: into one value from zero (a sum),
 * or, for a reduction through some dimensions, into `width` values, the
 * term at position i of the slice buffer into value at[i], each value
 * starting from `initial` (`width` per slice of the domain, from slice
 * `first`). */
typedef struct {
  int64_t width;
  int64_t *at;
  const char *initial;
  int64_t first;
} sliceFold;

static const sliceFold scalarFold = {1, NULL, NULL, 0};

/* Slice j of those rank r owns in its group. */
static int64_t ownedSlice(const termsLayout *l, int r, int64_t j) {
  int64_t first = firstSlice(l, r), size = l->size[r];
  return first + modulo(l->index[r] - first, size) + j * size;
}

/* Folds the slices this rank owns, in order; returns their partial sums
 * (malloc'd, `fold->width` per slice) and their number. */
static void *foldOwnedSlices(const termsLayout *l, const char *received,
                             const int *recvOffsets, const sumType *type,
                             const sliceFold *fold, int64_t *count) {
  size_t size = type->size, width = (size_t)fold->width;
  *count = l->volumes[l->me] ? ownedSlices(l, l->me, l->me) : 0;
  char *partials = allocate((size_t)*count * width, size);
  if (*count == 0)
    return partials;
  int64_t origin[STENCIL_DIST_MAX_DIMS], whole[STENCIL_DIST_MAX_DIMS];
  int64_t volume = groupBox(l, origin, whole);
  char *slice = allocate((size_t)volume, size);
  for (int64_t j = 0; j < *count; ++j) {
    for (int i = 0; i < l->size[l->me]; ++i) {
      int r = l->members[l->start[l->me] + i];
      const char *source =
          received +
          ((size_t)recvOffsets[r] + (size_t)(j * l->volumes[r])) * size;
      placeBox(l, source, lowerOf(l, r), extentOf(l, r), origin, whole, slice,
               size);
    }
    char *mine = partials + (size_t)j * width * size;
    if (!fold->at) {
      type->fold(slice, volume, mine);
      continue;
    }
    int64_t s = ownedSlice(l, l->me, j) - fold->first;
    memcpy(mine, fold->initial + (size_t)s * width * size, width * size);
    type->accumulate(slice, volume, fold->at, mine);
  }
  free(slice);
  return partials;
}

/* Gathers the owners' partial sums (`width` per slice) into `ordered` in
 * slice order; returns the number of slices. Each rank owns, in its group,
 * every size-th slice from its index on, so the owners' partial sums come
 * in rank order and are read back in slice order. */
static int64_t gatherInSliceOrder(const termsLayout *l, const void *mine,
                                  int64_t count, const sumType *type,
                                  int64_t width, char **ordered) {
  size_t n = (size_t)l->ranks, size = type->size * (size_t)width;
  int *counts = allocate(n, sizeof(int));
  int *offsets = allocate(n, sizeof(int));
  int64_t total = 0;
  for (int r = 0; r < l->ranks; ++r) {
    offsets[r] = mpiCount(total);
    counts[r] = l->volumes[r] ? mpiCount(ownedSlices(l, r, r) * width) : 0;
    total += counts[r];
  }
  char *all = allocate((size_t)total, type->size);
  MPI_Allgatherv(mine, mpiCount(count * width), type->mpi, all, counts,
                 offsets, type->mpi, stencil_dist_comm());
  /* The groups in slice order (their ranges are disjoint); within one,
   * slice s from its owner. */
  *ordered = allocate((size_t)total, type->size);
  int64_t placed = 0;
  for (int i = 0; i < l->taking; ++i) {
    int leader = l->members[i];
    if (l->group[leader] != leader)
      continue;
    int64_t lo = firstSlice(l, leader), slices = sliceCount(l, leader);
    for (int64_t s = lo; s < lo + slices; ++s) {
      int owner = ownerOf(l, leader, s);
      memcpy(*ordered + (size_t)placed++ * size,
             all + (size_t)offsets[owner] * type->size, size);
      offsets[owner] += (int)width;
    }
  }
  free(all);
  free(counts);
  free(offsets);
  return placed;
}

static void sumTerms(const void *terms, int64_t rank, int64_t dim,
                     const int64_t *box, const sumType *type, void *sum) {
  termsLayout layout;
  makeLayout(&layout, rank, dim, box);
  int *recvCounts = allocate((size_t)layout.ranks, sizeof(int));
  int *recvOffsets = allocate((size_t)layout.ranks, sizeof(int));
  void *received = exchangeTerms(&layout, terms, type, recvCounts, recvOffsets);
  int64_t count = 0;
  void *partials = foldOwnedSlices(&layout, received, recvOffsets, type,
                                   &scalarFold, &count);
  char *ordered = NULL;
  int64_t slices =
      gatherInSliceOrder(&layout, partials, count, type, 1, &ordered);
  type->fold(ordered, slices, sum);
  free(ordered);
  free(partials);
  free(received);
  free(recvCounts);
  free(recvOffsets);
  freeLayout(&layout);
}

double stencil_dist_sum_terms_f64(const double *terms, int64_t rank,
                                  int64_t dim, const int64_t *box) {
  double sum;
  sumTerms(terms, rank, dim, box, &f64Type, &sum);
  return sum;
}

float stencil_dist_sum_terms_f32(const float *terms, int64_t rank, int64_t dim,
                                 const int64_t *box) {
  float sum;
  sumTerms(terms, rank, dim, box, &f32Type, &sum);
  return sum;
}

/*===----------------------- Reductions through some dimensions ----------===*/

/* The union of the boxes of the ranks that take part (extents 0 if none). */
static void domainBox(const termsLayout *l, int64_t *lower, int64_t *extent) {
  for (int k = 0; k < l->rank; ++k) {
    int64_t lo = INT64_MAX, hi = INT64_MIN;
    for (int r = 0; r < l->ranks; ++r) {
      if (!l->volumes[r])
        continue;
      int64_t first = lowerOf(l, r)[k];
      lo = first < lo ? first : lo;
      hi = first + extentOf(l, r)[k] > hi ? first + extentOf(l, r)[k] : hi;
    }
    lower[k] = lo <= hi ? lo : 0;
    extent[k] = lo <= hi ? hi - lo : 0;
  }
}

void stencil_dist_terms_domain(int64_t rank, const int64_t *box,
                               int64_t *domain) {
  termsLayout layout;
  /* Grouped along dimension 0, which every box may span. */
  makeLayout(&layout, rank, 0, box);
  domainBox(&layout, domain, domain + rank);
  freeLayout(&layout);
}

/* The partial sum that each position of this rank's slice buffer (its
 * group's box after the summation dimension) goes to: row-major over the
 * domain's extents of the kept dimensions. */
static int64_t *keptIndices(const termsLayout *l, int64_t kept,
                            const int64_t *lower, const int64_t *extent) {
  int64_t origin[STENCIL_DIST_MAX_DIMS], whole[STENCIL_DIST_MAX_DIMS];
  int64_t volume = groupBox(l, origin, whole);
  int64_t *at = allocate((size_t)volume, sizeof(int64_t));
  int64_t index[STENCIL_DIST_MAX_DIMS] = {0};
  for (int64_t i = 0; i < volume; ++i) {
    int64_t position = 0;
    for (int k = l->dim + 1; k < l->rank; ++k)
      if (kept >> k & 1)
        position = position * extent[k] + origin[k] + index[k] - lower[k];
    at[i] = position;
    for (int k = l->rank - 1; k > l->dim && ++index[k] == whole[k]; --k)
      index[k] = 0;
  }
  return at;
}

static void reduceTerms(const void *terms, int64_t rank, int64_t dim,
                        const int64_t *box, int64_t kept, void *partials,
                        const sumType *type) {
  termsLayout layout;
  makeLayout(&layout, rank, dim, box);
  if (kept & ~(((int64_t)1 << rank) - ((int64_t)2 << dim)))
    layoutFail(&layout, "keep a dimension at or before the summation one");
  int64_t lower[STENCIL_DIST_MAX_DIMS], extent[STENCIL_DIST_MAX_DIMS];
  domainBox(&layout, lower, extent);
  sliceFold fold = {1, NULL, partials, lower[dim]};
  for (int k = (int)dim + 1; k < layout.rank; ++k)
    if (kept >> k & 1)
      fold.width *= extent[k];
  if (layout.volumes[layout.me])
    fold.at = keptIndices(&layout, kept, lower, extent);
  int *recvCounts = allocate((size_t)layout.ranks, sizeof(int));
  int *recvOffsets = allocate((size_t)layout.ranks, sizeof(int));
  void *received = exchangeTerms(&layout, terms, type, recvCounts, recvOffsets);
  int64_t count = 0;
  void *mine = foldOwnedSlices(&layout, received, recvOffsets, type,
                               fold.at ? &fold : &scalarFold, &count);
  char *ordered = NULL;
  int64_t slices = gatherInSliceOrder(&layout, mine, count, type, fold.width,
                                      &ordered);
  if (slices != extent[dim])
    layoutFail(&layout, "do not cover the domain's slices");
  memcpy(partials, ordered, (size_t)(slices * fold.width) * type->size);
  free(ordered);
  free(mine);
  free(received);
  free(recvCounts);
  free(recvOffsets);
  free(fold.at);
  freeLayout(&layout);
}

void stencil_dist_reduce_terms_f64(const double *terms, int64_t rank,
                                   int64_t dim, const int64_t *box,
                                   int64_t kept, double *partials) {
  reduceTerms(terms, rank, dim, box, kept, partials, &f64Type);
}

void stencil_dist_reduce_terms_f32(const float *terms, int64_t rank,
                                   int64_t dim, const int64_t *box,
                                   int64_t kept, float *partials) {
  reduceTerms(terms, rank, dim, box, kept, partials, &f32Type);
}
