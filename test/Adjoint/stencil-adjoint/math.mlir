// RUN: stencil-opt %s --stencil-adjoint | FileCheck %s

// The derivative rules of the math dialect (lib/Adjoint/Rules/
// MathRules.cpp). Unary ops compute r[i] = op(u[i-1]); each check follows
// the seed rb[i] through the derivative, built from the recomputed primal
// operand a = u[i-1] and result z, to the accumulate into ub[i-1].

// sin' = cos
// CHECK-LABEL: func.func @sin_adjoint(
// CHECK-SAME: %[[U:[^:]*]]: memref<?xf64>, %{{[^:]*}}: memref<?xf64>, %{{[^:]*}}: index, %[[UB:[^:]*]]: memref<?xf64>, %[[RB:[^:]*]]: memref<?xf64>)
// CHECK-DAG: %[[A:.*]] = stencil.gather %[[U]][-1] : memref<?xf64>
// CHECK-DAG: %[[G:.*]] = stencil.gather %[[RB]][0] : memref<?xf64>
// CHECK: %[[D:.*]] = math.cos %[[A]] : f64
// CHECK: %[[DA:.*]] = arith.mulf %[[G]], %[[D]] : f64
// CHECK: stencil.accumulate %[[DA]] to %[[UB]][-1] : memref<?xf64>
func.func @sin(%u: memref<?xf64> {stencil.active}, %r: memref<?xf64> {stencil.active}, %n: index) {
  stencil.domain (%i) = (1) to (%n) {
    %a = stencil.gather %u[-1] : memref<?xf64>
    %z = math.sin %a : f64
    stencil.store %z to %r : memref<?xf64>
  }
  return
}

// cos' = -sin
// CHECK-LABEL: func.func @cos_adjoint(
// CHECK-SAME: %[[U:[^:]*]]: memref<?xf64>, %{{[^:]*}}: memref<?xf64>, %{{[^:]*}}: index, %[[UB:[^:]*]]: memref<?xf64>, %[[RB:[^:]*]]: memref<?xf64>)
// CHECK-DAG: %[[A:.*]] = stencil.gather %[[U]][-1] : memref<?xf64>
// CHECK-DAG: %[[G:.*]] = stencil.gather %[[RB]][0] : memref<?xf64>
// CHECK: %[[S:.*]] = math.sin %[[A]] : f64
// CHECK: %[[D:.*]] = arith.negf %[[S]] : f64
// CHECK: %[[DA:.*]] = arith.mulf %[[G]], %[[D]] : f64
// CHECK: stencil.accumulate %[[DA]] to %[[UB]][-1] : memref<?xf64>
func.func @cos(%u: memref<?xf64> {stencil.active}, %r: memref<?xf64> {stencil.active}, %n: index) {
  stencil.domain (%i) = (1) to (%n) {
    %a = stencil.gather %u[-1] : memref<?xf64>
    %z = math.cos %a : f64
    stencil.store %z to %r : memref<?xf64>
  }
  return
}

// tan' = 1 + z^2
// CHECK-LABEL: func.func @tan_adjoint(
// CHECK-SAME: %[[U:[^:]*]]: memref<?xf64>, %{{[^:]*}}: memref<?xf64>, %{{[^:]*}}: index, %[[UB:[^:]*]]: memref<?xf64>, %[[RB:[^:]*]]: memref<?xf64>)
// CHECK-DAG: %[[A:.*]] = stencil.gather %[[U]][-1] : memref<?xf64>
// CHECK-DAG: %[[G:.*]] = stencil.gather %[[RB]][0] : memref<?xf64>
// CHECK-DAG: %[[Z:.*]] = math.tan %[[A]] : f64
// CHECK-DAG: %[[ONE:.*]] = arith.constant 1.000000e+00 : f64
// CHECK: %[[Z2:.*]] = arith.mulf %[[Z]], %[[Z]] : f64
// CHECK: %[[D:.*]] = arith.addf %[[ONE]], %[[Z2]] : f64
// CHECK: %[[DA:.*]] = arith.mulf %[[G]], %[[D]] : f64
// CHECK: stencil.accumulate %[[DA]] to %[[UB]][-1] : memref<?xf64>
func.func @tan(%u: memref<?xf64> {stencil.active}, %r: memref<?xf64> {stencil.active}, %n: index) {
  stencil.domain (%i) = (1) to (%n) {
    %a = stencil.gather %u[-1] : memref<?xf64>
    %z = math.tan %a : f64
    stencil.store %z to %r : memref<?xf64>
  }
  return
}

// exp' = z
// CHECK-LABEL: func.func @exp_adjoint(
// CHECK-SAME: %[[U:[^:]*]]: memref<?xf64>, %{{[^:]*}}: memref<?xf64>, %{{[^:]*}}: index, %[[UB:[^:]*]]: memref<?xf64>, %[[RB:[^:]*]]: memref<?xf64>)
// CHECK-DAG: %[[A:.*]] = stencil.gather %[[U]][-1] : memref<?xf64>
// CHECK-DAG: %[[G:.*]] = stencil.gather %[[RB]][0] : memref<?xf64>
// CHECK-DAG: %[[Z:.*]] = math.exp %[[A]] : f64
// CHECK: %[[DA:.*]] = arith.mulf %[[G]], %[[Z]] : f64
// CHECK: stencil.accumulate %[[DA]] to %[[UB]][-1] : memref<?xf64>
func.func @exp(%u: memref<?xf64> {stencil.active}, %r: memref<?xf64> {stencil.active}, %n: index) {
  stencil.domain (%i) = (1) to (%n) {
    %a = stencil.gather %u[-1] : memref<?xf64>
    %z = math.exp %a : f64
    stencil.store %z to %r : memref<?xf64>
  }
  return
}

// exp2' = z ln 2
// CHECK-LABEL: func.func @exp2_adjoint(
// CHECK-SAME: %[[U:[^:]*]]: memref<?xf64>, %{{[^:]*}}: memref<?xf64>, %{{[^:]*}}: index, %[[UB:[^:]*]]: memref<?xf64>, %[[RB:[^:]*]]: memref<?xf64>)
// CHECK-DAG: %[[A:.*]] = stencil.gather %[[U]][-1] : memref<?xf64>
// CHECK-DAG: %[[G:.*]] = stencil.gather %[[RB]][0] : memref<?xf64>
// CHECK-DAG: %[[Z:.*]] = math.exp2 %[[A]] : f64
// CHECK-DAG: %[[LN2:.*]] = arith.constant 0.69314718055994529 : f64
// CHECK: %[[D:.*]] = arith.mulf %[[Z]], %[[LN2]] : f64
// CHECK: %[[DA:.*]] = arith.mulf %[[G]], %[[D]] : f64
// CHECK: stencil.accumulate %[[DA]] to %[[UB]][-1] : memref<?xf64>
func.func @exp2(%u: memref<?xf64> {stencil.active}, %r: memref<?xf64> {stencil.active}, %n: index) {
  stencil.domain (%i) = (1) to (%n) {
    %a = stencil.gather %u[-1] : memref<?xf64>
    %z = math.exp2 %a : f64
    stencil.store %z to %r : memref<?xf64>
  }
  return
}

// expm1' = z + 1
// CHECK-LABEL: func.func @expm1_adjoint(
// CHECK-SAME: %[[U:[^:]*]]: memref<?xf64>, %{{[^:]*}}: memref<?xf64>, %{{[^:]*}}: index, %[[UB:[^:]*]]: memref<?xf64>, %[[RB:[^:]*]]: memref<?xf64>)
// CHECK-DAG: %[[A:.*]] = stencil.gather %[[U]][-1] : memref<?xf64>
// CHECK-DAG: %[[G:.*]] = stencil.gather %[[RB]][0] : memref<?xf64>
// CHECK-DAG: %[[Z:.*]] = math.expm1 %[[A]] : f64
// CHECK-DAG: %[[ONE:.*]] = arith.constant 1.000000e+00 : f64
// CHECK: %[[D:.*]] = arith.addf %[[Z]], %[[ONE]] : f64
// CHECK: %[[DA:.*]] = arith.mulf %[[G]], %[[D]] : f64
// CHECK: stencil.accumulate %[[DA]] to %[[UB]][-1] : memref<?xf64>
func.func @expm1(%u: memref<?xf64> {stencil.active}, %r: memref<?xf64> {stencil.active}, %n: index) {
  stencil.domain (%i) = (1) to (%n) {
    %a = stencil.gather %u[-1] : memref<?xf64>
    %z = math.expm1 %a : f64
    stencil.store %z to %r : memref<?xf64>
  }
  return
}

// log' = 1 / a
// CHECK-LABEL: func.func @log_adjoint(
// CHECK-SAME: %[[U:[^:]*]]: memref<?xf64>, %{{[^:]*}}: memref<?xf64>, %{{[^:]*}}: index, %[[UB:[^:]*]]: memref<?xf64>, %[[RB:[^:]*]]: memref<?xf64>)
// CHECK-DAG: %[[A:.*]] = stencil.gather %[[U]][-1] : memref<?xf64>
// CHECK-DAG: %[[G:.*]] = stencil.gather %[[RB]][0] : memref<?xf64>
// CHECK-DAG: %[[ONE:.*]] = arith.constant 1.000000e+00 : f64
// CHECK: %[[D:.*]] = arith.divf %[[ONE]], %[[A]] : f64
// CHECK: %[[DA:.*]] = arith.mulf %[[G]], %[[D]] : f64
// CHECK: stencil.accumulate %[[DA]] to %[[UB]][-1] : memref<?xf64>
func.func @log(%u: memref<?xf64> {stencil.active}, %r: memref<?xf64> {stencil.active}, %n: index) {
  stencil.domain (%i) = (1) to (%n) {
    %a = stencil.gather %u[-1] : memref<?xf64>
    %z = math.log %a : f64
    stencil.store %z to %r : memref<?xf64>
  }
  return
}

// log2' = 1 / (a ln 2)
// CHECK-LABEL: func.func @log2_adjoint(
// CHECK-SAME: %[[U:[^:]*]]: memref<?xf64>, %{{[^:]*}}: memref<?xf64>, %{{[^:]*}}: index, %[[UB:[^:]*]]: memref<?xf64>, %[[RB:[^:]*]]: memref<?xf64>)
// CHECK-DAG: %[[A:.*]] = stencil.gather %[[U]][-1] : memref<?xf64>
// CHECK-DAG: %[[G:.*]] = stencil.gather %[[RB]][0] : memref<?xf64>
// CHECK-DAG: %[[LN2:.*]] = arith.constant 0.69314718055994529 : f64
// CHECK: %[[X:.*]] = arith.mulf %[[A]], %[[LN2]] : f64
// CHECK: %[[D:.*]] = arith.divf %{{.*}}, %[[X]] : f64
// CHECK: %[[DA:.*]] = arith.mulf %[[G]], %[[D]] : f64
// CHECK: stencil.accumulate %[[DA]] to %[[UB]][-1] : memref<?xf64>
func.func @log2(%u: memref<?xf64> {stencil.active}, %r: memref<?xf64> {stencil.active}, %n: index) {
  stencil.domain (%i) = (1) to (%n) {
    %a = stencil.gather %u[-1] : memref<?xf64>
    %z = math.log2 %a : f64
    stencil.store %z to %r : memref<?xf64>
  }
  return
}

// log10' = 1 / (a ln 10)
// CHECK-LABEL: func.func @log10_adjoint(
// CHECK-SAME: %[[U:[^:]*]]: memref<?xf64>, %{{[^:]*}}: memref<?xf64>, %{{[^:]*}}: index, %[[UB:[^:]*]]: memref<?xf64>, %[[RB:[^:]*]]: memref<?xf64>)
// CHECK-DAG: %[[A:.*]] = stencil.gather %[[U]][-1] : memref<?xf64>
// CHECK-DAG: %[[G:.*]] = stencil.gather %[[RB]][0] : memref<?xf64>
// CHECK-DAG: %[[LN10:.*]] = arith.constant 2.3025850929940459 : f64
// CHECK: %[[X:.*]] = arith.mulf %[[A]], %[[LN10]] : f64
// CHECK: %[[D:.*]] = arith.divf %{{.*}}, %[[X]] : f64
// CHECK: %[[DA:.*]] = arith.mulf %[[G]], %[[D]] : f64
// CHECK: stencil.accumulate %[[DA]] to %[[UB]][-1] : memref<?xf64>
func.func @log10(%u: memref<?xf64> {stencil.active}, %r: memref<?xf64> {stencil.active}, %n: index) {
  stencil.domain (%i) = (1) to (%n) {
    %a = stencil.gather %u[-1] : memref<?xf64>
    %z = math.log10 %a : f64
    stencil.store %z to %r : memref<?xf64>
  }
  return
}

// log1p' = 1 / (1 + a)
// CHECK-LABEL: func.func @log1p_adjoint(
// CHECK-SAME: %[[U:[^:]*]]: memref<?xf64>, %{{[^:]*}}: memref<?xf64>, %{{[^:]*}}: index, %[[UB:[^:]*]]: memref<?xf64>, %[[RB:[^:]*]]: memref<?xf64>)
// CHECK-DAG: %[[A:.*]] = stencil.gather %[[U]][-1] : memref<?xf64>
// CHECK-DAG: %[[G:.*]] = stencil.gather %[[RB]][0] : memref<?xf64>
// CHECK: %[[X:.*]] = arith.addf %{{.*}}, %[[A]] : f64
// CHECK: %[[D:.*]] = arith.divf %{{.*}}, %[[X]] : f64
// CHECK: %[[DA:.*]] = arith.mulf %[[G]], %[[D]] : f64
// CHECK: stencil.accumulate %[[DA]] to %[[UB]][-1] : memref<?xf64>
func.func @log1p(%u: memref<?xf64> {stencil.active}, %r: memref<?xf64> {stencil.active}, %n: index) {
  stencil.domain (%i) = (1) to (%n) {
    %a = stencil.gather %u[-1] : memref<?xf64>
    %z = math.log1p %a : f64
    stencil.store %z to %r : memref<?xf64>
  }
  return
}

// sqrt' = 0.5 / z
// CHECK-LABEL: func.func @sqrt_adjoint(
// CHECK-SAME: %[[U:[^:]*]]: memref<?xf64>, %{{[^:]*}}: memref<?xf64>, %{{[^:]*}}: index, %[[UB:[^:]*]]: memref<?xf64>, %[[RB:[^:]*]]: memref<?xf64>)
// CHECK-DAG: %[[A:.*]] = stencil.gather %[[U]][-1] : memref<?xf64>
// CHECK-DAG: %[[G:.*]] = stencil.gather %[[RB]][0] : memref<?xf64>
// CHECK-DAG: %[[Z:.*]] = math.sqrt %[[A]] : f64
// CHECK-DAG: %[[HALF:.*]] = arith.constant 5.000000e-01 : f64
// CHECK: %[[D:.*]] = arith.divf %[[HALF]], %[[Z]] : f64
// CHECK: %[[DA:.*]] = arith.mulf %[[G]], %[[D]] : f64
// CHECK: stencil.accumulate %[[DA]] to %[[UB]][-1] : memref<?xf64>
func.func @sqrt(%u: memref<?xf64> {stencil.active}, %r: memref<?xf64> {stencil.active}, %n: index) {
  stencil.domain (%i) = (1) to (%n) {
    %a = stencil.gather %u[-1] : memref<?xf64>
    %z = math.sqrt %a : f64
    stencil.store %z to %r : memref<?xf64>
  }
  return
}

// rsqrt' = -0.5 z / a
// CHECK-LABEL: func.func @rsqrt_adjoint(
// CHECK-SAME: %[[U:[^:]*]]: memref<?xf64>, %{{[^:]*}}: memref<?xf64>, %{{[^:]*}}: index, %[[UB:[^:]*]]: memref<?xf64>, %[[RB:[^:]*]]: memref<?xf64>)
// CHECK-DAG: %[[A:.*]] = stencil.gather %[[U]][-1] : memref<?xf64>
// CHECK-DAG: %[[G:.*]] = stencil.gather %[[RB]][0] : memref<?xf64>
// CHECK-DAG: %[[Z:.*]] = math.rsqrt %[[A]] : f64
// CHECK-DAG: %[[MHALF:.*]] = arith.constant -5.000000e-01 : f64
// CHECK: %[[X:.*]] = arith.mulf %[[MHALF]], %[[Z]] : f64
// CHECK: %[[D:.*]] = arith.divf %[[X]], %[[A]] : f64
// CHECK: %[[DA:.*]] = arith.mulf %[[G]], %[[D]] : f64
// CHECK: stencil.accumulate %[[DA]] to %[[UB]][-1] : memref<?xf64>
func.func @rsqrt(%u: memref<?xf64> {stencil.active}, %r: memref<?xf64> {stencil.active}, %n: index) {
  stencil.domain (%i) = (1) to (%n) {
    %a = stencil.gather %u[-1] : memref<?xf64>
    %z = math.rsqrt %a : f64
    stencil.store %z to %r : memref<?xf64>
  }
  return
}

// cbrt' = z / (3 a)
// CHECK-LABEL: func.func @cbrt_adjoint(
// CHECK-SAME: %[[U:[^:]*]]: memref<?xf64>, %{{[^:]*}}: memref<?xf64>, %{{[^:]*}}: index, %[[UB:[^:]*]]: memref<?xf64>, %[[RB:[^:]*]]: memref<?xf64>)
// CHECK-DAG: %[[A:.*]] = stencil.gather %[[U]][-1] : memref<?xf64>
// CHECK-DAG: %[[G:.*]] = stencil.gather %[[RB]][0] : memref<?xf64>
// CHECK-DAG: %[[Z:.*]] = math.cbrt %[[A]] : f64
// CHECK-DAG: %[[THREE:.*]] = arith.constant 3.000000e+00 : f64
// CHECK: %[[X:.*]] = arith.mulf %[[THREE]], %[[A]] : f64
// CHECK: %[[D:.*]] = arith.divf %[[Z]], %[[X]] : f64
// CHECK: %[[DA:.*]] = arith.mulf %[[G]], %[[D]] : f64
// CHECK: stencil.accumulate %[[DA]] to %[[UB]][-1] : memref<?xf64>
func.func @cbrt(%u: memref<?xf64> {stencil.active}, %r: memref<?xf64> {stencil.active}, %n: index) {
  stencil.domain (%i) = (1) to (%n) {
    %a = stencil.gather %u[-1] : memref<?xf64>
    %z = math.cbrt %a : f64
    stencil.store %z to %r : memref<?xf64>
  }
  return
}

// tanh' = 1 - z^2
// CHECK-LABEL: func.func @tanh_adjoint(
// CHECK-SAME: %[[U:[^:]*]]: memref<?xf64>, %{{[^:]*}}: memref<?xf64>, %{{[^:]*}}: index, %[[UB:[^:]*]]: memref<?xf64>, %[[RB:[^:]*]]: memref<?xf64>)
// CHECK-DAG: %[[A:.*]] = stencil.gather %[[U]][-1] : memref<?xf64>
// CHECK-DAG: %[[G:.*]] = stencil.gather %[[RB]][0] : memref<?xf64>
// CHECK-DAG: %[[Z:.*]] = math.tanh %[[A]] : f64
// CHECK-DAG: %[[ONE:.*]] = arith.constant 1.000000e+00 : f64
// CHECK: %[[Z2:.*]] = arith.mulf %[[Z]], %[[Z]] : f64
// CHECK: %[[D:.*]] = arith.subf %[[ONE]], %[[Z2]] : f64
// CHECK: %[[DA:.*]] = arith.mulf %[[G]], %[[D]] : f64
// CHECK: stencil.accumulate %[[DA]] to %[[UB]][-1] : memref<?xf64>
func.func @tanh(%u: memref<?xf64> {stencil.active}, %r: memref<?xf64> {stencil.active}, %n: index) {
  stencil.domain (%i) = (1) to (%n) {
    %a = stencil.gather %u[-1] : memref<?xf64>
    %z = math.tanh %a : f64
    stencil.store %z to %r : memref<?xf64>
  }
  return
}

// sinh' = cosh
// CHECK-LABEL: func.func @sinh_adjoint(
// CHECK-SAME: %[[U:[^:]*]]: memref<?xf64>, %{{[^:]*}}: memref<?xf64>, %{{[^:]*}}: index, %[[UB:[^:]*]]: memref<?xf64>, %[[RB:[^:]*]]: memref<?xf64>)
// CHECK-DAG: %[[A:.*]] = stencil.gather %[[U]][-1] : memref<?xf64>
// CHECK-DAG: %[[G:.*]] = stencil.gather %[[RB]][0] : memref<?xf64>
// CHECK: %[[D:.*]] = math.cosh %[[A]] : f64
// CHECK: %[[DA:.*]] = arith.mulf %[[G]], %[[D]] : f64
// CHECK: stencil.accumulate %[[DA]] to %[[UB]][-1] : memref<?xf64>
func.func @sinh(%u: memref<?xf64> {stencil.active}, %r: memref<?xf64> {stencil.active}, %n: index) {
  stencil.domain (%i) = (1) to (%n) {
    %a = stencil.gather %u[-1] : memref<?xf64>
    %z = math.sinh %a : f64
    stencil.store %z to %r : memref<?xf64>
  }
  return
}

// cosh' = sinh
// CHECK-LABEL: func.func @cosh_adjoint(
// CHECK-SAME: %[[U:[^:]*]]: memref<?xf64>, %{{[^:]*}}: memref<?xf64>, %{{[^:]*}}: index, %[[UB:[^:]*]]: memref<?xf64>, %[[RB:[^:]*]]: memref<?xf64>)
// CHECK-DAG: %[[A:.*]] = stencil.gather %[[U]][-1] : memref<?xf64>
// CHECK-DAG: %[[G:.*]] = stencil.gather %[[RB]][0] : memref<?xf64>
// CHECK: %[[D:.*]] = math.sinh %[[A]] : f64
// CHECK: %[[DA:.*]] = arith.mulf %[[G]], %[[D]] : f64
// CHECK: stencil.accumulate %[[DA]] to %[[UB]][-1] : memref<?xf64>
func.func @cosh(%u: memref<?xf64> {stencil.active}, %r: memref<?xf64> {stencil.active}, %n: index) {
  stencil.domain (%i) = (1) to (%n) {
    %a = stencil.gather %u[-1] : memref<?xf64>
    %z = math.cosh %a : f64
    stencil.store %z to %r : memref<?xf64>
  }
  return
}

// atan' = 1 / (1 + a^2)
// CHECK-LABEL: func.func @atan_adjoint(
// CHECK-SAME: %[[U:[^:]*]]: memref<?xf64>, %{{[^:]*}}: memref<?xf64>, %{{[^:]*}}: index, %[[UB:[^:]*]]: memref<?xf64>, %[[RB:[^:]*]]: memref<?xf64>)
// CHECK-DAG: %[[A:.*]] = stencil.gather %[[U]][-1] : memref<?xf64>
// CHECK-DAG: %[[G:.*]] = stencil.gather %[[RB]][0] : memref<?xf64>
// CHECK: %[[A2:.*]] = arith.mulf %[[A]], %[[A]] : f64
// CHECK: %[[X:.*]] = arith.addf %{{.*}}, %[[A2]] : f64
// CHECK: %[[D:.*]] = arith.divf %{{.*}}, %[[X]] : f64
// CHECK: %[[DA:.*]] = arith.mulf %[[G]], %[[D]] : f64
// CHECK: stencil.accumulate %[[DA]] to %[[UB]][-1] : memref<?xf64>
func.func @atan(%u: memref<?xf64> {stencil.active}, %r: memref<?xf64> {stencil.active}, %n: index) {
  stencil.domain (%i) = (1) to (%n) {
    %a = stencil.gather %u[-1] : memref<?xf64>
    %z = math.atan %a : f64
    stencil.store %z to %r : memref<?xf64>
  }
  return
}

// |a|' = sign(a), 0 at a = 0 (and for NaN)
// CHECK-LABEL: func.func @absf_adjoint(
// CHECK-SAME: %[[U:[^:]*]]: memref<?xf64>, %{{[^:]*}}: memref<?xf64>, %{{[^:]*}}: index, %[[UB:[^:]*]]: memref<?xf64>, %[[RB:[^:]*]]: memref<?xf64>)
// CHECK-DAG: %[[A:.*]] = stencil.gather %[[U]][-1] : memref<?xf64>
// CHECK-DAG: %[[G:.*]] = stencil.gather %[[RB]][0] : memref<?xf64>
// CHECK-DAG: %[[ZERO:.*]] = arith.constant 0.000000e+00 : f64
// CHECK-DAG: %[[PONE:.*]] = arith.constant 1.000000e+00 : f64
// CHECK-DAG: %[[MONE:.*]] = arith.constant -1.000000e+00 : f64
// CHECK-DAG: %[[POS:.*]] = arith.cmpf ogt, %[[A]], %[[ZERO]] : f64
// CHECK-DAG: %[[NEG:.*]] = arith.cmpf olt, %[[A]], %[[ZERO]] : f64
// CHECK: %[[INNER:.*]] = arith.select %[[NEG]], %[[MONE]], %[[ZERO]] : f64
// CHECK: %[[D:.*]] = arith.select %[[POS]], %[[PONE]], %[[INNER]] : f64
// CHECK: %[[DA:.*]] = arith.mulf %[[G]], %[[D]] : f64
// CHECK: stencil.accumulate %[[DA]] to %[[UB]][-1] : memref<?xf64>
func.func @absf(%u: memref<?xf64> {stencil.active}, %r: memref<?xf64> {stencil.active}, %n: index) {
  stencil.domain (%i) = (1) to (%n) {
    %a = stencil.gather %u[-1] : memref<?xf64>
    %z = math.absf %a : f64
    stencil.store %z to %r : memref<?xf64>
  }
  return
}

// floor' = 0: the adjoint has no domain that accumulates, only the reset
// of rb.
// CHECK-LABEL: func.func @floor_adjoint(
// CHECK-NOT: stencil.accumulate
// CHECK: stencil.domain
// CHECK-NEXT: arith.constant 0.000000e+00 : f64
// CHECK-NEXT: stencil.store
// CHECK-NOT: stencil.accumulate
// CHECK: return
func.func @floor(%u: memref<?xf64> {stencil.active}, %r: memref<?xf64> {stencil.active}, %n: index) {
  stencil.domain (%i) = (1) to (%n) {
    %a = stencil.gather %u[-1] : memref<?xf64>
    %z = math.floor %a : f64
    stencil.store %z to %r : memref<?xf64>
  }
  return
}

// ceil' = 0: the adjoint has no domain that accumulates, only the reset
// of rb.
// CHECK-LABEL: func.func @ceil_adjoint(
// CHECK-NOT: stencil.accumulate
// CHECK: stencil.domain
// CHECK-NEXT: arith.constant 0.000000e+00 : f64
// CHECK-NEXT: stencil.store
// CHECK-NOT: stencil.accumulate
// CHECK: return
func.func @ceil(%u: memref<?xf64> {stencil.active}, %r: memref<?xf64> {stencil.active}, %n: index) {
  stencil.domain (%i) = (1) to (%n) {
    %a = stencil.gather %u[-1] : memref<?xf64>
    %z = math.ceil %a : f64
    stencil.store %z to %r : memref<?xf64>
  }
  return
}

// z = atan2(a, b): ab += zb * b / (a^2 + b^2), bb += zb * -a / (a^2 + b^2).
// CHECK-LABEL: func.func @atan2_adjoint(
// CHECK-SAME: %[[U:[^:]*]]: memref<?xf64>, %[[V:[^:]*]]: memref<?xf64>, %{{[^:]*}}: memref<?xf64>, %{{[^:]*}}: index, %[[UB:[^:]*]]: memref<?xf64>, %[[VB:[^:]*]]: memref<?xf64>, %[[RB:[^:]*]]: memref<?xf64>)
// CHECK-DAG: %[[A:.*]] = stencil.gather %[[U]][-1] : memref<?xf64>
// CHECK-DAG: %[[B:.*]] = stencil.gather %[[V]][1] : memref<?xf64>
// CHECK-DAG: %[[G:.*]] = stencil.gather %[[RB]][0] : memref<?xf64>
// CHECK-DAG: %[[BB:.*]] = arith.mulf %[[B]], %[[B]] : f64
// CHECK-DAG: %[[AA:.*]] = arith.mulf %[[A]], %[[A]] : f64
// CHECK: %[[NORM:.*]] = arith.addf %[[BB]], %[[AA]] : f64
// CHECK: %[[PA:.*]] = arith.divf %[[B]], %[[NORM]] : f64
// CHECK: %[[DA:.*]] = arith.mulf %[[G]], %[[PA]] : f64
// CHECK: %[[Q:.*]] = arith.divf %[[A]], %[[NORM]] : f64
// CHECK: %[[PB:.*]] = arith.negf %[[Q]] : f64
// CHECK: %[[DB:.*]] = arith.mulf %[[G]], %[[PB]] : f64
// CHECK-DAG: stencil.accumulate %[[DB]] to %[[VB]][1] : memref<?xf64>
// CHECK-DAG: stencil.accumulate %[[DA]] to %[[UB]][-1] : memref<?xf64>
func.func @atan2(%u: memref<?xf64> {stencil.active}, %v: memref<?xf64> {stencil.active},
                %r: memref<?xf64> {stencil.active}, %n: index) {
  stencil.domain (%i) = (1) to (%n - 1) {
    %a = stencil.gather %u[-1] : memref<?xf64>
    %b = stencil.gather %v[1] : memref<?xf64>
    %z = math.atan2 %a, %b : f64
    stencil.store %z to %r : memref<?xf64>
  }
  return
}

// z = a^b: ab += zb * b * a^(b-1); bb += zb * (a > 0 ? z * log(a) : 0),
// with log taken of 1 where a <= 0 so that no NaN is formed.
// CHECK-LABEL: func.func @powf_adjoint(
// CHECK-SAME: %[[U:[^:]*]]: memref<?xf64>, %[[V:[^:]*]]: memref<?xf64>, %{{[^:]*}}: memref<?xf64>, %{{[^:]*}}: index, %[[UB:[^:]*]]: memref<?xf64>, %[[VB:[^:]*]]: memref<?xf64>, %[[RB:[^:]*]]: memref<?xf64>)
// CHECK-DAG: %[[A:.*]] = stencil.gather %[[U]][-1] : memref<?xf64>
// CHECK-DAG: %[[B:.*]] = stencil.gather %[[V]][1] : memref<?xf64>
// CHECK-DAG: %[[G:.*]] = stencil.gather %[[RB]][0] : memref<?xf64>
// CHECK-DAG: %[[Z:.*]] = math.powf %[[A]], %[[B]] : f64
// CHECK: %[[BM1:.*]] = arith.subf %[[B]], %{{.*}} : f64
// CHECK: %[[P:.*]] = math.powf %[[A]], %[[BM1]] : f64
// CHECK: %[[PA:.*]] = arith.mulf %[[B]], %[[P]] : f64
// CHECK: %[[DA:.*]] = arith.mulf %[[G]], %[[PA]] : f64
// CHECK: %[[ZERO:.*]] = arith.constant 0.000000e+00 : f64
// CHECK: %[[POS:.*]] = arith.cmpf ogt, %[[A]], %[[ZERO]] : f64
// CHECK: %[[SAFE:.*]] = arith.select %[[POS]], %[[A]], %{{.*}} : f64
// CHECK: %[[LOG:.*]] = math.log %[[SAFE]] : f64
// CHECK: %[[ZLOG:.*]] = arith.mulf %[[Z]], %[[LOG]] : f64
// CHECK: %[[PB:.*]] = arith.select %[[POS]], %[[ZLOG]], %[[ZERO]] : f64
// CHECK: %[[DB:.*]] = arith.mulf %[[G]], %[[PB]] : f64
// CHECK-DAG: stencil.accumulate %[[DB]] to %[[VB]][1] : memref<?xf64>
// CHECK-DAG: stencil.accumulate %[[DA]] to %[[UB]][-1] : memref<?xf64>
func.func @powf(%u: memref<?xf64> {stencil.active}, %v: memref<?xf64> {stencil.active},
               %r: memref<?xf64> {stencil.active}, %n: index) {
  stencil.domain (%i) = (1) to (%n - 1) {
    %a = stencil.gather %u[-1] : memref<?xf64>
    %b = stencil.gather %v[1] : memref<?xf64>
    %z = math.powf %a, %b : f64
    stencil.store %z to %r : memref<?xf64>
  }
  return
}

// z = copysign(a, b) = |a| sign(b): ab += zb * sign(a) * sign(b) (sign bits);
// b gets nothing.
// CHECK-LABEL: func.func @copysign_adjoint(
// CHECK-SAME: %[[U:[^:]*]]: memref<?xf64>, %[[V:[^:]*]]: memref<?xf64>, %{{[^:]*}}: memref<?xf64>, %{{[^:]*}}: index, %[[UB:[^:]*]]: memref<?xf64>, %[[VB:[^:]*]]: memref<?xf64>, %[[RB:[^:]*]]: memref<?xf64>)
// CHECK-DAG: %[[A:.*]] = stencil.gather %[[U]][-1] : memref<?xf64>
// CHECK-DAG: %[[B:.*]] = stencil.gather %[[V]][1] : memref<?xf64>
// CHECK-DAG: %[[G:.*]] = stencil.gather %[[RB]][0] : memref<?xf64>
// CHECK-DAG: %[[ONE:.*]] = arith.constant 1.000000e+00 : f64
// CHECK: %[[SA:.*]] = math.copysign %[[ONE]], %[[A]] : f64
// CHECK: %[[SB:.*]] = math.copysign %[[ONE]], %[[B]] : f64
// CHECK: %[[PA:.*]] = arith.mulf %[[SA]], %[[SB]] : f64
// CHECK: %[[DA:.*]] = arith.mulf %[[G]], %[[PA]] : f64
// CHECK: stencil.accumulate %[[DA]] to %[[UB]][-1] : memref<?xf64>
// CHECK-NOT: stencil.accumulate %{{.*}} to %[[VB]]
// CHECK: }
func.func @copysign(%u: memref<?xf64> {stencil.active}, %v: memref<?xf64> {stencil.active},
                   %r: memref<?xf64> {stencil.active}, %n: index) {
  stencil.domain (%i) = (1) to (%n - 1) {
    %a = stencil.gather %u[-1] : memref<?xf64>
    %b = stencil.gather %v[1] : memref<?xf64>
    %z = math.copysign %a, %b : f64
    stencil.store %z to %r : memref<?xf64>
  }
  return
}

// z = fpowi(a, n) with an integer n: ab += zb * n * a^(n-1); the integer
// exponent gets nothing.
// CHECK-LABEL: func.func @fpowi_adjoint(
// CHECK-SAME: %[[U:[^:]*]]: memref<?xf64>, %{{[^:]*}}: memref<?xf64>, %{{[^:]*}}: index, %[[UB:[^:]*]]: memref<?xf64>, %[[RB:[^:]*]]: memref<?xf64>)
// CHECK-DAG: %[[A:.*]] = stencil.gather %[[U]][-1] : memref<?xf64>
// CHECK-DAG: %[[G:.*]] = stencil.gather %[[RB]][0] : memref<?xf64>
// CHECK-DAG: %[[N:.*]] = arith.constant 3 : i32
// CHECK-DAG: %[[I1:.*]] = arith.constant 1 : i32
// CHECK: %[[NM1:.*]] = arith.subi %[[N]], %[[I1]] : i32
// CHECK: %[[P:.*]] = math.fpowi %[[A]], %[[NM1]] : f64, i32
// CHECK: %[[NF:.*]] = arith.sitofp %[[N]] : i32 to f64
// CHECK: %[[D:.*]] = arith.mulf %[[NF]], %[[P]] : f64
// CHECK: %[[DA:.*]] = arith.mulf %[[G]], %[[D]] : f64
// CHECK: stencil.accumulate %[[DA]] to %[[UB]][-1] : memref<?xf64>
func.func @fpowi(%u: memref<?xf64> {stencil.active}, %r: memref<?xf64> {stencil.active}, %n: index) {
  stencil.domain (%i) = (1) to (%n) {
    %a = stencil.gather %u[-1] : memref<?xf64>
    %k = arith.constant 3 : i32
    %z = math.fpowi %a, %k : f64, i32
    stencil.store %z to %r : memref<?xf64>
  }
  return
}
