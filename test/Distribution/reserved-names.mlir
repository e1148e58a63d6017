// RUN: stencil-opt %s --stencil-distribute=grid=2 -split-input-file -verify-diagnostics

// User symbols in the namespaces of the run-time libraries and of what the
// passes generate (Stencil/Dialect/ReservedNames.h) are refused at the
// symbol, before the distribution adds its own.

// The distributed code would call the user's function instead of the
// library's block decomposition.
// expected-error @below {{'func.func' op is named @stencil_dist_block_start, in the namespace `stencil_dist_*` reserved for the distributed library (lib/Runtime/Distributed.c) and the messages --stencil-distribute adds, which the generated code calls or defines: rename it}}
func.func @stencil_dist_block_start(%a: i64, %b: i64, %c: i64) -> i64 { return %a : i64 }
func.func @f(%u: memref<?xf64> {stencil.active}, %v: memref<?xf64> {stencil.active}, %n: index) {
  stencil.domain (%i) = (1) to (%n) {
    %x = stencil.gather %u[-1] : memref<?xf64>
    stencil.store %x to %v : memref<?xf64>
  }
  return
}

// -----

// Another signature than the library's: the calls would not verify.
// expected-error @below {{is named @stencil_dist_check_grid, in the namespace `stencil_dist_*`}}
func.func @stencil_dist_check_grid() { return }
func.func @f(%u: memref<?xf64> {stencil.active}, %v: memref<?xf64> {stencil.active}, %n: index) {
  stencil.domain (%i) = (1) to (%n) {
    %x = stencil.gather %u[-1] : memref<?xf64>
    stencil.store %x to %v : memref<?xf64>
  }
  return
}

// -----

// The name of the message global the distribution adds for @f.
// expected-error @below {{is named @stencil_dist_where_f, in the namespace `stencil_dist_*`}}
func.func @stencil_dist_where_f() { return }
func.func @f(%u: memref<?xf64> {stencil.active}, %v: memref<?xf64> {stencil.active}, %n: index) {
  stencil.domain (%i) = (1) to (%n) {
    %x = stencil.gather %u[-1] : memref<?xf64>
    stencil.store %x to %v : memref<?xf64>
  }
  return
}

// -----

// Even a bodiless declaration: only the passes declare these.
// expected-error @below {{is named @MPI_Send, in the namespace `MPI_*` reserved for MPI}}
func.func private @MPI_Send(i32) -> i32

// -----

// expected-error @below {{'memref.global' op is named @stencil_grid, the name `stencil_grid` reserved for the process grid of --stencil-distribute}}
memref.global "private" @stencil_grid : memref<2xf64>
