// FluidSolver's explicit rates (Varys MADD): setting them, and serving them before any class
// at each solve. The backfill of what they leave is the dense or water fill with add = true.
#include <algorithm>

#include "rates/fluid_solver.h"
#include "rates/tuning.h"

namespace slotflow {

void FluidSolver::SetExplicitRate(FlowId f, BytesPerSecond rate) {
  Flow& fl = flows_[f];
  const bool was = fl.explicit_rate >= 0, now = rate >= 0;
  fl.explicit_rate = now ? rate : -1;
  if (fl.group >= 0 && was && now) explicit_rate_[fl.group] = rate;
  dirty_ = true;
  explicit_changed_ = true;
  if (fl.group < 0 || was == now) return;
  const Bytes rem = Remaining(f);
  Leave(f);
  Join(f, GroupFor(fl.path, fl.cls, now ? f : -1), rem);
}

void FluidSolver::SetExplicitRates() {
  // Where explicit rates ask more of a link than it has, all of them across it are scaled down
  // by the same factor, so no order among them matters. When no explicit rate was set or added
  // since the last solve and that one scaled none down, only explicit flows have left since:
  // what they leave of each link (explicit_residual_, given back by DropGroup) and every other
  // explicit group's rate still hold, and the backfill goes on from its last fill (FillDense
  // with backfill_continues_).
  backfill_continues_ =
      !explicit_groups_.empty() && explicit_ready_ && !explicit_changed_ &&
      explicit_state_.dense && explicit_state_.has_levels &&
      DenseFits(explicit_groups_.size(), fluid::kExplicitLeaveCellsPerGroup);
  if (backfill_continues_) {
    ++stats_.continued_backfills;
    std::copy(explicit_residual_.begin(), explicit_residual_.end(), residual_.begin());
    return;
  }
  if (explicit_groups_.empty()) return;
  for (int32_t g : explicit_groups_) {
    for (LinkId l : GroupLinks(g)) demand_[l] += explicit_rate_[g];
  }
  const auto links = static_cast<LinkId>(capacity_.size());
  // Sums that exceed a link by rounding only (MADD fills links exactly) are not scaled.
  auto over_link = [&](LinkId l) {
    return demand_[l] > residual_[l] * (1 + fluid::kExplicitSumRounding);
  };
  bool over = false;
  for (LinkId l = 0; l < links; ++l) over |= over_link(l);
  for (int32_t g : explicit_groups_) {
    double scale = 1;
    if (over) {
      for (LinkId l : GroupLinks(g)) {
        if (over_link(l)) scale = std::min(scale, std::max(0.0, residual_[l]) / demand_[l]);
      }
    }
    SetRate(g, explicit_rate_[g] * scale);
  }
  if (over) {
    std::fill(demand_.begin(), demand_.end(), 0.0);
    for (int32_t g : explicit_groups_) {
      for (LinkId l : GroupLinks(g)) demand_[l] += rate_[g];
    }
  }
  for (LinkId l = 0; l < links; ++l) {
    residual_[l] -= demand_[l];
    demand_[l] = 0;
  }
  std::copy(residual_.begin(), residual_.end(), explicit_residual_.begin());
  explicit_ready_ = !over;
  explicit_changed_ = false;
}

}  // namespace slotflow
