// FluidSolver's dense fill: when every group crosses two links (a first and a second), a class
// is held as a matrix of member counts, first links (rows) x second links (columns), kept
// current as members come and go. Freezing a line is then a row or column scan, and a group's
// rate is the lower freeze level of its two lines, so after a fill only the groups on lines
// whose level moved need a new rate.
#include <algorithm>

#include "rates/arg_min.h"
#include "rates/fluid_solver.h"
#include "rates/tuning.h"

namespace slotflow {

bool FluidSolver::TwoLinkShape() const {
  return !two_link_shared_ && two_link_groups_ == live_group_count_;
}

bool FluidSolver::DenseFits(size_t groups, size_t max_cells_per_group) const {
  return groups >= fluid::kDenseMinGroups && TwoLinkShape() &&
         row_link_.size() * col_link_.size() <= max_cells_per_group * groups;
}

void FluidSolver::BuildDense(ClassState& cs, std::span<const int32_t> groups) const {
  cs.rows = row_link_.size();
  cs.cols = col_link_.size();
  cs.matrix.assign(cs.rows * cs.cols, 0);
  cs.matrix_t.assign(cs.rows * cs.cols, 0);
  cs.cell_group.assign(cs.rows * cs.cols, -1);
  cs.cell_group_t.assign(cs.rows * cs.cols, -1);
  cs.line_weight.assign(cs.rows + cs.cols, 0);
  cs.has_local = false;
  for (int32_t g : groups) {
    const size_t cell = CellOf(cs, g);
    AddToCell(cs, cell, count_[g]);
    SetCellGroup(cs, cell, g);
  }
  cs.dense = true;
  cs.has_levels = false;
  cs.has_local = false;
  cs.seeds.clear();
  cs.is_seed.assign(cs.rows + cs.cols, 0);
  cs.fresh.clear();
}

void FluidSolver::AddToCell(ClassState& cs, size_t cell, int32_t delta) {
  const size_t row = cell / cs.cols, col = cs.rows + cell % cs.cols;
  cs.matrix[cell] += delta;
  cs.matrix_t[(col - cs.rows) * cs.rows + row] += delta;
  cs.line_weight[row] += delta;
  cs.line_weight[col] += delta;
  if (cs.has_local) {
    for (size_t line : {row, col}) {
      if (!cs.is_seed[line]) {
        cs.is_seed[line] = 1;
        cs.seeds.push_back(static_cast<int32_t>(line));
      }
    }
  }
}

void FluidSolver::DropAllDense() {
  for (const auto& [key, id] : class_ids_) class_states_[id].dense = false;
  explicit_state_.dense = false;
}

void FluidSolver::FillDense(ClassState& cs, std::span<const int32_t> groups, bool add) {
  // What a later local fill needs is kept only where local fills are used. A class's fill
  // always goes on from its last one; the explicit-rate backfill only when Solve says so (else
  // it starts from the explicit rates just set).
  const bool local_ready = cs.rows + cs.cols >= local_fill_min_links_;
  const bool continues = !add || backfill_continues_;
  if (local_ready && continues && cs.has_local && cs.has_levels && TryLocalFill(cs)) {
    RateDenseGroups(cs, groups, add, /*incremental=*/true);
    return;
  }
  if (local_ready) {
    SaveLineResiduals(cs, cs.line_input);
    cs.order.clear();
  }
  OpenDenseLines(cs);
  FreezeDenseLines(cs, local_ready);
  RateDenseGroups(cs, groups, add, /*incremental=*/continues && cs.has_levels);
  for (LinkId l : touched_) {
    weight_[l] = 0;
    link_closed_[l] = 0;
    if (residual_[l] < 0) residual_[l] = 0;
  }
  if (local_ready) {
    SaveLineResiduals(cs, cs.line_output);
    for (int32_t line : cs.seeds) cs.is_seed[line] = 0;
    cs.seeds.clear();
    cs.has_local = true;
  }
}

bool FluidSolver::TryLocalFill(ClassState& cs) {
  // After a local fill that reached too far, the next ones are likely to as well: skip 1, 3,
  // 7, ... attempts, up to kLocalBackoffMax.
  if (cs.local_skip > 0) {
    --cs.local_skip;
    return false;
  }
  if (FillDenseLocal(cs)) {
    cs.local_backoff = 0;
    return true;
  }
  cs.local_backoff = std::min(2 * cs.local_backoff + 1, fluid::kLocalBackoffMax);
  cs.local_skip = cs.local_backoff;
  return false;
}

void FluidSolver::OpenDenseLines(const ClassState& cs) {
  const size_t rows = cs.rows, cols = cs.cols;
  touched_.clear();
  for (size_t r = 0; r < rows; ++r) {
    if (cs.line_weight[r] > 0) {
      weight_[row_link_[r]] = cs.line_weight[r];
      touched_.push_back(row_link_[r]);
    }
  }
  for (size_t k = 0; k < cols; ++k) {
    if (cs.line_weight[rows + k] > 0) {
      weight_[col_link_[k]] = cs.line_weight[rows + k];
      touched_.push_back(col_link_[k]);
    }
  }
  OpenTouchedLinks();
  int64_t heaviest = 0;
  for (LinkId l : touched_) heaviest = std::max(heaviest, weight_[l]);
  GrowReciprocals(heaviest);
}

void FluidSolver::FreezeDenseLines(ClassState& cs, bool local_ready) {
  const size_t rows = cs.rows, cols = cs.cols;
  // 1/w from a table: a charge is a multiply instead of a division (the hot spot of the fill).
  auto reciprocal = [&](int64_t w) { return reciprocal_[w]; };
  // Closes open link lk at `level` (kForever: emptied by others without being a bottleneck).
  auto close = [&](LinkId lk, double level) {
    link_closed_[lk] = 1;
    level_[lk] = level;
    if (local_ready && level < kForever) cs.order.push_back(LineOf(cs, lk));
    const int32_t pos = open_pos_[lk];
    open_[pos] = open_.back();
    open_share_[pos] = open_share_.back();
    open_pos_[open_[pos]] = pos;
    open_.pop_back();
    open_share_.pop_back();
    open_pos_[lk] = -1;
  };
  // Charges the open partner link l2 for `count` members frozen at `share`.
  auto charge = [&](LinkId l2, int64_t count, double share) {
    if (count == 0 || link_closed_[l2]) return;
    residual_[l2] -= share * static_cast<double>(count);
    weight_[l2] -= count;
    if (weight_[l2] == 0) {
      close(l2, kForever);
    } else {
      open_share_[open_pos_[l2]] = std::max(0.0, residual_[l2]) * reciprocal(weight_[l2]);
    }
  };
  while (!open_.empty()) {
    const size_t best = fluid::ArgMin(open_share_);
    const double share = open_share_[best];
    const LinkId l = open_[best];
    residual_[l] -= share * static_cast<double>(weight_[l]);
    weight_[l] = 0;
    close(l, share);
    if (row_of_[l] >= 0) {
      const int32_t* row = &cs.matrix[row_of_[l] * cols];
      for (size_t c = 0; c < cols; ++c) charge(col_link_[c], row[c], share);
    } else {
      const int32_t* col = &cs.matrix_t[col_of_[l] * rows];
      for (size_t r = 0; r < rows; ++r) charge(row_link_[r], col[r], share);
    }
  }
}

void FluidSolver::SaveLineResiduals(const ClassState& cs, std::vector<double>& out) const {
  out.resize(cs.rows + cs.cols);
  for (size_t i = 0; i < out.size(); ++i) out[i] = residual_[LineLink(cs, i)];
}

void FluidSolver::RateDenseGroups(ClassState& cs, std::span<const int32_t> groups, bool add,
                                  bool incremental) {
  const size_t rows = cs.rows, cols = cs.cols;
  // Every link of a group froze by the end, at its level or (emptied by others) at kForever; a
  // group froze with whichever froze first, the one with the lower level.
  auto rate_of = [&](int32_t g) {
    const LinkId* links = &group_links_[g * kMaxPathLinks + 1];
    return std::min(level_[links[0]], level_[links[1]]);
  };
  // Each row's and column's new level, so a cell's rate needs no look-up of its group's links.
  line_new_level_.resize(rows + cols);
  for (size_t r = 0; r < rows; ++r) line_new_level_[r] = level_[row_link_[r]];
  for (size_t c = 0; c < cols; ++c) line_new_level_[rows + c] = level_[col_link_[c]];
  const double* row_level = line_new_level_.data();
  const double* col_level = row_level + rows;
  if (!incremental) {
    for (int32_t g : groups) SetRate(g, add ? rate_[g] + rate_of(g) : rate_of(g));
  } else if (add) {
    // The explicit-rate backfill: a cell may hold many groups (one per flow), so the groups on
    // a line whose level moved come from explicit_on_link_; each is its explicit rate plus
    // the lower level of its two links.
    for (size_t i = 0; i < rows + cols; ++i) {
      if (cs.line_weight[i] == 0 || line_new_level_[i] == cs.line_level[i]) continue;
      for (int32_t g : explicit_on_link_[LineLink(cs, i)]) {
        SetRate(g, explicit_rate_[g] + rate_of(g));
      }
    }
  } else {
    for (size_t r = 0; r < rows; ++r) {
      if (cs.line_weight[r] == 0 || row_level[r] == cs.line_level[r]) continue;
      const int32_t* cell = &cs.cell_group[r * cols];
      for (size_t c = 0; c < cols; ++c) {
        if (cell[c] >= 0) SetRate(cell[c], std::min(row_level[r], col_level[c]));
      }
    }
    for (size_t c = 0; c < cols; ++c) {
      if (cs.line_weight[rows + c] == 0 || col_level[c] == cs.line_level[rows + c]) continue;
      const int32_t* cell = &cs.cell_group_t[c * rows];
      for (size_t r = 0; r < rows; ++r) {
        if (cell[r] >= 0) SetRate(cell[r], std::min(row_level[r], col_level[c]));
      }
    }
    for (int32_t g : cs.fresh) {
      if (count_[g] > 0 && group_class_[g] == &cs - class_states_.data()) SetRate(g, rate_of(g));
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

}  // namespace slotflow
