// Resources beyond the network (disks and memory, as JTPW §2.2's node load weighs them): a task
// reads its input (over the source's disk when disks are modelled), computes, and writes its
// output to its own disk; disks are shared like links; memory limits where a task may start;
// per-server utilisation is readable.
#include <gtest/gtest.h>

#include <array>
#include <map>
#include <string>
#include <vector>

#include "engine/engine.h"
#include "network/network.h"
#include "scenario.h"
#include "sim/lifecycle.h"

namespace slotflow::testing {
namespace {

ClusterSpec WithDisk(ClusterSpec c, BytesPerSecond disk) {
  for (ServerClass& sc : c.classes) sc.disk = disk;
  return c;
}

TaskSpec Writing(Bytes input, Seconds compute, Bytes output) {
  TaskSpec t = Task(input, compute);
  t.output = output;
  return t;
}

// One server (so the input block is on it), disk 1 unit/s: read 2 units of input from the local
// disk (2 s), compute 1 s,
// write 3 units (3 s) → 6. Without a modelled disk only the compute takes time.
TEST(Disk, ATaskReadsComputesAndWritesInTurn) {
  Scenario s;
  s.cluster = WithDisk(UnitCluster(1, 1), 1.0);
  s.workload.source = "disk";
  s.workload.jobs = {Job("A", 0, {StageSpec{"map", {}, {Writing(2, 1, 3)}}})};
  EXPECT_DOUBLE_EQ(s.Finishes().at("A"), 6);
  s.cluster = UnitCluster(1, 1);
  EXPECT_DOUBLE_EQ(s.Finishes().at("A"), 1);
}

// Two tasks on one server write 1 unit each at once: they share the disk, 1/2 each → both end
// at 1 + 2 = 3.
TEST(Disk, ConcurrentWritesShareTheDisk) {
  Scenario s;
  s.cluster = WithDisk(UnitCluster(1, 2), 1.0);
  s.workload.source = "disk";
  s.workload.jobs = {Job("A", 0, {StageSpec{"map", {}, {Writing(0, 1, 1), Writing(0, 1, 1)}}})};
  EXPECT_DOUBLE_EQ(s.Finishes().at("A"), 3);
}

// Without an explicit output a task writes what its child stages read from it: the map writes
// the reducer's 2 units (2 s) before the reducer can start; the reducer's bytes are then local.
TEST(Disk, AMapWritesWhatItsReducersRead) {
  Scenario s;
  s.cluster = WithDisk(UnitCluster(1, 1), 1.0);
  s.workload.source = "disk";
  s.workload.jobs = {
      Job("A", 0, {StageSpec{"map", {}, {Task(0, 1)}}, StageSpec{"reduce", {0}, {Task(2, -1)}}})};
  // map: compute 1, write 2 → 3; reduce: compute 2 (its input at slot rate 1) → 5.
  EXPECT_DOUBLE_EQ(s.Finishes().at("A"), 5);
  s.cluster = UnitCluster(1, 1);
  EXPECT_DOUBLE_EQ(s.Finishes().at("A"), 3);
}

// Two slots but memory for one 3-unit task at a time: the tasks run one after the other, under
// every scheduler; without modelled memory they run together.
TEST(Memory, ATaskStartsOnlyWhereItFits) {
  for (const std::string scheduler : {"greedy", "nats", "neat"}) {
    Scenario s;
    s.cluster = UnitCluster(1, 2);
    s.cluster.classes[0].memory = 4;
    s.workload.source = "memory";
    TaskSpec t = Task(0, 1);
    t.memory = 3;
    s.workload.jobs = {Job("A", 0, {StageSpec{"map", {}, {t, t}}})};
    s.scheduler = scheduler;
    EXPECT_DOUBLE_EQ(s.Finishes().at("A"), 2) << scheduler;
    s.cluster.classes[0].memory = 0;
    EXPECT_DOUBLE_EQ(s.Finishes().at("A"), 1) << scheduler;
  }
}

TaskSpec WithCpus(TaskSpec t, int cpus) {
  t.cpus = cpus;
  return t;
}

// One server of 4 slots; a task holding 3 and two holding 2, 1 s each. No two of the three fit
// together except the two 2-slot tasks, so in whatever order a scheduler takes them the job
// ends at 2; with one slot each all three run at once and it ends at 1. The heartbeat
// schedulers (delay, fifo, tcds) place at a server's heartbeat, every 3 s: the 3-slot task at
// 0, the two others at 3, so the job ends at 4. Every built-in task scheduler, with the
// invariants checked after every event.
TEST(Cpus, EverySchedulerPlacesATaskOnlyWhereItsSlotsAreFree) {
  const std::map<std::string, double> expected = {
      {"capacity", 2}, {"delay", 4}, {"fifo", 4}, {"greedy", 2}, {"jtpw", 2}, {"loadAware", 2},
      {"minDist", 2},  {"nats", 2},  {"neat", 2}, {"random", 2}, {"tcds", 4}};
  for (const auto& [scheduler, finish] : expected) {
    Scenario s;
    s.cluster = UnitCluster(1, 4);
    s.workload.source = "cpus";
    const std::vector<TaskSpec> tasks = {WithCpus(Task(0, 1), 3), WithCpus(Task(0, 1), 2),
                                         WithCpus(Task(0, 1), 2)};
    s.workload.jobs = {Job("A", 0, {StageSpec{"map", {}, tasks}})};
    s.scheduler = scheduler;
    s.simulation.check = true;
    const RunResult r = s.Run();
    ASSERT_EQ(r.jobs.size(), 1u) << scheduler;
    EXPECT_DOUBLE_EQ(r.jobs[0].finish, finish) << scheduler;
    for (TaskSpec& t : s.workload.jobs[0].stages[0].tasks) t.cpus = 1;
    EXPECT_DOUBLE_EQ(s.Finishes().at("A"), 1) << scheduler;
  }
}

// A task with 3 cpus on a 4-slot server uses 3/4 of it, and its slot-seconds count 3 times.
TEST(Cpus, ATaskHoldsItsSlotsInTheUtilisation) {
  Scenario s;
  s.cluster = UnitCluster(1, 4);
  s.workload.source = "cpus";
  s.workload.jobs = {Job("A", 0, {StageSpec{"map", {}, {WithCpus(Task(0, 2), 3)}}})};
  s.simulation.collect_utilisation = true;
  const RunResult r = s.Run();
  ASSERT_FALSE(r.utilisation.empty());
  EXPECT_DOUBLE_EQ(r.utilisation.front().cpu, 0.75);
  // 3 slots for 2 s of the cluster's 4 slots for 2 s.
  EXPECT_DOUBLE_EQ(r.summary.slot_utilisation, 0.75);
}

// Over time (utilisation.csv): the task of the first test holds the slot from 0 to 6 and keeps
// the disk busy while it reads (0-2) and writes (3-6); a row whenever something changed.
TEST(Utilisation, IsRecordedWheneverItChanges) {
  Scenario s;
  s.cluster = WithDisk(UnitCluster(1, 1), 1.0);
  s.workload.source = "disk";
  s.workload.jobs = {Job("A", 0, {StageSpec{"map", {}, {Writing(2, 1, 3)}}})};
  s.simulation.collect_utilisation = true;
  const RunResult r = s.Run();
  std::vector<std::array<double, 4>> rows;  // t, server, cpu, disk
  for (const UtilisationSample& u : r.utilisation) {
    rows.push_back({u.t, static_cast<double>(u.server), u.cpu, u.disk});
    EXPECT_EQ(u.memory, 0);
    EXPECT_EQ(u.uplink + u.downlink, 0);
  }
  EXPECT_EQ(rows, (std::vector<std::array<double, 4>>{
                      {0, 0, 1, 1}, {2, 0, 1, 0}, {3, 0, 1, 1}, {6, 0, 0, 0}}));
  s.simulation.collect_utilisation = false;
  EXPECT_TRUE(s.Run().utilisation.empty());
}

TEST(Utilisation, SlotsMemoryDiskAndNicAreReadable) {
  ClusterSpec spec = WithDisk(UnitCluster(2, 2), 1.0);
  spec.classes[0].memory = 4;
  const Cluster cluster(spec);
  Engine engine;
  Network net(cluster, NetworkPolicyRegistry::Get().Make("fair"), engine.clock());
  SimState state(cluster, net);
  TaskLifecycle life(cluster, net, engine, state);
  TaskSpec reader = Task(2, 1);
  reader.memory = 1;
  StageSpec map{"map", {}, {reader}};
  map.replicas = Replicas({{1}});  // read remotely: server 1's disk and uplink, server 0's downlink
  const JobSpec job = Job("A", 0, {map});
  life.Arrive(life.AddJob(job, nullptr));
  life.Place(TaskId{0}, ServerId{0});
  net.Resolve();
  const SimState::Utilisation u0 = state.ServerUtilisation(ServerId{0});
  EXPECT_DOUBLE_EQ(u0.cpu, 0.5);
  EXPECT_DOUBLE_EQ(u0.memory, 0.25);
  EXPECT_DOUBLE_EQ(u0.downlink, 1);
  EXPECT_DOUBLE_EQ(u0.disk, 0);
  const SimState::Utilisation u1 = state.ServerUtilisation(ServerId{1});
  EXPECT_DOUBLE_EQ(u1.cpu, 0);
  EXPECT_DOUBLE_EQ(u1.disk, 1);
  EXPECT_DOUBLE_EQ(u1.uplink, 1);
}

// A map task that cannot run where its block is (server 0 has no slot) reads its 4 units from
// there: over the network (4 s at NIC 1) before its 4 s of compute, or with map_reads
// compute-only (Duopoly §2.1) not at all; either way the read counts as remote.
TEST(MapReads, ComputeOnlyReadsMoveNothingOverTheNetwork) {
  Scenario s;
  s.cluster = UnitCluster(1, 1);
  s.cluster.classes.insert(s.cluster.classes.begin(),
                           ServerClass{.name = "holder", .count = 1, .slots = 0, .nic = 1.0});
  s.workload.source = "map-reads";
  StageSpec map{"map", {}, {Task(4)}};
  map.replicas = Replicas({{0}});
  s.workload.jobs = {Job("A", 0, {map})};
  RunResult network = s.Run();
  EXPECT_DOUBLE_EQ(network.jobs.at(0).finish, 8);
  s.cluster.map_reads = MapReads::kComputeOnly;
  RunResult compute_only = s.Run();
  EXPECT_DOUBLE_EQ(compute_only.jobs.at(0).finish, 4);
  EXPECT_DOUBLE_EQ(compute_only.jobs.at(0).local_fraction, 0);
  EXPECT_DOUBLE_EQ(compute_only.summary.network_bytes, 0);
  EXPECT_DOUBLE_EQ(network.summary.network_bytes, 4);
}

}  // namespace
}  // namespace slotflow::testing
