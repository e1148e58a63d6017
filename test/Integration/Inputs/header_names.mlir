// Argument names that made generated headers fail to compile (headers.test):
// `int64_t` and `StencilMemRef1D_f64` gave
// "void _mlir_ciface_f(StencilMemRef1D_f64 *int64_t, ...)"; `true`,
// `false` and `bool` do not compile as C (stdbool) or C++; `namespace` and
// `catch` do not compile as C++, though the header has extern "C" guards.
func.func @f(%int64_t: memref<?xf64> {stencil.active}, %StencilMemRef1D_f64: memref<?xf64> {stencil.active}, %n: index) -> f64 {
  %s = stencil.domain (%i) = (1) to (%n) -> f64 {
    %x = stencil.gather %int64_t[-1] : memref<?xf64>
    stencil.store %x to %StencilMemRef1D_f64 : memref<?xf64>
    stencil.yield %x : f64
  }
  return %s : f64
}

func.func @g(%true: memref<?xf64> {stencil.active}, %false: memref<?xf64> {stencil.active}, %bool: index) -> f64 {
  %s = stencil.domain (%i) = (1) to (%bool) -> f64 {
    %x = stencil.gather %true[-1] : memref<?xf64>
    stencil.store %x to %false : memref<?xf64>
    stencil.yield %x : f64
  }
  return %s : f64
}

func.func @h(%class: memref<?xf64> {stencil.active}, %namespace: memref<?xf64> {stencil.active}, %catch: index) -> f64 {
  %s = stencil.domain (%i) = (1) to (%catch) -> f64 {
    %x = stencil.gather %class[-1] : memref<?xf64>
    stencil.store %x to %namespace : memref<?xf64>
    stencil.yield %x : f64
  }
  return %s : f64
}

// More names no list of keywords had: C23's, C++'s alternative tokens,
// <stdint.h> macros, _Bool and _Complex, the GNU modes' predefined `linux`.
func.func @k(%and: memref<?xf64>, %constexpr: memref<?xf64>, %INT64_MAX: index,
             %_Bool: index, %_Complex: f64, %static_assert: f64, %linux: f64,
             %xor: f64, %typeof: f64, %nullptr: f64, %char8_t: f64) {
  stencil.domain (%i) = (0) to (%INT64_MAX) {
    %x = stencil.gather %and[0] : memref<?xf64>
    stencil.store %x to %constexpr : memref<?xf64>
  }
  return
}
