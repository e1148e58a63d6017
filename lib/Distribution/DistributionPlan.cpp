//===- DistributionPlan.cpp - Halos and exchanges of a block decomposition ===//
//
// This file implements the plan of --stencil-distribute (see
// DistributionPlan.h): reaches, halo widths and exchange points from the
// access offsets alone.
//
//===----------------------------------------------------------------------===//

#include "Stencil/Distribution/DistributionPlan.h"

#include "llvm/Support/JSON.h"

#include <algorithm>

using namespace mlir;
using namespace mlir::stencil;

bool HaloWidths::empty() const {
  return llvm::all_of(lower, [](int64_t w) { return w <= 0; }) &&
         llvm::all_of(upper, [](int64_t w) { return w <= 0; });
}

void HaloWidths::widen(const HaloWidths &other) {
  for (unsigned k = 0; k < lower.size(); ++k) {
    lower[k] = std::max(lower[k], other.lower[k]);
    upper[k] = std::max(upper[k], other.upper[k]);
  }
}

int64_t HaloWidths::max() const {
  int64_t widest = 0;
  for (unsigned k = 0; k < lower.size(); ++k)
    widest = std::max({widest, lower[k], upper[k]});
  return widest;
}

int64_t DistributionPlan::maxHalo() const {
  int64_t widest = 0;
  for (const HaloWidths &halo : halos)
    widest = std::max(widest, halo.max());
  return widest;
}

SmallVector<int64_t> DistributionPlan::maxExchange() const {
  SmallVector<int64_t> widest(rank, 0);
  auto widen = [&](ArrayRef<HaloExchange> exchanges) {
    for (const HaloExchange &exchange : exchanges)
      for (unsigned k = 0; k < rank; ++k)
        widest[k] = std::max({widest[k], exchange.widths.lower[k],
                              exchange.widths.upper[k]});
  };
  widen(entry);
  for (const DistDomain &domain : domains)
    widen(domain.exchanges);
  return widest;
}

namespace {
/// The offsets one domain writes at, as a box per dimension.
struct WriteBox {
  SmallVector<int64_t> min, max;
};
} // namespace

/// The box of a domain's write offsets; a domain that writes nothing
/// (only sums) runs its own points.
static WriteBox getWriteBox(ArrayRef<DistAccess> accesses, unsigned rank) {
  WriteBox box{SmallVector<int64_t>(rank, INT64_MAX),
               SmallVector<int64_t>(rank, INT64_MIN)};
  for (const DistAccess &access : accesses) {
    if (!access.write)
      continue;
    for (unsigned k = 0; k < rank; ++k) {
      box.min[k] = std::min(box.min[k], access.offset[k]);
      box.max[k] = std::max(box.max[k], access.offset[k]);
    }
  }
  for (unsigned k = 0; k < rank; ++k)
    if (box.min[k] > box.max[k])
      box.min[k] = box.max[k] = 0;
  return box;
}

/// The halo of each array that one domain reads beyond the block (points
/// p in [s - max W, e - min W) read p + g) and writes beyond it.
static void getDomainHalos(ArrayRef<DistAccess> accesses, const WriteBox &box,
                           unsigned rank, SmallVectorImpl<HaloWidths> &reads,
                           SmallVectorImpl<HaloWidths> &writes) {
  for (const DistAccess &access : accesses) {
    HaloWidths need(rank);
    for (unsigned k = 0; k < rank; ++k) {
      int64_t o = access.offset[k];
      need.lower[k] = std::max<int64_t>(0, box.max[k] - o);
      need.upper[k] = std::max<int64_t>(0, o - box.min[k]);
    }
    (access.write ? writes : reads)[access.array].widen(need);
  }
}

/// Whether a domain writes array `a`.
static bool isWritten(ArrayRef<DistAccess> accesses, unsigned a) {
  return llvm::any_of(accesses, [&](const DistAccess &access) {
    return access.write && access.array == a;
  });
}

/// The plan of `domains` when the halos `valid` hold on entry.
static DistributionPlan planSequence(ArrayRef<SmallVector<DistAccess>> domains,
                                     unsigned numArrays, unsigned rank,
                                     SmallVector<HaloWidths> valid) {
  DistributionPlan plan;
  plan.rank = rank;
  plan.halos = valid;
  SmallVector<SmallVector<HaloWidths>> reads, writes;
  for (ArrayRef<DistAccess> accesses : domains) {
    WriteBox box = getWriteBox(accesses, rank);
    DistDomain domain;
    domain.reach = HaloWidths(rank);
    for (unsigned k = 0; k < rank; ++k) {
      domain.reach.lower[k] = box.max[k];
      domain.reach.upper[k] = -box.min[k];
    }
    plan.domains.push_back(domain);
    reads.emplace_back(numArrays, HaloWidths(rank));
    writes.emplace_back(numArrays, HaloWidths(rank));
    getDomainHalos(accesses, box, rank, reads.back(), writes.back());
  }
  // What each array's halo holds: `valid` on entry, nothing after a write.
  for (unsigned i = 0; i < domains.size(); ++i) {
    for (unsigned a = 0; a < numArrays; ++a) {
      HaloWidths covered = valid[a];
      covered.widen(reads[i][a]);
      if (covered.lower == valid[a].lower && covered.upper == valid[a].upper)
        continue;
      // One exchange for every read until the next write.
      HaloWidths widths = reads[i][a];
      for (unsigned j = i + 1; j < domains.size() && !isWritten(domains[j], a);
           ++j)
        widths.widen(reads[j][a]);
      plan.domains[i].exchanges.push_back({a, widths});
      valid[a] = widths;
    }
    for (unsigned a = 0; a < numArrays; ++a) {
      plan.halos[a].widen(valid[a]);
      plan.halos[a].widen(writes[i][a]);
      if (isWritten(domains[i], a))
        valid[a] = HaloWidths(rank);
    }
  }
  return plan;
}

DistributionPlan
mlir::stencil::planDistribution(ArrayRef<SmallVector<DistAccess>> domains,
                                unsigned numArrays, unsigned rank) {
  return planSequence(domains, numArrays, rank,
                      SmallVector<HaloWidths>(numArrays, HaloWidths(rank)));
}

DistributionPlan
mlir::stencil::planLoopDistribution(ArrayRef<SmallVector<DistAccess>> domains,
                                    unsigned numArrays, unsigned rank,
                                    ArrayRef<bool> invariant) {
  // An invariant array's halo, filled before the loop, holds for every
  // read of every iteration.
  SmallVector<HaloWidths> valid(numArrays, HaloWidths(rank));
  for (ArrayRef<DistAccess> accesses : domains) {
    SmallVector<HaloWidths> reads(numArrays, HaloWidths(rank)),
        writes(numArrays, HaloWidths(rank));
    getDomainHalos(accesses, getWriteBox(accesses, rank), rank, reads, writes);
    for (unsigned a = 0; a < numArrays; ++a)
      if (invariant[a] && llvm::none_of(domains, [&](ArrayRef<DistAccess> d) {
            return isWritten(d, a);
          }))
        valid[a].widen(reads[a]);
  }
  DistributionPlan plan = planSequence(domains, numArrays, rank, valid);
  plan.loop = true;
  for (unsigned a = 0; a < numArrays; ++a)
    if (!valid[a].empty())
      plan.entry.push_back({a, valid[a]});
  return plan;
}

DistributionPlan mlir::stencil::planTimeLoopDistribution(
    ArrayRef<SmallVector<DistAccess>> domains, unsigned head, unsigned tail,
    unsigned numArrays, unsigned rank, ArrayRef<bool> invariant) {
  unsigned body = domains.size() - head - tail;
  DistributionPlan plan = planLoopDistribution(domains.slice(head, body),
                                               numArrays, rank, invariant);
  DistributionPlan before =
      planDistribution(domains.take_front(head), numArrays, rank);
  DistributionPlan after =
      planDistribution(domains.take_back(tail), numArrays, rank);
  plan.domains.insert(plan.domains.begin(), before.domains.begin(),
                      before.domains.end());
  llvm::append_range(plan.domains, after.domains);
  for (unsigned a = 0; a < numArrays; ++a) {
    plan.halos[a].widen(before.halos[a]);
    plan.halos[a].widen(after.halos[a]);
  }
  plan.head = head;
  plan.tail = tail;
  return plan;
}

static llvm::json::Value toJSON(const HaloWidths &widths) {
  llvm::json::Array sides;
  for (unsigned k = 0; k < widths.lower.size(); ++k)
    sides.push_back(llvm::json::Array{widths.lower[k], widths.upper[k]});
  return sides;
}

static llvm::json::Value toJSON(ArrayRef<HaloExchange> exchanges) {
  llvm::json::Array list;
  for (const HaloExchange &exchange : exchanges)
    list.push_back(llvm::json::Object{{"array", exchange.array},
                                      {"widths", toJSON(exchange.widths)}});
  return list;
}

void DistributionPlan::printJSON(raw_ostream &os) const {
  llvm::json::Array domainsJSON;
  for (const DistDomain &domain : domains)
    domainsJSON.push_back(llvm::json::Object{
        {"reach", toJSON(domain.reach)},
        {"exchanges", toJSON(domain.exchanges)}});
  llvm::json::Array halosJSON;
  for (const HaloWidths &halo : halos)
    halosJSON.push_back(toJSON(halo));
  llvm::json::Object object{{"rank", rank},
                            {"domains", std::move(domainsJSON)},
                            {"halos", std::move(halosJSON)},
                            {"max_halo", maxHalo()}};
  if (loop)
    object["loop_entry"] = toJSON(entry);
  if (head)
    object["head_domains"] = head;
  if (tail)
    object["tail_domains"] = tail;
  os << llvm::json::Value(std::move(object));
}
