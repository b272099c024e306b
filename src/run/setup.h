// A run's complete resolved set-up, as the config file that reproduces it: the seed, the
// cluster as it ran (every server class and the topology), every workload option, the trace or
// job file's path and SHA-256, the policies and every setting in force. `--out` writes it as
// setup.toml and inside summary.json ("setup"); `slotflow run --config` reads either back.
#pragma once

#include <toml++/toml.h>

#include <nlohmann/json.hpp>
#include <string>

#include "run/prepare.h"
#include "run/run_spec.h"

namespace slotflow {

toml::table SetupTable(const RunSpec& spec, const PreparedRun& run);
std::string SetupToml(const RunSpec& spec, const PreparedRun& run);
nlohmann::ordered_json SetupJson(const RunSpec& spec, const PreparedRun& run);

// setup.toml's text from the JSON a run's summary holds (RunSummary::setup).
std::string SetupTomlFromJson(const std::string& setup_json);

// SHA-256 of the set-up that decides the run's results: SetupToml without the input file's
// path (its content digest stays), so a trace moved elsewhere is the same set-up.
std::string SetupDigest(const RunSpec& spec, const PreparedRun& run);

// The "setup" object of a summary.json as a config table; InputError naming `file` when the
// JSON has none or holds what a config file cannot (null, mixed arrays).
toml::table SetupFromSummaryJson(const nlohmann::json& summary, const std::string& file);

}  // namespace slotflow
