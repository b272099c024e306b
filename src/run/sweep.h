// `slotflow sweep FILE`: a grid of runs described in one TOML file, and `slotflow merge`.
//
// A sweep file is a config file (seed aside: [cluster], [workload], [scheduler], [network]) that
// is the base set-up, plus a [sweep] table:
//
//   [sweep]
//   seeds = 5                        # seeds 1..5, or a list: [1, 2, 3]
//   systems = ["duopoly", "aalo"]    # each a variant named after its system
//   [[sweep.variant]]                # and/or variants with settings of their own
//   name = "duopoly-first-ready"
//   system = "duopoly"
//   set = { "scheduler.mode_signal" = "first-ready" }
//   [[sweep.parameter]]              # the grid: every combination of the values, the first
//   key = "cluster.servers"          # parameter outermost
//   values = [30, 50, 70]
//
// Every (point, variant, seed) is one run; the runs share the machine's cores. Each finished
// run is appended to OUT/journal.csv at once, with the digest of its set-up, so a sweep that is
// stopped and started again with the same --out resumes where it was (re-running the runs whose
// set-up changed); at the end OUT/results.csv holds every row in grid order (the same file for
// any thread count or sharding, wall times aside) and the journal goes. One sweep at a time may
// use an --out (a lock on OUT/sweep.lock). --shard I/N runs the runs whose index in grid order is
// I-1 modulo N; OUT/shard.json says which sweep and shard the directory holds.
#pragma once

#include <string>
#include <vector>

#include "run/named_as.h"

namespace slotflow {

struct SweepOptions {
  std::string file;
  std::string out;    // directory: results.csv, shard.json (and journal.csv while running)
  std::string trace;  // replaces the base's workload trace (a path from the working directory)
  int shard = 1, shards = 1;
  int threads = 0;  // <= 0: one per core
  bool progress = true;
  NamedAs named;  // how the front end names out, trace and shard in errors
};

// Runs the sweep; returns 0, or 2 when a run left jobs unfinished. InputError on a bad file,
// a busy or unwritable --out.
int RunSweep(const SweepOptions& options);

struct MergeOptions {
  std::vector<std::string> inputs;  // results.csv or journal.csv of shards
  std::string out;
  std::string sweep;     // the sweep file, to tell which runs are missing (else the manifests)
  bool partial = false;  // write the merge even when runs are missing
  NamedAs named;         // how the front end names out in errors
};

// Joins sweep results into `out`: the same header in every input, every row sound, each
// (point, variant, seed) once, rows in grid order; with the sweep file or the inputs' shard
// manifests, every run of the sweep present (unless `partial`). InputError otherwise.
void MergeSweepResults(const MergeOptions& options);

// "I/N" with integers 1 <= I <= N; InputError naming --shard otherwise.
void ParseShard(const std::string& text, const std::string& field, int& shard, int& shards);

}  // namespace slotflow
