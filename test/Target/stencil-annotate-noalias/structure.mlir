// RUN: stencil-opt %s --stencil-annotate-noalias | FileCheck %s

// The arrays are found from the IR: the pointer arguments packed into
// fields 0 and 1 of one memref descriptor in the entry block, whatever
// their positions. Other pointer arguments, and functions without
// `stencil.noalias`, are left alone.

!desc = !llvm.struct<(ptr, ptr, i64, array<1 x i64>, array<1 x i64>)>

// CHECK-DAG: #[[$A0:.*]] = #llvm.alias_scope<{{.*}}description = "array 0">
// CHECK-DAG: #[[$A1:.*]] = #llvm.alias_scope<{{.*}}description = "array 1">
// CHECK-LABEL: llvm.func @mixed(
// CHECK-SAME: %{{[^:]*}}: f64, %{{[^:]*}}: !llvm.ptr {llvm.noalias}, %{{[^:]*}}: !llvm.ptr {llvm.noalias}, %{{[^:]*}}: i64, %{{[^:]*}}: i64, %{{[^:]*}}: i64,
// CHECK-SAME: %{{[^:]*}}: !llvm.ptr, %{{[^:]*}}: !llvm.ptr {llvm.noalias}, %{{[^:]*}}: !llvm.ptr {llvm.noalias}, %{{[^:]*}}: i64, %{{[^:]*}}: i64, %{{[^:]*}}: i64)
// CHECK-NOT: stencil.noalias
// CHECK: llvm.load %{{.*}} {alias_scopes = [#[[$A0]]], noalias_scopes = [#[[$A1]]]}
// CHECK: llvm.store %{{.*}} {alias_scopes = [#[[$A1]]], noalias_scopes = [#[[$A0]]]}
// The access through the loose pointer gets no scope.
// CHECK: llvm.store %{{[^{]*}} : f64, !llvm.ptr
llvm.func @mixed(%s: f64, %a0: !llvm.ptr, %a1: !llvm.ptr, %a2: i64, %a3: i64, %a4: i64,
                 %p: !llvm.ptr,
                 %b0: !llvm.ptr, %b1: !llvm.ptr, %b2: i64, %b3: i64, %b4: i64)
    attributes {stencil.noalias} {
  %0 = llvm.mlir.poison : !desc
  %1 = llvm.insertvalue %a0, %0[0] : !desc
  %2 = llvm.insertvalue %a1, %1[1] : !desc
  %3 = llvm.insertvalue %a2, %2[2] : !desc
  %4 = llvm.mlir.poison : !desc
  %5 = llvm.insertvalue %b0, %4[0] : !desc
  %6 = llvm.insertvalue %b1, %5[1] : !desc
  %7 = llvm.insertvalue %b2, %6[2] : !desc
  %x = llvm.extractvalue %3[1] : !desc
  %v = llvm.load %x : !llvm.ptr -> f64
  %y = llvm.extractvalue %7[1] : !desc
  %g = llvm.getelementptr %y[%a2] : (!llvm.ptr, i64) -> !llvm.ptr, f64
  llvm.store %v, %g : f64, !llvm.ptr
  llvm.store %s, %p : f64, !llvm.ptr
  llvm.return
}

// CHECK-LABEL: llvm.func @unmarked(
// CHECK-NOT: llvm.noalias
// CHECK: llvm.return
llvm.func @unmarked(%a0: !llvm.ptr, %a1: !llvm.ptr, %a2: i64) {
  %0 = llvm.mlir.poison : !desc
  %1 = llvm.insertvalue %a0, %0[0] : !desc
  %2 = llvm.insertvalue %a1, %1[1] : !desc
  llvm.return
}
