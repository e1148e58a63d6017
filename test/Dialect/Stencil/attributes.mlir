// RUN: stencil-opt %s -split-input-file -verify-diagnostics | FileCheck %s

// The dialect's attributes on other ops (StencilDialect.td,
// lib/Dialect/StencilAttributes.cpp): the valid forms round-trip, and one
// case per diagnostic of the verifier.

// CHECK-LABEL: func.func @valid
// CHECK-SAME: %{{.*}}: memref<?xf64> {stencil.active}, %{{.*}}: f32 {stencil.active}
// CHECK-SAME: attributes {stencil.noalias}
// CHECK: call @f(%{{.*}}, %{{.*}}) {stencil.partials = [@df_da, @df_db]}
// CHECK-LABEL: func.func @valid_adjoint
// CHECK-SAME: attributes {stencil.adjoint_of = @valid}
func.func private @f(f32, f32) -> f32
func.func private @df_da(f32, f32) -> f32
func.func private @df_db(f32, f32) -> f32
func.func @valid(%u: memref<?xf64> {stencil.active}, %s: f32 {stencil.active})
    -> f32 attributes {stencil.noalias} {
  %z = func.call @f(%s, %s) {stencil.partials = [@df_da, @df_db]} : (f32, f32) -> f32
  return %z : f32
}
func.func @valid_adjoint() attributes {stencil.adjoint_of = @valid} {
  return
}
// Declarations are checked from their signature.
// CHECK-LABEL: func.func private @declared
func.func private @declared(memref<?xf32> {stencil.active})

// -----

// expected-error@+1 {{'func.func' op argument #0 is marked stencil.active but has type 'memref<?xi32>'; only f32/f64 scalars and memrefs of f32/f64 can be active}}
func.func @active_int_array(%u: memref<?xi32> {stencil.active}, %n: index) {
  return
}

// -----

// expected-error@+1 {{'func.func' op argument #1 is marked stencil.active but has type 'index'; only f32/f64 scalars and memrefs of f32/f64 can be active}}
func.func @active_index(%u: memref<?xf64> {stencil.active}, %n: index {stencil.active}) {
  return
}

// -----

// expected-error@+1 {{'func.func' op argument #1 is marked stencil.active but has type 'memref<?xi32>'}}
func.func private @active_declaration(memref<?xf32>, memref<?xi32> {stencil.active})

// -----

// expected-error@+1 {{'func.func' op 'stencil.active' must be a unit attribute}}
func.func @active_value(%u: memref<?xf64> {stencil.active = 1 : i32}) {
  return
}

// -----

// expected-error@+1 {{'func.func' op 'stencil.active' is only valid on a function argument}}
func.func @active_on_op() attributes {stencil.active} {
  return
}

// -----

// A misspelt attribute is an error, not silently ignored.
// expected-error@+1 {{'func.func' op 'stencil.actve' is not an argument attribute (argument #0)}}
func.func @misspelt_argument(%u: memref<?xf64> {stencil.actve}) {
  return
}

// -----

// expected-error@+1 {{'func.func' op 'stencil.noalias' is not an argument attribute (argument #0)}}
func.func @noalias_argument(%u: memref<?xf64> {stencil.noalias}) {
  return
}

// -----

// expected-error@+1 {{'func.func' op unknown attribute 'stencil.adjoint' of the stencil dialect}}
func.func @misspelt_op_attribute() attributes {stencil.adjoint = @f} {
  return
}

// -----

func.func private @f(f64) -> f64
func.func @partials_not_symbols(%a: f64) -> f64 {
  // expected-error@+1 {{'func.call' op 'stencil.partials' must be an array of function symbols}}
  %z = func.call @f(%a) {stencil.partials = ["df"]} : (f64) -> f64
  return %z : f64
}

// -----

func.func private @f(f64, f64) -> f64
func.func private @df(f64, f64) -> f64
func.func @too_few_partials(%a: f64) -> f64 {
  // expected-error@+1 {{'func.call' op 'stencil.partials' needs a call with one result and one entry per operand; this call has 1 result(s), 2 operand(s) and 1 entries}}
  %z = func.call @f(%a, %a) {stencil.partials = [@df]} : (f64, f64) -> f64
  return %z : f64
}

// -----

func.func private @g(f64) -> (f64, f64)
func.func private @dg(f64) -> f64
func.func @two_results(%a: f64) -> f64 {
  // expected-error@+1 {{'func.call' op 'stencil.partials' needs a call with one result and one entry per operand; this call has 2 result(s), 1 operand(s) and 1 entries}}
  %y, %z = func.call @g(%a) {stencil.partials = [@dg]} : (f64) -> (f64, f64)
  return %z : f64
}

// -----

func.func @partials_not_call(%a: f64) -> f64 {
  // expected-error@+1 {{'arith.addf' op 'stencil.partials' is only valid on a call}}
  %z = arith.addf %a, %a {stencil.partials = [@df]} : f64
  return %z : f64
}

// -----

// expected-error@+1 {{'func.func' op 'stencil.adjoint_of' must be a function symbol}}
func.func @adjoint_of_string() attributes {stencil.adjoint_of = "primal"} {
  return
}

// -----

func.func @adjoint_of_not_function(%a: f64) -> f64 {
  // expected-error@+1 {{'arith.negf' op 'stencil.adjoint_of' is only valid on a function}}
  %z = arith.negf %a {stencil.adjoint_of = @f} : f64
  return %z : f64
}

// -----

// expected-error@+1 {{'func.func' op 'stencil.noalias' must be a unit attribute}}
func.func @noalias_value() attributes {stencil.noalias = true} {
  return
}

// -----

// expected-error@+1 {{'func.func' op 'stencil.shadows_of' must be an array of non-negative indices}}
func.func @shadows_of_negative() attributes {stencil.shadows_of = array<i64: 0, -1>} {
  return
}

// -----

// expected-error@+1 {{'func.func' op 'stencil.extra_args' must be an array of strings}}
func.func @extra_args_not_strings() attributes {stencil.extra_args = [1]} {
  return
}

// -----

func.func @shadows_of_not_function(%a: f64) -> f64 {
  // expected-error@+1 {{'arith.negf' op 'stencil.shadows_of' is only valid on a function}}
  %z = arith.negf %a {stencil.shadows_of = array<i64: 0>} : f64
  return %z : f64
}

// -----

// `stencil.distributed_sum` marks a domain with results or reductions (set by
// --stencil-distribute) with the dimension one process takes its slices
// along and how the ranks split it; anywhere else, with a dimension the
// domain does not have or another split, it is an error.
func.func @distributed_sum_without_results(%u: memref<?xf64>, %v: memref<?xf64>, %n: index) {
  // expected-error@+1 {{'stencil.domain' op 'stencil.distributed_sum' must be {dim = <one of its dimensions>, split = "slices" or "boxes"} on a stencil.domain with results or reductions}}
  stencil.domain (%i) = (0) to (%n) {
    %x = stencil.gather %u[0] : memref<?xf64>
    stencil.store %x to %v : memref<?xf64>
  } attributes {stencil.distributed_sum = {dim = 0 : i64, split = "slices"}}
  return
}

// -----

func.func @distributed_sum_dim(%u: memref<?x?xf64>, %n: index) -> f64 {
  // expected-error@+1 {{'stencil.distributed_sum' must be {dim = <one of its dimensions>, split = "slices" or "boxes"}}}
  %s = stencil.domain (%i, %j) = (0, 0) to (%n, %n) -> f64 {
    %x = stencil.gather %u[0, 0] : memref<?x?xf64>
    stencil.yield %x : f64
  } attributes {stencil.distributed_sum = {dim = 2 : i64, split = "boxes"}}
  return %s : f64
}

// -----

func.func @distributed_sum_split(%u: memref<?x?xf64>, %n: index) -> f64 {
  // expected-error@+1 {{'stencil.distributed_sum' must be {dim = <one of its dimensions>, split = "slices" or "boxes"}}}
  %s = stencil.domain (%i, %j) = (0, 0) to (%n, %n) -> f64 {
    %x = stencil.gather %u[0, 0] : memref<?x?xf64>
    stencil.yield %x : f64
  } attributes {stencil.distributed_sum = {dim = 1 : i64, split = "rows"}}
  return %s : f64
}

// -----

func.func @distributed_sum_on_func() attributes {stencil.distributed_sum = {dim = 0 : i64, split = "slices"}} {
  // expected-error@-1 {{'func.func' op 'stencil.distributed_sum' must be {dim = <one of its dimensions>, split = "slices" or "boxes"} on a stencil.domain with results or reductions}}
  return
}

// -----

// `stencil.distribution` (set by --stencil-distribute on the functions it
// distributes): the process grid and the halo width, for the ABI JSON.
// CHECK-LABEL: func.func @distribution
// CHECK-SAME: stencil.distribution = {grid = array<i64: 2, 1, 1>, halo = 2 : i64}
func.func @distribution() attributes {stencil.distribution = {grid = array<i64: 2, 1, 1>, halo = 2 : i64}} {
  return
}

// -----

// 0: an extent chosen at run time.
func.func @distribution_run_time_grid() attributes {stencil.distribution = {grid = array<i64: 2, 0>, halo = 1 : i64}} {
  return
}

// -----

func.func @distribution_negative_grid() attributes {stencil.distribution = {grid = array<i64: 2, -1>, halo = 1 : i64}} {
  // expected-error@-1 {{'func.func' op 'stencil.distribution' must be {grid = array<i64: P0, ...>, halo = N[, blocks = array<i64: argument numbers>]} with every P >= 0 (0: chosen at run time) and N >= 0, on a function}}
  return
}

// -----

func.func @distribution_no_halo() attributes {stencil.distribution = {grid = array<i64: 2>}} {
  // expected-error@-1 {{'func.func' op 'stencil.distribution' must be {grid = array<i64: P0, ...>, halo = N[, blocks = array<i64: argument numbers>]} with every P >= 0 (0: chosen at run time) and N >= 0, on a function}}
  return
}

// -----

func.func @distribution_extra_key() attributes {stencil.distribution = {grid = array<i64: 2>, halo = 1 : i64, ranks = 2 : i64}} {
  // expected-error@-1 {{'func.func' op 'stencil.distribution' must be {grid = array<i64: P0, ...>, halo = N[, blocks = array<i64: argument numbers>]} with every P >= 0 (0: chosen at run time) and N >= 0, on a function}}
  return
}

// -----

func.func @distribution_on_op(%a: f64) -> f64 {
  // expected-error@+1 {{'arith.negf' op 'stencil.distribution' must be {grid = array<i64: P0, ...>, halo = N[, blocks = array<i64: argument numbers>]} with every P >= 0 (0: chosen at run time) and N >= 0, on a function}}
  %z = arith.negf %a {stencil.distribution = {grid = array<i64: 1>, halo = 0 : i64}} : f64
  return %z : f64
}

// -----

// `stencil.distinct_arrays` marks a GPU kernel whose launches pass distinct
// arrays (set by --stencil-mark-gpu-kernel-args); only on a function.
// CHECK-LABEL: func.func @distinct_arrays
// CHECK-SAME: attributes {stencil.distinct_arrays}
func.func @distinct_arrays() attributes {stencil.distinct_arrays} {
  return
}

// -----

func.func @distinct_arrays_on_op(%n: index) {
  // expected-error@+1 {{'arith.addi' op 'stencil.distinct_arrays' must be a unit attribute on a function}}
  %m = arith.addi %n, %n {stencil.distinct_arrays} : index
  return
}

// -----

// expected-error@+1 {{'func.func' op 'stencil.distinct_arrays' must be a unit attribute on a function}}
func.func @distinct_arrays_not_unit() attributes {stencil.distinct_arrays = 1 : i64} {
  return
}

// -----

// `stencil.snapshot_borders` marks the i1 constant that selects border
// snapshots in a reversed time loop (set by --stencil-adjoint); anywhere
// else it is an error.
func.func @snapshot_borders_on_index() -> index {
  // expected-error@+1 {{'arith.constant' op 'stencil.snapshot_borders' must be a unit attribute on an i1 arith.constant}}
  %c = arith.constant {stencil.snapshot_borders} 1 : index
  return %c : index
}

// -----

func.func @snapshot_borders_valued() -> i1 {
  // expected-error@+1 {{'arith.constant' op 'stencil.snapshot_borders' must be a unit attribute on an i1 arith.constant}}
  %c = arith.constant {stencil.snapshot_borders = 2 : i64} true
  return %c : i1
}

// -----

// CHECK-LABEL: func.func @snapshot_borders_flag
// CHECK:         arith.constant {stencil.snapshot_borders} true
func.func @snapshot_borders_flag() -> i1 {
  %c = arith.constant {stencil.snapshot_borders} true
  return %c : i1
}

// -----

// `stencil.host_memory` marks the allocation of a time loop's clock table
// (set by --stencil-adjoint): a unit attribute on a memref.alloc only.
func.func @host_memory_on_alloca(%n: index) {
  // expected-error@+1 {{'memref.alloca' op 'stencil.host_memory' must be a unit attribute on a memref.alloc}}
  %a = memref.alloca(%n) {stencil.host_memory} : memref<?xf64>
  return
}

// -----

// CHECK-LABEL: func.func @host_memory_table
// CHECK:         memref.alloc(%{{.*}}) {stencil.host_memory} : memref<?xindex>
func.func @host_memory_table(%n: index) {
  %a = memref.alloc(%n) {stencil.host_memory} : memref<?xindex>
  memref.dealloc %a : memref<?xindex>
  return
}

// -----

// `stencil.ring` marks a cut's temporary that may become a ring of planes
// (set by --stencil-cut-shared, read by --stencil-ring-cut): a unit
// attribute on a memref.alloc only.
func.func @ring_on_alloca(%n: index) {
  // expected-error@+1 {{'memref.alloca' op 'stencil.ring' must be a unit attribute on a memref.alloc}}
  %a = memref.alloca(%n, %n) {stencil.ring} : memref<?x?xf64>
  return
}

// -----

// CHECK-LABEL: func.func @ring_temporary
// CHECK:         memref.alloc(%{{.*}}, %{{.*}}) {stencil.ring} : memref<?x?xf64>
func.func @ring_temporary(%n: index) {
  %a = memref.alloc(%n, %n) {stencil.ring} : memref<?x?xf64>
  memref.dealloc %a : memref<?x?xf64>
  return
}

// -----

// `stencil.global_index` marks a bound of a border snapshot's box, an
// index, as a global index of a dimension (set by --stencil-adjoint).
func.func @global_index_on_f64() -> f64 {
  // expected-error@+1 {{'arith.constant' op 'stencil.global_index' must be a non-negative i64 on an op with one index result}}
  %c = arith.constant {stencil.global_index = 0 : i64} 1.0 : f64
  return %c : f64
}

// -----

func.func @global_index_negative() -> index {
  // expected-error@+1 {{'arith.constant' op 'stencil.global_index' must be a non-negative i64 on an op with one index result}}
  %c = arith.constant {stencil.global_index = -1 : i64} 1 : index
  return %c : index
}

// -----

// CHECK-LABEL: func.func @global_index
// CHECK:         arith.addi %{{.*}}, %{{.*}} {stencil.global_index = 1 : i64} : index
func.func @global_index(%n: index) -> index {
  %c = arith.constant 1 : index
  %b = arith.addi %n, %c {stencil.global_index = 1 : i64} : index
  return %b : index
}

// -----

// `stencil.exchange_finish` marks the wait and unpacking of a started halo
// exchange (set by --stencil-lower-halo-exchange=overlap=1, read by
// --stencil-overlap-exchanges): the dimension, its grid axis, its widths
// and the grid's spec, on an scf.execute_region without results.
// CHECK-LABEL: func.func @exchange_finish
// CHECK: } {stencil.exchange_finish = {axis = 0 : i64, dim = 1 : i64, hi = 1 : i64, lo = 2 : i64, spec = "stencil_dist_grid_g"}}
func.func @exchange_finish() {
  scf.execute_region {
    scf.yield
  } {stencil.exchange_finish = {dim = 1 : i64, axis = 0 : i64, lo = 2 : i64, hi = 1 : i64, spec = "stencil_dist_grid_g"}}
  return
}

// -----

func.func @exchange_finish_negative() {
  // expected-error@+1 {{'scf.execute_region' op 'stencil.exchange_finish' must be {dim, axis, lo, hi} (non-negative integers) and {spec} (a string) on an scf.execute_region without results}}
  scf.execute_region {
    scf.yield
  } {stencil.exchange_finish = {dim = -1 : i64, axis = 0 : i64, lo = 2 : i64, hi = 1 : i64, spec = "g"}}
  return
}

// -----

func.func @exchange_finish_on_constant() {
  // expected-error@+1 {{'arith.constant' op 'stencil.exchange_finish' must be {dim, axis, lo, hi} (non-negative integers) and {spec} (a string) on an scf.execute_region without results}}
  %c = arith.constant {stencil.exchange_finish = {dim = 0 : i64, axis = 0 : i64, lo = 1 : i64, hi = 1 : i64, spec = "g"}} 0 : index
  return
}
