// LocalWaterFill: a sparse class (groups on paths of any length, as on a two-tier cluster)
// re-filled only on the links that its changes since the last fill reach, the other links
// keeping their levels; the sparse counterpart of LocalFill. Gives up, leaving it to the whole
// water fill, when the region grows past a third of the class's links.
#pragma once

#include <cstddef>
#include <cstdint>
#include <utility>
#include <vector>

#include "api/ids.h"
#include "api/tolerance.h"
#include "rates/class_state.h"
#include "rates/groups.h"
#include "rates/water_fill.h"

namespace slotflow::rates {

class LocalWaterFill {
 public:
  explicit LocalWaterFill(size_t links);

  // Whether the fills of a sparse class with `groups` live groups keep what a local fill
  // needs: classes of many groups (kLocalWaterFillMinGroups; over enough links, checked after
  // the whole fill) on a large network (kLocalWaterFillMinNetworkLinks), while the per-link
  // state of all classes stays within kMaxSavedResiduals.
  bool Wanted(const GroupTable& t, size_t groups) const;
  // Fills cs locally from what its last fill left in it, unless that is not kept or it is
  // backing off after local fills that reached too far; false (nothing done) if not filled.
  // Filled, it sets the rates of the groups whose rate changed and leaves in residual what cs
  // leaves of each link.
  bool TryFill(GroupTable& t, std::vector<double>& residual, ClassState& cs);
  // Around a whole water fill of cs: before, its links and their residual capacity; after,
  // each one's level in that fill and what the class left of it.
  void BeforeWholeFill(GroupTable& t, const std::vector<double>& residual, ClassState& cs);
  void AfterWholeFill(const GroupTable& t, const std::vector<double>& residual,
                      const WaterFill& fill, ClassState& cs);

  // The least links a class must cross, and (kLocalWaterFillMinNetworkLinks) the network have.
  void SetMinLinks(size_t links) { min_links_ = min_network_links_ = links; }
  void SetMinGroups(size_t groups) { min_groups_ = groups; }

  // Local fills done, and those given up for a whole fill as the region grew too large.
  int64_t local_fills() const { return local_fills_; }
  int64_t whole_fills() const { return whole_fills_; }

 private:
  // A link the class left with no more than rounding of its input capacity.
  static bool Full(double output, double input) { return output <= kRelTolerance * input; }
  bool Fill(GroupTable& t, std::vector<double>& residual, ClassState& cs);
  // The region starts as the saturated links among the seeds and the links whose input
  // capacity changed (the unsaturated ones are watched), plus a link of each changed group that
  // would otherwise have none there.
  void SeedRegion(const GroupTable& t, int32_t class_id, SparseLocal& sl,
                  const std::vector<double>& residual);
  void JoinRegion(LinkId l) {
    if (in_region_[l]) return;
    in_region_[l] = 1;
    region_.push_back(l);
  }
  // Progressive filling of the region's links, each group crossing one of them capped at the
  // lowest old level of the links it crosses outside the region.
  void FillRegion(const GroupTable& t, int32_t class_id, const SparseLocal& sl,
                  const std::vector<double>& residual);
  // Freezes the region group at gr_[i] at `rate`, charging its links in the region.
  void Freeze(const GroupTable& t, size_t i, double rate);
  // Adds `use` to what the changes add to unsaturated link l (listing it in unsaturated_).
  void AddExtraUse(LinkId l, double use);
  // Adds to the region the links outside it that the new rates reach: a saturated one that
  // carries a group whose rate changed, an unsaturated one that the changes overload.
  void JoinReachedLinks(const GroupTable& t, const SparseLocal& sl);
  // Takes the new rates, levels and residuals into the table, cs and residual.
  void Keep(GroupTable& t, std::vector<double>& residual, SparseLocal& sl);

  size_t min_links_, min_network_links_, min_groups_;
  // Per link.
  std::vector<LinkId> region_;
  std::vector<uint8_t> in_region_, closed_;
  std::vector<double> res_, share_, new_level_;
  std::vector<double> top_rate_;  // the highest rate of the groups frozen on it
  std::vector<int64_t> weight_;
  std::vector<std::pair<LinkId, double>> watched_;  // unsaturated seeds, with the use added
  std::vector<LinkId> unsaturated_;  // links outside at level kForever whose use changes
  std::vector<double> extra_use_;    // by how much
  std::vector<uint8_t> extra_use_flag_;
  // The region's groups (gr_), each one's index there (per group id, -1 = none), new rate,
  // whether frozen yet, and those with a cap below kForever by cap.
  std::vector<int32_t> gr_, gr_index_;
  std::vector<double> new_rate_;
  std::vector<uint8_t> frozen_;
  std::vector<std::pair<double, int32_t>> caps_;
  std::vector<std::pair<double, LinkId>> heap_;  // open links by share, min first; stale kept
  int64_t local_fills_ = 0, whole_fills_ = 0;
};

}  // namespace slotflow::rates
