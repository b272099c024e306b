// FluidSolver's whole water fill: max-min progressive filling of any groups (sparse classes,
// and the explicit-rate backfill when it is not dense), with the bottleneck of each round
// found by a scan of the open links or by a min-tree over them.
#include <algorithm>

#include "rates/arg_min.h"
#include "rates/fluid_solver.h"
#include "rates/tuning.h"

namespace slotflow {

// Progressive filling: repeatedly take the link with the smallest fair share
// (residual / members), freeze every unfrozen group crossing it at that share, and charge the
// other links of those groups. Links are few (two per server) while groups are many, so each
// round finds the minimum by a linear scan over the links still carrying unfrozen groups.
void FluidSolver::WaterFill(std::span<const int32_t> groups, bool add) {
  touched_.clear();
  for (int32_t g : groups) {
    for (LinkId l : GroupLinks(g)) {
      if (adj_fill_[l] == 0) touched_.push_back(l);
      weight_[l] += count_[g];
      ++adj_fill_[l];
    }
  }
  int32_t total = 0;
  for (LinkId l : touched_) {
    adj_begin_[l] = total;
    total += adj_fill_[l];
    adj_fill_[l] = adj_begin_[l];
  }
  if (adj_.size() < static_cast<size_t>(total)) adj_.resize(total);
  for (size_t i = 0; i < groups.size(); ++i) {
    for (LinkId l : GroupLinks(groups[i])) adj_[adj_fill_[l]++] = static_cast<int32_t>(i);
  }
  frozen_.assign(groups.size(), 0);

  // Few groups over many links (a small priority class): a min-tree over link shares costs
  // O(log links) per charged link instead of a scan of all open links per round.
  if (touched_.size() * touched_.size() > fluid::kMinTreeLinksSquaredPerGroup * groups.size()) {
    FreezeWithMinTree(groups, add);
  } else {
    FreezeWithScan(groups, add);
  }
  for (LinkId l : touched_) {
    weight_[l] = 0;
    adj_fill_[l] = 0;
    if (residual_[l] < 0) residual_[l] = 0;
  }
}

// Freezes every group crossing link l at `share` and charges their other links; the charged
// links are left in dirty_links_.
void FluidSolver::FreezeLink(LinkId l, double share, std::span<const int32_t> groups, bool add) {
  for (int32_t k = adj_begin_[l]; k < adj_fill_[l]; ++k) {
    const int32_t i = adj_[k];
    if (frozen_[i]) continue;
    frozen_[i] = 1;
    const int32_t g = groups[i];
    SetRate(g, add ? rate_[g] + share : share);
    const double used = share * count_[g];
    for (LinkId l2 : GroupLinks(g)) {
      residual_[l2] -= used;
      weight_[l2] -= count_[g];
      if (!link_dirty_[l2]) {
        link_dirty_[l2] = 1;
        dirty_links_.push_back(l2);
      }
    }
  }
}

void FluidSolver::FreezeWithMinTree(std::span<const int32_t> groups, bool add) {
  const size_t n = touched_.size();
  size_t width = 1;
  while (width < n) width *= 2;
  min_tree_.assign(2 * width, kForever);
  auto share_of = [&](LinkId l) {
    return weight_[l] > 0 ? std::max(0.0, residual_[l]) / static_cast<double>(weight_[l])
                          : kForever;
  };
  for (size_t k = 0; k < n; ++k) {
    open_pos_[touched_[k]] = static_cast<int32_t>(k);
    min_tree_[width + k] = share_of(touched_[k]);
  }
  for (size_t v = width - 1; v >= 1; --v)
    min_tree_[v] = std::min(min_tree_[2 * v], min_tree_[2 * v + 1]);
  while (min_tree_[1] < kForever) {
    // Leftmost smallest share, as the scan would pick.
    size_t v = 1;
    while (v < width) v = min_tree_[2 * v] <= min_tree_[2 * v + 1] ? 2 * v : 2 * v + 1;
    const LinkId l = touched_[v - width];
    FreezeLink(l, min_tree_[1], groups, add);
    for (LinkId l2 : dirty_links_) {
      link_dirty_[l2] = 0;
      size_t u = width + open_pos_[l2];
      min_tree_[u] = share_of(l2);
      for (u /= 2; u >= 1; u /= 2) min_tree_[u] = std::min(min_tree_[2 * u], min_tree_[2 * u + 1]);
    }
    dirty_links_.clear();
  }
  for (LinkId l : touched_) open_pos_[l] = -1;
}

void FluidSolver::OpenTouchedLinks() {
  open_.assign(touched_.begin(), touched_.end());
  open_share_.resize(open_.size());
  for (size_t k = 0; k < open_.size(); ++k) {
    const LinkId l = open_[k];
    open_pos_[l] = static_cast<int32_t>(k);
    open_share_[k] = std::max(0.0, residual_[l]) / static_cast<double>(weight_[l]);
  }
}

// Recomputes the share of each link the last round charged (once per link), then drops the
// links left without unfrozen groups, calling on_closed for each.
template <class OnClosed>
void FluidSolver::RefreshOpenLinks(OnClosed on_closed) {
  for (LinkId l : dirty_links_) {
    link_dirty_[l] = 0;
    if (weight_[l] > 0) {
      open_share_[open_pos_[l]] = std::max(0.0, residual_[l]) / static_cast<double>(weight_[l]);
    }
  }
  dirty_links_.clear();
  size_t kept = 0;
  for (size_t k = 0; k < open_.size(); ++k) {
    const LinkId l = open_[k];
    if (weight_[l] > 0) {
      open_pos_[l] = static_cast<int32_t>(kept);
      open_share_[kept] = open_share_[k];
      open_[kept++] = l;
    } else {
      open_pos_[l] = -1;
      on_closed(l);
    }
  }
  open_.resize(kept);
  open_share_.resize(kept);
}

void FluidSolver::FreezeWithScan(std::span<const int32_t> groups, bool add) {
  // open_ = touched links that still carry unfrozen groups, with their current fair share.
  OpenTouchedLinks();
  while (!open_.empty()) {
    const size_t best = fluid::ArgMin(open_share_);
    const double share = open_share_[best];
    FreezeLink(open_[best], share, groups, add);
    RefreshOpenLinks([](LinkId) {});
  }
}

}  // namespace slotflow
