// What a real cluster's transport and task launch add to the fluid model (the cluster's
// payload_efficiency, task_launch_latency and flow_start_latency): hand-checked job times on
// unit clusters (NIC 1 unit/s, a slot computes 1 unit/s); the defaults add nothing.
#include <gtest/gtest.h>

#include <limits>
#include <string>

#include "api/cluster.h"
#include "api/error.h"
#include "scenario.h"

namespace slotflow::testing {
namespace {

// A map pinned on server 0 (no input, 1 s of compute) and a reducer pinned on server 1 that
// fetches 2 units from it and computes 1 s.
Scenario MapThenFetch() {
  Scenario s;
  s.cluster = UnitCluster(2, 1);
  s.workload.source = "transport";
  s.workload.jobs = {Job(
      "A", 0, {StageSpec{"map", {}, {Task(0, 1, 0)}}, StageSpec{"reduce", {0}, {Task(2, 1, 1)}}})};
  return s;
}

// Without the settings: map 0..1, fetch 1..3, compute 3..4.
TEST(TransportCosts, TheDefaultsAddNothing) {
  EXPECT_DOUBLE_EQ(MapThenFetch().Finishes().at("A"), 4);
}

// Half the link's rate carries payload: the 2 units take 4 s, so 1 + 4 + 1.
TEST(TransportCosts, PayloadEfficiencySlowsNetworkBytes) {
  Scenario s = MapThenFetch();
  s.cluster.payload_efficiency = 0.5;
  EXPECT_DOUBLE_EQ(s.Finishes().at("A"), 6);
}

// Launch 0.125 s per task; the reducer's fetch crosses the network, so it waits 0.0625 s more;
// the map reads nothing and does not: map 0.125..1.125, reducer placed at 1.125, fetches from
// 1.3125 to 3.3125, computes to 4.3125.
TEST(TransportCosts, LaunchAndFlowStartLatenciesDelayTheReads) {
  Scenario s = MapThenFetch();
  s.cluster.task_launch_latency = 0.125;
  s.cluster.flow_start_latency = 0.0625;
  s.simulation.collect_tasks = true;
  const RunResult r = s.Run();
  EXPECT_DOUBLE_EQ(r.jobs.at(0).finish, 4.3125);
  ASSERT_EQ(r.tasks.size(), 2U);
  EXPECT_DOUBLE_EQ(r.tasks[0].read_done, 0.125);  // the map: launched, nothing to read
  EXPECT_DOUBLE_EQ(r.tasks[1].placed, 1.125);
  EXPECT_DOUBLE_EQ(r.tasks[1].read_done, 3.3125);  // 1.125 + 0.1875 + 2
}

// A launching task holds its slot: two 1 s maps on one slot with 0.5 s launches end at 1.5 and
// 3.
TEST(TransportCosts, ALaunchingTaskHoldsItsSlot) {
  Scenario s;
  s.cluster = UnitCluster(1, 1);
  s.cluster.task_launch_latency = 0.5;
  s.workload.source = "launch";
  s.workload.jobs = {Job("A", 0, {StageSpec{"map", {}, {Task(0, 1)}}}),
                     Job("B", 0, {StageSpec{"map", {}, {Task(0, 1)}}})};
  const auto f = s.Finishes();
  EXPECT_DOUBLE_EQ(f.at("A"), 1.5);
  EXPECT_DOUBLE_EQ(f.at("B"), 3);
}

// A map reading its block away from its holder waits for the flow start (0.5 + 4 + 4 with
// network reads); read as compute-only (Duopoly §2.1) nothing crosses the network and it does
// not.
TEST(TransportCosts, OnlyReadsAcrossTheNetworkWaitForTheFlowStart) {
  Scenario s;
  s.cluster = UnitCluster(1, 1);
  s.cluster.classes.insert(s.cluster.classes.begin(),
                           ServerClass{.name = "holder", .count = 1, .slots = 0, .nic = 1.0});
  s.cluster.flow_start_latency = 0.5;
  s.workload.source = "remote-read";
  StageSpec map{"map", {}, {Task(4)}};
  map.replicas = Replicas({{0}});
  s.workload.jobs = {Job("A", 0, {map})};
  EXPECT_DOUBLE_EQ(s.Finishes().at("A"), 8.5);
  s.cluster.map_reads = MapReads::kComputeOnly;
  EXPECT_DOUBLE_EQ(s.Finishes().at("A"), 4);
}

// Server and rack links carry payload_efficiency of their rate; disks keep theirs.
TEST(TransportCosts, EfficiencyScalesNetworkLinksNotDisks) {
  ClusterSpec spec = UnitCluster(4, 1);
  spec.classes[0].nic = 8;
  spec.classes[0].disk = 3;
  spec.topology = TopologyKind::kTwoTier;
  spec.servers_per_rack = 2;
  spec.payload_efficiency = 0.75;
  const Cluster c(spec);
  EXPECT_DOUBLE_EQ(c.LinkCapacity(c.Uplink(ServerId{0})), 6);
  EXPECT_DOUBLE_EQ(c.LinkCapacity(c.Downlink(ServerId{3})), 6);
  EXPECT_DOUBLE_EQ(c.LinkCapacity(LinkId{8}), 12);  // rack 0's uplink: 2 × 8 × 0.75
  EXPECT_DOUBLE_EQ(c.LinkCapacity(c.Disk(ServerId{1})), 3);
}

TEST(TransportCosts, OutOfRangeValuesNameTheirField) {
  auto field_of = [](const ClusterSpec& spec) {
    try {
      spec.Validate();
    } catch (const InputError& e) {
      return std::string(e.what());
    }
    return std::string("accepted");
  };
  for (double e : {0.0, -0.5, 1.5}) {
    ClusterSpec spec = UnitCluster(1, 1);
    spec.payload_efficiency = e;
    EXPECT_NE(field_of(spec).find("cluster.payload_efficiency"), std::string::npos) << e;
  }
  ClusterSpec spec = UnitCluster(1, 1);
  spec.task_launch_latency = -1;
  EXPECT_NE(field_of(spec).find("cluster.task_launch_latency"), std::string::npos);
  spec = UnitCluster(1, 1);
  spec.flow_start_latency = std::numeric_limits<double>::infinity();
  EXPECT_NE(field_of(spec).find("cluster.flow_start_latency"), std::string::npos);
}

}  // namespace
}  // namespace slotflow::testing
