// RUN: stencil-translate %s --stencil-to-c-header | FileCheck %s
// RUN: stencil-translate %s --stencil-to-c-header > %t.h
// RUN: echo '#include "%t.h"' > %t.c
// RUN: %clang -fsyntax-only -std=c11 -Wall -Wextra -Werror -I%stencil_src/include -x c %t.c
// RUN: %clang -fsyntax-only -std=gnu11 -Wall -Wextra -Werror -I%stencil_src/include -x c %t.c
// RUN: %clang -fsyntax-only -std=c2x -Wall -Wextra -Werror -I%stencil_src/include -x c %t.c
// RUN: %clang -fsyntax-only -std=c++17 -Wall -Wextra -Werror -I%stencil_src/include -x c++ %t.c
// RUN: %clang -fsyntax-only -std=gnu++20 -Wall -Wextra -Werror -I%stencil_src/include -x c++ %t.c

// Parameter names (docs/ABI.md, "Parameter names"): a name the header's C
// or C++ reader could take for something else gets a `_` appended: the
// keywords of C (C23 too) and C++ (alternative tokens too), what
// <stdint.h> and <stdbool.h> define (int64_t, INT64_MAX, true), names the
// standards reserve (`_` first, `__` inside, `*_t`), the names of
// Stencil/ABI/StencilABI.h, and `linux`/`unix`, which GCC and Clang
// predefine in their GNU modes. Leading `_` are dropped, `__` becomes `_`.

// The names that got through a keyword list: a type of the included
// headers and of StencilABI.h, then true/false/bool of <stdbool.h>.
// CHECK: double _mlir_ciface_stdint(StencilMemRef1D_f64 *int64_t_, StencilMemRef1D_f64 *StencilMemRef1D_f64_, int64_t n);
func.func @stdint(%a: memref<?xf64> loc("int64_t"), %b: memref<?xf64> loc("StencilMemRef1D_f64"),
                  %n: index loc("n")) -> f64 attributes {llvm.emit_c_interface} {
  %c = arith.constant 0.0 : f64
  return %c : f64
}
// CHECK: double _mlir_ciface_stdbool(StencilMemRef1D_f64 *true_, StencilMemRef1D_f64 *false_, int64_t bool_);
func.func @stdbool(%a: memref<?xf64> loc("true"), %b: memref<?xf64> loc("false"),
                   %n: index loc("bool")) -> f64 attributes {llvm.emit_c_interface} {
  %c = arith.constant 0.0 : f64
  return %c : f64
}
// C++ only: the header has extern "C" guards for C++ readers.
// CHECK: double _mlir_ciface_cxx(StencilMemRef1D_f64 *class_, StencilMemRef1D_f64 *namespace_, int64_t catch_);
func.func @cxx(%a: memref<?xf64> loc("class"), %b: memref<?xf64> loc("namespace"),
               %n: index loc("catch")) -> f64 attributes {llvm.emit_c_interface} {
  %c = arith.constant 0.0 : f64
  return %c : f64
}

// CHECK: void _mlir_ciface_more(int64_t and_, int64_t constexpr_, int64_t static_assert_, int64_t xor_eq_, int64_t bitand_, int64_t INT64_MAX_, int64_t SIZE_MAX_, int64_t Bool, int64_t Complex, int64_t linux_, int64_t unix_, int64_t u_v, int64_t x_t_, int64_t stencil_memref1d_f64_, int64_t STENCIL_ABI_MAX_RANK_, int64_t typeof_, int64_t nullptr_, int64_t co_await_);
func.func @more(%a: i64 loc("and"), %b: i64 loc("constexpr"), %c: i64 loc("static_assert"),
                %d: i64 loc("xor_eq"), %e: i64 loc("bitand"), %f: i64 loc("INT64_MAX"),
                %g: i64 loc("SIZE_MAX"), %h: i64 loc("_Bool"), %i: i64 loc("_Complex"),
                %j: i64 loc("linux"), %k: i64 loc("unix"), %l: i64 loc("u__v"),
                %m: i64 loc("x_t"), %o: i64 loc("stencil_memref1d_f64"),
                %p: i64 loc("STENCIL_ABI_MAX_RANK"), %q: i64 loc("typeof"),
                %r: i64 loc("nullptr"), %s: i64 loc("co_await"))
    attributes {llvm.emit_c_interface} {
  return
}

// The header's own parameter and struct names, and escaped names that
// meet: `<stem>_`, then `<stem>_2_`; names that stay as they are: upper
// case without a <stdint.h> prefix, a trailing `_`.
// CHECK: typedef struct { double r0; double r1; } results_results;
// CHECK: void _mlir_ciface_results(results_results *results, double result_, double results_, double results_results_, double int_, double int_2_, double D, double NX, double u_);
func.func @results(%a: f64 loc("result"), %b: f64 loc("results"), %c: f64 loc("results_results"),
                   %d: f64 loc("int"), %e: f64 loc("int"), %f: f64 loc("D"),
                   %g: f64 loc("NX"), %h: f64 loc("u_")) -> (f64, f64)
    attributes {llvm.emit_c_interface} {
  return %a, %b : f64, f64
}
