// ExplicitRates: serves the flows' explicit rates (Varys MADD) before any class at each solve.
// Those that ask more of a link than it has are scaled down together; what they leave is
// backfilled max-min after every class (the dense or water fill with add). When only explicit
// flows have left since the last solve, that backfill goes on from its last fill.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "rates/groups.h"

namespace slotflow::rates {

class ExplicitRates {
 public:
  explicit ExplicitRates(size_t links);

  // Sets every explicit-rate group's rate and takes the rates from residual; or, when the
  // backfill continues, sets residual to what they left at the last serve plus the rates of
  // those gone since (every other explicit rate still holds).
  void Serve(GroupTable& t, std::vector<double>& residual);
  // The last Serve found that the backfill goes on from its last fill.
  bool backfill_continues() const { return backfill_continues_; }
  int64_t continued_backfills() const { return continued_backfills_; }

 private:
  std::vector<double> demand_;  // per link: the explicit rates asked of it
  // The last serve that set every rate scaled none down, so GroupTable::explicit_residual holds.
  bool ready_ = false;
  bool backfill_continues_ = false;
  int64_t continued_backfills_ = 0;
};

}  // namespace slotflow::rates
