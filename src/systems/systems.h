// Systems: named pairings of a task-scheduling policy and a network policy with their
// settings, defined in one place (Duopoly and the systems it is compared against, SPEC §8).
#pragma once

#include <string>
#include <vector>

#include "scheduling/task_scheduler.h"

namespace slotflow {

struct SystemSpec {
  std::string name;
  std::string description;
  std::string scheduler;
  std::string network;
  JobOrder order = JobOrder::kSjf;
  int queues = NetworkPolicyConfig::kPolicyDefault;
};

const std::vector<SystemSpec>& Systems();
// Throws InputError naming `field` and listing the known systems.
const SystemSpec& FindSystem(const std::string& name, const std::string& field);

}  // namespace slotflow
