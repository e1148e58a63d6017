// The functions of abi-bounds-check.test: a 1-D stencil reading u at i-1
// and i+1 for i in [1, n) (so u needs n + 1 points, v n), a 2-D one
// reading a one column right of the domain (a needs n + 1 columns), and
// one reading u one past a domain that ends at 2 * n (u needs 2 * n + 1
// points: a bound that can leave 64 bits), one reading the fixed
// element w[1][4] at every point (w needs 2 rows and 5 columns), and one
// on the triangle j in [i, n) reading a one column right (a needs n + 1
// columns, as the triangle's last column n - 1 gives), and a window
// i in [max(1, n - 6), min(n - 1, 5)) reading u at i - 1 and i + 1, whose
// ends depend on n (u needs n points for n <= 6, none for n <= 2 or
// n >= 11, 6 in between), and a skewed band i in [max(0, s), n),
// j in [i - s, n - s) reading v[j], whose lower end of j is 0 only through
// the lower end of i that s chooses (v needs n - s points).
func.func @shift(%u: memref<?xf64> {stencil.active}, %v: memref<?xf64> {stencil.active},
                 %n: index) {
  stencil.domain (%i) = (1) to (%n) {
    %x = stencil.gather %u[-1] : memref<?xf64>
    %y = stencil.gather %u[1] : memref<?xf64>
    %s = arith.addf %x, %y : f64
    stencil.store %s to %v : memref<?xf64>
  }
  return
}

func.func @right(%a: memref<?x?xf64>, %b: memref<?x?xf64>, %n: index) {
  stencil.domain (%i, %j) = (0, 0) to (%n, %n) {
    %x = stencil.gather %a[0, 1] : memref<?x?xf64>
    stencil.store %x to %b : memref<?x?xf64>
  }
  return
}

func.func @twice(%u: memref<?xf64>, %v: memref<?xf64>, %n: index) {
  %c2 = arith.constant 2 : index
  %m = arith.muli %n, %c2 : index
  stencil.domain (%i) = (0) to (%m) {
    %x = stencil.gather %u[1] : memref<?xf64>
    stencil.store %x to %v : memref<?xf64>
  }
  return
}

func.func @taps(%w: memref<?x?xf64>, %v: memref<?xf64>, %n: index) {
  stencil.domain (%i) = (0) to (%n) {
    %x = stencil.gather %w[1, 4] dims [_, _] : memref<?x?xf64>
    stencil.store %x to %v : memref<?xf64>
  }
  return
}

func.func @triangle(%a: memref<?x?xf64>, %b: memref<?x?xf64>, %n: index) {
  stencil.domain (%i, %j) = (0, %i) to (%n, %n) {
    %x = stencil.gather %a[0, 1] : memref<?x?xf64>
    stencil.store %x to %b : memref<?x?xf64>
  }
  return
}

func.func @window(%u: memref<?xf64>, %v: memref<?xf64>, %n: index) {
  stencil.domain (%i) = (max(1, %n - 6)) to (min(%n - 1, 5)) {
    %x = stencil.gather %u[-1] : memref<?xf64>
    %y = stencil.gather %u[1] : memref<?xf64>
    %s = arith.addf %x, %y : f64
    stencil.store %s to %v : memref<?xf64>
  }
  return
}

func.func @skew(%v: memref<?xf64>, %b: memref<?x?xf64>, %n: index,
                %s: index) {
  stencil.domain (%i, %j) = (max(0, %s), %i - %s) to (%n, %n - %s) {
    %x = stencil.gather %v[0] dims [1] : memref<?xf64>
    stencil.store %x to %b : memref<?x?xf64>
  }
  return
}
