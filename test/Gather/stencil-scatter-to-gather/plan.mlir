// RUN: stencil-opt %s --stencil-scatter-to-gather=report-nests -o /dev/null 2>&1 \
// RUN:   | FileCheck %s --check-prefix=CHECK-COMPACT
// RUN: stencil-opt %s "--stencil-scatter-to-gather=report-nests boundary=exact" -o /dev/null 2>&1 \
// RUN:   | FileCheck %s --check-prefix=CHECK-EXACT
// RUN: stencil-opt %s "--stencil-scatter-to-gather=report-nests max-split-statements=1" -o /dev/null 2>&1 \
// RUN:   | FileCheck %s --check-prefix=CHECK-NOSPLIT
// RUN: stencil-opt %s "--stencil-scatter-to-gather=report-nests one-outer-loop=0" -o /dev/null 2>&1 \
// RUN:   | FileCheck %s --check-prefix=CHECK-THREE

// The plan of the gather form (lib/Gather/GatherPlan.cpp), as the JSON
// remark of report-nests prints it, for r[i-1] += x (statement 0) and
// r[i+1] += x (statement 1) over [lo, hi). The expected nests are derived by
// hand from the paper's construction, not captured from the output.
//
// Compact: a lower slab [lo-1, min(lo+1, hi+1)) and an upper slab
// [max(hi-1, lo+1), hi+1), both running both statements guarded in
// dimension 0, around the core [lo+1, hi-1), which runs both unguarded.
// CHECK-COMPACT: remark: gather form: 1 core, 2 boundary and 0 fallback nests
// CHECK-COMPACT: remark: gather plan: {"boundary":"compact","boundary_nests":2,"core":1,"fallback":[],"fallback_nests":0,"innermost_points":[],"innermost_span":0,"nests":[
// CHECK-COMPACT-SAME: {"depth":0,"first_guarded":0,"kind":"boundary","ranges":[{"max_of":[{"bound":"lower","offset":-1}],"min_of":[{"bound":"lower","offset":1},{"bound":"upper","offset":1}]}],"split":false,"statements":[0,1]},
// CHECK-COMPACT-SAME: {"depth":0,"first_guarded":1,"kind":"core","ranges":[{"max_of":[{"bound":"lower","offset":1}],"min_of":[{"bound":"upper","offset":-1}]}],"split":false,"statements":[0,1]},
// CHECK-COMPACT-SAME: {"depth":0,"first_guarded":0,"kind":"boundary","ranges":[{"max_of":[{"bound":"upper","offset":-1},{"bound":"lower","offset":1}],"min_of":[{"bound":"upper","offset":1}]}],"split":false,"statements":[0,1]}
// CHECK-COMPACT-SAME: ],"outer_in_one_loop":false,"outer_points":[],"rank":1,"reset":null,"size_conditions":[],"split_slabs":true}
//
// Exact (PerforAD): with distinct offsets {-1, 1} the dimension splits into
// 3 intervals; statement 0 is valid on the first two, statement 1 on the
// last two. So [lo-1, lo+1) runs statement 0 alone, [lo+1, hi-1) both (the
// core) and [hi-1, hi+1) statement 1 alone, all unguarded, when
// hi - lo >= 2; smaller domains take the three compact nests.
// CHECK-EXACT: remark: gather form: 1 core, 2 boundary and 3 fallback nests
// CHECK-EXACT: remark: gather plan: {"boundary":"exact","boundary_nests":2,"core":1,"fallback":[
// CHECK-EXACT-SAME: {"depth":0,"first_guarded":0,"kind":"fallback",
// CHECK-EXACT-SAME: {"depth":0,"first_guarded":1,"kind":"fallback",
// CHECK-EXACT-SAME: {"depth":0,"first_guarded":0,"kind":"fallback",
// CHECK-EXACT-SAME: "fallback_nests":3,"innermost_points":[],"innermost_span":0,"nests":[
// CHECK-EXACT-SAME: {"depth":0,"first_guarded":1,"kind":"boundary","ranges":[{"max_of":[{"bound":"lower","offset":-1}],"min_of":[{"bound":"lower","offset":1}]}],"split":false,"statements":[0]},
// CHECK-EXACT-SAME: {"depth":0,"first_guarded":1,"kind":"core","ranges":[{"max_of":[{"bound":"lower","offset":1}],"min_of":[{"bound":"upper","offset":-1}]}],"split":false,"statements":[0,1]},
// CHECK-EXACT-SAME: {"depth":0,"first_guarded":1,"kind":"boundary","ranges":[{"max_of":[{"bound":"upper","offset":-1}],"min_of":[{"bound":"upper","offset":1}]}],"split":false,"statements":[1]}
// CHECK-EXACT-SAME: ],"outer_in_one_loop":false,"outer_points":[],"rank":1,"reset":null,"size_conditions":[{"dim":0,"min_extent":2}],"split_slabs":true}
func.func @two_taps(%u: memref<?xf64>, %r: memref<?xf64>, %n: index) {
  stencil.domain (%i) = (1) to (%n) {
    %x = stencil.gather %u[0] : memref<?xf64>
    stencil.accumulate %x to %r[-1] : memref<?xf64>
    stencil.accumulate %x to %r[1] : memref<?xf64>
  }
  return
}

// Second function.

// 2-D, offsets (0, -1) and (1, 0): compact peels both dimensions; the slabs
// of dimension 1 run inside the core loop of dimension 0 (depth 1) and
// span only dimension 1; those of dimension 0 span both, dimension 1 over
// the written points [lo1-1, hi1). Where dimension 1 has at least one
// point, its slabs also run as points (peel-innermost): lo1 - 1 with
// statement 0, hi1 - 1 with statement 1; and where dimension 0 has one
// too, so do its slabs in the one loop over dimension 0 (peel-outer): lo0
// with statement 0, hi0 with statement 1.
// CHECK-COMPACT: remark: gather form: 1 core, 4 boundary and 0 fallback nests
// CHECK-COMPACT: remark: gather plan: {"boundary":"compact","boundary_nests":4,"core":1,"fallback":[],"fallback_nests":0,"innermost_points":[{"bound":"lower","offset":-1,"statements":[0]},{"bound":"upper","offset":-1,"statements":[1]}],"innermost_span":1,"nests":[
// CHECK-COMPACT-SAME: {"depth":0,"first_guarded":0,"kind":"boundary","ranges":[{"max_of":[{"bound":"lower","offset":0}],"min_of":[{"bound":"lower","offset":1},{"bound":"upper","offset":1}]},{"max_of":[{"bound":"lower","offset":-1}],"min_of":[{"bound":"upper","offset":0}]}],"split":true,"statements":[0,1]},
// CHECK-COMPACT-SAME: {"depth":1,"first_guarded":1,"kind":"boundary","ranges":[{"max_of":[{"bound":"lower","offset":-1}],"min_of":[{"bound":"lower","offset":0},{"bound":"upper","offset":0}]}],"split":false,"statements":[0,1]},
// CHECK-COMPACT-SAME: {"depth":0,"first_guarded":2,"kind":"core","ranges":[{"max_of":[{"bound":"lower","offset":1}],"min_of":[{"bound":"upper","offset":0}]},{"max_of":[{"bound":"lower","offset":0}],"min_of":[{"bound":"upper","offset":-1}]}],"split":false,"statements":[0,1]},
// CHECK-COMPACT-SAME: {"depth":1,"first_guarded":1,"kind":"boundary","ranges":[{"max_of":[{"bound":"upper","offset":-1},{"bound":"lower","offset":0}],"min_of":[{"bound":"upper","offset":0}]}],"split":false,"statements":[0,1]},
// CHECK-COMPACT-SAME: {"depth":0,"first_guarded":0,"kind":"boundary","ranges":[{"max_of":[{"bound":"upper","offset":0},{"bound":"lower","offset":1}],"min_of":[{"bound":"upper","offset":1}]},{"max_of":[{"bound":"lower","offset":-1}],"min_of":[{"bound":"upper","offset":0}]}],"split":true,"statements":[0,1]}
// CHECK-COMPACT-SAME: ],"outer_in_one_loop":true,"outer_points":[{"dim":0,"points":[{"bound":"lower","offset":0,"statements":[0]},{"bound":"upper","offset":0,"statements":[1]}],"span":1}],"rank":2,"reset":null,"size_conditions":[],"split_slabs":true}
// In 2-D and up without a fused reset, dimension 0's slabs and core are
// one parallel loop (outer_in_one_loop); in 1-D, or with one-outer-loop=0,
// three.
// CHECK-THREE: "outer_in_one_loop":false,"outer_points":[],"rank":1
// CHECK-THREE: "outer_in_one_loop":false,"outer_points":[{"dim":0,{{.*}}"span":1}],"rank":2
// With max-split-statements=1 the 2-statement slabs stay guarded: no nest
// of either function is split, although split-slabs is on.
// CHECK-NOSPLIT-NOT: "split":true
// CHECK-NOSPLIT: "split_slabs":true
// CHECK-NOSPLIT-NOT: "split":true
// CHECK-NOSPLIT: "split_slabs":true
// CHECK-NOSPLIT-NOT: "split":true
// Exact: 3 x 3 boxes, of which (0, 2) and (2, 0) run no statement.
// CHECK-EXACT: remark: gather form: 1 core, 6 boundary and 5 fallback nests
func.func @two_dims(%u: memref<?x?xf64>, %r: memref<?x?xf64>, %n: index) {
  stencil.domain (%i, %j) = (1, 1) to (%n, %n) {
    %x = stencil.gather %u[0, 0] : memref<?x?xf64>
    stencil.accumulate %x to %r[0, -1] : memref<?x?xf64>
    stencil.accumulate %x to %r[1, 0] : memref<?x?xf64>
  }
  return
}
