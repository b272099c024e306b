// How DenseFill fills. When every group crosses two links (a first and a second), a class is
// held as a matrix of member counts, first links (rows) x second links (columns), kept current
// as members come and go (GroupTable). Freezing a line is then a row or column scan, and a
// group's rate is the lower freeze level of its two lines, so after a fill only the groups on
// lines whose level moved need a new rate.
#include "rates/dense_fill.h"

#include <algorithm>

#include "api/units.h"
#include "rates/arg_min.h"
#include "rates/tuning.h"

namespace slotflow::rates {

DenseFill::DenseFill(size_t links)
    : links_(links),
      level_(links, 0),
      link_closed_(links, 0),
      local_fill_min_links_(kLocalFillMinLinks) {}

void DenseFill::Build(const GroupTable& t, ClassState& cs, std::span<const int32_t> groups) {
  cs.rows = t.shape.row_link.size();
  cs.cols = t.shape.col_link.size();
  cs.matrix.assign(cs.rows * cs.cols, 0);
  cs.matrix_t.assign(cs.rows * cs.cols, 0);
  cs.cell_group.assign(cs.rows * cs.cols, -1);
  cs.cell_group_t.assign(cs.rows * cs.cols, -1);
  cs.row_words = (cs.cols + 63) / 64;
  cs.col_words = (cs.rows + 63) / 64;
  cs.row_bits.assign(cs.rows * cs.row_words, 0);
  cs.col_bits.assign(cs.cols * cs.col_words, 0);
  cs.line_weight.assign(cs.rows + cs.cols, 0);
  cs.has_local = false;
  for (int32_t g : groups) {
    const size_t cell = t.CellOf(cs, g);
    AddToCell(cs, cell, t.count[g]);
    SetCellGroup(cs, cell, g);
  }
  cs.dense = true;
  cs.sparse.valid = false;
  cs.has_levels = false;
  cs.has_local = false;
  cs.seeds.clear();
  cs.is_seed.assign(cs.rows + cs.cols, 0);
  cs.fresh.clear();
}

void DenseFill::Fill(GroupTable& t, std::vector<double>& residual, ClassState& cs,
                     std::span<const int32_t> groups, bool add, bool continues) {
  // What a later local fill needs is kept only where local fills are used. A class's fill
  // always goes on from its last one; the explicit-rate backfill only when ExplicitRates found
  // it can (continues), else it starts from the explicit rates just set.
  const bool local_ready = cs.rows + cs.cols >= local_fill_min_links_;
  if (local_ready && continues && cs.has_local && cs.has_levels &&
      local_.TryFill(cs, t.shape, residual, level_, reciprocals_)) {
    RateDenseGroups(t, cs, groups, add, /*incremental=*/true);
    return;
  }
  ++dense_fills_;
  if (local_ready) {
    SaveLineResiduals(t.shape, residual, cs, cs.line_input);
    cs.order.clear();
  }
  OpenDenseLines(t, cs, residual);
  FreezeDenseLines(t, residual, cs, local_ready);
  RateDenseGroups(t, cs, groups, add, /*incremental=*/continues && cs.has_levels);
  for (LinkId l : links_.touched) {
    links_.weight[l] = 0;
    link_closed_[l] = 0;
    if (residual[l] < 0) residual[l] = 0;
  }
  if (local_ready) {
    SaveLineResiduals(t.shape, residual, cs, cs.line_output);
    for (int32_t line : cs.seeds) cs.is_seed[line] = 0;
    cs.seeds.clear();
    cs.has_local = true;
  }
}

void DenseFill::OpenDenseLines(const GroupTable& t, const ClassState& cs,
                               const std::vector<double>& residual) {
  const size_t rows = cs.rows, cols = cs.cols;
  const DenseShape& shape = t.shape;
  std::vector<LinkId>& touched = links_.touched;
  std::vector<int64_t>& weight = links_.weight;
  touched.clear();
  for (size_t r = 0; r < rows; ++r) {
    if (cs.line_weight[r] > 0) {
      weight[shape.row_link[r]] = cs.line_weight[r];
      touched.push_back(shape.row_link[r]);
    }
  }
  for (size_t k = 0; k < cols; ++k) {
    if (cs.line_weight[rows + k] > 0) {
      weight[shape.col_link[k]] = cs.line_weight[rows + k];
      touched.push_back(shape.col_link[k]);
    }
  }
  links_.OpenTouched(residual);
  int64_t heaviest = 0;
  for (LinkId l : touched) heaviest = std::max(heaviest, weight[l]);
  reciprocals_.Grow(heaviest);
}

void DenseFill::FreezeDenseLines(const GroupTable& t, std::vector<double>& residual, ClassState& cs,
                                 bool local_ready) {
  const size_t rows = cs.rows, cols = cs.cols;
  const DenseShape& shape = t.shape;
  std::vector<int64_t>& weight = links_.weight;
  std::vector<LinkId>& open = links_.open;
  std::vector<double>& open_share = links_.share;
  std::vector<int32_t>& open_pos = links_.pos;
  // 1/w from a table: a charge is a multiply instead of a division (the hot spot of the fill).
  auto reciprocal = [&](int64_t w) { return reciprocals_[w]; };
  // Closes open link lk at `level` (kForever: emptied by others without being a bottleneck).
  auto close = [&](LinkId lk, double level) {
    link_closed_[lk] = 1;
    level_[lk] = level;
    if (local_ready && level < kForever) cs.order.push_back(shape.LineOf(cs, lk));
    const int32_t pos = open_pos[lk];
    open[pos] = open.back();
    open_share[pos] = open_share.back();
    open_pos[open[pos]] = pos;
    open.pop_back();
    open_share.pop_back();
    open_pos[lk] = -1;
  };
  // Charges the open partner link l2 for `count` members frozen at `share`.
  auto charge = [&](LinkId l2, int64_t count, double share) {
    if (count == 0 || link_closed_[l2]) return;
    residual[l2] -= share * static_cast<double>(count);
    weight[l2] -= count;
    if (weight[l2] == 0) {
      close(l2, kForever);
    } else {
      open_share[open_pos[l2]] = std::max(0.0, residual[l2]) * reciprocal(weight[l2]);
    }
  };
  while (!open.empty()) {
    const size_t best = ArgMin(open_share);
    const double share = open_share[best];
    const LinkId l = open[best];
    residual[l] -= share * static_cast<double>(weight[l]);
    weight[l] = 0;
    close(l, share);
    if (shape.row_of[l] >= 0) {
      const size_t r = shape.row_of[l];
      const int32_t* row = &cs.matrix[r * cols];
      ForEachMember(cs, r, [&](size_t c) { charge(shape.col_link[c], row[c], share); });
    } else {
      const size_t c = shape.col_of[l];
      const int32_t* col = &cs.matrix_t[c * rows];
      ForEachMember(cs, rows + c, [&](size_t r) { charge(shape.row_link[r], col[r], share); });
    }
  }
}

void DenseFill::SaveLineResiduals(const DenseShape& shape, const std::vector<double>& residual,
                                  const ClassState& cs, std::vector<double>& out) {
  out.resize(cs.rows + cs.cols);
  for (size_t i = 0; i < out.size(); ++i) out[i] = residual[shape.LineLink(cs, i)];
}

void DenseFill::RateDenseGroups(GroupTable& t, ClassState& cs, std::span<const int32_t> groups,
                                bool add, bool incremental) {
  const size_t rows = cs.rows, cols = cs.cols;
  const DenseShape& shape = t.shape;
  // Every link of a group froze by the end, at its level or (emptied by others) at kForever; a
  // group froze with whichever froze first, the one with the lower level.
  auto rate_of = [&](int32_t g) {
    const LinkId* links = &t.group_links[g * kMaxPathLinks + 1];
    return std::min(level_[links[0]], level_[links[1]]);
  };
  // Each row's and column's new level, so a cell's rate needs no look-up of its group's links.
  line_new_level_.resize(rows + cols);
  for (size_t r = 0; r < rows; ++r) line_new_level_[r] = level_[shape.row_link[r]];
  for (size_t c = 0; c < cols; ++c) line_new_level_[rows + c] = level_[shape.col_link[c]];
  const double* row_level = line_new_level_.data();
  const double* col_level = row_level + rows;
  if (!incremental) {
    for (int32_t g : groups) t.SetRate(g, add ? t.rate[g] + rate_of(g) : rate_of(g));
  } else if (add) {
    // The explicit-rate backfill: a cell may hold many groups (one per flow), so the groups on
    // a line whose level moved come from explicit_on_link; each is its explicit rate plus
    // the lower level of its two links.
    for (size_t i = 0; i < rows + cols; ++i) {
      if (cs.line_weight[i] == 0 || line_new_level_[i] == cs.line_level[i]) continue;
      for (int32_t g : t.explicit_on_link[shape.LineLink(cs, i)]) {
        t.SetRate(g, t.explicit_rate[g] + rate_of(g));
      }
    }
  } else {
    for (size_t r = 0; r < rows; ++r) {
      if (cs.line_weight[r] == 0 || row_level[r] == cs.line_level[r]) continue;
      const int32_t* cell = &cs.cell_group[r * cols];
      ForEachMember(cs, r, [&](size_t c) {
        if (cell[c] >= 0) t.SetRate(cell[c], std::min(row_level[r], col_level[c]));
      });
    }
    for (size_t c = 0; c < cols; ++c) {
      if (cs.line_weight[rows + c] == 0 || col_level[c] == cs.line_level[rows + c]) continue;
      const int32_t* cell = &cs.cell_group_t[c * rows];
      ForEachMember(cs, rows + c, [&](size_t r) {
        if (cell[r] >= 0) t.SetRate(cell[r], std::min(row_level[r], col_level[c]));
      });
    }
    for (int32_t g : cs.fresh) {
      if (t.count[g] > 0 && t.group_class[g] == &cs - t.class_states.data()) {
        t.SetRate(g, rate_of(g));
      }
    }
  }
  // Remember the levels for the next fill of this class.
  cs.line_level.resize(rows + cols);
  for (size_t i = 0; i < rows + cols; ++i) {
    if (cs.line_weight[i] > 0) cs.line_level[i] = line_new_level_[i];
  }
  cs.has_levels = true;
  cs.fresh.clear();
}

}  // namespace slotflow::rates
