// Provenance and precedence: summary.json and setup.toml hold the complete resolved set-up and
// reproduce the run byte for byte; a system preset < config file < flags for every key.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <set>
#include <string>

#include "cli/cli_helpers.h"

namespace {

using namespace slotflow_test;

const std::string kExamples = std::string(SLOTFLOW_SOURCE_DIR) + "/examples/";

nlohmann::json Summary(const fs::path& out) {
  return nlohmann::json::parse(Slurp(out / "summary.json"));
}

// summary.json without what differs between two invocations of one set-up.
nlohmann::json Comparable(nlohmann::json j) {
  j.erase("wall_s");
  j.erase("command_line");
  return j;
}

// Runs ARGS into one directory, then `--config FILE` of its output into two more, and expects
// every output file of the three to match.
void ExpectReproduced(const std::string& args) {
  const fs::path a = TempDir("repro_a"), b = TempDir("repro_b"), c = TempDir("repro_c");
  const Result first = Slotflow(args + " --quiet --out " + a.string());
  ASSERT_EQ(first.exit_code, 0) << first.err;
  const Result from_json =
      Slotflow("run --quiet --config " + (a / "summary.json").string() + " --out " + b.string());
  ASSERT_EQ(from_json.exit_code, 0) << from_json.err;
  const Result from_toml =
      Slotflow("run --quiet --config " + (a / "setup.toml").string() + " --out " + c.string());
  ASSERT_EQ(from_toml.exit_code, 0) << from_toml.err;
  for (const char* file : {"jobs.csv", "tasks.csv", "setup.toml"}) {
    EXPECT_EQ(Slurp(a / file), Slurp(b / file)) << file << " of " << args;
    EXPECT_EQ(Slurp(a / file), Slurp(c / file)) << file << " of " << args;
  }
  EXPECT_EQ(Comparable(Summary(a)), Comparable(Summary(b))) << args;
  EXPECT_EQ(Comparable(Summary(a)), Comparable(Summary(c))) << args;
  EXPECT_FALSE(Slurp(a / "jobs.csv").empty());
}

TEST(Provenance, SummaryHoldsTheCompleteSetUp) {
  const fs::path out = TempDir("setup");
  const Result r = Slotflow(
      "run --quiet --system duopoly --synthetic-jobs 20 --seed 7 --nic 10Gbps "
      "--topology two-tier --servers-per-rack 5 --set scheduler.order=fifo "
      "--out " +
      out.string());
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const nlohmann::json j = Summary(out);
  const nlohmann::json& setup = j["setup"];
  EXPECT_EQ(setup["seed"], 7);
  EXPECT_EQ(setup["system"], "duopoly");
  EXPECT_EQ(setup["cluster"]["topology"], "two-tier");
  EXPECT_EQ(setup["cluster"]["servers_per_rack"], 5);
  EXPECT_EQ(setup["cluster"]["class"][0]["count"], 50);
  EXPECT_EQ(setup["cluster"]["class"][0]["nic"], 1.25e9);  // bytes per second
  EXPECT_EQ(setup["workload"]["synthetic_jobs"], 20);
  EXPECT_EQ(setup["workload"]["generator"], "synthetic");
  EXPECT_EQ(setup["scheduler"]["policy"], "nats");
  EXPECT_EQ(setup["scheduler"]["order"], "fifo");              // the flag over the preset
  EXPECT_EQ(setup["scheduler"]["monitor_interval"], "100ms");  // the preset's, in force
  EXPECT_EQ(setup["network"]["policy"], "cans");
  EXPECT_FALSE(j["slotflow"]["version"].get<std::string>().empty());
  EXPECT_EQ(j["slotflow"]["commit"].get<std::string>().size() >= 7, true);
  EXPECT_NE(j["command_line"].get<std::string>().find("--servers-per-rack 5"), std::string::npos);
}

TEST(Provenance, InputFilesAreNamedWithTheirDigest) {
  const fs::path out = TempDir("digest");
  ASSERT_EQ(Slotflow("run --quiet --jobs " + kExamples + "duopoly-fig2.toml --out " + out.string())
                .exit_code,
            0);
  const nlohmann::json w = Summary(out)["setup"]["workload"];
  EXPECT_EQ(w["jobs"], kExamples + "duopoly-fig2.toml");
  EXPECT_EQ(w["sha256"].get<std::string>().size(), 64u);
  // The set-up refuses an input whose content differs from the one it names.
  std::string setup = Slurp(out / "setup.toml");
  const size_t at = setup.find("sha256 = \"") + 10;
  setup[at] = setup[at] == '0' ? '1' : '0';
  const fs::path edited = WriteFile("edited.toml", setup);
  const Result r = Slotflow("run --quiet --config " + edited.string());
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find(edited.string()), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("field 'workload.sha256'"), std::string::npos) << r.err;
}

// A set-up lists only the values the run used: a trace run's no generator, a generator's run
// only its own generator's settings, a job file's run no byte scale.
TEST(Provenance, TheSetUpListsOnlyWhatTheRunUsed) {
  auto workload_keys = [](const std::string& args) {
    const fs::path out = TempDir("used");
    EXPECT_EQ(Slotflow("run --quiet " + args + " --out " + out.string()).exit_code, 0) << args;
    std::set<std::string> keys;
    const nlohmann::json workload = Summary(out)["setup"]["workload"];
    for (const auto& [key, value] : workload.items()) keys.insert(key);
    return keys;
  };
  using Keys = std::set<std::string>;
  EXPECT_EQ(workload_keys("--trace " + kExamples + "tiny.trace"),
            (Keys{"estimate_error", "mode", "sha256", "trace", "trace_format", "trace_length",
                  "trace_machines", "trace_start", "time_scale", "traffic_scale"}));
  EXPECT_EQ(workload_keys("--trace " + kExamples + "tiny.trace --mode network"),
            (Keys{"estimate_error", "mode", "sha256", "trace", "trace_format", "trace_length",
                  "trace_machines", "trace_start", "time_scale", "traffic_scale"}));
  EXPECT_EQ(workload_keys("--jobs " + kExamples + "jobs-small.toml"),
            (Keys{"estimate_error", "jobs", "mode", "sha256"}));
  EXPECT_EQ(workload_keys("--synthetic-jobs 5 --map-input-ratio 2"),
            (Keys{"estimate_error", "generator", "map_input_ratio", "mode",
                  "synthetic_interarrival", "synthetic_jobs", "traffic_scale"}));
  EXPECT_EQ(workload_keys("--generator tcds"),
            (Keys{"estimate_error", "generator", "mode", "tcds_group", "tcds_interarrival",
                  "tcds_tasks_per_job"}));
}

TEST(Provenance, ConfigFromAnOutputReproducesTheRun) {
  ExpectReproduced("run --system duopoly --synthetic-jobs 25 --seed 3 --slots 3");
  ExpectReproduced("run --jobs " + kExamples + "duopoly-fig2.toml --scheduler nats --slots 3");
  ExpectReproduced("run --trace " + kExamples + "tiny.trace --mode network --network aalo");
  ExpectReproduced("run --trace " + kExamples + "tiny.trace --mode network --servers 30");
  ExpectReproduced("run --jobs " + kExamples + "jobs-small.toml --mode network --seed 5");
  ExpectReproduced(
      "run --generator flows --flows 200 --servers 20 --slots 50 --topology two-tier "
      "--scheduler neat --network srpt --seed 2");
  ExpectReproduced("run --generator tcds --tcds-group 2 --scheduler tcds --topology two-tier");
  ExpectReproduced(
      "run --set workload.generator=tcds --set workload.tcds_interarrival=500ms "
      "--set workload.tcds_tasks_per_job=3 --seed 4");
}

TEST(Provenance, ASummaryWithoutASetUpIsRefused) {
  const fs::path bad = WriteFile("old_summary.json", "{\"scheduler\": \"greedy\"}\n");
  const Result r = Slotflow("run --config " + bad.string());
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find(bad.string()), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("setup"), std::string::npos) << r.err;
  const fs::path broken = WriteFile("broken.json", "{\n\"setup\": {\n");
  const Result b = Slotflow("run --config " + broken.string());
  EXPECT_EQ(b.exit_code, 2);
  EXPECT_NE(b.err.find(broken.string() + ":3"), std::string::npos) << b.err;
}

// A system preset < config file < flags, for every key including the policies, whatever the
// order in which the file or the command line gives them.
std::string PolicyIn(const fs::path& out, const char* table) {
  return Summary(out)[table].get<std::string>();
}

TEST(Precedence, ConfigFilePolicyOverridesTheSystemPreset) {
  const fs::path cfg =
      WriteFile("policy.toml", "system = \"duopoly\"\n[scheduler]\npolicy = \"greedy\"\n");
  const fs::path out = TempDir("prec_cfg");
  const Result r = Slotflow("run --quiet --synthetic-jobs 10 --config " + cfg.string() + " --out " +
                            out.string());
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(PolicyIn(out, "scheduler"), "greedy");
  EXPECT_EQ(PolicyIn(out, "network"), "cans");  // the preset's, with its settings
  EXPECT_EQ(Summary(out)["settings"]["network.queues"], "8");
  // A system given by flag is a preset too: the file's policy still wins.
  const fs::path cfg2 = WriteFile("net.toml", "[network]\npolicy = \"fair\"\n");
  const fs::path out2 = TempDir("prec_flag_system");
  ASSERT_EQ(Slotflow("run --quiet --synthetic-jobs 10 --system duopoly --config " + cfg2.string() +
                     " --out " + out2.string())
                .exit_code,
            0);
  EXPECT_EQ(PolicyIn(out2, "scheduler"), "nats");
  EXPECT_EQ(PolicyIn(out2, "network"), "fair");
  EXPECT_EQ(Summary(out2)["settings"]["scheduler.monitor_interval"], "100ms");
}

TEST(Precedence, FlagsOverrideTheConfigFileAndSettingsFollowThePolicyInForce) {
  const fs::path cfg = WriteFile("order.toml",
                                 "system = \"duopoly\"\n[scheduler]\norder = \"fifo\"\n"
                                 "policy = \"greedy\"\n");
  const fs::path out = TempDir("prec_flags");
  ASSERT_EQ(Slotflow("run --quiet --synthetic-jobs 10 --config " + cfg.string() +
                     " --scheduler nats --out " + out.string())
                .exit_code,
            0);
  const nlohmann::json j = Summary(out);
  EXPECT_EQ(j["scheduler"], "nats");
  EXPECT_EQ(j["settings"]["scheduler.order"], "fifo");              // the file over the preset
  EXPECT_EQ(j["settings"]["scheduler.monitor_interval"], "100ms");  // the preset's, nats again
}

// A scheduler that replaces the system's keeps the preset's settings it declares (the system's
// SJF order: Duopoly §6.3 runs every system in SJF order) and drops those it does not (nats'
// monitor interval).
TEST(Precedence, AReplacingPolicyKeepsThePresetSettingsItDeclares) {
  const fs::path out = TempDir("prec_replace");
  ASSERT_EQ(Slotflow("run --quiet --synthetic-jobs 10 --system duopoly-IF --set "
                     "scheduler.policy=random --out " +
                     out.string())
                .exit_code,
            0);
  const nlohmann::json j = Summary(out);
  EXPECT_EQ(j["scheduler"], "random");
  EXPECT_EQ(j["settings"]["scheduler.order"], "sjf");
  EXPECT_EQ(j["settings"]["network.queues"], "unlimited");
  const fs::path nats = TempDir("prec_replace_nats");
  ASSERT_EQ(Slotflow("run --quiet --synthetic-jobs 10 --system duopoly --scheduler greedy --out " +
                     nats.string())
                .exit_code,
            0);
  const nlohmann::json k = Summary(nats);
  EXPECT_EQ(k["settings"]["scheduler.order"], "sjf");
  EXPECT_FALSE(k["settings"].contains("scheduler.monitor_interval"));
}

TEST(Precedence, ACombinationThatCannotBeHonouredNamesBothSources) {
  const fs::path cfg = WriteFile("queues.toml", "[network]\nqueues = 4\n");
  const Result r = Slotflow(
      "run --quiet --synthetic-jobs 10 --system duopoly --network fair "
      "--config " +
      cfg.string());
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find(cfg.string() + ":2"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("network.queues"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("--network"), std::string::npos) << r.err;
}

TEST(Precedence, ConfigClusterOverridesAJobFilesClusterAndFlagsOverrideBoth) {
  const fs::path cfg = WriteFile("slots.toml", "[cluster]\nslots = 3\n");
  const fs::path a = TempDir("prec_cluster_a"), b = TempDir("prec_cluster_b");
  const std::string jobs = " --jobs " + kExamples + "duopoly-fig2.toml --quiet ";
  ASSERT_EQ(Slotflow("run" + jobs + "--config " + cfg.string() + " --out " + a.string()).exit_code,
            0);
  EXPECT_EQ(Summary(a)["setup"]["cluster"]["class"][0]["slots"], 3);
  ASSERT_EQ(Slotflow("run" + jobs + "--config " + cfg.string() + " --slots 5 --out " + b.string())
                .exit_code,
            0);
  EXPECT_EQ(Summary(b)["setup"]["cluster"]["class"][0]["slots"], 5);
}

// Entries of a comparison are what is compared: each system's policies replace those a base
// config names, and a system named by flag that nothing of would run is refused.
TEST(Precedence, CompareEntriesReplaceTheBasesPolicies) {
  const fs::path a = TempDir("cmp_base"), b = TempDir("cmp_entries");
  ASSERT_EQ(
      Slotflow("run --quiet --synthetic-jobs 10 --system duopoly --out " + a.string()).exit_code,
      0);
  const Result r = Slotflow("compare --quiet --config " + (a / "setup.toml").string() +
                            " --system duopoly,aalo --out " + b.string());
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(Summary(b / "duopoly")["scheduler"], "nats");
  EXPECT_EQ(Summary(b / "aalo")["scheduler"], "greedy");
  EXPECT_EQ(Summary(b / "aalo")["network"], "aalo");
  const Result refused =
      Slotflow("run --quiet --config " + (a / "setup.toml").string() + " --system aalo");
  EXPECT_EQ(refused.exit_code, 2) << refused.err;
  EXPECT_NE(refused.err.find("system 'aalo'"), std::string::npos) << refused.err;
  EXPECT_NE(refused.err.find((a / "setup.toml").string()), std::string::npos) << refused.err;
}

// Network mode pins a job file's tasks at random from the seed: every seed of a comparison
// prepares its own, so each seed's set-up repeats that seed's run.
TEST(Provenance, EachSeedOfANetworkModeComparisonRepeats) {
  const fs::path out = TempDir("cmp_net"), again = TempDir("cmp_net_again");
  ASSERT_EQ(
      Slotflow("compare --quiet --jobs " + kExamples +
               "jobs-small.toml --mode network --network fair,aalo --seeds 3 --out " + out.string())
          .exit_code,
      0);
  for (const char* seed : {"seed-1", "seed-3"}) {
    const fs::path run = out / "aalo" / seed;
    ASSERT_EQ(Slotflow("run --quiet --config " + (run / "setup.toml").string() + " --out " +
                       again.string())
                  .exit_code,
              0);
    EXPECT_EQ(Slurp(run / "jobs.csv"), Slurp(again / "jobs.csv")) << seed;
    EXPECT_EQ(Slurp(run / "tasks.csv"), Slurp(again / "tasks.csv")) << seed;
  }
}

}  // namespace
