// RUN: split-file %s %t
// RUN: stencil-opt %t/default.mlir -split-input-file -verify-diagnostics --stencil-adjoint
// RUN: stencil-opt %t/functions.mlir -split-input-file -verify-diagnostics --stencil-adjoint=functions=target

// One case per diagnostic of --stencil-adjoint (lib/Transforms/
// StencilAdjoint.cpp) and of the derivative rules (lib/Adjoint/Rules/).
// default.mlir runs with the default options; functions.mlir names the
// function to differentiate with `functions=target`, for the diagnostics that
// only an explicit list can reach.

//--- default.mlir

//===----------------------------------------------------------------------===//
// Activity and signature
//===----------------------------------------------------------------------===//

// expected-error@+1 {{'func.func' op returns a value of type 'index'; functions to differentiate may only return f32/f64}}
func.func @index_result(%u: memref<?xf64> {stencil.active}, %n: index) -> index {
  return %n : index
}

// -----

// expected-error@+1 {{'func.func' op cannot create its adjoint: a symbol named 'clash_adjoint' already exists}}
func.func @clash(%u: memref<?xf64> {stencil.active}, %n: index) {
  return
}
func.func @clash_adjoint() {
  return
}

//===----------------------------------------------------------------------===//
// Function bodies
//===----------------------------------------------------------------------===//

// -----

// expected-error@+1 {{'func.func' op has several blocks; only straight-line functions can be differentiated}}
func.func @blocks(%u: memref<?xf64> {stencil.active}, %n: index) {
  cf.br ^bb1
^bb1:
  return
}

// -----

func.func @top_level_load(%u: memref<?xf64> {stencil.active}, %n: index) {
  %c0 = arith.constant 0 : index
  // expected-error@+1 {{'memref.load' op reads an active array outside a domain; only passive arrays can be read at the top level of a function to differentiate (not supported yet)}}
  %x = memref.load %u[%c0] : memref<?xf64>
  return
}

// -----

// A loop at the top level is a time loop (time-loop-invalid.mlir); one
// that advances no state has nothing to reverse.
func.func @top_level_loop(%u: memref<?xf64> {stencil.active}, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  // expected-error@+1 {{'scf.for' op carries no state (it rotates no array through iter_args and writes no array); a time loop to differentiate must advance a state}}
  scf.for %k = %c0 to %n step %c1 {
  }
  return
}

// -----

// A call at the top level has (unknown) memory effects.
func.func private @f(f64) -> f64
func.func @top_level_call(%s: f64 {stencil.active}, %n: index) -> f64 {
  // expected-error@+1 {{'func.call' op is not supported yet at the top level of a function to differentiate}}
  %y = func.call @f(%s) : (f64) -> f64
  return %y : f64
}

// -----

// The second domain overwrites u, which the first reads; the third reads the
// new u, so the second must be replayed before the reverse sweep, which would
// clobber the u that the first domain's adjoint needs.
func.func @clobbered(%u: memref<?xf64> {stencil.active}, %a: memref<?xf64> {stencil.active},
                     %r: memref<?xf64> {stencil.active}, %n: index) {
  // expected-note@+1 {{earlier domain reading it}}
  stencil.domain (%i) = (0) to (%n) {
    %x = stencil.gather %u[0] : memref<?xf64>
    %y = arith.mulf %x, %x : f64
    stencil.store %y to %a : memref<?xf64>
  }
  // expected-error@+1 {{'stencil.domain' op overwrites an array that an earlier domain reads, and its result is needed later; differentiating this would need a copy of the array, which is not supported yet}}
  stencil.domain (%i) = (0) to (%n) {
    %x = stencil.gather %a[0] : memref<?xf64>
    stencil.store %x to %u : memref<?xf64>
  }
  stencil.domain (%i) = (0) to (%n) {
    %x = stencil.gather %u[0] : memref<?xf64>
    %y = arith.mulf %x, %x : f64
    stencil.store %y to %r : memref<?xf64>
  }
  return
}

//===----------------------------------------------------------------------===//
// Ops without a rule
//===----------------------------------------------------------------------===//

// -----

func.func @no_rule_in_domain(%u: memref<?xf64> {stencil.active}, %r: memref<?xf64> {stencil.active},
                             %n: index) {
  stencil.domain (%i) = (0) to (%n) {
    %x = stencil.gather %u[0] : memref<?xf64>
    // expected-error@+1 {{'math.erf' op has no adjoint rule}}
    %y = math.erf %x : f64
    stencil.store %y to %r : memref<?xf64>
  }
  return
}

// -----

func.func @no_rule_at_top_level(%s: f64 {stencil.active}, %u: memref<?xf64> {stencil.active},
                                %r: memref<?xf64> {stencil.active}, %n: index) {
  // expected-error@+1 {{'math.erf' op has no adjoint rule}}
  %e = math.erf %s : f64
  stencil.domain (%i) = (0) to (%n) {
    %x = stencil.gather %u[0] : memref<?xf64>
    %y = arith.mulf %x, %e : f64
    stencil.store %y to %r : memref<?xf64>
  }
  return
}

// -----

// Of the region ops only scf.if with results has a rule: the message of the
// others names the two forms of a choice.
func.func @no_rule_index_switch(%u: memref<?xf64> {stencil.active}, %r: memref<?xf64> {stencil.active},
                                %n: index) {
  stencil.domain (%i) = (0) to (%n) {
    %x = stencil.gather %u[0] : memref<?xf64>
    %zero = arith.constant 0.0 : f64
    // expected-error@+1 {{'scf.index_switch' op has no adjoint rule; of the ops with regions only scf.if with results is differentiated: write a choice as arith.select where both values are defined at every point, or as scf.if yielding the value where one may not be (sqrt, log or a division where the condition excludes it)}}
    %y = scf.index_switch %i -> f64
    case 0 {
      scf.yield %x : f64
    }
    default {
      scf.yield %zero : f64
    }
    stencil.store %y to %r : memref<?xf64>
  }
  return
}

// -----

// An op without a rule in an arm of scf.if is reported where it is.
func.func @no_rule_in_scf_if(%u: memref<?xf64> {stencil.active}, %r: memref<?xf64> {stencil.active},
                             %n: index) {
  stencil.domain (%i) = (0) to (%n) {
    %x = stencil.gather %u[0] : memref<?xf64>
    %zero = arith.constant 0.0 : f64
    %c = arith.cmpf ogt, %x, %zero : f64
    %y = scf.if %c -> f64 {
      // expected-error@+1 {{'math.erf' op has no adjoint rule}}
      %e = math.erf %x : f64
      scf.yield %e : f64
    } else {
      scf.yield %zero : f64
    }
    stencil.store %y to %r : memref<?xf64>
  }
  return
}

// -----

// At the top level, scf.if with results is a choice between scalars; other
// region ops are refused.
func.func @top_level_execute_region(%s: f64 {stencil.active}, %u: memref<?xf64> {stencil.active},
                                    %r: memref<?xf64> {stencil.active}, %n: index) {
  // expected-error@+1 {{'scf.execute_region' op is not supported yet at the top level of a function to differentiate (expected stencil.domain, side-effect free scalar ops and scf.if with results, loads from passive arrays, memref.alloc/dealloc)}}
  %e = scf.execute_region -> f64 {
    scf.yield %s : f64
  }
  stencil.domain (%i) = (0) to (%n) {
    %x = stencil.gather %u[0] : memref<?xf64>
    %y = arith.mulf %x, %e : f64
    stencil.store %y to %r : memref<?xf64>
  }
  return
}

// -----

// An op without a rule is fine when its result carries no derivative.
func.func @no_rule_passive(%u: memref<?xf64> {stencil.active}, %c: memref<?xf64>,
                           %r: memref<?xf64> {stencil.active}, %n: index) {
  stencil.domain (%i) = (0) to (%n) {
    %x = stencil.gather %u[0] : memref<?xf64>
    %k = stencil.gather %c[0] : memref<?xf64>
    %e = math.erf %k : f64
    %y = arith.mulf %x, %e : f64
    stencil.store %y to %r : memref<?xf64>
  }
  return
}

//===----------------------------------------------------------------------===//
// func.call and stencil.partials
//===----------------------------------------------------------------------===//

// -----

func.func private @f(f64, f64) -> f64
func.func @no_partials(%u: memref<?xf64> {stencil.active}, %r: memref<?xf64> {stencil.active},
                       %n: index) {
  stencil.domain (%i) = (1) to (%n) {
    %a = stencil.gather %u[-1] : memref<?xf64>
    %b = stencil.gather %u[0] : memref<?xf64>
    // expected-error@+1 {{'func.call' op has no adjoint rule: name the partial derivative of @f with respect to each operand in a `stencil.partials` array of function symbols}}
    %z = func.call @f(%a, %b) : (f64, f64) -> f64
    stencil.store %z to %r : memref<?xf64>
  }
  return
}

// -----

func.func private @f(f64, f64) -> f64
func.func private @df(f64, f64) -> f64
func.func private @df_db(f64) -> f64
func.func @partial_signature(%u: memref<?xf64> {stencil.active}, %r: memref<?xf64> {stencil.active},
                             %n: index) {
  stencil.domain (%i) = (1) to (%n) {
    %a = stencil.gather %u[-1] : memref<?xf64>
    %b = stencil.gather %u[0] : memref<?xf64>
    // expected-error@+1 {{'func.call' op partial derivative @df_db must name a function with the signature of @f}}
    %z = func.call @f(%a, %b) {stencil.partials = [@df, @df_db]} : (f64, f64) -> f64
    stencil.store %z to %r : memref<?xf64>
  }
  return
}

// -----

// A symbol that names no function gets the same message (an entry that is
// not a symbol is the dialect verifier's: test/Dialect/Stencil/attributes.mlir).
func.func private @f(f64, f64) -> f64
func.func private @df(f64, f64) -> f64
func.func @partial_not_a_symbol(%u: memref<?xf64> {stencil.active}, %r: memref<?xf64> {stencil.active},
                                %n: index) {
  stencil.domain (%i) = (1) to (%n) {
    %a = stencil.gather %u[-1] : memref<?xf64>
    %b = stencil.gather %u[0] : memref<?xf64>
    // expected-error@+1 {{'func.call' op partial derivative @missing must name a function with the signature of @f}}
    %z = func.call @f(%a, %b) {stencil.partials = [@df, @missing]} : (f64, f64) -> f64
    stencil.store %z to %r : memref<?xf64>
  }
  return
}


//--- functions.mlir

// expected-error@+1 {{'func.func' op has no argument marked stencil.active}}
func.func @target(%u: memref<?xf64>, %n: index) {
  return
}

// -----

// A declaration has no body.
// expected-error@+1 {{'func.func' op is a declaration; only functions with a body can be differentiated}}
func.func private @target(memref<?xf64> {stencil.active}, index)

// -----

// expected-error@+1 {{stencil-adjoint: no function named 'target'}}
module {
  func.func @other(%u: memref<?xf64> {stencil.active}, %n: index) {
    return
  }
}

