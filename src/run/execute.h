// One run executed: the set-up in, the results and the summary that says how they were made out.
// This is the run layer's entry point for the command line and for bindings alike; errors in
// the set-up are InputErrors naming where the bad value was given.
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "run/prepare.h"
#include "run/run_spec.h"
#include "sim/simulator.h"

namespace slotflow {

// Fills what summary.json says of the run's set-up: policies, system, workload, settings, seed.
void Describe(const RunSpec& spec, const PreparedRun& run,
              std::vector<std::pair<std::string, std::string>> in_force, RunSummary& summary);
// Builds the policies by name (InputError on unknown names) and runs the simulation.
RunResult Execute(const RunSpec& spec, const PreparedRun& run);
// Prepares the set-up (run/prepare.h), then executes it.
RunResult Execute(const RunSpec& spec);

}  // namespace slotflow
