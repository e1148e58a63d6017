// convert-to-omp hands its options to the passes it runs, and where an
// option is also a pass's, its default is the pass's: the pipeline without
// options runs --stencil-scatter-to-gather, --stencil-cut-shared (but for
// ring-min-gain, which the pipeline turns on) and --stencil-vector-width
// with exactly the options each pass has alone.
// RUN: stencil-opt %s --stencil-scatter-to-gather --stencil-cut-shared --stencil-vector-width --dump-pass-pipeline -o /dev/null 2>&1 | FileCheck %s --check-prefix=ALONE
// RUN: stencil-opt %s --stencil-scatter-to-gather --stencil-cut-shared --stencil-vector-width --dump-pass-pipeline -o /dev/null > %t 2>&1
// RUN: stencil-opt %s --convert-to-omp --dump-pass-pipeline -o /dev/null >> %t 2>&1
// RUN: FileCheck %s --check-prefix=SAME < %t
// RUN: stencil-opt %s --convert-to-omp="fuse-reset=0 reset-block=4 peel-outer=0 max-split-statements=7 boundary=exact max-gather-ops=9 cut-min-gain=3 cut-padded=0 vector-width-1d=128" --dump-pass-pipeline -o /dev/null 2>&1 | FileCheck %s --check-prefix=SET

// ALONE: stencil-scatter-to-gather{boundary=compact fuse-init=true fuse-reset=true max-exact-nests=256 max-gather-ops=50000 max-split-statements=32 one-outer-loop=true peel-innermost=true peel-outer=true report-nests=false reset-block=0 reset-rows=true split-slabs=true}
// ALONE: stencil-cut-shared{min-gain=64 padded=true report=false ring-min-gain=0}
// ALONE: stencil-vector-width{rank1-width=256}

// SAME:      stencil-scatter-to-gather{[[GATHER:[^}]*]]}
// SAME-NEXT: stencil-cut-shared{[[CUT:.*]] ring-min-gain=0}
// SAME-NEXT: stencil-vector-width{[[WIDTH:[^}]*]]}
// SAME:      stencil-vector-width{[[WIDTH]]}
// SAME:      stencil-cut-shared{[[CUT]] ring-min-gain=16}
// SAME-NEXT: stencil-scatter-to-gather{[[GATHER]]}

// SET: stencil-vector-width{rank1-width=128}
// SET: stencil-scatter-to-gather{boundary=exact fuse-init=true fuse-reset=false max-exact-nests=256 max-gather-ops=9 max-split-statements=7 one-outer-loop=true peel-innermost=true peel-outer=false report-nests=false reset-block=4 reset-rows=true split-slabs=true}

module {}
