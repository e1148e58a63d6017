//===- Delinearize.h - Multi-dimensional form of linearized indices -*- C++ -*-===//
//
// A C kernel often stores a 3-D field in a flat array and indexes it by hand:
// `w[(i*ny + j)*nz + k + 1]`, directly or through a macro. The stencil dialect
// needs the multi-dimensional access `w[i][j][k+1]`. This file recovers it.
//
// Everything here is plain integer algebra with no Clang types, so it can be
// tested and fuzzed on its own. The importer turns a subscript into a
// Polynomial over "atoms" (loop counters and integer size parameters, named
// in an AtomTable), then, per flat array:
//
//   1. inferLayout() on each access gives the strides of its counters, which
//      must nest (each divides the next larger one);
//   2. mergeLayouts() folds them into the array's layout, outermost stride
//      first, or checks them against a layout fixed by declared extents
//      (layoutFromExtents());
//   3. completeLayout() checks that the innermost stride is 1;
//   4. decompose() writes each access as sum_a (counter_a + offset_a) *
//      stride_a, and reports which counter indexes which dimension;
//   5. checkWithinExtents() proves that each recovered subscript stays inside
//      its dimension over the loop's range.
//
// Every function that can fail returns failure() with a sentence in `why`
// that says what is wrong and why it is not a stencil access; the caller adds
// the source location. No input makes them assert or overflow: coefficients
// are checked 64-bit integers and polynomials are bounded in size.
//
// Like any delinearization, the result is only right when each recovered
// subscript stays within its dimension (w[i][j][k-1] at k = 0 is the last
// element of the previous row in C, outside the dimension in the
// multi-dimensional form): step 5 checks it.
//
//===----------------------------------------------------------------------===//

#ifndef STENCIL_LIB_IMPORT_C_DELINEARIZE_H
#define STENCIL_LIB_IMPORT_C_DELINEARIZE_H

#include "mlir/Support/LLVM.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdint>
#include <optional>
#include <string>

namespace mlir::stencil::importc {

/// The atoms a polynomial is built from: loop counters and integer size
/// parameters. An atom's id is its index in the table. Ids the table does not
/// know print as `?` and are not counters.
class AtomTable {
public:
  unsigned addCounter(StringRef name) { return add(name, /*counter=*/true); }
  unsigned addSize(StringRef name) { return add(name, /*counter=*/false); }
  bool isCounter(unsigned id) const {
    return id < counters.size() && counters[id];
  }
  StringRef name(unsigned id) const {
    return id < names.size() ? StringRef(names[id]) : StringRef("?");
  }
  unsigned size() const { return names.size(); }

private:
  unsigned add(StringRef name, bool counter);
  SmallVector<std::string> names;
  SmallVector<bool> counters;
};

/// An integer polynomial over atoms, kept canonical: a sum of terms with
/// non-zero int64 coefficients, each a product of atoms (with multiplicity),
/// ordered by degree, then lexicographically (graded lex, the leading term
/// first). Arithmetic that overflows int64, or gives more than kMaxTerms terms
/// or a term of degree above kMaxDegree, gives an invalid polynomial; invalid
/// is sticky through + - * and every analysis below refuses it.
class Polynomial {
public:
  static constexpr unsigned kMaxTerms = 256;
  static constexpr unsigned kMaxDegree = 32;

  /// One term: coefficient * product of `atoms` (sorted ascending).
  struct Term {
    SmallVector<unsigned, 4> atoms;
    int64_t coefficient;
    bool operator==(const Term &other) const {
      return coefficient == other.coefficient && atoms == other.atoms;
    }
  };
  enum class State { Valid, Overflow, TooLarge };
  /// Whether `a` comes before `b` in the canonical (graded lex) order.
  static bool leads(const Term &a, const Term &b);

  Polynomial() = default;
  static Polynomial constant(int64_t value);
  static Polynomial atom(unsigned id);
  /// coefficient * product of `atoms` (in any order, repeats allowed).
  static Polynomial monomial(int64_t coefficient, ArrayRef<unsigned> atoms);

  Polynomial operator+(const Polynomial &other) const;
  Polynomial operator-(const Polynomial &other) const;
  Polynomial operator*(const Polynomial &other) const;
  Polynomial operator-() const;
  /// Multiplies by an integer (checked).
  Polynomial scaled(int64_t factor) const;

  bool isValid() const { return state == State::Valid; }
  State getState() const { return state; }
  bool isZero() const { return isValid() && terms.empty(); }
  bool isConstant() const;
  /// The value of a constant polynomial; nullopt if not constant or invalid.
  std::optional<int64_t> constantValue() const;
  /// The terms, leading first (empty for zero and for invalid polynomials).
  ArrayRef<Term> getTerms() const { return terms; }
  /// The highest degree of a term (0 for constants and zero).
  unsigned degree() const;
  /// The exact quotient this / divisor, or nullopt when the division leaves a
  /// remainder (or either side is invalid or zero, or the work is too large).
  std::optional<Polynomial> divideExactly(const Polynomial &divisor) const;

  bool operator==(const Polynomial &other) const {
    return state == other.state && terms == other.terms;
  }
  bool operator!=(const Polynomial &other) const { return !(*this == other); }

  /// Prints as C would read it, e.g. `i*ny*nz + j*nz - 2`, the atoms of a
  /// term for which `isCounter` holds first. Invalid polynomials print as
  /// `<overflow>` or `<too large>`.
  void print(raw_ostream &os, function_ref<StringRef(unsigned)> name,
             function_ref<bool(unsigned)> isCounter = nullptr) const;
  void print(raw_ostream &os, const AtomTable &atoms) const;
  std::string str(const AtomTable &atoms) const;

private:
  static Polynomial invalid(State state);
  /// Sorts, combines equal monomials, drops zeros, enforces the limits.
  void normalize();

  SmallVector<Term> terms;
  State state = State::Valid;
};

/// Fails with a sentence about "the `what`" in `why` when `p` is invalid
/// (overflowed, or too large).
LogicalResult checkValid(const Polynomial &p, StringRef what,
                         std::string &why);

/// Parses an integer expression over named atoms: integers, names, `+`, `-`,
/// `*` and parentheses (`n + 2`, `2*nz`), as written in `--extents`.
/// `atomOf` maps a name to its atom, or nullopt for an unknown name.
FailureOr<Polynomial>
parsePolynomial(StringRef text,
                function_ref<std::optional<unsigned>(StringRef)> atomOf,
                std::string &why);

/// The row-major layout of a flat array, as strides, outermost first. A
/// complete layout ends in stride 1 and each stride is the next one times
/// the extent of that next dimension: extent[a] = strides[a-1] / strides[a]
/// for a >= 1; the outermost extent is not part of the layout.
/// The strides of a single access (inferLayout) form such a chain too, but
/// need not include every dimension nor end in 1.
struct LinearLayout {
  SmallVector<Polynomial> strides;

  unsigned rank() const { return strides.size(); }
  /// extent[a] for 1 <= a < rank(); nullopt for a = 0 or out of range.
  std::optional<Polynomial> extent(unsigned a) const;
  /// `(ny*nz, nz, 1)`.
  void printStrides(raw_ostream &os, const AtomTable &atoms) const;
  /// `w[?][ny][nz]`.
  void printExtents(raw_ostream &os, StringRef array,
                    const AtomTable &atoms) const;
};

/// The strides of the counters in one access, outermost first. Each term of
/// `index` has at most one counter, of degree 1; each counter's coefficient is
/// its stride, with a positive leading coefficient; the strides are pairwise
/// distinct and each divides the next larger one. Constant terms are ignored
/// here (see decompose).
FailureOr<LinearLayout> inferLayout(const Polynomial &index,
                                    const AtomTable &atoms, std::string &why);

/// The layout declared by extents (outermost first, as in `w[nx][ny][nz]` or
/// `--extents=w:nx,ny,nz`): strides (ny*nz, nz, 1). extents[0] is not used.
/// Every other extent must have a positive leading coefficient and not be 1.
FailureOr<LinearLayout> layoutFromExtents(ArrayRef<Polynomial> extents,
                                          const AtomTable &atoms,
                                          std::string &why);

/// Adds the strides of one access (from inferLayout) to the layout built from
/// the array's other accesses. When `declared` is set the layout came from
/// declared extents and is fixed: every stride of the access must be one of
/// its strides. Otherwise the union of both must still form a chain, and
/// `layout` becomes that union (an access that shows more dimensions refines
/// it). The message names `array`.
LogicalResult mergeLayouts(LinearLayout &layout, const LinearLayout &access,
                           bool declared, StringRef array,
                           const AtomTable &atoms, std::string &why);

/// Checks that the merged layout ends in stride 1 (an array accessed only at
/// fixed elements has the empty layout, which becomes the 1-D layout (1)).
LogicalResult completeLayout(LinearLayout &layout, StringRef array,
                             const AtomTable &atoms, std::string &why);

/// One access in the multi-dimensional form, per dimension outermost first:
/// the counter that indexes the dimension and the offset added to it, or no
/// counter and the absolute (constant) position.
struct DelinearizedAccess {
  SmallVector<std::optional<unsigned>> counter;
  SmallVector<int64_t> offset;
};

/// Writes `index` as sum_a (counter_a + offset_a) * layout.strides[a]: each
/// counter's coefficient must be exactly one stride (a coefficient of 2 or
/// 2*nz is refused), no two counters share a dimension, and the constant
/// part is divided greedily from the outermost stride (by its leading term,
/// rounding to the nearest integer: with strides (64, 1) the offset -63 is
/// (-1, +1)), leaving no remainder. `layout` should be complete.
FailureOr<DelinearizedAccess> decompose(const Polynomial &index,
                                        const LinearLayout &layout,
                                        StringRef array, const AtomTable &atoms,
                                        std::string &why);

/// The half-open range [lower, upper) of a loop counter (a C loop
/// `i <= n - 2` has upper n - 1).
struct CounterRange {
  Polynomial lower, upper;
};

/// Checks that every subscript of `access` stays inside its dimension for
/// all counter values, in every dimension but the outermost (whose extent
/// the layout does not know): lower + offset >= 0 and upper - 1 + offset <=
/// extent - 1 for a counter, 0 <= offset < extent for a fixed position. Each
/// difference must be a constant (sizes may be anything), so `j` in
/// [1, nz - 1) with offset 1 and extent nz is proven, `i` in [0, n) with
/// extent 2 is not. `range` gives a counter's range, or nullopt if unknown.
/// Where a subscript may leave its dimension the C index reaches into another
/// row, which the multi-dimensional access does not express: refused.
LogicalResult
checkWithinExtents(const DelinearizedAccess &access, const LinearLayout &layout,
                   function_ref<std::optional<CounterRange>(unsigned)> range,
                   StringRef array, const AtomTable &atoms, std::string &why);

} // namespace mlir::stencil::importc

#endif // STENCIL_LIB_IMPORT_C_DELINEARIZE_H
