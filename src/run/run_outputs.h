// A run's files in a directory: jobs.csv, tasks.csv, modes.csv, placements.csv, utilisation.csv
// (when sampled), setup.toml and summary.json, which says how the others were made and is
// written last.
#pragma once

#include <functional>
#include <ostream>
#include <string>

#include "run/prepare.h"
#include "run/run_spec.h"
#include "sim/simulator.h"

namespace slotflow {

// Every file is written and synced before any replaces its old one: a failure leaves the old
// run's files. A utilisation.csv of an earlier run goes when this one sampled none. InputError
// naming `field` (the flag or key that gave the directory) when a file cannot be written.
void WriteRunOutputs(const std::string& dir, const RunResult& result, const std::string& field);

// Where a run's decision log and files go, each named as the front end took it ("--out",
// "out") for errors.
struct RunSinks {
  std::string out, out_field;          // directory for the run's files; empty: none
  std::string log, log_field;          // file for the decision log (JSON Lines); empty: none
  std::ostream* log_stream = nullptr;  // without a log file: the log goes here if set
};

// Runs `execute` (a simulation or a live run) on the prepared run with its decision log wired
// to the sinks: the output directory is made before the run (an error comes before a long run,
// not after it), the log is flushed and committed whole after it, then the run's files are
// written. Command line and Python alike.
RunResult RunWithSinks(RunSpec& spec, const PreparedRun& run, const RunSinks& sinks,
                       const std::function<RunResult(const RunSpec&, const PreparedRun&)>& execute);

}  // namespace slotflow
