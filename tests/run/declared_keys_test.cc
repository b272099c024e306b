// A [cluster] key is declared once (cluster/cluster_keys.h) and every front end knows it: a
// key declared only here is read from a config file, from a table built in code (as Python's
// cluster={...} is), from `--set cluster.KEY` and from a flag of its own, and is written to the
// set-up (setup.toml, summary.json).
#include <gtest/gtest.h>

#include <CLI/CLI.hpp>
#include <string>
#include <vector>

#include "api/error.h"
#include "cli/run_flags.h"
#include "cluster/cluster_keys.h"
#include "run/config_file.h"
#include "run/prepare.h"
#include "run/setup.h"

namespace slotflow {
namespace {

// A key of this test alone: it sets and reads the rack oversubscription.
class TestKey : public ::testing::Test {
 protected:
  void SetUp() override {
    DeclareClusterKey(
        ClusterKey{.setting = {.name = "test_oversub",
                               .kind = SettingKind::kNumber,
                               .default_value = "1",
                               .meaning = "a key declared by a test",
                               .min = 0,
                               .max = 100,
                               .min_exclusive = true,
                               .choices = {}},
                   .set_server = nullptr,
                   .get_server = nullptr,
                   .set = [](ClusterSpec& c, const KeyValue& v,
                             const SettingAssignment&) { c.oversubscription = v.number; },
                   .get =
                       [](const ClusterSpec& c) {
                         return KeyValue{c.oversubscription, ""};
                       }});
  }
  void TearDown() override { RemoveClusterKey("test_oversub"); }

  static RunSpec FromFlags(std::vector<std::string> args) {
    CLI::App app;
    RunFlags flags;
    AddRunFlags(app, flags);
    args.insert(args.begin(), "slotflow");
    std::vector<const char*> argv;
    for (const std::string& a : args) argv.push_back(a.c_str());
    app.parse(static_cast<int>(argv.size()), argv.data());
    return BuildSpec(flags);
  }
  static double Settled(const RunSpec& spec) {
    return Prepare(spec).cluster.spec().oversubscription;
  }
};

TEST_F(TestKey, IsReadFromAConfigFile) {
  RunSpec spec;
  ApplyConfigText("[cluster]\ntest_oversub = 2.5\n", "c.toml", spec);
  EXPECT_DOUBLE_EQ(Settled(spec), 2.5);
  RunSpec bad;
  try {
    ApplyConfigText("[cluster]\n\ntest_oversub = 0\n", "c.toml", bad);
    FAIL() << "a value out of the declared range passed";
  } catch (const InputError& e) {
    EXPECT_EQ(e.file(), "c.toml");
    EXPECT_EQ(e.line(), 3);
    EXPECT_EQ(e.field(), "cluster.test_oversub");
  }
}

TEST_F(TestKey, IsReadFromATableBuiltInCodeAsPythonBuildsIt) {
  RunSpec spec;
  toml::table cluster;
  cluster.insert("test_oversub", 4.0);
  ApplyConfigTable(toml::table{{"cluster", cluster}}, "slotflow.run()", spec);
  EXPECT_DOUBLE_EQ(Settled(spec), 4.0);
}

TEST_F(TestKey, IsSetBySetAndByAFlagOfItsOwn) {
  EXPECT_DOUBLE_EQ(Settled(FromFlags({"--set", "cluster.test_oversub=3"})), 3.0);
  EXPECT_DOUBLE_EQ(Settled(FromFlags({"--test-oversub", "5"})), 5.0);
  // --set wins over the flag, as for every shorthand.
  EXPECT_DOUBLE_EQ(Settled(FromFlags({"--set", "cluster.test_oversub=7", "--test-oversub", "5"})),
                   7.0);
  try {
    FromFlags({"--test-oversub", "-1"});
    FAIL() << "a value out of the declared range passed";
  } catch (const InputError& e) {
    EXPECT_EQ(e.field(), "--test-oversub");
  }
}

TEST_F(TestKey, IsWrittenToTheSetUpAndReadBackFromIt) {
  RunSpec spec = FromFlags({"--test-oversub", "6"});
  const PreparedRun run = Prepare(spec);
  const std::string toml = SetupToml(spec, run);
  EXPECT_NE(toml.find("test_oversub = 6"), std::string::npos) << toml;
  EXPECT_EQ(SetupJson(spec, run)["cluster"]["test_oversub"], 6.0);
  RunSpec again;
  ApplyConfigText(toml, "setup.toml", again);
  EXPECT_DOUBLE_EQ(Settled(again), 6.0);
}

TEST_F(TestKey, AnUndeclaredKeyIsRefusedEverywhere) {
  RemoveClusterKey("test_oversub");
  RunSpec spec;
  EXPECT_THROW(ApplyConfigText("[cluster]\ntest_oversub = 2\n", "c.toml", spec), InputError);
  EXPECT_THROW(FromFlags({"--set", "cluster.test_oversub=3"}), InputError);
  EXPECT_THROW(FromFlags({"--test-oversub", "5"}), CLI::ParseError);
  SetUp();  // TearDown removes it again
}

// Each built-in key's declared default is the default of a ClusterSpec: one source of truth
// for the listings and the model.
TEST(ClusterKeys, DeclaredDefaultsAreTheSpecsDefaults) {
  const ClusterSpec defaults;
  for (const ClusterKey& key : ClusterKeys()) {
    SCOPED_TRACE(key.setting.name);
    const KeyValue declared = ParseClusterValue(
        SettingAssignment{key.setting.name, key.setting.default_value, "", 0, "default"});
    ClusterSpec set = defaults;
    if (key.set_server) {
      key.set_server(set.classes[0], declared);
      EXPECT_EQ(key.get_server(set.classes[0]).number, key.get_server(defaults.classes[0]).number);
      EXPECT_EQ(key.get_server(set.classes[0]).word, key.get_server(defaults.classes[0]).word);
    } else if (key.get) {
      key.set(set, declared, {});
      EXPECT_EQ(key.get(set).number, key.get(defaults).number);
      EXPECT_EQ(key.get(set).word, key.get(defaults).word);
    } else {
      key.set(set, declared, {});
      EXPECT_EQ(set.ServerCount(), defaults.ServerCount());
    }
  }
}

}  // namespace
}  // namespace slotflow
