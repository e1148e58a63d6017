//===- StencilOps.td - Stencil dialect ops -----------------*- tablegen -*-===//
//
// This file declares the ops of the `stencil` dialect: the iteration domain,
// its terminator, and the three array accesses (gather, store, accumulate).
//
//===----------------------------------------------------------------------===//

#ifndef STENCIL_DIALECT_STENCILOPS_TD
#define STENCIL_DIALECT_STENCILOPS_TD

include "Stencil/Dialect/StencilDialect.td"
include "Stencil/Dialect/StencilInterfaces.td"
include "mlir/IR/OpAsmInterface.td"
include "mlir/Interfaces/ControlFlowInterfaces.td"
include "mlir/Interfaces/SideEffectInterfaces.td"

//===----------------------------------------------------------------------===//
// DomainOp
//===----------------------------------------------------------------------===//

def Stencil_DomainOp : Stencil_Op<"domain", [
    RecursiveMemoryEffects,
    SingleBlockImplicitTerminator<"YieldOp">]> {
  let summary = "a perfect loop nest over an affine iteration domain";
  let description = [{
    Runs its body once for every point of a `d`-dimensional iteration
    domain (`d >= 1`). The block arguments of the body are the coordinates
    of the current point, outermost dimension first.

    **Bounds.** Dimension `k` ranges over the half-open interval
    `[lower_k, upper_k)`: the upper bound is exclusive, as everywhere in MLIR.
    Each bound is an affine expression of symbols (`index` values defined
    outside the domain, such as `%n`), constants and the coordinates of the
    outer dimensions (those before `k`); `symbol(%n)` is accepted as a
    synonym of `%n`. A lower bound may be the maximum of several such
    expressions, `max(e1, e2, ...)`, and an upper bound their minimum,
    `min(...)`, as in `affine.parallel`. A domain whose bounds are single
    expressions of symbols is rectangular (a box); the others, triangles,
    trapezoids, wedges and skewed shapes, are nonrectangular. A dimension
    whose upper bound is not greater than its lower bound is empty at that
    outer point: the domain then has no point there (rows may be partly
    empty, or the whole domain empty).

    In the generic form the bounds are one map each over the coordinates
    (as dimensions, none in a rectangular domain) and the operands (as
    symbols); `lowerCounts` and `upperCounts`, when present, say how many
    consecutive results of the map each dimension's `max`/`min` takes.

    **Body.** Arrays are accessed only through `stencil.gather`,
    `stencil.store` and `stencil.accumulate`; every other op in the body must
    be free of memory effects (`arith`, `math`, ...), except `func.call`,
    whose callee is assumed to be a pure function of its operands. Values
    defined above the domain (scalars such as a time step) may be used
    directly. Points may run in any order and in parallel, so within one
    domain an array is either read (gathered) or written (stored or
    accumulated), never both, and an array that is stored is stored once.

    **Reductions.** A domain may return float results: the body's
    `stencil.yield` operands are summed over all points of the domain. The
    lowering fixes the summation order, so the sum does not depend on the
    number of threads.

    ```mlir
    // r[i] = c[i] * (2 u[i-1] - 3 u[i] + 4 u[i+1]) for i in [1, n-1).
    stencil.domain (%i) = (1) to (%n - 1) {
      %um = stencil.gather %u[-1] : memref<?xf64>
      %u0 = stencil.gather %u[0] : memref<?xf64>
      %up = stencil.gather %u[1] : memref<?xf64>
      %c = stencil.gather %c[0] : memref<?xf64>
      ...
      stencil.store %v to %r : memref<?xf64>
    }
    // A reduction: s = sum_i r[i]^2.
    %s = stencil.domain (%i) = (0) to (%n) -> (f64) {
      %x = stencil.gather %r[0] : memref<?xf64>
      %x2 = arith.mulf %x, %x : f64
      stencil.yield %x2 : f64
    }
    // A triangle: j in [i, n - 1) for i in [1, n - 1).
    stencil.domain (%i, %j) = (1, %i) to (%n - 1, %n - 1) {
      ...
    }
    // A trapezoid clipped by the box [0, n) x [0, m).
    stencil.domain (%i, %j) = (0, max(0, %i - 4)) to (%n, min(%m, %i + 8)) {
      ...
    }
    ```
  }];

  let arguments = (ins AffineMapAttr:$lowerBounds,
                       AffineMapAttr:$upperBounds,
                       OptionalAttr<DenseI32ArrayAttr>:$lowerCounts,
                       OptionalAttr<DenseI32ArrayAttr>:$upperCounts,
                       Variadic<Index>:$boundOperands);
  let results = (outs Variadic<Stencil_Float>:$results);
  let regions = (region SizedRegion<1>:$body);

  let skipDefaultBuilders = 1;
  let builders = [
    /// Builds a domain from symbol-only bound maps (one result per dimension)
    /// over `boundOperands`, with an empty body block holding one index
    /// argument per dimension and, when there are no results, the implicit
    /// terminator.
    OpBuilder<(ins "::mlir::AffineMap":$lowerBounds,
                   "::mlir::AffineMap":$upperBounds,
                   "::mlir::ValueRange":$boundOperands,
                   CArg<"::mlir::TypeRange", "{}">:$resultTypes)>,
    /// Builds a domain from bound maps over (coordinates, `boundOperands`)
    /// whose results dimension k takes `lowerCounts[k]` and
    /// `upperCounts[k]` of (the max of its lower and the min of its upper
    /// bounds; empty counts: one each). Maps that use no coordinate and
    /// take one result per dimension are stored as symbol-only maps
    /// without counts, the form of a rectangular domain.
    OpBuilder<(ins "::mlir::AffineMap":$lowerBounds,
                   "::llvm::ArrayRef<int32_t>":$lowerCounts,
                   "::mlir::AffineMap":$upperBounds,
                   "::llvm::ArrayRef<int32_t>":$upperCounts,
                   "::mlir::ValueRange":$boundOperands,
                   CArg<"::mlir::TypeRange", "{}">:$resultTypes)>,
    /// Builds a domain over the bounds of `other` (same maps and counts)
    /// with `boundOperands` in place of its operands.
    OpBuilder<(ins "DomainOp":$other, "::mlir::ValueRange":$boundOperands,
                   CArg<"::mlir::TypeRange", "{}">:$resultTypes)>,
  ];

  let hasCustomAssemblyFormat = 1;
  let hasVerifier = 1;
  let hasRegionVerifier = 1;
  // Folds bound operands that are index constants into the bound maps.
  let hasCanonicalizeMethod = 1;

  let extraClassDeclaration = [{
    /// Folds the bound operands that are index constants (`%c2 =
    /// arith.constant 2 : index`) into the bound maps and drops them;
    /// returns true if there were any. The passes that need constant
    /// bounds (the cut's temporaries, constant extents) call it first.
    bool foldConstantBounds();
    /// Returns the number of dimensions of the iteration domain.
    unsigned getRank() {
      if (std::optional<::llvm::ArrayRef<int32_t>> counts = getLowerCounts())
        return counts->size();
      return getLowerBounds().getNumResults();
    }
    /// Returns true if every bound is a single expression of the symbols
    /// (a box); false if some bound uses an outer coordinate or takes a
    /// max/min (a nonrectangular domain).
    bool isRectangular() {
      return getLowerBounds().getNumDims() == 0 && !getLowerCounts() &&
             !getUpperCounts();
    }
    /// Reports a located error saying that `what` supports rectangular
    /// domains only, unless this domain is one.
    ::mlir::LogicalResult requireRectangular(::llvm::StringRef what);
    /// Returns the lower (max) or upper (min) bound of dimension `k` as a
    /// map over the coordinates of dimensions 0..k-1 (as dimensions) and
    /// the bound operands (as symbols), one result per expression.
    ::mlir::AffineMap getLowerBoundMap(unsigned k);
    ::mlir::AffineMap getUpperBoundMap(unsigned k);
    /// Returns the body block.
    ::mlir::Block *getBodyBlock() { return &getBody().front(); }
    /// Returns the coordinates of the current point (the block arguments).
    ::mlir::Block::BlockArgListType getInductionVars() {
      return getBodyBlock()->getArguments();
    }
    /// Returns the terminator of the body.
    YieldOp getYield();
    /// Returns true if some accumulate of the body that is not a reduction
    /// is at a non-zero offset, i.e. if points of the domain may update the
    /// same element (what the gather form or atomics resolve).
    bool hasScatter();
    /// Returns true if the body reduces: an accumulate through a `dims`
    /// that is not a permutation of the iteration dimensions.
    bool hasReduction();
    /// Returns true if `other` iterates over the same points: the same bound
    /// maps over the same SSA operands.
    bool hasSameBounds(DomainOp other);
  }];
}

//===----------------------------------------------------------------------===//
// YieldOp
//===----------------------------------------------------------------------===//

def Stencil_YieldOp : Stencil_Op<"yield", [
    Pure, ReturnLike, Terminator, HasParent<"DomainOp">]> {
  let summary = "terminates a domain body, yielding per-point summands";
  let description = [{
    Terminates the body of a `stencil.domain`. Its operands, one per result
    of the domain, are the values that the domain sums over all its points.
    It is implicit when the domain has no results.

    ```mlir
    stencil.yield %x2 : f64
    ```
  }];
  let arguments = (ins Variadic<Stencil_Float>:$values);
  let builders = [OpBuilder<(ins), [{ /* nothing to do */ }]>];
  let assemblyFormat = "attr-dict ($values^ `:` type($values))?";
}

//===----------------------------------------------------------------------===//
// Access ops
//===----------------------------------------------------------------------===//

/// The ops that read or write an array relative to the current point. They
/// live directly in a domain body and implement the access interface.
class Stencil_AccessOp<string mnemonic, list<Trait> traits = []>
    : Stencil_Op<mnemonic, !listconcat(traits, [
        HasParent<"DomainOp">,
        DeclareOpInterfaceMethods<Stencil_AccessOpInterface>])> {
  let hasVerifier = 1;
}

def Stencil_GatherOp : Stencil_AccessOp<"gather", [
    TypesMatchWith<"result type is the element type of the array",
                   "array", "result",
                   "::llvm::cast<::mlir::MemRefType>($_self).getElementType()">]> {
  let summary = "reads an array at a constant offset from the current point";
  let description = [{
    Reads `array[iv[dims[0]] + offset[0], ..., iv[dims[r-1]] + offset[r-1]]`,
    where `iv` is the current point of the enclosing domain and `r` the array
    rank. Without `dims`, array dimension `a` is indexed by iteration
    dimension `a` (the identity; the array rank must then equal the domain
    rank). `dims` may permute, select or repeat iteration dimensions, e.g.
    reading a 1-D coefficient `c[j]` in a 2-D domain, or fix an array
    dimension with `_`: that dimension follows no iteration dimension and its
    offset is the absolute index (`%w[1, 2] dims [_, _]` reads `w[1][2]`).
    The offset is a compile time constant; the read must be in bounds for
    every point of the domain.

    ```mlir
    // u[i-1][j][k+2] in a 3-D domain (i, j, k):
    %a = stencil.gather %u[-1, 0, 2] : memref<?x?x?xf64>
    // c[j] in a 2-D domain (i, j):
    %b = stencil.gather %c[0] dims [1] : memref<?xf64>
    // u[2][i+1][j], channel 2 fixed, in a 2-D domain (i, j):
    %c = stencil.gather %u[2, 1, 0] dims [_, 0, 1] : memref<?x?x?xf64>
    ```
  }];
  let arguments = (ins Arg<Stencil_Array, "the array to read", [MemRead]>:$array,
                       DenseI64ArrayAttr:$offset,
                       OptionalAttr<DenseI64ArrayAttr>:$dims);
  let results = (outs Stencil_Float:$result);
  let assemblyFormat = [{
    $array `` $offset `` custom<AccessDims>($dims) attr-dict `:` type($array)
  }];
}

def Stencil_StoreOp : Stencil_AccessOp<"store", [
    TypesMatchWith<"value type is the element type of the array",
                   "array", "value",
                   "::llvm::cast<::mlir::MemRefType>($_self).getElementType()">]> {
  let summary = "assigns a value to an array at the current point";
  let description = [{
    Assigns `value` to `array[iv[dims[0]], ..., iv[dims[d-1]]]` (`=`). The
    write is at the centre: `dims`, if given, must be a permutation of the
    iteration dimensions (so that no two points assign the same element);
    without it the array is indexed by the point itself. To write at a
    subset of the iteration dimensions, sum with `stencil.accumulate`.

    ```mlir
    stencil.store %v to %r : memref<?x?xf64>
    // r[j][i] in a domain (i, j):
    stencil.store %v to %rt dims [1, 0] : memref<?x?xf64>
    ```
  }];
  let arguments = (ins Stencil_Float:$value,
                       Arg<Stencil_Array, "the array to write", [MemWrite]>:$array,
                       OptionalAttr<DenseI64ArrayAttr>:$dims);
  let assemblyFormat = [{
    $value `to` $array `` custom<AccessDims>($dims) attr-dict `:` type($array)
  }];
}

def Stencil_AccumulateOp : Stencil_AccessOp<"accumulate", [
    TypesMatchWith<"value type is the element type of the array",
                   "array", "value",
                   "::llvm::cast<::mlir::MemRefType>($_self).getElementType()">]> {
  let summary = "adds a value to an array element at a constant offset";
  let description = [{
    Performs `array[iv[dims[a]] + offset[a], ...] += value`. With a zero
    offset this is a centre accumulate; with a non-zero offset it is a
    *scatter*, the access pattern that reverse-mode AD produces from a gather.
    Different points may then update the same element, so a domain that
    scatters is not parallel as written: the scatter-to-gather conversion (or
    atomics) make it so.

    `dims` may also select, repeat or fix (`_`) dimensions, as for a gather:
    the accumulate is then a *reduction*, summing over the points that share
    the iteration dimensions it uses. Reductions are lowered in a fixed
    order that depends on the sizes only, never on the threads.

    ```mlir
    // ub[i-1] += t
    stencil.accumulate %t to %ub[-1] : memref<?xf64>
    // vb[k] += t in a domain (i, j, k): a reduction over (i, j)
    stencil.accumulate %t to %vb[0] dims [2] : memref<?xf64>
    // wb[1][2] += t: a reduction over every point
    stencil.accumulate %t to %wb[1, 2] dims [_, _] : memref<3x3xf64>
    ```
  }];
  let arguments = (ins Stencil_Float:$value,
                       Arg<Stencil_Array, "the array to update",
                           [MemRead, MemWrite]>:$array,
                       DenseI64ArrayAttr:$offset,
                       OptionalAttr<DenseI64ArrayAttr>:$dims);
  let assemblyFormat = [{
    $value `to` $array `` $offset `` custom<AccessDims>($dims) attr-dict `:` type($array)
  }];
  let extraClassDeclaration = [{
    /// Returns true if `dims` is not a permutation of the enclosing
    /// domain's iteration dimensions: the update sums over the points that
    /// share the iteration dimensions it uses (a selection, a repetition, a
    /// fixed element or a rank-0 array).
    bool isReduction();
    /// Returns true if the update is not a reduction and is at a non-zero
    /// offset (a scatter).
    bool isScatter() {
      return !isReduction() &&
             ::llvm::any_of(getOffset(), [](int64_t o) { return o != 0; });
    }
  }];
}

#endif // STENCIL_DIALECT_STENCILOPS_TD
