//===- Delinearize.cpp - Multi-dimensional form of linearized indices -----===//
//
// This file implements the layouts of Delinearize.h: their inference,
// merging and completion, the decomposition of one access and the row check
// (the polynomials are in Polynomial.cpp). The strides of a layout are ordered by the key (degree, leading
// coefficient), largest first: when a stride s divides t with a quotient
// other than 1 whose leading coefficient is positive, t has the larger key,
// so sorting by the key and checking consecutive divisibility finds a chain
// whenever the strides form one.
//
//===----------------------------------------------------------------------===//

#include "Delinearize.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/Twine.h"

#include <algorithm>

using namespace mlir;
using namespace mlir::stencil::importc;

using Term = Polynomial::Term;

//===----------------------------------------------------------------------===//
// LinearLayout
//===----------------------------------------------------------------------===//

std::optional<Polynomial> LinearLayout::extent(unsigned a) const {
  if (a == 0 || a >= strides.size())
    return std::nullopt;
  return strides[a - 1].divideExactly(strides[a]);
}

void LinearLayout::printStrides(raw_ostream &os,
                                const AtomTable &atoms) const {
  os << "(";
  llvm::interleaveComma(strides, os,
                        [&](const Polynomial &s) { s.print(os, atoms); });
  os << ")";
}

void LinearLayout::printExtents(raw_ostream &os, StringRef array,
                                const AtomTable &atoms) const {
  os << array << "[?]";
  for (unsigned a = 1; a < strides.size(); ++a) {
    os << "[";
    if (std::optional<Polynomial> e = extent(a))
      e->print(os, atoms);
    else
      os << "?";
    os << "]";
  }
}

//===----------------------------------------------------------------------===//
// Shared helpers
//===----------------------------------------------------------------------===//

namespace {
/// The coefficient of one counter in an index.
struct CounterPart {
  unsigned counter;
  Polynomial coefficient;
};

std::string toString(const Polynomial &p, const AtomTable &atoms) {
  return p.str(atoms);
}

std::string toString(const LinearLayout &layout, const AtomTable &atoms) {
  std::string text;
  llvm::raw_string_ostream os(text);
  layout.printStrides(os, atoms);
  return text;
}

/// Splits `index` into the coefficient of each counter (in order of first
/// appearance) and the part without counters.
LogicalResult splitByCounter(const Polynomial &index, const AtomTable &atoms,
                             SmallVectorImpl<CounterPart> &parts,
                             Polynomial &remainder, std::string &why) {
  if (failed(checkValid(index, "index", why)))
    return failure();
  remainder = Polynomial();
  for (const Term &term : index.getTerms()) {
    SmallVector<unsigned, 2> counters;
    SmallVector<unsigned, 4> rest;
    for (unsigned atom : term.atoms) {
      if (atoms.isCounter(atom))
        counters.push_back(atom);
      else
        rest.push_back(atom);
    }
    Polynomial rest_poly = Polynomial::monomial(term.coefficient, rest);
    if (counters.empty()) {
      remainder = remainder + rest_poly;
      continue;
    }
    if (counters.size() > 1) {
      std::string termText =
          Polynomial::monomial(term.coefficient, term.atoms).str(atoms);
      StringRef first = atoms.name(counters[0]);
      why = ("the index " + index.str(atoms) + " is not affine in " + first +
             ": the term " + termText + " multiplies " + first +
             (counters[1] == counters[0]
                  ? Twine(" by itself")
                  : " by the loop counter " + atoms.name(counters[1])) +
             "; a stencil access adds a constant offset to each counter")
                .str();
      return failure();
    }
    auto *part = llvm::find_if(
        parts, [&](const CounterPart &p) { return p.counter == counters[0]; });
    if (part == parts.end())
      parts.push_back({counters[0], rest_poly});
    else
      part->coefficient = part->coefficient + rest_poly;
  }
  // Terms that cancel leave a counter with coefficient 0: it does not index.
  llvm::erase_if(parts, [](const CounterPart &p) {
    return p.coefficient.isZero();
  });
  if (failed(checkValid(remainder, "index", why)))
    return failure();
  for (const CounterPart &part : parts)
    if (failed(checkValid(part.coefficient, "index", why)))
      return failure();
  return success();
}

/// A stride must be a valid, non-zero polynomial with a positive leading
/// coefficient. `what` names it in the message.
LogicalResult checkStride(const Polynomial &stride, const Twine &what,
                          const AtomTable &atoms, std::string &why) {
  if (failed(checkValid(stride, "stride", why)))
    return failure();
  if (stride.isZero()) {
    why = (what + " is 0").str();
    return failure();
  }
  if (stride.getTerms().front().coefficient < 0) {
    why = (what + ", " + toString(stride, atoms) +
           ", is negative: the access runs backwards through the array, "
           "which is not a stencil access")
              .str();
    return failure();
  }
  return success();
}

/// The order of strides in a layout: (degree, leading coefficient), largest
/// first.
bool strideBefore(const Polynomial &a, const Polynomial &b) {
  if (a.degree() != b.degree())
    return a.degree() > b.degree();
  return a.getTerms().front().coefficient > b.getTerms().front().coefficient;
}

/// strideBefore made total (ties broken by the terms), for a deterministic
/// order of strides that do not form a chain.
bool strideOrder(const Polynomial &a, const Polynomial &b) {
  if (strideBefore(a, b) || strideBefore(b, a))
    return strideBefore(a, b);
  ArrayRef<Term> x = a.getTerms(), y = b.getTerms();
  return std::lexicographical_compare(
      x.begin(), x.end(), y.begin(), y.end(), [](const Term &s, const Term &t) {
        if (s.atoms != t.atoms)
          return Polynomial::leads(s, t);
        return s.coefficient < t.coefficient;
      });
}

/// Whether `inner` divides `outer` with a quotient other than 1.
bool nests(const Polynomial &outer, const Polynomial &inner) {
  std::optional<Polynomial> q = outer.divideExactly(inner);
  return q && !q->isZero() && q->getTerms().front().coefficient > 0 &&
         q->constantValue() != std::optional<int64_t>(1);
}
} // namespace

//===----------------------------------------------------------------------===//
// Layouts
//===----------------------------------------------------------------------===//

FailureOr<LinearLayout>
mlir::stencil::importc::inferLayout(const Polynomial &index,
                                    const AtomTable &atoms, std::string &why) {
  SmallVector<CounterPart> parts;
  Polynomial remainder;
  if (failed(splitByCounter(index, atoms, parts, remainder, why)))
    return failure();
  for (const CounterPart &part : parts)
    if (failed(checkStride(part.coefficient,
                           "the coefficient of " + atoms.name(part.counter),
                           atoms, why)))
      return failure();
  llvm::sort(parts, [](const CounterPart &a, const CounterPart &b) {
    if (strideBefore(a.coefficient, b.coefficient) ||
        strideBefore(b.coefficient, a.coefficient))
      return strideBefore(a.coefficient, b.coefficient);
    return a.counter < b.counter;
  });
  LinearLayout layout;
  for (auto [a, part] : llvm::enumerate(parts)) {
    if (a > 0) {
      const CounterPart &outer = parts[a - 1];
      StringRef o = atoms.name(outer.counter), i = atoms.name(part.counter);
      std::string os = toString(outer.coefficient, atoms),
                  is = toString(part.coefficient, atoms);
      if (outer.coefficient == part.coefficient) {
        why = (o + " and " + i + " have the same stride " + os +
               ", so they index the same dimension; a stencil access "
               "indexes each dimension with its own counter")
                  .str();
        return failure();
      }
      if (!nests(outer.coefficient, part.coefficient)) {
        why = ("the strides of " + o + " (" + os + ") and " + i + " (" + is +
               ") do not nest: " + os + " is not a multiple of " + is +
               ", so the index is not a row-major linearization of an array")
                  .str();
        return failure();
      }
    }
    layout.strides.push_back(part.coefficient);
  }
  return layout;
}

FailureOr<LinearLayout>
mlir::stencil::importc::layoutFromExtents(ArrayRef<Polynomial> extents,
                                          const AtomTable &atoms,
                                          std::string &why) {
  if (extents.empty()) {
    why = "no extents were given";
    return failure();
  }
  LinearLayout layout;
  layout.strides.assign(extents.size(), Polynomial::constant(1));
  for (unsigned a = extents.size() - 1; a >= 1; --a) {
    const Polynomial &extent = extents[a];
    std::string what = ("the extent of dimension " + Twine(a)).str();
    if (failed(checkStride(extent, what, atoms, why)))
      return failure();
    for (const Term &term : extent.getTerms())
      for (unsigned atom : term.atoms)
        if (atoms.isCounter(atom)) {
          why = (what + ", " + toString(extent, atoms) +
                 ", depends on the loop counter " + atoms.name(atom))
                    .str();
          return failure();
        }
    if (extent.constantValue() == std::optional<int64_t>(1)) {
      why = what + " is 1: its index cannot be told from the next one's";
      return failure();
    }
    layout.strides[a - 1] = layout.strides[a] * extent;
    if (failed(checkValid(layout.strides[a - 1], "product of the extents",
                          why)))
      return failure();
  }
  return layout;
}

LogicalResult mlir::stencil::importc::mergeLayouts(LinearLayout &layout,
                                                   const LinearLayout &access,
                                                   bool declared,
                                                   StringRef array,
                                                   const AtomTable &atoms,
                                                   std::string &why) {
  for (const Polynomial &stride : access.strides)
    if (failed(checkStride(stride, "a stride of the access", atoms, why)))
      return failure();
  if (declared) {
    for (const Polynomial &stride : access.strides) {
      if (llvm::is_contained(layout.strides, stride))
        continue;
      std::string text;
      llvm::raw_string_ostream os(text);
      os << "the strides " << toString(access, atoms)
         << " of this access do not match the extents of ";
      layout.printExtents(os, array, atoms);
      os << " (strides " << toString(layout, atoms) << "): "
         << toString(stride, atoms) << " is not one of them";
      why = text;
      return failure();
    }
    return success();
  }
  LinearLayout merged = layout;
  for (const Polynomial &stride : access.strides)
    if (!llvm::is_contained(merged.strides, stride))
      merged.strides.push_back(stride);
  for (const Polynomial &stride : merged.strides)
    if (failed(checkStride(stride, "a stride of " + array, atoms, why)))
      return failure();
  llvm::sort(merged.strides, strideOrder);
  for (unsigned a = 1; a < merged.strides.size(); ++a) {
    if (nests(merged.strides[a - 1], merged.strides[a]))
      continue;
    why = ("the strides " + toString(access, atoms) +
           " of this access do not nest with the strides " +
           toString(layout, atoms) + " of the other accesses of " + array +
           ": " + toString(merged.strides[a - 1], atoms) +
           " is not a multiple of " + toString(merged.strides[a], atoms))
              .str();
    return failure();
  }
  layout = std::move(merged);
  return success();
}

LogicalResult mlir::stencil::importc::completeLayout(LinearLayout &layout,
                                                     StringRef array,
                                                     const AtomTable &atoms,
                                                     std::string &why) {
  if (layout.strides.empty()) {
    layout.strides.push_back(Polynomial::constant(1));
    return success();
  }
  const Polynomial &inner = layout.strides.back();
  if (inner.constantValue() == std::optional<int64_t>(1))
    return success();
  why = ("no access of " + array + " has a counter with stride 1 (the "
         "smallest stride is " + toString(inner, atoms) +
         "), so its innermost dimension is unknown; a counter with a "
         "coefficient, as in " + array + "[2*i], is not a stencil access")
            .str();
  return failure();
}

//===----------------------------------------------------------------------===//
// Decomposition
//===----------------------------------------------------------------------===//

namespace {
/// c / d rounded to the nearest integer, halves toward zero (d > 0). With
/// strides (64, 1), -63 is -64 + 1 (i-1, j+1) rather than 0*64 - 63: the
/// offsets of a stencil are small next to the extents.
int64_t roundedQuotient(int64_t c, int64_t d) {
  int64_t q = c / d, r = c % d;
  uint64_t magnitude = r < 0 ? 0 - uint64_t(r) : uint64_t(r);
  if (2 * magnitude > uint64_t(d))
    q += c < 0 ? -1 : 1;
  return q;
}

/// The message for a counter whose coefficient is not a stride.
std::string notAStride(const CounterPart &part, const LinearLayout &layout,
                       StringRef array, const AtomTable &atoms) {
  StringRef name = atoms.name(part.counter);
  std::string coefficient = toString(part.coefficient, atoms);
  for (auto [a, stride] : llvm::enumerate(layout.strides)) {
    std::optional<Polynomial> q = part.coefficient.divideExactly(stride);
    if (!q || !q->isConstant())
      continue;
    return ("the counter " + name + " is multiplied by " + q->str(atoms) +
            " (its coefficient is " + coefficient + ", the stride of " +
            array + "'s dimension " + Twine(a) + " is " +
            toString(stride, atoms) +
            "): a stencil access adds a constant offset to each counter, "
            "it does not scale it")
        .str();
  }
  return ("the coefficient of " + name + ", " + coefficient +
          ", is not one of the strides " + toString(layout, atoms) + " of " +
          array)
      .str();
}
} // namespace

FailureOr<DelinearizedAccess>
mlir::stencil::importc::decompose(const Polynomial &index,
                                  const LinearLayout &layout, StringRef array,
                                  const AtomTable &atoms, std::string &why) {
  if (layout.strides.empty()) {
    why = ("the layout of " + array + " has no dimensions").str();
    return failure();
  }
  for (const Polynomial &stride : layout.strides)
    if (failed(checkStride(stride, "a stride of " + array, atoms, why)))
      return failure();
  SmallVector<CounterPart> parts;
  Polynomial remainder;
  if (failed(splitByCounter(index, atoms, parts, remainder, why)))
    return failure();

  DelinearizedAccess access;
  access.counter.assign(layout.rank(), std::nullopt);
  access.offset.assign(layout.rank(), 0);
  for (const CounterPart &part : parts) {
    const auto *it = llvm::find(layout.strides, part.coefficient);
    if (it == layout.strides.end()) {
      why = notAStride(part, layout, array, atoms);
      return failure();
    }
    unsigned a = it - layout.strides.begin();
    if (access.counter[a]) {
      why = (atoms.name(*access.counter[a]) + " and " +
             atoms.name(part.counter) + " have the same stride " +
             toString(*it, atoms) + ", so they index the same dimension; "
             "a stencil access indexes each dimension with its own counter")
                .str();
      return failure();
    }
    access.counter[a] = part.counter;
  }

  // Greedy division of the constant part, outermost stride first.
  Polynomial rest = remainder;
  for (auto [a, stride] : llvm::enumerate(layout.strides)) {
    const Term &lead = stride.getTerms().front();
    const auto *match = llvm::find_if(
        rest.getTerms(), [&](const Term &t) { return t.atoms == lead.atoms; });
    if (match == rest.getTerms().end())
      continue;
    int64_t q = roundedQuotient(match->coefficient, lead.coefficient);
    if (q == 0)
      continue;
    rest = rest - stride.scaled(q);
    if (failed(checkValid(rest, "offset", why)))
      return failure();
    access.offset[a] = q;
  }
  if (rest.isZero())
    return access;
  if (layout.rank() == 1 && layout.strides[0].constantValue() == 1)
    why = ("the offset " + toString(remainder, atoms) + " in the index of " +
           array + " is not an integer constant")
              .str();
  else
    why = ("the offset " + toString(remainder, atoms) +
           " is not a multiple of the strides " + toString(layout, atoms) +
           " of " + array + " (" + toString(rest, atoms) + " is left over)")
              .str();
  return failure();
}

//===----------------------------------------------------------------------===//
// Range check
//===----------------------------------------------------------------------===//

namespace {
/// Whether `p` is a constant >= 0.
bool provenNonNegative(const Polynomial &p) {
  std::optional<int64_t> value = p.constantValue();
  return value && *value >= 0;
}

/// `j + 1`, `j - 2`, `j`.
std::string subscript(unsigned counter, int64_t offset,
                      const AtomTable &atoms) {
  return (Polynomial::atom(counter) + Polynomial::constant(offset))
      .str(atoms);
}
} // namespace

LogicalResult mlir::stencil::importc::checkWithinExtents(
    const DelinearizedAccess &access, const LinearLayout &layout,
    function_ref<std::optional<CounterRange>(unsigned)> range,
    StringRef array, const AtomTable &atoms, std::string &why) {
  if (access.counter.size() != layout.rank() ||
      access.offset.size() != layout.rank()) {
    why = ("the access does not have the rank of " + array).str();
    return failure();
  }
  std::string shape; // `w[?][ny][nz]`
  {
    llvm::raw_string_ostream os(shape);
    layout.printExtents(os, array, atoms);
  }
  for (unsigned a = 1; a < layout.rank(); ++a) {
    std::optional<Polynomial> extent = layout.extent(a);
    if (!extent) {
      why = ("the strides " + toString(layout, atoms) + " of " + array +
             " do not nest")
                .str();
      return failure();
    }
    std::string extentText = toString(*extent, atoms);
    Polynomial offset = Polynomial::constant(access.offset[a]);
    if (!access.counter[a]) {
      // Every extent is at least 1, so position 0 is always inside.
      if (access.offset[a] == 0 ||
          (provenNonNegative(offset) &&
           provenNonNegative(*extent - offset - Polynomial::constant(1))))
        continue;
      why = ("the fixed position " + Twine(access.offset[a]) +
             " in dimension " + Twine(a) + " of " + shape +
             " may lie outside its extent " + extentText +
             ": the linearized index would reach into another row")
                .str();
      return failure();
    }
    unsigned counter = *access.counter[a];
    std::string text = subscript(counter, access.offset[a], atoms);
    std::optional<CounterRange> bounds = range(counter);
    if (!bounds) {
      why = ("the range of " + atoms.name(counter) + " is unknown, so " +
             text + " may leave dimension " + Twine(a) + " of " + shape +
             " (extent " + extentText + ")")
                .str();
      return failure();
    }
    if (provenNonNegative(bounds->lower + offset) &&
        provenNonNegative(*extent - bounds->upper - offset))
      continue;
    why = ("the subscript " + text + " of dimension " + Twine(a) + " of " +
           shape + " may leave [0, " + extentText + ") for " +
           atoms.name(counter) + " in [" + bounds->lower.str(atoms) + ", " +
           bounds->upper.str(atoms) +
           "): the linearized index would reach into another row, which "
           "the multi-dimensional access does not express")
              .str();
    return failure();
  }
  return success();
}
