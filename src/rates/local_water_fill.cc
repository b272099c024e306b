// How LocalWaterFill fills.
//
// The argument is LocalFill's, for paths of any length: max-min levels are settled in
// increasing order, and a link's level depends on the others only through the groups it shares
// with them. After a few groups or input capacities change, the fill is redone on a region of
// links around them, each group there capped at the old level of the links it crosses outside
// (a saturated link outside caps its groups at its level, an unsaturated one not at all). A
// saturated link outside that carries a group whose rate changed joins the region (its use
// changed, so must its level), as does an unsaturated one that the changes would overload,
// and the region is filled again. When none join, every group still has a saturated bottleneck
// on which its rate is the highest, so the result is the max-min allocation (the whole fill's,
// up to rounding).
#include "rates/local_water_fill.h"

#include <algorithm>
#include <functional>

#include "api/units.h"
#include "rates/tuning.h"

namespace slotflow::rates {

LocalWaterFill::LocalWaterFill(size_t links)
    : min_links_(kLocalFillMinLinks),
      min_network_links_(kLocalWaterFillMinNetworkLinks),
      min_groups_(kLocalWaterFillMinGroups),
      in_region_(links, 0),
      closed_(links, 0),
      res_(links, 0),
      share_(links, 0),
      new_level_(links, kForever),
      top_rate_(links, 0),
      weight_(links, 0),
      extra_use_(links, 0),
      extra_use_flag_(links, 0) {}

bool LocalWaterFill::Wanted(const GroupTable& t, size_t groups) const {
  return groups >= min_groups_ && groups > 0 && in_region_.size() >= min_network_links_ &&
         t.class_ids.size() * in_region_.size() <= kMaxSavedResiduals;
}

void LocalWaterFill::BeforeWholeFill(GroupTable& t, const std::vector<double>& residual,
                                     ClassState& cs) {
  t.TrackLinks();
  SparseLocal& sl = cs.sparse;
  const size_t links = in_region_.size();
  if (sl.listed.size() != links) {
    sl.level.assign(links, kForever);
    sl.input.assign(links, 0);
    sl.output.assign(links, 0);
    sl.pending_use.assign(links, 0);
    sl.listed.assign(links, 0);
    sl.is_seed.assign(links, 0);
    sl.links.clear();
    sl.seeds.clear();
  }
  for (LinkId l : sl.links) sl.listed[l] = 0;
  sl.links.clear();
  for (LinkId l : sl.seeds) {
    sl.is_seed[l] = 0;
    sl.pending_use[l] = 0;
  }
  sl.seeds.clear();
  sl.changed.clear();
  for (int32_t g : cs.groups) {
    for (LinkId l : t.GroupLinks(g)) {
      if (sl.listed[l]) continue;
      sl.listed[l] = 1;
      sl.links.push_back(l);
      sl.input[l] = residual[l];
    }
  }
  sl.valid = false;  // until AfterWholeFill
}

void LocalWaterFill::AfterWholeFill(const GroupTable& t, const std::vector<double>& residual,
                                    const WaterFill& fill, ClassState& cs) {
  SparseLocal& sl = cs.sparse;
  if (sl.links.size() < min_links_) return;  // too few links to be worth it: stays invalid
  for (LinkId l : sl.links) {
    sl.output[l] = residual[l];
    sl.level[l] = fill.level(l);
    top_rate_[l] = 0;
  }
  // A link the fill emptied without choosing it (a tie: its groups froze on another link at the
  // same share) may still be full; then it is the bottleneck of its fastest groups, and its
  // level is their rate.
  for (int32_t g : cs.groups) {
    for (LinkId l : t.GroupLinks(g)) top_rate_[l] = std::max(top_rate_[l], t.rate[g]);
  }
  for (LinkId l : sl.links) {
    if (sl.level[l] == kForever && Full(sl.output[l], sl.input[l])) sl.level[l] = top_rate_[l];
  }
  sl.valid = true;
}

bool LocalWaterFill::TryFill(GroupTable& t, std::vector<double>& residual, ClassState& cs) {
  SparseLocal& sl = cs.sparse;
  if (!sl.valid) return false;
  // After a local fill that reached too far, the next ones are likely to as well: skip 1, 3,
  // 7, ... attempts, up to kLocalBackoffMax (as LocalFill does).
  if (sl.skip > 0) {
    --sl.skip;
    return false;
  }
  if (Fill(t, residual, cs)) {
    sl.backoff = 0;
    return true;
  }
  sl.backoff = std::min(2 * sl.backoff + 1, kLocalBackoffMax);
  sl.skip = sl.backoff;
  return false;
}

bool LocalWaterFill::Fill(GroupTable& t, std::vector<double>& residual, ClassState& cs) {
  SparseLocal& sl = cs.sparse;
  const auto class_id = static_cast<int32_t>(&cs - t.class_states.data());
  if (gr_index_.size() < t.groups.size()) gr_index_.resize(t.groups.size(), -1);
  SeedRegion(t, class_id, sl, residual);
  bool local = true;
  for (;;) {
    // About as costly as the whole fill: leave it to that.
    if (kLocalRegionMaxFraction * region_.size() > sl.links.size()) {
      local = false;
      break;
    }
    FillRegion(t, class_id, sl, residual);
    const size_t before = region_.size();
    JoinReachedLinks(t, sl);
    if (region_.size() == before) break;
  }
  if (local) Keep(t, residual, sl);
  for (LinkId l : region_) in_region_[l] = 0;
  for (int32_t g : gr_) gr_index_[g] = -1;
  gr_.clear();
  ++(local ? local_fills_ : whole_fills_);
  return local;
}

void LocalWaterFill::SeedRegion(const GroupTable& t, int32_t class_id, SparseLocal& sl,
                                const std::vector<double>& residual) {
  region_.clear();
  watched_.clear();
  // A link that was saturated must be filled again; one that was not (a rack link, often,
  // crossed by many groups) only checked for overload, with the use its groups' changes add
  // at their old rates or the capacity the classes above now take from it.
  auto seed = [&](LinkId l, double extra) {
    if (sl.level[l] < kForever) {
      JoinRegion(l);
    } else if (extra != 0) {
      watched_.emplace_back(l, extra);
    }
  };
  for (LinkId l : sl.seeds) {
    sl.is_seed[l] = 0;
    seed(l, sl.pending_use[l]);
    sl.pending_use[l] = 0;
  }
  sl.seeds.clear();
  for (LinkId l : sl.links) {
    if (residual[l] != sl.input[l]) seed(l, sl.input[l] - residual[l]);
  }
  // A group whose count changed needs a rate from the region: if none of its links is there
  // (none was saturated), its link with the fewest groups joins.
  for (int32_t g : sl.changed) {
    if (g >= t.hi || !t.groups[g].live || t.group_class[g] != class_id || t.count[g] == 0) {
      continue;
    }
    LinkId fewest{-1};
    bool reached = false;
    for (LinkId l : t.GroupLinks(g)) {
      reached = reached || in_region_[l];
      if (fewest < 0 || t.GroupsOnLink(l).size() < t.GroupsOnLink(fewest).size()) fewest = l;
    }
    if (!reached && fewest >= 0) JoinRegion(fewest);
  }
  sl.changed.clear();
}

void LocalWaterFill::FillRegion(const GroupTable& t, int32_t class_id, const SparseLocal& sl,
                                const std::vector<double>& residual) {
  for (int32_t g : gr_) gr_index_[g] = -1;
  gr_.clear();
  caps_.clear();
  heap_.clear();
  for (LinkId l : region_) {
    res_[l] = residual[l];
    top_rate_[l] = 0;
    weight_[l] = 0;
    new_level_[l] = kForever;
    closed_[l] = 0;
    for (int32_t g : t.GroupsOnLink(l)) {
      if (t.group_class[g] != class_id || gr_index_[g] >= 0) continue;
      gr_index_[g] = static_cast<int32_t>(gr_.size());
      gr_.push_back(g);
    }
  }
  new_rate_.assign(gr_.size(), 0);
  frozen_.assign(gr_.size(), 0);
  for (size_t i = 0; i < gr_.size(); ++i) {
    const int32_t g = gr_[i];
    double cap = kForever;
    for (LinkId l : t.GroupLinks(g)) {
      if (in_region_[l]) {
        weight_[l] += t.count[g];
      } else {
        cap = std::min(cap, sl.level[l]);
      }
    }
    if (cap < kForever) caps_.emplace_back(cap, static_cast<int32_t>(i));
  }
  std::sort(caps_.begin(), caps_.end());
  for (LinkId l : region_) {
    if (weight_[l] == 0) {
      closed_[l] = 1;  // no group of the class left on it
      continue;
    }
    share_[l] = std::max(0.0, res_[l]) / static_cast<double>(weight_[l]);
    heap_.emplace_back(share_[l], l);
  }
  std::make_heap(heap_.begin(), heap_.end(), std::greater<>());
  // Shares only grow as groups freeze (each at most the smallest share), so a heap entry whose
  // share is no longer the link's is stale.
  size_t next_cap = 0;
  for (;;) {
    while (!heap_.empty() &&
           (closed_[heap_.front().second] || heap_.front().first != share_[heap_.front().second])) {
      std::pop_heap(heap_.begin(), heap_.end(), std::greater<>());
      heap_.pop_back();
    }
    while (next_cap < caps_.size() && frozen_[caps_[next_cap].second]) ++next_cap;
    const bool link = !heap_.empty(), cap = next_cap < caps_.size();
    if (!link && !cap) break;
    if (cap && (!link || caps_[next_cap].first <= heap_.front().first)) {
      // A link outside caps this group first.
      Freeze(t, static_cast<size_t>(caps_[next_cap].second), caps_[next_cap].first);
      ++next_cap;
      continue;
    }
    const auto [share, l] = heap_.front();
    std::pop_heap(heap_.begin(), heap_.end(), std::greater<>());
    heap_.pop_back();
    new_level_[l] = share;
    closed_[l] = 1;
    for (int32_t g : t.GroupsOnLink(l)) {
      const int32_t i = gr_index_[g];
      if (i >= 0 && !frozen_[i]) Freeze(t, static_cast<size_t>(i), share);
    }
  }
}

void LocalWaterFill::Freeze(const GroupTable& t, size_t i, double rate) {
  frozen_[i] = 1;
  new_rate_[i] = rate;
  const int32_t g = gr_[i];
  const auto n = static_cast<int64_t>(t.count[g]);
  for (LinkId l : t.GroupLinks(g)) {
    if (!in_region_[l]) continue;
    top_rate_[l] = std::max(top_rate_[l], rate);
    res_[l] -= rate * static_cast<double>(n);
    weight_[l] -= n;
    if (closed_[l]) continue;
    if (weight_[l] == 0) {
      closed_[l] = 1;  // emptied without being a bottleneck: level kForever
    } else {
      share_[l] = std::max(0.0, res_[l]) / static_cast<double>(weight_[l]);
      heap_.emplace_back(share_[l], l);
      std::push_heap(heap_.begin(), heap_.end(), std::greater<>());
    }
  }
}

void LocalWaterFill::AddExtraUse(LinkId l, double use) {
  if (!extra_use_flag_[l]) {
    extra_use_flag_[l] = 1;
    extra_use_[l] = 0;
    unsaturated_.push_back(l);
  }
  extra_use_[l] += use;
}

void LocalWaterFill::JoinReachedLinks(const GroupTable& t, const SparseLocal& sl) {
  unsaturated_.clear();
  for (const auto& [l, extra] : watched_) {
    if (!in_region_[l]) AddExtraUse(l, extra);
  }
  for (size_t i = 0; i < gr_.size(); ++i) {
    const int32_t g = gr_[i];
    const double was = t.rate[g], now = new_rate_[i];
    if (now == was) continue;
    for (LinkId l : t.GroupLinks(g)) {
      if (in_region_[l]) continue;
      if (sl.level[l] < kForever) {
        JoinRegion(l);
      } else {
        AddExtraUse(l, (now - was) * static_cast<double>(t.count[g]));
      }
    }
  }
  for (LinkId l : unsaturated_) {
    extra_use_flag_[l] = 0;
    if (!in_region_[l] && sl.output[l] - extra_use_[l] < 0) JoinRegion(l);
  }
}

void LocalWaterFill::Keep(GroupTable& t, std::vector<double>& residual, SparseLocal& sl) {
  for (size_t i = 0; i < gr_.size(); ++i) t.SetRate(gr_[i], new_rate_[i]);
  for (LinkId l : unsaturated_) {
    if (in_region_[l]) continue;
    sl.output[l] = std::max(0.0, sl.output[l] - extra_use_[l]);
    sl.input[l] = residual[l];  // a watched link's input may have changed
  }
  for (LinkId l : region_) {
    sl.input[l] = residual[l];
    sl.output[l] = std::max(0.0, res_[l]);
    // As after a whole fill: a link emptied without being chosen may still be full.
    sl.level[l] =
        new_level_[l] == kForever && Full(sl.output[l], sl.input[l]) ? top_rate_[l] : new_level_[l];
  }
  for (LinkId l : sl.links) residual[l] = sl.output[l];
}

}  // namespace slotflow::rates
