// End-to-end tests of the `slotflow` binary as a user runs it: exit codes, error messages that
// name the file, line and field, the files --out writes, and byte-identical reruns.
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>

#include "cli/cli_helpers.h"

namespace {

namespace fs = std::filesystem;
using namespace slotflow_test;

const std::string kExamples = std::string(SLOTFLOW_SOURCE_DIR) + "/examples/";

TEST(Cli, DefaultRunSucceedsAndPrintsASummaryTable) {
  const Result r = Slotflow("run --synthetic-jobs 30");
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("JCT  mean"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("jobs       30"), std::string::npos) << r.out;
}

TEST(Cli, HelpExplainsEveryFlag) {
  const Result r = Slotflow("run --help");
  EXPECT_EQ(r.exit_code, 0);
  for (const char* flag :
       {"--trace", "--jobs", "--mode", "--config", "--scheduler", "--network", "--order",
        "--queues", "--servers", "--slots", "--nic", "--topology", "--seed", "--out"}) {
    EXPECT_NE(r.out.find(flag), std::string::npos) << flag;
  }
}

// The default of --map-input-ratio is no ratio but the balanced rule (Duopoly §6.1,
// api/job.h MapInputPerTask), as the meaning of workload.map_input_ratio says.
TEST(Cli, HelpGivesTheMapInputRatiosBalancedDefault) {
  const Result r = Slotflow("run --help");
  ASSERT_EQ(r.exit_code, 0);
  const size_t at = r.out.find("--map-input-ratio");
  ASSERT_NE(at, std::string::npos);
  const std::string help = r.out.substr(at, r.out.find("\n  -", at) - at);
  EXPECT_NE(help.find("default balanced"), std::string::npos) << help;
  EXPECT_EQ(help.find("default 1"), std::string::npos) << help;
}

TEST(Cli, OutWritesSummaryJsonAndJobsCsv) {
  const fs::path out = TempDir("outputs");
  const Result r = Slotflow("run --synthetic-jobs 20 --quiet --out " + out.string());
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_TRUE(r.out.empty()) << "--quiet prints no table";
  const auto summary = nlohmann::json::parse(Slurp(out / "summary.json"));
  for (const char* key : {"jobs", "mean_jct_s", "p50_jct_s", "p95_jct_s", "p99_jct_s", "max_jct_s",
                          "events", "wall_s"}) {
    EXPECT_TRUE(summary.contains(key)) << key;
  }
  EXPECT_EQ(summary["jobs"], 20);
  const std::string csv = Slurp(out / "jobs.csv");
  EXPECT_EQ(csv.rfind("job,submit_s,first_start_s,finish_s,jct_s,bytes,", 0), 0u)
      << csv.substr(0, 80);
  EXPECT_EQ(std::count(csv.begin(), csv.end(), '\n'), 21);
}

TEST(Cli, SameSeedGivesByteIdenticalOutputsAndAnotherSeedDiffers) {
  auto run = [](const std::string& name, int seed) {
    const fs::path out = TempDir(name);
    const Result r = Slotflow("run --synthetic-jobs 60 --quiet --seed " + std::to_string(seed) +
                              " --out " + out.string());
    EXPECT_EQ(r.exit_code, 0) << r.err;
    auto summary = nlohmann::json::parse(Slurp(out / "summary.json"));
    summary.erase("wall_s");
    summary.erase("command_line");  // names the --out directory
    return std::make_pair(summary.dump(), Slurp(out / "jobs.csv"));
  };
  const auto a = run("det_a", 7), b = run("det_b", 7), c = run("det_c", 8);
  EXPECT_EQ(a.first, b.first);
  EXPECT_EQ(a.second, b.second);
  EXPECT_NE(a.second, c.second);
}

// The tcds generator from a config file: the same seed gives the same jobs.csv and tasks.csv
// byte for byte under every scheduler of its evaluation, another seed other jobs.
TEST(Cli, TcdsGeneratorIsDeterministicPerSeed) {
  const fs::path cfg = WriteFile("tcds.toml",
                                 "[workload]\ngenerator = \"tcds\"\ntcds_group = 4\n"
                                 "[cluster]\ntopology = \"two-tier\"\nslots = 2\n");
  auto run = [&](const std::string& name, const std::string& scheduler, int seed) {
    const fs::path out = TempDir(name);
    const Result r = Slotflow("run --quiet --config " + cfg.string() + " --scheduler " + scheduler +
                              " --seed " + std::to_string(seed) + " --out " + out.string());
    EXPECT_EQ(r.exit_code, 0) << r.err;
    return Slurp(out / "jobs.csv") + Slurp(out / "tasks.csv");
  };
  for (const std::string scheduler : {"fifo", "delay", "tcds"}) {
    const std::string a = run("tcds_a", scheduler, 3);
    EXPECT_EQ(a, run("tcds_b", scheduler, 3)) << scheduler;
    EXPECT_NE(a, run("tcds_c", scheduler, 4)) << scheduler;
    EXPECT_NE(a.find("very-short-1,"), std::string::npos) << scheduler;
  }
}

TEST(Cli, JobFileExampleReproducesDuopolyFig2WithGreedyPlacement) {
  const fs::path out = TempDir("fig2");
  const Result r =
      Slotflow("run --jobs " + kExamples + "duopoly-fig2.toml --quiet --out " + out.string());
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const std::string csv = Slurp(out / "jobs.csv");
  EXPECT_NE(csv.find("\nA,0,0,5,5,"), std::string::npos) << csv;
  EXPECT_NE(csv.find("\nB,2,5,6,4,"), std::string::npos) << csv;
}

struct BadInput {
  const char* name;
  std::string args;
  std::vector<std::string> message_parts;
};

// Readable parameter names in test listings.
void PrintTo(const BadInput& c, std::ostream* os) { *os << c.name; }

class CliBadInput : public ::testing::TestWithParam<BadInput> {};

TEST_P(CliBadInput, FailsWithAClearMessageAndNonZeroExit) {
  const BadInput& c = GetParam();
  const Result r = Slotflow(c.args);
  EXPECT_EQ(r.exit_code, 2) << "every input error exits with 2: " << r.err;
  for (const std::string& part : c.message_parts) {
    EXPECT_NE(r.err.find(part), std::string::npos) << "missing '" << part << "' in: " << r.err;
  }
}

TEST(Cli, SettingsComeFromTheConfigFileAndFlagsAndAreRecorded) {
  const fs::path config = WriteFile("settings.toml",
                                    "seed = 3\n"
                                    "[scheduler]\npolicy = \"nats\"\nmonitor_interval = \"50ms\"\n"
                                    "[network]\npolicy = \"cans\"\nqueues = 4\n");
  const fs::path out = TempDir("settings_out");
  const Result r =
      Slotflow("run --synthetic-jobs 20 --quiet --config " + config.string() +
               " --set network.queues=unlimited --set scheduler.order=sjf --out " + out.string());
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto j = nlohmann::json::parse(Slurp(out / "summary.json"));
  EXPECT_EQ(j["scheduler"], "nats");
  EXPECT_EQ(j["network"], "cans");
  EXPECT_EQ(j["seed"], 3);
  EXPECT_EQ(j["settings"]["scheduler.monitor_interval"], "50ms");
  EXPECT_EQ(j["settings"]["scheduler.order"], "sjf");
  EXPECT_EQ(j["settings"]["scheduler.congestion_threshold"], "0.8");  // a default
  EXPECT_EQ(j["settings"]["network.queues"], "unlimited");            // the flag wins
  EXPECT_EQ(j["settings"]["network.priority"], "by-mode");
}

TEST(Cli, AConfigSettingUnknownToThePolicyNamesTheFileAndLine) {
  const fs::path config =
      WriteFile("bad_setting.toml", "[network]\npolicy = \"tcf\"\nfirst_treshold = \"1MB\"\n");
  const Result r = Slotflow("run --quiet --config " + config.string());
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find(config.string() + ":3"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("network.first_treshold"), std::string::npos) << r.err;
}

TEST(Cli, ASystemIsAPresetThatFlagsOverride) {
  const fs::path out = TempDir("system_out");
  const Result r = Slotflow("run --jobs " + kExamples +
                            "duopoly-fig2.toml --system duopoly-IA --set network.queues=3 "
                            "--quiet --out " +
                            out.string());
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto j = nlohmann::json::parse(Slurp(out / "summary.json"));
  EXPECT_EQ(j["system"], "duopoly-IA");
  EXPECT_EQ(j["settings"]["scheduler.mode_signal"], "all-ready");
  EXPECT_EQ(j["settings"]["scheduler.order"], "sjf");
  EXPECT_EQ(j["settings"]["network.queues"], "3");
}

TEST(Cli, PoliciesNameListsSettingsWithDefaults) {
  const Result r = Slotflow("policies aalo");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("network.queues"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("10MiB"), std::string::npos) << r.out;
  const Result sys = Slotflow("policies duopoly");
  ASSERT_EQ(sys.exit_code, 0) << sys.err;
  EXPECT_NE(sys.out.find("network.queues = 8"), std::string::npos) << sys.out;
}

// Generators are listed and described as policies are, their settings under workload.
TEST(Cli, PoliciesListsTheGeneratorsAndTheirSettings) {
  const Result r = Slotflow("policies");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const size_t generators = r.out.find("workload generators (--generator):\n");
  ASSERT_NE(generators, std::string::npos) << r.out;
  for (const char* name : {"  flows ", "  synthetic ", "  tcds "}) {
    EXPECT_NE(r.out.find(name, generators), std::string::npos) << name;
  }
  const Result flows = Slotflow("policies flows");
  ASSERT_EQ(flows.exit_code, 0) << flows.err;
  EXPECT_NE(flows.out.find("workload generator flows: "), std::string::npos) << flows.out;
  EXPECT_NE(flows.out.find("workload.flow_load"), std::string::npos) << flows.out;
  // A scheduler and a generator of one name: both are described.
  const Result tcds = Slotflow("policies tcds");
  EXPECT_NE(tcds.out.find("task scheduler tcds: "), std::string::npos) << tcds.out;
  EXPECT_NE(tcds.out.find("workload.tcds_group"), std::string::npos) << tcds.out;
}

// `--set workload.KEY=VALUE` sets what the shorthand flags and [workload] tables set, and wins
// over a shorthand flag given with it.
TEST(Cli, SetWorkloadIsWhatTheShorthandFlagsSet) {
  auto jobs = [](const std::string& name, const std::string& args) {
    const fs::path out = TempDir(name);
    const Result r = Slotflow("run --quiet " + args + " --out " + out.string());
    EXPECT_EQ(r.exit_code, 0) << r.err;
    return Slurp(out / "jobs.csv");
  };
  const std::string flags = jobs("flags", "--generator tcds --tcds-group 2");
  EXPECT_EQ(flags, jobs("set", "--set workload.generator=tcds --set workload.tcds_group=2"));
  EXPECT_EQ(flags, jobs("both", "--generator tcds --tcds-group 3 --set workload.tcds_group=2"));
  EXPECT_NE(flags, jobs("other", "--generator tcds --tcds-group 3"));
}

TEST(Cli, CompareAppliesASettingOnlyWherePoliciesDeclareIt) {
  const Result r =
      Slotflow("compare --synthetic-jobs 20 --threads 1 --network fair,tcf --queues 4");
  EXPECT_EQ(r.exit_code, 0) << r.err;
  const Result bad =
      Slotflow("compare --synthetic-jobs 20 --threads 1 --network fair,tcf --set network.nope=4");
  EXPECT_EQ(bad.exit_code, 2);
  EXPECT_NE(bad.err.find("--set network.nope"), std::string::npos) << bad.err;
}

// --seeds N: every entry at seeds 1..N; per-seed rows in compare.csv that do not depend on the
// thread count (apart from the wall time), a seed-1 row equal to a plain run at --seed 1, and
// the mean ± CI table.
TEST(Cli, CompareOverSeedsIsDeterministicAndPerSeed) {
  const fs::path one = TempDir("seeds_one"), two = TempDir("seeds_two"), plain = TempDir("plain");
  const std::string args = "compare --synthetic-jobs 30 --system duopoly,aalo --seeds 3";
  const Result a = Slotflow(args + " --threads 1 --out " + one.string());
  const Result b = Slotflow(args + " --threads 2 --out " + two.string());
  ASSERT_EQ(a.exit_code, 0) << a.err;
  ASSERT_EQ(b.exit_code, 0) << b.err;
  EXPECT_NE(a.out.find(" ± "), std::string::npos) << a.out;
  auto without_wall = [](std::string csv) {
    std::string out;
    std::istringstream in(csv);
    for (std::string line; std::getline(in, line);) out += line.substr(0, line.rfind(',')) + "\n";
    return out;
  };
  const std::string csv = without_wall(Slurp(one / "compare.csv"));
  EXPECT_EQ(csv, without_wall(Slurp(two / "compare.csv")));
  EXPECT_EQ(std::count(csv.begin(), csv.end(), '\n'), 7);  // header + 2 entries x 3 seeds
  EXPECT_TRUE(fs::exists(one / "aalo" / "seed-3" / "jobs.csv"));
  EXPECT_TRUE(fs::exists(one / "compare_summary.csv"));
  const Result p = Slotflow("compare --synthetic-jobs 30 --system duopoly,aalo --seed 2 --out " +
                            plain.string());
  ASSERT_EQ(p.exit_code, 0) << p.err;
  EXPECT_EQ(Slurp(plain / "aalo" / "jobs.csv"), Slurp(one / "aalo" / "seed-2" / "jobs.csv"));
  const Result both = Slotflow("compare --synthetic-jobs 5 --seeds 2 --seed 3");
  EXPECT_EQ(both.exit_code, 2);
  EXPECT_NE(both.err.find("--seeds"), std::string::npos) << both.err;
}

TEST(Cli, ConfigIntegersAreRangeCheckedNotNarrowed) {
  const fs::path config = WriteFile("narrow.toml", "[workload]\nsynthetic_jobs = 4294967297\n");
  const Result r = Slotflow("run --config " + config.string());
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find(config.string() + ":2"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("workload.synthetic_jobs"), std::string::npos) << r.err;
}

// Run as an unprivileged user (nobody, through util-linux's setpriv when the tests run as root).
TEST(Cli, TestbedNeedsRootAndSaysSo) {
  const std::string as_user =
      geteuid() == 0 ? "setpriv --reuid=65534 --regid=65534 --clear-groups " : "";
  for (const char* action : {"up --hosts 3", "down", "status"}) {
    const fs::path dir = TempDir("testbed");
    const std::string cmd =
        as_user + SLOTFLOW_BINARY + " testbed " + action + " 2>" + (dir / "err").string();
    const int status = std::system(cmd.c_str());
    EXPECT_EQ(WIFEXITED(status) ? WEXITSTATUS(status) : -1, 2) << action;
    EXPECT_NE(Slurp(dir / "err").find("needs root"), std::string::npos) << Slurp(dir / "err");
  }
}

TEST(Cli, LiveAndAgentRejectBadInputNamingTheFlag) {
  const Result rate = Slotflow("live --hosts 3 --rate fast");
  EXPECT_EQ(rate.exit_code, 2);
  EXPECT_NE(rate.err.find("--rate"), std::string::npos) << rate.err;
  const Result both = Slotflow("live --hosts 3 --servers 4");
  EXPECT_EQ(both.exit_code, 2);
  EXPECT_NE(both.err.find("--hosts"), std::string::npos) << both.err;
  const Result master = Slotflow("agent --host 0 --master nowhere");
  EXPECT_EQ(master.exit_code, 2);
  EXPECT_NE(master.err.find("--master"), std::string::npos) << master.err;
  // Port 1 on loopback: nothing listens there.
  const Result unreachable =
      Slotflow("agent --host 0 --master 127.0.0.1:1 --connect-timeout 200ms");
  EXPECT_EQ(unreachable.exit_code, 2);
  EXPECT_NE(unreachable.err.find("cannot reach the master at 127.0.0.1:1"), std::string::npos)
      << unreachable.err;

  const std::string as_user =
      geteuid() == 0 ? "setpriv --reuid=65534 --regid=65534 --clear-groups " : "";
  const fs::path dir = TempDir("live");
  const std::string cmd =
      as_user + SLOTFLOW_BINARY + " live --hosts 2 --synthetic-jobs 1 2>" + (dir / "err").string();
  const int status = std::system(cmd.c_str());
  EXPECT_EQ(WIFEXITED(status) ? WEXITSTATUS(status) : -1, 2);
  EXPECT_NE(Slurp(dir / "err").find("needs root"), std::string::npos) << Slurp(dir / "err");
}

TEST(Cli, JobNamesAreQuotedInCsv) {
  const fs::path jobs =
      WriteFile("names.toml", "[[job]]\nname = \"a, \\\"b\\\"\\nc\"\n[[job.stage]]\ntasks = 1\n");
  const fs::path out = TempDir("names_out");
  const Result r = Slotflow("run --quiet --jobs " + jobs.string() + " --out " + out.string());
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const std::string csv = Slurp(out / "jobs.csv");
  EXPECT_NE(csv.find("\n\"a, \"\"b\"\"\nc\","), std::string::npos) << csv;
}

const fs::path kHugePorts = fs::path(SLOTFLOW_SOURCE_DIR) / "tests/hostile/files/huge_ports.trace";

std::vector<BadInput> BadInputs() {
  const fs::path bad_trace = WriteFile("bad.trace", "3 2\n1 0 1 0 1 1:5.0\n2 100 1 0 1 2:abc\n");
  const fs::path negative_trace = WriteFile("neg.trace", "3 1\n1 -5 1 0 1 1:5.0\n");
  const fs::path bad_jobs =
      WriteFile("bad.toml", "[[job]]\nname = \"x\"\n[[job.stage]]\ntasks = 2\ninput = \"-3MB\"\n");
  const fs::path bad_config = WriteFile("bad_config.toml", "[cluster]\nservers = 4\nslotz = 2\n");
  return {
      {"UnknownScheduler", "run --scheduler nope", {"scheduler", "unknown name 'nope'", "greedy"}},
      {"UnknownNetworkPolicy", "run --network nope", {"network", "unknown name 'nope'", "fair"}},
      {"UnknownMode", "run --mode both", {"--mode", "both"}},
      {"UnknownOrder", "run --order lifo", {"--order", "lifo"}},
      {"MissingTrace",
       "run --trace /nonexistent/trace.txt",
       {"/nonexistent/trace.txt", "cannot open"}},
      {"MissingJobFile", "run --jobs /nonexistent/jobs.toml", {"/nonexistent/jobs.toml"}},
      {"MalformedTraceLine",
       "run --trace " + bad_trace.string(),
       {bad_trace.string() + ":3", "shuffle size"}},
      {"NegativeTraceTime",
       "run --trace " + negative_trace.string(),
       {negative_trace.string() + ":2", "arrival"}},
      {"NegativeJobSize", "run --jobs " + bad_jobs.string(), {bad_jobs.string() + ":5", "input"}},
      {"UnknownConfigKey",
       "run --config " + bad_config.string(),
       {bad_config.string() + ":3", "slotz"}},
      {"ZeroSlots", "run --slots 0", {"slots", "0 compute slots"}},
      {"BadRate", "run --nic fast", {"--nic", "fast"}},
      {"BadTopology", "run --topology ring", {"--topology", "ring"}},
      {"BadQueues", "run --queues -2", {"--queues"}},
      {"UnknownSettingForPolicy",
       "run --network fair --set network.queues=4",
       {"--set network.queues", "unknown setting 'queues'", "network policy 'fair'"}},
      {"SettingOutOfRange",
       "run --scheduler nats --set scheduler.congestion_threshold=1.5",
       {"--set scheduler.congestion_threshold", "out of range"}},
      {"SettingWithoutValue", "run --set network.queues", {"--set", "KEY=VALUE"}},
      {"SettingOfNoTable", "run --set queues=4", {"--set queues", "scheduler.KEY"}},
      {"WorkloadSettingOutOfRange",
       "run --generator tcds --set workload.tcds_group=9",
       {"--set workload.tcds_group", "out of range"}},
      {"UnknownWorkloadSetting", "run --set workload.tcds_groups=2", {"--set workload", "unknown"}},
      {"UnknownGenerator", "run --generator nope", {"--generator", "nope", "synthetic"}},
      {"BadSeed", "run --seed -1", {"--seed", "-1"}},
      {"UnknownPolicyToDescribe", "policies nope", {"NAME", "nope"}},
      {"EmptyTraceName", "run --trace ''", {"--trace", "empty"}},
      {"EmptyConfigName", "run --config ''", {"--config", "empty"}},
      {"ConfigIsADirectory", "run --config " + kExamples, {kExamples, "directory"}},
      {"TraceIsADevice", "run --trace /dev/zero", {"/dev/zero", "not a regular file"}},
      {"FractionalServers", "run --servers 3.5", {"--servers"}},
      {"WordForSeed", "run --seed abc", {"--seed", "abc"}},
      {"UnknownFlag", "run --serverz 3", {"--serverz"}},
      {"InfiniteCpuSpeed", "run --cpu-speed inf", {"--cpu-speed", "finite"}},
      {"InfiniteOversubscription", "run --oversubscription inf", {"oversubscription"}},
      {"EstimateErrorAboveOne", "run --estimate-error 1.5", {"--estimate-error", "out of range"}},
      {"EstimateErrorNaN", "run --estimate-error nan", {"--estimate-error"}},
      {"ZeroTrafficScale", "run --traffic-scale 0", {"--traffic-scale", "out of range"}},
      {"HugeSyntheticJobs", "run --synthetic-jobs 4294967297", {"--synthetic-jobs"}},
      {"TooManyServers", "run --servers 2000000000", {"--servers", "[1, 100000]"}},
      {"TooManyServersFromTheTrace",
       "run --mode network --trace " + kHugePorts.string(),
       {"cluster.servers", "limit is 100000"}},
      {"TooManyQueues", "run --network tcf --queues 1000000000", {"--queues"}},
      {"ZeroMultiplier",
       "run --network tcf --set network.multiplier=0",
       {"--set network.multiplier", "out of range"}},
      {"InfiniteThreshold",
       "run --network las --set network.first_threshold=inf",
       {"--set network.first_threshold"}},
      {"EmptyCompareList", "compare --network ,", {"--scheduler/--network", "empty"}},
      {"NoProgress", "run --synthetic-jobs 5 --nic 1e-300", {"never finished"}},
      // nats' 100 ms tick would otherwise beat ~10^13 times before the time limit.
      {"NoProgressUnderATick",
       "run --system duopoly --synthetic-jobs 5 --nic 1e-300",
       {"never finished", "no event could make progress"}},
      {"TooFewServersForTrace",
       "run --mode network --servers 10 --trace " + std::string(SLOTFLOW_SOURCE_DIR) +
           "/examples/tiny.trace",
       {"--servers"}},
      {"TraceAndJobs", "run --trace a --jobs b", {"not both"}},
      {"TestbedZeroHosts", "testbed up --hosts 0", {"--hosts", "1..254"}},
      {"TestbedTooManyHosts", "testbed up --hosts 300", {"--hosts", "1..254", "300"}},
      {"TestbedWordForHosts", "testbed up --hosts many", {"--hosts"}},
      {"TestbedNoHosts", "testbed up", {"--hosts", "required"}},
      {"TestbedBadRate", "testbed up --hosts 3 --rate fast", {"--rate", "fast"}},
      {"TestbedRateTooHigh", "testbed up --hosts 3 --rate 100gbit", {"--rate", "10gbit"}},
      {"TestbedNoAction", "testbed", {"subcommand"}},
      {"TestbedPrefixWithASlash",
       "testbed down --testbed-prefix a/b",
       {"--testbed-prefix", "lowercase letters or digits", "'a/b'"}},
      {"TestbedPrefixInCapitals",
       "testbed status --testbed-prefix SF",
       {"--testbed-prefix", "'SF'"}},
      {"TestbedPrefixTooLong",
       "testbed up --hosts 2 --testbed-prefix abcdefghijklm",
       {"--testbed-prefix", "1 to 12"}},
      {"LivePrefixEmpty", "live --hosts 2 --testbed-prefix ''", {"--testbed-prefix"}},
  };
}

INSTANTIATE_TEST_SUITE_P(Cases, CliBadInput, ::testing::ValuesIn(BadInputs()),
                         [](const auto& info) { return std::string(info.param.name); });

}  // namespace
