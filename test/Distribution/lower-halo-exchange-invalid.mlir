// RUN: stencil-opt %s --stencil-lower-halo-exchange -split-input-file -verify-diagnostics | FileCheck %s

// Exchanges --stencil-lower-halo-exchange cannot lower are reported at the
// op, never guessed at (hostile input: the shard verifier accepts these).

shard.grid @g(shape = 2) {sym_visibility = "private"}
func.func @negative(%a: memref<?x?xf64>) -> memref<?x?xf64> {
  // expected-error @below {{splits more dimensions than its memref has, or has a negative halo size}}
  %r = shard.update_halo %a on @g split_axes = [[0], [0]] halo_sizes = [1, 1, -2, 1] : memref<?x?xf64>
  return %r : memref<?x?xf64>
}

// -----

shard.grid @g(shape = 2) {sym_visibility = "private"}
func.func @missing_axis(%a: memref<?x?xf64>) -> memref<?x?xf64> {
  // expected-error @below {{splits dimension 1 over several grid axes or an axis the grid lacks, or has too few halo sizes}}
  %r = shard.update_halo %a on @g split_axes = [[], [3]] halo_sizes = [1, 1] : memref<?x?xf64>
  return %r : memref<?x?xf64>
}

// -----

shard.grid @g(shape = 2) {sym_visibility = "private"}
func.func @element_type(%a: memref<?xi1>) -> memref<?xi1> {
  // expected-error @below {{exchanges elements of type 'i1'; only integers and floats of whole bytes are lowered}}
  %r = shard.update_halo %a on @g split_axes = [[0]] halo_sizes = [1, 1] : memref<?xi1>
  return %r : memref<?xi1>
}

// -----

// Nothing else changes: a module without shard ops keeps its attributes.
// CHECK: module attributes {dlti.map = #dlti.map<"MPI:Implementation" = "MPICH">}
// CHECK-NOT: stencil_dist
module attributes {dlti.map = #dlti.map<"MPI:Implementation" = "MPICH">} {
  func.func @rank() -> i32 {
    %c = mpi.comm_world : !mpi.comm
    %r = mpi.comm_rank(%c) : i32
    return %r : i32
  }
}
