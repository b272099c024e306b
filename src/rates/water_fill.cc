// How WaterFill fills. Progressive filling: repeatedly take the link with the smallest fair
// share (residual / members), freeze every unfrozen group crossing it at that share, and charge
// the other links of those groups. Links are few (two per server) while groups are many, so
// each round finds the minimum by a linear scan over the links still carrying unfrozen groups,
// unless the groups are few for the links.
#include "rates/water_fill.h"

#include <algorithm>

#include "api/units.h"
#include "rates/arg_min.h"
#include "rates/tuning.h"

namespace slotflow::rates {

WaterFill::WaterFill(size_t links)
    : links_(links),
      adj_begin_(links, 0),
      adj_fill_(links, 0),
      link_dirty_(links, 0),
      level_(links, kForever) {}

void WaterFill::Fill(GroupTable& t, std::vector<double>& residual, std::span<const int32_t> groups,
                     bool add) {
  std::vector<LinkId>& touched = links_.touched;
  std::vector<int64_t>& weight = links_.weight;
  touched.clear();
  for (int32_t g : groups) {
    for (LinkId l : t.GroupLinks(g)) {
      if (adj_fill_[l] == 0) touched.push_back(l);
      weight[l] += t.count[g];
      ++adj_fill_[l];
    }
  }
  int32_t total = 0;
  for (LinkId l : touched) {
    level_[l] = kForever;
    adj_begin_[l] = total;
    total += adj_fill_[l];
    adj_fill_[l] = adj_begin_[l];
  }
  if (adj_.size() < static_cast<size_t>(total)) adj_.resize(total);
  for (size_t i = 0; i < groups.size(); ++i) {
    for (LinkId l : t.GroupLinks(groups[i])) adj_[adj_fill_[l]++] = static_cast<int32_t>(i);
  }
  frozen_.assign(groups.size(), 0);

  ++fills_;
  // Few groups over many links (a small priority class): a min-tree over link shares costs
  // O(log links) per charged link instead of a scan of all open links per round.
  if (touched.size() * touched.size() > kMinTreeLinksSquaredPerGroup * groups.size()) {
    ++min_tree_fills_;
    FreezeWithMinTree(t, residual, groups, add);
  } else {
    FreezeWithScan(t, residual, groups, add);
  }
  for (LinkId l : touched) {
    weight[l] = 0;
    adj_fill_[l] = 0;
    if (residual[l] < 0) residual[l] = 0;
  }
}

void WaterFill::FreezeLink(GroupTable& t, std::vector<double>& residual, LinkId l, double share,
                           std::span<const int32_t> groups, bool add) {
  std::vector<int64_t>& weight = links_.weight;
  for (int32_t k = adj_begin_[l]; k < adj_fill_[l]; ++k) {
    const int32_t i = adj_[k];
    if (frozen_[i]) continue;
    frozen_[i] = 1;
    const int32_t g = groups[i];
    t.SetRate(g, add ? t.rate[g] + share : share);
    const double used = share * t.count[g];
    for (LinkId l2 : t.GroupLinks(g)) {
      residual[l2] -= used;
      weight[l2] -= t.count[g];
      if (!link_dirty_[l2]) {
        link_dirty_[l2] = 1;
        dirty_links_.push_back(l2);
      }
    }
  }
}

void WaterFill::FreezeWithMinTree(GroupTable& t, std::vector<double>& residual,
                                  std::span<const int32_t> groups, bool add) {
  const std::vector<LinkId>& touched = links_.touched;
  const std::vector<int64_t>& weight = links_.weight;
  std::vector<int32_t>& open_pos = links_.pos;
  const size_t n = touched.size();
  size_t width = 1;
  while (width < n) width *= 2;
  min_tree_.assign(2 * width, kForever);
  auto share_of = [&](LinkId l) {
    return weight[l] > 0 ? std::max(0.0, residual[l]) / static_cast<double>(weight[l]) : kForever;
  };
  for (size_t k = 0; k < n; ++k) {
    open_pos[touched[k]] = static_cast<int32_t>(k);
    min_tree_[width + k] = share_of(touched[k]);
  }
  for (size_t v = width - 1; v >= 1; --v)
    min_tree_[v] = std::min(min_tree_[2 * v], min_tree_[2 * v + 1]);
  while (min_tree_[1] < kForever) {
    // Leftmost smallest share, as the scan would pick.
    size_t v = 1;
    while (v < width) v = min_tree_[2 * v] <= min_tree_[2 * v + 1] ? 2 * v : 2 * v + 1;
    const LinkId l = touched[v - width];
    level_[l] = min_tree_[1];
    FreezeLink(t, residual, l, min_tree_[1], groups, add);
    for (LinkId l2 : dirty_links_) {
      link_dirty_[l2] = 0;
      size_t u = width + open_pos[l2];
      min_tree_[u] = share_of(l2);
      for (u /= 2; u >= 1; u /= 2) min_tree_[u] = std::min(min_tree_[2 * u], min_tree_[2 * u + 1]);
    }
    dirty_links_.clear();
  }
  for (LinkId l : touched) open_pos[l] = -1;
}

void WaterFill::RefreshOpenLinks(const std::vector<double>& residual) {
  const std::vector<int64_t>& weight = links_.weight;
  std::vector<LinkId>& open = links_.open;
  std::vector<double>& open_share = links_.share;
  std::vector<int32_t>& open_pos = links_.pos;
  for (LinkId l : dirty_links_) {
    link_dirty_[l] = 0;
    if (weight[l] > 0) {
      open_share[open_pos[l]] = std::max(0.0, residual[l]) / static_cast<double>(weight[l]);
    }
  }
  dirty_links_.clear();
  size_t kept = 0;
  for (size_t k = 0; k < open.size(); ++k) {
    const LinkId l = open[k];
    if (weight[l] > 0) {
      open_pos[l] = static_cast<int32_t>(kept);
      open_share[kept] = open_share[k];
      open[kept++] = l;
    } else {
      open_pos[l] = -1;
    }
  }
  open.resize(kept);
  open_share.resize(kept);
}

void WaterFill::FreezeWithScan(GroupTable& t, std::vector<double>& residual,
                               std::span<const int32_t> groups, bool add) {
  // open = touched links that still carry unfrozen groups, with their current fair share.
  links_.OpenTouched(residual);
  while (!links_.open.empty()) {
    const size_t best = ArgMin(links_.share);
    const double share = links_.share[best];
    level_[links_.open[best]] = share;
    FreezeLink(t, residual, links_.open[best], share, groups, add);
    RefreshOpenLinks(residual);
  }
}

}  // namespace slotflow::rates
