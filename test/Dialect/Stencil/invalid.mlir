// RUN: stencil-opt %s -split-input-file -verify-diagnostics

// One case per diagnostic of the stencil dialect: the verifiers in
// lib/Dialect/StencilOps.cpp, the ODS-generated constraints of
// include/Stencil/Dialect/StencilOps.td, and the custom parser of
// `stencil.domain`. Cases use the custom form unless the custom parser would
// reject the input before the verifier sees it; those use the generic form
// and say why.

//===----------------------------------------------------------------------===//
// Access ops: offset and dims
//===----------------------------------------------------------------------===//

func.func @offset_rank(%u: memref<?x?xf64>, %r: memref<?x?xf64>, %n: index) {
  stencil.domain (%i, %j) = (1, 1) to (%n, %n) {
    // expected-error@+1 {{'stencil.gather' op offset has 1 entries but the array has rank 2}}
    %x = stencil.gather %u[-1] : memref<?x?xf64>
    stencil.store %x to %r : memref<?x?xf64>
  }
  return
}

// -----

// Offsets are limited so that shifted offsets (-o + o'), spans (max o -
// min o) and bounds plus offsets cannot overflow int64.
func.func @offset_int64_min(%u: memref<?xf64>, %n: index) {
  stencil.domain (%i) = (0) to (%n) {
    %c = arith.constant 1.0 : f64
    // expected-error@+1 {{'stencil.accumulate' op offset -9223372036854775808 is out of range; offsets must lie in [-2^40, 2^40] so that index arithmetic on them cannot overflow}}
    stencil.accumulate %c to %u[-9223372036854775808] : memref<?xf64>
  }
  return
}

// -----

func.func @gather_offset_too_large(%u: memref<?x?xf64>, %r: memref<?x?xf64>, %n: index) {
  stencil.domain (%i, %j) = (0, 0) to (%n, %n) {
    // expected-error@+1 {{'stencil.gather' op offset 1099511627777 is out of range}}
    %x = stencil.gather %u[0, 1099511627777] : memref<?x?xf64>
    stencil.store %x to %r : memref<?x?xf64>
  }
  return
}

// -----

func.func @accumulate_offset_rank(%r: memref<?xf64>, %n: index) {
  stencil.domain (%i) = (1) to (%n) {
    %one = arith.constant 1.0 : f64
    // expected-error@+1 {{'stencil.accumulate' op offset has 2 entries but the array has rank 1}}
    stencil.accumulate %one to %r[0, 0] : memref<?xf64>
  }
  return
}

// -----

func.func @dims_length(%c: memref<?xf64>, %r: memref<?x?xf64>, %n: index) {
  stencil.domain (%i, %j) = (0, 0) to (%n, %n) {
    // expected-error@+1 {{'stencil.gather' op dims has 2 entries but the array has rank 1}}
    %x = stencil.gather %c[0] dims [0, 1] : memref<?xf64>
    stencil.store %x to %r : memref<?x?xf64>
  }
  return
}

// -----

func.func @dims_out_of_range(%c: memref<?xf64>, %r: memref<?x?xf64>, %n: index) {
  stencil.domain (%i, %j) = (0, 0) to (%n, %n) {
    // expected-error@+1 {{'stencil.gather' op dims entry 2 is not an iteration dimension of the rank-2 domain}}
    %x = stencil.gather %c[0] dims [2] : memref<?xf64>
    stencil.store %x to %r : memref<?x?xf64>
  }
  return
}

// -----

func.func @dims_negative(%c: memref<?xf64>, %r: memref<?x?xf64>, %n: index) {
  stencil.domain (%i, %j) = (0, 0) to (%n, %n) {
    // expected-error@+1 {{write a fixed dimension as `_`}}
    %x = stencil.gather %c[0] dims [-1] : memref<?xf64>
    stencil.store %x to %r : memref<?x?xf64>
  }
  return
}

// -----

// In the generic form a fixed dimension is -1; other negative entries are
// not dimensions.
func.func @dims_negative_generic(%c: memref<?xf64>, %r: memref<?x?xf64>, %n: index) {
  stencil.domain (%i, %j) = (0, 0) to (%n, %n) {
    // expected-error@+1 {{'stencil.gather' op dims entry -2 is not an iteration dimension of the rank-2 domain}}
    %x = "stencil.gather"(%c) <{offset = array<i64: 0>, dims = array<i64: -2>}> : (memref<?xf64>) -> f64
    stencil.store %x to %r : memref<?x?xf64>
  }
  return
}

// -----

// A fixed dimension's offset is an index into the array.
func.func @fixed_out_of_range(%w: memref<3x3xf64>, %r: memref<?x?xf64>, %n: index) {
  stencil.domain (%i, %j) = (0, 0) to (%n, %n) {
    // expected-error@+1 {{'stencil.gather' op fixed index 3 of array dimension 0 is outside the array (extent 3)}}
    %x = stencil.gather %w[3, 0] dims [_, _] : memref<3x3xf64>
    stencil.store %x to %r : memref<?x?xf64>
  }
  return
}

// -----

func.func @fixed_negative(%w: memref<?x?xf64>, %r: memref<?x?xf64>, %n: index) {
  stencil.domain (%i, %j) = (0, 0) to (%n, %n) {
    // expected-error@+1 {{'stencil.gather' op fixed index -1 of array dimension 1 is outside the array (extent ?)}}
    %x = stencil.gather %w[0, -1] dims [0, _] : memref<?x?xf64>
    stencil.store %x to %r : memref<?x?xf64>
  }
  return
}

// -----

// A store has no offset, so none of its dimensions can be fixed.
func.func @store_fixed(%u: memref<?x?xf64>, %r: memref<2x?xf64>, %n: index) {
  stencil.domain (%i) = (0) to (%n) {
    %x = stencil.gather %u[0, 0] dims [0, 0] : memref<?x?xf64>
    // expected-error@+1 {{'stencil.store' op dims entry 0 is fixed (`_`), which needs an offset to give the index}}
    stencil.store %x to %r dims [_, 0] : memref<2x?xf64>
  }
  return
}

// -----

// Without `dims`, the array rank must equal the domain rank.
func.func @rank_without_dims(%c: memref<?xf64>, %r: memref<?x?xf64>, %n: index) {
  stencil.domain (%i, %j) = (0, 0) to (%n, %n) {
    // expected-error@+1 {{'stencil.gather' op accesses a rank-1 array in a rank-2 domain; give `dims` to map iteration dimensions onto array dimensions}}
    %x = stencil.gather %c[0] : memref<?xf64>
    stencil.store %x to %r : memref<?x?xf64>
  }
  return
}

// -----

// A write must cover each iteration dimension exactly once: a repeated
// dimension writes only the diagonal...
func.func @store_not_permutation(%u: memref<?x?xf64>, %r: memref<?x?xf64>, %n: index) {
  stencil.domain (%i, %j) = (0, 0) to (%n, %n) {
    %x = stencil.gather %u[0, 0] : memref<?x?xf64>
    // expected-error@+1 {{'stencil.store' op must index the array with a permutation of the iteration dimensions: at a subset, a repetition or a fixed element several points would assign the same element; sum them with `stencil.accumulate` instead}}
    stencil.store %x to %r dims [0, 0] : memref<?x?xf64>
  }
  return
}

// -----

// ... and a selection makes several points write the same element.
func.func @store_selection(%u: memref<?x?xf64>, %r: memref<?xf64>, %n: index) {
  stencil.domain (%i, %j) = (0, 0) to (%n, %n) {
    %x = stencil.gather %u[0, 0] : memref<?x?xf64>
    // expected-error@+1 {{'stencil.store' op must index the array with a permutation of the iteration dimensions: at a subset, a repetition or a fixed element several points would assign the same element; sum them with `stencil.accumulate` instead}}
    stencil.store %x to %r dims [1] : memref<?xf64>
  }
  return
}

// -----

// An accumulate may reduce, but a fixed dimension must still be in range.
func.func @accumulate_fixed_out_of_range(%u: memref<?x?xf64>, %r: memref<2xf64>, %n: index) {
  stencil.domain (%i, %j) = (0, 0) to (%n, %n) {
    %x = stencil.gather %u[0, 0] : memref<?x?xf64>
    // expected-error@+1 {{'stencil.accumulate' op fixed index 2 of array dimension 0 is outside the array (extent 2)}}
    stencil.accumulate %x to %r[2] dims [_] : memref<2xf64>
  }
  return
}

// -----

// A rank-0 array may be read (with `dims []`) and summed into, but not
// assigned: every point would assign the same element.
func.func @store_rank0(%u: memref<?xf64>, %s: memref<f64>, %n: index) {
  stencil.domain (%i) = (0) to (%n) {
    %x = stencil.gather %u[0] : memref<?xf64>
    // expected-error@+1 {{'stencil.store' op must index the array with a permutation of the iteration dimensions: at a subset, a repetition or a fixed element several points would assign the same element; sum them with `stencil.accumulate` instead}}
    stencil.store %x to %s dims [] : memref<f64>
  }
  return
}

// -----

// The custom parser reads offsets as integer literals only.
func.func @offset_not_constant(%u: memref<?xf64>, %r: memref<?xf64>, %n: index, %k: index) {
  stencil.domain (%i) = (0) to (%n) {
    // expected-error@+2 {{custom op 'stencil.gather' expected integer value}}
    // expected-error@+1 {{expected ']'}}
    %x = stencil.gather %u[%k] : memref<?xf64>
    stencil.store %x to %r : memref<?xf64>
  }
  return
}

// -----

//===----------------------------------------------------------------------===//
// Access ops: ODS constraints
//===----------------------------------------------------------------------===//

func.func @element_type(%u: memref<?xi32>, %n: index) {
  stencil.domain (%i) = (0) to (%n) {
    // expected-error@+1 {{'array' must be memref of 32-bit float or 64-bit float values, but got 'memref<?xi32>'}}
    %x = stencil.gather %u[0] : memref<?xi32>
  }
  return
}

// -----

// Generic form: the custom form spells no result type, it is always the
// element type of the array.
func.func @gather_result_type(%u: memref<?xf64>, %n: index) {
  stencil.domain (%i) = (0) to (%n) {
    // expected-error@+1 {{'stencil.gather' op failed to verify that result type is the element type of the array}}
    %x = "stencil.gather"(%u) <{offset = array<i64: 0>}> : (memref<?xf64>) -> f32
  }
  return
}

// -----

// Generic form: the custom form takes the value type from the array type.
func.func @store_value_type(%u: memref<?xf32>, %r: memref<?xf64>, %n: index) {
  stencil.domain (%i) = (0) to (%n) {
    %x = stencil.gather %u[0] : memref<?xf32>
    // expected-error@+1 {{'stencil.store' op failed to verify that value type is the element type of the array}}
    "stencil.store"(%x, %r) : (f32, memref<?xf64>) -> ()
  }
  return
}

// -----

// Generic form: the custom form takes the value type from the array type.
func.func @accumulate_value_type(%u: memref<?xf32>, %r: memref<?xf64>, %n: index) {
  stencil.domain (%i) = (0) to (%n) {
    %x = stencil.gather %u[0] : memref<?xf32>
    // expected-error@+1 {{'stencil.accumulate' op failed to verify that value type is the element type of the array}}
    "stencil.accumulate"(%x, %r) <{offset = array<i64: 0>}> : (f32, memref<?xf64>) -> ()
  }
  return
}

// -----

// Generic form: the custom form would fail on the type of the value first.
func.func @unranked(%u: memref<*xf64>, %n: index) {
  stencil.domain (%i) = (0) to (%n) {
    // expected-error@+1 {{'stencil.gather' op operand #0 must be memref of 32-bit float or 64-bit float values, but got 'memref<*xf64>'}}
    %x = "stencil.gather"(%u) <{offset = array<i64: 0>}> : (memref<*xf64>) -> f64
  }
  return
}

// -----

func.func @gather_outside_domain(%u: memref<?xf64>) {
  // expected-error@+1 {{'stencil.gather' op expects parent op 'stencil.domain'}}
  %x = stencil.gather %u[0] : memref<?xf64>
  return
}

// -----

// Access ops must sit directly in the domain body, not in a nested region.
func.func @gather_in_nested_region(%u: memref<?xf64>, %r: memref<?xf64>, %n: index, %b: i1) {
  stencil.domain (%i) = (0) to (%n) {
    %x = scf.if %b -> (f64) {
      // expected-error@+1 {{'stencil.gather' op reads an array inside 'scf.if', but access ops must sit directly in the stencil.domain body; read it before the 'scf.if' and use the value there (every read is in bounds at every point, so reading it on both paths is safe)}}
      %y = stencil.gather %u[0] : memref<?xf64>
      scf.yield %y : f64
    } else {
      %z = arith.constant 0.0 : f64
      scf.yield %z : f64
    }
    stencil.store %x to %r : memref<?xf64>
  }
  return
}

// -----

//===----------------------------------------------------------------------===//
// Domain body: reads, writes and memory effects
//===----------------------------------------------------------------------===//

func.func @store_and_gather(%u: memref<?xf64>, %n: index) {
  stencil.domain (%i) = (1) to (%n) {
    // expected-note@+1 {{read here}}
    %x = stencil.gather %u[-1] : memref<?xf64>
    // expected-error@+1 {{'stencil.store' op writes an array that is also read in this domain (points may run in parallel; read and write different arrays)}}
    stencil.store %x to %u : memref<?xf64>
  }
  return
}

// -----

func.func @accumulate_and_gather(%u: memref<?xf64>, %n: index) {
  stencil.domain (%i) = (1) to (%n) {
    // expected-note@+1 {{read here}}
    %x = stencil.gather %u[-1] : memref<?xf64>
    // expected-error@+1 {{'stencil.accumulate' op writes an array that is also read in this domain (points may run in parallel; read and write different arrays)}}
    stencil.accumulate %x to %u[1] : memref<?xf64>
  }
  return
}

// -----

func.func @stored_twice(%u: memref<?xf64>, %r: memref<?xf64>, %n: index) {
  stencil.domain (%i) = (0) to (%n) {
    %x = stencil.gather %u[0] : memref<?xf64>
    // expected-note@+1 {{first assignment here}}
    stencil.store %x to %r : memref<?xf64>
    // expected-error@+1 {{'stencil.store' op assigns an array that is already assigned in this domain}}
    stencil.store %x to %r : memref<?xf64>
  }
  return
}

// -----

func.func @store_and_accumulate(%u: memref<?xf64>, %r: memref<?xf64>, %n: index) {
  stencil.domain (%i) = (0) to (%n) {
    %x = stencil.gather %u[0] : memref<?xf64>
    // expected-note@+1 {{assignment here}}
    stencil.store %x to %r : memref<?xf64>
    // expected-error@+1 {{'stencil.accumulate' op accumulates into an array that is also assigned in this domain}}
    stencil.accumulate %x to %r[0] : memref<?xf64>
  }
  return
}

// -----

func.func @memref_load(%u: memref<?xf64>, %r: memref<?xf64>, %n: index) {
  stencil.domain (%i) = (0) to (%n) {
    // expected-error@+1 {{'memref.load' op has memory effects, which a stencil.domain body does not allow; access arrays with stencil.gather, stencil.store and stencil.accumulate}}
    %x = memref.load %u[%i] : memref<?xf64>
    stencil.store %x to %r : memref<?xf64>
  }
  return
}

// -----

func.func @memref_store(%u: memref<?xf64>, %r: memref<?xf64>, %n: index) {
  stencil.domain (%i) = (0) to (%n) {
    %x = stencil.gather %u[0] : memref<?xf64>
    // expected-error@+1 {{'memref.store' op has memory effects, which a stencil.domain body does not allow; access arrays with stencil.gather, stencil.store and stencil.accumulate}}
    memref.store %x, %r[%i] : memref<?xf64>
  }
  return
}

// -----

// Memory effects are found in nested regions too.
func.func @store_in_scf_if(%u: memref<?xf64>, %r: memref<?xf64>, %n: index, %b: i1) {
  stencil.domain (%i) = (0) to (%n) {
    %x = stencil.gather %u[0] : memref<?xf64>
    scf.if %b {
      // expected-error@+1 {{'stencil.store' op writes an array inside 'scf.if', but access ops must sit directly in the stencil.domain body, so that every point writes once; choose the value instead, with arith.select (C's `?:`) where both values are defined at every point or as a result of an scf.if, and write it once after the choice (an accumulate adds 0 on the other path)}}
      stencil.store %x to %r : memref<?xf64>
    }
  }
  return
}

// -----

func.func @accumulate_in_scf_else(%u: memref<?xf64>, %r: memref<?xf64>, %n: index, %b: i1) {
  stencil.domain (%i) = (0) to (%n) {
    %x = stencil.gather %u[0] : memref<?xf64>
    %y = scf.if %b -> (f64) {
      scf.yield %x : f64
    } else {
      // expected-error@+1 {{'stencil.accumulate' op writes an array inside 'scf.if', but access ops must sit directly}}
      stencil.accumulate %x to %r[1] : memref<?xf64>
      scf.yield %x : f64
    }
  }
  return
}

// -----

func.func @gather_in_scf_for(%u: memref<?xf64>, %r: memref<?xf64>, %n: index) {
  stencil.domain (%i) = (0) to (%n) {
    %c0 = arith.constant 0 : index
    %c2 = arith.constant 2 : index
    %c1 = arith.constant 1 : index
    %zero = arith.constant 0.0 : f64
    %s = scf.for %k = %c0 to %c2 step %c1 iter_args(%acc = %zero) -> (f64) {
      // expected-error@+1 {{'stencil.gather' op reads an array inside 'scf.for', but access ops must sit directly in the stencil.domain body; read it before the 'scf.for'}}
      %y = stencil.gather %u[0] : memref<?xf64>
      %t = arith.addf %acc, %y : f64
      scf.yield %t : f64
    }
    stencil.store %s to %r : memref<?xf64>
  }
  return
}

// -----

func.func @alloca_in_scf_if(%u: memref<?xf64>, %r: memref<?xf64>, %n: index, %b: i1) {
  stencil.domain (%i) = (0) to (%n) {
    %x = stencil.gather %u[0] : memref<?xf64>
    scf.if %b {
      // expected-error@+1 {{'memref.alloca' op has memory effects, which a stencil.domain body does not allow; access arrays with stencil.gather, stencil.store and stencil.accumulate}}
      %t = memref.alloca() : memref<f64>
    }
    stencil.store %x to %r : memref<?xf64>
  }
  return
}

// -----

//===----------------------------------------------------------------------===//
// Domain: nesting, results, terminator
//===----------------------------------------------------------------------===//

func.func @nested(%u: memref<?x?xf64>, %r: memref<?x?xf64>, %n: index) {
  stencil.domain (%i) = (0) to (%n) {
    // expected-error@+1 {{'stencil.domain' op cannot be nested in another stencil.domain}}
    stencil.domain (%j) = (0) to (%n) {
    }
  }
  return
}

// -----

func.func @yield_type(%u: memref<?xf64>, %n: index) {
  %s = stencil.domain (%i) = (0) to (%n) -> (f64) {
    %x = stencil.gather %u[0] : memref<?xf64>
    %y = arith.truncf %x : f64 to f32
    // expected-error@+1 {{'stencil.yield' op yields ('f32') but the domain returns ('f64')}}
    stencil.yield %y : f32
  }
  return
}

// -----

func.func @yield_count(%u: memref<?xf64>, %n: index) {
  stencil.domain (%i) = (0) to (%n) {
    %x = stencil.gather %u[0] : memref<?xf64>
    // expected-error@+1 {{'stencil.yield' op yields ('f64') but the domain returns ()}}
    stencil.yield %x : f64
  }
  return
}

// -----

// A domain with results has no implicit terminator.
func.func @missing_yield(%u: memref<?xf64>, %n: index) {
  %s = stencil.domain (%i) = (0) to (%n) -> (f64) {
    // expected-error@+1 {{block with no terminator}}
    %x = stencil.gather %u[0] : memref<?xf64>
  }
  return
}

// -----

func.func @yield_outside_domain() {
  // expected-error@+1 {{'stencil.yield' op expects parent op 'stencil.domain'}}
  stencil.yield
}

// -----

func.func @result_type(%u: memref<?xf64>, %n: index) {
  // expected-error@+1 {{'stencil.domain' op result #0 must be variadic of f32 or f64, but got 'i32'}}
  %s = stencil.domain (%i) = (0) to (%n) -> (i32) {
    %c = arith.constant 0 : i32
    stencil.yield %c : i32
  }
  return
}

// -----

// Generic form: the custom parser creates exactly one block.
func.func @two_blocks(%n: index) {
  // expected-error@+1 {{'stencil.domain' op expects region #0 to have 0 or 1 blocks}}
  "stencil.domain"(%n) <{lowerBounds = affine_map<()[s0] -> (0)>, upperBounds = affine_map<()[s0] -> (s0)>}> ({
  ^bb0(%i: index):
    cf.br ^bb1
  ^bb1:
    "stencil.yield"() : () -> ()
  }) : (index) -> ()
  return
}

// -----

//===----------------------------------------------------------------------===//
// Domain: dimensions and block arguments
//===----------------------------------------------------------------------===//

// The custom parser accepts empty lists; the verifier rejects them.
func.func @zero_dims() {
  // expected-error@+1 {{'stencil.domain' op must have at least one dimension}}
  stencil.domain () = () to () {
  }
  return
}

// -----

// The same in generic form.
func.func @zero_dims_generic() {
  // expected-error@+1 {{'stencil.domain' op must have at least one dimension}}
  "stencil.domain"() <{lowerBounds = affine_map<() -> ()>, upperBounds = affine_map<() -> ()>}> ({
  ^bb0:
    "stencil.yield"() : () -> ()
  }) : () -> ()
  return
}

// -----

// The custom parser checks the number of bounds against the ivs.
func.func @bounds_vs_ivs(%n: index) {
  // expected-error@+1 {{custom op 'stencil.domain' expected 2 lower and upper bounds, one per iteration dimension}}
  stencil.domain (%i, %j) = (0, 0) to (%n) {
  }
  return
}

// -----

// Generic form: the custom parser derives the block arguments from the ivs.
func.func @num_block_args(%n: index) {
  // expected-error@+1 {{'stencil.domain' op body has 2 argument(s) but the domain has 1 dimension(s)}}
  "stencil.domain"(%n) <{lowerBounds = affine_map<()[s0] -> (0)>, upperBounds = affine_map<()[s0] -> (s0)>}> ({
  ^bb0(%i: index, %j: index):
    "stencil.yield"() : () -> ()
  }) : (index) -> ()
  return
}

// -----

// Generic form: the custom parser gives the block arguments index type.
func.func @block_arg_type(%n: index) {
  // expected-error@+1 {{'stencil.domain' op body arguments must be of index type}}
  "stencil.domain"(%n) <{lowerBounds = affine_map<()[s0] -> (0)>, upperBounds = affine_map<()[s0] -> (s0)>}> ({
  ^bb0(%i: i64):
    "stencil.yield"() : () -> ()
  }) : (index) -> ()
  return
}

// -----

//===----------------------------------------------------------------------===//
// Domain: bounds
//===----------------------------------------------------------------------===//

// Generic form: the custom parser builds both maps from the iv list. (The
// rank is the number of lower bounds, so only the upper map can disagree.)
func.func @num_upper_bounds(%n: index) {
  // expected-error@+1 {{'stencil.domain' op has 2 upper bounds but 1 dimensions}}
  "stencil.domain"(%n) <{lowerBounds = affine_map<()[s0] -> (0)>, upperBounds = affine_map<()[s0] -> (s0, s0)>}> ({
  ^bb0(%i: index):
    "stencil.yield"() : () -> ()
  }) : (index) -> ()
  return
}

// -----

// Generic form: a bound map's dimensions are the coordinates, and dimension
// 0's bound cannot use its own.
func.func @bounds_with_dims(%n: index) {
  // expected-error@+1 {{'stencil.domain' op lower bound #0 uses the coordinate of dimension 0 (d0); a bound may use only the coordinates of the dimensions before its own}}
  "stencil.domain"(%n) <{lowerBounds = affine_map<(d0)[s0] -> (d0)>, upperBounds = affine_map<()[s0] -> (s0)>}> ({
  ^bb0(%i: index):
    "stencil.yield"() : () -> ()
  }) : (index) -> ()
  return
}

// -----

// Generic form: likewise for an upper bound.
func.func @upper_bounds_with_dims(%n: index) {
  // expected-error@+1 {{'stencil.domain' op upper bound #0 uses the coordinate of dimension 0 (d0 + s0); a bound may use only the coordinates of the dimensions before its own}}
  "stencil.domain"(%n) <{lowerBounds = affine_map<()[s0] -> (0)>, upperBounds = affine_map<(d0)[s0] -> (d0 + s0)>}> ({
  ^bb0(%i: index):
    "stencil.yield"() : () -> ()
  }) : (index) -> ()
  return
}

// -----

// Generic form: the custom parser creates one operand per distinct id.
func.func @num_symbols(%n: index) {
  // expected-error@+1 {{'stencil.domain' op lower bounds expect 2 symbols but 1 bound operands are given}}
  "stencil.domain"(%n) <{lowerBounds = affine_map<()[s0, s1] -> (s1)>, upperBounds = affine_map<()[s0] -> (s0)>}> ({
  ^bb0(%i: index):
    "stencil.yield"() : () -> ()
  }) : (index) -> ()
  return
}

// -----

// Generic form: the custom parser reads bare ids as dims, and dims cannot be
// multiplied together (see @semi_affine_bare_ids below).
func.func @semi_affine(%n: index, %m: index) {
  // expected-error@+1 {{'stencil.domain' op upper bound #0 is not affine in the symbols and outer coordinates: s0 * s1}}
  "stencil.domain"(%n, %m) <{lowerBounds = affine_map<()[s0, s1] -> (0)>, upperBounds = affine_map<()[s0, s1] -> (s0 * s1)>}> ({
  ^bb0(%i: index):
    "stencil.yield"() : () -> ()
  }) : (index, index) -> ()
  return
}

// -----

// Divisors must be positive constants (upstream lower-affine cannot expand
// a non-positive one and used to crash on it).
func.func @mod_by_zero(%u: memref<?xf64>, %r: memref<?xf64>, %n: index) {
  // expected-error@+1 {{'stencil.domain' op lower bound #0 divides by 0: s0 mod 0; the divisor of mod, floordiv and ceildiv must be a positive constant}}
  stencil.domain (%i) = (%n mod 0) to (%n) {
    %x = stencil.gather %u[0] : memref<?xf64>
    stencil.store %x to %r : memref<?xf64>
  }
  return
}

// -----

func.func @floordiv_by_negative(%r: memref<?x?xf64>, %n: index) {
  // expected-error@+1 {{'stencil.domain' op upper bound #1 divides by -2: s0 floordiv -2; the divisor of mod, floordiv and ceildiv must be a positive constant}}
  stencil.domain (%i, %j) = (0, 0) to (%n, %n floordiv -2) {
    %c = arith.constant 1.0 : f64
    stencil.store %c to %r : memref<?x?xf64>
  }
  return
}

// -----

func.func @ceildiv_by_min(%r: memref<?xf64>, %n: index) {
  // expected-error@+1 {{'stencil.domain' op upper bound #0 divides by -2147483648}}
  stencil.domain (%i) = (0) to (%n ceildiv -2147483648) {
    %c = arith.constant 1.0 : f64
    stencil.store %c to %r : memref<?xf64>
  }
  return
}

// -----

// Constants in bounds are limited so that bound arithmetic cannot overflow.
func.func @bound_constant_too_large(%r: memref<?xf64>, %n: index) {
  // expected-error@+1 {{'stencil.domain' op upper bound #0 has the constant 9223372036854775807: s0 + 9223372036854775807; constants in bounds must lie in [-2^40, 2^40] so that index arithmetic cannot overflow}}
  stencil.domain (%i) = (0) to (%n + 9223372036854775807) {
    %c = arith.constant 1.0 : f64
    stencil.store %c to %r : memref<?xf64>
  }
  return
}

// -----

func.func @bound_coefficient_too_large(%r: memref<?xf64>, %n: index) {
  // expected-error@+1 {{'stencil.domain' op lower bound #0 has the constant 1099511627777}}
  stencil.domain (%i) = (%n * 1099511627777) to (%n) {
    %c = arith.constant 1.0 : f64
    stencil.store %c to %r : memref<?xf64>
  }
  return
}

// -----

// The limits themselves are accepted (no diagnostic expected).
func.func @constants_at_limit(%u: memref<?xf64>, %r: memref<?xf64>, %n: index) {
  stencil.domain (%i) = (-1099511627776) to (%n * 1099511627776) {
    %x = stencil.gather %u[-1099511627776] : memref<?xf64>
    stencil.store %x to %r : memref<?xf64>
  }
  return
}

// -----

// Spelled with `symbol(...)`, the product parses and the verifier rejects it.
func.func @semi_affine_symbols(%n: index, %m: index) {
  // expected-error@+1 {{'stencil.domain' op lower bound #1 is not affine in the symbols and outer coordinates: s0 * s1}}
  stencil.domain (%i, %j) = (0, symbol(%n) * symbol(%m)) to (%n, %n) {
  }
  return
}

// -----

// With bare ids the affine parser itself rejects the product.
func.func @semi_affine_bare_ids(%n: index, %m: index) {
  // expected-error@+1 {{non-affine expression: at least one of the multiply operands has to be either a constant or symbolic}}
  stencil.domain (%i) = (0) to (%n * %m) {
  }
  return
}

// -----

// Generic form: the custom parser resolves every bound id as an index.
func.func @bound_operand_type(%n: i64) {
  // expected-error@+1 {{'stencil.domain' op operand #0 must be variadic of index, but got 'i64'}}
  "stencil.domain"(%n) <{lowerBounds = affine_map<()[s0] -> (0)>, upperBounds = affine_map<()[s0] -> (s0)>}> ({
  ^bb0(%i: index):
    "stencil.yield"() : () -> ()
  }) : (i64) -> ()
  return
}

// -----

// The custom parser resolves every bound id as an index.
func.func @bound_operand_type_custom(%n: i64) {
  // expected-note@-1 {{prior use here}}
  // expected-error@+1 {{use of value '%n' expects different type than prior uses: 'index' vs 'i64'}}
  stencil.domain (%i) = (0) to (%n) {
  }
  return
}

// -----

// Generic form: the custom parser always sets both bound maps.
func.func @missing_bounds(%n: index) {
  // expected-error@+1 {{'stencil.domain' op requires attribute 'lowerBounds'}}
  "stencil.domain"(%n) <{upperBounds = affine_map<()[s0] -> (s0)>}> ({
  ^bb0(%i: index):
    "stencil.yield"() : () -> ()
  }) : (index) -> ()
  return
}

// -----

// A coordinate names an outer dimension in the bounds of inner ones only
// (nonrect-invalid.mlir has the others).
func.func @iv_in_bounds(%n: index) {
  // expected-error@+1 {{'stencil.domain' op lower bound #0 uses the coordinate of dimension 0 (d0); a bound may use only the coordinates of the dimensions before its own}}
  stencil.domain (%i) = (%i) to (%n) {
  }
  return
}
