// FluidSolver::Solve: the order of the fills (explicit rates, then each class in priority
// order, then the backfill) and the choice of fill for each. The fills themselves are in
// water_fill.cc, dense_fill.cc and local_fill.cc; the explicit rates in explicit_rates.cc.
#include <algorithm>
#include <iterator>

#include "rates/fluid_solver.h"
#include "rates/tuning.h"

namespace slotflow {

void FluidSolver::Solve() {
  if (!dirty_) {
    if (marks_dirty_) ComputeNextCompletion();  // only marks changed: the same cheap pass
    return;
  }
  dirty_ = false;
  // Ids freed below hi_ make every whole-array pass longer; repack when over a ninth are dead.
  if (hi_ > fluid::kRepackMinIds &&
      fluid::kRepackIdsDenominator * hi_ > fluid::kRepackIdsNumerator * live_group_count_) {
    CompactGroups();
  }
  // Strict priority: a class's rates depend only on the classes above it. Without explicit
  // rates (whose backfill comes after every class) the classes above the first changed one
  // keep their rates, and the residual capacity they left is restored from the last of them,
  // if the saved residuals (one number per link per class) are not too many.
  const bool resumable = explicit_groups_.empty() &&
                         class_ids_.size() * capacity_.size() <= fluid::kMaxSavedResiduals;
  const auto first = FirstClassToFill(resumable);
  // Explicit rates first (SPEC §3, Varys MADD).
  SetExplicitRates();
  // Then each class in priority order, max-min within the class.
  for (auto it = first; it != class_ids_.end(); ++it) {
    ClassState& cs = class_states_[it->second];
    FillGroups(cs, cs.groups, /*add=*/false);
    cs.has_residual_after = resumable;
    if (resumable) cs.residual_after.assign(residual_.begin(), residual_.end());
  }
  // Work conservation: leftover capacity is backfilled to explicit-rate flows.
  if (!explicit_groups_.empty()) FillGroups(explicit_state_, explicit_groups_, /*add=*/true);
  ComputeNextCompletion();
}

std::map<FlowClass, int32_t>::iterator FluidSolver::FirstClassToFill(bool resumable) {
  auto first = class_ids_.begin();
  if (resumable && dirty_from_ != kNoDirtyClass) {
    first = class_ids_.lower_bound(dirty_from_);
    if (first != class_ids_.begin() &&
        !class_states_[std::prev(first)->second].has_residual_after) {
      first = class_ids_.begin();
    }
  }
  dirty_from_ = kNoDirtyClass;
  if (first == class_ids_.begin()) {
    std::copy(capacity_.begin(), capacity_.end(), residual_.begin());
  } else {
    const auto& before = class_states_[std::prev(first)->second].residual_after;
    std::copy(before.begin(), before.end(), residual_.begin());
  }
  return first;
}

void FluidSolver::FillGroups(ClassState& cs, std::span<const int32_t> groups, bool add) {
  // Dense once the matrix would be at most a few cells per group, sparse again only well
  // beyond. The explicit-rate backfill stays dense far sparser: only a dense one goes on from
  // its last fill (see SetExplicitRates), and that beats starting a sparse one over.
  const bool backfill = &cs == &explicit_state_;
  const size_t enter =
      backfill ? fluid::kExplicitEnterCellsPerGroup : fluid::kDenseEnterCellsPerGroup;
  const size_t leave =
      backfill ? fluid::kExplicitLeaveCellsPerGroup : fluid::kDenseLeaveCellsPerGroup;
  if (!cs.dense && DenseFits(groups.size(), enter)) {
    BuildDense(cs, groups);
  } else if (cs.dense && !DenseFits(groups.size(), leave)) {
    cs.dense = false;
  }
  if (cs.dense) {
    FillDense(cs, groups, add);
  } else {
    WaterFill(groups, add);
  }
}

}  // namespace slotflow
