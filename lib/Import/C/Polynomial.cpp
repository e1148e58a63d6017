//===- Polynomial.cpp - Integer polynomials over named atoms ---------------===//
//
// This file implements the Polynomial and AtomTable of Delinearize.h: checked
// 64-bit arithmetic on canonical sums of terms (graded lex order, the leading
// term first), exact division, printing, and the parser of `--extents`.
//
//===----------------------------------------------------------------------===//

#include "Delinearize.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/Twine.h"
#include "llvm/Support/MathExtras.h"

#include <algorithm>

using namespace mlir;
using namespace mlir::stencil::importc;

//===----------------------------------------------------------------------===//
// AtomTable and Polynomial
//===----------------------------------------------------------------------===//

unsigned AtomTable::add(StringRef name, bool counter) {
  names.push_back(name.str());
  counters.push_back(counter);
  return names.size() - 1;
}

namespace {
using Term = Polynomial::Term;


/// q = a / b when b divides a exactly, without the INT64_MIN / -1 overflow.
bool divideExact(int64_t a, int64_t b, int64_t &q) {
  if (b == 0)
    return false;
  if (b == -1)
    return !llvm::SubOverflow<int64_t>(0, a, q);
  if (a % b != 0)
    return false;
  q = a / b;
  return true;
}

/// Removes the multiset `part` from the sorted list `whole`; false if `part`
/// is not contained in it.
bool removeAtoms(ArrayRef<unsigned> whole, ArrayRef<unsigned> part,
                 SmallVectorImpl<unsigned> &rest) {
  rest.clear();
  size_t p = 0;
  for (unsigned atom : whole) {
    if (p < part.size() && part[p] == atom) {
      ++p;
      continue;
    }
    rest.push_back(atom);
  }
  return p == part.size();
}
} // namespace

/// Graded lex: higher degree first, then the lexicographically smaller
/// sorted atom list (the one with more of the smallest atom id).
bool Polynomial::leads(const Term &a, const Term &b) {
  if (a.atoms.size() != b.atoms.size())
    return a.atoms.size() > b.atoms.size();
  return std::lexicographical_compare(a.atoms.begin(), a.atoms.end(),
                                      b.atoms.begin(), b.atoms.end());
}

Polynomial Polynomial::invalid(State state) {
  Polynomial result;
  result.state = state;
  return result;
}

Polynomial Polynomial::constant(int64_t value) { return monomial(value, {}); }

Polynomial Polynomial::atom(unsigned id) { return monomial(1, {id}); }

Polynomial Polynomial::monomial(int64_t coefficient, ArrayRef<unsigned> atoms) {
  Polynomial result;
  result.terms.push_back(
      Term{SmallVector<unsigned, 4>(atoms.begin(), atoms.end()), coefficient});
  llvm::sort(result.terms.front().atoms);
  result.normalize();
  return result;
}

void Polynomial::normalize() {
  if (!isValid()) {
    terms.clear();
    return;
  }
  for (const Term &term : terms)
    if (term.atoms.size() > kMaxDegree) {
      *this = invalid(State::TooLarge);
      return;
    }
  llvm::sort(terms, leads); // equal keys are summed below
  SmallVector<Term> combined;
  for (Term &term : terms) {
    if (!combined.empty() && combined.back().atoms == term.atoms) {
      int64_t sum;
      if (llvm::AddOverflow(combined.back().coefficient, term.coefficient,
                            sum)) {
        *this = invalid(State::Overflow);
        return;
      }
      combined.back().coefficient = sum;
      continue;
    }
    if (!combined.empty() && combined.back().coefficient == 0)
      combined.pop_back();
    combined.push_back(std::move(term));
  }
  if (!combined.empty() && combined.back().coefficient == 0)
    combined.pop_back();
  if (combined.size() > kMaxTerms) {
    *this = invalid(State::TooLarge);
    return;
  }
  terms = std::move(combined);
}

Polynomial Polynomial::operator+(const Polynomial &other) const {
  if (!isValid())
    return *this;
  if (!other.isValid())
    return other;
  Polynomial result = *this;
  result.terms.append(other.terms.begin(), other.terms.end());
  result.normalize();
  return result;
}

Polynomial Polynomial::operator-(const Polynomial &other) const {
  return *this + (-other);
}

Polynomial Polynomial::operator-() const { return scaled(-1); }

Polynomial Polynomial::scaled(int64_t factor) const {
  if (!isValid())
    return *this;
  Polynomial result = *this;
  for (Term &term : result.terms)
    if (llvm::MulOverflow(term.coefficient, factor, term.coefficient))
      return invalid(State::Overflow);
  result.normalize();
  return result;
}

Polynomial Polynomial::operator*(const Polynomial &other) const {
  if (!isValid())
    return *this;
  if (!other.isValid())
    return other;
  Polynomial result;
  for (const Term &a : terms)
    for (const Term &b : other.terms) {
      if (a.atoms.size() + b.atoms.size() > kMaxDegree)
        return invalid(State::TooLarge);
      Term product;
      if (llvm::MulOverflow(a.coefficient, b.coefficient, product.coefficient))
        return invalid(State::Overflow);
      std::merge(a.atoms.begin(), a.atoms.end(), b.atoms.begin(),
                 b.atoms.end(), std::back_inserter(product.atoms));
      result.terms.push_back(std::move(product));
    }
  result.normalize();
  return result;
}

bool Polynomial::isConstant() const {
  return isValid() &&
         (terms.empty() || (terms.size() == 1 && terms[0].atoms.empty()));
}

std::optional<int64_t> Polynomial::constantValue() const {
  if (!isConstant())
    return std::nullopt;
  return terms.empty() ? 0 : terms[0].coefficient;
}

unsigned Polynomial::degree() const {
  return terms.empty() ? 0 : terms.front().atoms.size();
}

std::optional<Polynomial>
Polynomial::divideExactly(const Polynomial &divisor) const {
  if (!isValid() || !divisor.isValid() || divisor.terms.empty())
    return std::nullopt;
  const Term &lead = divisor.terms.front();
  Polynomial quotient, rest = *this;
  // Each step removes the leading term of `rest` and adds smaller ones; the
  // bound only stops pathological inputs (degree <= kMaxDegree).
  for (unsigned step = 0;; ++step) {
    // An invalid `rest` has no terms too: test validity first.
    if (step > 4 * kMaxTerms || !rest.isValid())
      return std::nullopt;
    if (rest.terms.empty())
      break;
    const Term &top = rest.terms.front();
    Term q;
    if (!removeAtoms(top.atoms, lead.atoms, q.atoms) ||
        !divideExact(top.coefficient, lead.coefficient, q.coefficient))
      return std::nullopt;
    Polynomial qPoly = monomial(q.coefficient, q.atoms);
    quotient = quotient + qPoly;
    rest = rest - qPoly * divisor;
  }
  if (!quotient.isValid())
    return std::nullopt;
  return quotient;
}

void Polynomial::print(raw_ostream &os, function_ref<StringRef(unsigned)> name,
                       function_ref<bool(unsigned)> isCounter) const {
  if (state == State::Overflow) {
    os << "<overflow>";
    return;
  }
  if (state == State::TooLarge) {
    os << "<too large>";
    return;
  }
  if (terms.empty()) {
    os << "0";
    return;
  }
  for (auto [index, term] : llvm::enumerate(terms)) {
    bool negative = term.coefficient < 0;
    if (index == 0)
      os << (negative ? "-" : "");
    else
      os << (negative ? " - " : " + ");
    uint64_t magnitude = negative ? 0 - uint64_t(term.coefficient)
                                  : uint64_t(term.coefficient);
    if (term.atoms.empty() || magnitude != 1) {
      os << magnitude;
      if (!term.atoms.empty())
        os << "*";
    }
    SmallVector<unsigned, 4> order;
    for (bool counters : {true, false})
      for (unsigned atom : term.atoms)
        if ((isCounter && isCounter(atom)) == counters)
          order.push_back(atom);
    llvm::interleave(
        order, os, [&](unsigned atom) { os << name(atom); }, "*");
  }
}

void Polynomial::print(raw_ostream &os, const AtomTable &atoms) const {
  print(
      os, [&](unsigned id) { return atoms.name(id); },
      [&](unsigned id) { return atoms.isCounter(id); });
}

std::string Polynomial::str(const AtomTable &atoms) const {
  std::string text;
  llvm::raw_string_ostream os(text);
  print(os, atoms);
  return text;
}

LogicalResult mlir::stencil::importc::checkValid(const Polynomial &p, StringRef what,
                         std::string &why) {
  switch (p.getState()) {
  case Polynomial::State::Valid:
    return success();
  case Polynomial::State::Overflow:
    why = ("the " + what + " overflows 64-bit integer arithmetic").str();
    return failure();
  case Polynomial::State::TooLarge:
    why = ("the " + what + " is too large to delinearize (more than " +
           Twine(Polynomial::kMaxTerms) + " terms or a term of degree above " +
           Twine(Polynomial::kMaxDegree) + ")")
              .str();
    return failure();
  }
  return failure();
}

//===----------------------------------------------------------------------===//
// Parsing
//===----------------------------------------------------------------------===//

namespace {
/// Recursive descent over `sum := product (('+' | '-') product)*`,
/// `product := unary ('*' unary)*`, `unary := ('-' | '+')* primary`,
/// `primary := integer | name | '(' sum ')'`.
class PolynomialParser {
public:
  PolynomialParser(StringRef text,
                   function_ref<std::optional<unsigned>(StringRef)> atomOf,
                   std::string &why)
      : rest(text), atomOf(atomOf), why(why) {}

  std::optional<Polynomial> parse() {
    std::optional<Polynomial> p = sum(0);
    skipSpace();
    if (p && !rest.empty())
      return error(("unexpected '" + rest.take_front(1) + "'").str());
    return p;
  }

private:
  static constexpr unsigned kMaxDepth = 64;

  std::optional<Polynomial> error(const std::string &message) {
    if (why.empty())
      why = message;
    return std::nullopt;
  }
  void skipSpace() { rest = rest.ltrim(); }
  bool consume(char c) {
    skipSpace();
    if (!rest.starts_with(StringRef(&c, 1)))
      return false;
    rest = rest.drop_front();
    return true;
  }

  std::optional<Polynomial> sum(unsigned depth) {
    std::optional<Polynomial> result = product(depth);
    while (result) {
      bool plus = consume('+');
      if (!plus && !consume('-'))
        break;
      std::optional<Polynomial> next = product(depth);
      if (!next)
        return std::nullopt;
      result = plus ? *result + *next : *result - *next;
    }
    return result;
  }

  std::optional<Polynomial> product(unsigned depth) {
    std::optional<Polynomial> result = unary(depth);
    while (result && consume('*')) {
      std::optional<Polynomial> next = unary(depth);
      if (!next)
        return std::nullopt;
      result = *result * *next;
    }
    return result;
  }

  std::optional<Polynomial> unary(unsigned depth) {
    bool negate = false;
    while (true) {
      if (consume('-'))
        negate = !negate;
      else if (!consume('+'))
        break;
    }
    std::optional<Polynomial> p = primary(depth);
    if (p && negate)
      p = -*p;
    return p;
  }

  std::optional<Polynomial> primary(unsigned depth) {
    skipSpace();
    if (depth > kMaxDepth)
      return error("the expression is nested too deeply");
    if (consume('(')) {
      std::optional<Polynomial> p = sum(depth + 1);
      if (p && !consume(')'))
        return error("missing ')'");
      return p;
    }
    if (!rest.empty() && llvm::isDigit(rest.front())) {
      StringRef digits = rest.take_while(llvm::isDigit);
      rest = rest.drop_front(digits.size());
      int64_t value;
      if (digits.getAsInteger(10, value))
        return error(("the constant " + digits + " is too large").str());
      return Polynomial::constant(value);
    }
    StringRef name = rest.take_while(
        [](char c) { return llvm::isAlnum(c) || c == '_'; });
    if (name.empty() || llvm::isDigit(name.front()))
      return error(rest.empty() ? "the expression ends early"
                                : ("unexpected '" + rest.take_front(1) + "'")
                                      .str());
    rest = rest.drop_front(name.size());
    std::optional<unsigned> id = atomOf(name);
    if (!id)
      return error(("'" + name + "' is not an integer parameter").str());
    return Polynomial::atom(*id);
  }

  StringRef rest;
  function_ref<std::optional<unsigned>(StringRef)> atomOf;
  std::string &why;
};
} // namespace

FailureOr<Polynomial> mlir::stencil::importc::parsePolynomial(
    StringRef text, function_ref<std::optional<unsigned>(StringRef)> atomOf,
    std::string &why) {
  why.clear();
  std::optional<Polynomial> p = PolynomialParser(text, atomOf, why).parse();
  if (!p)
    return failure();
  if (failed(checkValid(*p, "expression", why)))
    return failure();
  return *p;
}
