// How ExplicitRates serves the explicit rates. Where they ask more of a link than it has, all
// of them across it are scaled down by the same factor, so no order among them matters.
#include "rates/explicit_rates.h"

#include <algorithm>

#include "rates/tuning.h"

namespace slotflow::rates {

ExplicitRates::ExplicitRates(size_t links) : demand_(links, 0) {}

void ExplicitRates::Serve(GroupTable& t, std::vector<double>& residual) {
  // When no explicit rate was set or added since the last solve and that one scaled none down,
  // only explicit flows have left since: what they leave of each link (explicit_residual, given
  // back by GroupTable::DropGroup) and every other explicit group's rate still hold, and the
  // backfill goes on from its last fill (DenseFill::Fill with continues).
  backfill_continues_ =
      !t.explicit_groups.empty() && ready_ && !t.explicit_changed && t.explicit_state.dense &&
      t.explicit_state.has_levels &&
      t.shape.Fits(t.live_group_count, t.explicit_groups.size(), kExplicitLeaveCellsPerGroup);
  if (backfill_continues_) {
    ++continued_backfills_;
    std::copy(t.explicit_residual.begin(), t.explicit_residual.end(), residual.begin());
    return;
  }
  if (t.explicit_groups.empty()) return;
  for (int32_t g : t.explicit_groups) {
    for (LinkId l : t.GroupLinks(g)) demand_[l] += t.explicit_rate[g];
  }
  const auto links = static_cast<int>(residual.size());
  // Sums that exceed a link by rounding only (MADD fills links exactly) are not scaled.
  auto over_link = [&](LinkId l) { return demand_[l] > residual[l] * (1 + kExplicitSumRounding); };
  bool over = false;
  for (LinkId l{0}; l < links; ++l) over |= over_link(l);
  for (int32_t g : t.explicit_groups) {
    double scale = 1;
    if (over) {
      for (LinkId l : t.GroupLinks(g)) {
        if (over_link(l)) scale = std::min(scale, std::max(0.0, residual[l]) / demand_[l]);
      }
    }
    t.SetRate(g, t.explicit_rate[g] * scale);
  }
  if (over) {
    std::fill(demand_.begin(), demand_.end(), 0.0);
    for (int32_t g : t.explicit_groups) {
      for (LinkId l : t.GroupLinks(g)) demand_[l] += t.rate[g];
    }
  }
  for (LinkId l{0}; l < links; ++l) {
    residual[l] -= demand_[l];
    demand_[l] = 0;
  }
  std::copy(residual.begin(), residual.end(), t.explicit_residual.begin());
  ready_ = !over;
  t.explicit_changed = false;
}

}  // namespace slotflow::rates
