// REQUIRES: c-importer
// Integer values in a loop body are imported as signed 64-bit `index`
// arithmetic. C's unsigned arithmetic wraps around (below zero, and at 32
// bits for `unsigned`), and a conversion to an unsigned or narrower type
// changes values: those are refused, at the C expression, rather than
// imported with other values. Unsigned 64-bit comparisons compare
// unsigned (`i - 5 < n` with a size_t n is true of no i < 5 in C).

// RUN: not stencil-import-c %s --function=cast_unsigned -o /dev/null 2>&1 | FileCheck %s --check-prefix=CAST
// RUN: not stencil-import-c %s --function=sub_size_t -o /dev/null 2>&1 | FileCheck %s --check-prefix=SUB
// RUN: not stencil-import-c %s --function=mul_unsigned32 -o /dev/null 2>&1 | FileCheck %s --check-prefix=MUL32
// RUN: not stencil-import-c %s --function=narrowing -o /dev/null 2>&1 | FileCheck %s --check-prefix=NARROW
// RUN: not stencil-import-c %s --function=float_to_int -o /dev/null 2>&1 | FileCheck %s --check-prefix=FTOI
// RUN: not stencil-import-c %s --function=compare_unsigned32 -o /dev/null 2>&1 | FileCheck %s --check-prefix=CMP32
// RUN: stencil-import-c %s --function=compare_size_t --active=u,v -o - | FileCheck %s --check-prefix=CMP64

#include <stddef.h>

void cast_unsigned(int n, double u[restrict n], const double v[restrict n]) {
  for (int i = 1; i < n - 1; i++)
    u[i] = v[i] * (double)(unsigned)(i - 5);
}
// CAST: unsigned-wrap.c:[[@LINE-2]]:27: error: the integer expression '(unsigned int)(i - 5)' converts a signed value to an unsigned type, which wraps negative values around in C; a stencil loop computes integers as signed 64-bit values (use signed operands: int or long)

void sub_size_t(size_t n, double u[restrict n], const double v[restrict n]) {
  for (size_t i = 1; i < n - 1; i++)
    u[i] = v[i] * (double)(i - 5);
}
// SUB: unsigned-wrap.c:[[@LINE-2]]:30: error: the integer expression 'i - 5' is an unsigned subtraction or negation, which wraps around below zero in C

void mul_unsigned32(unsigned n, double u[restrict n], const double v[restrict n]) {
  for (int i = 1; i < n - 1; i++)
    u[i] = v[i] * (n * n);
}
// MUL32: unsigned-wrap.c:[[@LINE-2]]:22: error: the integer expression 'n * n' is unsigned arithmetic narrower than 64 bits, which wraps around at its width in C

void narrowing(long n, double u[restrict n], const double v[restrict n]) {
  for (int i = 1; i < n - 1; i++)
    u[i] = v[i] * (short)(n * 1000);
}
// NARROW: unsigned-wrap.c:[[@LINE-2]]:19: error: the integer expression '(short)(n * 1000)' converts to a narrower integer type, which wraps values around in C

void float_to_int(int n, double u[restrict n], const double v[restrict n]) {
  for (int i = 1; i < n - 1; i++)
    u[i] = (int)v[i + 1];
}
// FTOI: unsigned-wrap.c:[[@LINE-2]]:12: error: the conversion '(int)v[i + 1]' of a float to an integer is not imported: it is not differentiable

void compare_unsigned32(unsigned n, double u[restrict n], const double v[restrict n]) {
  for (int i = 1; i < n - 1; i++)
    u[i] = i - 5 < n ? v[i] : 0.0;
}
// CMP32: unsigned-wrap.c:[[@LINE-2]]:18: error: the comparison 'i - 5 < n' is unsigned and narrower than 64 bits in C; a stencil loop compares integers as 64-bit values

void compare_size_t(size_t n, double u[restrict n], const double v[restrict n]) {
  for (int i = 1; i < n - 1; i++)
    u[i] = i - 5 < n ? v[i] : 0.0;
}
// CMP64-LABEL: func.func @compare_size_t(
// CMP64: arith.cmpi ult,
