// The input of source-path.test: one C entry point.
func.func @f(%u: memref<?xf64>, %n: index) attributes {llvm.emit_c_interface} {
  return
}
