#include "systems/systems.h"

#include <fmt/format.h>

#include "api/error.h"

namespace slotflow {

const std::vector<SystemSpec>& Systems() {
  // Duopoly §6: SJF job order everywhere; 8 priority queues for Duopoly; the comparison
  // systems and the ablations "(I...)" use unlimited priorities (§6.1, §6.2).
  using Settings = std::vector<std::pair<std::string, std::string>>;
  const Settings sjf_unlimited = {{"scheduler.order", "sjf"}, {"network.queues", "unlimited"}};
  auto with = [&](Settings extra) {
    Settings s = sjf_unlimited;
    s.insert(s.end(), extra.begin(), extra.end());
    return s;
  };
  static const std::vector<SystemSpec> systems = {
      {"duopoly",
       "nats + cans, 8 queues (Duopoly)",
       "nats",
       "cans",
       {{"scheduler.order", "sjf"}, {"network.queues", "8"}}},
      {"duopoly-I", "duopoly with unlimited priorities (ablation I)", "nats", "cans",
       sjf_unlimited},
      {"duopoly-IC", "duopoly-I with cans always using coflow priorities (ablation IC)", "nats",
       "cans", with({{"network.priority", "coflow"}})},
      {"duopoly-IM", "duopoly-I with cans always using macroflow priorities (ablation IM)", "nats",
       "cans", with({{"network.priority", "macroflow"}})},
      {"duopoly-IF",
       "duopoly-I with nats replaced by greedy placement: a free replica holder, else a random "
       "free slot (ablation IF)",
       "greedy", "cans", sjf_unlimited},
      {"duopoly-IA", "duopoly-I with the all-ready-tasks mode signal (ablation IA)", "nats", "cans",
       with({{"scheduler.mode_signal", "all-ready"}})},
      {"neat", "NEAT coflow placement (CCT under TCF, serial heuristic) + TCF network + SJF",
       "neat", "tcf", sjf_unlimited},
      {"aalo", "greedy placement (never reserves) + Aalo D-CLAS network + SJF", "greedy", "aalo",
       sjf_unlimited},
  };
  return systems;
}

const SystemSpec& FindSystem(const std::string& name, const std::string& field) {
  std::string known;
  for (const SystemSpec& s : Systems()) {
    if (s.name == name) return s;
    known += (known.empty() ? "" : ", ") + s.name;
  }
  throw InputError("", 0, field, fmt::format("unknown system '{}' (known: {})", name, known));
}

}  // namespace slotflow
