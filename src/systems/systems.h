// Systems: named presets of settings — a task scheduler, a network policy and their settings —
// defined in one place (Duopoly, its ablations and the systems it is compared against, Duopoly §6).
#pragma once

#include <string>
#include <utility>
#include <vector>

namespace slotflow {

struct SystemSpec {
  std::string name;
  std::string description;
  std::string scheduler;
  std::string network;
  // "scheduler.KEY" / "network.KEY" → value, as a user would write them with --set.
  std::vector<std::pair<std::string, std::string>> settings;
};

const std::vector<SystemSpec>& Systems();
// Throws InputError naming `field` and listing the known systems.
const SystemSpec& FindSystem(const std::string& name, const std::string& field);

}  // namespace slotflow
