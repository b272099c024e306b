// How LocalFill fills.
//
// Max-min levels are settled in increasing order, and a line's level depends on the others
// only through the groups it shares with them. So after a few cells or input capacities
// change, only a region of lines around them needs a new level: the fill is redone on the
// region, with each line outside it acting as a cap fixed at its old level. Lines outside
// whose groups would get a different rate join the region and it is filled again; when none
// do, every group still has a saturated bottleneck on which it has the highest rate, so the
// result is the max-min allocation (the fresh fill's, up to rounding).
#include "rates/local_fill.h"

#include <algorithm>
#include <cmath>

#include "api/units.h"
#include "rates/tuning.h"

namespace slotflow::rates {

bool LocalFill::TryFill(ClassState& cs, const DenseShape& shape, std::vector<double>& residual,
                        std::vector<double>& level, Reciprocals& reciprocals) {
  // After a local fill that reached too far, the next ones are likely to as well: skip 1, 3,
  // 7, ... attempts, up to kLocalBackoffMax.
  if (cs.local_skip > 0) {
    --cs.local_skip;
    return false;
  }
  if (Fill(cs, shape, residual, level, reciprocals)) {
    cs.local_backoff = 0;
    return true;
  }
  cs.local_backoff = std::min(2 * cs.local_backoff + 1, kLocalBackoffMax);
  cs.local_skip = cs.local_backoff;
  return false;
}

bool LocalFill::Fill(ClassState& cs, const DenseShape& shape, std::vector<double>& residual,
                     std::vector<double>& level, Reciprocals& reciprocals) {
  const size_t lines = cs.rows + cs.cols;
  SeedRegion(cs, shape, residual);
  bool local = true;
  for (;;) {
    // About as costly as the whole fill: leave it to that.
    if (kLocalRegionMaxFraction * region_.size() > lines) {
      local = false;
      break;
    }
    FillRegion(cs, shape, residual, reciprocals);
    const size_t before = region_.size();
    JoinReachedLines(cs);
    if (region_.size() == before) break;
  }
  if (local) Keep(cs, shape, residual, level);
  for (int32_t i : region_) in_region_[i] = 0;
  ++(local ? local_fills_ : whole_fills_);
  return local;
}

void LocalFill::SeedRegion(ClassState& cs, const DenseShape& shape,
                           const std::vector<double>& residual) {
  const size_t lines = cs.rows + cs.cols;
  in_region_.resize(lines);
  region_.clear();
  for (int32_t i : cs.seeds) {
    JoinRegion(i);
    cs.is_seed[i] = 0;
  }
  cs.seeds.clear();
  for (size_t i = 0; i < lines; ++i) {
    if (cs.line_weight[i] > 0 && residual[shape.LineLink(cs, i)] != cs.line_input[i]) {
      JoinRegion(static_cast<int32_t>(i));
    }
  }
  region_res_.resize(lines);
  extra_use_.resize(lines);
  extra_use_flag_.resize(lines);
  region_share_.resize(lines);
  region_level_.resize(lines);
  region_weight_.resize(lines);
}

void LocalFill::JoinReachedLines(const ClassState& cs) {
  const size_t rows = cs.rows, cols = cs.cols;
  // A saturated line outside whose groups with the region change rate joins it; so does an
  // unsaturated one (level kForever) that the new rates would overload.
  const size_t before = region_.size();
  unsaturated_.clear();
  for (size_t k = 0; k < before; ++k) {
    const int32_t i = region_[k];
    const double now = region_level_[i], was = cs.line_level[i];
    if (now == was) continue;
    const bool row = static_cast<size_t>(i) < rows;
    const int32_t* cell = row ? &cs.matrix[i * cols] : &cs.matrix_t[(i - rows) * rows];
    const size_t n = row ? cols : rows;
    const size_t other = row ? rows : 0;
    // A capped line m's groups with i change rate iff min(now, cap) != min(was, cap), that
    // is (now != was) iff cap > min(now, was): most lines fail that first, cheapest test.
    const double lo = std::min(now, was);
    const bool unbounded = !std::isfinite(now - was);
    const double* level = &cs.line_level[other];
    for (size_t j = 0; j < n; ++j) {
      if (cell[j] == 0 || level[j] <= lo) continue;
      const auto m = static_cast<int32_t>(other + j);
      if (in_region_[m]) continue;
      const double cap = level[j];
      if (cap < kForever || unbounded) {
        JoinRegion(m);
        continue;
      }
      if (!extra_use_flag_[m]) {
        extra_use_flag_[m] = 1;
        extra_use_[m] = 0;
        unsaturated_.push_back(m);
      }
      extra_use_[m] += static_cast<double>(cell[j]) * (now - was);
    }
  }
  for (int32_t m : unsaturated_) {
    extra_use_flag_[m] = 0;
    if (!in_region_[m] && cs.line_output[m] - extra_use_[m] < 0) JoinRegion(m);
  }
}

void LocalFill::Keep(ClassState& cs, const DenseShape& shape, std::vector<double>& residual,
                     std::vector<double>& level) {
  // Levels for RateDenseGroups, residuals for the next class, and the new level order.
  for (int32_t m : unsaturated_) {
    if (!in_region_[m]) cs.line_output[m] = std::max(0.0, cs.line_output[m] - extra_use_[m]);
  }
  for (size_t i = 0; i < cs.rows + cs.cols; ++i) {
    if (cs.line_weight[i] == 0) continue;
    const LinkId l = shape.LineLink(cs, i);
    if (in_region_[i]) {
      level[l] = region_level_[i];
      cs.line_input[i] = residual[l];
      cs.line_output[i] = std::max(0.0, region_res_[i]);
    } else {
      level[l] = cs.line_level[i];
    }
    residual[l] = cs.line_output[i];
  }
  MergeLevelOrder(cs);
}

void LocalFill::MergeLevelOrder(ClassState& cs) {
  order_scratch_.clear();
  for (int32_t i : region_) {
    if (cs.line_weight[i] > 0 && region_level_[i] < kForever) order_scratch_.push_back(i);
  }
  std::sort(order_scratch_.begin(), order_scratch_.end(), [&](int32_t a, int32_t b) {
    return region_level_[a] != region_level_[b] ? region_level_[a] < region_level_[b] : a < b;
  });
  cs.order.erase(std::remove_if(cs.order.begin(), cs.order.end(),
                                [&](int32_t i) { return in_region_[i] != 0; }),
                 cs.order.end());
  // Merged through a kept buffer (std::inplace_merge would allocate one at every call).
  order_merged_.resize(cs.order.size() + order_scratch_.size());
  std::merge(cs.order.begin(), cs.order.end(), order_scratch_.begin(), order_scratch_.end(),
             order_merged_.begin(), [&](int32_t a, int32_t b) {
               auto lv = [&](int32_t i) {
                 return in_region_[i] ? region_level_[i] : cs.line_level[i];
               };
               return lv(a) < lv(b);
             });
  cs.order.swap(order_merged_);
}

void LocalFill::OpenRegion(const ClassState& cs, const DenseShape& shape,
                           const std::vector<double>& residual, Reciprocals& reciprocals) {
  // The open lines, rows and columns apart: a line's groups meet only lines of the other kind.
  std::vector<int32_t>* open = region_open_;
  open[0].clear();
  open[1].clear();
  int64_t heaviest = 0;
  for (int32_t i : region_) {
    region_res_[i] = residual[shape.LineLink(cs, i)];
    region_weight_[i] = cs.line_weight[i];
    region_level_[i] = kForever;
    heaviest = std::max(heaviest, region_weight_[i]);
    if (region_weight_[i] > 0) {
      region_share_[i] = std::max(0.0, region_res_[i]) / static_cast<double>(region_weight_[i]);
      open[static_cast<size_t>(i) < cs.rows ? 0 : 1].push_back(i);
    }
  }
  reciprocals.Grow(heaviest);
}

void LocalFill::FillRegion(const ClassState& cs, const DenseShape& shape,
                           const std::vector<double>& residual, Reciprocals& reciprocals) {
  const size_t rows = cs.rows, cols = cs.cols;
  OpenRegion(cs, shape, residual, reciprocals);
  std::vector<int32_t>* open = region_open_;
  auto close = [&](std::vector<int32_t>& list, size_t pos, double level) {
    region_level_[list[pos]] = level;
    list[pos] = list.back();
    list.pop_back();
  };
  // Charges the open region lines across from line i (a row's columns, a column's rows) for
  // their groups with i, frozen at `level`.
  auto charge_across = [&](int32_t i, double level) {
    const bool row = static_cast<size_t>(i) < rows;
    std::vector<int32_t>& across = open[row ? 1 : 0];
    // The counts of i's cells: i's row of the matrix (column j at j - rows; unsigned, so the
    // offset may wrap below zero) or its column of the transpose.
    const int32_t* cells = row ? cs.matrix.data() : cs.matrix_t.data();
    const size_t offset = row ? i * cols - rows : (i - rows) * rows;
    for (size_t pos = 0; pos < across.size();) {
      const int32_t j = across[pos];
      const int32_t n = cells[offset + j];
      if (n == 0) {
        ++pos;
        continue;
      }
      region_res_[j] -= level * static_cast<double>(n);
      region_weight_[j] -= n;
      if (region_weight_[j] == 0) {
        close(across, pos, kForever);  // the next open line moved into pos
        continue;
      }
      region_share_[j] = std::max(0.0, region_res_[j]) * reciprocals[region_weight_[j]];
      ++pos;
    }
  };
  size_t next = 0;  // into cs.order: the lines outside, by old level
  while (!open[0].empty() || !open[1].empty()) {
    // The open line with the smallest share (rows first on ties).
    size_t side = open[0].empty() ? 1 : 0, best = 0;
    for (size_t k = 0; k < 2; ++k) {
      for (size_t pos = 0; pos < open[k].size(); ++pos) {
        if (region_share_[open[k][pos]] < region_share_[open[side][best]]) {
          side = k;
          best = pos;
        }
      }
    }
    const int32_t b = open[side][best];
    const double share = region_share_[b];
    // The lines outside with a lower level cap their groups first. Charging them only raises
    // the shares of the open lines, so the minimum is found again only after all of them.
    bool capped = false;
    for (; next < cs.order.size(); ++next) {
      const int32_t m = cs.order[next];
      if (in_region_[m]) continue;
      if (cs.line_level[m] >= share) break;
      charge_across(m, cs.line_level[m]);
      capped = true;
    }
    if (capped) continue;
    region_res_[b] -= share * static_cast<double>(region_weight_[b]);
    region_weight_[b] = 0;
    close(open[side], best, share);
    charge_across(b, share);
  }
}

}  // namespace slotflow::rates
