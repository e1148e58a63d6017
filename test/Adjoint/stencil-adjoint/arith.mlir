// RUN: stencil-opt %s --stencil-adjoint | FileCheck %s

// The derivative rules of the arith dialect (lib/Adjoint/Rules/
// ArithRules.cpp). Each function computes r[i] = op(u[i-1], v[i+1]) with
// u, v and r active; the checks follow the seed rb[i] through the rule to
// the accumulates into ub[i-1] and vb[i+1].

// z = a + b: ab += zb, bb += zb.
// CHECK-LABEL: func.func @addf_adjoint(
// CHECK-SAME: %[[U:[^:]*]]: memref<?xf64>, %[[V:[^:]*]]: memref<?xf64>, %{{[^:]*}}: memref<?xf64>, %{{[^:]*}}: index, %[[UB:[^:]*]]: memref<?xf64>, %[[VB:[^:]*]]: memref<?xf64>, %[[RB:[^:]*]]: memref<?xf64>)
// CHECK-DAG: %[[G:.*]] = stencil.gather %[[RB]][0] : memref<?xf64>
// CHECK-DAG: stencil.accumulate %[[G]] to %[[UB]][-1] : memref<?xf64>
// CHECK-DAG: stencil.accumulate %[[G]] to %[[VB]][1] : memref<?xf64>
func.func @addf(%u: memref<?xf64> {stencil.active}, %v: memref<?xf64> {stencil.active},
               %r: memref<?xf64> {stencil.active}, %n: index) {
  stencil.domain (%i) = (1) to (%n - 1) {
    %a = stencil.gather %u[-1] : memref<?xf64>
    %b = stencil.gather %v[1] : memref<?xf64>
    %z = arith.addf %a, %b : f64
    stencil.store %z to %r : memref<?xf64>
  }
  return
}

// z = a - b: ab += zb, bb -= zb.
// CHECK-LABEL: func.func @subf_adjoint(
// CHECK-SAME: %[[U:[^:]*]]: memref<?xf64>, %[[V:[^:]*]]: memref<?xf64>, %{{[^:]*}}: memref<?xf64>, %{{[^:]*}}: index, %[[UB:[^:]*]]: memref<?xf64>, %[[VB:[^:]*]]: memref<?xf64>, %[[RB:[^:]*]]: memref<?xf64>)
// CHECK-DAG: %[[G:.*]] = stencil.gather %[[RB]][0] : memref<?xf64>
// CHECK-DAG: %[[NEG:.*]] = arith.negf %[[G]] : f64
// CHECK-DAG: stencil.accumulate %[[G]] to %[[UB]][-1] : memref<?xf64>
// CHECK-DAG: stencil.accumulate %[[NEG]] to %[[VB]][1] : memref<?xf64>
func.func @subf(%u: memref<?xf64> {stencil.active}, %v: memref<?xf64> {stencil.active},
               %r: memref<?xf64> {stencil.active}, %n: index) {
  stencil.domain (%i) = (1) to (%n - 1) {
    %a = stencil.gather %u[-1] : memref<?xf64>
    %b = stencil.gather %v[1] : memref<?xf64>
    %z = arith.subf %a, %b : f64
    stencil.store %z to %r : memref<?xf64>
  }
  return
}

// z = a * b: ab += zb * b, bb += zb * a.
// CHECK-LABEL: func.func @mulf_adjoint(
// CHECK-SAME: %[[U:[^:]*]]: memref<?xf64>, %[[V:[^:]*]]: memref<?xf64>, %{{[^:]*}}: memref<?xf64>, %{{[^:]*}}: index, %[[UB:[^:]*]]: memref<?xf64>, %[[VB:[^:]*]]: memref<?xf64>, %[[RB:[^:]*]]: memref<?xf64>)
// CHECK-DAG: %[[A:.*]] = stencil.gather %[[U]][-1] : memref<?xf64>
// CHECK-DAG: %[[B:.*]] = stencil.gather %[[V]][1] : memref<?xf64>
// CHECK-DAG: %[[G:.*]] = stencil.gather %[[RB]][0] : memref<?xf64>
// CHECK-DAG: %[[DA:.*]] = arith.mulf %[[G]], %[[B]] : f64
// CHECK-DAG: %[[DB:.*]] = arith.mulf %[[G]], %[[A]] : f64
// CHECK-DAG: stencil.accumulate %[[DA]] to %[[UB]][-1] : memref<?xf64>
// CHECK-DAG: stencil.accumulate %[[DB]] to %[[VB]][1] : memref<?xf64>
func.func @mulf(%u: memref<?xf64> {stencil.active}, %v: memref<?xf64> {stencil.active},
               %r: memref<?xf64> {stencil.active}, %n: index) {
  stencil.domain (%i) = (1) to (%n - 1) {
    %a = stencil.gather %u[-1] : memref<?xf64>
    %b = stencil.gather %v[1] : memref<?xf64>
    %z = arith.mulf %a, %b : f64
    stencil.store %z to %r : memref<?xf64>
  }
  return
}

// z = a / b: ab += zb / b, bb += zb * -(z / b).
// CHECK-LABEL: func.func @divf_adjoint(
// CHECK-SAME: %[[U:[^:]*]]: memref<?xf64>, %[[V:[^:]*]]: memref<?xf64>, %{{[^:]*}}: memref<?xf64>, %{{[^:]*}}: index, %[[UB:[^:]*]]: memref<?xf64>, %[[VB:[^:]*]]: memref<?xf64>, %[[RB:[^:]*]]: memref<?xf64>)
// CHECK-DAG: %[[A:.*]] = stencil.gather %[[U]][-1] : memref<?xf64>
// CHECK-DAG: %[[B:.*]] = stencil.gather %[[V]][1] : memref<?xf64>
// CHECK-DAG: %[[G:.*]] = stencil.gather %[[RB]][0] : memref<?xf64>
// CHECK-DAG: %[[Z:.*]] = arith.divf %[[A]], %[[B]] : f64
// CHECK-DAG: %[[DA:.*]] = arith.divf %[[G]], %[[B]] : f64
// CHECK-DAG: %[[ZB:.*]] = arith.divf %[[Z]], %[[B]] : f64
// CHECK-DAG: %[[NZB:.*]] = arith.negf %[[ZB]] : f64
// CHECK-DAG: %[[DB:.*]] = arith.mulf %[[G]], %[[NZB]] : f64
// CHECK-DAG: stencil.accumulate %[[DA]] to %[[UB]][-1] : memref<?xf64>
// CHECK-DAG: stencil.accumulate %[[DB]] to %[[VB]][1] : memref<?xf64>
func.func @divf(%u: memref<?xf64> {stencil.active}, %v: memref<?xf64> {stencil.active},
               %r: memref<?xf64> {stencil.active}, %n: index) {
  stencil.domain (%i) = (1) to (%n - 1) {
    %a = stencil.gather %u[-1] : memref<?xf64>
    %b = stencil.gather %v[1] : memref<?xf64>
    %z = arith.divf %a, %b : f64
    stencil.store %z to %r : memref<?xf64>
  }
  return
}

// z = a - trunc(a / b) * b: ab += zb, bb += zb * -trunc(a / b).
// CHECK-LABEL: func.func @remf_adjoint(
// CHECK-SAME: %[[U:[^:]*]]: memref<?xf64>, %[[V:[^:]*]]: memref<?xf64>, %{{[^:]*}}: memref<?xf64>, %{{[^:]*}}: index, %[[UB:[^:]*]]: memref<?xf64>, %[[VB:[^:]*]]: memref<?xf64>, %[[RB:[^:]*]]: memref<?xf64>)
// CHECK-DAG: %[[A:.*]] = stencil.gather %[[U]][-1] : memref<?xf64>
// CHECK-DAG: %[[B:.*]] = stencil.gather %[[V]][1] : memref<?xf64>
// CHECK-DAG: %[[G:.*]] = stencil.gather %[[RB]][0] : memref<?xf64>
// CHECK-DAG: %[[Q:.*]] = arith.divf %[[A]], %[[B]] : f64
// CHECK-DAG: %[[T:.*]] = math.trunc %[[Q]] : f64
// CHECK-DAG: %[[NT:.*]] = arith.negf %[[T]] : f64
// CHECK-DAG: %[[DB:.*]] = arith.mulf %[[G]], %[[NT]] : f64
// CHECK-DAG: stencil.accumulate %[[G]] to %[[UB]][-1] : memref<?xf64>
// CHECK-DAG: stencil.accumulate %[[DB]] to %[[VB]][1] : memref<?xf64>
func.func @remf(%u: memref<?xf64> {stencil.active}, %v: memref<?xf64> {stencil.active},
               %r: memref<?xf64> {stencil.active}, %n: index) {
  stencil.domain (%i) = (1) to (%n - 1) {
    %a = stencil.gather %u[-1] : memref<?xf64>
    %b = stencil.gather %v[1] : memref<?xf64>
    %z = arith.remf %a, %b : f64
    stencil.store %z to %r : memref<?xf64>
  }
  return
}

// z = maximumf(a, b): the whole adjoint goes to a where a >= b (ties go to
// the first operand), to b elsewhere.
// CHECK-LABEL: func.func @maximumf_adjoint(
// CHECK-SAME: %[[U:[^:]*]]: memref<?xf64>, %[[V:[^:]*]]: memref<?xf64>, %{{[^:]*}}: memref<?xf64>, %{{[^:]*}}: index, %[[UB:[^:]*]]: memref<?xf64>, %[[VB:[^:]*]]: memref<?xf64>, %[[RB:[^:]*]]: memref<?xf64>)
// CHECK-DAG: %[[A:.*]] = stencil.gather %[[U]][-1] : memref<?xf64>
// CHECK-DAG: %[[B:.*]] = stencil.gather %[[V]][1] : memref<?xf64>
// CHECK-DAG: %[[G:.*]] = stencil.gather %[[RB]][0] : memref<?xf64>
// CHECK-DAG: %[[ZERO:.*]] = arith.constant 0.000000e+00 : f64
// CHECK-DAG: %[[FIRST:.*]] = arith.cmpf oge, %[[A]], %[[B]] : f64
// CHECK-DAG: %[[DA:.*]] = arith.select %[[FIRST]], %[[G]], %[[ZERO]] : f64
// CHECK-DAG: %[[DB:.*]] = arith.select %[[FIRST]], %[[ZERO]], %[[G]] : f64
// CHECK-DAG: stencil.accumulate %[[DA]] to %[[UB]][-1] : memref<?xf64>
// CHECK-DAG: stencil.accumulate %[[DB]] to %[[VB]][1] : memref<?xf64>
func.func @maximumf(%u: memref<?xf64> {stencil.active}, %v: memref<?xf64> {stencil.active},
                   %r: memref<?xf64> {stencil.active}, %n: index) {
  stencil.domain (%i) = (1) to (%n - 1) {
    %a = stencil.gather %u[-1] : memref<?xf64>
    %b = stencil.gather %v[1] : memref<?xf64>
    %z = arith.maximumf %a, %b : f64
    stencil.store %z to %r : memref<?xf64>
  }
  return
}

// z = maxnumf(a, b): the whole adjoint goes to a where a >= b (ties go to
// the first operand), to b elsewhere.
// CHECK-LABEL: func.func @maxnumf_adjoint(
// CHECK-SAME: %[[U:[^:]*]]: memref<?xf64>, %[[V:[^:]*]]: memref<?xf64>, %{{[^:]*}}: memref<?xf64>, %{{[^:]*}}: index, %[[UB:[^:]*]]: memref<?xf64>, %[[VB:[^:]*]]: memref<?xf64>, %[[RB:[^:]*]]: memref<?xf64>)
// CHECK-DAG: %[[A:.*]] = stencil.gather %[[U]][-1] : memref<?xf64>
// CHECK-DAG: %[[B:.*]] = stencil.gather %[[V]][1] : memref<?xf64>
// CHECK-DAG: %[[G:.*]] = stencil.gather %[[RB]][0] : memref<?xf64>
// CHECK-DAG: %[[ZERO:.*]] = arith.constant 0.000000e+00 : f64
// CHECK-DAG: %[[FIRST:.*]] = arith.cmpf oge, %[[A]], %[[B]] : f64
// CHECK-DAG: %[[DA:.*]] = arith.select %[[FIRST]], %[[G]], %[[ZERO]] : f64
// CHECK-DAG: %[[DB:.*]] = arith.select %[[FIRST]], %[[ZERO]], %[[G]] : f64
// CHECK-DAG: stencil.accumulate %[[DA]] to %[[UB]][-1] : memref<?xf64>
// CHECK-DAG: stencil.accumulate %[[DB]] to %[[VB]][1] : memref<?xf64>
func.func @maxnumf(%u: memref<?xf64> {stencil.active}, %v: memref<?xf64> {stencil.active},
                  %r: memref<?xf64> {stencil.active}, %n: index) {
  stencil.domain (%i) = (1) to (%n - 1) {
    %a = stencil.gather %u[-1] : memref<?xf64>
    %b = stencil.gather %v[1] : memref<?xf64>
    %z = arith.maxnumf %a, %b : f64
    stencil.store %z to %r : memref<?xf64>
  }
  return
}

// z = minimumf(a, b): the whole adjoint goes to a where a <= b (ties go to
// the first operand), to b elsewhere.
// CHECK-LABEL: func.func @minimumf_adjoint(
// CHECK-SAME: %[[U:[^:]*]]: memref<?xf64>, %[[V:[^:]*]]: memref<?xf64>, %{{[^:]*}}: memref<?xf64>, %{{[^:]*}}: index, %[[UB:[^:]*]]: memref<?xf64>, %[[VB:[^:]*]]: memref<?xf64>, %[[RB:[^:]*]]: memref<?xf64>)
// CHECK-DAG: %[[A:.*]] = stencil.gather %[[U]][-1] : memref<?xf64>
// CHECK-DAG: %[[B:.*]] = stencil.gather %[[V]][1] : memref<?xf64>
// CHECK-DAG: %[[G:.*]] = stencil.gather %[[RB]][0] : memref<?xf64>
// CHECK-DAG: %[[ZERO:.*]] = arith.constant 0.000000e+00 : f64
// CHECK-DAG: %[[FIRST:.*]] = arith.cmpf ole, %[[A]], %[[B]] : f64
// CHECK-DAG: %[[DA:.*]] = arith.select %[[FIRST]], %[[G]], %[[ZERO]] : f64
// CHECK-DAG: %[[DB:.*]] = arith.select %[[FIRST]], %[[ZERO]], %[[G]] : f64
// CHECK-DAG: stencil.accumulate %[[DA]] to %[[UB]][-1] : memref<?xf64>
// CHECK-DAG: stencil.accumulate %[[DB]] to %[[VB]][1] : memref<?xf64>
func.func @minimumf(%u: memref<?xf64> {stencil.active}, %v: memref<?xf64> {stencil.active},
                   %r: memref<?xf64> {stencil.active}, %n: index) {
  stencil.domain (%i) = (1) to (%n - 1) {
    %a = stencil.gather %u[-1] : memref<?xf64>
    %b = stencil.gather %v[1] : memref<?xf64>
    %z = arith.minimumf %a, %b : f64
    stencil.store %z to %r : memref<?xf64>
  }
  return
}

// z = minnumf(a, b): the whole adjoint goes to a where a <= b (ties go to
// the first operand), to b elsewhere.
// CHECK-LABEL: func.func @minnumf_adjoint(
// CHECK-SAME: %[[U:[^:]*]]: memref<?xf64>, %[[V:[^:]*]]: memref<?xf64>, %{{[^:]*}}: memref<?xf64>, %{{[^:]*}}: index, %[[UB:[^:]*]]: memref<?xf64>, %[[VB:[^:]*]]: memref<?xf64>, %[[RB:[^:]*]]: memref<?xf64>)
// CHECK-DAG: %[[A:.*]] = stencil.gather %[[U]][-1] : memref<?xf64>
// CHECK-DAG: %[[B:.*]] = stencil.gather %[[V]][1] : memref<?xf64>
// CHECK-DAG: %[[G:.*]] = stencil.gather %[[RB]][0] : memref<?xf64>
// CHECK-DAG: %[[ZERO:.*]] = arith.constant 0.000000e+00 : f64
// CHECK-DAG: %[[FIRST:.*]] = arith.cmpf ole, %[[A]], %[[B]] : f64
// CHECK-DAG: %[[DA:.*]] = arith.select %[[FIRST]], %[[G]], %[[ZERO]] : f64
// CHECK-DAG: %[[DB:.*]] = arith.select %[[FIRST]], %[[ZERO]], %[[G]] : f64
// CHECK-DAG: stencil.accumulate %[[DA]] to %[[UB]][-1] : memref<?xf64>
// CHECK-DAG: stencil.accumulate %[[DB]] to %[[VB]][1] : memref<?xf64>
func.func @minnumf(%u: memref<?xf64> {stencil.active}, %v: memref<?xf64> {stencil.active},
                  %r: memref<?xf64> {stencil.active}, %n: index) {
  stencil.domain (%i) = (1) to (%n - 1) {
    %a = stencil.gather %u[-1] : memref<?xf64>
    %b = stencil.gather %v[1] : memref<?xf64>
    %z = arith.minnumf %a, %b : f64
    stencil.store %z to %r : memref<?xf64>
  }
  return
}

// z = -a: ab -= zb.
// CHECK-LABEL: func.func @negf_adjoint(
// CHECK-SAME: %[[U:[^:]*]]: memref<?xf64>, %{{[^:]*}}: memref<?xf64>, %{{[^:]*}}: index, %[[UB:[^:]*]]: memref<?xf64>, %[[RB:[^:]*]]: memref<?xf64>)
// CHECK: %[[G:.*]] = stencil.gather %[[RB]][0] : memref<?xf64>
// CHECK: %[[NEG:.*]] = arith.negf %[[G]] : f64
// CHECK: stencil.accumulate %[[NEG]] to %[[UB]][-1] : memref<?xf64>
func.func @negf(%u: memref<?xf64> {stencil.active}, %r: memref<?xf64> {stencil.active},
               %n: index) {
  stencil.domain (%i) = (1) to (%n) {
    %a = stencil.gather %u[-1] : memref<?xf64>
    %z = arith.negf %a : f64
    stencil.store %z to %r : memref<?xf64>
  }
  return
}

// A constant operand is passive: the product rule multiplies by it, and
// nothing is propagated to the constant.
// CHECK-LABEL: func.func @constant_adjoint(
// CHECK-SAME: %[[U:[^:]*]]: memref<?xf64>, %{{[^:]*}}: memref<?xf64>, %{{[^:]*}}: index, %[[UB:[^:]*]]: memref<?xf64>, %[[RB:[^:]*]]: memref<?xf64>)
// CHECK-DAG: %[[K:.*]] = arith.constant 2.500000e+00 : f64
// CHECK-DAG: %[[G:.*]] = stencil.gather %[[RB]][0] : memref<?xf64>
// CHECK: %[[DA:.*]] = arith.mulf %[[G]], %[[K]] : f64
// CHECK-NEXT: stencil.accumulate %[[DA]] to %[[UB]][-1] : memref<?xf64>
// CHECK-NEXT: }
func.func @constant(%u: memref<?xf64> {stencil.active}, %r: memref<?xf64> {stencil.active},
                   %n: index) {
  stencil.domain (%i) = (1) to (%n) {
    %a = stencil.gather %u[-1] : memref<?xf64>
    %k = arith.constant 2.5 : f64
    %z = arith.mulf %k, %a : f64
    stencil.store %z to %r : memref<?xf64>
  }
  return
}

// z = select(cmpf(a, b), a, b): the comparison carries no derivative; the
// adjoint goes to the selected operand (here both operands are active).
// CHECK-LABEL: func.func @cmpf_select_adjoint(
// CHECK-SAME: %[[U:[^:]*]]: memref<?xf64>, %[[V:[^:]*]]: memref<?xf64>, %{{[^:]*}}: memref<?xf64>, %{{[^:]*}}: index, %[[UB:[^:]*]]: memref<?xf64>, %[[VB:[^:]*]]: memref<?xf64>, %[[RB:[^:]*]]: memref<?xf64>)
// CHECK-DAG: %[[A:.*]] = stencil.gather %[[U]][-1] : memref<?xf64>
// CHECK-DAG: %[[B:.*]] = stencil.gather %[[V]][1] : memref<?xf64>
// CHECK-DAG: %[[G:.*]] = stencil.gather %[[RB]][0] : memref<?xf64>
// CHECK-DAG: %[[C:.*]] = arith.cmpf ult, %[[A]], %[[B]] : f64
// CHECK-DAG: %[[ZERO:.*]] = arith.constant 0.000000e+00 : f64
// CHECK-DAG: %[[DA:.*]] = arith.select %[[C]], %[[G]], %[[ZERO]] : f64
// CHECK-DAG: %[[DB:.*]] = arith.select %[[C]], %[[ZERO]], %[[G]] : f64
// CHECK-DAG: stencil.accumulate %[[DA]] to %[[UB]][-1] : memref<?xf64>
// CHECK-DAG: stencil.accumulate %[[DB]] to %[[VB]][1] : memref<?xf64>
// CHECK-NOT: stencil.accumulate
// CHECK: }
func.func @cmpf_select(%u: memref<?xf64> {stencil.active}, %v: memref<?xf64> {stencil.active},
                       %r: memref<?xf64> {stencil.active}, %n: index) {
  stencil.domain (%i) = (1) to (%n - 1) {
    %a = stencil.gather %u[-1] : memref<?xf64>
    %b = stencil.gather %v[1] : memref<?xf64>
    %c = arith.cmpf ult, %a, %b : f64
    %z = arith.select %c, %a, %b : f64
    stencil.store %z to %r : memref<?xf64>
  }
  return
}

// z = extf(a): ab += truncf(zb), in the type of a.
// CHECK-LABEL: func.func @extf_adjoint(
// CHECK-SAME: %[[U:[^:]*]]: memref<?xf32>, %{{[^:]*}}: memref<?xf64>, %{{[^:]*}}: index, %[[UB:[^:]*]]: memref<?xf32>, %[[RB:[^:]*]]: memref<?xf64>)
// CHECK: %[[G:.*]] = stencil.gather %[[RB]][0] : memref<?xf64>
// CHECK: %[[T:.*]] = arith.truncf %[[G]] : f64 to f32
// CHECK: stencil.accumulate %[[T]] to %[[UB]][-1] : memref<?xf32>
func.func @extf(%u: memref<?xf32> {stencil.active}, %r: memref<?xf64> {stencil.active},
               %n: index) {
  stencil.domain (%i) = (1) to (%n) {
    %a = stencil.gather %u[-1] : memref<?xf32>
    %z = arith.extf %a : f32 to f64
    stencil.store %z to %r : memref<?xf64>
  }
  return
}

// z = truncf(a): ab += extf(zb), in the type of a.
// CHECK-LABEL: func.func @truncf_adjoint(
// CHECK-SAME: %[[U:[^:]*]]: memref<?xf64>, %{{[^:]*}}: memref<?xf32>, %{{[^:]*}}: index, %[[UB:[^:]*]]: memref<?xf64>, %[[RB:[^:]*]]: memref<?xf32>)
// CHECK: %[[G:.*]] = stencil.gather %[[RB]][0] : memref<?xf32>
// CHECK: %[[E:.*]] = arith.extf %[[G]] : f32 to f64
// CHECK: stencil.accumulate %[[E]] to %[[UB]][-1] : memref<?xf64>
func.func @truncf(%u: memref<?xf64> {stencil.active}, %r: memref<?xf32> {stencil.active},
                 %n: index) {
  stencil.domain (%i) = (1) to (%n) {
    %a = stencil.gather %u[-1] : memref<?xf64>
    %z = arith.truncf %a : f64 to f32
    stencil.store %z to %r : memref<?xf32>
  }
  return
}
