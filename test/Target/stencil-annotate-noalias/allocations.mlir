// RUN: stencil-opt %s --stencil-annotate-noalias | FileCheck %s

// Memory the function allocates itself (a ring of planes or another
// temporary, lowered to `malloc` and aligned through integers, or an
// `llvm.alloca`) gets a scope of its own, disjoint from the arrays': LLVM
// cannot see through the alignment, and without the scopes it vectorizes
// a loop that reads a temporary and writes an array behind run-time
// overlap checks. Pointers computed from an integer in any other way, and
// calls of other functions, get nothing.

!desc = !llvm.struct<(ptr, ptr, i64, array<1 x i64>, array<1 x i64>)>

llvm.func @malloc(i64) -> !llvm.ptr
llvm.func @other(i64) -> !llvm.ptr

// CHECK-DAG: #[[$A0:.*]] = #llvm.alias_scope<{{.*}}description = "array 0">
// CHECK-DAG: #[[$M:.*]] = #llvm.alias_scope<{{.*}}description = "allocation 0">
// CHECK-DAG: #[[$S:.*]] = #llvm.alias_scope<{{.*}}description = "allocation 1">
// CHECK-LABEL: llvm.func @temporaries(
// The aligned pointer of the malloc'd ring.
// CHECK: llvm.store %{{.*}} {alias_scopes = [#[[$M]]], noalias_scopes = [#[[$A0]], #[[$S]]]}
// The alloca.
// CHECK: llvm.store %{{.*}} {alias_scopes = [#[[$S]]], noalias_scopes = [#[[$A0]], #[[$M]]]}
// The array, read back from both.
// CHECK: llvm.load %{{.*}} {alias_scopes = [#[[$M]]], noalias_scopes = [#[[$A0]], #[[$S]]]}
// CHECK: llvm.store %{{.*}} {alias_scopes = [#[[$A0]]], noalias_scopes = [#[[$M]], #[[$S]]]}
// Not the aligning pattern (no urem of the same value; a pad as large as
// the alignment, which may leave the allocation), another callee: no
// scopes.
// CHECK: llvm.store %{{[^{]*}} : f64, !llvm.ptr
// CHECK: llvm.store %{{[^{]*}} : f64, !llvm.ptr
// CHECK: llvm.store %{{[^{]*}} : f64, !llvm.ptr
// CHECK: llvm.return
llvm.func @temporaries(%a0: !llvm.ptr, %a1: !llvm.ptr, %a2: i64, %n: i64,
                       %v: f64) attributes {stencil.noalias} {
  %0 = llvm.mlir.poison : !desc
  %1 = llvm.insertvalue %a0, %0[0] : !desc
  %2 = llvm.insertvalue %a1, %1[1] : !desc
  %c63 = llvm.mlir.constant(63 : i64) : i64
  %c64 = llvm.mlir.constant(64 : i64) : i64
  %raw = llvm.call @malloc(%n) : (i64) -> !llvm.ptr
  %int = llvm.ptrtoint %raw : !llvm.ptr to i64
  %c1 = llvm.mlir.constant(1 : i64) : i64
  %pad = llvm.sub %c64, %c1 : i64
  %bumped = llvm.add %int, %pad : i64
  %rem = llvm.urem %bumped, %c64 : i64
  %down = llvm.sub %bumped, %rem : i64
  %ring = llvm.inttoptr %down : i64 to !llvm.ptr
  %d0 = llvm.mlir.poison : !desc
  %d1 = llvm.insertvalue %raw, %d0[0] : !desc
  %d2 = llvm.insertvalue %ring, %d1[1] : !desc
  %r = llvm.extractvalue %d2[1] : !desc
  %rg = llvm.getelementptr %r[%a2] : (!llvm.ptr, i64) -> !llvm.ptr, f64
  llvm.store %v, %rg : f64, !llvm.ptr
  %one = llvm.mlir.constant(1 : i64) : i64
  %slot = llvm.alloca %one x f64 : (i64) -> !llvm.ptr
  llvm.store %v, %slot : f64, !llvm.ptr
  %w = llvm.load %rg : !llvm.ptr -> f64
  %x = llvm.extractvalue %2[1] : !desc
  llvm.store %w, %x : f64, !llvm.ptr
  %odd = llvm.sub %bumped, %c63 : i64
  %oddp = llvm.inttoptr %odd : i64 to !llvm.ptr
  llvm.store %v, %oddp : f64, !llvm.ptr
  %wide = llvm.add %int, %c64 : i64
  %wrem = llvm.urem %wide, %c64 : i64
  %wdown = llvm.sub %wide, %wrem : i64
  %widep = llvm.inttoptr %wdown : i64 to !llvm.ptr
  llvm.store %v, %widep : f64, !llvm.ptr
  %q = llvm.call @other(%n) : (i64) -> !llvm.ptr
  llvm.store %v, %q : f64, !llvm.ptr
  llvm.return
}
