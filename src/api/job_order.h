// Job order policies shared by task schedulers: FIFO (submission), SJF (smallest estimated total
// size first, Duopoly §2.1, §6.3; or smallest shuffle first), Fair (fewest running tasks first;
// TCDS Alg. 1 line 2).
// Policy API (src/api/): stable, see docs/plugins.md#the-policy-api.
#pragma once

#include <optional>
#include <string_view>
#include <vector>

#include "api/settings.h"
#include "api/state.h"

namespace slotflow {

enum class JobOrder { kFifo, kSjf, kSjfShuffle, kFair };

// The `order` setting every task scheduler declares (default fifo).
SettingSpec JobOrderSetting();

// The order named by a scheduler's `order` setting (declared with JobOrderSetting).
JobOrder JobOrderOf(const Settings& settings);
std::string_view JobOrderName(JobOrder order);
// The order JobOrderName spells `name`, or nullopt.
std::optional<JobOrder> FindJobOrder(std::string_view name);

// Active (arrived, unfinished) jobs in the given order; ties by submission order.
void OrderJobs(const SimState& state, JobOrder order, std::vector<JobIndex>& out);

}  // namespace slotflow
