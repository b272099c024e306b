// `slotflow compare`: one workload under several policies or systems, side by side.
#include <fmt/format.h>

#include <algorithm>
#include <iostream>
#include <memory>

#include "api/error.h"
#include "cli/commands.h"
#include "cli/exit_code.h"
#include "cli/run_flags.h"
#include "common/output_file.h"
#include "run/compare.h"
#include "run/compare_stats.h"
#include "run/policies.h"

namespace slotflow {
namespace {

// The names of a comma-separated list, blanks dropped; those of `fallback` when `text` is empty.
std::vector<std::string> SplitList(const std::string& text, const std::string& fallback) {
  std::vector<std::string> out;
  std::string item;
  for (char c : text.empty() ? fallback : text) {
    if (c == ',') {
      if (!item.empty()) out.push_back(item);
      item.clear();
    } else if (c != ' ') {
      item += c;
    }
  }
  if (!item.empty()) out.push_back(item);
  return out;
}

// `compare`'s entries: --scheduler and --network take comma-separated lists and every
// combination runs, or --system takes a list. `spec` gets the settings shared by all.
std::vector<CompareEntry> CompareEntries(const RunFlags& f, RunSpec& spec) {
  RunFlags base = f;
  base.scheduler.clear();
  base.network.clear();
  base.system.clear();
  spec = BuildSpec(base);
  std::vector<CompareEntry> entries;
  if (!f.system.empty()) {
    if (!f.scheduler.empty() || !f.network.empty()) {
      throw InputError("", 0, "--system", "give either systems or --scheduler/--network lists");
    }
    for (const std::string& name : SplitList(f.system, "")) {
      RunFlags one = base;
      one.system = name;
      CompareEntry e{name, BuildSpec(one, /*system_replaces=*/true)};
      for (const CompareEntry& other : entries) {
        if (other.label == name)
          throw InputError("", 0, "--system", fmt::format("'{}' is listed twice", name));
      }
      entries.push_back(std::move(e));
    }
  }
  const auto schedulers = SplitList(f.scheduler, spec.scheduler);
  const auto networks = SplitList(f.network, spec.network);
  for (const auto& sched : f.system.empty() ? schedulers : std::vector<std::string>{}) {
    for (const auto& net : networks) {
      CompareEntry e;
      e.spec = spec;
      SetPolicySetting(e.spec, "scheduler.policy", sched, "", 0, "--scheduler");
      SetPolicySetting(e.spec, "network.policy", net, "", 0, "--network");
      e.label = schedulers.size() > 1 && networks.size() > 1 ? sched + "+" + net
                : schedulers.size() > 1                      ? sched
                                                             : net;
      for (const CompareEntry& other : entries) {
        if (other.label == e.label) {
          throw InputError("", 0, "--scheduler/--network",
                           fmt::format("'{}' is listed twice", e.label));
        }
      }
      entries.push_back(std::move(e));
    }
  }
  FitSettings(entries);
  // Unknown names, keys and values fail before any simulation starts.
  for (const CompareEntry& e : entries) ResolvePolicies(e.spec);
  if (entries.empty()) {
    throw InputError("", 0, f.system.empty() ? "--scheduler/--network" : "--system",
                     "the list is empty");
  }
  return entries;
}

// `compare`: every entry at one seed, or with --seeds N at seeds 1..N, all on the thread pool.
int CompareCommand(const RunFlags& f, int threads, int seeds) {
  RunSpec spec;
  std::vector<CompareEntry> entries = CompareEntries(f, spec);
  if (seeds > 0 && !f.seed.empty()) {
    throw InputError("", 0, "--seeds", "give --seed or --seeds, not both");
  }
  std::vector<uint64_t> seed_list;
  for (int k = 1; k <= seeds; ++k) seed_list.push_back(static_cast<uint64_t>(k));
  if (seed_list.empty()) seed_list.push_back(spec.simulation.seed);
  Comparison c = PrepareComparison(spec, std::move(entries), std::move(seed_list));
  if (!f.out.empty()) MakeOutputDirectory(f.out, "--out");  // before the runs, not after
  RunComparison(c, threads, f.quiet);
  if (!f.quiet) {
    fmt::print("{}\n", ComparedWorkload(c));
    PrintComparison(c.entries, c.results, std::cout);
  }
  if (!f.out.empty()) WriteComparison(f.out, "--out", c.entries, c.seeds, c.results);
  int code = 0;
  for (size_t e = 0; e < c.entries.size(); ++e) {
    for (size_t k = 0; k < c.seeds.size(); ++k) {
      const std::string label = c.seeds.size() > 1
                                    ? fmt::format("{} seed {}", c.entries[e].label, c.seeds[k])
                                    : c.entries[e].label;
      code = std::max(code, CheckFinished(c.results[e][k], label));
    }
  }
  return code;
}

}  // namespace

Subcommand AddCompareCommand(CLI::App& app, const std::string& command_line) {
  struct Flags {
    RunFlags run;
    int threads = 0;
    int seeds = 0;
  };
  auto f = std::make_shared<Flags>();
  f->run.command_line = command_line;
  CLI::App* compare = app.add_subcommand(
      "compare",
      "run one workload under several policies: --scheduler and --network take comma-separated "
      "lists (every combination runs); prints mean/p50/p95/p99/max JCT and ratios to the first");
  AddRunFlags(*compare, f->run);
  compare->add_option("--threads", f->threads, "parallel runs (default: one per core)");
  compare
      ->add_option("--seeds", f->seeds,
                   "run every entry at seeds 1..N and show mean ± 95 % CI (default: one run)")
      ->check(CLI::Range(1, 1000));
  return {compare, [f] { return CompareCommand(f->run, f->threads, f->seeds); }};
}

}  // namespace slotflow
