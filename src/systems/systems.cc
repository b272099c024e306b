#include "systems/systems.h"

#include <fmt/format.h>

#include "common/error.h"

namespace slotflow {

const std::vector<SystemSpec>& Systems() {
  constexpr int kUnlimited = NetworkPolicyConfig::kUnlimited;
  // Duopoly §6: SJF job order everywhere; 8 priority queues for Duopoly; the comparison
  // systems and the ablations "(I...)" use unlimited priorities (SPEC §8).
  static const std::vector<SystemSpec> systems = {
      {"duopoly", "nats + cans, 8 queues (Duopoly)", "nats", "cans", JobOrder::kSjf, 8},
      {"duopoly-I", "duopoly with unlimited priorities (ablation I)", "nats", "cans",
       JobOrder::kSjf, kUnlimited},
      {"duopoly-IC", "duopoly-I with cans always using coflow priorities (ablation IC)", "nats",
       "cans-coflow", JobOrder::kSjf, kUnlimited},
      {"duopoly-IM", "duopoly-I with cans always using macroflow priorities (ablation IM)", "nats",
       "cans-macroflow", JobOrder::kSjf, kUnlimited},
      {"duopoly-IF", "duopoly-I with nats replaced by random free-slot placement (ablation IF)",
       "greedy", "cans", JobOrder::kSjf, kUnlimited},
      {"duopoly-IA", "duopoly-I with the all-ready-tasks mode signal (ablation IA)",
       "nats-all-ready", "cans", JobOrder::kSjf, kUnlimited},
      {"neat", "NEAT coflow placement (CCT under TCF, serial heuristic) + TCF network + SJF",
       "neat", "tcf", JobOrder::kSjf, kUnlimited},
      {"aalo", "greedy placement (never reserves) + Aalo D-CLAS network + SJF", "greedy", "aalo",
       JobOrder::kSjf, kUnlimited},
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
