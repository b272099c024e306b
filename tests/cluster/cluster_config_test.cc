#include "cluster/cluster_config.h"

#include <gtest/gtest.h>
#include <toml++/toml.h>

#include <string>

#include "api/error.h"
#include "api/units.h"

namespace slotflow {
namespace {

// Parses `text` (which must contain a [cluster] table) and applies it to `spec`.
void Apply(const std::string& text, ClusterSpec& spec) {
  const toml::table root = toml::parse(text, std::string_view("cluster.toml"));
  ApplyClusterToml(*root["cluster"].as_table(), "cluster.toml", spec);
}

ClusterSpec Applied(const std::string& text) {
  ClusterSpec spec;
  Apply(text, spec);
  return spec;
}

TEST(ClusterConfig, ReadsEverySingleClassKey) {
  const ClusterSpec s = Applied(R"([cluster]
servers = 16
slots = 8
cpu_speed = 2
nic = "10Gbps"
disk = "100MB/s"
memory = "16GiB"
topology = "two-tier"
servers_per_rack = 4
oversubscription = 4.0
rack_link = 5e8
slot_rate = "200MB/s"
replicas = 2
)");
  ASSERT_EQ(s.classes.size(), 1u);
  const ServerClass& c = s.classes[0];
  EXPECT_EQ(c.count, 16);
  EXPECT_EQ(c.slots, 8);
  EXPECT_DOUBLE_EQ(c.cpu_speed, 2);
  EXPECT_DOUBLE_EQ(c.nic, 10e9 / 8);
  EXPECT_DOUBLE_EQ(c.disk, 100e6);
  EXPECT_DOUBLE_EQ(c.memory, 16 * 1024 * kMiB);
  EXPECT_EQ(s.topology, TopologyKind::kTwoTier);
  EXPECT_EQ(s.servers_per_rack, 4);
  EXPECT_DOUBLE_EQ(s.oversubscription, 4);
  EXPECT_DOUBLE_EQ(s.rack_link, 5e8);
  EXPECT_DOUBLE_EQ(s.slot_rate, 200e6);
  EXPECT_EQ(s.replicas, 2);
  EXPECT_NO_THROW(s.Validate());
}

TEST(ClusterConfig, MissingKeysKeepTheSpecValues) {
  ClusterSpec spec;
  spec.classes[0].slots = 7;
  spec.replicas = 1;
  Apply("[cluster]\nnic = 1\n", spec);
  EXPECT_EQ(spec.classes[0].slots, 7);
  EXPECT_EQ(spec.replicas, 1);
  EXPECT_DOUBLE_EQ(spec.classes[0].nic, 1);
  EXPECT_EQ(spec.classes[0].count, ClusterSpec{}.classes[0].count);
}

TEST(ClusterConfig, ClassesReplaceTheDefaultClassInOrder) {
  const ClusterSpec s = Applied(R"([cluster]
nic = 1
slots = 3
[[cluster.class]]
name = "sender"
count = 2
slots = 0
[[cluster.class]]
count = 3
cpu_speed = 0.5
nic = "1Gbps"
)");
  ASSERT_EQ(s.classes.size(), 2u);
  EXPECT_EQ(s.classes[0].name, "sender");
  EXPECT_EQ(s.classes[0].count, 2);
  EXPECT_EQ(s.classes[0].slots, 0);
  EXPECT_DOUBLE_EQ(s.classes[0].nic, 1);  // top-level default
  EXPECT_EQ(s.classes[1].name, "class1");
  EXPECT_EQ(s.classes[1].slots, 3);  // top-level default
  EXPECT_DOUBLE_EQ(s.classes[1].cpu_speed, 0.5);
  EXPECT_DOUBLE_EQ(s.classes[1].nic, 1e9 / 8);  // own value
  EXPECT_EQ(s.ServerCount(), 5);
  EXPECT_NO_THROW(s.Validate());
}

TEST(ClusterConfig, PerServerKeysApplyToEveryExistingClass) {
  ClusterSpec spec;
  spec.classes = {ServerClass{.name = "a", .count = 1}, ServerClass{.name = "b", .count = 2}};
  Apply("[cluster]\nslots = 9\n", spec);
  EXPECT_EQ(spec.classes[0].slots, 9);
  EXPECT_EQ(spec.classes[1].slots, 9);
}

TEST(ClusterConfig, ParseTopology) {
  EXPECT_EQ(ParseTopology("big-switch", "t"), TopologyKind::kBigSwitch);
  EXPECT_EQ(ParseTopology("two-tier", "t"), TopologyKind::kTwoTier);
  try {
    ParseTopology("fat-tree", "cluster.topology");
    FAIL() << "no error";
  } catch (const InputError& e) {
    EXPECT_EQ(e.field(), "cluster.topology");
    EXPECT_NE(std::string(e.what()).find("fat-tree"), std::string::npos);
  }
}

struct BadCluster {
  const char* text;
  int line;
  const char* field;
};

// Readable parameter names in test listings.
void PrintTo(const BadCluster& c, std::ostream* os) {
  *os << "line " << c.line << " field " << c.field;
}

class ClusterConfigErrors : public ::testing::TestWithParam<BadCluster> {};

TEST_P(ClusterConfigErrors, NameTheLineAndField) {
  const BadCluster& bad = GetParam();
  try {
    Applied(bad.text);
    ADD_FAILURE() << "accepted:\n" << bad.text;
  } catch (const InputError& e) {
    const std::string what = e.what();
    EXPECT_EQ(e.file(), "cluster.toml");
    EXPECT_EQ(e.line(), bad.line) << what;
    EXPECT_EQ(e.field(), bad.field) << what;
    EXPECT_NE(what.find("cluster.toml:" + std::to_string(bad.line) + ":"), std::string::npos)
        << what;
    EXPECT_NE(what.find(std::string("field '") + bad.field + "'"), std::string::npos) << what;
  }
}

INSTANTIATE_TEST_SUITE_P(
    Malformed, ClusterConfigErrors,
    ::testing::Values(
        BadCluster{"[cluster]\nslots = 2\nserver = 4\n", 3, "cluster.server"},
        BadCluster{"[cluster]\nservers = 0\n", 2, "cluster.servers"},
        BadCluster{"[cluster]\nservers = 2.5\n", 2, "cluster.servers"},
        BadCluster{"[cluster]\nslots = -1\n", 2, "cluster.slots"},
        BadCluster{"[cluster]\nslots = \"4\"\n", 2, "cluster.slots"},
        BadCluster{"[cluster]\ncpu_speed = 0\n", 2, "cluster.cpu_speed"},
        BadCluster{"[cluster]\nnic = 0\n", 2, "cluster.nic"},
        BadCluster{"[cluster]\nnic = \"1 Gbit\"\n", 2, "cluster.nic"},
        BadCluster{"[cluster]\nnic = -5\n", 2, "cluster.nic"},
        BadCluster{"[cluster]\ndisk = \"-1MB/s\"\n", 2, "cluster.disk"},
        BadCluster{"[cluster]\nmemory = \"lots\"\n", 2, "cluster.memory"},
        BadCluster{"[cluster]\ntopology = \"fat-tree\"\n", 2, "cluster.topology"},
        BadCluster{"[cluster]\ntopology = 2\n", 2, "cluster.topology"},
        BadCluster{"[cluster]\nservers_per_rack = 0\n", 2, "cluster.servers_per_rack"},
        BadCluster{"[cluster]\noversubscription = -1\n", 2, "cluster.oversubscription"},
        BadCluster{"[cluster]\nslot_rate = 0\n", 2, "cluster.slot_rate"},
        BadCluster{"[cluster]\nreplicas = 0\n", 2, "cluster.replicas"},
        BadCluster{"[cluster]\nservers = 4\n[[cluster.class]]\ncount = 1\n", 2, "cluster.servers"},
        BadCluster{"[cluster]\n[[cluster.class]]\nname = \"a\"\n", 2, "cluster.class[0].count"},
        BadCluster{"[cluster]\n[[cluster.class]]\ncount = 1\n[[cluster.class]]\ncount = 0\n", 5,
                   "cluster.class[1].count"},
        BadCluster{"[cluster]\n[[cluster.class]]\ncount = 1\nslot = 2\n", 4,
                   "cluster.class[0].slot"},
        BadCluster{"[cluster]\n[[cluster.class]]\ncount = 1\nnic = \"fast\"\n", 4,
                   "cluster.class[0].nic"},
        BadCluster{"[cluster]\n[cluster.class]\ncount = 1\n", 2, "cluster.class"}));

TEST(ClusterConfig, ServersNeedsASingleClass) {
  ClusterSpec spec;
  spec.classes = {ServerClass{.name = "a", .count = 1}, ServerClass{.name = "b", .count = 2}};
  try {
    Apply("[cluster]\nservers = 9\n", spec);
    FAIL() << "no error";
  } catch (const InputError& e) {
    EXPECT_EQ(e.line(), 2);
    EXPECT_EQ(e.field(), "cluster.servers");
  }
}

}  // namespace
}  // namespace slotflow
