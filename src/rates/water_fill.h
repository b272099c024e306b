// WaterFill: the max-min fill of any set of groups on the capacity left (progressive filling),
// for sparse classes and for the explicit-rate backfill when it is not dense. Each round
// freezes the groups on the link with the smallest fair share, found by a scan of the open
// links or, with few groups over many links, by a min-tree over them.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include "api/ids.h"
#include "rates/fill_links.h"
#include "rates/groups.h"

namespace slotflow::rates {

class WaterFill {
 public:
  explicit WaterFill(size_t links);

  // Sets the rates of `groups` (with add: adds to their current rates) and takes what they use
  // from residual; no link is left below 0.
  void Fill(GroupTable& t, std::vector<double>& residual, std::span<const int32_t> groups,
            bool add);

  // The level of link l in the last fill: the share at which it froze its groups as their
  // bottleneck, or kForever if it was not one (only for the links that fill's groups cross).
  double level(LinkId l) const { return level_[l]; }

  // Fills done, and how many of them found their bottlenecks with the min-tree.
  int64_t fills() const { return fills_; }
  int64_t min_tree_fills() const { return min_tree_fills_; }

 private:
  // The two ways of finding each round's bottleneck (same choices, different costs).
  void FreezeWithScan(GroupTable& t, std::vector<double>& residual, std::span<const int32_t> groups,
                      bool add);
  void FreezeWithMinTree(GroupTable& t, std::vector<double>& residual,
                         std::span<const int32_t> groups, bool add);
  // Freezes every group crossing link l at `share` and charges their other links; the charged
  // links are left in dirty_links_.
  void FreezeLink(GroupTable& t, std::vector<double>& residual, LinkId l, double share,
                  std::span<const int32_t> groups, bool add);
  // Recomputes the share of each link the last round charged (once per link), then drops the
  // links left without unfrozen groups.
  void RefreshOpenLinks(const std::vector<double>& residual);

  OpenLinks links_;
  // The groups (indices into `groups`) crossing each touched link l: adj_[adj_begin_[l] ..
  // adj_fill_[l]).
  std::vector<int32_t> adj_begin_, adj_fill_, adj_;
  std::vector<uint8_t> frozen_;  // per index into `groups`
  std::vector<uint8_t> link_dirty_;
  std::vector<LinkId> dirty_links_;
  std::vector<double> level_;     // per link
  std::vector<double> min_tree_;  // FreezeWithMinTree: shares at the leaves, minima above
  int64_t fills_ = 0, min_tree_fills_ = 0;
};

}  // namespace slotflow::rates
