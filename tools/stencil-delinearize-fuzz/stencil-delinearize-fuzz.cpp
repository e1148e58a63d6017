//===- stencil-delinearize-fuzz.cpp - libFuzzer target of the delinearizer ===//
//
// The C importer's delinearizer (lib/Import/C/Delinearize.h) on its own: each
// input is a small program that builds polynomials over three counters
// (i, j, k) and four sizes (nx, ny, nz, n) on a stack, then runs the steps the
// importer runs: declared extents (layoutFromExtents) or none, inferLayout and
// mergeLayouts on each index, completeLayout, decompose and
// checkWithinExtents. Besides crashes and sanitizer errors it reports, by
// aborting:
//   - a failure without a reason;
//   - a decomposition that does not add up to its index, that is
//     index != sum_a (counter_a + offset_a) * stride_a;
//   - an exact quotient q of p / d with q * d != p, or a product p * d whose
//     quotient by d is not p;
//   - a layout of declared extents whose extents differ from them.
// Inputs with the low bit of the second byte set also go through
// parsePolynomial as text. Built with -DSTENCIL_BUILD_FUZZER=ON next to
// stencil-fuzz; test/Import/C/delinearize/fuzz.test runs it briefly.
//
//===----------------------------------------------------------------------===//

#include "Delinearize.h"

#include "llvm/ADT/StringRef.h"

#include <cstdio>
#include <cstdlib>
#include <vector>

using namespace mlir;
using namespace mlir::stencil::importc;

namespace {
/// Reads the input byte by byte, zeros past its end.
struct Reader {
  const uint8_t *data;
  size_t size;
  size_t pos = 0;
  bool more() const { return pos < size; }
  uint8_t next() { return pos < size ? data[pos++] : 0; }
};

/// One polynomial from a stack program: atom, constant (a byte, or 8 bytes
/// when the op's top bit is set), +, -, *, negation, scaling; 0xFF ends it.
Polynomial build(Reader &r) {
  std::vector<Polynomial> stack;
  while (r.more()) {
    uint8_t op = r.next();
    if (op == 0xFF)
      break;
    switch (op % 8) {
    case 0:
    case 1:
      stack.push_back(Polynomial::atom(r.next() % 7));
      break;
    case 2: {
      int64_t value = int8_t(r.next());
      if (op & 0x80)
        for (int b = 0; b < 8; ++b)
          value = int64_t(uint64_t(value) << 8 | r.next());
      stack.push_back(Polynomial::constant(value));
      break;
    }
    case 3:
    case 4:
    case 5:
      if (stack.size() >= 2) {
        Polynomial rhs = stack.back();
        stack.pop_back();
        Polynomial &lhs = stack.back();
        lhs = op % 8 == 3 ? lhs + rhs : op % 8 == 4 ? lhs - rhs : lhs * rhs;
      }
      break;
    case 6:
      if (!stack.empty())
        stack.back() = -stack.back();
      break;
    case 7:
      if (!stack.empty())
        stack.back() = stack.back().scaled(int8_t(r.next()));
      break;
    }
    if (stack.size() > 64)
      stack.erase(stack.begin());
  }
  Polynomial sum;
  for (const Polynomial &p : stack)
    sum = sum + p;
  return sum;
}

[[noreturn]] void violated(const char *what, const Polynomial &p,
                           const AtomTable &atoms) {
  std::fprintf(stderr, "delinearize-fuzz: %s (%s)\n", what,
               p.str(atoms).c_str());
  std::abort();
}

void checkDivision(const Polynomial &p, const Polynomial &d,
                   const AtomTable &atoms) {
  if (std::optional<Polynomial> q = p.divideExactly(d)) {
    Polynomial product = *q * d;
    if (product.isValid() && product != p)
      violated("an exact quotient times the divisor is not the dividend", p,
               atoms);
  }
  Polynomial product = p * d;
  if (!product.isValid() || d.isZero())
    return;
  std::optional<Polynomial> q = product.divideExactly(d);
  if (q && *q != p)
    violated("a product divided by a factor is not the other factor", p,
             atoms);
}

void checkDecomposition(const Polynomial &index, const LinearLayout &layout,
                        ArrayRef<Polynomial> others, const AtomTable &atoms) {
  std::string why;
  FailureOr<DelinearizedAccess> access =
      decompose(index, layout, "w", atoms, why);
  if (failed(access)) {
    if (why.empty())
      violated("decompose failed without a reason", index, atoms);
    return;
  }
  Polynomial sum;
  for (unsigned a = 0; a < layout.rank(); ++a) {
    Polynomial position = Polynomial::constant(access->offset[a]);
    if (access->counter[a])
      position = position + Polynomial::atom(*access->counter[a]);
    sum = sum + position * layout.strides[a];
  }
  if (sum.isValid() && sum != index)
    violated("a decomposition does not add up to its index", index, atoms);
  // Counter ranges from the other indices, or unknown.
  auto range = [&](unsigned counter) -> std::optional<CounterRange> {
    if (others.size() < 2 || counter % 2)
      return std::nullopt;
    return CounterRange{others[counter % others.size()],
                        others[(counter + 1) % others.size()]};
  };
  why.clear();
  if (failed(checkWithinExtents(*access, layout, range, "w", atoms, why)) &&
      why.empty())
    violated("checkWithinExtents failed without a reason", index, atoms);
}
} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  Reader r{data, size};
  AtomTable atoms;
  for (const char *counter : {"i", "j", "k"})
    atoms.addCounter(counter);
  for (const char *name : {"nx", "ny", "nz", "n"})
    atoms.addSize(name);
  uint8_t mode = r.next();
  std::string why;

  if (r.next() & 1) {
    llvm::StringRef text(reinterpret_cast<const char *>(data) + r.pos,
                         size - r.pos);
    auto atomOf = [&](llvm::StringRef name) -> std::optional<unsigned> {
      for (unsigned id = 0; id < atoms.size(); ++id)
        if (atoms.name(id) == name)
          return id;
      return std::nullopt;
    };
    if (failed(parsePolynomial(text, atomOf, why)) && why.empty())
      violated("parsePolynomial failed without a reason", Polynomial(), atoms);
    return 0;
  }

  LinearLayout layout;
  bool declared = false;
  if (mode & 1) {
    SmallVector<Polynomial> extents;
    for (unsigned a = 0, rank = r.next() % 5; a < rank; ++a)
      extents.push_back(build(r));
    FailureOr<LinearLayout> fromExtents =
        layoutFromExtents(extents, atoms, why);
    if (succeeded(fromExtents)) {
      layout = *fromExtents;
      declared = true;
      for (unsigned a = 1; a < layout.rank(); ++a)
        if (layout.extent(a) != extents[a])
          violated("a declared layout lost an extent", extents[a], atoms);
    }
  }
  std::vector<Polynomial> indices;
  while (r.more() && indices.size() < 6)
    indices.push_back(build(r));
  for (const Polynomial &index : indices) {
    (void)index.str(atoms);
    FailureOr<LinearLayout> strides = inferLayout(index, atoms, why);
    if (failed(strides) ||
        failed(mergeLayouts(layout, *strides, declared, "w", atoms, why))) {
      if (why.empty())
        violated("a layout step failed without a reason", index, atoms);
      why.clear();
    }
  }
  if (indices.size() >= 2)
    checkDivision(indices[0], indices[1], atoms);
  if (failed(completeLayout(layout, "w", atoms, why)))
    return 0;
  for (const Polynomial &index : indices)
    checkDecomposition(index, layout, indices, atoms);
  return 0;
}
