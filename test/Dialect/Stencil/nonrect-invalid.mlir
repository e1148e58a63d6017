// RUN: stencil-opt %s -split-input-file -verify-diagnostics

// The refusals of nonrectangular bounds: one case per diagnostic. Cases
// that the custom parser would build differently use the generic form.

// A bound may use only the coordinates of outer dimensions.
func.func @own_coordinate(%n: index) {
  // expected-error@+1 {{'stencil.domain' op lower bound #1 uses the coordinate of dimension 1 (d1); a bound may use only the coordinates of the dimensions before its own}}
  stencil.domain (%i, %j) = (0, %j) to (%n, %n) {
  }
  return
}

// -----

func.func @inner_coordinate(%n: index) {
  // expected-error@+1 {{'stencil.domain' op upper bound #0 uses the coordinate of dimension 1 (d1 + 1); a bound may use only the coordinates of the dimensions before its own}}
  stencil.domain (%i, %j) = (0, 0) to (%j + 1, %n) {
  }
  return
}

// -----

func.func @max_of_inner(%n: index) {
  // expected-error@+1 {{'stencil.domain' op lower bound #1 uses the coordinate of dimension 2 (d2); a bound may use only the coordinates of the dimensions before its own}}
  stencil.domain (%i, %j, %k) = (0, max(%i, %k), 0) to (%n, %n, %n) {
  }
  return
}

// -----

// Coordinates cannot be multiplied together.
func.func @coordinate_product(%n: index) {
  // expected-error@+1 {{'stencil.domain' op upper bound #1 is not affine in the symbols and outer coordinates: d0 * s0}}
  stencil.domain (%i, %j) = (0, 0) to (%n, symbol(%n) * %i) {
  }
  return
}

// -----

// A max in an upper bound (min in a lower one) is no bound: `max` reads
// as an undeclared id.
func.func @max_upper(%n: index) {
  // expected-error@+1 {{use of undeclared identifier}}
  stencil.domain (%i, %j) = (0, 0) to (%n, max(%i, %n)) {
  }
  return
}

// -----

func.func @counts_size(%n: index) {
  // expected-error@+1 {{'stencil.domain' op has 1 upper bound counts but 2 dimensions}}
  "stencil.domain"(%n) <{lowerBounds = affine_map<(d0, d1)[s0] -> (0, 0)>, upperBounds = affine_map<(d0, d1)[s0] -> (s0, s0)>, upperCounts = array<i32: 2>}> ({
  ^bb0(%i: index, %j: index):
    "stencil.yield"() : () -> ()
  }) : (index) -> ()
  return
}

// -----

func.func @counts_sum(%n: index) {
  // expected-error@+1 {{'stencil.domain' op upper bound counts add up to 3 but the map has 2 results}}
  "stencil.domain"(%n) <{lowerBounds = affine_map<(d0, d1)[s0] -> (0, d0)>, upperBounds = affine_map<(d0, d1)[s0] -> (s0, s0)>, upperCounts = array<i32: 1, 2>}> ({
  ^bb0(%i: index, %j: index):
    "stencil.yield"() : () -> ()
  }) : (index) -> ()
  return
}

// -----

func.func @counts_zero(%n: index) {
  // expected-error@+1 {{'stencil.domain' op lower bound counts must be positive, one or more expressions per dimension}}
  "stencil.domain"(%n) <{lowerBounds = affine_map<(d0, d1)[s0] -> (0, 0)>, lowerCounts = array<i32: 2, 0>, upperBounds = affine_map<(d0, d1)[s0] -> (s0, s0)>}> ({
  ^bb0(%i: index, %j: index):
    "stencil.yield"() : () -> ()
  }) : (index) -> ()
  return
}

// -----

func.func @map_dims(%n: index) {
  // expected-error@+1 {{'stencil.domain' op lower bounds have 1 dimensions; a bound map is over the 2 coordinates of the domain, or over none}}
  "stencil.domain"(%n) <{lowerBounds = affine_map<(d0)[s0] -> (0, d0)>, upperBounds = affine_map<(d0, d1)[s0] -> (s0, s0)>}> ({
  ^bb0(%i: index, %j: index):
    "stencil.yield"() : () -> ()
  }) : (index) -> ()
  return
}
