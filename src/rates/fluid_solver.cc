// How FluidSolver solves: the order of the fills (explicit rates, then each class in priority
// order, then the backfill) and the choice of fill for each.
#include "rates/fluid_solver.h"

#include <algorithm>
#include <iterator>

#include "rates/tuning.h"

namespace slotflow {

using rates::ClassState;

FluidSolver::FluidSolver(std::vector<BytesPerSecond> link_capacities)
    : capacity_(std::move(link_capacities)),
      residual_(capacity_),
      table_(capacity_.size()),
      explicit_(capacity_.size()),
      water_(capacity_.size()),
      local_water_(capacity_.size()),
      dense_(capacity_.size()) {}

BytesPerSecond FluidSolver::Rate(FlowId f) const {
  const rates::Flow& fl = table_.flows[f];
  return fl.group < 0 ? 0 : table_.rate[fl.group];
}

FluidSolver::FillStats FluidSolver::fill_stats() const {
  FillStats s;
  s.solves = solves_;
  s.class_fills = class_fills_;
  s.water_fills = water_.fills();
  s.min_tree_fills = water_.min_tree_fills();
  s.dense_fills = dense_.dense_fills();
  s.local_fills = dense_.local().local_fills();
  s.whole_fills = dense_.local().whole_fills();
  s.local_water_fills = local_water_.local_fills();
  s.whole_water_fills = local_water_.whole_fills();
  s.continued_backfills = explicit_.continued_backfills();
  return s;
}

void FluidSolver::Solve() {
  if (!table_.dirty) {
    if (table_.marks_dirty) events_.Search(table_);  // only marks changed: the same cheap pass
    return;
  }
  table_.dirty = false;
  // Ids freed below hi make every whole-array pass longer; repack when over a ninth are dead.
  if (table_.hi > rates::kRepackMinIds &&
      rates::kRepackIdsDenominator * table_.hi >
          rates::kRepackIdsNumerator * table_.live_group_count) {
    table_.Compact([&](int32_t from, int32_t to) { events_.Renumber(from, to); });
  }
  // Strict priority: a class's rates depend only on the classes above it. Without explicit
  // rates (whose backfill comes after every class) the classes above the first changed one
  // keep their rates, and the residual capacity they left is restored from the last of them,
  // if the saved residuals (one number per link per class) are not too many.
  const bool resumable = table_.explicit_groups.empty() &&
                         table_.class_ids.size() * capacity_.size() <= rates::kMaxSavedResiduals;
  const auto first = FirstClassToFill(resumable);
  // Explicit rates first (Varys MADD).
  explicit_.Serve(table_, residual_);
  // Then each class in priority order, max-min within the class.
  ++solves_;
  for (auto it = first; it != table_.class_ids.end(); ++it) {
    if (it->first == kHeldClass) continue;  // the last class: its groups keep rate 0
    ++class_fills_;
    ClassState& cs = table_.class_states[it->second];
    FillGroups(cs, cs.groups, /*add=*/false);
    cs.has_residual_after = resumable;
    if (resumable) cs.residual_after.assign(residual_.begin(), residual_.end());
  }
  // Work conservation: leftover capacity is backfilled to explicit-rate flows.
  if (!table_.explicit_groups.empty()) {
    FillGroups(table_.explicit_state, table_.explicit_groups, /*add=*/true);
  }
  events_.Search(table_);
}

std::map<FlowClass, int32_t>::iterator FluidSolver::FirstClassToFill(bool resumable) {
  auto first = table_.class_ids.begin();
  if (resumable && table_.dirty_from != rates::kNoDirtyClass) {
    first = table_.class_ids.lower_bound(table_.dirty_from);
    if (first != table_.class_ids.begin() &&
        !table_.class_states[std::prev(first)->second].has_residual_after) {
      first = table_.class_ids.begin();
    }
  }
  table_.dirty_from = rates::kNoDirtyClass;
  if (first == table_.class_ids.begin()) {
    std::copy(capacity_.begin(), capacity_.end(), residual_.begin());
  } else {
    const auto& before = table_.class_states[std::prev(first)->second].residual_after;
    std::copy(before.begin(), before.end(), residual_.begin());
  }
  return first;
}

void FluidSolver::FillGroups(ClassState& cs, std::span<const int32_t> groups, bool add) {
  // Dense once the matrix would be at most a few cells per group, sparse again only well
  // beyond. The explicit-rate backfill stays dense far sparser: only a dense one goes on from
  // its last fill (see ExplicitRates), and that beats starting a sparse one over.
  const bool backfill = &cs == &table_.explicit_state;
  const size_t enter =
      backfill ? rates::kExplicitEnterCellsPerGroup : rates::kDenseEnterCellsPerGroup;
  const size_t leave =
      backfill ? rates::kExplicitLeaveCellsPerGroup : rates::kDenseLeaveCellsPerGroup;
  const int live = table_.live_group_count;
  if (!cs.dense && table_.shape.Fits(live, groups.size(), enter)) {
    rates::DenseFill::Build(table_, cs, groups);
  } else if (cs.dense && !table_.shape.Fits(live, groups.size(), leave)) {
    cs.dense = false;
  }
  if (cs.dense) {
    // A class's fill always goes on from its last one; the backfill only when ExplicitRates
    // found that only explicit flows left since.
    dense_.Fill(table_, residual_, cs, groups, add, !add || explicit_.backfill_continues());
  } else if (!backfill && local_water_.Wanted(table_, groups.size())) {
    // A class's fill goes on from its last one, re-filled locally when it can be.
    if (local_water_.TryFill(table_, residual_, cs)) return;
    local_water_.BeforeWholeFill(table_, residual_, cs);
    water_.Fill(table_, residual_, groups, add);
    local_water_.AfterWholeFill(table_, residual_, water_, cs);
  } else {
    cs.sparse.valid = false;
    water_.Fill(table_, residual_, groups, add);
  }
}

}  // namespace slotflow
