#include "api/job_order.h"

#include <algorithm>
#include <string_view>
#include <utility>
#include <vector>

namespace slotflow {
namespace {
constexpr JobOrder kJobOrders[] = {JobOrder::kFifo, JobOrder::kSjf, JobOrder::kSjfShuffle,
                                   JobOrder::kFair};
}  // namespace

SettingSpec JobOrderSetting() {
  SettingSpec order{.name = "order",
                    .kind = SettingKind::kChoice,
                    .default_value = "fifo",
                    .meaning =
                        "job order: fifo (submission), sjf (smallest estimated size first: map "
                        "input plus shuffle bytes, ours; Duopoly §2.1 says only 'small job "
                        "first'), sjf-shuffle (smallest shuffle first, the size cans ranks "
                        "coflows by), fair (fewest running tasks first); a job file's "
                        "size_estimate is the size under both sjf orders"};
  for (JobOrder o : kJobOrders) order.choices.emplace_back(JobOrderName(o));
  return order;
}

JobOrder JobOrderOf(const Settings& settings) {
  std::vector<std::pair<std::string_view, JobOrder>> table;
  for (JobOrder order : kJobOrders) table.emplace_back(JobOrderName(order), order);
  return settings.Choice("order", table);
}

std::string_view JobOrderName(JobOrder order) {
  switch (order) {
    case JobOrder::kFifo:
      return "fifo";
    case JobOrder::kSjf:
      return "sjf";
    case JobOrder::kSjfShuffle:
      return "sjf-shuffle";
    case JobOrder::kFair:
      return "fair";
  }
  return "?";
}

std::optional<JobOrder> FindJobOrder(std::string_view name) {
  for (JobOrder order : kJobOrders) {
    if (JobOrderName(order) == name) return order;
  }
  return std::nullopt;
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
    case JobOrder::kSjfShuffle:
      std::stable_sort(out.begin(), out.end(), [&](JobIndex a, JobIndex b) {
        return state.job(a).shuffle_estimate < state.job(b).shuffle_estimate;
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
