//===- stencil-polyplan-check.cpp - Brute-force check of PolyPlan ---------===//
//
// Checks the polyhedral plan of the gather form (lib/Gather/PolyPlan.h)
// against a direct enumeration. It plans random 1-3-D domains (boxes cut by
// half-spaces in outer coordinates, max/min groups, divisions of symbols)
// with random offset sets (1-27 offsets of radius <= 3), plus named ones
// (triangle, trapezoid, wedge, degenerate lines, boxes), compact and exact,
// and at several symbol values (sizes that make the domain empty or one
// point included) runs each piece's loop nest and reports:
//   - a point of U = union of (D + o_s) visited zero or several times, or a
//     visited point outside U;
//   - a statement valid at a visited point but not in its piece's list, or
//     an unguarded statement of a piece invalid at one of its points;
//   - a guarded statement in an exact plan or in the core;
//   - a plan asked exact that is neither exact nor fell back;
//   - a division of a coordinate that is not refused.
// D is evaluated from the domain's own bounds, never from the plan. Prints
// one line per named case (pieces, planning time) and a summary; exits 1 on
// any failure.
//
//===----------------------------------------------------------------------===//

#include "PolyPlan.h"

#include "mlir/IR/AffineExpr.h"
#include "mlir/IR/MLIRContext.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/raw_ostream.h"

#include <chrono>
#include <map>
#include <random>
#include <set>
#include <vector>

using namespace mlir;
using namespace mlir::stencil;
using Point = std::vector<int64_t>;
using Offsets = std::vector<SmallVector<int64_t>>;

static llvm::cl::opt<unsigned>
    numTrials("trials", llvm::cl::desc("random domains"), llvm::cl::init(100));
static llvm::cl::opt<unsigned> seed("seed", llvm::cl::desc("random seed"),
                                    llvm::cl::init(1));
static llvm::cl::opt<bool> printPlans("print-plans",
                                      llvm::cl::desc("print named plans"),
                                      llvm::cl::init(false));

static unsigned numFailures = 0;

//===----------------------------------------------------------------------===//
// Evaluation
//===----------------------------------------------------------------------===//

static int64_t floorDiv(int64_t a, int64_t b) {
  return a / b - ((a % b != 0) && ((a < 0) != (b < 0)));
}

static void fail(const Twine &what, const Point &syms, const Point &y);

static int64_t eval(AffineExpr expr, const Point &dims, const Point &syms) {
  if (auto dim = dyn_cast<AffineDimExpr>(expr)) {
    if (dim.getPosition() < dims.size())
      return dims[dim.getPosition()];
    fail("an expression uses an unknown coordinate", syms, dims);
    return 0;
  }
  if (auto sym = dyn_cast<AffineSymbolExpr>(expr)) {
    if (sym.getPosition() < syms.size())
      return syms[sym.getPosition()];
    fail("an expression uses an unknown symbol", syms, dims);
    return 0;
  }
  if (auto cst = dyn_cast<AffineConstantExpr>(expr))
    return cst.getValue();
  auto bin = cast<AffineBinaryOpExpr>(expr);
  int64_t lhs = eval(bin.getLHS(), dims, syms);
  int64_t rhs = eval(bin.getRHS(), dims, syms);
  switch (expr.getKind()) {
  case AffineExprKind::Add:
    return lhs + rhs;
  case AffineExprKind::Mul:
    return lhs * rhs;
  case AffineExprKind::FloorDiv:
    return floorDiv(lhs, rhs);
  case AffineExprKind::CeilDiv:
    return -floorDiv(-lhs, rhs);
  default:
    return lhs - rhs * floorDiv(lhs, rhs);
  }
}

static int64_t maxOf(ArrayRef<AffineExpr> exprs, const Point &dims,
                     const Point &syms) {
  int64_t value = INT64_MIN;
  for (AffineExpr expr : exprs)
    value = std::max(value, eval(expr, dims, syms));
  return value;
}

static int64_t minOf(ArrayRef<AffineExpr> exprs, const Point &dims,
                     const Point &syms) {
  int64_t value = INT64_MAX;
  for (AffineExpr expr : exprs)
    value = std::min(value, eval(expr, dims, syms));
  return value;
}

/// Calls `body` at each point of the nest whose dimension k runs over
/// [max(lower[k]), min(upper[k])).
static void forEachPoint(ArrayRef<SmallVector<AffineExpr>> lower,
                         ArrayRef<SmallVector<AffineExpr>> upper,
                         const Point &syms,
                         function_ref<void(const Point &)> body, Point &point,
                         unsigned k = 0) {
  if (k == point.size())
    return body(point);
  int64_t begin = maxOf(lower[k], point, syms);
  int64_t end = std::min(minOf(upper[k], point, syms), begin + 10000);
  for (point[k] = begin; point[k] < end; ++point[k])
    forEachPoint(lower, upper, syms, body, point, k + 1);
  point[k] = 0;
}

static bool isValid(const PolyDomain &domain, const Point &y,
                    ArrayRef<int64_t> offset, const Point &syms) {
  Point x(y.size(), 0);
  for (unsigned k = 0; k < y.size(); ++k) {
    x[k] = y[k] - offset[k];
    if (x[k] < maxOf(domain.lower[k], x, syms) ||
        x[k] >= minOf(domain.upper[k], x, syms))
      return false;
  }
  return true;
}

//===----------------------------------------------------------------------===//
// The check
//===----------------------------------------------------------------------===//

static void fail(const Twine &what, const Point &syms, const Point &y) {
  if (++numFailures > 20)
    return;
  llvm::errs() << "FAIL: " << what << " at symbols (";
  llvm::interleaveComma(syms, llvm::errs());
  llvm::errs() << ") point (";
  llvm::interleaveComma(y, llvm::errs());
  llvm::errs() << ")\n";
}

/// Checks the statements of `piece` at its point y.
static void checkStatements(const PolyDomain &domain, const Offsets &offsets,
                            const PolyPiece &piece, const Point &y,
                            const Point &syms) {
  for (unsigned s = 0; s < offsets.size(); ++s) {
    bool valid = isValid(domain, y, offsets[s], syms);
    bool listed = llvm::is_contained(piece.statements, s);
    bool guarded = llvm::is_contained(piece.guarded, s);
    if (valid && !listed)
      fail("statement " + Twine(s) + " valid but not listed", syms, y);
    if (listed && !guarded && !valid)
      fail("unguarded statement " + Twine(s) + " invalid", syms, y);
    if (guarded && !listed)
      fail("statement " + Twine(s) + " guarded but not listed", syms, y);
  }
}

/// Whether `expr` uses only dims < numDims.
static bool usesOuterDims(AffineExpr expr, unsigned numDims) {
  bool ok = true;
  expr.walk([&](AffineExpr sub) {
    if (auto dim = dyn_cast<AffineDimExpr>(sub))
      ok &= dim.getPosition() < numDims;
  });
  return ok;
}

/// Checks that each range of `piece` uses only outer coordinates and its
/// conditions none.
static void checkShape(const PolyPiece &piece) {
  for (auto [k, range] : llvm::enumerate(piece.ranges))
    for (AffineExpr expr :
         llvm::concat<const AffineExpr>(range.lower, range.upper))
      if (!usesOuterDims(expr, k))
        fail("range " + Twine(k) + " uses an inner coordinate", {}, {});
  for (AffineExpr expr : piece.conditions)
    if (!usesOuterDims(expr, 0))
      fail("a condition uses a coordinate", {}, {});
}

/// Counts the visits of each point by the plan's pieces.
static std::map<Point, int> visitPlan(const PolyDomain &domain,
                                      const Offsets &offsets,
                                      const PolyGatherPlan &plan,
                                      const Point &syms) {
  std::map<Point, int> visits;
  for (const PolyPiece &piece : plan.pieces) {
    if (!piece.guarded.empty() && (plan.exact || piece.core))
      fail("a guarded piece in an exact plan or core", syms, {});
    checkShape(piece);
    Point none(domain.rank, 0);
    if (llvm::any_of(piece.conditions, [&](AffineExpr condition) {
          return eval(condition, none, syms) < 0;
        }))
      continue;
    SmallVector<SmallVector<AffineExpr>> lower, upper;
    for (const PolyRange &range : piece.ranges) {
      lower.push_back(range.lower);
      upper.push_back(range.upper);
    }
    Point point(domain.rank, 0);
    forEachPoint(
        lower, upper, syms,
        [&](const Point &y) {
          ++visits[y];
          checkStatements(domain, offsets, piece, y, syms);
        },
        point);
  }
  return visits;
}

static void checkAt(const PolyDomain &domain, const Offsets &offsets,
                    const PolyGatherPlan &plan, const Point &syms) {
  std::set<Point> expected;
  Point point(domain.rank, 0);
  forEachPoint(
      domain.lower, domain.upper, syms,
      [&](const Point &x) {
        for (ArrayRef<int64_t> offset : offsets) {
          Point y(x);
          for (unsigned k = 0; k < y.size(); ++k)
            y[k] += offset[k];
          expected.insert(y);
        }
      },
      point);
  std::map<Point, int> visits = visitPlan(domain, offsets, plan, syms);
  for (const auto &[y, count] : visits) {
    if (count != 1)
      fail("visited " + Twine(count) + " times", syms, y);
    if (!expected.count(y))
      fail("visited outside U", syms, y);
  }
  for (const Point &y : expected)
    if (!visits.count(y))
      fail("not visited", syms, y);
}

static void printDomain(const PolyDomain &domain, const Offsets &offsets) {
  for (unsigned k = 0; k < domain.rank; ++k) {
    llvm::errs() << "  d" << k << " from max(";
    llvm::interleaveComma(domain.lower[k], llvm::errs());
    llvm::errs() << ") to min(";
    llvm::interleaveComma(domain.upper[k], llvm::errs());
    llvm::errs() << ")\n";
  }
  llvm::errs() << "  offsets:";
  for (ArrayRef<int64_t> offset : offsets) {
    llvm::errs() << " (";
    llvm::interleaveComma(offset, llvm::errs());
    llvm::errs() << ")";
  }
  llvm::errs() << "\n";
}

/// Plans `domain`, checks the plan at sizes from -1 (empty) up, and returns
/// it with its planning time in ms, or failure.
static FailureOr<PolyGatherPlan> planAndCheck(const PolyDomain &domain,
                                              const Offsets &offsets,
                                              bool exact, double &ms) {
  std::string whyNot;
  auto start = std::chrono::steady_clock::now();
  FailureOr<PolyGatherPlan> plan =
      planPolyGather(domain, offsets, exact, /*maxPieces=*/200, whyNot);
  ms = std::chrono::duration<double, std::milli>(
           std::chrono::steady_clock::now() - start)
           .count();
  unsigned before = numFailures;
  if (failed(plan)) {
    fail("refused: " + whyNot, {}, {});
  } else {
    if (exact && !plan->exact && !plan->exactFellBack)
      fail("asked exact, neither exact nor fell back", {}, {});
    for (int64_t n : {-1, 0, 1, 2, 3, 5, 8}) {
      for (int64_t m : {0, 2, 7}) {
        Point syms{n, m};
        syms.resize(domain.numSymbols, 0);
        checkAt(domain, offsets, *plan, syms);
      }
    }
  }
  if (numFailures != before)
    printDomain(domain, offsets);
  return plan;
}

//===----------------------------------------------------------------------===//
// Domains
//===----------------------------------------------------------------------===//

namespace {
struct Builder {
  MLIRContext *ctx;
  std::mt19937 rng;

  int pick(int low, int high) {
    return std::uniform_int_distribution<int>(low, high)(rng);
  }
  AffineExpr c(int64_t value) { return getAffineConstantExpr(value, ctx); }
  AffineExpr d(unsigned pos) { return getAffineDimExpr(pos, ctx); }
  AffineExpr s(unsigned pos) { return getAffineSymbolExpr(pos, ctx); }

  /// A random extra lower bound of dimension k.
  AffineExpr lower(unsigned k) {
    switch (pick(0, k ? 5 : 2)) {
    case 0:
      return c(pick(-1, 2));
    case 1:
      return s(1) - pick(2, 6);
    case 2:
      return s(0).floorDiv(3) - 1;
    case 3:
      return d(pick(0, k - 1)) + pick(-3, 2);
    case 4:
      return d(pick(0, k - 1)) * 2 - pick(3, 8);
    default:
      return s(0) - d(pick(0, k - 1)) - pick(4, 8);
    }
  }
  /// A random extra upper bound of dimension k.
  AffineExpr upper(unsigned k) {
    switch (pick(0, k ? 6 : 2)) {
    case 0:
      return s(0) + pick(-2, 1);
    case 1:
      return s(1) + pick(-1, 1);
    case 2:
      return s(0).ceilDiv(2) + 2;
    case 3:
      return d(pick(0, k - 1)) + pick(1, 4);
    case 4:
      return d(pick(0, k - 1)) * 2 + pick(-1, 3);
    case 5:
      return s(0) - d(pick(0, k - 1)) + pick(0, 2);
    default:
      return s(1) - d(pick(0, k - 1)) + s(0) % 3;
    }
  }
  /// A box [-1..1, n-1..n+1) per dimension cut by 0-2 extra bounds each side.
  PolyDomain domain(unsigned rank) {
    PolyDomain result{rank, 2, {}, {}};
    result.lower.resize(rank);
    result.upper.resize(rank);
    for (unsigned k = 0; k < rank; ++k) {
      result.lower[k].push_back(c(pick(-1, 1)));
      result.upper[k].push_back(s(0) + pick(-1, 1));
      for (int i = pick(0, 2); i > 0; --i)
        result.lower[k].push_back(lower(k));
      for (int i = pick(0, 2); i > 0; --i)
        result.upper[k].push_back(upper(k));
    }
    return result;
  }
  Offsets offsets(unsigned rank) {
    int radius = pick(1, 3), count = pick(1, 27);
    std::set<Point> seen;
    Offsets result;
    for (int tries = 0; tries < 4 * count && (int)result.size() < count;
         ++tries) {
      Point offset(rank);
      for (int64_t &value : offset)
        value = pick(-radius, radius);
      if (seen.insert(offset).second)
        result.emplace_back(offset.begin(), offset.end());
    }
    return result;
  }
};
} // namespace

static Offsets star(unsigned rank) {
  Offsets result{SmallVector<int64_t>(rank, 0)};
  for (unsigned k = 0; k < rank; ++k) {
    for (int64_t step : {-1, 1}) {
      result.emplace_back(rank, 0);
      result.back()[k] = step;
    }
  }
  return result;
}

static Offsets cube(unsigned rank) {
  Offsets result{{}};
  for (unsigned k = 0; k < rank; ++k) {
    Offsets longer;
    for (ArrayRef<int64_t> prefix : result)
      for (int64_t step : {-1, 0, 1}) {
        longer.emplace_back(prefix);
        longer.back().push_back(step);
      }
    result = std::move(longer);
  }
  return result;
}

static void runNamed(StringRef name, const PolyDomain &domain,
                     const Offsets &offsets) {
  for (bool exact : {false, true}) {
    double ms = 0;
    FailureOr<PolyGatherPlan> plan = planAndCheck(domain, offsets, exact, ms);
    if (failed(plan))
      continue;
    unsigned guarded = llvm::count_if(
        plan->pieces, [](const PolyPiece &p) { return !p.guarded.empty(); });
    llvm::outs() << llvm::format("%-24s %-7s %4zu pieces, %3u guarded, "
                                 "%7.1f ms\n",
                                 name.str().c_str(),
                                 exact ? "exact" : "compact",
                                 plan->pieces.size(), guarded, ms);
    if (printPlans) {
      plan->printJSON(llvm::outs());
      llvm::outs() << "\n";
    }
  }
}

static void runNamedDomains(Builder &b) {
  PolyDomain triangle{2, 1, {{b.c(1)}, {b.d(0)}}, {{b.s(0) - 1}, {b.s(0) - 1}}};
  runNamed("triangle star5", triangle, star(2));
  PolyDomain trapezoid{
      2, 2, {{b.c(0)}, {b.c(0), b.d(0) - 4}}, {{b.s(0)}, {b.s(1), b.d(0) + 8}}};
  runNamed("trapezoid box9", trapezoid, cube(2));
  PolyDomain wedge{3,
                   1,
                   {{b.c(1)}, {b.c(1)}, {b.c(1)}},
                   {{b.s(0) - 1}, {b.d(0) + 1}, {b.s(0) - 1}}};
  runNamed("wedge star7", wedge, star(3));
  runNamed("wedge cube27", wedge, cube(3));
  PolyDomain line{2, 1, {{b.c(0)}, {b.d(0) * 2}}, {{b.s(0)}, {b.d(0) * 2 + 1}}};
  runNamed("line of slope 2 box9", line, cube(2));
  PolyDomain divisions{2,
                       2,
                       {{b.s(0).floorDiv(2)}, {b.c(0), b.s(1) % 4}},
                       {{b.s(0) + b.s(1).ceilDiv(3)}, {b.d(0) + 3, b.s(0)}}};
  runNamed("symbol divisions box9", divisions, cube(2));
  PolyDomain box{3,
                 1,
                 {{b.c(1)}, {b.c(1)}, {b.c(1)}},
                 {{b.s(0) - 1}, {b.s(0) - 1}, {b.s(0) - 1}}};
  runNamed("box star7", box, star(3));
  runNamed("box cube27", box, cube(3));

  divisions.upper[1].push_back(b.d(0).floorDiv(2));
  std::string whyNot;
  if (succeeded(planPolyGather(divisions, star(2), false, 200, whyNot)))
    fail("a division of a coordinate was not refused", {}, {});
  else
    llvm::outs() << "refused: " << whyNot << "\n";
}

int main(int argc, char **argv) {
  llvm::cl::ParseCommandLineOptions(argc, argv,
                                    "brute-force check of the gather plan\n");
  MLIRContext ctx;
  Builder builder{&ctx, std::mt19937(seed)};
  runNamedDomains(builder);
  unsigned fellBack = 0, conditioned = 0;
  for (unsigned trial = 0; trial < numTrials; ++trial) {
    unsigned rank = builder.pick(1, 3);
    PolyDomain domain = builder.domain(rank);
    Offsets offsets = builder.offsets(rank);
    for (bool exact : {false, true}) {
      double ms = 0;
      FailureOr<PolyGatherPlan> plan = planAndCheck(domain, offsets, exact, ms);
      if (failed(plan))
        continue;
      fellBack += plan->exactFellBack;
      conditioned += llvm::count_if(plan->pieces, [](const PolyPiece &p) {
        return !p.conditions.empty();
      });
    }
  }
  llvm::outs() << numTrials << " random domains (" << fellBack
               << " exact plans fell back, " << conditioned
               << " pieces with conditions), " << numFailures << " failures\n";
  return numFailures ? 1 : 0;
}
