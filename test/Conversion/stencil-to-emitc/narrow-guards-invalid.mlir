// RUN: stencil-opt %s -split-input-file -verify-diagnostics --stencil-narrow-guards

// Only the guards' arithmetic is narrowed; any other use of 128-bit integers
// has no C99 form, and is refused where it stands.

func.func @extend(%x: i64) -> i128 {
  // expected-error@+1 {{'arith.extsi' op uses 128-bit integers, which C99 has not: the C source route narrows only the domains' guards}}
  %y = arith.extsi %x : i64 to i128
  return %y : i128
}

// -----

func.func @huge() -> i1 {
  // expected-error@+1 {{a domain guard's constant does not fit in 64 bits, which the C source route needs}}
  %big = arith.constant 170141183460469231731687303715884105727 : i128
  %zero = arith.constant 0 : i128
  %less = arith.cmpi slt, %zero, %big : i128
  return %less : i1
}
