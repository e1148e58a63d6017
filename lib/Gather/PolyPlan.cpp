//===- PolyPlan.cpp - The polyhedral plan of a gather form ----------------===//
//
// Translates a domain's bounds into an IntegerPolyhedron over (coordinates,
// symbols), forms the shifted domains D + o_s, splits their union into
// disjoint convex pieces with PresburgerSet, and reads each piece's loop
// bounds off its projections onto the outer coordinates.
//
//===----------------------------------------------------------------------===//

#include "PolyPlan.h"

#include "mlir/Analysis/Presburger/IntegerRelation.h"
#include "mlir/Analysis/Presburger/PresburgerRelation.h"
#include "mlir/IR/AffineExpr.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/raw_ostream.h"

#include <optional>
#include <vector>

using namespace mlir;
using namespace mlir::stencil;
using presburger::IntegerPolyhedron;
using presburger::IntegerRelation;
using presburger::PresburgerSet;
using presburger::PresburgerSpace;

namespace {

/// The domain as constraints. Symbol-only divisions of the bounds are
/// opaque extra symbols numbered after the domain's own.
struct LoweredDomain {
  MLIRContext *ctx = nullptr;
  unsigned rank = 0;
  unsigned numSymbols = 0;
  /// opaque[i] is symbol numSymbols + i.
  SmallVector<AffineExpr> opaque;
  SmallVector<SmallVector<int64_t>> rows;

  unsigned numCols() const { return rank + numSymbols + opaque.size() + 1; }
};

/// A piece being planned, with its statements once classified.
struct PieceSet {
  IntegerPolyhedron set;
  bool core = false;
  SmallVector<unsigned> statements, guarded;
};

} // namespace

//===----------------------------------------------------------------------===//
// From affine expressions to constraint rows and back
//===----------------------------------------------------------------------===//

static SmallVector<int64_t> scaled(ArrayRef<int64_t> row, int64_t factor) {
  SmallVector<int64_t> out(row);
  for (int64_t &value : out)
    value *= factor;
  return out;
}

static bool isDivision(AffineExprKind kind) {
  return kind == AffineExprKind::FloorDiv || kind == AffineExprKind::CeilDiv ||
         kind == AffineExprKind::Mod;
}

/// Replaces each division (floordiv, ceildiv, mod) of `expr` whose operands
/// use only symbols by a fresh symbol, recorded in `dom.opaque`.
static FailureOr<AffineExpr> hoistDivisions(AffineExpr expr, LoweredDomain &dom,
                                            std::string &whyNot) {
  auto bin = dyn_cast<AffineBinaryOpExpr>(expr);
  if (!bin)
    return expr;
  if (isDivision(expr.getKind())) {
    if (!expr.isSymbolicOrConstant()) {
      whyNot = "a division of a coordinate in a domain bound is not "
               "supported yet";
      return failure();
    }
    const auto *it = llvm::find(dom.opaque, expr);
    unsigned index = it - dom.opaque.begin();
    if (it == dom.opaque.end())
      dom.opaque.push_back(expr);
    return getAffineSymbolExpr(dom.numSymbols + index, expr.getContext());
  }
  FailureOr<AffineExpr> lhs = hoistDivisions(bin.getLHS(), dom, whyNot);
  FailureOr<AffineExpr> rhs = hoistDivisions(bin.getRHS(), dom, whyNot);
  if (failed(lhs) || failed(rhs))
    return failure();
  if (expr.getKind() == AffineExprKind::Add)
    return *lhs + *rhs;
  return *lhs * *rhs;
}

/// Adds `scale` times the linear expression `expr` to `row` (columns: rank
/// dims, symbols, constant). Fails on a product of two non-constants.
static LogicalResult addLinear(AffineExpr expr, int64_t scale, unsigned rank,
                               MutableArrayRef<int64_t> row) {
  if (auto dim = dyn_cast<AffineDimExpr>(expr)) {
    row[dim.getPosition()] += scale;
    return success();
  }
  if (auto sym = dyn_cast<AffineSymbolExpr>(expr)) {
    row[rank + sym.getPosition()] += scale;
    return success();
  }
  if (auto cst = dyn_cast<AffineConstantExpr>(expr)) {
    row.back() += scale * cst.getValue();
    return success();
  }
  auto bin = cast<AffineBinaryOpExpr>(expr);
  if (bin.getKind() == AffineExprKind::Add)
    return success(succeeded(addLinear(bin.getLHS(), scale, rank, row)) &&
                   succeeded(addLinear(bin.getRHS(), scale, rank, row)));
  if (bin.getKind() != AffineExprKind::Mul)
    return failure();
  if (auto cst = dyn_cast<AffineConstantExpr>(bin.getRHS()))
    return addLinear(bin.getLHS(), scale * cst.getValue(), rank, row);
  if (auto cst = dyn_cast<AffineConstantExpr>(bin.getLHS()))
    return addLinear(bin.getRHS(), scale * cst.getValue(), rank, row);
  return failure();
}

/// Adds the row of one bound of dimension k: y_k - bound >= 0 for a lower
/// bound, bound - 1 - y_k >= 0 for an (exclusive) upper bound.
static LogicalResult addBoundRow(AffineExpr bound, unsigned k, bool upper,
                                 LoweredDomain &dom, std::string &whyNot) {
  FailureOr<AffineExpr> linear = hoistDivisions(bound, dom, whyNot);
  if (failed(linear))
    return failure();
  // Sized for the opaque symbols known so far; widened once all are known.
  SmallVector<int64_t> row(dom.numCols(), 0);
  if (failed(addLinear(*linear, upper ? 1 : -1, dom.rank, row))) {
    whyNot = "a domain bound that is not affine is not supported";
    return failure();
  }
  row[k] += upper ? -1 : 1;
  if (upper)
    row.back() -= 1;
  dom.rows.push_back(std::move(row));
  return success();
}

/// Whether a bound of dimension k uses only dims < k and the domain's
/// symbols.
static bool usesKnownVars(AffineExpr expr, unsigned k, unsigned numSymbols) {
  bool ok = true;
  expr.walk([&](AffineExpr sub) {
    if (auto dim = dyn_cast<AffineDimExpr>(sub))
      ok &= dim.getPosition() < k;
    if (auto sym = dyn_cast<AffineSymbolExpr>(sub))
      ok &= sym.getPosition() < numSymbols;
  });
  return ok;
}

static LogicalResult lowerDimension(const PolyDomain &domain, unsigned k,
                                    LoweredDomain &dom, std::string &whyNot) {
  if (domain.lower[k].empty() || domain.upper[k].empty()) {
    whyNot = "dimension " + std::to_string(k) + " has no lower or upper bound";
    return failure();
  }
  for (bool upper : {false, true}) {
    for (AffineExpr bound : upper ? domain.upper[k] : domain.lower[k]) {
      if (!usesKnownVars(bound, k, domain.numSymbols)) {
        whyNot = "a bound of dimension " + std::to_string(k) +
                 " uses a coordinate that is not outer to it or an "
                 "unknown symbol";
        return failure();
      }
      dom.ctx = bound.getContext();
      if (failed(addBoundRow(bound, k, upper, dom, whyNot)))
        return failure();
    }
  }
  return success();
}

/// Adds the rows that tie each opaque division q = e floordiv c (or
/// ceildiv, mod) to its operand e, when e is linear: c*q <= e < c*q + c
/// (c*q - c < e <= c*q; 0 <= q < c). They involve no dimension, so they
/// hold in every shifted domain and never show as conditions.
static void addDivisionContext(LoweredDomain &dom) {
  unsigned first = dom.rank + dom.numSymbols;
  for (auto [i, expr] : llvm::enumerate(dom.opaque)) {
    auto bin = cast<AffineBinaryOpExpr>(expr);
    auto divisor = dyn_cast<AffineConstantExpr>(bin.getRHS());
    if (!divisor || divisor.getValue() <= 0)
      continue;
    int64_t c = divisor.getValue();
    SmallVector<int64_t> low(dom.numCols(), 0), high(dom.numCols(), 0);
    if (expr.getKind() == AffineExprKind::Mod) {
      low[first + i] = 1;
      high[first + i] = -1;
      high.back() = c - 1;
    } else {
      // low = e - c*q (+ c - 1 for ceildiv) >= 0, high = c - 1 - low >= 0.
      if (failed(addLinear(bin.getLHS(), 1, dom.rank, low)))
        continue;
      low[first + i] -= c;
      if (expr.getKind() == AffineExprKind::CeilDiv)
        low.back() += c - 1;
      high = scaled(low, -1);
      high.back() += c - 1;
    }
    dom.rows.push_back(low);
    dom.rows.push_back(high);
  }
}

static FailureOr<LoweredDomain> lowerDomain(const PolyDomain &domain,
                                            std::string &whyNot) {
  LoweredDomain dom;
  dom.rank = domain.rank;
  dom.numSymbols = domain.numSymbols;
  if (domain.lower.size() != domain.rank ||
      domain.upper.size() != domain.rank) {
    whyNot = "the domain's bound lists do not match its rank";
    return failure();
  }
  for (unsigned k = 0; k < domain.rank; ++k)
    if (failed(lowerDimension(domain, k, dom, whyNot)))
      return failure();
  // Rows made before the last opaque symbol was known are short of columns:
  // move their constant to the end.
  for (SmallVector<int64_t> &row : dom.rows) {
    int64_t constant = row.back();
    row.back() = 0;
    row.resize(dom.numCols(), 0);
    row.back() = constant;
  }
  addDivisionContext(dom);
  return dom;
}

/// The expression of `row` over (numDims dims, symbols, opaque symbols,
/// constant), without the term of column `skip`, with the opaque symbols
/// substituted back.
static AffineExpr rowExpr(ArrayRef<int64_t> row, unsigned numDims,
                          const LoweredDomain &dom,
                          std::optional<unsigned> skip = std::nullopt) {
  AffineExpr expr = getAffineConstantExpr(row.back(), dom.ctx);
  for (unsigned col = 0, e = row.size() - 1; col < e; ++col) {
    if (row[col] == 0 || col == skip)
      continue;
    AffineExpr var;
    if (col < numDims)
      var = getAffineDimExpr(col, dom.ctx);
    else if (col < numDims + dom.numSymbols)
      var = getAffineSymbolExpr(col - numDims, dom.ctx);
    else
      var = dom.opaque[col - numDims - dom.numSymbols];
    expr = expr + var * row[col];
  }
  return expr;
}

//===----------------------------------------------------------------------===//
// Sets
//===----------------------------------------------------------------------===//

static PresburgerSpace setSpace(const LoweredDomain &dom) {
  return PresburgerSpace::getSetSpace(dom.rank,
                                      dom.numSymbols + dom.opaque.size());
}

/// D + o: the constraints of D on y - o.
static IntegerPolyhedron shiftedDomain(const LoweredDomain &dom,
                                       ArrayRef<int64_t> offset) {
  IntegerPolyhedron set(setSpace(dom));
  for (ArrayRef<int64_t> row : dom.rows) {
    SmallVector<int64_t> shifted(row);
    for (unsigned k = 0; k < dom.rank; ++k)
      shifted.back() -= row[k] * offset[k];
    set.addInequality(shifted);
  }
  return set;
}

/// The non-empty disjuncts of `set` as regions; fails on one with local
/// variables (which have no loop nest).
static LogicalResult appendDisjuncts(const PresburgerSet &set,
                                     std::vector<PieceSet> &out,
                                     std::string &whyNot) {
  for (const IntegerRelation &disjunct : set.getAllDisjuncts()) {
    if (disjunct.getNumLocalVars() != 0) {
      whyNot = "a piece of the gather form has local variables";
      return failure();
    }
    if (disjunct.isIntegerEmpty())
      continue;
    out.push_back({IntegerPolyhedron(disjunct), false, {}, {}});
    out.back().set.removeRedundantConstraints();
  }
  return success();
}

/// Sets the statements of `region` valid somewhere in it and those not
/// valid everywhere.
static void classify(PieceSet &region, ArrayRef<IntegerPolyhedron> shifted) {
  region.statements.clear();
  region.guarded.clear();
  for (auto [s, domain] : llvm::enumerate(shifted)) {
    if (region.set.intersect(domain).isIntegerEmpty())
      continue;
    region.statements.push_back(s);
    if (!region.set.isSubsetOf(domain))
      region.guarded.push_back(s);
  }
}

/// The core, if not empty, then piece_s = (D + o_s) minus the core and all
/// D + o_t with t < s, each split into its disjoint convex disjuncts. The
/// core lies in D + o_0, so only piece_0 subtracts it: fewer constraints
/// to split on give fewer disjuncts.
static LogicalResult planCompact(const LoweredDomain &dom,
                                 ArrayRef<IntegerPolyhedron> shifted,
                                 std::vector<PieceSet> &regions,
                                 std::string &whyNot) {
  IntegerPolyhedron core = shifted.front();
  for (const IntegerPolyhedron &domain : shifted.drop_front())
    core = IntegerPolyhedron(core.intersect(domain));
  core.removeRedundantConstraints();
  PresburgerSet covered = PresburgerSet::getEmpty(setSpace(dom));
  if (!core.isIntegerEmpty()) {
    regions.push_back({core, true, {}, {}});
    covered = PresburgerSet(core);
  }
  for (auto [s, domain] : llvm::enumerate(shifted)) {
    PresburgerSet piece(domain);
    if (failed(appendDisjuncts(piece.subtract(covered), regions, whyNot)))
      return failure();
    covered = s == 0 ? piece : covered.unionSet(piece);
  }
  for (PieceSet &region : regions)
    classify(region, shifted);
  return success();
}

/// Splits the guarded compact pieces until none is guarded. Returns false
/// when that needs more than `maxPieces` pieces.
static FailureOr<bool> refineExact(std::vector<PieceSet> &regions,
                                   ArrayRef<IntegerPolyhedron> shifted,
                                   unsigned maxPieces, std::string &whyNot) {
  std::vector<PieceSet> done, work;
  for (PieceSet &region : regions)
    (region.guarded.empty() ? done : work).push_back(region);
  while (!work.empty()) {
    if (done.size() + work.size() > maxPieces)
      return false;
    PieceSet region = std::move(work.back());
    work.pop_back();
    if (region.guarded.empty()) {
      done.push_back(std::move(region));
      continue;
    }
    const IntegerPolyhedron &domain = shifted[region.guarded.front()];
    std::vector<PieceSet> parts;
    parts.push_back(
        {IntegerPolyhedron(region.set.intersect(domain)), false, {}, {}});
    parts.back().set.removeRedundantConstraints();
    PresburgerSet rest =
        PresburgerSet(region.set).subtract(PresburgerSet(domain));
    if (failed(appendDisjuncts(rest, parts, whyNot)))
      return failure();
    for (PieceSet &part : parts) {
      classify(part, shifted);
      work.push_back(std::move(part));
    }
  }
  if (done.size() > maxPieces)
    return false;
  // The core, never guarded, went to `done` first and stays first.
  regions = std::move(done);
  return true;
}

//===----------------------------------------------------------------------===//
// Loop bounds
//===----------------------------------------------------------------------===//

/// `row` over (numDims dims, the rest) widened to (rank dims, the rest).
static SmallVector<int64_t> widened(ArrayRef<int64_t> row, unsigned numDims,
                                    unsigned rank) {
  SmallVector<int64_t> out(row.take_front(numDims));
  out.append(rank - numDims, 0);
  out.append(row.begin() + numDims, row.end());
  return out;
}

/// Adds the bounds that `row` (>= 0, or == 0 when `equality`) over dims
/// <= k sets on y_k: a*y_k + rest >= 0 gives the lower bound
/// ceildiv(-rest, a) for a > 0 and the exclusive upper bound
/// floordiv(rest, -a) + 1 for a < 0; an equality gives both.
static void addRangeBounds(ArrayRef<int64_t> row, bool equality, unsigned k,
                           const LoweredDomain &dom, PolyRange &range) {
  SmallVector<int64_t> r = scaled(row, equality && row[k] < 0 ? -1 : 1);
  int64_t a = r[k];
  if (a > 0)
    range.lower.push_back(rowExpr(scaled(r, -1), k + 1, dom, k).ceilDiv(a));
  if (a < 0)
    range.upper.push_back(rowExpr(r, k + 1, dom, k).floorDiv(-a) + 1);
  else if (equality)
    range.upper.push_back(rowExpr(scaled(r, -1), k + 1, dom, k).floorDiv(a) +
                          1);
}

/// The bounds of y_k in `set` (over dims <= k), also added to `nest`; then
/// projects y_k out of `set`.
static LogicalResult takeRange(IntegerPolyhedron &set, unsigned k,
                               const LoweredDomain &dom, PolyRange &range,
                               IntegerPolyhedron &nest) {
  set.removeRedundantConstraints();
  for (unsigned i = 0, e = set.getNumEqualities(); i < e; ++i) {
    if (set.atEq64(i, k) == 0)
      continue;
    addRangeBounds(set.getEquality64(i), /*equality=*/true, k, dom, range);
    nest.addEquality(widened(set.getEquality64(i), k + 1, dom.rank));
  }
  for (unsigned i = 0, e = set.getNumInequalities(); i < e; ++i) {
    if (set.atIneq64(i, k) == 0)
      continue;
    addRangeBounds(set.getInequality64(i), /*equality=*/false, k, dom, range);
    nest.addInequality(widened(set.getInequality64(i), k + 1, dom.rank));
  }
  if (range.lower.empty() || range.upper.empty())
    return failure();
  set.projectOut(k);
  return success();
}

/// The conditions on the symbols left in `set` once all dims are projected
/// out, without those that the loop bounds (`nest`) and the other
/// conditions imply.
static void takeConditions(IntegerPolyhedron &set,
                           const IntegerPolyhedron &nest,
                           const LoweredDomain &dom, PolyPiece &piece) {
  set.removeRedundantConstraints();
  SmallVector<SmallVector<int64_t>> rows;
  for (unsigned i = 0, e = set.getNumEqualities(); i < e; ++i) {
    rows.push_back(widened(set.getEquality64(i), 0, dom.rank));
    rows.push_back(scaled(rows.back(), -1));
  }
  for (unsigned i = 0, e = set.getNumInequalities(); i < e; ++i)
    rows.push_back(widened(set.getInequality64(i), 0, dom.rank));
  SmallVector<bool> kept(rows.size(), true);
  for (unsigned i = 0, e = rows.size(); i < e; ++i) {
    // Condition i is implied if the nest, the other conditions and its
    // negation have no common point.
    IntegerPolyhedron test = nest;
    for (unsigned j = 0; j < e; ++j)
      if (j != i && kept[j])
        test.addInequality(rows[j]);
    SmallVector<int64_t> negation = scaled(rows[i], -1);
    negation.back() -= 1;
    test.addInequality(negation);
    kept[i] = !test.isIntegerEmpty();
  }
  for (unsigned i = 0, e = rows.size(); i < e; ++i)
    if (kept[i])
      piece.conditions.push_back(
          rowExpr(ArrayRef<int64_t>(rows[i]).drop_front(dom.rank), 0, dom));
}

static FailureOr<PolyPiece> makePiece(const PieceSet &region,
                                      const LoweredDomain &dom,
                                      std::string &whyNot) {
  PolyPiece piece;
  piece.core = region.core;
  piece.statements = region.statements;
  piece.guarded = region.guarded;
  piece.ranges.resize(dom.rank);
  IntegerPolyhedron set = region.set;
  // The nest's rows, from the division context on, which the conditions
  // need not repeat.
  IntegerPolyhedron nest(setSpace(dom));
  for (ArrayRef<int64_t> row : dom.rows)
    if (llvm::all_of(row.take_front(dom.rank), [](int64_t v) { return !v; }))
      nest.addInequality(row);
  for (unsigned k = dom.rank; k-- > 0;) {
    if (failed(takeRange(set, k, dom, piece.ranges[k], nest))) {
      whyNot = "a piece of the gather form is unbounded in dimension " +
               std::to_string(k);
      return failure();
    }
  }
  takeConditions(set, nest, dom, piece);
  return piece;
}

//===----------------------------------------------------------------------===//
// The plan
//===----------------------------------------------------------------------===//

static LogicalResult checkOffsets(const PolyDomain &domain,
                                  ArrayRef<SmallVector<int64_t>> offsets,
                                  std::string &whyNot) {
  if (offsets.empty()) {
    whyNot = "a domain without statements has no gather form";
    return failure();
  }
  for (ArrayRef<int64_t> offset : offsets) {
    if (offset.size() != domain.rank) {
      whyNot = "an offset does not match the domain's rank";
      return failure();
    }
  }
  return success();
}

FailureOr<PolyGatherPlan> mlir::stencil::planPolyGather(
    const PolyDomain &domain, ArrayRef<SmallVector<int64_t>> offsets,
    bool exact, unsigned maxPieces, std::string &whyNot) {
  if (failed(checkOffsets(domain, offsets, whyNot)))
    return failure();
  FailureOr<LoweredDomain> dom = lowerDomain(domain, whyNot);
  if (failed(dom))
    return failure();
  if (dom->rank == 0) {
    whyNot = "a domain of rank 0 has no gather form";
    return failure();
  }
  std::vector<IntegerPolyhedron> shifted;
  for (ArrayRef<int64_t> offset : offsets) {
    shifted.push_back(shiftedDomain(*dom, offset));
    shifted.back().removeRedundantConstraints();
  }

  std::vector<PieceSet> regions;
  if (failed(planCompact(*dom, shifted, regions, whyNot)))
    return failure();
  PolyGatherPlan plan;
  plan.rank = domain.rank;
  plan.numSymbols = domain.numSymbols;
  if (exact) {
    std::vector<PieceSet> refined(regions);
    FailureOr<bool> fits = refineExact(refined, shifted, maxPieces, whyNot);
    if (failed(fits))
      return failure();
    plan.exactFellBack = !*fits;
    if (*fits)
      regions = std::move(refined);
  }
  plan.exact = llvm::all_of(
      regions, [](const PieceSet &region) { return region.guarded.empty(); });
  for (const PieceSet &region : regions) {
    FailureOr<PolyPiece> piece = makePiece(region, *dom, whyNot);
    if (failed(piece))
      return failure();
    plan.pieces.push_back(std::move(*piece));
  }
  return plan;
}

//===----------------------------------------------------------------------===//
// JSON
//===----------------------------------------------------------------------===//

static llvm::json::Array exprsJSON(ArrayRef<AffineExpr> exprs) {
  llvm::json::Array array;
  for (AffineExpr expr : exprs) {
    std::string text;
    llvm::raw_string_ostream(text) << expr;
    array.push_back(std::move(text));
  }
  return array;
}

static llvm::json::Array indicesJSON(ArrayRef<unsigned> indices) {
  llvm::json::Array array;
  for (unsigned index : indices)
    array.push_back(static_cast<int64_t>(index));
  return array;
}

static llvm::json::Object pieceJSON(const PolyPiece &piece) {
  llvm::json::Array ranges;
  for (const PolyRange &range : piece.ranges)
    ranges.push_back(llvm::json::Object{{"lower", exprsJSON(range.lower)},
                                        {"upper", exprsJSON(range.upper)}});
  return llvm::json::Object{{"core", piece.core},
                            {"conditions", exprsJSON(piece.conditions)},
                            {"ranges", std::move(ranges)},
                            {"statements", indicesJSON(piece.statements)},
                            {"guarded", indicesJSON(piece.guarded)}};
}

void PolyGatherPlan::printJSON(raw_ostream &os) const {
  llvm::json::Array pieceArray;
  for (const PolyPiece &piece : pieces)
    pieceArray.push_back(pieceJSON(piece));
  llvm::json::Object object{{"rank", static_cast<int64_t>(rank)},
                            {"numSymbols", static_cast<int64_t>(numSymbols)},
                            {"exact", exact},
                            {"exactFellBack", exactFellBack},
                            {"pieces", std::move(pieceArray)}};
  os << llvm::json::Value(std::move(object));
}
