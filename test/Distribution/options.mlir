// RUN: not stencil-opt %s --stencil-distribute 2>&1 | FileCheck %s --check-prefix=NOGRID
// RUN: not stencil-opt %s --stencil-distribute="grid=2,0" 2>&1 | FileCheck %s --check-prefix=ZERO

// RUN: not stencil-opt %s "--stencil-distribute=grid=abc" 2>&1 | FileCheck %s --check-prefix=ABC
// RUN: not stencil-opt %s "--stencil-distribute=grid=2,,2" 2>&1 | FileCheck %s --check-prefix=HOLE
// RUN: not stencil-opt %s --stencil-distribute=grid=65536,65536,65536,65536 2>&1 | FileCheck %s --check-prefix=PRODUCT
// RUN: not stencil-opt %s --stencil-adjoint --stencil-distribute="grid=2 halo=9223372036854775807" 2>&1 | FileCheck %s --check-prefix=HALO
// RUN: not stencil-opt %s --stencil-distribute="grid=2 halo=-2" 2>&1 | FileCheck %s --check-prefix=HALO
// RUN: not stencil-opt %s --stencil-distribute=grid=2 --stencil-distribute=grid=2 2>&1 | FileCheck %s
// RUN: not stencil-opt %s "--stencil-distribute=grid=?,?,?,?,?,?,?,?,?" 2>&1 | FileCheck %s --check-prefix=RANK
// RUN: not stencil-opt %s "--stencil-distribute=grid=?x2" 2>&1 | FileCheck %s --check-prefix=QX
// RUN: echo "func.func @g() { return }" | not stencil-opt --stencil-distribute=grid=auto 2>&1 | FileCheck %s --check-prefix=NODOMAINS

// Run-time extents: `?`, `auto` (every dimension `?`), and fixed ones beside
// them; the product of the fixed ones is bounded as before.
// RUN: stencil-opt %s "--stencil-distribute=grid=?" | FileCheck %s --check-prefix=DYN
// RUN: stencil-opt %s --stencil-distribute=grid=auto | FileCheck %s --check-prefix=DYN
// RUN: not stencil-opt %s "--stencil-distribute=grid=?,65536,65536,65536,65536" 2>&1 | FileCheck %s --check-prefix=PRODUCT2

// NOGRID: error: --stencil-distribute needs a process grid: grid=P0,P1,... (`?` for an extent chosen at run time) or grid=auto
// ZERO: error: --stencil-distribute: every grid extent must be in [1, 2^20], got 0
// ABC: error: --stencil-distribute: grid='abc' is not a comma-separated list of process counts or `?` (e.g. grid=2,2 or grid=?,1): entry 0 ('abc') is not an integer
// HOLE: error: --stencil-distribute: grid='2,,2' is not a comma-separated list of process counts or `?` (e.g. grid=2,2 or grid=?,1): entry 1 ('') is not an integer
// PRODUCT: error: --stencil-distribute: grid='65536,65536,65536,65536' has more than 2^31 - 1 processes (the product of its extents); MPI counts ranks in an int
// HALO: error: --stencil-distribute: halo must be -1 (the widest any function needs) or in [0, 2^40], got
// RANK: error: --stencil-distribute: grid='?,?,?,?,?,?,?,?,?' has 9 extents; at most 8 are supported
// QX: error: --stencil-distribute: grid='?x2' is not a comma-separated list of process counts or `?` (e.g. grid=2,2 or grid=?,1): entry 0 ('?x2') is not an integer
// NODOMAINS: error: --stencil-distribute: grid=auto takes the grid's rank from the functions' domains, but no function has any to distribute
// DYN: llvm.mlir.global internal constant @stencil_dist_grid_stencil_grid("?\00")
// DYN: shard.grid @stencil_grid(shape = ?)
// DYN: stencil.distribution = {blocks = array<i64: 0, 1>, grid = array<i64: 0>, halo = 1 : i64}
// DYN: call @stencil_dist_check_grid
// DYN: shard.grid_shape @stencil_grid : index
// DYN: call @stencil_dist_check_block
// PRODUCT2: error: --stencil-distribute: grid='?,65536,65536,65536,65536' has more than 2^31 - 1 processes
// CHECK: error: the module is already distributed (it has the process grid @stencil_grid); --stencil-distribute runs once
func.func @f(%u: memref<?xf64> {stencil.active}, %v: memref<?xf64> {stencil.active}, %n: index) {
  stencil.domain (%i) = (1) to (%n) {
    %x = stencil.gather %u[-1] : memref<?xf64>
    stencil.store %x to %v : memref<?xf64>
  }
  return
}
