#include "run/execute.h"

#include "run/policies.h"
#include "run/prepare.h"
#include "run/setup.h"
#include "sim/simulator.h"

namespace slotflow {

void Describe(const RunSpec& spec, const PreparedRun& run,
              std::vector<std::pair<std::string, std::string>> in_force, RunSummary& summary) {
  summary.scheduler = spec.scheduler;
  summary.network = spec.network;
  summary.system = spec.system;
  summary.workload = run.workload_name;
  summary.settings = std::move(in_force);
  summary.seed = spec.simulation.seed;
  summary.command_line = spec.command_line;
  summary.network_mode = spec.mode == RunMode::kNetwork;
  summary.setup = SetupJson(spec, run).dump();
}

RunResult Execute(const RunSpec& spec, const PreparedRun& run) {
  BuiltPolicies policies = BuildPolicies(spec);
  Simulator sim(run.cluster, run.workload, std::move(policies.scheduler),
                std::move(policies.network), spec.simulation);
  RunResult result = sim.Run();
  Describe(spec, run, std::move(policies.in_force), result.summary);
  return result;
}

RunResult Execute(const RunSpec& spec) { return Execute(spec, Prepare(spec)); }

}  // namespace slotflow
