#include "cli/exit_code.h"

#include <fmt/format.h>

#include <cstdio>

#include "engine/engine.h"

namespace slotflow {

int CheckFinished(const RunResult& r, const std::string& label) {
  if (r.summary.unfinished_jobs == 0) return 0;
  fmt::print(stderr,
             "slotflow: error: {}{} of {} jobs never finished: {} (check capacities, "
             "slots and arrival times)\n",
             label.empty() ? "" : label + ": ", r.summary.unfinished_jobs,
             r.summary.jobs + r.summary.unfinished_jobs,
             r.summary.time_limit_hit
                 ? fmt::format("they would end after {:g} s, beyond which simulated times are "
                               "not exact",
                               kMaxSimulatedTime)
                 : "no event could make progress");
  return kExitInputError;
}

}  // namespace slotflow
