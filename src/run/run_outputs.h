// A run's files in a directory: jobs.csv, tasks.csv, utilisation.csv (when sampled), setup.toml
// and summary.json, which says how the others were made and is written last.
#pragma once

#include <string>

#include "sim/simulator.h"

namespace slotflow {

// Every file is written and synced before any replaces its old one: a failure leaves the old
// run's files. A utilisation.csv of an earlier run goes when this one sampled none. InputError
// naming `field` (the flag or key that gave the directory) when a file cannot be written.
void WriteRunOutputs(const std::string& dir, const RunResult& result,
                     const std::string& field = "--out");

}  // namespace slotflow
