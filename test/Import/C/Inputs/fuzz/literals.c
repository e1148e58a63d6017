// A seed of stencil-import-c-fuzz (fuzz.test replays it; lit does not run
// it): integer literals of every width and signedness in float expressions
// and in indices and bounds, up to the 2^40 limit.
// RUN: stencil-import-c %s
void f(int n, double *restrict v, const double *restrict u) {
  for (long i = 1099511627775; i <= 1099511627775; i++)
    v[i] = 18446744073709551615ULL * u[i - 1099511627776 + 1] +
           9223372036854775808ULL + 4294967295U - 3 + 0x7fffffffL +
           u[i * 1 + 0];
}
