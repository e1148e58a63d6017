// RUN: stencil-opt %s | stencil-opt | FileCheck %s
// RUN: stencil-opt %s --mlir-print-op-generic | stencil-opt | FileCheck %s

// Round trip of every stencil op and every optional piece of its syntax,
// through the custom form and through the generic form.

// CHECK-LABEL: func.func @gather_store_1d(
// CHECK-SAME: %[[U:.*]]: memref<?xf64>, %[[C:.*]]: memref<?xf64>, %[[R:.*]]: memref<?xf64>, %[[N:.*]]: index)
func.func @gather_store_1d(%u: memref<?xf64>, %c: memref<?xf64>, %r: memref<?xf64>, %n: index) {
  // CHECK: stencil.domain (%[[I:.*]]) = (1) to (%[[N]] - 1) {
  stencil.domain (%i) = (1) to (%n - 1) {
    // CHECK-NEXT: %[[UM:.*]] = stencil.gather %[[U]][-1] : memref<?xf64>
    // CHECK-NEXT: %[[UP:.*]] = stencil.gather %[[U]][1] : memref<?xf64>
    // CHECK-NEXT: %[[CC:.*]] = stencil.gather %[[C]][0] : memref<?xf64>
    // CHECK-NEXT: %[[S:.*]] = arith.addf %[[UM]], %[[UP]] : f64
    // CHECK-NEXT: %[[V:.*]] = arith.mulf %[[S]], %[[CC]] : f64
    // CHECK-NEXT: stencil.store %[[V]] to %[[R]] : memref<?xf64>
    // CHECK-NEXT: }
    %um = stencil.gather %u[-1] : memref<?xf64>
    %up = stencil.gather %u[1] : memref<?xf64>
    %cc = stencil.gather %c[0] : memref<?xf64>
    %s = arith.addf %um, %up : f64
    %v = arith.mulf %s, %cc : f64
    stencil.store %v to %r : memref<?xf64>
  }
  return
}

// An explicit `stencil.yield` in a domain without results is accepted and
// elided by the printer; so is an empty body.
// CHECK-LABEL: func.func @implicit_yield(
// CHECK-SAME: %[[U:.*]]: memref<?xf64>, %[[R:.*]]: memref<?xf64>, %[[N:.*]]: index)
func.func @implicit_yield(%u: memref<?xf64>, %r: memref<?xf64>, %n: index) {
  // CHECK: stencil.domain (%{{.*}}) = (0) to (%[[N]]) {
  // CHECK-NEXT: %[[X:.*]] = stencil.gather %[[U]][0] : memref<?xf64>
  // CHECK-NEXT: stencil.store %[[X]] to %[[R]] : memref<?xf64>
  // CHECK-NEXT: }
  stencil.domain (%i) = (0) to (%n) {
    %x = stencil.gather %u[0] : memref<?xf64>
    stencil.store %x to %r : memref<?xf64>
    stencil.yield
  }
  // CHECK: stencil.domain (%{{.*}}) = (0) to (%[[N]]) {
  // CHECK-NEXT: }
  stencil.domain (%i) = (0) to (%n) {
  }
  // CHECK-NOT: stencil.yield
  // CHECK: return
  return
}

// CHECK-LABEL: func.func @accumulate_scatter(
// CHECK-SAME: %[[G:.*]]: memref<?xf64>, %[[UB:.*]]: memref<?xf64>, %[[N:.*]]: index)
func.func @accumulate_scatter(%g: memref<?xf64>, %ub: memref<?xf64>, %n: index) {
  // CHECK: stencil.domain (%{{.*}}) = (1) to (%[[N]]) {
  stencil.domain (%i) = (1) to (%n) {
    // CHECK-NEXT: %[[X:.*]] = stencil.gather %[[G]][0] : memref<?xf64>
    // CHECK-NEXT: stencil.accumulate %[[X]] to %[[UB]][-1] : memref<?xf64>
    // CHECK-NEXT: stencil.accumulate %[[X]] to %[[UB]][0] : memref<?xf64>
    // CHECK-NEXT: stencil.accumulate %[[X]] to %[[UB]][1] : memref<?xf64>
    %x = stencil.gather %g[0] : memref<?xf64>
    stencil.accumulate %x to %ub[-1] : memref<?xf64>
    stencil.accumulate %x to %ub[0] : memref<?xf64>
    stencil.accumulate %x to %ub[1] : memref<?xf64>
  }
  return
}

// `dims` on each access op: selection (1-D coefficient in a 2-D domain),
// repetition (diagonal read) and permutation (transposed write and scatter).
// CHECK-LABEL: func.func @dims_2d(
// CHECK-SAME: %[[A:.*]]: memref<?x?xf64>, %[[C:.*]]: memref<?xf64>, %[[T:.*]]: memref<?x?xf64>, %[[B:.*]]: memref<?x?xf64>, %[[N:.*]]: index)
func.func @dims_2d(%a: memref<?x?xf64>, %c: memref<?xf64>, %t: memref<?x?xf64>, %b: memref<?x?xf64>, %n: index) {
  // CHECK: stencil.domain (%{{.*}}, %{{.*}}) = (1, 1) to (%[[N]] - 1, %[[N]] - 1) {
  stencil.domain (%i, %j) = (1, 1) to (%n - 1, %n - 1) {
    // CHECK-NEXT: %[[CJ:.*]] = stencil.gather %[[C]][1] dims [1] : memref<?xf64>
    // CHECK-NEXT: %[[D:.*]] = stencil.gather %[[A]][0, 0] dims [0, 0] : memref<?x?xf64>
    // CHECK-NEXT: %[[AT:.*]] = stencil.gather %[[A]][-1, 1] dims [1, 0] : memref<?x?xf64>
    // CHECK-NEXT: %[[P:.*]] = arith.mulf %[[CJ]], %[[D]] : f64
    // CHECK-NEXT: %[[Q:.*]] = arith.addf %[[P]], %[[AT]] : f64
    // CHECK-NEXT: stencil.store %[[Q]] to %[[T]] dims [1, 0] : memref<?x?xf64>
    // CHECK-NEXT: stencil.accumulate %[[Q]] to %[[B]][-1, 0] dims [1, 0] : memref<?x?xf64>
    %cj = stencil.gather %c[1] dims [1] : memref<?xf64>
    %d = stencil.gather %a[0, 0] dims [0, 0] : memref<?x?xf64>
    %at = stencil.gather %a[-1, 1] dims [1, 0] : memref<?x?xf64>
    %p = arith.mulf %cj, %d : f64
    %q = arith.addf %p, %at : f64
    stencil.store %q to %t dims [1, 0] : memref<?x?xf64>
    stencil.accumulate %q to %b[-1, 0] dims [1, 0] : memref<?x?xf64>
  }
  return
}

// Fixed dimensions (`_`, whose offset is the index) on reads and
// reductions: accumulates at a subset of the iteration dimensions, at a
// repetition, at fixed elements and into a rank-0 array.
// CHECK-LABEL: func.func @dims_fixed_and_reductions(
// CHECK-SAME: %[[U:[^:]*]]: memref<2x?x?xf64>, %[[W:[^:]*]]: memref<3x3xf64>, %[[WB:[^:]*]]: memref<3x3xf64>, %[[R:[^:]*]]: memref<?x?xf64>, %[[V:[^:]*]]: memref<?xf64>, %[[S:[^:]*]]: memref<f64>, %[[N:.*]]: index)
func.func @dims_fixed_and_reductions(%u: memref<2x?x?xf64>, %w: memref<3x3xf64>, %wb: memref<3x3xf64>, %r: memref<?x?xf64>, %v: memref<?xf64>, %s: memref<f64>, %n: index) {
  stencil.domain (%i, %j) = (1, 1) to (%n - 1, %n - 1) {
    // CHECK: %[[A:.*]] = stencil.gather %[[U]][1, -1, 0] dims [_, 0, 1] : memref<2x?x?xf64>
    // CHECK-NEXT: %[[B:.*]] = stencil.gather %[[W]][1, 2] dims [_, _] : memref<3x3xf64>
    // CHECK-NEXT: %[[P:.*]] = arith.mulf %[[A]], %[[B]] : f64
    // CHECK-NEXT: stencil.accumulate %[[P]] to %[[V]][1] dims [1] : memref<?xf64>
    // CHECK-NEXT: stencil.accumulate %[[P]] to %[[R]][0, 0] dims [0, 0] : memref<?x?xf64>
    // CHECK-NEXT: stencil.accumulate %[[P]] to %[[WB]][2, 0] dims [_, _] : memref<3x3xf64>
    // CHECK-NEXT: stencil.accumulate %[[P]] to %[[S]][] dims [] : memref<f64>
    %a = stencil.gather %u[1, -1, 0] dims [_, 0, 1] : memref<2x?x?xf64>
    %b = stencil.gather %w[1, 2] dims [_, _] : memref<3x3xf64>
    %p = arith.mulf %a, %b : f64
    stencil.accumulate %p to %v[1] dims [1] : memref<?xf64>
    stencil.accumulate %p to %r[0, 0] dims [0, 0] : memref<?x?xf64>
    stencil.accumulate %p to %wb[2, 0] dims [_, _] : memref<3x3xf64>
    stencil.accumulate %p to %s[] dims [] : memref<f64>
  }
  return
}

// Identity `dims` are kept as written.
// CHECK-LABEL: func.func @dims_identity(
// CHECK-SAME: %[[U:.*]]: memref<?x?xf64>, %[[R:.*]]: memref<?x?xf64>, %[[N:.*]]: index)
func.func @dims_identity(%u: memref<?x?xf64>, %r: memref<?x?xf64>, %n: index) {
  // CHECK: %[[X:.*]] = stencil.gather %[[U]][0, 0] dims [0, 1] : memref<?x?xf64>
  // CHECK-NEXT: stencil.store %[[X]] to %[[R]] dims [0, 1] : memref<?x?xf64>
  stencil.domain (%i, %j) = (0, 0) to (%n, %n) {
    %x = stencil.gather %u[0, 0] dims [0, 1] : memref<?x?xf64>
    stencil.store %x to %r dims [0, 1] : memref<?x?xf64>
  }
  return
}

// A rank-0 array (a scalar in memory) is read with empty offset and dims.
// CHECK-LABEL: func.func @rank0(
// CHECK-SAME: %[[S:.*]]: memref<f64>, %[[U:.*]]: memref<?xf64>, %[[R:.*]]: memref<?xf64>, %[[N:.*]]: index)
func.func @rank0(%s: memref<f64>, %u: memref<?xf64>, %r: memref<?xf64>, %n: index) {
  // CHECK: %[[A:.*]] = stencil.gather %[[S]][] dims [] : memref<f64>
  // CHECK-NEXT: %[[X:.*]] = stencil.gather %[[U]][0] : memref<?xf64>
  // CHECK-NEXT: %[[Y:.*]] = arith.mulf %[[A]], %[[X]] : f64
  // CHECK-NEXT: stencil.store %[[Y]] to %[[R]] : memref<?xf64>
  stencil.domain (%i) = (0) to (%n) {
    %a = stencil.gather %s[] dims [] : memref<f64>
    %x = stencil.gather %u[0] : memref<?xf64>
    %y = arith.mulf %a, %x : f64
    stencil.store %y to %r : memref<?xf64>
  }
  return
}

// f32 arrays with static shapes and constant bounds (no bound operands).
// CHECK-LABEL: func.func @static_f32_3d(
// CHECK-SAME: %[[U:.*]]: memref<8x8x8xf32>, %[[R:.*]]: memref<8x8x8xf32>)
func.func @static_f32_3d(%u: memref<8x8x8xf32>, %r: memref<8x8x8xf32>) {
  // CHECK: stencil.domain (%{{.*}}, %{{.*}}, %{{.*}}) = (1, 1, 1) to (7, 7, 7) {
  // CHECK-NEXT: %[[A:.*]] = stencil.gather %[[U]][-1, 0, 0] : memref<8x8x8xf32>
  // CHECK-NEXT: %[[B:.*]] = stencil.gather %[[U]][0, 0, 1] : memref<8x8x8xf32>
  // CHECK-NEXT: %[[V:.*]] = arith.subf %[[A]], %[[B]] : f32
  // CHECK-NEXT: stencil.store %[[V]] to %[[R]] : memref<8x8x8xf32>
  stencil.domain (%i, %j, %k) = (1, 1, 1) to (7, 7, 7) {
    %a = stencil.gather %u[-1, 0, 0] : memref<8x8x8xf32>
    %b = stencil.gather %u[0, 0, 1] : memref<8x8x8xf32>
    %v = arith.subf %a, %b : f32
    stencil.store %v to %r : memref<8x8x8xf32>
  }
  return
}

// Mixed static and dynamic sizes, and a strided layout.
// CHECK-LABEL: func.func @mixed_shapes(
// CHECK-SAME: %[[U:.*]]: memref<4x?xf64>, %[[R:.*]]: memref<4x?xf64, strided<[?, 1], offset: ?>>, %[[N:.*]]: index)
func.func @mixed_shapes(%u: memref<4x?xf64>, %r: memref<4x?xf64, strided<[?, 1], offset: ?>>, %n: index) {
  // CHECK: stencil.domain (%{{.*}}, %{{.*}}) = (0, 1) to (4, %[[N]]) {
  // CHECK-NEXT: %[[X:.*]] = stencil.gather %[[U]][0, -1] : memref<4x?xf64>
  // CHECK-NEXT: stencil.store %[[X]] to %[[R]] : memref<4x?xf64, strided<[?, 1], offset: ?>>
  stencil.domain (%i, %j) = (0, 1) to (4, %n) {
    %x = stencil.gather %u[0, -1] : memref<4x?xf64>
    stencil.store %x to %r : memref<4x?xf64, strided<[?, 1], offset: ?>>
  }
  return
}

// CHECK-LABEL: func.func @domain_4d(
// CHECK-SAME: %[[U:.*]]: memref<?x?x?x?xf64>, %[[R:.*]]: memref<?x?x?x?xf64>, %[[N:.*]]: index)
func.func @domain_4d(%u: memref<?x?x?x?xf64>, %r: memref<?x?x?x?xf64>, %n: index) {
  // CHECK: stencil.domain (%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}) = (0, 0, 0, 1) to (%[[N]], %[[N]], %[[N]], %[[N]] - 1) {
  // CHECK-NEXT: %[[X:.*]] = stencil.gather %[[U]][0, 0, 0, 1] : memref<?x?x?x?xf64>
  // CHECK-NEXT: stencil.store %[[X]] to %[[R]] dims [3, 2, 1, 0] : memref<?x?x?x?xf64>
  stencil.domain (%i, %j, %k, %l) = (0, 0, 0, 1) to (%n, %n, %n, %n - 1) {
    %x = stencil.gather %u[0, 0, 0, 1] : memref<?x?x?x?xf64>
    stencil.store %x to %r dims [3, 2, 1, 0] : memref<?x?x?x?xf64>
  }
  return
}

// `symbol(%n)` is a synonym of `%n`; the printer uses the bare name.
// CHECK-LABEL: func.func @symbol_synonym(
// CHECK-SAME: %[[U:.*]]: memref<?xf64>, %[[R:.*]]: memref<?xf64>, %[[N:.*]]: index)
func.func @symbol_synonym(%u: memref<?xf64>, %r: memref<?xf64>, %n: index) {
  // CHECK: stencil.domain (%{{.*}}) = (1) to (%[[N]] - 1) {
  stencil.domain (%i) = (1) to (symbol(%n) - 1) {
    %x = stencil.gather %u[0] : memref<?xf64>
    stencil.store %x to %r : memref<?xf64>
  }
  // Both spellings of the same value in one domain name one bound operand.
  // CHECK: stencil.domain (%{{.*}}) = (%[[N]] floordiv 2) to (%[[N]] * 2) {
  stencil.domain (%i) = (%n floordiv 2) to (%n + symbol(%n)) {
    %x = stencil.gather %u[0] : memref<?xf64>
    stencil.store %x to %r : memref<?xf64>
  }
  return
}

// Bounds over two different symbols, with every affine operator.
// CHECK-LABEL: func.func @two_symbols(
// CHECK-SAME: %[[U:.*]]: memref<?x?xf64>, %[[R:.*]]: memref<?x?xf64>, %[[N:.*]]: index, %[[M:.*]]: index)
func.func @two_symbols(%u: memref<?x?xf64>, %r: memref<?x?xf64>, %n: index, %m: index) {
  // CHECK: stencil.domain (%{{.*}}, %{{.*}}) = (%[[M]] - 1, 0) to (%[[N]] + %[[M]] * 2, %[[N]] ceildiv 4 + %[[M]] mod 3) {
  stencil.domain (%i, %j) = (%m - 1, 0) to (%n + %m * 2, %n ceildiv 4 + %m mod 3) {
    %x = stencil.gather %u[0, 0] : memref<?x?xf64>
    stencil.store %x to %r : memref<?x?xf64>
  }
  return
}

// A reduction with several results of different float types.
// CHECK-LABEL: func.func @reduction(
// CHECK-SAME: %[[U:.*]]: memref<?x?xf64>, %[[W:.*]]: memref<?x?xf32>, %[[N:.*]]: index)
func.func @reduction(%u: memref<?x?xf64>, %w: memref<?x?xf32>, %n: index) -> (f64, f32, f64) {
  // CHECK: %[[RES:.*]]:3 = stencil.domain (%{{.*}}, %{{.*}}) = (0, 0) to (%[[N]], %[[N]]) -> (f64, f32, f64) {
  // CHECK-NEXT: %[[X:.*]] = stencil.gather %[[U]][0, 0] : memref<?x?xf64>
  // CHECK-NEXT: %[[Y:.*]] = stencil.gather %[[W]][0, 0] : memref<?x?xf32>
  // CHECK-NEXT: %[[X2:.*]] = arith.mulf %[[X]], %[[X]] : f64
  // CHECK-NEXT: stencil.yield %[[X]], %[[Y]], %[[X2]] : f64, f32, f64
  // CHECK-NEXT: }
  // CHECK-NEXT: return %[[RES]]#0, %[[RES]]#1, %[[RES]]#2 : f64, f32, f64
  %s:3 = stencil.domain (%i, %j) = (0, 0) to (%n, %n) -> (f64, f32, f64) {
    %x = stencil.gather %u[0, 0] : memref<?x?xf64>
    %y = stencil.gather %w[0, 0] : memref<?x?xf32>
    %x2 = arith.mulf %x, %x : f64
    stencil.yield %x, %y, %x2 : f64, f32, f64
  }
  return %s#0, %s#1, %s#2 : f64, f32, f64
}

// A single-result reduction that also stores.
// CHECK-LABEL: func.func @reduction_and_store(
// CHECK-SAME: %[[U:.*]]: memref<?xf32>, %[[R:.*]]: memref<?xf32>, %[[N:.*]]: index)
func.func @reduction_and_store(%u: memref<?xf32>, %r: memref<?xf32>, %n: index) -> f32 {
  // CHECK: %[[S:.*]] = stencil.domain (%{{.*}}) = (0) to (%[[N]]) -> (f32) {
  // CHECK-NEXT: %[[X:.*]] = stencil.gather %[[U]][0] : memref<?xf32>
  // CHECK-NEXT: stencil.store %[[X]] to %[[R]] : memref<?xf32>
  // CHECK-NEXT: stencil.yield %[[X]] : f32
  // CHECK-NEXT: }
  // CHECK-NEXT: return %[[S]] : f32
  %s = stencil.domain (%i) = (0) to (%n) -> (f32) {
    %x = stencil.gather %u[0] : memref<?xf32>
    stencil.store %x to %r : memref<?xf32>
    stencil.yield %x : f32
  }
  return %s : f32
}

// Scalars from above, math ops, func.call, an scf.if and the induction
// variables themselves may be used in the body.
func.func private @flux(f64, f64) -> f64

// CHECK-LABEL: func.func @body_ops(
// CHECK-SAME: %[[U:.*]]: memref<?xf64>, %[[R:.*]]: memref<?xf64>, %[[DT:.*]]: f64, %[[N:.*]]: index)
func.func @body_ops(%u: memref<?xf64>, %r: memref<?xf64>, %dt: f64, %n: index) {
  // CHECK: stencil.domain (%[[I:.*]]) = (1) to (%[[N]]) {
  // CHECK-NEXT: %[[A:.*]] = stencil.gather %[[U]][-1] : memref<?xf64>
  // CHECK-NEXT: %[[B:.*]] = stencil.gather %[[U]][0] : memref<?xf64>
  // CHECK-NEXT: %[[F:.*]] = func.call @flux(%[[A]], %[[B]]) : (f64, f64) -> f64
  // CHECK-NEXT: %[[E:.*]] = math.exp %[[F]] : f64
  // CHECK-NEXT: %[[S:.*]] = math.sin %[[E]] : f64
  // CHECK-NEXT: %[[M:.*]] = arith.maximumf %[[S]], %[[DT]] : f64
  // CHECK-NEXT: %[[II:.*]] = arith.index_cast %[[I]] : index to i64
  // CHECK-NEXT: %[[X:.*]] = arith.sitofp %[[II]] : i64 to f64
  // CHECK-NEXT: %[[C:.*]] = arith.cmpf olt, %[[M]], %[[X]] : f64
  // CHECK-NEXT: %[[SEL:.*]] = scf.if %[[C]] -> (f64) {
  // CHECK:      stencil.store %[[SEL]] to %[[R]] : memref<?xf64>
  stencil.domain (%i) = (1) to (%n) {
    %a = stencil.gather %u[-1] : memref<?xf64>
    %b = stencil.gather %u[0] : memref<?xf64>
    %f = func.call @flux(%a, %b) : (f64, f64) -> f64
    %e = math.exp %f : f64
    %s = math.sin %e : f64
    %m = arith.maximumf %s, %dt : f64
    %ii = arith.index_cast %i : index to i64
    %x = arith.sitofp %ii : i64 to f64
    %c = arith.cmpf olt, %m, %x : f64
    %sel = scf.if %c -> (f64) {
      scf.yield %m : f64
    } else {
      %neg = arith.negf %m : f64
      scf.yield %neg : f64
    }
    stencil.store %sel to %r : memref<?xf64>
  }
  return
}

// A call in an arm of scf.if is allowed as in the body (the branch has the
// effects of the ops it holds, each checked on its own).
// CHECK-LABEL: func.func @call_in_scf_if(
// CHECK: scf.if %{{.*}} -> (f64) {
// CHECK-NEXT: func.call @flux
func.func @call_in_scf_if(%u: memref<?xf64>, %r: memref<?xf64>, %n: index) {
  stencil.domain (%i) = (1) to (%n) {
    %a = stencil.gather %u[-1] : memref<?xf64>
    %zero = arith.constant 0.0 : f64
    %c = arith.cmpf ogt, %a, %zero : f64
    %x = scf.if %c -> (f64) {
      %f = func.call @flux(%a, %a) : (f64, f64) -> f64
      scf.yield %f : f64
    } else {
      scf.yield %zero : f64
    }
    stencil.store %x to %r : memref<?xf64>
  }
  return
}

// Discardable attributes of the domain follow the body.
// CHECK-LABEL: func.func @domain_attributes(
// CHECK-SAME: %[[U:.*]]: memref<?xf64>, %[[R:.*]]: memref<?xf64>, %[[N:.*]]: index)
func.func @domain_attributes(%u: memref<?xf64>, %r: memref<?xf64>, %n: index) {
  // CHECK: stencil.domain (%{{.*}}) = (0) to (%[[N]]) {
  // CHECK: } attributes {test.tag = "primal"}
  stencil.domain (%i) = (0) to (%n) {
    %x = stencil.gather %u[0] : memref<?xf64>
    stencil.store %x to %r : memref<?xf64>
  } attributes {test.tag = "primal"}
  return
}

// One array may be accumulated several times and another read, as the
// adjoint of a gather stencil does.
// CHECK-LABEL: func.func @adjoint_shape(
// CHECK-SAME: %[[C:.*]]: memref<?xf64>, %[[RB:.*]]: memref<?xf64>, %[[UB:.*]]: memref<?xf64>, %[[N:.*]]: index)
func.func @adjoint_shape(%c: memref<?xf64>, %rb: memref<?xf64>, %ub: memref<?xf64>, %n: index) {
  // CHECK: stencil.domain (%{{.*}}) = (1) to (%[[N]]) {
  // CHECK-DAG: stencil.gather %[[C]][0] : memref<?xf64>
  // CHECK-DAG: stencil.gather %[[RB]][0] : memref<?xf64>
  // CHECK-COUNT-3: stencil.accumulate %{{.*}} to %[[UB]][{{-?[0-9]+}}] : memref<?xf64>
  stencil.domain (%i) = (1) to (%n) {
    %two = arith.constant 2.0 : f64
    %three = arith.constant -3.0 : f64
    %four = arith.constant 4.0 : f64
    %cc = stencil.gather %c[0] : memref<?xf64>
    %r = stencil.gather %rb[0] : memref<?xf64>
    %cr = arith.mulf %cc, %r : f64
    %a = arith.mulf %two, %cr : f64
    %b = arith.mulf %three, %cr : f64
    %d = arith.mulf %four, %cr : f64
    stencil.accumulate %a to %ub[-1] : memref<?xf64>
    stencil.accumulate %b to %ub[0] : memref<?xf64>
    stencil.accumulate %d to %ub[1] : memref<?xf64>
  }
  return
}
