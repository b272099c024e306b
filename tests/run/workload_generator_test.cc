// A workload generator is added by one file: this one is registered here, inside the test, and
// is usable through the run API ([workload] tables, --set workload.KEY), written into the
// set-up that reproduces a run, and listed beside the built-in generators.
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <sstream>
#include <string>
#include <vector>

#include "api/error.h"
#include "run/catalogue.h"
#include "run/config_file.h"
#include "run/execute.h"
#include "run/prepare.h"
#include "run/run_spec.h"
#include "run/setup.h"
#include "api/generator.h"

namespace slotflow {
namespace {

std::vector<SettingSpec> ChainSettings() {
  return {{.name = "chain_jobs",
           .kind = SettingKind::kInteger,
           .default_value = "3",
           .meaning = "jobs, one a second",
           .min = 1,
           .max = 100,
           .choices = {}},
          {.name = "chain_input",
           .kind = SettingKind::kBytes,
           .default_value = "1MiB",
           .meaning = "the input of each job's one map task",
           .min = 0,
           .max = 1e12,
           .min_exclusive = true,
           .choices = {}}};
}

// `chain_jobs` map-only jobs of one task each, one a second, plus one job per server of the
// cluster it is given (so the test sees the settled cluster reach the generator).
class ChainGenerator : public WorkloadGenerator {
 public:
  explicit ChainGenerator(const PolicyArgs& args)
      : jobs_(static_cast<int>(args.settings.Integer("chain_jobs"))),
        input_(args.settings.Number("chain_input")) {}

  GeneratedWorkload Generate(const GeneratorInput& in) const override {
    Workload w;
    w.source = "chain";
    const int total = jobs_ + in.cluster.ServerCount();
    for (int i = 0; i < total; ++i) {
      w.jobs.push_back(MakeMapReduceJob(fmt::format("chain-{}", i + 1), i, 1, input_, {}));
    }
    return {std::move(w), fmt::format("chain(jobs={})", jobs_), ""};
  }

 private:
  int jobs_;
  Bytes input_;
};

SLOTFLOW_REGISTER_GENERATOR("test-chain", "map-only jobs one a second (a test's own generator)",
                            ChainSettings(), ChainGenerator);

RunSpec FromConfig(const std::string& text, const std::string& name = "chain.toml") {
  RunSpec spec;
  ApplyConfigText(text, name, spec);
  return spec;
}

TEST(WorkloadGenerator, ARegisteredGeneratorRunsFromAConfigTable) {
  const RunResult r =
      Execute(FromConfig("seed = 3\n[cluster]\nservers = 4\n[workload]\ngenerator = "
                         "\"test-chain\"\nchain_jobs = 5\n"));
  EXPECT_EQ(r.summary.jobs, 9);  // 5 + one per server
  EXPECT_EQ(r.summary.unfinished_jobs, 0);
  EXPECT_EQ(r.summary.workload, "chain(jobs=5)");
}

TEST(WorkloadGenerator, SetFlagsSelectItAndSetItsSettings) {
  RunSpec spec = FromConfig("[cluster]\nservers = 2\n");
  ApplyAssignment(spec, "workload.generator=test-chain", "--set");
  ApplyAssignment(spec, "workload.chain_jobs=4", "--set");
  ApplyAssignment(spec, "workload.chain_jobs=2", "--set");  // the later value wins
  const PreparedRun run = Prepare(spec);
  EXPECT_EQ(run.workload.jobs.size(), 4u);
  EXPECT_EQ(run.workload_name, "chain(jobs=2)");
}

// The set-up of a run names the generator and holds its settings, and reads back the same.
TEST(WorkloadGenerator, TheSetUpHoldsItsSettingsAndReadsBack) {
  const RunSpec spec = FromConfig(
      "[cluster]\nservers = 2\n[workload]\ngenerator = \"test-chain\"\nchain_input = \"2MiB\"\n");
  const std::string setup = SetupToml(spec, Prepare(spec));
  EXPECT_NE(setup.find("generator = \"test-chain\""), std::string::npos) << setup;
  EXPECT_NE(setup.find("chain_jobs = 3"), std::string::npos) << setup;
  EXPECT_NE(setup.find("chain_input = 2097152.0"), std::string::npos) << setup;
  const RunSpec again = FromConfig(setup, "setup.toml");
  EXPECT_EQ(SetupToml(again, Prepare(again)), setup);
}

TEST(WorkloadGenerator, IsListedWithItsSettings) {
  std::ostringstream list, one;
  ListPolicies(list);
  const std::string text = list.str();
  const size_t generators = text.find("workload generators (--generator):\n");
  ASSERT_NE(generators, std::string::npos) << text;
  EXPECT_NE(text.find("  test-chain     map-only jobs one a second", generators), std::string::npos)
      << text;
  DescribePolicy("test-chain", one);
  EXPECT_NE(one.str().find("workload generator test-chain: "), std::string::npos) << one.str();
  EXPECT_NE(one.str().find("workload.chain_jobs"), std::string::npos) << one.str();
  EXPECT_NE(one.str().find("workload.chain_input"), std::string::npos) << one.str();
}

// A bad value is reported where it was given, under its key, before anything runs.
TEST(WorkloadGenerator, BadValuesNameTheirSourceAndField) {
  try {
    FromConfig("[workload]\ngenerator = \"test-chain\"\nchain_jobs = 0\n", "bad.toml");
    FAIL() << "chain_jobs = 0 was taken";
  } catch (const InputError& e) {
    EXPECT_EQ(e.file(), "bad.toml");
    EXPECT_EQ(e.line(), 3);
    EXPECT_EQ(e.field(), "workload.chain_jobs");
    EXPECT_NE(e.message().find("out of range"), std::string::npos) << e.message();
  }
  RunSpec spec;
  try {
    ApplyAssignment(spec, "workload.chain_input=lots", "--set");
    FAIL() << "chain_input=lots was taken";
  } catch (const InputError& e) {
    EXPECT_EQ(e.field(), "--set workload.chain_input");
  }
  try {
    ApplyAssignment(spec, "workload.chain_jobz=1", "--set");
    FAIL() << "an undeclared key was taken";
  } catch (const InputError& e) {
    EXPECT_EQ(e.field(), "--set workload.chain_jobz");
    EXPECT_EQ(e.message(), "unknown key");
  }
  try {
    ApplyAssignment(spec, "workload.generator=test-chains", "--set");
    FAIL() << "an unknown generator was taken";
  } catch (const InputError& e) {
    EXPECT_EQ(e.field(), "--set workload.generator");
    EXPECT_NE(e.message().find("test-chain"), std::string::npos) << e.message();
  }
}

}  // namespace
}  // namespace slotflow
