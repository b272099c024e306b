#include "scheduling/job_order.h"

#include <fmt/format.h>

#include <algorithm>

#include "common/error.h"

namespace slotflow {

SettingSpec JobOrderSetting() {
  return {.name = "order",
          .kind = SettingKind::kChoice,
          .default_value = "fifo",
          .meaning =
              "job order: fifo (submission), sjf (smallest estimated size first), fair "
              "(fewest running tasks first)",
          .choices = {"fifo", "sjf", "fair"}};
}

JobOrder ParseJobOrder(std::string_view name, std::string_view field) {
  if (name == "fifo") return JobOrder::kFifo;
  if (name == "sjf") return JobOrder::kSjf;
  if (name == "fair") return JobOrder::kFair;
  throw InputError("", 0, std::string(field),
                   fmt::format("unknown job order '{}' (known: fair, fifo, sjf)", name));
}

std::string_view JobOrderName(JobOrder order) {
  switch (order) {
    case JobOrder::kFifo:
      return "fifo";
    case JobOrder::kSjf:
      return "sjf";
    case JobOrder::kFair:
      return "fair";
  }
  return "?";
}

void OrderJobs(const SimState& state, JobOrder order, std::vector<JobIndex>& out) {
  out.assign(state.active_jobs().begin(), state.active_jobs().end());
  switch (order) {
    case JobOrder::kFifo:
      break;  // active_jobs() is already in submission order
    case JobOrder::kSjf:
      std::stable_sort(out.begin(), out.end(), [&](JobIndex a, JobIndex b) {
        return state.job(a).size_estimate < state.job(b).size_estimate;
      });
      break;
    case JobOrder::kFair:
      std::stable_sort(out.begin(), out.end(), [&](JobIndex a, JobIndex b) {
        return state.job(a).running < state.job(b).running;
      });
      break;
  }
}

}  // namespace slotflow
