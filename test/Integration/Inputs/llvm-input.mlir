// LLVM-dialect input: an output of the pipeline, not a stencil program.
// MLIR 22's parser of llvm.insertvalue truncates the position to 32 bits
// before its bounds check and then reads out of bounds (found by
// stencil-fuzz). stencil-compile parses without the LLVM dialect, so this
// is a located error instead of a crash.
llvm.func @f(%p: !llvm.ptr) {
  %0 = llvm.mlir.poison : !llvm.struct<(ptr, i64)>
  %1 = llvm.insertvalue %p, %0[4294967296] : !llvm.struct<(ptr, i64)>
  llvm.return
}
