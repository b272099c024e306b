// LocalFill: a dense class re-filled only on the lines (rows and columns) that its changes since
// the last fill reach, the other lines keeping their levels. Gives up, leaving it to the whole
// dense fill, when the region grows past a third of the lines.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "rates/class_state.h"

namespace slotflow::rates {

class LocalFill {
 public:
  // Fills cs locally from what its last fill left in it, unless backing off after local fills
  // that reached too far; false (nothing done) if not filled. Filled, it sets level (per link)
  // for every line of cs and residual to what cs leaves of each.
  bool TryFill(ClassState& cs, const DenseShape& shape, std::vector<double>& residual,
               std::vector<double>& level, Reciprocals& reciprocals);

  // Local fills done, and those given up for a whole fill as the region grew too large.
  int64_t local_fills() const { return local_fills_; }
  int64_t whole_fills() const { return whole_fills_; }

 private:
  bool Fill(ClassState& cs, const DenseShape& shape, std::vector<double>& residual,
            std::vector<double>& level, Reciprocals& reciprocals);
  // The region starts as the lines whose cells or input capacities changed.
  void SeedRegion(ClassState& cs, const DenseShape& shape, const std::vector<double>& residual);
  void JoinRegion(int32_t line) {
    if (in_region_[line]) return;
    in_region_[line] = 1;
    region_.push_back(line);
  }
  // The fill of the region lines, the lines outside capping their groups at their old levels.
  void OpenRegion(const ClassState& cs, const DenseShape& shape,
                  const std::vector<double>& residual, Reciprocals& reciprocals);
  void FillRegion(const ClassState& cs, const DenseShape& shape,
                  const std::vector<double>& residual, Reciprocals& reciprocals);
  // Adds to the region the lines outside it that its new levels reach.
  void JoinReachedLines(const ClassState& cs);
  // Takes the region's new levels and residuals into cs, level and residual.
  void Keep(ClassState& cs, const DenseShape& shape, std::vector<double>& residual,
            std::vector<double>& level);
  // Merges the region's lines, by new level, into cs.order.
  void MergeLevelOrder(ClassState& cs);

  // Per line (row r, then column rows + c).
  std::vector<int32_t> region_;  // the region's lines
  std::vector<uint8_t> in_region_;
  std::vector<int32_t> region_open_[2];  // its rows and columns still open in FillRegion
  std::vector<double> region_res_, region_share_, region_level_;
  std::vector<int64_t> region_weight_;
  std::vector<int32_t> order_scratch_, order_merged_;
  std::vector<int32_t> unsaturated_;  // lines outside at level kForever whose use changes
  std::vector<double> extra_use_;     // by how much
  std::vector<uint8_t> extra_use_flag_;
  int64_t local_fills_ = 0, whole_fills_ = 0;
};

}  // namespace slotflow::rates
